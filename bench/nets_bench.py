"""The square classifier's networks alone, each and their mean, on folders
of photos with their truth: how many of the squares a player draws on each
reads wrong, with the grid's corners taken from the truth.

Why beside ``bench/scan_bench.py``: that one reads a photo as a player's is
read, every stage at once, so a change of networks shows there mixed with
the grid finder, ``agree`` and the weighing, which were fitted to the
shipped networks. This one isolates the networks, so that networks fitted
on other photos, on more of them (``tools/train_cells.py --share``) or in
another shape are compared on the same squares before anything is fitted
after them. Each photo is read as ``tools/train_cells.py`` reads its
training photos (rectified along its true corners, then its squares'
features and pictures); each weights file's networks read with its own
temperature, and a square's code is the likeliest code a player can draw
there, as the reader decides it alone.

One line per folder: the squares a player draws on, then, for each weights
file, each network's wrong squares and, for an ensemble, their mean's, with
how many of them are ruins spaces in brackets (one square in twenty, where
a pencil drawing lies over a printed picture, and a fifth of the wrong
squares of the held-out draws).

Usage::

    python bench/nets_bench.py /tmp/holdout /tmp/holdout2500 --weights referee/vision/cells.npz /tmp/other.npz

With ``--cache-dir DIR``, each folder's squares are read once and kept in
``DIR`` (``tools/train_cells.py``'s ``kept_squares``), so comparing the
next networks reads no photo again.
"""

from __future__ import annotations

import argparse
import os
import sys

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # the photos are read by --jobs processes
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's referee, not an installed one
sys.path.insert(0, str(ROOT / "tools"))

from train_cells import Seen, Squares, gather, on_ruins, read  # noqa: E402

from referee.vision.cells import members  # noqa: E402

SHIPPED = ROOT / "referee" / "vision" / "cells.npz"


def wrong_squares(sq: Squares, weights: Path) -> dict[str, tuple[int, int]]:
    """Each network of ``weights`` (and their mean, for an ensemble): the
    squares of ``sq`` a player draws on that it reads wrong, and how many
    of those are ruins spaces."""
    stored = dict(np.load(weights))
    nets = members(stored)
    temperature = float(stored.get("temperature", 1.0))
    free = sq.printed < 0
    ruins = on_ruins(sq.x)
    out = {}
    groups = [[net] for net in nets] + ([nets] if len(nets) > 1 else [])
    for k, group in enumerate(groups):
        codes, _ = read(Seen.of(group, sq), temperature)
        wrong = (codes != sq.y) & free
        out[f"network {k + 1}" if len(group) == 1 else "mean"] = (
            int(wrong.sum()),
            int((wrong & ruins).sum()),
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--weights", nargs="+", type=Path, default=[SHIPPED])
    ap.add_argument("--jobs", type=int, default=2, help="worker processes for reading the photos")
    ap.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="keep each folder's squares in a file of this folder named after it, as "
        "tools/train_cells.py does, and read them back next time",
    )
    args = ap.parse_args()
    for folder in args.folders:
        sq = gather([folder], args.jobs, args.cache_dir)
        free, ruins = sq.printed < 0, on_ruins(sq.x)
        spaces = f"{int(free.sum())} squares a player draws on ({int((free & ruins).sum())} ruins spaces)"
        parts = [f"{folder}: {spaces}"]
        for weights in args.weights:
            counts = wrong_squares(sq, weights)
            parts.append(f"{weights.name}: " + ", ".join(f"{k} {n} ({r})" for k, (n, r) in counts.items()))
        print("; ".join(parts), flush=True)


if __name__ == "__main__":
    main()
