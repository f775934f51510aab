"""The 11x11 grid: indices, neighbours, rows, columns and diagonals.

A space is an index ``i = row * 11 + col``; everything here is computed once
at import so that scoring a map touches only tuples.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.rules.i18n import Joined, Text, _

SIZE = 11
SPACES = SIZE * SIZE

Cell = tuple[int, int]


def index(row: int, col: int) -> int:
    """The index of the space at ``row``, ``col`` (0-based, row 0 at the top)."""
    return row * SIZE + col


def cell(i: int) -> Cell:
    """The ``(row, col)`` of space ``i``."""
    return divmod(i, SIZE)


def _neighbours(i: int) -> tuple[int, ...]:
    r, c = divmod(i, SIZE)
    out = []
    if r > 0:
        out.append(i - SIZE)
    if c > 0:
        out.append(i - 1)
    if c < SIZE - 1:
        out.append(i + 1)
    if r < SIZE - 1:
        out.append(i + SIZE)
    return tuple(out)


#: Orthogonal neighbours of each space: "spaces that share a side are adjacent".
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(SPACES))

#: Spaces on the edge of the map.
ON_EDGE: tuple[bool, ...] = tuple(len(n) < 4 for n in NEIGHBOURS)

ROWS: tuple[tuple[int, ...], ...] = tuple(tuple(index(r, c) for c in range(SIZE)) for r in range(SIZE))
COLUMNS: tuple[tuple[int, ...], ...] = tuple(tuple(index(r, c) for r in range(SIZE)) for c in range(SIZE))

#: The Broken Road's diagonals: from each space of the left edge down and to
#: the right until the bottom edge. Diagonal ``k`` starts at row ``k``.
DIAGONALS: tuple[tuple[int, ...], ...] = tuple(
    tuple(index(r + k, r) for r in range(SIZE - k)) for k in range(SIZE)
)


def cells(indices: Iterable[int]) -> list[Cell]:
    """Sorted ``(row, col)`` pairs for an iterable of indices."""
    return sorted(cell(i) for i in indices)


def where(row: int, col: int) -> Text:
    """A space named the way a player counts it: from 1, at the top left."""
    return _("row %(row)d, column %(col)d", row=row + 1, col=col + 1)


def where_all(spaces: Iterable[Cell]) -> Text:
    """Several spaces, in reading order, separated by semicolons."""
    return Joined([where(r, c) for r, c in sorted(spaces)], "; ")
