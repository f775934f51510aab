"""What a scoring card is in code: its printed facts plus one function.

Each card function takes a ``MapSheet`` and returns a ``CardScore``: the
stars, and the spaces or lines that earned them so a page can highlight them,
with one sentence saying why.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from referee.rules.data import ScoringCardInfo, normalise_name, scoring_card_infos
from referee.rules.errors import UnknownCardError
from referee.rules.geometry import Cell, cell
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
    why: str = ""
    """One sentence for the player: what was counted, and any choice made."""


ScoreFunction = Callable[[MapSheet], CardScore]

_FUNCTIONS: dict[str, ScoreFunction] = {}


def scoring_card(name: str) -> Callable[[ScoreFunction], ScoreFunction]:
    """Register the function that scores the card printed as ``name``."""

    def register(fn: ScoreFunction) -> ScoreFunction:
        if name in _FUNCTIONS:
            raise ValueError(f"{name} is registered twice")
        _FUNCTIONS[name] = fn
        return fn

    return register


@dataclass(frozen=True)
class ScoringCard:
    """A scoring card: what it prints and how it scores."""

    info: ScoringCardInfo
    score: ScoreFunction

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


def build_registry() -> dict[str, ScoringCard]:
    """Pair every printed card with its function; both lists must match."""
    infos = {info.name: info for info in scoring_card_infos()}
    missing = set(infos) - set(_FUNCTIONS)
    extra = set(_FUNCTIONS) - set(infos)
    if missing or extra:
        raise RuntimeError(f"scoring cards without a function {missing}, functions without a card {extra}")
    return {name: ScoringCard(info, _FUNCTIONS[name]) for name, info in infos.items()}


def find(registry: dict[str, ScoringCard], name: str) -> ScoringCard:
    """The card officially named ``name``, case-insensitive."""
    wanted = normalise_name(name)
    for card in registry.values():
        if normalise_name(card.name) == wanted:
            return card
    close = difflib.get_close_matches(wanted, [normalise_name(n) for n in registry], n=1, cutoff=0.6)
    hint = ""
    if close:
        hint = " Did you mean " + next(n for n in registry if normalise_name(n) == close[0]) + "?"
    raise UnknownCardError(f"there is no scoring card called '{name}'.{hint}")


def to_cells(indices: Iterable[int]) -> frozenset[Cell]:
    return frozenset(cell(i) for i in indices)


def numbered(kind: str, lines: Iterable[int]) -> str:
    """'rows 1, 4 and 7' from 0-based line numbers."""
    ns = [str(n + 1) for n in lines]
    if not ns:
        return f"no {kind}s"
    if len(ns) == 1:
        return f"{kind} {ns[0]}"
    return f"{kind}s {', '.join(ns[:-1])} and {ns[-1]}"
