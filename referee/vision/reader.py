"""The whole reader: photo bytes and a map side in, the map and its doubts out.

Stages, each its own module: ``load`` (bytes to an upright picture),
``grid`` with ``lines`` and ``lattice`` (the grid as twelve evenly spaced
lines each way), ``track`` (the coin track below the grid: which way up, and
the coins), ``rectify`` (straighten, square by square) and ``cells`` (what is
in each square). The reader then checks itself: the side's printed
mountains (and wastelands) must be the squares likeliest to hold them, or
the grid, its way up or the side is wrong. It tries the grid candidates and
their ways up, likeliest first, until one passes that check, each read by
one network (``cells.glance``); all the networks read only the reading
kept (``cells.read_fully``). A reading
that passes only barely is compared with every other way up, and the way
that sees the most printed spaces is kept (side B's pass a quarter turn by
chance); then with the grid half a square away each way (a graphite
sheet's letters make a lattice of their own). Side A's printed spaces look
the same upside down, so there the reader also reads the sheet the other
way up and keeps the reading whose printed mountains are the surer to be
mountains (a mountain stands on its base). Last, the squares of the chosen
reading are read together (``agree``): a player draws each code alike all
over their sheet; and how sure the reader is of each square is weighed with
the sheet around it (``doubt``). Before those, it looks beside the sheet
it read for another grid showing the side's printed spaces (a neighbour's
sheet in the picture) and refuses such a photo rather than guess which
sheet is the player's; and it refuses a photo with no colour at all, in
which coloured pencils differ only in how dark they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.rules import terrain
from referee.rules.data import MapSide, map_sides
from referee.rules.geometry import SIZE
from referee.rules.heroes import most_hero_spaces
from referee.rules.i18n import _
from referee.vision.agree import agree
from referee.vision.cells import CLASSES, Glance, even_light, glance, read_fully
from referee.vision.covered import line_contrast
from referee.vision.doubt import chance_right, clues, doubtful_line
from referee.vision.errors import (
    BlackAndWhiteError,
    NoGridError,
    OtherSideError,
    TwoSheetsError,
    VisionError,
    WrongSheetError,
)
from referee.vision.grid import (
    MARKED_NO_GRID,
    NO_GRID,
    Lines,
    find_grids,
    marked_grids,
    other_grids,
    shifted,
)
from referee.vision.likeness import likeness
from referee.vision.load import load_photo
from referee.vision.rectify import Rectified, rectify
from referee.vision.track import Track, find_track, read_coins, strip
from referee.vision.unsure import Cause, causes

PRINTED_SEEN = 0.6
"""Share of the side's printed mountains and wastelands that must be seen."""
FAINT_SEEN = 0.8
"""The share a grid whose lattice is only faintly seen must reach instead:
such grids come from blurred or dim photos, where the network's reading of
a wrong grid can match six in ten printed spaces by chance (one held-out
photo read 1.7 squares off so). On our own three draws, 500 photos, no
faint grid that matched was the sheet's below eight in ten."""
OTHER_SIDE_SURE = 0.9
"""Share of another side's printed spaces seen on a clearly seen grid that
ends the search for the grid early: the sheet is found, and it is that
side's. A smaller share can be chance on a wrong grid, and the search goes
on."""
WAY_SURE = 0.9
"""Share of the printed spaces seen below which a reading that passes is
still compared with the sheet turned every other way, and with the grid
half a square away (``_surest_way``): mountains printed in a way the
network has not seen can pass the check upside down by chance, side B's
printed spaces a quarter turn, and a graphite sheet's letters half a
square off. A placement half a square away must reach this share to be
kept."""
KIN_SEEN = 0.8
"""Share of the side's printed mountains that must be each other's kin
(``likeness``) for a grid to pass when the network does not see them.
Chosen on 150 photos of a training draw (seed 13000) read along their true
corners: the right side the right way up gave 0.95 or more on 147 and 0.6
on 3; every other side and turn 0.55 or less."""
KIN_READINGS = 12
"""Readings of clearly seen grids (the first three, each way up) on which
a refused photo's printed mountains are compared with the other sides'
(``_kin_side``); each comparison costs some 8 ms a side."""
HALF_SQUARE = tuple((dx, dy) for dx in (-0.5, 0.0, 0.5) for dy in (-0.5, 0.0, 0.5) if dx or dy)
"""Where a grid that passed the check only barely is read again, in
squares along its own rows and columns: half a square each way."""
TRACK_SEEN = 0.2
"""Least coin-track score for the coins to be read at all. Chosen on 150
photos of a training draw (seed 13000) read along their true corners: from
0.05 to 0.2 it leaves out one wrong count of 3 and none of the 49 exact."""
RETAKE_DOUBTFUL = 20
"""Doubtful squares from which a reading says that another photo may read
better than checking them one by one. A photo this unsure of its squares
is mostly dim, blurred or partly covered: on a training draw (seed 32000,
300 photos) the 23 photos with 20 or more held 298 of its 418 wrong
squares, where more than half its photos have one doubtful square or
none (5.0 on average)."""

