"""Train the square classifier shipped as ``referee/vision/cells.npz``.

Why a script: the weights must be reproducible from the seeded synthetic
photos (``tools/make_samples.py``), not a file of unknown origin. It runs the
reader's own stages on each photo (grid, rectify, light) so the network
learns from exactly what it will see, with the orientation taken from the
true corners so that a wrong turn never teaches it a wrong label. Then it
fits a two-layer network (ReLU hidden layer, softmax out) with Adam, in numpy.

Usage::

    python tools/make_samples.py --out /tmp/train --count 500 --seed 1000 --large-every 0
    python tools/train_cells.py /tmp/train --out referee/vision/cells.npz
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from referee.rules.data import map_sides
from referee.vision.cells import CLASSES, even_light, features, forward
from referee.vision.errors import VisionError
from referee.vision.grid import find_grid
from referee.vision.load import load_photo
from referee.vision.rectify import rectify


def extract(folder: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs, ys, groups = [], [], []
    for n, path in enumerate(sorted(folder.glob("*.jpg"))):
        truth = json.loads(path.with_suffix(".json").read_text())
        side = map_sides()[truth["side"]]
        try:
            photo = load_photo(path.read_bytes())
            quad = find_grid(photo.rgb)
        except VisionError:
            continue
        tl = np.array(truth["corners"][0]) / photo.scale
        k = int(np.argmin(np.linalg.norm(quad - tl, axis=1)))
        if np.linalg.norm(quad[k] - tl) > 20:
            continue
        rect = rectify(photo.rgb, np.roll(quad, -k, axis=0))
        xs.append(features(even_light(rect.canvas), side))
        ys.append([CLASSES.index(ch) for ch in "".join(truth["grid"])])
        groups.append(np.full(121, 0 if truth["style"] == "colour" else 1))
        if n % 50 == 0:
            print(f"  {n} photos", flush=True)
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(groups)


def train(x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    mean, std = x.mean(0), x.std(0) + 1e-3
    z = (x - mean) / std
    n_in, n_out = x.shape[1], len(CLASSES)
    p = {
        "w1": rng.normal(0, np.sqrt(2 / n_in), (n_in, hidden)),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0, np.sqrt(1 / hidden), (hidden, n_out)),
        "b2": np.zeros(n_out),
    }
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v = {k: np.zeros_like(v) for k, v in p.items()}
    lr, decay, t = 2e-3, 1e-4, 0
    onehot = np.eye(n_out)[y]
    for epoch in range(epochs):
        order = rng.permutation(len(z))
        for s in range(0, len(z), 256):
            idx = order[s : s + 256]
            a = z[idx] + rng.normal(0, 0.05, (len(idx), n_in))
            h = np.maximum(a @ p["w1"] + p["b1"], 0)
            lo = h @ p["w2"] + p["b2"]
            lo -= lo.max(1, keepdims=True)
            pr = np.exp(lo)
            pr /= pr.sum(1, keepdims=True)
            d2 = (pr - onehot[idx]) / len(idx)
            g = {"w2": h.T @ d2 + decay * p["w2"], "b2": d2.sum(0)}
            dh = (d2 @ p["w2"].T) * (h > 0)
            g["w1"] = a.T @ dh + decay * p["w1"]
            g["b1"] = dh.sum(0)
            t += 1
            for k in p:
                m[k] = 0.9 * m[k] + 0.1 * g[k]
                v[k] = 0.999 * v[k] + 0.001 * g[k] ** 2
                p[k] -= lr * (m[k] / (1 - 0.9**t)) / (np.sqrt(v[k] / (1 - 0.999**t)) + 1e-8)
        if epoch == epochs * 2 // 3:
            lr /= 4
    return {"mean": mean, "std": std, **p}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, default=Path("referee/vision/cells.npz"))
    ap.add_argument("--hidden", type=int, default=96)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--cache", type=Path, default=None, help="keep extracted features here")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if args.cache and args.cache.exists():
        data = np.load(args.cache)
        x, y, grp = data["x"], data["y"], data["g"]
    else:
        parts = [extract(f) for f in args.folders]
        x = np.concatenate([p[0] for p in parts])
        y = np.concatenate([p[1] for p in parts])
        grp = np.concatenate([p[2] for p in parts])
        if args.cache:
            np.savez_compressed(args.cache, x=x, y=y, g=grp)
    print(f"{len(x)} squares; classes {np.bincount(y, minlength=len(CLASSES))}")
    hold = np.arange(len(x)) % 10 == 0
    w = train(x[~hold], y[~hold], args.hidden, args.epochs, args.seed)
    wf = {k: np.asarray(a, np.float32) for k, a in w.items()}
    pred = forward(x[hold].astype(np.float32), wf).argmax(1)
    print(f"held-out square accuracy {np.mean(pred == y[hold]):.4f}")
    w = train(x, y, args.hidden, args.epochs, args.seed)
    np.savez_compressed(args.out, **{k: np.asarray(a, np.float32) for k, a in w.items()})
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
