"""Fit each network's ruins output layer (``cells.RUINS_HEAD``) and add it
to a weights file such as ``referee/vision/cells.npz``.

Why: a pencil drawing on a ruins space lies over a printed picture that the
reader divides out, and what is left is fainter than a drawing on bare
paper; the networks read ruins spaces wrong several times as often as other
squares. Ruins spaces are one square in twenty of what the networks are
fitted on, so their one output layer is fitted to the other nineteen.
Training the whole networks again on the ruins spaces taught them the
ruins at the cost of every other square (the rounds' record, from
``310290d``). A second output layer, read on the ruins spaces alone from
the same last hidden layer, leaves every other square's reading as it is,
and the hidden layer that ``agree`` compares squares by is the same.

Each network's ruins layer starts from its own output layer and is fitted
on the ruins spaces of the photos given (along their true corners, as
``tools/train_cells.py`` reads its photos), by cross-entropy at the
weights file's temperature, with each weight held towards its start by
``--anchor`` times its squared distance: the hidden layer was fitted with
the output layer, and a layer fitted freely on some thousands of spaces
learns their draw rather than the ruins (a second network between the
hidden layer and the codes did). The anchor is chosen on a draw of its
own (``--check``), which the script reads as the reader would, before and
after, and never on a measured set. Fitted by L-BFGS in double precision
on one thread, so the same photos give the same layers.

Usage::

    python tools/make_samples.py --out data/r90000 --count 3000 --seed 90000 --designs train --jobs 2
    python tools/make_samples.py --out data/r92000 --count 4000 --seed 92000 --designs train --jobs 2
    python tools/make_samples.py --out data/r91000 --count 1000 --seed 91000 --designs train --jobs 2
    python tools/fit_ruins_heads.py data/r90000 data/r92000 --check data/r91000 --cache-dir data/kept \\
        --anchor 0.01 --out referee/vision/cells.npz
"""

from __future__ import annotations

import argparse
import os
import sys

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
from pathlib import Path  # noqa: E402
from typing import NamedTuple  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's referee, not an installed one
sys.path.insert(0, str(ROOT / "tools"))

from train_cells import DRAWN, gather  # noqa: E402

from referee.vision.cells import RUINS_HEAD, hidden, mean_of, members, on_ruins  # noqa: E402

SHIPPED = ROOT / "referee" / "vision" / "cells.npz"
BATCH = 4096


class Ruins(NamedTuple):
    """The ruins spaces of some photos: each network's last hidden layer
    (networks x spaces x units) and each space's true code."""

    layers: np.ndarray
    y: np.ndarray


def ruins_of(
    folders: list[Path], nets: list[dict[str, np.ndarray]], cache_dir: Path | None, jobs: int
) -> Ruins:
    """The ruins spaces of the photos in ``folders``, draw by draw, so that
    only their squares are held, not every square of every draw."""
    layers, ys = [], []
    for folder in folders:
        sq = gather([folder], jobs, cache_dir)
        rows = np.flatnonzero(on_ruins(sq.x))
        x, pics, y = sq.x[rows], sq.pics[rows], sq.y[rows]
        del sq
        layers.append(
            np.stack(
                [
                    np.concatenate(
                        [
                            hidden(x[s : s + BATCH], w, pics[s : s + BATCH].astype(np.float32) / 255.0)
                            for s in range(0, len(y), BATCH)
                        ]
                    )
                    for w in nets
                ]
            )
        )
        ys.append(y)
        print(f"  {folder}: {len(y)} ruins spaces", flush=True)
    return Ruins(np.concatenate(layers, axis=1), np.concatenate(ys))


def output_layer(w: dict[str, np.ndarray]) -> tuple[str, str]:
    """The names of a network's output layer's weights and bias."""
    last = sum(1 for name in w if name.startswith("w"))
    return f"w{last}", f"b{last}"


