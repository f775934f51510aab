"""Whether the reader tells a photo of two map sheets from a photo of one.

At a table every sheet is of one side, and a neighbour's lying beside the
player's reads as well as theirs. Our generator never draws a second map
sheet, so no photo set has one; this joins two photos of the same side from
a folder with truth (the format of ``../shared/sheet_photos/README.md``),
side by side at one height or one above the other at one width, alternately
(the longer side then cut to ``LONGEST`` pixels, as a phone's photo), and
reads each joined photo as a player's is read. It prints how many the
reader refuses as two sheets (``TwoSheetsError``: right), how many it reads
as one sheet (which then scores one of the two as the player's), how many
it refuses otherwise, and the CPU time per photo. Pairs whose photos are
both normal (not drawn hard on purpose) are counted apart: a hard photo's
grid may be missed alone, and then there is only one sheet to find.

Never on a measured set alone as a yardstick of the reader's constants:
the pairs should come from draws no constant was chosen on.

Usage::

    python bench/two_sheets.py /tmp/t22000 --pairs 80
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.vision.errors import TwoSheetsError, VisionError
from referee.vision.reader import read_sheet

LONGEST = 2800
"""Longer side of a joined photo, in pixels: a phone's photo sent at the
size the page reduces it to is 2,400; both halves at their own size would be
a photo no phone takes."""


def pairs(folder: Path, count: int) -> list[tuple[str, Path, Path]]:
    """Up to ``count`` pairs of photos of one side, in the folder's order."""
    by_side: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(folder.glob("*.jpg")):
        by_side[str(json.loads(path.with_suffix(".json").read_text())["side"]).upper()].append(path)
    out = [(side, ps[i], ps[i + 1]) for side, ps in sorted(by_side.items()) for i in range(0, len(ps) - 1, 2)]
    return out[:count]


def joined(first: Path, second: Path, beside: bool) -> bytes:
    """The two photos in one JPEG: side by side at one height, or one above
    the other at one width."""
    a, b = (cv2.imread(str(p)) for p in (first, second))
    if beside:
        h = min(a.shape[0], b.shape[0])
        parts = [cv2.resize(x, (x.shape[1] * h // x.shape[0], h)) for x in (a, b)]
        both: NDArray[np.uint8] = np.hstack(parts)
    else:
        w = min(a.shape[1], b.shape[1])
        parts = [cv2.resize(x, (w, x.shape[0] * w // x.shape[1])) for x in (a, b)]
        both = np.vstack(parts)
    k = LONGEST / max(both.shape[:2])
    if k < 1:
        both = cv2.resize(
            both, (round(both.shape[1] * k), round(both.shape[0] * k)), interpolation=cv2.INTER_AREA
        )
    ok, jpeg = cv2.imencode(".jpg", both, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return bytes(jpeg.tobytes())


def _hard(path: Path) -> bool:
    return json.loads(path.with_suffix(".json").read_text()).get("difficulty", "normal") != "normal"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--pairs", type=int, default=80)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    outcomes: Counter[tuple[str, str]] = Counter()
    times: list[float] = []
    for k, (side, first, second) in enumerate(pairs(args.folder, args.pairs)):
        data = joined(first, second, beside=k % 2 == 0)
        kind = "one or both hard" if _hard(first) or _hard(second) else "both normal"
        t0 = time.process_time()
        try:
            read_sheet(data, side)
            said = "read as one sheet"
        except TwoSheetsError:
            said = "two sheets"
        except VisionError as e:
            said = f"refused otherwise ({type(e).__name__})"
        times.append(time.process_time() - t0)
        outcomes[kind, said] += 1
    for kind in ("both normal", "one or both hard"):
        n = sum(v for (k, _), v in outcomes.items() if k == kind)
        if n:
            said = ", ".join(f"{s} {v} ({v / n:.0%})" for (k, s), v in sorted(outcomes.items()) if k == kind)
            print(f"{kind}: {n} joined photos: {said}")
    print(f"CPU s per joined photo: median {np.median(times):.2f}, p95 {np.percentile(times, 95):.2f}")


if __name__ == "__main__":
    main()