GREY_SPREAD = 2
"""Most that a pixel's three channels may differ by in a photo that has no
colour: a picture saved in grey and compressed as JPEG comes back with its
channels equal to within rounding. Light on paper through a phone's lens
tints far more: in each of 1,764 photos of our samples, held-out and
training draws, 16 % of the pixels or more spread wider than 2."""
GREY_SHARE = 0.001
"""Share of the pixels that may spread wider than ``GREY_SPREAD`` in a photo
still taken as having no colour (a speck of JPEG noise)."""


@dataclass(frozen=True)
class SheetReading:
    """What the reader saw on one photographed map sheet."""

    side: str
    grid: tuple[str, ...]
    """11 strings of 11 map codes, printed ``^`` and ``#`` included."""
    confidence: tuple[tuple[float, ...], ...]
    """11 rows of 11 numbers from 0 to 1."""
    coins: int | None
    """Filled coins on the coin track, or None when it could not be read."""
    corners: tuple[tuple[float, float], ...]
    """The grid's outer corners in photo pixels (as displayed), TL, TR, BR, BL."""
    canvas: NDArray[np.uint8]
    """The straightened grid and its surroundings, RGB, for showing beside the editor."""
    limited: tuple[tuple[int, int, str], ...] = ()
    """The squares (row, column) whose code the game's limits chose, not the
    networks, each with the code the networks read there: a monster or a
    hero past what the cards revealed allow, a hero or a destroyed space in
    a game that has none. The player is told why such a square shows
    something else (``read_sheet``)."""

    def doubtful(self, threshold: float | None = None) -> list[tuple[int, int]]:
        """The squares (row, col) the player should look at: those under
        ``threshold``, by default the line ``doubt`` draws."""
        line = doubtful_line() if threshold is None else threshold
        return [(r, c) for r in range(SIZE) for c in range(SIZE) if self.confidence[r][c] < line]

    def worth_retaking(self) -> bool:
        """Whether so many squares are doubtful (``RETAKE_DOUBTFUL``) that the
        player had better take another photo than check them all."""
        return len(self.doubtful()) >= RETAKE_DOUBTFUL

    def causes_seen(self) -> tuple[Cause, ...]:
        """What spoiled the photo as far as its straightened grid shows
        (``unsure.causes``), the side's printed wastelands left out, whether
        or not the reading asks for another photo."""
        return causes(self.canvas, map_sides()[self.side].wastelands)

    def retake_causes(self) -> tuple[Cause, ...]:
        """``causes_seen``, for the player to change in the next photo, when
        the reading asks for another (``worth_retaking``); none otherwise: on
        a photo read well enough, a mark that plain is rare and says nothing
        the player must change."""
        return self.causes_seen() if self.worth_retaking() else ()

    def to_json(self) -> dict[str, object]:
        return {
            "grid": list(self.grid),
            "confidence": [list(row) for row in self.confidence],
            "coins": self.coins,
            "corners": [list(c) for c in self.corners],
        }


