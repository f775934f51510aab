"""How well and how fast the sheet reader reads folders of photos with known truth.

Each folder holds ``NAME.jpg`` photos beside ``NAME.json`` truths in the
format of ``../shared/sheet_photos/README.md`` (``side``, ``style`` colour or
graphite, ``grid``, ``coins``, ``corners_px``). One column per folder:

- grids found (the corners within 3 % of the grid's side of the truth),
  and the photos refused as another side's (``OtherSideError``), each a
  player sent to choose a side their sheet is not;
- colour-pencil and graphite squares right, a missed grid counting as 121
  wrong squares;
- sheets read without a wrong square, and of the normal and of the hard
  photos (``difficulty`` in the truth) apart: the hard ones (dim, blurred,
  a hand over the sheet) are read wrong far more often, and a draw's share
  of them moves the figure;
- wrong squares on the side's ruins spaces, and the sheets whose every
  wrong square is one: a pencil drawing over a printed picture is read
  wrong several times as often as on bare paper, so a fix for them is told
  from a fix for the rest;
- wrong squares flagged as doubtful, how many are not (they reach a score
  without the player being asked), and right squares flagged (the false
  alarms a player has to look at);
- sheets with a wrong square not flagged: the player confirms or corrects
  the flagged squares before a reading counts, so a sheet whose every
  wrong square is flagged ends right, and these are the sheets that reach
  a score wrong unless the player looks beyond what is shown (a grid
  found in the wrong place counts as one; a grid not found does not, the
  player being told);
- photos whose reading asks for another photo (``worth_retaking``), and the
  share of the wrong squares that lie on them;
- coins: exact, unknown (the reader said so) and wrong;
- for the grids found, the sheets without a wrong square and the exact
  coins, counted sheet by sheet, the 95 % interval of the share (Wilson's):
  24 photos that read 20 sheets right say 83 %, but a reader that reads 64
  or 93 % of such sheets right would often read 20 of 24, and a larger set
  from the same source judges the reader;
- CPU seconds per photo on one core (numpy, OpenBLAS and OpenCV held to one
  thread; process time, so other work on the machine does not count, and
  ``--jobs`` reads photos side by side on more cores, each still on one),
  median and 95th percentile; with ``--json``, each photo's too, which
  ``bench/paired_times.py`` compares between two readers.

Usage::

    python bench/scan_bench.py sample_sheets
    python bench/scan_bench.py sample_sheets /tmp/holdout ../shared/sheet_photos
    python bench/scan_bench.py ../shared/sheet_photos --json
    python bench/scan_bench.py ../shared/sheet_photos --failures
    python bench/scan_bench.py /tmp/holdout --jobs 2
"""

from __future__ import annotations

import argparse
import json
import os
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core, as the target says, before numpy loads
from collections import Counter  # noqa: E402
from collections.abc import Callable, Iterator, Sequence  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from referee.rules.data import map_sides  # noqa: E402
from referee.rules.geometry import SIZE  # noqa: E402
from referee.vision.cells import CLASSES  # noqa: E402
from referee.vision.doubt import doubtful_line  # noqa: E402
from referee.vision.errors import OtherSideError, VisionError  # noqa: E402
from referee.vision.reader import SheetReading, read_sheet  # noqa: E402

STYLES = {"color": "color", "colour": "color", "graphite": "graphite", "pencil": "graphite"}
"""Style names in truth files, old and new, to the two the figures report."""


Z95 = 1.959963984540054
"""The normal distribution's 97.5th percentile: a two-sided 95 % interval."""


def wilson(k: int, n: int) -> tuple[float, float] | None:
    """The 95 % Wilson score interval of a share, ``k`` of ``n``: unlike
    k/n plus or minus two standard errors, it stays within 0 to 1 and does
    not shrink to nothing when every sheet is read right."""
    if n == 0:
        return None
    z2 = Z95 * Z95
    centre = (k + z2 / 2) / (n + z2)
    half = Z95 * np.sqrt(k * (n - k) / n + z2 / 4) / (n + z2)
    return (max(0.0, float(centre - half)), min(1.0, float(centre + half)))


