"""How well and how fast the sheet reader reads a folder of sample photos.

Prints the grid detection rate, cell accuracy overall and per marking style,
a confusion matrix, the share of sheets read without an error, the share of
wrong cells the reader flagged as doubtful (and of right cells: the false
alarms a player has to look at), coin accuracy, and the median and 95th
percentile seconds per photo on one core.

Usage::

    python bench/scan_bench.py sample_sheets
    python bench/scan_bench.py /tmp/bench --json
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from referee.vision.cells import CLASSES
from referee.vision.errors import VisionError
from referee.vision.reader import DOUBTFUL, read_sheet


def bench(folder: Path) -> dict[str, object]:
    cv2.setNumThreads(1)
    times: list[float] = []
    found: Counter[str] = Counter()
    total: Counter[str] = Counter()
    right: Counter[str] = Counter()
    cells: Counter[str] = Counter()
    clean: Counter[str] = Counter()
    wrong_flagged = wrong = 0
    right_flagged = right_total = 0
    coins_right = coins_read = 0
    confusion = np.zeros((len(CLASSES), len(CLASSES)), int)
    failures: list[str] = []
    for path in sorted(folder.glob("*.jpg")):
        truth = json.loads(path.with_suffix(".json").read_text())
        style = truth["style"]
        total[style] += 1
        data = path.read_bytes()
        t0 = time.perf_counter()
        try:
            reading = read_sheet(data, truth["side"])
        except VisionError as e:
            times.append(time.perf_counter() - t0)
            failures.append(f"{path.name}: {e}")
            continue
        times.append(time.perf_counter() - t0)
        err = np.abs(np.array(reading.corners) - np.array(truth["corners"]))
        side_px = np.linalg.norm(np.array(truth["corners"][0]) - np.array(truth["corners"][1]))
        if err.max() > 0.03 * side_px:
            failures.append(f"{path.name}: grid found in the wrong place (off by {err.max():.0f} px)")
            continue
        found[style] += 1
        errors = 0
        for r in range(11):
            for c in range(11):
                t, p = truth["grid"][r][c], reading.grid[r][c]
                confusion[CLASSES.index(t), CLASSES.index(p)] += 1
                cells[style] += 1
                if t == p:
                    right[style] += 1
                    right_total += 1
                    right_flagged += reading.confidence[r][c] < DOUBTFUL
                else:
                    errors += 1
                    wrong += 1
                    wrong_flagged += reading.confidence[r][c] < DOUBTFUL
        clean[style] += errors == 0
        if reading.coins is not None:
            coins_read += 1
            coins_right += reading.coins == truth["coins"]
    styles = sorted(total)
    n = sum(total.values())
    out: dict[str, object] = {
        "photos": n,
        "grid_found": sum(found.values()) / max(n, 1),
        "cell_accuracy": sum(right.values()) / max(sum(cells.values()), 1),
        "sheets_without_error": sum(clean.values()) / max(n, 1),
        "wrong_cells_flagged": wrong_flagged / max(wrong, 1),
        "wrong_cells": wrong,
        "right_cells_flagged": right_flagged / max(right_total, 1),
        "coins_read": coins_read / max(n, 1),
        "coins_right_when_read": coins_right / max(coins_read, 1),
        "seconds_median": float(np.median(times)) if times else None,
        "seconds_p95": float(np.percentile(times, 95)) if times else None,
        "by_style": {
            s: {
                "photos": total[s],
                "grid_found": found[s] / total[s],
                "cell_accuracy": right[s] / max(cells[s], 1),
                "sheets_without_error": clean[s] / total[s],
            }
            for s in styles
        },
        "confusion": {"order": CLASSES, "rows_true_cols_read": confusion.tolist()},
        "failures": failures,
    }
    return out


def show(r: dict[str, object]) -> str:
    lines = [
        f"photos                 {r['photos']}",
        f"grid found             {r['grid_found']:.1%}",
        f"cell accuracy          {r['cell_accuracy']:.2%}",
        f"sheets without error   {r['sheets_without_error']:.1%}",
        f"wrong cells flagged    {r['wrong_cells_flagged']:.1%} of {r['wrong_cells']}",
        f"right cells flagged    {r['right_cells_flagged']:.2%}",
        f"coins read             {r['coins_read']:.1%}, right when read {r['coins_right_when_read']:.1%}",
        f"seconds per photo      median {r['seconds_median']:.3f}, p95 {r['seconds_p95']:.3f} (one core)",
    ]
    by_style = r["by_style"]
    assert isinstance(by_style, dict)
    for s, v in by_style.items():
        lines.append(
            f"  {s:<7} {v['photos']:>4} photos  grid {v['grid_found']:.1%}  cells {v['cell_accuracy']:.2%}"
            f"  clean sheets {v['sheets_without_error']:.1%}"
        )
    conf = r["confusion"]
    assert isinstance(conf, dict)
    lines.append("confusion (rows: true, columns: read)")
    lines.append("      " + "".join(f"{c:>7}" for c in conf["order"]))
    for c, row in zip(conf["order"], conf["rows_true_cols_read"], strict=True):
        lines.append(f"  {c:<4}" + "".join(f"{v:>7}" for v in row))
    failures = r["failures"]
    assert isinstance(failures, list)
    lines += [f"  failed: {f}" for f in failures[:20]]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path, nargs="?", default=Path("sample_sheets"))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    r = bench(args.folder)
    print(json.dumps(r) if args.json else show(r))


if __name__ == "__main__":
    main()