def _printed_seen(probs: NDArray[np.float32], side: MapSide) -> float:
    """Share of the side's printed mountains and wastelands that are among the
    squares likeliest to hold that printed thing.

    Ranks, not probabilities: a sheet printed in another style than the
    reader was trained on draws its mountains its own way, so the network is
    less sure of them, but the squares it finds most mountain-like are still
    the printed ones, and only when the grid is the right way up (a mountain
    stands on its base) and the side is the right one."""

    def hits(code: str, spaces: frozenset[tuple[int, int]]) -> int:
        likeliest = set(np.argsort(-probs[:, CLASSES.index(code)])[: len(spaces) + 1].tolist())
        return sum(r * SIZE + c in likeliest for r, c in spaces)

    mountains = hits(terrain.MOUNTAIN, side.mountains) if side.mountains else 0
    if not side.mountains | side.wastelands:
        return 1.0
    both = (mountains + (hits(terrain.WASTELAND, side.wastelands) if side.wastelands else 0)) / len(
        side.mountains | side.wastelands
    )
    # a wasteland's print differs most between printings; mountains alone may decide
    return max(both, mountains / len(side.mountains)) if side.mountains else both


def _seen(probs: NDArray[np.float32], rect: Rectified, side: MapSide, clear: bool) -> float:
    """``_printed_seen``; or, when the network misses the side's printed
    mountains, just enough to pass if they are each other's kin
    (``likeness``): a printing whose mountain picture the network does not
    know. For a grid whose lattice is only faintly seen (not ``clear``), the
    share counts for less, so that it passes only from ``FAINT_SEEN``."""
    seen = _printed_seen(probs, side)
    if seen < PRINTED_SEEN and likeness(rect.canvas, side.mountains) >= KIN_SEEN:
        seen = PRINTED_SEEN
    return _weighed(seen, clear)


def _weighed(seen: float, clear: bool) -> float:
    """A share of printed spaces seen on a grid, counted for less when the
    grid's lattice is only faintly seen, so that it reaches ``PRINTED_SEEN``
    only from ``FAINT_SEEN``."""
    return seen if clear else seen * PRINTED_SEEN / FAINT_SEEN


def _free_spaces(side: MapSide) -> list[int]:
    """The squares a player can draw on: all but the side's printed ones."""
    return [i for i in range(SIZE * SIZE) if side.printed(*divmod(i, SIZE)) == terrain.EMPTY]


def _decide(
    agreed: NDArray[np.float32],
    alone: NDArray[np.float32],
    side: MapSide,
    drawable: frozenset[str] = terrain.DRAWN,
    heroes: int | None = None,
    monsters: int | None = None,
) -> tuple[tuple[str, ...], tuple[tuple[float, ...], ...]]:
    """Each square's code and confidence: a printed space as the side
    prints it, any other the likeliest of empty and the ``drawable`` codes,
    its probability taken among those alone. A game without heroes has no
    hero spaces, so a square the network thinks is a hero, or else a
    village, is a village there, not a hero the player cannot paint.

    A player draws one hero space per hero card revealed, so at most
    ``heroes`` squares (by default, as many as there are hero cards) may be
    heroes: those likeliest to be, and any other is the likeliest of the
    rest. A hand or a printing the networks never saw can look like a hero
    to them all over a sheet. The same for ``monsters``, when the cards
    revealed bound them (by default they do not).

    The code is the sheet's reading (``agreed``, the squares read together),
    the confidence the lesser of the sheet's and the square's own
    (``alone``): the sheet may mend a square, but never hides a doubt."""
    drawn = [CLASSES.index(c) for c in CLASSES if c == terrain.EMPTY or c in drawable]
    p = agreed[:, drawn].astype(np.float64)
    q = alone[:, drawn].astype(np.float64)
    p /= np.maximum(p.sum(axis=1, keepdims=True), 1e-6)
    q /= np.maximum(q.sum(axis=1, keepdims=True), 1e-6)
    free = np.zeros(SIZE * SIZE, bool)
    free[_free_spaces(side)] = True
    limits = {terrain.HERO: most_hero_spaces() if heroes is None else heroes, terrain.MONSTER: monsters}
    bounded = [
        (drawn.index(CLASSES.index(code)), limit)
        for code, limit in limits.items()
        if code in drawable and limit is not None
    ]
    over = True
    while over:  # a monster past its bound may look next most like a hero, and a hero like a monster
        over = False
        for k, limit in bounded:
            read = [i for i in np.argsort(-p[:, k], kind="stable") if free[i] and p[i].argmax() == k]
            for i in read[max(limit, 0) :]:
                # not renormalised: the square looked most like this code, so what
                # it is instead is a guess, shown to the player as one
                p[i, k] = q[i, k] = 0.0
                over = True
    codes, conf = [], []
    for i in range(SIZE * SIZE):
        if not free[i]:
            # the side decides a printed space, and the player cannot draw on
            # it: outlined, it would only ask them to look at what they cannot change
            codes.append(side.printed(*divmod(i, SIZE)))
            conf.append(1.0)
            continue
        k = int(p[i].argmax())
        codes.append(CLASSES[drawn[k]])
        conf.append(round(float(min(p[i, k], q[i, k])), 3))
    grid = tuple("".join(codes[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE))
    return grid, tuple(tuple(conf[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE))


def _to_photo(quad: NDArray[np.float32]) -> NDArray[np.float64]:
    """Homography from grid units (0..11, upright) to photo pixels."""
    unit = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], np.float32)
    return np.asarray(cv2.getPerspectiveTransform(unit, quad), np.float64)


