"""Train the square classifier shipped as ``referee/vision/cells.npz``.

Why a script: the weights must be reproducible from the seeded synthetic
photos (``tools/make_samples.py``), not a file of unknown origin. It runs the
reader's own stages on each photo (rectify, light) so the network learns
from what it will see, with the grid's corners and orientation taken from
the truth (``corners_px``, or ``corners`` in the older truth files such as
``sample_sheets/``), so training depends neither on the grid finder nor on
the orientation stage, and a wrong turn never teaches it a wrong label. Then it
fits a small network (ReLU hidden layers, softmax out) with Adam, in numpy,
weighting rare codes (heroes, monsters, destroyed spaces) up so that they
are not sacrificed to the common ones. ``--members N`` fits N such networks
alike, each from its own seed, and ships them together: the reader reads
their mean (``cells.ensemble``). ``--member FILE`` hands it a network it
already fitted alike (with ``--no-refit``), so that members can be fitted
one at a time, or side by side, and joined at the end. ``--start FILE``
goes on training the networks of a weights file (member k from its member
k, its input scaling kept) on the photos given, at the step size ``--lr``:
the generator's newer draws teach the shipped networks what it now draws
without refitting them from nothing on every older photo, which would need
each older generator's draws made again.

Confidence: a tenth of the photos is held out, and the softmax temperature
is chosen on it so that about ``--right-doubtful`` of the squares read right
fall under the networks' ``cells.UNSURE`` line (never sharper than the
temperature that best fits the held-out squares). Most wrong squares then
fall under it too; the script prints both shares. The final weights are
trained on all photos with that temperature, unless ``--no-refit``.

Never train on a set that is measured: the committed ``sample_sheets`` (seed
5) and the bench sets (seeds 2000, 2500 and 4000) stay out. Usage::

    python tools/make_samples.py --out /tmp/train1000 --count 2000 --seed 1000 --designs train --jobs 2
    python tools/make_samples.py --out /tmp/train3000 --count 1500 --seed 3000 --balanced --jobs 2
    python tools/train_cells.py /tmp/train1000 /tmp/train3000 --out referee/vision/cells.npz
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's referee, not an installed one

from referee.rules import terrain  # noqa: E402
from referee.rules.data import map_sides  # noqa: E402
from referee.rules.geometry import SIZE  # noqa: E402
from referee.vision.cells import CLASSES, UNSURE, ensemble, even_light, features, members  # noqa: E402
from referee.vision.errors import VisionError  # noqa: E402
from referee.vision.load import load_photo  # noqa: E402
from referee.vision.rectify import rectify  # noqa: E402

Weights = dict[str, NDArray[np.float32]]
DRAWN = [CLASSES.index(c) for c in CLASSES if c not in terrain.PRINTED]


def true_corners(truth: dict[str, object]) -> np.ndarray:
    """The grid's corners TL, TR, BR, BL of the upright sheet in displayed-photo
    pixels, from the shared truth format (``corners_px``) or the older one
    (``corners``)."""
    corners = truth.get("corners_px", truth.get("corners"))
    return np.array(corners, np.float32).reshape(4, 2)


def _photo(path: Path) -> tuple[np.ndarray, list[int], list[int]] | None:
    """One photo's features, true codes and printed codes (or -1); None if unreadable."""
    truth = json.loads(path.with_suffix(".json").read_text())
    side = map_sides()[truth["side"]]
    try:
        photo = load_photo(path.read_bytes())
    except VisionError:
        return None
    rect = rectify(photo.rgb, true_corners(truth) / np.float32(photo.scale))
    x = features(even_light(rect.canvas), side)
    y = [CLASSES.index(ch) for ch in "".join(truth["grid"])]
    codes = [side.printed(*divmod(i, SIZE)) for i in range(SIZE * SIZE)]
    return x, y, [CLASSES.index(c) if c != terrain.EMPTY else -1 for c in codes]


