"""Fit how the reader weighs each square's confidence with its sheet,
shipped as ``referee/vision/doubt.json`` (see ``referee/vision/doubt.py``).

Why a script: the weights must come from photos anyone can draw again,
not from a file of unknown origin. It reads each photo of the folders
given with the whole reader, as a player's photo is read (grid found,
way up chosen), keeps each square's clues and whether the reader's code is
the truth's, and fits a small network (one hidden layer, Adam on the whole
draw at once, a little L2, a fixed seed) from the clues to "read right".
Photos whose grid is not found or is refused teach nothing here and are
left out.

The line under which a square is shown as doubtful is drawn where
``--false-alarms`` (by default 3 %, the issue's target) of the draw's
right squares fall under it, or higher if fewer than ``--flagged`` (by
default nine in ten, the target's share) of its wrong squares do.

Never fit on a set that is measured: the committed ``sample_sheets``, the
bench draws (seeds 2000, 2500, 4000) and ``shared/sheet_photos`` stay out.
The shipped file was fitted on three training-design draws of its own::

    for s in 20000 21000 22000; do
        python tools/make_samples.py --out /tmp/doubt$s --count 800 --seed $s --designs train --jobs 2
    done
    python tools/train_doubt.py /tmp/doubt20000 /tmp/doubt21000 /tmp/doubt22000 --jobs 2

Three draws rather than one: fitted on two and tried on the third, each
way round, the weighing flags nine in ten of the third's wrong squares
for fewer of its right ones than fitted on one of the two alone (2.95,
2.71 and 2.46 % against 3.12, 2.78 and 2.69 %).

The line is drawn on the squares the weighing was fitted on, which it may
know better than a new photo's. ``--cross-check`` weighs each draw by a
weighing fitted on the other draws alone and says where the line falls
there. For the refit's networks (not shipped; README, the round from
``dad28e3``) it falls at 0.9765, not 0.975, and 0.975 flags 94.3 % of
the wrong squares for 2.93 % of the right ones: the weighing does not
overfit its draws, so the held-out designs' 3.2 to 3.4 % comes from their
designs, not from where the line was drawn.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import sys
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # each worker one thread, before numpy loads: --jobs shares the cores
import numpy as np  # noqa: E402
from numpy.typing import NDArray  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's referee, not an installed one

from referee.rules.data import map_sides  # noqa: E402
from referee.vision.doubt import CLUES, HIDDEN, chance_right  # noqa: E402
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
        reading, rows, _overruled = read_with_clues(path.read_bytes(), truth["side"])  # no game's limits
    except VisionError:
        return None
    read = "".join(reading.grid)
    true = "".join(truth["grid"])
    free = _free_spaces(map_sides()[reading.side])
    return rows, np.array([read[i] == true[i] for i in free])


def gather(
    folders: list[Path], jobs: int
) -> tuple[NDArray[np.float64], NDArray[np.bool_], NDArray[np.int64], int]:
    """Every free square's clues and rightness over the folders' photos, the
    folder (draw) each square came from, and how many photos were read."""
    paths = [p for f in folders for p in sorted(f.glob("*.jpg"))]
    draws = [k for k, f in enumerate(folders) for _ in f.glob("*.jpg")]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            got = pool.map(_photo, paths, chunksize=8)
    else:
        got = [_photo(p) for p in paths]
    read = [(g, k) for g, k in zip(got, draws, strict=True) if g is not None]
    if not read:
        raise SystemExit("no photo was read: give folders of photos with truth files")
    return (
        np.concatenate([r for (r, _), _ in read]),
        np.concatenate([y for (_, y), _ in read]),
        np.concatenate([np.full(len(y), k, np.int64) for (_, y), k in read]),
        len(read),
    )


STEPS = 1000
"""Steps of Adam; chosen with ``HIDDEN`` by photo-grouped cross-validation
on the first fitting draw (seed 20000)."""
RATE = 0.01
L2 = 1e-4


def fit(
    x: NDArray[np.float64], right: NDArray[np.bool_], hidden: int = HIDDEN, steps: int = STEPS, seed: int = 0
) -> dict[str, object]:
    """A network from the clues ``x`` to the chance of ``right``: each clue
    scaled to unit spread, ``hidden`` rectified units, a logistic output;
    fitted by Adam on the mean log-loss over all rows at once."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-6
    z = (x - mean) / scale
    y = right.astype(np.float64)
    rng = np.random.default_rng(seed)
    share = min(max(float(y.mean()), 1e-3), 1 - 1e-3)
    params = [
        rng.normal(0.0, 1.0 / np.sqrt(z.shape[1]), (z.shape[1], hidden)),
        np.zeros(hidden),
        rng.normal(0.0, 1.0 / np.sqrt(hidden), hidden),
        np.array(np.log(share / (1 - share))),
    ]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    for t in range(1, steps + 1):
        w1, b1, w2, b2 = params
        h = np.maximum(z @ w1 + b1, 0.0)
        p = 1.0 / (1.0 + np.exp(-(h @ w2 + b2)))
        g = (p - y) / len(y)
        gh = np.outer(g, w2) * (h > 0)
        grads = [z.T @ gh + L2 * w1, gh.sum(axis=0), h.T @ g + L2 * w2, np.array(g.sum())]
        for i, gr in enumerate(grads):
            first[i] = 0.9 * first[i] + 0.1 * gr
            second[i] = 0.999 * second[i] + 0.001 * gr * gr
            step = first[i] / (1 - 0.9**t) / (np.sqrt(second[i] / (1 - 0.999**t)) + 1e-8)
            params[i] = params[i] - RATE * step
    w1, b1, w2, b2 = params
    return {
        "clues": list(CLUES),
        "mean": [round(float(v), 6) for v in mean],
        "scale": [round(float(v), 6) for v in scale],
        "hidden_weights": [[round(float(v), 6) for v in row] for row in w1],
        "hidden_bias": [round(float(v), 6) for v in b1],
        "weights": [round(float(v), 6) for v in w2],
        "bias": round(float(b2), 6),
    }