def corners_from_text(text: str) -> list[tuple[float, float]]:
    """Four corners written ``"x,y x,y x,y x,y"`` (photo pixels), as the
    editor's marking form and ``referee scan --corners`` take them; a
    ``ValueError`` unless they are four pairs of numbers."""
    pairs = [p.split(",") for p in text.split()]
    if len(pairs) != 4 or any(len(p) != 2 for p in pairs):
        raise ValueError(text)
    return [(float(x), float(y)) for x, y in pairs]


def _sureness(way: _Way) -> float:
    """How surely the scout network reads a placement's squares, on average: a
    grid placed off its squares cuts strokes in two and reads less surely."""
    return float(way[2].probs.max(axis=1).mean())


def _marked(
    corners: Sequence[tuple[float, float]], scale: float, shape: tuple[int, ...]
) -> NDArray[np.float64]:
    """The player's four marked corners, from photo pixels as displayed to
    the working picture's; a ``NoGridError`` unless they are four points
    inside the photo."""
    try:
        quad = np.asarray(corners, np.float64) / scale
    except (TypeError, ValueError):
        raise NoGridError(MARKED_NO_GRID) from None
    h, w = shape[:2]
    if (
        quad.shape != (4, 2)
        or not np.all(np.isfinite(quad))
        or not np.all((quad >= -1) & (quad <= [w + 1, h + 1]))
    ):
        raise NoGridError(MARKED_NO_GRID)
    return quad


def _ways_up(gray: NDArray[np.uint8], quad: NDArray[np.float32]) -> list[tuple[int, Track | None]]:
    """The four ways of fitting the corners, likeliest first, each with the
    coin track found below the grid that way up: ``k`` takes ``quad[k]`` as
    the top-left corner, and the likeliest has the clearest coin track."""
    h = _to_photo(quad)
    tracks = [(k, find_track(strip(gray, h, k))) for k in range(4)]
    return sorted(tracks, key=lambda kt: -(kt[1].score if kt[1] else -1.0))


def _half_turn_alike(side: MapSide) -> bool:
    """Whether the side's printed spaces look the same turned upside down
    (side A's do), so that they cannot tell which way up the sheet is."""
    spaces = side.mountains | side.wastelands | side.ruins
    return {(SIZE - 1 - r, SIZE - 1 - c) for r, c in spaces} == set(spaces)


def _upright(probs: NDArray[np.float32], side: MapSide) -> float:
    """How surely the side's printed mountains are read as mountains: a
    mountain stands on its base, so they are read more surely the right way
    up. Only the printed pictures say so on every sheet: a square shaded in
    colour looks the same either way up, so a sureness taken over every
    square is mostly noise on a coloured sheet (on our own sets it chose
    the wrong way for one side A sheet in ten that passed both ways, where
    this chose none wrongly)."""
    at = [r * SIZE + c for r, c in side.mountains]  # every side prints five
    return float(np.log(probs[at, CLASSES.index(terrain.MOUNTAIN)] + 1e-6).mean())