def extract(folder: Path, jobs: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Features, true codes, the printed code (or -1) and the photo number of every square."""
    xs, ys, printed, photo_no = [], [], [], []
    paths = sorted(folder.glob("*.jpg"))
    cv2.setNumThreads(1)  # OpenCV's own threads and fork() do not mix
    pool = multiprocessing.Pool(jobs, initializer=cv2.setNumThreads, initargs=(1,)) if jobs > 1 else None
    rows = pool.imap(_photo, paths, chunksize=8) if pool else map(_photo, paths)
    for n, row in enumerate(rows):
        if n % 100 == 0:
            print(f"  {folder}: {n} photos", flush=True)
        if row is None:
            continue
        xs.append(row[0])
        ys.append(row[1])
        printed.append(row[2])
        photo_no.append(np.full(SIZE * SIZE, n))
    if pool:
        pool.close()
        pool.join()
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(printed), np.concatenate(photo_no)


def train(
    x: np.ndarray,
    y: np.ndarray,
    hidden: int,
    layers: int,
    epochs: int,
    seed: int,
    balance: float,
    batch: int = 256,
    lr: float = 2e-3,
    start: Weights | None = None,
) -> Weights:
    """Adam on the class-weighted cross entropy, with a little input noise.

    ``start``: a network already trained (of the same shape) to go on from,
    its input scaling kept, instead of a random one. Training it further on
    photos of a newer generator teaches it what the generator now draws
    without refitting from nothing on every photo it has seen before."""
    rng = np.random.default_rng(seed)
    if start is None:
        mean, std = x.mean(0), x.std(0) + 1e-3
    else:
        mean, std = start["mean"], start["std"]
    z = ((x - mean) / std).astype(np.float32)
    n_out = len(CLASSES)
    counts = np.bincount(y, minlength=n_out).astype(np.float64)
    cw = (counts.max() / np.maximum(counts, 1.0)) ** balance
    cw *= counts.sum() / (cw * counts).sum()
    row_weight = cw[y].astype(np.float32)
    sizes = [x.shape[1]] + [hidden] * layers + [n_out]
    depth = len(sizes) - 1
    p: dict[str, np.ndarray] = {}
    for i in range(depth):
        p[f"w{i + 1}"] = rng.normal(0, np.sqrt(2 / sizes[i]), (sizes[i], sizes[i + 1])).astype(np.float32)
        p[f"b{i + 1}"] = np.zeros(sizes[i + 1], np.float32)
    if start is not None:
        if {k: a.shape for k, a in p.items()} != {k: start[k].shape for k in p}:
            raise ValueError("the starting network is not of the shape asked for (--hidden, --layers)")
        p = {k: start[k].astype(np.float32) for k in p}
    m = {k: np.zeros_like(a) for k, a in p.items()}
    v = {k: np.zeros_like(a) for k, a in p.items()}
    decay, t = 1e-4, 0
    onehot = np.eye(n_out, dtype=np.float32)[y]
    for epoch in range(epochs):
        order = rng.permutation(len(z))
        for s in range(0, len(z), batch):
            idx = order[s : s + batch]
            acts = [z[idx] + rng.normal(0, 0.05, (len(idx), z.shape[1])).astype(np.float32)]
            for i in range(1, depth):
                acts.append(np.maximum(acts[-1] @ p[f"w{i}"] + p[f"b{i}"], 0))
            lo = acts[-1] @ p[f"w{depth}"] + p[f"b{depth}"]
            lo -= lo.max(1, keepdims=True)
            pr = np.exp(lo)
            pr /= pr.sum(1, keepdims=True)
            d = (pr - onehot[idx]) * row_weight[idx][:, None] / len(idx)
            g: dict[str, np.ndarray] = {}
            for i in range(depth, 0, -1):
                g[f"w{i}"] = acts[i - 1].T @ d + decay * p[f"w{i}"]
                g[f"b{i}"] = d.sum(0)
                if i > 1:
                    d = (d @ p[f"w{i}"].T) * (acts[i - 1] > 0)
            t += 1
            for k in p:
                m[k] = 0.9 * m[k] + 0.1 * g[k]
                v[k] = 0.999 * v[k] + 0.001 * g[k] ** 2
                p[k] -= lr * (m[k] / (1 - 0.9**t)) / (np.sqrt(v[k] / (1 - 0.999**t)) + 1e-8)
        if epoch in (epochs * 2 // 3, epochs * 5 // 6):
            lr /= 4
    out = {"mean": mean, "std": std, **p}
    return {k: np.asarray(a, np.float32) for k, a in out.items()}


def read(
    nets: list[Weights], x: np.ndarray, printed: np.ndarray, temperature: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """Codes and confidences the way the reader decides them: a printed square
    is its printed code, any other square the likeliest drawn code, its
    probability renormalised over the drawn codes."""
    probs = ensemble(x.astype(np.float32), nets, temperature)
    pick = np.where(printed >= 0, printed, 0)
    drawn = probs[:, DRAWN] / np.maximum(probs[:, DRAWN].sum(1, keepdims=True), 1e-6)
    k = drawn.argmax(1)
    codes = np.where(printed >= 0, printed, np.array(DRAWN)[k])
    conf = np.where(printed >= 0, probs[np.arange(len(x)), pick], drawn[np.arange(len(x)), k])
    return codes, conf


def calibrate(
    nets: list[Weights], x: np.ndarray, y: np.ndarray, printed: np.ndarray, right_doubtful: float
) -> float:
    """The temperature: the best fit to held-out squares, softened until about
    ``right_doubtful`` of the right ones are doubtful."""

    def nll(temp: float) -> float:
        probs = ensemble(x.astype(np.float32), nets, temp)
        return float(-np.log(np.maximum(probs[np.arange(len(y)), y], 1e-9)).mean())

    temps = np.exp(np.linspace(np.log(0.5), np.log(8.0), 40))
    fit = float(temps[int(np.argmin([nll(t) for t in temps]))])
    best = fit
    for temp in temps[temps >= fit]:
        codes, conf = read(nets, x, printed, float(temp))
        if np.mean(conf[codes == y] < UNSURE) > right_doubtful:
            break
        best = float(temp)
    return best


def report(
    nets: list[Weights], x: np.ndarray, y: np.ndarray, printed: np.ndarray, label: str, temp: float = 1.0
) -> None:
    codes, conf = read(nets, x, printed, temp)
    right = codes == y
    print(
        f"{label}: square accuracy {right.mean():.4%}; doubtful: {np.mean(conf[~right] < UNSURE):.1%} "
        f"of {int((~right).sum())} wrong, {np.mean(conf[right] < UNSURE):.2%} of right",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, default=Path("referee/vision/cells.npz"))
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--balance", type=float, default=0.5, help="class weight = (most common / count) ** this")
    ap.add_argument("--right-doubtful", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument(
        "--members",
        type=int,
        default=1,
        help="networks in the ensemble, each trained alike from its own seed (seed, seed + 1, ...)",
    )
    ap.add_argument(
        "--member",
        type=Path,
        action="append",
        default=[],
        help="a network this script already trained alike, with --no-refit, to take the next member's place",
    )
    ap.add_argument("--cache", type=Path, default=None, help="keep extracted features here")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes for reading the photos")
    ap.add_argument("--batch", type=int, default=256, help="squares per Adam step")
    ap.add_argument(
        "--lr",
        type=float,
        default=2e-3,
        help="Adam's step size, divided by 4 two thirds of the way through and again at five sixths",
    )
    ap.add_argument(
        "--start",
        type=Path,
        default=None,
        help="a weights file (such as the shipped cells.npz) whose networks to go on training, "
        "member k from its member k, instead of starting from random ones",
    )
    ap.add_argument(
        "--no-refit",
        dest="refit",
        action="store_false",
        help="ship the weights trained without the held-out tenth (the ones the temperature was fitted on) "
        "instead of training again on everything",
    )
    args = ap.parse_args()
    if args.member and args.refit:
        ap.error("--member takes a network trained without the held-out tenth: add --no-refit")
    cv2.setNumThreads(1)
    if args.cache:
        args.cache = args.cache.with_suffix(".npz")  # numpy adds the suffix when it saves
    if args.cache and args.cache.exists():
        data = np.load(args.cache)
        x, y, printed, photo = data["x"], data["y"], data["printed"], data["photo"]
    else:
        parts = [extract(f, args.jobs) for f in args.folders]
        x = np.concatenate([p[0] for p in parts])
        y = np.concatenate([p[1] for p in parts])
        printed = np.concatenate([p[2] for p in parts])
        offsets = np.cumsum([0] + [int(p[3].max()) + 1 for p in parts[:-1]])
        photo = np.concatenate([p[3] + o for p, o in zip(parts, offsets, strict=True)])
        if args.cache:
            np.savez_compressed(args.cache, x=x, y=y, printed=printed, photo=photo)
    starts = members(dict(np.load(args.start))) if args.start else []
    counts = np.bincount(y, minlength=len(CLASSES)).tolist()
    print(f"{len(x)} squares; codes {dict(zip(CLASSES, counts, strict=True))}")
    hold = photo % 10 == 0

    def fit(k: int, rows: np.ndarray) -> Weights:
        if k < len(args.member):  # the same training, already done
            return members(dict(np.load(args.member[k])))[0]
        seed = args.seed + k
        start = starts[k % len(starts)] if starts else None
        return train(
            x[rows],
            y[rows],
            args.hidden,
            args.layers,
            args.epochs,
            seed,
            args.balance,
            args.batch,
            args.lr,
            start,
        )

    nets = []
    for k in range(args.members):
        nets.append(fit(k, ~hold))
        report(nets[-1:], x[hold], y[hold], printed[hold], f"held-out photos, network {k + 1}, raw")
    report(nets, x[hold], y[hold], printed[hold], "held-out photos, their mean, raw")
    temp = calibrate(nets, x[hold], y[hold], printed[hold], args.right_doubtful)
    report(nets, x[hold], y[hold], printed[hold], f"temperature {temp:.2f}", temp)
    if args.refit:
        nets = [fit(k, np.ones(len(x), bool)) for k in range(args.members)]
    if len(nets) == 1:
        np.savez_compressed(args.out, **nets[0], temperature=np.float32(temp))
    else:
        stored = {f"m{k}.{name}": a for k, net in enumerate(nets) for name, a in net.items()}
        np.savez_compressed(args.out, **stored, temperature=np.float32(temp))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
