"""What a scoring card is in code: its printed facts plus one function.

Each card function takes a ``MapSheet`` and returns a ``CardScore``: the
stars, and the spaces or lines that earned them so a page can highlight them,
with one sentence saying why.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from referee.rules.data import ScoringCardInfo, normalise_name, scoring_card_infos
from referee.rules.errors import UnknownCardError
from referee.rules.geometry import Cell, cell
from referee.rules.i18n import Text, _, join, npgettext, pgettext
from referee.rules.sheet import MapSheet

Line = tuple[str, int]
"""A scored line: ("row", r), ("column", c) or ("diagonal", k), 0-based."""


@dataclass(frozen=True)
class CardScore:
    """The reputation stars one scoring card gives one map."""

    stars: int
    cells: frozenset[Cell] = field(default_factory=frozenset)
    """The spaces that earned the stars, as ``(row, col)``."""
    lines: tuple[Line, ...] = ()
    """Rows, columns or diagonals that earned the stars."""
    why: Text | str = ""
    """One sentence for the player: what was counted, and any choice made
    (a ``Text``, shown in the reader's language)."""


ScoreFunction = Callable[[MapSheet], CardScore]


class Printing(StrEnum):
    """Which printing of the scoring cards a game plays by: a variant of the
    rules, as a chess variant is. The English cards are the default; the Czech
    edition of the Heroes rulebook prints two cards differently (Jorekburg,
    Deepwood), and a table may choose to play them that way."""

    ENGLISH = "english"
    CZECH = "czech"


_FUNCTIONS: dict[tuple[Printing, str], ScoreFunction] = {}


def scoring_card(
    name: str, printing: Printing = Printing.ENGLISH
) -> Callable[[ScoreFunction], ScoreFunction]:
    """Register the function that scores the card printed as ``name``; with
    ``printing``, the one that scores that printing's different text."""

    def register(fn: ScoreFunction) -> ScoreFunction:
        if (printing, name) in _FUNCTIONS:
            raise ValueError(f"{name} is registered twice for the {printing} printing")
        _FUNCTIONS[(printing, name)] = fn
        return fn

    return register


def differs(printing: Printing) -> tuple[str, ...]:
    """The cards whose ``printing`` scores differently from the English one."""
    return tuple(name for p, name in _FUNCTIONS if p == printing and p != Printing.ENGLISH)


@dataclass(frozen=True)
class ScoringCard:
    """A scoring card: what it prints and how it scores."""

    info: ScoringCardInfo
    score: ScoreFunction
    printing: Printing = Printing.ENGLISH
    """The printing whose text ``score`` follows."""

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def back(self) -> str:
        return self.info.back

    @property
    def solo(self) -> int:
        return self.info.solo

    @property
    def game(self) -> str:
        return self.info.game


def build_registry(printing: Printing = Printing.ENGLISH) -> dict[str, ScoringCard]:
    """Pair every printed card with its function (the English one unless
    ``printing`` prints the card differently); both lists must match."""
    infos = {info.name: info for info in scoring_card_infos()}
    english = {name for p, name in _FUNCTIONS if p == Printing.ENGLISH}
    missing = set(infos) - english
    extra = {name for _, name in _FUNCTIONS} - set(infos)
    if missing or extra:
        raise RuntimeError(f"scoring cards without a function {missing}, functions without a card {extra}")
    cards = {}
    for name, info in infos.items():
        if (printing, name) in _FUNCTIONS:
            cards[name] = ScoringCard(info, _FUNCTIONS[(printing, name)], printing)
        else:
            cards[name] = ScoringCard(info, _FUNCTIONS[(Printing.ENGLISH, name)])
    return cards


def find(registry: dict[str, ScoringCard], name: str) -> ScoringCard:
    """The card officially named ``name``, case-insensitive."""
    wanted = normalise_name(name)
    for card in registry.values():
        if normalise_name(card.name) == wanted:
            return card
    close = difflib.get_close_matches(wanted, [normalise_name(n) for n in registry], n=1, cutoff=0.6)
    if close:
        near = next(n for n in registry if normalise_name(n) == close[0])
        raise UnknownCardError(
            _("there is no scoring card called '%(name)s'. Did you mean %(near)s?", name=name, near=near)
        )
    raise UnknownCardError(_("there is no scoring card called '%(name)s'.", name=name))


def to_cells(indices: Iterable[int]) -> frozenset[Cell]:
    return frozenset(cell(i) for i in indices)


def numbered(kind: str, lines: Iterable[int]) -> Text:
    """'rows 1, 4 and 7' from 0-based line numbers (``kind`` is 'row' or
    'column'), to end a sentence after "in": 'Three or more forest spaces in ...'."""
    ns = [n + 1 for n in lines]
    listed = join(ns)
    if kind == "row":
        if not ns:
            return pgettext("in", "no rows")
        return npgettext("in", "row %(lines)s", "rows %(lines)s", len(ns), lines=listed)
    if not ns:
        return pgettext("in", "no columns")
    return npgettext("in", "column %(lines)s", "columns %(lines)s", len(ns), lines=listed)
