"""Whether the reader tells a sheet of one map side read as another.

A pad prints its game's two sides back to back (A and B, C and D), and a
player who turns the sheet over, or a table set up for the other side,
sends the reader a photo of the side it was not asked for. It should then
say which side the photo shows ("this looks like map side B"), not read
the grid as the side asked, which scores a map the player never drew. This
reads each photo of a folder with truth (the format of
``../shared/sheet_photos/README.md``) as the other side of its pad, as
``bench/scan_bench.py`` reads a photo (one core, process time), and prints:

- photos read;
- the photo's own side named, with its 95 % interval (Wilson's): what the
  player should be told;
- another side named: the player is sent to a side the sheet is not;
- refused without a side named (no grid found, or "the printed mountains
  do not match"): the player is asked to check the side;
- read as the side asked: a map scored from the wrong side's spaces;
- CPU seconds per photo, median and 95th percentile.

``bench/scan_bench.py`` counts the other half: photos read as their own
side that are refused as another side's ("another side named").

Usage::

    python bench/side_bench.py sample_sheets ../shared/sheet_photos
    python bench/side_bench.py /tmp/holdout --jobs 2 --json
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # beside scan_bench, as a script or loaded by a test

# first, for it holds numpy to one core before numpy loads
from scan_bench import Row, columns, main_over_folders, read_all, wilson  # noqa: E402

# isort: split
import numpy as np  # noqa: E402

PAIRED = {"A": "B", "B": "A", "C": "D", "D": "C"}
"""Each side and the side printed on the back of its sheet."""

OUTCOMES = ("own side named", "another side named", "refused, no side named", "read as the side asked")


def bench(folder: Path, jobs: int = 1) -> dict[str, object]:
    """Each photo of ``folder`` read as the other side of its pad."""
    paths = sorted(folder.glob("*.jpg"))
    sides = [str(json.loads(p.with_suffix(".json").read_text())["side"]).upper() for p in paths]
    outcomes: Counter[str] = Counter()
    times: list[float] = []
    by_photo: dict[str, str] = {}
    for path, side, (seconds, reading, named) in zip(
        paths, sides, read_all(paths, [PAIRED[s] for s in sides], jobs), strict=True
    ):
        times.append(seconds)
        if not isinstance(reading, str):
            outcome = OUTCOMES[3]
        elif named is None:
            outcome = OUTCOMES[2]
        else:
            outcome = OUTCOMES[0] if named == side else OUTCOMES[1]
        outcomes[outcome] += 1
        by_photo[path.name] = f"{outcome}: {reading}" if isinstance(reading, str) else outcome
    n = len(paths)
    return {
        "folder": str(folder),
        "photos": n,
        **{o: outcomes[o] for o in OUTCOMES},
        "own_side_interval": wilson(outcomes[OUTCOMES[0]], n),
        "seconds_median": float(np.median(times)) if times else None,
        "seconds_p95": float(np.percentile(times, 95)) if times else None,
        "by_photo": by_photo,
    }


def show(results: list[dict[str, Any]]) -> str:
    """One column per folder."""

    def interval(r: dict[str, Any]) -> str:
        found = r["own_side_interval"]
        return "-" if found is None else f"{found[0]:.0%}\u2013{found[1]:.0%}"

    def seconds(v: object) -> str:
        return "-" if v is None else f"{float(v):.2f}"  # type: ignore[arg-type]

    def count(key: str) -> Row:
        return key, lambda r: str(r[key])

    rows: list[Row] = [("photos read as the other side", lambda r: str(r["photos"]))]
    rows += [count(OUTCOMES[0]), ("  95 % interval", interval), *map(count, OUTCOMES[1:])]
    rows += [("CPU seconds median", lambda r: seconds(r["seconds_median"]))]
    rows += [("CPU seconds p95", lambda r: seconds(r["seconds_p95"]))]
    return "\n".join(columns(rows, results, label_width=30))


def main() -> None:
    main_over_folders(__doc__, bench, show)


if __name__ == "__main__":
    main()