def _truth(path: Path) -> dict[str, object]:
    truth: dict[str, object] = json.loads(path.with_suffix(".json").read_text())
    if "corners_px" not in truth:
        truth["corners_px"] = truth["corners"]
    truth["style"] = STYLES[str(truth["style"])]
    return truth


Read = tuple[float, SheetReading | str, str | None]
"""One photo read: its CPU seconds, the reading or the refusal's sentence,
and the side a refusal said the photo shows (``OtherSideError``), if any."""


def read_one(path: Path, side: str) -> Read:
    """``path``'s photo read as a player's of map side ``side`` is, in this
    process on one core, with the CPU seconds it took (process time)."""
    cv2.setNumThreads(1)
    data = path.read_bytes()
    t0 = time.process_time()
    named = None
    try:
        reading: SheetReading | str = read_sheet(data, side)
    except OtherSideError as e:
        reading, named = str(e), e.other
    except VisionError as e:
        reading = str(e)
    return time.process_time() - t0, reading, named


def read_all(paths: list[Path], sides: list[str], jobs: int = 1) -> Iterator[Read]:
    """Each photo of ``paths`` read as its side in ``sides`` (``read_one``),
    in order; with ``jobs`` above one, by that many processes at once. Each
    photo's time is still its own process's CPU time on one thread, so
    every figure is the same as read one after the other, the times too
    but for the processes sharing the machine's memory caches."""
    if jobs <= 1:
        yield from map(read_one, paths, sides)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(read_one, paths, sides)


def bench(folder: Path, jobs: int = 1) -> dict[str, object]:
    paths = sorted(folder.glob("*.jpg"))
    truths = [_truth(path) for path in paths]
    times: list[float] = []
    total: Counter[str] = Counter()
    found: Counter[str] = Counter()
    right: Counter[str] = Counter()
    clean: Counter[str] = Counter()
    photos_of: Counter[str] = Counter()  # by difficulty
    clean_of: Counter[str] = Counter()
    wrong_on_ruins = only_on_ruins = 0
    wrong_flagged = wrong = right_flagged = right_total = 0
    sheets_unasked = other_side_named = 0
    retakes = wrong_in_retakes = 0
    coins: Counter[str] = Counter()
    confusion = np.zeros((len(CLASSES), len(CLASSES)), int)
    failures: list[str] = []
    line = doubtful_line()
    sides = [str(truth["side"]) for truth in truths]
    readings = read_all(paths, sides, jobs)
    for path, truth, (seconds, reading, named) in zip(paths, truths, readings, strict=True):
        style = str(truth["style"])
        total[style] += 1
        difficulty = str(truth.get("difficulty", "normal"))
        photos_of[difficulty] += 1
        ruins = set(map_sides()[str(truth["side"]).upper()].ruins)
        times.append(seconds)
        if isinstance(reading, str):
            failures.append(f"{path.name}: {reading}")
            other_side_named += named is not None  # the photo is of its truth's side
            continue
        want = np.array(truth["corners_px"], float)
        side_px = float(np.linalg.norm(want[0] - want[1]))
        off = float(np.abs(np.array(reading.corners) - want).max())
        if off > 0.03 * side_px:
            failures.append(f"{path.name}: grid found in the wrong place (off by {off:.0f} px)")
            sheets_unasked += 1  # its squares are not where the player drew: counted as unasked
            continue
        found[style] += 1
        errors = errors_on_ruins = unasked = 0
        grid = truth["grid"]
        assert isinstance(grid, list)
        for r in range(SIZE):
            for c in range(SIZE):
                t, p = grid[r][c], reading.grid[r][c]
                confusion[CLASSES.index(t), CLASSES.index(p)] += 1
                doubtful = reading.confidence[r][c] < line
                if t == p:
                    right[style] += 1
                    right_total += 1
                    right_flagged += doubtful
                else:
                    errors += 1
                    errors_on_ruins += (r, c) in ruins
                    wrong += 1
                    wrong_flagged += doubtful
                    unasked += not doubtful
        if reading.worth_retaking():
            retakes += 1
            wrong_in_retakes += errors
        if errors:
            failures.append(f"{path.name}: {errors} wrong square{'s' if errors != 1 else ''}")
        clean[style] += errors == 0
        sheets_unasked += unasked > 0
        clean_of[difficulty] += errors == 0
        wrong_on_ruins += errors_on_ruins
        only_on_ruins += 0 < errors == errors_on_ruins
        if reading.coins is None:
            coins["unknown"] += 1
        elif reading.coins == truth["coins"]:
            coins["exact"] += 1
        else:
            coins["wrong"] += 1
            failures.append(f"{path.name}: {reading.coins} coins read, {truth['coins']} marked")
    n = sum(total.values())
    cells = {s: right[s] / (SIZE * SIZE * total[s]) if total[s] else None for s in ("color", "graphite")}
    return {
        "folder": str(folder),
        "photos": n,
        "grid_found": sum(found.values()) / max(n, 1),
        "another_side_named": other_side_named,
        "cells": cells,
        "sheets_without_error": sum(clean.values()) / max(n, 1),
        "sheets_without_error_by_difficulty": {d: clean_of[d] / photos_of[d] for d in sorted(photos_of)},
        "wrong_cells": wrong,
        "wrong_cells_flagged": wrong_flagged / wrong if wrong else None,
        "wrong_cells_not_flagged": wrong - wrong_flagged,
        "wrong_cells_on_ruins": wrong_on_ruins,
        "sheets_wrong_only_on_ruins": only_on_ruins / max(n, 1),
        "right_cells_flagged": right_flagged / max(right_total, 1),
        "sheets_wrong_not_flagged": sheets_unasked / max(n, 1),
        "retakes_asked": retakes / max(n, 1),
        "wrong_cells_in_retakes": wrong_in_retakes / wrong if wrong else None,
        "intervals": {
            "grid_found": wilson(sum(found.values()), n),
            "sheets_without_error": wilson(sum(clean.values()), n),
            "coins_exact": wilson(coins["exact"], n),
        },
        "coins_exact": coins["exact"] / max(n, 1),
        "coins_unknown": coins["unknown"] / max(n, 1),
        "coins_wrong": coins["wrong"] / max(n, 1),
        "seconds_median": float(np.median(times)) if times else None,
        "seconds_p95": float(np.percentile(times, 95)) if times else None,
        "seconds_by_photo": {p.name: t for p, t in zip(paths, times, strict=True)},
        "confusion": {"order": CLASSES, "rows_true_cols_read": confusion.tolist()},
        "failures": failures,
    }


