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
is the search's; one that is offered but not read is the check's
(``check``). The search's are told apart by the stage that fails: when no
pair of line families that any of the searches pairs meets within
``VANISHING_NEAR`` of the grid's own vanishing points, its lines
(``lines``: the thin-line strengths, the Hough lines, the vanishing
points); otherwise its lattice (``lattice``: the combs, their slides and
fits). The best pair's error is printed. The reading along the true
corners says what finding the grid would be worth. The last line counts
the misses of each kind.

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
from referee.vision.grid import LOOKS, PAPER_LOOK, Lines, _Look, find_grids
from referee.vision.lines import Families, Family, _miss
from referee.vision.load import Photo, load_photo
from referee.vision.paper import outline
from referee.vision.reader import read_sheet

IN_PLACE = 0.03
"""Largest corner error, as a share of the grid's side, of a grid found in place."""
NEAR = 0.5
"""Squares within which an offered grid counts as the sheet's."""
VANISHING_NEAR = 1.0
"""Degrees by which the grid's lines may miss a family's vanishing point,
at the median, for the pair to count as the grid's: at 2 degrees a grid's
far lines lie a third of a square from where the pair puts them."""


def squares_off(quad: NDArray[np.float64], want: NDArray[np.float64]) -> float:
    """How far the corners ``quad`` lie from ``want``, in squares, whichever
    corner ``quad`` starts at and whichever way round it runs."""
    square = float(np.linalg.norm(want[0] - want[1])) / SIZE
    return (
        min(float(np.abs(np.roll(q, -k, axis=0) - want).max()) for q in (quad, quad[::-1]) for k in range(4))
        / square
    )


def offers(photo: Photo, want: NDArray[np.float64], most: int) -> list[tuple[float, bool, float]]:
    """The first ``most`` grids the search offers: (squares off the truth
    ``want``, in photo pixels as displayed; clearly seen; share seen)."""
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


def _grid_lines(n: NDArray[np.float64]) -> list[NDArray[np.float64]]:
    """The grid's twelve lines each way, as unit line vectors, from its
    corners ``n`` (in ``lines.Family`` coordinates): those along the side
    from the first corner to the second, then those along the other."""
    hom = np.column_stack([n, np.ones(4)])
    out = []
    ts = np.linspace(0.0, 1.0, SIZE + 1)[:, None]
    for a, b, c, d in ((0, 1, 3, 2), (0, 3, 1, 2)):
        p = hom[a] + (hom[c] - hom[a]) * ts
        q = hom[b] + (hom[d] - hom[b]) * ts
        lines = np.cross(p, q)
        out.append(lines / np.hypot(lines[:, 0], lines[:, 1])[:, None])
    return out


def vanishing_error(rgb: NDArray[np.uint8], want: NDArray[np.float64]) -> float:
    """The least error, in degrees, of any pair of line families the
    searches (``grid.LOOKS``) pair, those found once the strongest lines
    are set aside and those on the sheet's paper alone (``grid.PAPER_LOOK``)
    included, against the grid whose corners are ``want`` (``rgb`` pixels):
    the larger of the two families' median miss of the grid's lines of
    their direction, each way round."""
    lines = Lines(rgb)
    looks = [_Look(lines, *look_args) for look_args in LOOKS]
    paper = outline(rgb)
    if paper is not None:
        looks.append(_Look(lines, *PAPER_LOOK, paper))
    best = 180.0
    for look in looks:
        h, w = look.strength.shape
        n = (want * look.k - [w / 2.0, h / 2.0]) / float(max(h, w))
        first, second = _grid_lines(n)
        pairs = [*look.families.pairs(False), *look.families.pairs(True)]
        if isinstance(look.families, Families) and not look.banded:  # lines that stronger ones outvoted
            pairs += look.families.set_aside()
        for a, b in pairs:
            best = min(
                best,
                max(_missed(first, a), _missed(second, b)),
                max(_missed(second, a), _missed(first, b)),
            )
    return best


def _missed(lines: NDArray[np.float64], family: Family) -> float:
    """Degrees by which ``lines`` miss ``family``'s vanishing point, at the median."""
    return float(np.degrees(np.median(_miss(lines, family.vanishing))))


def miss(path: Path, most: int) -> tuple[str, str] | None:
    """For a photo whose grid the reader misses: its kind (``lines``,
    ``lattice`` or ``check``) and lines on it; None when the grid is found
    in place."""
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
    photo = load_photo(data)
    offered = offers(photo, want, most)
    kind, stage = "check", ""
    if not any(d < NEAR for d, _, _ in offered):
        error = vanishing_error(photo.rgb, want / photo.scale)
        kind = "lattice" if error <= VANISHING_NEAR else "lines"
        stage = f"\n    best pair of line families: vanishing points {error:.2f} degrees off"
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
    return (
        kind,
        f"{path.name} [{kind}] {said}\n    offered: {shown}{stage}\n    along the true corners: {along}",
    )


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
            f"{len(photos)} photos, {missed} grids missed: search (lines) {kinds['lines']}, "
            f"search (lattice) {kinds['lattice']}, check {kinds['check']}"
        )


if __name__ == "__main__":
    main()