def line(chance: NDArray[np.float64], right: NDArray[np.bool_], flagged: float, false_alarms: float) -> float:
    """The confidence under which ``false_alarms`` of the right squares
    fall, or, if higher, the one under which ``flagged`` of the wrong ones do."""
    if right.all():
        raise SystemExit("every square was read right: the draw has nothing to learn doubt from")
    if not right.any():
        raise SystemExit("every square was read wrong: the draw cannot say where doubt begins")
    wrong_line = np.quantile(chance[~right], flagged)
    return round(float(max(wrong_line, np.quantile(chance[right], false_alarms))), 4)


def weighed_apart(
    x: NDArray[np.float64], right: NDArray[np.bool_], draw: NDArray[np.int64]
) -> NDArray[np.float64]:
    """Each draw's squares weighed by a weighing fitted on the other draws
    alone: how sure the weighing is of squares it was not fitted on."""
    chance = np.empty(len(right))
    for k in np.unique(draw):
        mine = draw == k
        chance[mine] = chance_right(x[mine], fit(x[~mine], right[~mine]))
    return chance


def _share(flag: NDArray[np.bool_], right: NDArray[np.bool_]) -> str:
    return f"{flag[~right].mean():.1%} of wrong flagged, {flag[right].mean():.2%} of right"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes for reading the photos")
    ap.add_argument("--flagged", type=float, default=0.9, help="least share of the wrong squares to flag")
    ap.add_argument("--false-alarms", type=float, default=0.03, help="most right squares to flag")
    ap.add_argument(
        "--cross-check",
        action="store_true",
        help="also weigh each folder's squares by a weighing fitted on the other folders alone, and say "
        "where the line falls on them and what the shipped line flags there",
    )
    args = ap.parse_args()
    if args.cross_check and len(args.folders) < 2:
        ap.error("--cross-check fits on some folders and tries on another: give two folders or more")
    x, right, draw, photos = gather(args.folders, args.jobs)
    model = fit(x, right)
    chance = chance_right(x, model)
    model["doubtful"] = line(chance, right, args.flagged, args.false_alarms)
    model["fitted_on"] = f"{photos} photos, {len(right)} squares, {int((~right).sum())} read wrong"
    model["networks"] = networks_fingerprint()
    flag = chance < float(model["doubtful"])  # type: ignore[arg-type]
    print(
        f"{photos} photos, {len(right)} squares, {int((~right).sum())} wrong; line {model['doubtful']}: "
        + _share(flag, right)
    )
    if args.cross_check:
        apart = weighed_apart(x, right, draw)
        print(
            f"each folder weighed by a weighing fitted on the others: line "
            f"{line(apart, right, args.flagged, args.false_alarms)} there; line {model['doubtful']}: "
            + _share(apart < float(model["doubtful"]), right)  # type: ignore[arg-type]
        )
    args.out.write_text(json.dumps(model, indent=1) + "\n")


if __name__ == "__main__":
    main()
