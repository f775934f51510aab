"""A player's map: the 11x11 spaces of one map side and what is drawn on them.

``MapSheet`` is immutable; the facts many scoring cards share (clusters,
filled spaces, the ruins of the side) are computed once, on first use.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cached_property

from referee.rules import terrain
from referee.rules.data import MapSide, map_sides
from referee.rules.errors import MapError
from referee.rules.geometry import NEIGHBOURS, SIZE, SPACES, cell, index, where
from referee.rules.i18n import _, ngettext

Cluster = frozenset[int]


class MapSheet:
    """The drawn map of one player on one map side."""

    __slots__ = ("side", "codes", "__dict__")

    def __init__(self, side: MapSide, codes: Iterable[str]):
        self.side = side
        self.codes: tuple[str, ...] = tuple(codes)
        """One map code per space, row by row from the top left."""
        if len(self.codes) != SPACES:
            raise MapError(
                _("a map has %(spaces)d spaces, not %(count)d", spaces=SPACES, count=len(self.codes))
            )

    # --- building ---------------------------------------------------------

    @classmethod
    def parse(cls, text: str, side: MapSide | str) -> MapSheet:
        """Read the canonical text form: 11 lines of 11 map codes.

        Blank lines before and after and trailing spaces are forgiven;
        anything else wrong raises ``MapError`` naming the row and column.
        """
        if isinstance(side, str):
            side = side_named(side)
        lines = [line.rstrip() for line in text.strip("\n\r\t ").splitlines()]
        if len(lines) != SIZE:
            raise MapError(
                ngettext(
                    "a map has %(size)d rows of %(size)d spaces; this one has %(num)d row",
                    "a map has %(size)d rows of %(size)d spaces; this one has %(num)d rows",
                    len(lines),
                    size=SIZE,
                )
            )
        codes: list[str] = []
        for r, line in enumerate(lines):
            line = line.strip()
            if len(line) != SIZE:
                raise MapError(
                    ngettext(
                        "row %(row)d has %(num)d space; every row has %(size)d",
                        "row %(row)d has %(num)d spaces; every row has %(size)d",
                        len(line),
                        row=r + 1,
                        size=SIZE,
                    ),
                    row=r,
                )
            for c, ch in enumerate(line):
                if ch not in terrain.ALL_CODES:
                    raise MapError(
                        _(
                            "%(space)s: '%(code)s' is not a map code (use one of %(codes)s)",
                            space=where(r, c),
                            code=ch,
                            codes=" ".join(sorted(terrain.ALL_CODES)),
                        ),
                        row=r,
                        col=c,
                    )
                codes.append(ch)
        sheet = cls(side, codes)
        sheet.check_printed()
        return sheet

    @classmethod
    def blank(cls, side: MapSide | str) -> MapSheet:
        """The side as printed, before anything is drawn."""
        if isinstance(side, str):
            side = side_named(side)
        return cls(side, side.blank_map_text().replace("\n", ""))

    def check_printed(self) -> None:
        """Printed mountains and wastelands must be where the side prints them,
        and nowhere else."""
        for i, code in enumerate(self.codes):
            r, c = cell(i)
            printed = self.side.printed(r, c)
            if printed != terrain.EMPTY and code != printed:
                raise MapError(
                    _(
                        "%(space)s: side %(side)s prints a %(printed)s here, "
                        "but the map has %(terrain)s ('%(code)s')",
                        space=where(r, c),
                        side=self.side.letter,
                        printed=terrain.LABELS[printed],
                        terrain=terrain.LABELS[code],
                        code=code,
                    ),
                    row=r,
                    col=c,
                )
            if printed == terrain.EMPTY and code in terrain.PRINTED:
                raise MapError(
                    _(
                        "%(space)s: side %(side)s has no %(terrain)s here; "
                        "only printed spaces may hold '%(code)s'",
                        space=where(r, c),
                        side=self.side.letter,
                        terrain=terrain.LABELS[code],
                        code=code,
                    ),
                    row=r,
                    col=c,
                )

    def with_codes(self, changes: dict[int, str]) -> MapSheet:
        """A copy with some spaces redrawn."""
        codes = list(self.codes)
        for i, code in changes.items():
            codes[i] = code
        return MapSheet(self.side, codes)

    # --- reading ----------------------------------------------------------

    def at(self, row: int, col: int) -> str:
        return self.codes[index(row, col)]

    def text(self) -> str:
        """The canonical text form."""
        return "\n".join("".join(self.codes[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, MapSheet)
            and self.side.letter == other.side.letter
            and self.codes == other.codes
        )

    def __hash__(self) -> int:
        return hash((self.side.letter, self.codes))

    def __repr__(self) -> str:
        return f"MapSheet(side={self.side.letter!r}, text={self.text()!r})"

    @cached_property
    def filled(self) -> tuple[bool, ...]:
        """Whether each space is filled (anything drawn or printed on it)."""
        return tuple(code != terrain.EMPTY for code in self.codes)

    @cached_property
    def ruins(self) -> frozenset[int]:
        """The indices of the side's printed ruins spaces."""
        return frozenset(index(r, c) for r, c in self.side.ruins)

    def spaces_of(self, code: str) -> Iterator[int]:
        """Indices of every space holding ``code``."""
        return (i for i, x in enumerate(self.codes) if x == code)

    @cached_property
    def _groups(self) -> dict[str, list[Cluster]]:
        """Connected groups of one code, for each terrain type and for empty
        spaces, in reading order of their first space (one flood fill)."""
        wanted = terrain.TERRAIN_TYPES | {terrain.EMPTY}
        seen = [False] * SPACES
        found: dict[str, list[Cluster]] = {}
        codes = self.codes
        for start in range(SPACES):
            code = codes[start]
            if seen[start] or code not in wanted:
                continue
            seen[start] = True
            stack = [start]
            members = [start]
            while stack:
                for n in NEIGHBOURS[stack.pop()]:
                    if not seen[n] and codes[n] == code:
                        seen[n] = True
                        stack.append(n)
                        members.append(n)
            found.setdefault(code, []).append(frozenset(members))
        return found

    def clusters(self, code: str) -> list[Cluster]:
        """Clusters of one terrain type: "a group of connected spaces that all
        have the same terrain type", in reading order of their first space."""
        if code not in terrain.TERRAIN_TYPES:
            raise ValueError(f"'{code}' is not a terrain type")
        return self._groups.get(code, [])

    @property
    def empty_regions(self) -> list[Cluster]:
        """Connected groups of empty spaces (the Starlit Sigil's clusters)."""
        return self._groups.get(terrain.EMPTY, [])

    def border(self, group: Iterable[int]) -> set[int]:
        """The spaces outside ``group`` that are adjacent to it."""
        group = set(group)
        return {n for i in group for n in NEIGHBOURS[i] if n not in group}


def side_named(letter: str) -> MapSide:
    """The map side for a letter A to D, case-insensitive."""
    sides = map_sides()
    try:
        return sides[letter.strip().upper()]
    except KeyError:
        raise MapError(
            _(
                "there is no map side '%(letter)s'; the sides are %(sides)s",
                letter=letter,
                sides=", ".join(sides),
            )
        ) from None