def fit_head(
    layer: np.ndarray, y: np.ndarray, start: tuple[np.ndarray, np.ndarray], temperature: float, anchor: float
) -> tuple[np.ndarray, np.ndarray]:
    """One network's ruins layer: weights and bias fitted on the hidden
    layer ``layer`` of spaces whose codes are ``y``, from ``start`` and held
    towards it by ``anchor`` (the mean cross-entropy plus ``anchor`` times
    the squared distance from the start)."""
    import torch

    torch.set_num_threads(1)
    z = torch.tensor(layer, dtype=torch.float64)
    codes = torch.tensor(y, dtype=torch.int64)
    w0 = torch.tensor(start[0], dtype=torch.float64)
    b0 = torch.tensor(start[1], dtype=torch.float64)
    w = w0.clone().requires_grad_(True)
    b = b0.clone().requires_grad_(True)
    opt = torch.optim.LBFGS(
        [w, b], max_iter=500, tolerance_grad=1e-9, tolerance_change=1e-12, line_search_fn="strong_wolfe"
    )

    def loss() -> torch.Tensor:
        opt.zero_grad()
        value = torch.nn.functional.cross_entropy((z @ w + b) / temperature, codes)
        value = value + anchor * (((w - w0) ** 2).sum() + ((b - b0) ** 2).sum())
        value.backward()  # type: ignore[no-untyped-call]
        return value

    opt.step(loss)  # type: ignore[no-untyped-call]
    return w.detach().numpy().astype(np.float32), b.detach().numpy().astype(np.float32)


def mean_probs(ruins: Ruins, heads: list[tuple[np.ndarray, np.ndarray]], temperature: float) -> np.ndarray:
    """The networks' mean probabilities on the ruins spaces through
    ``heads``, each an output layer over its network's last hidden layer,
    by the reader's own arithmetic (``cells.mean_of``)."""
    return mean_of(list(ruins.layers), [{"w1": w, "b1": b} for w, b in heads], temperature)


def judged(ruins: Ruins, heads: list[tuple[np.ndarray, np.ndarray]], temperature: float) -> str:
    """How the spaces read through ``heads``, as the reader decides a code
    (the likeliest a player can draw): wrong spaces, and the mean
    cross-entropy of the true codes."""
    probs = mean_probs(ruins, heads, temperature)
    drawn = probs[:, DRAWN]
    codes = np.array(DRAWN)[drawn.argmax(axis=1)]
    loss = -np.log(np.maximum(probs[np.arange(len(ruins.y)), ruins.y], 1e-12)).mean()
    return f"{int((codes != ruins.y).sum())} of {len(ruins.y)} wrong, cross-entropy {loss:.4f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", type=Path, help="draws of photos with their truth to fit on")
    ap.add_argument("--check", type=Path, required=True, help="a draw of its own, read before and after")
    ap.add_argument("--anchor", type=float, nargs="+", default=[0.01])
    ap.add_argument("--weights", type=Path, default=SHIPPED)
    ap.add_argument("--out", type=Path, help="write the weights with the ruins layers of the first --anchor")
    ap.add_argument("--cache-dir", type=Path, default=None)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    stored = dict(np.load(args.weights))
    temperature = float(stored.get("temperature", 1.0))
    prefixes = [
        f"{m}." for m in sorted({k.split(".", 1)[0] for k in stored if "." in k}, key=lambda m: int(m[1:]))
    ]
    nets = members(stored)
    starts = [(w[output_layer(w)[0]], w[output_layer(w)[1]]) for w in nets]
    fit_on = ruins_of(args.folders, nets, args.cache_dir, args.jobs)
    check = ruins_of([args.check], nets, args.cache_dir, args.jobs)
    print(f"without ruins layers: {judged(check, starts, temperature)} on {args.check}", flush=True)
    chosen = None
    for anchor in args.anchor:
        heads = [
            fit_head(layer, fit_on.y, start, temperature, anchor)
            for layer, start in zip(fit_on.layers, starts, strict=True)
        ]
        print(
            f"anchor {anchor}: {judged(check, heads, temperature)} on {args.check}; "
            f"{judged(fit_on, heads, temperature)} on the photos fitted on",
            flush=True,
        )
        chosen = chosen or heads
    if args.out and chosen is not None:
        for prefix, w, (weights, bias) in zip(prefixes or [""], nets, chosen, strict=True):
            w_name, b_name = output_layer(w)
            stored[f"{prefix}{RUINS_HEAD}{w_name[1:]}"] = weights
            stored[f"{prefix}r{b_name}"] = bias
        np.savez(args.out, **stored)
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
