"""The printed game: map sides, explore, ambush, hero, season and scoring cards.

Everything printed only as pictures lives in ``referee/data/*.json`` with how
sure we are of it; this module reads those files once into frozen dataclasses.
A correction to a card is a one-line change in its JSON file.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from referee.rules import terrain
from referee.rules.geometry import SIZE, Cell
from referee.rules.i18n import Text, pgettext

GAMES = ("base", "heroes")
CARD_BACKS = ("forest", "farm_water", "village", "spatial")
CARD_BACK_NAMES = {
    "forest": "forest",
    "farm_water": "farm and water",
    "village": "village",
    "spatial": "spatial",
}
CARD_BACK_LABELS: dict[str, Text] = {
    "forest": pgettext("card back", "forest"),
    "farm_water": pgettext("card back", "farm and water"),
    "village": pgettext("card back", "village"),
    "spatial": pgettext("card back", "spatial"),
}
"""The card backs for a person, in the reader's language."""
DIRECTIONS = ("clockwise", "counterclockwise")
CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")


def _load(name: str) -> Any:
    with resources.files("referee.data").joinpath(name).open(encoding="utf-8") as f:
        return json.load(f)


def _picture(rows: list[str], mark: str = "X") -> tuple[Cell, ...]:
    return tuple((r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == mark)


@dataclass(frozen=True)
class MapSide:
    """One printed side of the map sheet."""

    letter: str
    """A, B (base game) or C, D (Heroes)."""
    name: str
    game: str
    mountains: frozenset[Cell]
    ruins: frozenset[Cell]
    wastelands: frozenset[Cell]
    coin_track: int
    """How many coin symbols the track prints."""
    confidence: dict[str, str]

    @property
    def title(self) -> str:
        """The side's name without its letter, for a sentence that gives the
        letter already: 'Wilderness', 'Heroes (no wasteland)'."""
        return re.sub(r"\s*\(side [A-D]\)|\bside [A-D]\s*", "", self.name).strip()

    def printed(self, row: int, col: int) -> str:
        """The code printed on a space: mountain, wasteland or empty."""
        if (row, col) in self.mountains:
            return terrain.MOUNTAIN
        if (row, col) in self.wastelands:
            return terrain.WASTELAND
        return terrain.EMPTY

    def blank_map_text(self) -> str:
        """The side as an undrawn map, in the canonical text form."""
        return "\n".join("".join(self.printed(r, c) for c in range(SIZE)) for r in range(SIZE))


@dataclass(frozen=True)
class Shape:
    """One shape option of a card, in the orientation printed on it."""

    cells: tuple[Cell, ...]
    coin: bool
    """Drawing this option fills the next coin on the coin track."""

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def height(self) -> int:
        return max(r for r, _ in self.cells) + 1

    @property
    def width(self) -> int:
        return max(c for _, c in self.cells) + 1


@dataclass(frozen=True)
class ExploreCard:
    """An explore card: a terrain choice, a shape choice and a time value.
    Ruins cards are explore cards with no terrain and no shape."""

    name: str
    game: str
    kind: str
    """'explore' or 'ruins'."""
    time: int
    terrains: tuple[str, ...]
    """Map codes the player may choose from."""
    shapes: tuple[Shape, ...]
    number: str | None
    confidence: str

    @property
    def is_ruins(self) -> bool:
        return self.kind == "ruins"


@dataclass(frozen=True)
class AmbushCard:
    """An ambush card: a monster shape that a neighbour draws on your map."""

    name: str
    game: str
    shape: Shape
    pass_direction: str
    """Which way map sheets are passed: 'clockwise' or 'counterclockwise'."""
    solo_corner: str
    """Solo mode: the corner of the map to start from."""
    solo_direction: str
    """Solo mode: the way round the edge of the map."""
    initial: str | None
    """The monster's initial written in the shape (Heroes monsters only)."""
    effect: str | None
    """The card's effect, in words, or None."""
    ongoing: bool
    """Whether the effect lasts, as the rulebook's "ongoing effects" do (the
    Zombies' and the Troll's resolve after scoring each season, the Dragon's
    coins wait until it is closed in), rather than acting once, as the
    monster is drawn (Gorgon Gaze: "after drawing the Gorgon, destroy an
    adjacent non-mountain space"). The table lists only the lasting ones as
    the game goes on; a card with no effect is not ongoing."""
    confidence: dict[str, str]
    time: int = 0


@dataclass(frozen=True)
class HeroCard:
    """A hero card: a 1x1 hero space and the spaces it attacks."""

    name: str
    attack: tuple[Cell, ...]
    """Offsets ``(drow, dcol)`` from the hero space, as printed."""
    time: int
    confidence: str


@dataclass(frozen=True)
class SeasonCard:
    """A season: its time threshold and the two edicts scored at its end."""

    name: str
    threshold: int
    edicts: tuple[str, str]


@dataclass(frozen=True)
class ScoringCardInfo:
    """What a scoring card prints: name, card back, solo number and rule."""

    name: str
    game: str
    back: str
    """Card back: 'forest', 'farm_water', 'village' or 'spatial'."""
    solo: int
    """The number in the lower corner, subtracted in solo mode."""
    rule: str
    number: str | None
    confidence: dict[str, str]
    printings: dict[str, str] = field(default_factory=dict)
    """The rule as another printing words it, by printing ('czech'), in English."""

    def rule_in(self, printing: str) -> str:
        """The rule as ``printing`` words it (the English card's unless it differs)."""
        return self.printings.get(printing, self.rule)


@dataclass(frozen=True)
class CardTexts:
    """One language's texts of the printed cards, by their English names
    (``referee/data/cards_<language>.json``). A name the language's rulebook
    does not give is kept in English and marked untranslated there."""

    language: str
    raw: dict[str, Any]

    def name(self, kind: str, name: str) -> str:
        """The card's name in this language ('scoring', 'explore', 'ambush',
        'hero', 'title' or 'map_side'), or ``name`` when the data has none."""
        entry = self.raw.get(kind, {}).get(name)
        if isinstance(entry, str):
            return entry
        return str(entry["name"]) if entry else name

    def untranslated(self, kind: str, name: str) -> bool:
        """Whether the rulebook gives no name in this language (the English one stands)."""
        entry = self.raw.get(kind, {}).get(name)
        return not entry or (isinstance(entry, dict) and bool(entry.get("untranslated")))

    def rule(self, name: str, printing: str) -> str | None:
        """A scoring card's rule in this language, as ``printing`` words it."""
        entry = self.raw.get("scoring", {}).get(name)
        if not entry:
            return None
        other = entry.get("printings", {}).get(printing)
        return str(other["rule"]) if other else str(entry["rule"])

    def effect(self, name: str) -> str | None:
        """An ambush card's effect in this language."""
        entry = self.raw.get("ambush", {}).get(name)
        return str(entry["effect"]) if entry and entry.get("effect") else None


@cache
def card_texts(language: str) -> CardTexts | None:
    """The card texts in ``language``, or None when the package has none."""
    if not language.isalpha():
        return None
    path = resources.files("referee.data").joinpath(f"cards_{language}.json")
    if not path.is_file():
        return None
    return CardTexts(language, _load(f"cards_{language}.json"))


@cache
def map_sides() -> dict[str, MapSide]:
    """The four map sides, A to D."""
    raw = _load("maps.json")
    sides = {}
    for letter in "ABCD":
        m = raw[letter]
        if len(m["layout"]) != SIZE or any(len(r) != SIZE for r in m["layout"]):
            raise ValueError(f"map side {letter}: layout is not 11x11")
        sides[letter] = MapSide(
            letter=letter,
            name=m["name"],
            game=m["game"],
            mountains=frozenset(_picture(m["layout"], "^")),
            ruins=frozenset(_picture(m["layout"], "R")),
            wastelands=frozenset(_picture(m["layout"], "#")),
            coin_track=m["coin_track"],
            confidence=m["confidence"],
        )
    return sides


@cache
def explore_cards() -> tuple[ExploreCard, ...]:
    """Every explore card of both games, ruins cards included."""
    return tuple(
        ExploreCard(
            name=e["name"],
            game=e["game"],
            kind=e["kind"],
            time=e["time"],
            terrains=tuple(terrain.BY_NAME[t] for t in e["terrains"]),
            shapes=tuple(Shape(_picture(s["cells"]), s["coin"]) for s in e["shapes"]),
            number=e["number"],
            confidence=e["confidence"],
        )
        for e in _load("explore_cards.json")["cards"]
    )


@cache
def ambush_cards() -> tuple[AmbushCard, ...]:
    """The four ambush cards of each game."""
    return tuple(
        AmbushCard(
            name=a["name"],
            game=a["game"],
            shape=Shape(_picture(a["shape"]), False),
            pass_direction=a["pass"],
            solo_corner=a["solo_corner"],
            solo_direction=a["solo_direction"],
            initial=a["initial"],
            effect=a["effect"],
            ongoing=a["ongoing"],
            confidence=a["confidence"],
        )
        for a in _load("ambush_cards.json")["cards"]
    )


@cache
def hero_cards() -> tuple[HeroCard, ...]:
    """The four hero cards of Cartographers Heroes."""
    heroes = []
    for h in _load("hero_cards.json")["cards"]:
        ((hr, hc),) = _picture(h["attack"], "H")
        attack = tuple((r - hr, c - hc) for r, c in _picture(h["attack"], "x"))
        heroes.append(HeroCard(h["name"], attack, h["time"], h["confidence"]))
    return tuple(heroes)


@cache
def season_cards() -> dict[str, tuple[SeasonCard, ...]]:
    """The season cards of each game: spring, summer, fall, winter."""
    raw = _load("season_cards.json")
    return {
        game: tuple(
            SeasonCard(s["name"], s["threshold"], (s["edicts"][0], s["edicts"][1])) for s in raw[game]
        )
        for game in GAMES
    }


@cache
def scoring_card_infos() -> tuple[ScoringCardInfo, ...]:
    """The 32 scoring cards as printed."""
    return tuple(
        ScoringCardInfo(
            name=s["name"],
            game=s["game"],
            back=s["back"],
            solo=s["solo"],
            rule=s["rule"],
            number=s["number"],
            confidence=s["confidence"],
            printings={p: v["rule"] for p, v in s.get("printings", {}).items()},
        )
        for s in _load("scoring_cards.json")["cards"]
    )


@cache
def first_game_edicts() -> dict[str, dict[str, str]]:
    """The rulebooks' recommended scoring cards for a first game, by game."""
    return dict(_load("scoring_cards.json")["first_game"])


@cache
def solo_titles() -> tuple[tuple[int, str], ...]:
    """Queen Gimnax's titles, highest rating first."""
    rows = _load("scoring_cards.json")["solo_titles"]
    return tuple(sorted(((t["rating"], t["title"]) for t in rows), reverse=True))


def normalise_name(name: str) -> str:
    """A card name folded for lookup: case, curly apostrophes and spaces."""
    return " ".join(name.replace("\u2019", "'").casefold().split())
