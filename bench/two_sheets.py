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

``--as-drawn`` reads a folder's photos as they are instead, for a draw made
with ``tools/make_samples.py --neighbour P``: there another player's sheet
of the same pad lies on the table beside the player's, in one photo, in
the same plane and light. A photo whose neighbour's grid is wholly in the
picture should be refused as two sheets; one whose neighbour's grid is
cut by the picture's edge, or out of it, should be read, and as the
player's grid (the reading's corners within half a square of its own).

Usage::

    python bench/two_sheets.py /tmp/t22000 --pairs 80
    python tools/make_samples.py --out /tmp/nb70000 --count 300 --seed 70000 --neighbour 1 --jobs 2
    python bench/two_sheets.py /tmp/nb70000 --as-drawn
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
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


def _off(corners: NDArray[np.float64], truth: object) -> float:
    """How far ``corners`` lie from a grid's true corners ``truth``, the
    farthest corner, in that grid's squares, whichever corner is first."""
    want = np.asarray(truth, np.float64)
    square = float(np.linalg.norm(want[0] - want[1])) / 11
    return min(float(np.abs(np.roll(corners, k, axis=0) - want).max()) for k in range(4)) / square


def _read_as_drawn(path: Path) -> tuple[str, str, float]:
    """Where the neighbour's sheet of the photo at ``path`` lies, what the
    reader did with the photo, and its CPU seconds."""
    cv2.setNumThreads(1)
    truth = json.loads(path.with_suffix(".json").read_text())
    theirs = truth.get("neighbour")
    if theirs is None:
        where = "no neighbour's sheet"
    elif theirs["in_picture"] >= 1.0:
        where = "neighbour's grid whole in the picture"
    elif theirs["in_picture"] > 0:
        where = "neighbour's grid cut by the edge"
    else:
        where = "neighbour's grid out of the picture"
    where += f" ({truth.get('difficulty', 'normal')})"
    t0 = time.process_time()
    try:
        reading = read_sheet(path.read_bytes(), str(truth["side"]))
        corners = np.asarray(reading.corners, np.float64)
        if _off(corners, truth["corners_px"]) < 0.5:
            said = "read, the player's grid"
        elif theirs is not None and _off(corners, theirs["corners_px"]) < 0.5:
            said = "read, the NEIGHBOUR's grid"
        else:
            said = "read, neither grid"
    except TwoSheetsError:
        said = "two sheets"
    except VisionError as e:
        said = f"refused otherwise ({type(e).__name__})"
    return where, said, time.process_time() - t0


def as_drawn(folder: Path, jobs: int) -> None:
    """Read each photo of ``folder`` as it is, ``jobs`` at a time, and print
    what the reader did with it by where the neighbour's sheet lies
    (``--as-drawn``)."""
    paths = sorted(folder.glob("*.jpg"))
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            read = pool.map(_read_as_drawn, paths, chunksize=1)
    else:
        read = [_read_as_drawn(p) for p in paths]
    outcomes = Counter((where, said) for where, said, _t in read)
    times = [t for _w, _s, t in read]
    for where in sorted({w for w, _ in outcomes}):
        n = sum(v for (w, _), v in outcomes.items() if w == where)
        said = ", ".join(f"{s} {v} ({v / n:.0%})" for (w, s), v in sorted(outcomes.items()) if w == where)
        print(f"{where}: {n} photos: {said}")
    print(f"CPU s per photo: median {np.median(times):.2f}, p95 {np.percentile(times, 95):.2f}")


def _hard(path: Path) -> bool:
    return json.loads(path.with_suffix(".json").read_text()).get("difficulty", "normal") != "normal"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--pairs", type=int, default=80)
    parser.add_argument("--as-drawn", action="store_true", help="read the photos as they are, not joined")
    parser.add_argument("--jobs", type=int, default=1, help="photos read at once (--as-drawn)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.as_drawn:
        as_drawn(args.folder, args.jobs)
        return
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
