"""Fit how the reader weighs each square's confidence with its sheet,
shipped as ``referee/vision/doubt.json`` (see ``referee/vision/doubt.py``).

Why a script: the weights must come from photos anyone can draw again,
not from a file of unknown origin. It reads each photo of the folders
given with the whole reader, as a player's photo is read (grid found,
way up chosen), keeps each square's clues and whether the reader's code is
the truth's, and fits a logistic regression (Newton's method, a little L2)
from the clues to "read right". Photos whose grid is not found or is
refused teach nothing here and are left out.

The line under which a square is shown as doubtful is drawn where
``--flagged`` (by default nine in ten, the issue's target) of the draw's
wrong squares fall under it.

Never fit on a set that is measured: the committed ``sample_sheets``, the
bench draws (seeds 2000, 2500) and ``shared/sheet_photos`` stay out. The
shipped file was fitted on a training-design draw of its own::

    python tools/make_samples.py --out /tmp/doubt20000 --count 800 --seed 20000 --designs train --jobs 2
    python tools/train_doubt.py /tmp/doubt20000 --jobs 2
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import sys
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's referee, not an installed one

from referee.rules.data import map_sides  # noqa: E402
from referee.vision.doubt import CLUES, chance_right  # noqa: E402
from referee.vision.errors import VisionError  # noqa: E402
from referee.vision.reader import _free_spaces, read_with_clues  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "referee" / "vision" / "doubt.json"
NETWORKS = OUT.with_name("cells.npz")


def networks_fingerprint(path: Path = NETWORKS) -> str:
    """The SHA-256 of the networks' weights file: the clues are what these
    networks make of a square, so a weighing fitted on other networks is stale."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _photo(path: Path) -> tuple[NDArray[np.float64], NDArray[np.bool_]] | None:
    """One photo's clues, and whether each free square was read right."""
    truth = json.loads(path.with_suffix(".json").read_text())
    try:
        reading, rows = read_with_clues(path.read_bytes(), truth["side"])
    except VisionError:
        return None
    read = "".join(reading.grid)
    true = "".join(truth["grid"])
    free = _free_spaces(map_sides()[reading.side])
    return rows, np.array([read[i] == true[i] for i in free])


def gather(folders: list[Path], jobs: int) -> tuple[NDArray[np.float64], NDArray[np.bool_], int]:
    """Every free square's clues and rightness over the folders' photos, and
    how many photos were read."""
    paths = [p for f in folders for p in sorted(f.glob("*.jpg"))]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            got = pool.map(_photo, paths, chunksize=8)
    else:
        got = [_photo(p) for p in paths]
    read = [g for g in got if g is not None]
    if not read:
        raise SystemExit("no photo was read: give folders of photos with truth files")
    return np.concatenate([r for r, _ in read]), np.concatenate([y for _, y in read]), len(read)


def fit(
    x: NDArray[np.float64], right: NDArray[np.bool_], l2: float = 1e-3, steps: int = 50
) -> dict[str, object]:
    """Logistic regression of ``right`` on the clues ``x``, each clue scaled
    to unit spread first so that one L2 weight suits them all."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-6
    z = np.column_stack([np.ones(len(x)), (x - mean) / scale])
    y = right.astype(np.float64)
    w = np.zeros(z.shape[1])
    penalty = l2 * np.eye(len(w))
    penalty[0, 0] = 0.0  # the bias is not shrunk
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-z @ w))
        grad = z.T @ (p - y) / len(y) + penalty @ w
        hess = (z * (p * (1 - p))[:, None]).T @ z / len(y) + penalty
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return {
        "clues": list(CLUES),
        "mean": [round(float(v), 6) for v in mean],
        "scale": [round(float(v), 6) for v in scale],
        "weights": [round(float(v), 6) for v in w[1:]],
        "bias": round(float(w[0]), 6),
    }


def line(chance: NDArray[np.float64], right: NDArray[np.bool_], flagged: float) -> float:
    """The confidence under which ``flagged`` of the wrong squares fall."""
    if right.all():
        raise SystemExit("every square was read right: the draw has nothing to learn doubt from")
    return round(float(np.quantile(chance[~right], flagged)), 4)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes for reading the photos")
    ap.add_argument("--flagged", type=float, default=0.9, help="share of the draw's wrong squares to flag")
    args = ap.parse_args()
    x, right, photos = gather(args.folders, args.jobs)
    model = fit(x, right)
    chance = chance_right(x, model)
    model["doubtful"] = line(chance, right, args.flagged)
    model["fitted_on"] = f"{photos} photos, {len(right)} squares, {int((~right).sum())} read wrong"
    model["networks"] = networks_fingerprint()
    flag = chance < float(model["doubtful"])  # type: ignore[arg-type]
    print(
        f"{photos} photos, {len(right)} squares, {int((~right).sum())} wrong; line {model['doubtful']}: "
        f"{flag[~right].mean():.1%} of wrong flagged, {flag[right].mean():.2%} of right"
    )
    args.out.write_text(json.dumps(model, indent=1) + "\n")


if __name__ == "__main__":
    main()