def _pct(v: object, digits: int = 1) -> str:
    return "-" if v is None else f"{float(v):.{digits}%}"  # type: ignore[arg-type]


def _interval(r: dict[str, Any], key: str) -> str:
    """A share's 95 % interval, in whole percents."""
    found = r.get("intervals", {}).get(key)
    return "-" if found is None else f"{found[0]:.0%}\u2013{found[1]:.0%}"


def _by_difficulty(shares: object) -> str:
    """Sheets without a wrong square among the normal and the hard photos."""
    if not isinstance(shares, dict):
        return "-"
    return " / ".join(_pct(shares.get(d), 0) for d in ("normal", "hard"))


Row = tuple[str, Callable[[dict[str, Any]], str]]
"""A figure's label, and how to print it from a folder's results."""


ROWS: list[Row] = [
    ("photos", lambda r: str(r["photos"])),
    ("grids found", lambda r: _pct(r["grid_found"])),
    ("  95 % interval", lambda r: _interval(r, "grid_found")),
    ("  another side named", lambda r: str(r.get("another_side_named", "-"))),
    ("colour cells right", lambda r: _pct(r["cells"]["color"], 2)),
    ("graphite cells right", lambda r: _pct(r["cells"]["graphite"], 2)),
    ("sheets without error", lambda r: _pct(r["sheets_without_error"])),
    ("  95 % interval", lambda r: _interval(r, "sheets_without_error")),
    ("  normal / hard photos", lambda r: _by_difficulty(r.get("sheets_without_error_by_difficulty"))),
    ("  wrong only on ruins", lambda r: _pct(r.get("sheets_wrong_only_on_ruins"))),
    ("wrong cells on ruins", lambda r: f"{r.get('wrong_cells_on_ruins', '-')} of {r['wrong_cells']}"),
    ("wrong cells flagged", lambda r: f"{_pct(r['wrong_cells_flagged'])} of {r['wrong_cells']}"),
    ("wrong cells not flagged", lambda r: str(r["wrong_cells_not_flagged"])),
    ("right cells flagged", lambda r: _pct(r["right_cells_flagged"], 2)),
    ("sheets wrong unflagged", lambda r: _pct(r.get("sheets_wrong_not_flagged"))),
    ("another photo asked", lambda r: _pct(r.get("retakes_asked"))),
    ("wrong cells in those", lambda r: _pct(r.get("wrong_cells_in_retakes"))),
    ("coins exact", lambda r: _pct(r["coins_exact"])),
    ("  95 % interval", lambda r: _interval(r, "coins_exact")),
    ("coins unknown", lambda r: _pct(r["coins_unknown"])),
    ("coins wrong", lambda r: _pct(r["coins_wrong"])),
    ("CPU seconds median", lambda r: "-" if r["seconds_median"] is None else f"{r['seconds_median']:.2f}"),
    ("CPU seconds p95", lambda r: "-" if r["seconds_p95"] is None else f"{r['seconds_p95']:.2f}"),
]


