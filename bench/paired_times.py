"""Two readers' CPU time on the same photos, photo by photo.

A machine's CPU times move from one run to the next by more than a small
change to the reader saves, so two medians taken one after the other can
say either. Run both readers at once instead, one on each core, so that
both meet the same machine, and compare each photo's time with its own:
the median of those ratios is the change. Each file is what
``bench/scan_bench.py --json`` printed for one reader (the same folders).

Usage (the reader before in a git worktree, read by this checkout's bench,
both at once)::

    git worktree add /tmp/before REV
    PYTHONPATH=/tmp/before python bench/scan_bench.py FOLDERS --json > /tmp/before.json &
    python bench/scan_bench.py FOLDERS --json > /tmp/after.json; wait
    python bench/paired_times.py /tmp/before.json /tmp/after.json
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path


def _runs(path: Path) -> dict[str, dict[str, float]]:
    """Each folder's seconds by photo, by the folder's last name."""
    out = {}
    for line in path.read_text().splitlines():
        if line.strip():
            run = json.loads(line)
            out[Path(run["folder"]).name] = run["seconds_by_photo"]
    return out


def paired(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """The photos both read: the medians of each, and of after over before photo by photo."""
    names = sorted(set(before) & set(after))
    if not names:
        raise ValueError("the two runs share no photo")
    return {
        "photos": len(names),
        "before": statistics.median(before[n] for n in names),
        "after": statistics.median(after[n] for n in names),
        "ratio": statistics.median(after[n] / before[n] for n in names if before[n] > 0),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    args = ap.parse_args()
    before, after = _runs(args.before), _runs(args.after)
    for folder in before:
        if folder in after:
            p = paired(before[folder], after[folder])
            print(
                f"{folder}: {p['photos']} photos, CPU s median {p['before']:.3f} -> {p['after']:.3f}; "
                f"each photo's time after over before, median {p['ratio']:.3f}"
            )


if __name__ == "__main__":
    main()
