"""Why the reader misses a sheet's grid, photo by photo.

``bench/scan_bench.py`` counts the grids missed; this says where each miss
comes from, so that a fix goes to the stage at fault. For each photo of a
folder with truth (the format of ``../shared/sheet_photos/README.md``) whose
grid the reader does not find in place (no grid, another side, or corners
off by more than ``IN_PLACE`` of the grid's side, the bench's bound):

- what the reader said;
- the grids the search offers, in order, each as how far its corners lie
  from the true ones, in squares, ``C`` when clearly seen or ``f`` when
  faint, and the share of its lattice seen;
- the reading along the true corners, as a player who marks them gets it:
  its wrong and doubtful squares, or the reader's sentence.

A miss whose search never offers a grid within half a square of the truth
is the search's (``search``); one that is offered but not read is the
check's (``check``). The reading along the true corners says what finding
the grid would be worth. The last line counts the misses of each kind.

Usage::

    python bench/grid_misses.py /tmp/holdout
    python bench/grid_misses.py sample_sheets /tmp/holdout --offers 8
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from referee.rules.geometry import SIZE
from referee.vision.errors import VisionError
from referee.vision.grid import find_grids
from referee.vision.load import load_photo
from referee.vision.reader import read_sheet

IN_PLACE = 0.03
"""Largest corner error, as a share of the grid's side, of a grid found in place."""
NEAR = 0.5
"""Squares within which an offered grid counts as the sheet's."""


def squares_off(quad: NDArray[np.float64], want: NDArray[np.float64]) -> float:
    """How far the corners ``quad`` lie from ``want``, in squares, whichever
    corner ``quad`` starts at and whichever way round it runs."""
    square = float(np.linalg.norm(want[0] - want[1])) / SIZE
    return (
        min(float(np.abs(np.roll(q, -k, axis=0) - want).max()) for q in (quad, quad[::-1]) for k in range(4))
        / square
    )


def offers(data: bytes, want: NDArray[np.float64], most: int) -> list[tuple[float, bool, float]]:
    """The first ``most`` grids the search offers: (squares off the truth
    ``want``, in photo pixels as displayed; clearly seen; share seen)."""
    photo = load_photo(data)
    out: list[tuple[float, bool, float]] = []
    try:
        for cand in find_grids(photo.rgb):
            out.append(
                (squares_off(cand.quad.astype(np.float64), want / photo.scale), cand.clear, cand.support)
            )
            if len(out) == most:
                break
    except VisionError:
        pass
    return out


def miss(path: Path, most: int) -> tuple[str, str] | None:
    """For a photo whose grid the reader misses: its kind (``search`` or
    ``check``) and a line on it; None when the grid is found in place."""
    truth = json.loads(path.with_suffix(".json").read_text())
    want = np.array(truth.get("corners_px", truth.get("corners")), np.float64)
    data = path.read_bytes()
    try:
        reading = read_sheet(data, truth["side"])
        off = float(np.abs(np.array(reading.corners) - want).max())
        if off <= IN_PLACE * float(np.linalg.norm(want[0] - want[1])):
            return None
        said = f"grid off by {off:.0f} px"
    except VisionError as e:
        said = str(e)
    offered = offers(data, want, most)
    kind = "check" if any(d < NEAR for d, _, _ in offered) else "search"
    shown = " ".join(f"{d:.2f}{'C' if clear else 'f'}{seen:.2f}" for d, clear, seen in offered) or "none"
    try:
        marked = read_sheet(data, truth["side"], corners=want.tolist())
        wrong = sum(
            a != b
            for row, true in zip(marked.grid, truth["grid"], strict=True)
            for a, b in zip(row, true, strict=True)
        )
        along = f"{wrong} wrong, {len(marked.doubtful())} doubtful"
    except VisionError as e:
        along = str(e)
    return kind, f"{path.name} [{kind}] {said}\n    offered: {shown}\n    along the true corners: {along}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--offers", type=int, default=12, help="grids of the search shown at most")
    args = parser.parse_args()
    for folder in args.folders:
        photos = sorted(folder.glob("*.jpg"))
        kinds: Counter[str] = Counter()
        print(f"== {folder}")
        for path in photos:
            found = miss(path, args.offers)
            if found is not None:
                kinds[found[0]] += 1
                print(found[1])
        missed = sum(kinds.values())
        print(
            f"{len(photos)} photos, {missed} grids missed: search {kinds['search']}, check {kinds['check']}"
        )


if __name__ == "__main__":
    main()