def columns(rows: Sequence[Row], results: list[dict[str, Any]], label_width: int = 22) -> list[str]:
    """The figures' table: a line for each of ``rows``, a column for each
    folder's ``results``, headed by the folder's name."""
    names = [Path(str(r["folder"])).name or str(r["folder"]) for r in results]
    width = max(12, *(len(n) for n in names))
    lines = [f"{'':<{label_width}}" + "".join(f"{n:>{width + 2}}" for n in names)]
    for label, cell in rows:
        lines.append(f"{label:<{label_width}}" + "".join(f"{cell(r):>{width + 2}}" for r in results))
    return lines


Results = list[dict[str, Any]]
"""One benchmark's figures, a dictionary for each folder."""


def main_over_folders(
    doc: str,
    bench: Callable[[Path, int], dict[str, Any]],
    show: Callable[[Results], str],
) -> None:
    """A benchmark's command line over folders of photos with truth (by
    default ``sample_sheets``): its figures as a table, or with ``--json``
    one JSON object per folder; ``--jobs`` photos read at once."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("folders", type=Path, nargs="*", default=[Path("sample_sheets")])
    ap.add_argument("--json", action="store_true", help="one JSON object per folder, one per line")
    ap.add_argument("--jobs", type=int, default=1, help="photos read at once, each on one core (default 1)")
    args = ap.parse_args()
    results = [bench(folder, args.jobs) for folder in args.folders]
    print("\n".join(json.dumps(r) for r in results) if args.json else show(results))


def show(results: list[dict[str, Any]], failures: bool = False) -> str:
    """Confusion matrices (and failures) first, the figures last, so that the
    tail of the output is the table to read."""
    lines: list[str] = []
    for r in results:
        conf = r["confusion"]
        assert isinstance(conf, dict)
        lines.append(f"confusion on {r['folder']} (rows: true, columns: read)")
        lines.append("      " + "".join(f"{c:>6}" for c in conf["order"]))
        for c, row in zip(conf["order"], conf["rows_true_cols_read"], strict=True):
            lines.append(f"  {c:<4}" + "".join(f"{v:>6}" for v in row))
        if failures:
            lines += [f"  {f}" for f in r["failures"]]
    return "\n".join(lines + columns(ROWS, results))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", type=Path, nargs="*", default=[Path("sample_sheets")])
    ap.add_argument("--json", action="store_true", help="one JSON object per folder, one per line")
    ap.add_argument("--failures", action="store_true", help="list every photo that was not read right")
    ap.add_argument("--jobs", type=int, default=1, help="photos read at once, each on one core (default 1)")
    args = ap.parse_args()
    results = [bench(folder, args.jobs) for folder in args.folders]
    if args.json:
        print("\n".join(json.dumps(r) for r in results))
    else:
        print(show(results, args.failures))


if __name__ == "__main__":
    main()