def _read_way(
    rgb: NDArray[np.uint8], quad: NDArray[np.float32], k: int, side: MapSide
) -> tuple[NDArray[np.float32], Rectified, Glance]:
    """The corners taken with ``quad[k]`` as the top-left, the grid
    straightened that way up, and what the scout network reads in each
    square (``glance``; every network reads only the reading kept)."""
    upright = np.roll(quad, -k, axis=0)
    rect = rectify(rgb, upright)
    return upright, rect, glance(even_light(rect.canvas), side)


_Way = tuple[float, Rectified, Glance, NDArray[np.float32], Track | None]
"""A reading one way up: printed spaces seen, the straightened grid, what
the scout network reads in each square, the corners that way up, and the
coin track found below."""


def _surest_way(
    rgb: NDArray[np.uint8],
    gray: NDArray[np.uint8],
    quad: NDArray[np.float32],
    k: int,
    ways: list[tuple[int, Track | None]],
    side: MapSide,
    clear: bool,
    readings: dict[int, _Way],
) -> _Way:
    """Where and which way up to read the grid ``quad``, whose reading with
    ``quad[k]`` top-left passed the check on the printed spaces; ``readings``
    holds that one and any other way already read (more are added).

    A pass short of ``WAY_SURE`` may be the sheet turned: side B prints its
    wastelands as a cross in the middle and two of its five mountains where
    a quarter turn puts two others, so seven of its twelve printed spaces
    stand where they stood, and one more square read as a mountain by
    chance passes. Every way is then read, and the one that sees the most
    printed spaces is kept.

    A pass short of ``WAY_SURE`` may also be the grid half a square off: on
    a sheet with faint lines and a bold letter in every square, or a thick
    frame close around the grid, a lattice of letters or edges passes, and
    half covers each printed mountain. The kept way is then read half a
    square away each way, and a placement that sees the printed spaces
    surely is kept.

    Side A's printed spaces are the same upside down, so there the
    placement is last compared with its half turn, and the one whose
    printed mountains are the surer to be mountains is kept (a mountain
    stands on its base). Only once the grid is placed: half a square off,
    each mountain is half cut, and which way up it stands is chance, so the
    half-square search also starts from the half turn of the kept way."""
    passed = readings[k]

    def read(j: int) -> _Way:
        if j not in readings:
            upright, rect, squares = _read_way(rgb, quad, j, side)
            track = next(t for i, t in ways if i == j)
            readings[j] = (_seen(squares.probs, rect, side, clear), rect, squares, upright, track)
        return readings[j]

    if passed[0] < WAY_SURE:
        for j, _track in ways:
            read(j)
    # the first of equals in the order of the coin track's likelihood
    j = max((i for i, _track in ways if i in readings), key=lambda i: readings[i][0])
    kept = readings[j]
    turned = _half_turn_alike(side)
    if kept[0] < WAY_SURE:
        starts = [kept, read((j + 2) % 4)] if turned else [kept]
        # the first of equals: the kept way, unmoved, unless a placement sees more
        kept = max(
            [kept, *(_half_square_away(rgb, gray, way, side, clear) for way in starts)], key=lambda w: w[0]
        )
    if turned:
        twin = (
            read((j + 2) % 4)
            if kept is readings[j]
            else _placed(rgb, gray, np.roll(kept[3], -2, axis=0), side, clear)
        )
        if twin[0] >= PRINTED_SEEN and _upright(twin[2].probs, side) > _upright(kept[2].probs, side):
            kept = twin
    return kept


def _placed(
    rgb: NDArray[np.uint8], gray: NDArray[np.uint8], upright: NDArray[np.float32], side: MapSide, clear: bool
) -> _Way:
    """The reading of the grid at the corners ``upright``, the first top-left."""
    _up, rect, squares = _read_way(rgb, upright, 0, side)
    track = find_track(strip(gray, _to_photo(upright), 0))
    return (_seen(squares.probs, rect, side, clear), rect, squares, upright, track)


