"""How well the reader reads the photos it refused once the player marks the
grid's four corners (``read_sheet(..., corners=...)``, the editor's "Mark the
grid yourself").

Each photo in each folder (``NAME.jpg`` beside ``NAME.json``, as for
``bench/scan_bench.py``) is read as a player's photo is. Only those it
refuses (no grid found, or none that matched the side: the refusals the
editor offers marking for) are read again with their true corners moved as
a fingertip would: each coordinate of each corner by a random amount, up to
``--error`` squares either way (a square on a phone's screen is a few
millimetres: 0.3 is about a fingertip's width over a small grid), and kept
on the photo, as the editor keeps a tap. One line per folder:

- refused: photos refused, and how many of them the marks read;
- wrong squares over the photos read with marks, and per photo;
- the grid read with marks: its farthest corner from the truth, in squares
  (median and largest);
- CPU seconds of a read with marks, median (one core, as scan_bench).

Usage::

    python bench/marked_bench.py /tmp/holdout --error 0.3
"""

from __future__ import annotations

import argparse
import json
import os
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core, before numpy loads
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from referee.rules.geometry import SIZE  # noqa: E402
from referee.vision.errors import NoGridError, VisionError, WrongSheetError  # noqa: E402
from referee.vision.load import load_photo  # noqa: E402
from referee.vision.reader import read_sheet  # noqa: E402


def bench(folder: Path, error: float, rng: np.random.Generator) -> dict[str, object]:
    cv2.setNumThreads(1)
    refused: list[str] = []
    read: dict[str, int] = {}
    still: dict[str, str] = {}
    off: list[float] = []
    times: list[float] = []
    for path in sorted(folder.glob("*.jpg")):
        truth = json.loads(path.with_suffix(".json").read_text())
        corners = np.array(truth.get("corners_px", truth.get("corners")), float)
        data = path.read_bytes()
        try:
            read_sheet(data, str(truth["side"]))
            continue
        except (NoGridError, WrongSheetError):
            refused.append(path.name)
        square = float(np.linalg.norm(corners[0] - corners[1])) / SIZE
        marks = corners + rng.uniform(-error, error, corners.shape) * square
        marks = np.clip(marks, 0, load_photo(data).size)  # a tap lands on the photo (corners.js)
        t0 = time.process_time()
        try:
            reading = read_sheet(data, str(truth["side"]), corners=[(float(x), float(y)) for x, y in marks])
        except VisionError as e:
            times.append(time.process_time() - t0)
            still[path.name] = str(e)
            continue
        times.append(time.process_time() - t0)
        got = np.array(reading.corners, float)
        off.append(float(np.linalg.norm(got[:, None] - corners[None], axis=2).min(axis=1).max()) / square)
        grid = truth["grid"]
        read[path.name] = sum(grid[r][c] != reading.grid[r][c] for r in range(SIZE) for c in range(SIZE))
    return {
        "folder": str(folder),
        "error": error,
        "refused": len(refused),
        "read_with_marks": len(read),
        "wrong_cells": sum(read.values()),
        "wrong_by_photo": read,
        "still_refused": still,
        "corner_off_median": float(np.median(off)) if off else None,
        "corner_off_max": max(off) if off else None,
        "seconds_median": float(np.median(times)) if times else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--error", type=float, default=0.3, help="largest mark error, in squares")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="one JSON object per folder, one per line")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    for folder in args.folders:
        r = bench(folder, args.error, rng)
        if args.json:
            print(json.dumps(r), flush=True)
            continue
        n, wrong = int(r["read_with_marks"]), int(r["wrong_cells"])  # type: ignore[call-overload]
        print(
            f"{folder}: {r['refused']} refused, {n} of them read with marks"
            f" (error up to {args.error} squares); {wrong} wrong squares ({wrong / max(n, 1):.1f} a photo);"
            f" corners off {r['corner_off_median'] or 0:.2f} squares median,"
            f" {r['corner_off_max'] or 0:.2f} at most; {r['seconds_median'] or 0:.2f} s median"
        )
        for name, why in dict(r["still_refused"]).items():  # type: ignore[call-overload]
            print(f"  {name}: {why}")


if __name__ == "__main__":
    main()
