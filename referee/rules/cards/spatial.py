"""The spatial scoring cards of both games: rows, columns, squares,
diagonals and empty spaces."""

from __future__ import annotations

from referee.rules.cards.card import CardScore, numbered, scoring_card, to_cells
from referee.rules.geometry import COLUMNS, DIAGONALS, NEIGHBOURS, ROWS, SIZE, index, where
from referee.rules.i18n import Text, _, join, ngettext, npgettext
from referee.rules.sheet import MapSheet
from referee.rules.terrain import EMPTY, MOUNTAIN, TERRAIN_TYPES


def _complete_rows(rows: list[int]) -> Text:
    return npgettext("counted", "%(num)d complete row", "%(num)d complete rows", len(rows))


def _complete_columns(cols: list[int]) -> Text:
    return npgettext("counted", "%(num)d complete column", "%(num)d complete columns", len(cols))


def _complete(sheet: MapSheet, lines: tuple[tuple[int, ...], ...]) -> list[int]:
    filled = sheet.filled
    return [k for k, line in enumerate(lines) if all(filled[i] for i in line)]


def _spaces(lines: tuple[tuple[int, ...], ...], picked: list[int]) -> set[int]:
    return {i for k in picked for i in lines[k]}


@scoring_card("Borderlands")
def borderlands(sheet: MapSheet) -> CardScore:
    """Earn six reputation stars for each complete row or complete column of
    filled spaces."""
    rows = _complete(sheet, ROWS)
    cols = _complete(sheet, COLUMNS)
    return CardScore(
        6 * (len(rows) + len(cols)),
        to_cells(_spaces(ROWS, rows) | _spaces(COLUMNS, cols)),
        tuple([("row", r) for r in rows] + [("column", c) for c in cols]),
        why=_("%(rows)s and %(columns)s.", rows=_complete_rows(rows), columns=_complete_columns(cols)),
    )


@scoring_card("Lost Barony")
def lost_barony(sheet: MapSheet) -> CardScore:
    """Earn three reputation stars for each space along one edge of the
    largest square of filled spaces."""
    filled = sheet.filled
    # side[r][c]: the largest filled square whose bottom-right space is (r, c).
    side = [[0] * (SIZE + 1) for _ in range(SIZE + 1)]
    best, corner = 0, (0, 0)
    for r in range(SIZE):
        above, here = side[r], side[r + 1]
        for c in range(SIZE):
            if filled[r * SIZE + c]:
                n = 1 + min(above[c], here[c], above[c + 1])
                here[c + 1] = n
                if n > best:
                    best, corner = n, (r, c)
    if best == 0:
        return CardScore(0, why=_("There is no filled space."))
    top, left = corner[0] - best + 1, corner[1] - best + 1
    square = [index(top + dr, left + dc) for dr in range(best) for dc in range(best)]
    return CardScore(
        3 * best,
        to_cells(square),
        why=_(
            "The largest filled square is %(size)dx%(size)d; scored: the one whose top left is at %(space)s.",
            size=best,
            space=where(top, left),
        ),
    )


@scoring_card("The Broken Road")
def the_broken_road(sheet: MapSheet) -> CardScore:
    """Earn three reputation stars for each complete diagonal line of filled
    spaces that touches the left and bottom edges of the map."""
    diagonals = _complete(sheet, DIAGONALS)
    return CardScore(
        3 * len(diagonals),
        to_cells(_spaces(DIAGONALS, diagonals)),
        tuple(("diagonal", k) for k in diagonals),
        why=ngettext(
            "%(num)d complete diagonal from the left edge to the bottom edge, starting in %(lines)s.",
            "%(num)d complete diagonals from the left edge to the bottom edge, starting in %(lines)s.",
            len(diagonals),
            lines=numbered("row", diagonals),
        )
        if diagonals
        else _("0 complete diagonals from the left edge to the bottom edge."),
    )


@scoring_card("The Cauldrons")
def the_cauldrons(sheet: MapSheet) -> CardScore:
    """Earn one reputation star for each empty space surrounded on all four
    sides by filled spaces or the edge of the map."""
    filled = sheet.filled
    spaces = [i for i in sheet.spaces_of(EMPTY) if all(filled[n] for n in NEIGHBOURS[i])]
    return CardScore(
        len(spaces),
        to_cells(spaces),
        why=ngettext(
            "%(num)d empty space closed in on all four sides.",
            "%(num)d empty spaces closed in on all four sides.",
            len(spaces),
        ),
    )


@scoring_card("Dwarvenholds")
def dwarvenholds(sheet: MapSheet) -> CardScore:
    """Earn seven reputation stars for each complete row or complete column of
    filled spaces that contains a mountain space."""
    codes = sheet.codes
    rows = [r for r in _complete(sheet, ROWS) if any(codes[i] == MOUNTAIN for i in ROWS[r])]
    cols = [c for c in _complete(sheet, COLUMNS) if any(codes[i] == MOUNTAIN for i in COLUMNS[c])]
    return CardScore(
        7 * (len(rows) + len(cols)),
        to_cells(_spaces(ROWS, rows) | _spaces(COLUMNS, cols)),
        tuple([("row", r) for r in rows] + [("column", c) for c in cols]),
        why=_(
            "%(rows)s and %(columns)s with a mountain.",
            rows=_complete_rows(rows),
            columns=_complete_columns(cols),
        ),
    )


@scoring_card("Banded Hills")
def banded_hills(sheet: MapSheet) -> CardScore:
    """Earn four reputation stars for each row that contains five or more
    different terrain types."""
    codes = sheet.codes
    rows = [r for r, line in enumerate(ROWS) if len({codes[i] for i in line} & TERRAIN_TYPES) >= 5]
    return CardScore(
        4 * len(rows),
        to_cells(i for r in rows for i in ROWS[r] if codes[i] in TERRAIN_TYPES),
        tuple(("row", r) for r in rows),
        why=_("Five or more terrain types in %(lines)s.", lines=numbered("row", rows))
        if rows
        else _("No row holds five or more terrain types."),
    )


@scoring_card("Silos")
def silos(sheet: MapSheet) -> CardScore:
    """Earn ten reputation stars for each complete odd-numbered column of
    filled spaces."""
    # Printed columns are numbered from 1, so the odd ones are 0, 2, ... 10 here.
    cols = [c for c in _complete(sheet, COLUMNS) if c % 2 == 0]
    return CardScore(
        10 * len(cols),
        to_cells(_spaces(COLUMNS, cols)),
        tuple(("column", c) for c in cols),
        why=ngettext(
            "Complete odd-numbered column %(lines)s.",
            "Complete odd-numbered columns %(lines)s.",
            len(cols),
            lines=join([c + 1 for c in cols]),
        )
        if cols
        else _("No odd-numbered column is complete."),
    )


@scoring_card("Starlit Sigil")
def starlit_sigil(sheet: MapSheet) -> CardScore:
    """Earn four reputation stars for each cluster of exactly three empty
    spaces surrounded on all sides by filled spaces or the edge of the map."""
    # A connected group of empty spaces is closed in by filled spaces or the
    # edge by construction; only its size decides.
    scored = [region for region in sheet.empty_regions if len(region) == 3]
    return CardScore(
        4 * len(scored),
        to_cells(set().union(*scored)),
        why=ngettext(
            "%(num)d group of exactly three empty spaces closed in.",
            "%(num)d groups of exactly three empty spaces closed in.",
            len(scored),
        ),
    )