def _half_square_away(
    rgb: NDArray[np.uint8], gray: NDArray[np.uint8], way: _Way, side: MapSide, clear: bool
) -> _Way:
    """Of the placements half a square away from ``way`` (``HALF_SQUARE``),
    the one that sees the most printed spaces, if it sees at least
    ``WAY_SURE`` of them and more than ``way``; else ``way``."""
    best = way
    for dx, dy in HALF_SQUARE:
        upright = shifted(way[3], dx, dy)
        _up, rect, squares = _read_way(rgb, upright, 0, side)
        seen = _seen(squares.probs, rect, side, clear)
        if seen >= WAY_SURE and seen > best[0]:
            best = (seen, rect, squares, upright, find_track(strip(gray, _to_photo(upright), 0)))
    return best


def _looks_like(readings: list[NDArray[np.float32]], chosen: MapSide, bar: float = FAINT_SEEN) -> str | None:
    """The other map side whose printed spaces one of the ``readings`` (of
    each grid candidate tried, each way up) matches best, if any matches
    with at least ``bar`` of them seen.

    By default every reading, clear or faint, must reach what a faint grid
    needs to pass (``FAINT_SEEN``). A grid passes when its reading matches
    the side the player chose. A name is the best match of every reading
    tried against each of the three other sides, so a wrong grid's chance
    match of six in ten (on a blurred or shaded photo, a clearly seen
    lattice may be a square off, or the table's) has three times the
    chances there; and the name sends the player to choose another side,
    where without it they are asked to check the side. On a training draw
    (seed 91000, 300 photos read as the other side of their pad) every photo
    that was named matched its true side eight in ten or more, and one
    photo of the draw, read as its own side and refused, matched another
    side six in ten. On another (seed 93000, 400 photos) one photo read as
    the other side matched its own six in ten, and is no longer named: a
    right name lost for a wrong one kept back, which costs the player less."""
    best, letter = bar, None
    for other_letter, other in sorted(map_sides().items()):
        if other_letter == chosen.letter:
            continue
        seen = max((_printed_seen(probs, other) for probs in readings), default=0.0)
        if seen > best or (letter is None and seen >= best):
            best, letter = seen, other_letter
    return letter


def _kin_side(canvases: list[NDArray[np.uint8]], chosen: MapSide) -> str | None:
    """The other map side whose printed mountains are each other's kin
    (``likeness``) on one of the straightened grids ``canvases``, if any:
    a printing the network does not know still names the side it shows."""
    for letter, other in sorted(map_sides().items()):
        if letter != chosen.letter and any(likeness(c, other.mountains) >= KIN_SEEN for c in canvases):
            return letter
    return None


def read_sheet(
    data: bytes,
    side: str,
    drawable: frozenset[str] = terrain.DRAWN,
    heroes: int | None = None,
    monsters: int | None = None,
    corners: Sequence[tuple[float, float]] | None = None,
) -> SheetReading:
    """Read a photographed map sheet of ``side`` (A to D), on which a player
    can draw the codes ``drawable`` (all by default; a game without heroes
    has no hero spaces, and one where nothing destroys no destroyed ones),
    at most ``heroes`` hero spaces (by default, one per hero card) and at
    most ``monsters`` monster spaces (by default, any number). Each square's
    confidence is weighed with its sheet (``doubt``), except that a square
    whose code the game's limits chose, not the networks, is never made
    surer than the networks are of it: the weighing was fitted on readings
    no game limited, and such a code is a guess, shown to the player as one.
    The reading lists those squares, with what the networks read there
    (``SheetReading.limited``), so that the player can be told why.

    ``corners``: the grid's four outer corners, in photo pixels as
    displayed and in any order, that the player marked where the reader
    found no grid; the grid is then fitted near them instead of searched for.

    Raises a ``VisionError`` with a sentence for the player when the photo
    cannot be read."""
    reading, weighed_by, overruled = read_with_clues(data, side, drawable, heroes, monsters, corners)
    free = _free_spaces(map_sides()[reading.side])
    conf = np.array(reading.confidence, np.float64).ravel()
    chance = np.round(chance_right(weighed_by), 3)
    conf[free] = np.where(overruled, np.minimum(chance, conf[free]), chance)
    rows = tuple(tuple(float(v) for v in conf[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE))
    return replace(reading, confidence=rows)


BLACK_AND_WHITE = _(
    "the photo is in black and white, so the pencils' colours cannot be read from it: "
    "take it again in colour, without a black-and-white filter"
)


def _refuse_black_and_white(rgb: NDArray[np.uint8]) -> None:
    """Raise ``BlackAndWhiteError`` when the photo has no colour at all
    (``GREY_SPREAD``). Coloured pencils then differ only in how dark they
    are: a grey photo of a coloured sheet read by the networks put 19 to 88
    squares wrong on each of seven coloured official-style photos, some of them
    not outlined. A graphite sheet would read, but which a grey photo shows
    is not for the reader to guess, and a photo in colour reads both."""
    channels = rgb[::4, ::4].astype(np.int16)  # some 90,000 pixels are plenty, and cost 5 ms, not 70
    spread = channels.max(axis=2) - channels.min(axis=2)
    if float(np.mean(spread > GREY_SPREAD)) <= GREY_SHARE:
        raise BlackAndWhiteError(BLACK_AND_WHITE)


TWO_SHEETS = _(
    "two map sheets are in the photo: take it again with only your own sheet in the picture, "
    "or mark your grid yourself"
)


def _refuse_a_second_sheet(
    rgb: NDArray[np.uint8],
    gray: NDArray[np.uint8],
    quad: NDArray[np.float32],
    side: MapSide,
    lines: Lines,
    scale: float,
) -> None:
    """Raise ``TwoSheetsError`` when, beside the grid read at ``quad``, the
    picture clearly shows another grid whose squares show the side's printed
    spaces: another player's sheet (every sheet at a table is of one side).
    Read without asking, the neighbour's map would be scored as the
    player's; the one the player meant is theirs to say, by a photo of it
    alone, by marking its corners, or by choosing one of the two grids the
    error holds (in photo pixels as displayed, the working picture's times
    ``scale``). ``lines``: the search's, shared."""
    for other in other_grids(rgb, quad, lines):
        for k, _track in _ways_up(gray, other.quad):
            upright, rect, squares = _read_way(rgb, other.quad, k, side)
            if _seen(squares.probs, rect, side, True) >= PRINTED_SEEN:
                grids = tuple(
                    tuple((round(float(x) * scale, 1), round(float(y) * scale, 1)) for x, y in q)
                    for q in (quad, upright)
                )
                raise TwoSheetsError(TWO_SHEETS, grids)


def read_with_clues(
    data: bytes,
    side: str,
    drawable: frozenset[str] = terrain.DRAWN,
    heroes: int | None = None,
    monsters: int | None = None,
    corners: Sequence[tuple[float, float]] | None = None,
) -> tuple[SheetReading, NDArray[np.float64], NDArray[np.bool_]]:
    """``read_sheet``'s reading before its confidences are weighed with the
    sheet, each square's the networks' (``_decide``); the clues ``doubt``
    weighs them by, a row for each square a player can draw on, in order
    (``tools/train_doubt.py`` fits the weighing on them); and, for each of
    those squares, whether the game's limits (``drawable``, ``heroes``,
    ``monsters``) changed its code from the one read without them."""
    sides = map_sides()
    if side.upper() not in sides:
        raise VisionError(_("there is no map side %(side)r: choose A, B, C or D", side=side))
    map_side = sides[side.upper()]
    photo = load_photo(data)
    gray = np.asarray(cv2.cvtColor(photo.rgb, cv2.COLOR_RGB2GRAY), np.uint8)
    best: _Way | None = None
    tried: list[tuple[NDArray[np.float32], bool]] = []
    canvases: list[NDArray[np.uint8]] = []  # of clearly seen grids, for ``_kin_side``
    any_clear = False
    passed: list[_Way] = []  # the readings that passed, of a grid the player marked
    lines = Lines(photo.rgb)
    grids = (
        find_grids(photo.rgb, lines)
        if corners is None
        else marked_grids(photo.rgb, _marked(corners, photo.scale, photo.rgb.shape))
    )
    for candidate in grids:
        quad = candidate.quad
        any_clear |= candidate.clear
        ways = _ways_up(gray, quad)
        read: dict[int, _Way] = {}  # this grid's readings so far, by way up
        for k, track in ways:
            upright, rect, glanced = _read_way(photo.rgb, quad, k, map_side)
            probs = glanced.probs
            tried.append((probs, candidate.clear))
            if candidate.clear and len(canvases) < KIN_READINGS:
                canvases.append(rect.canvas)
            seen = _seen(probs, rect, map_side, candidate.clear)
            read[k] = (seen, rect, glanced, upright, track)
            if best is None or seen > best[0]:
                best = read[k]
            if seen >= PRINTED_SEEN:
                best = _surest_way(photo.rgb, gray, quad, k, ways, map_side, candidate.clear, read)
                break
        if best is not None and best[0] >= PRINTED_SEEN:
            if corners is None:
                break
            passed.append(best)  # a marked grid: each fit near the marks is read, the surest kept
            continue
        if _looks_like([probs for probs, clear in tried if clear], map_side, OTHER_SIDE_SURE) is not None:
            break  # the grid is found, and it is another side's: no wider search can help
    if passed:
        best = max(passed, key=_sureness)
    assert best is not None
    seen, rect_obj, scouted, upright, track = best
    if seen < PRINTED_SEEN:
        other = _looks_like([probs for probs, _clear in tried], map_side) or _kin_side(canvases, map_side)
        if other is not None:
            raise OtherSideError(
                _(
                    "this looks like map side %(other)s, not side %(side)s: "
                    "choose side %(other)s, or photograph the side %(side)s sheet",
                    other=other,
                    side=map_side.letter,
                ),
                other,
            )
        if not any_clear:
            # only faint lattices, none of them this sheet: most likely no grid at all
            raise NoGridError(NO_GRID)
        _refuse_black_and_white(photo.rgb)  # a grid, but a grey one: its printed spaces may hide in it
        if corners is not None:
            raise WrongSheetError(
                _(
                    "the squares inside the marked corners do not show side %(side)s's printed "
                    "mountains: mark the grid's four outer corners, or take a sharper photo",
                    side=map_side.letter,
                )
            )
        raise WrongSheetError(
            _(
                "the printed mountains do not match map side %(side)s: check the side, "
                "and photograph the sheet from above in good light",
                side=map_side.letter,
            )
        )
    _refuse_black_and_white(photo.rgb)
    if corners is None:
        _refuse_a_second_sheet(photo.rgb, gray, upright, map_side, lines, photo.scale)
    free = _free_spaces(map_side)
    squares = read_fully(scouted)  # the reading kept, by every network
    agreed = agree(squares, free)
    grid, conf = _decide(agreed, squares.probs, map_side, drawable, heroes, monsters)
    shown = np.array(conf, np.float64).ravel()
    rows = clues(squares, agreed, grid, shown, free, line_contrast(rect_obj.canvas))
    bounded, unbounded = "".join(grid), "".join(_decide(agreed, squares.probs, map_side)[0])
    chosen = [i for i in free if bounded[i] != unbounded[i]]  # by the game's limits, not the networks
    overruled = np.isin(free, chosen)
    limited = tuple((i // SIZE, i % SIZE, unbounded[i]) for i in chosen)
    coins = None
    if track is not None and track.score >= TRACK_SEEN:  # found below these corners, this way up
        coins = read_coins(photo.rgb, _to_photo(upright), 0, track)
    corners = tuple(
        (round(float(x) * photo.scale, 1), round(float(y) * photo.scale, 1)) for x, y in rect_obj.corners
    )
    reading = SheetReading(map_side.letter, grid, conf, coins, corners, rect_obj.canvas, limited)
    return reading, rows, overruled
