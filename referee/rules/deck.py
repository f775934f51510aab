"""The dealer: scoring cards under the edicts and every explore card of a game, from a seed.

A table stores only its ``Setup`` (with the dealer's ``version``) and how many
times it has tapped "reveal"; every page recomputes the same deal from them. So
the deal must never change for a given setup: it uses its own PCG32 generator
(O'Neill's ``pcg32_random_r``, XSH RR) seeded from SHA-256 of the setup, and
Fisher-Yates shuffles with unbiased bounded integers. ``random`` and any global
state are never touched. A change to the algorithm must bump ``DEAL_VERSION``
and keep the old version dealing as before.

The deal follows the rulebooks' setup and turn order: sort the scoring cards by
card back, draw one from each and place them under edicts A-D at random;
shuffle the ambush deck (and hero deck); shuffle the explore deck and shuffle
in the top ambush card (and top hero card). A ruins card reveals the next card
at once; an ambush or hero after ruins resolves normally and the ruins wait
for the next explore card. The season ends when the revealed time values meet
its threshold. Between seasons every explore card is reshuffled with the
ambushes and heroes still unrevealed, plus the next ambush (and hero).
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

from referee.rules import data
from referee.rules.errors import RefereeError
from referee.rules.i18n import Name, Text, _, join, ngettext

DEAL_VERSION: int = 1
"""Bump when the dealing algorithm changes; stored with every table."""
SUPPORTED_VERSIONS: tuple[int, ...] = (1,)
MAX_SEED_LENGTH = 64

EDITIONS = ("base", "heroes", "combined")
EDITION_NAMES = {
    "base": "Cartographers",
    "heroes": "Cartographers Heroes",
    "combined": "Cartographers and Cartographers Heroes combined",
}
EDITION_LABELS: dict[str, Text] = {
    "base": _("Cartographers"),
    "heroes": _("Cartographers Heroes"),
    "combined": _("Cartographers and Cartographers Heroes combined"),
}
"""The editions for a person, in the reader's language."""
EDICT_MODES = ("random", "first_game", "chosen")
EDICT_LETTERS = ("A", "B", "C", "D")
KINDS = ("explore", "ruins", "ambush", "hero")

T = TypeVar("T")


class SetupError(RefereeError):
    """A setup that cannot be dealt (an unknown edition, a bad seed, a wrong
    set of ambush or scoring cards), or a tap past the end of the game.
    ``field`` names the setup choice the sentence is about, for a form to
    show it there: 'seed', 'ambushes', 'edition' or 'edicts' (the default)."""

    def __init__(self, message: Text | str, field: str = "edicts") -> None:
        super().__init__(message)
        self.field = field


class DealError(SetupError):
    """The explore deck ran out before a season's time threshold was reached.
    It cannot happen with the printed cards; this guards against bad data."""


# --- The generator --------------------------------------------------------------------------------

_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1
_PCG_MULTIPLIER = 6364136223846793005


class Pcg32:
    """PCG32 (XSH RR, 64-bit state), exactly as ``pcg32_srandom_r`` and
    ``pcg32_random_r`` in the reference C code (pcg-random.org)."""

    def __init__(self, initstate: int, initseq: int) -> None:
        self.state = 0
        self.inc = ((initseq << 1) | 1) & _MASK64
        self.next()
        self.state = (self.state + initstate) & _MASK64
        self.next()

    @classmethod
    def from_text(cls, text: str) -> Pcg32:
        """A generator seeded by SHA-256 of the text: state from the first
        eight bytes, stream from the next eight (big-endian)."""
        digest = hashlib.sha256(text.encode("utf-8")).digest()
        return cls(int.from_bytes(digest[:8], "big"), int.from_bytes(digest[8:16], "big"))

    def next(self) -> int:
        """The next 32-bit output."""
        old = self.state
        self.state = (old * _PCG_MULTIPLIER + self.inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & _MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & _MASK32

    def below(self, bound: int) -> int:
        """A uniform integer in ``0..bound-1``, by rejection (``pcg32_boundedrand_r``)."""
        if not 0 < bound <= _MASK32:
            raise ValueError(f"bound must be between 1 and 2**32-1, not {bound}")
        threshold = (1 << 32) % bound
        while True:
            r = self.next()
            if r >= threshold:
                return r % bound

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy (Fisher-Yates, from the last position down)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


# --- The setup ------------------------------------------------------------------------------------


@cache
def _ambush_index() -> dict[str, tuple[int, str]]:
    return {data.normalise_name(a.name): (i, a.name) for i, a in enumerate(data.ambush_cards())}


@cache
def _scoring_index() -> dict[str, data.ScoringCardInfo]:
    return {data.normalise_name(s.name): s for s in data.scoring_card_infos()}


def _ambush_name(name: object) -> object:
    """The printed name of an ambush card, or the input untouched when unknown."""
    hit = _ambush_index().get(data.normalise_name(name)) if isinstance(name, str) else None
    return name if hit is None else hit[1]


def _scoring_name(name: object) -> object:
    """The printed name of a scoring card, or the input untouched when unknown."""
    hit = _scoring_index().get(data.normalise_name(name)) if isinstance(name, str) else None
    return name if hit is None else hit.name


def edition_ambushes(game: str) -> tuple[str, ...]:
    """The four ambush cards printed for one game."""
    return tuple(a.name for a in data.ambush_cards() if a.game == game)


@dataclass(frozen=True)
class Setup:
    """Everything that decides a deal. Construction only tidies the values
    (strips the seed, fills in an edition's own cards, writes card names as
    printed); ``check()`` and ``deal()`` refuse what cannot be dealt."""

    edition: str
    """'base', 'heroes' or 'combined' ("Combining Games" in the Heroes rulebook)."""
    seed: str
    """Any text of 1 to MAX_SEED_LENGTH characters once stripped."""
    season_set: str = ""
    """Whose season cards: 'base' (8/8/7/6) or 'heroes' (8/7/7/6). Empty: the edition's own."""
    explore_set: str = ""
    """Whose explore cards: 'base' or 'heroes'. Empty: the edition's own."""
    heroes: bool | None = None
    """Hero cards in the deck. None: the edition's own (heroes yes, base no)."""
    ambushes: tuple[str, ...] = ()
    """The four ambush cards. Empty: the edition's own four. Combined: any four of both games."""
    edicts: str = "random"
    """How scoring cards are placed: 'random', 'first_game' or 'chosen'."""
    chosen: tuple[str, str, str, str] | None = None
    """Card names for edicts A to D when ``edicts == 'chosen'`` (ignored otherwise)."""
    solo: bool = False
    """Solo mode. It changes how ambushes are drawn, not the deal."""
    version: int = DEAL_VERSION
    """The dealing algorithm."""

    def __post_init__(self) -> None:
        tidy = object.__setattr__
        if isinstance(self.seed, str):
            tidy(self, "seed", unicodedata.normalize("NFC", self.seed.strip()))
        edition = self.edition.strip().lower() if isinstance(self.edition, str) else self.edition
        tidy(self, "edition", edition)
        own = edition if edition in data.GAMES else None
        for name in ("season_set", "explore_set"):
            value = getattr(self, name)
            if isinstance(value, str):
                value = value.strip().lower()
            tidy(self, name, value or own or "")
        if self.heroes is None and own is not None:
            tidy(self, "heroes", own == "heroes")
        ambushes = self.ambushes
        if isinstance(ambushes, str):
            ambushes = (ambushes,)
        if isinstance(ambushes, Iterable):
            names = [_ambush_name(a) for a in ambushes]
            if not names and own is not None:
                names = list(edition_ambushes(own))
            # Printed order, so the same four cards always deal the same way.
            order = {name: i for i, name in _ambush_index().values()}
            names.sort(key=lambda n: order.get(n, len(order)) if isinstance(n, str) else len(order))
            tidy(self, "ambushes", tuple(names))
        if isinstance(self.edicts, str):
            tidy(self, "edicts", self.edicts.strip().lower().replace("-", "_").replace(" ", "_"))
        if self.edicts != "chosen":
            tidy(self, "chosen", None)
        elif isinstance(self.chosen, Iterable) and not isinstance(self.chosen, str):
            tidy(self, "chosen", tuple(_scoring_name(c) for c in self.chosen))

    def check(self) -> Setup:
        """The setup itself, or SetupError with a sentence saying what is wrong."""
        if not isinstance(self.version, int) or self.version not in SUPPORTED_VERSIONS:
            raise SetupError(
                _(
                    "This table was dealt by version %(version)s of the dealer, which this referee "
                    "does not know (it knows %(known)s).",
                    version=self.version,
                    known=", ".join(map(str, SUPPORTED_VERSIONS)),
                )
            )
        if self.edition not in EDITIONS:
            raise SetupError(_("Choose the base game, Cartographers Heroes or the two combined."), "edition")
        check_seed(self.seed)
        for what, value in (("season", self.season_set), ("explore", self.explore_set)):
            if value not in data.GAMES:
                if what == "season":
                    raise SetupError(
                        _("Choose which season cards to use: the base game's or the Heroes ones.")
                    )
                raise SetupError(_("Choose which explore cards to use: the base game's or the Heroes ones."))
            if self.edition != "combined" and value != self.edition:
                edition = EDITION_LABELS[self.edition]
                if what == "season":
                    raise SetupError(
                        _(
                            "%(edition)s uses its own season cards; combine the two games to use the others.",
                            edition=edition,
                        )
                    )
                raise SetupError(
                    _(
                        "%(edition)s uses its own explore cards; combine the two games to use the others.",
                        edition=edition,
                    )
                )
        if not isinstance(self.heroes, bool):
            raise SetupError(_("Choose whether the hero cards are in the explore deck."))
        if self.edition != "combined" and self.heroes != (self.edition == "heroes"):
            raise SetupError(
                _(
                    "Hero cards are always in Cartographers Heroes and never in the base game; "
                    "combine the two games to choose."
                )
            )
        self._check_ambushes()
        self._check_edicts()
        if not isinstance(self.solo, bool):
            raise SetupError(_("Solo mode is either on or off."))
        return self

    def _check_ambushes(self) -> None:
        names = self.ambushes
        unknown = [
            n for n in names if not isinstance(n, str) or data.normalise_name(n) not in _ambush_index()
        ]
        if unknown:
            raise SetupError(
                _("There is no ambush card called %(name)r in either game.", name=str(unknown[0])), "ambushes"
            )
        if len(set(names)) != len(names):
            raise SetupError(_("Each ambush card can be in the ambush deck only once."), "ambushes")
        if len(names) != 4:
            raise SetupError(
                _("The ambush deck needs exactly four ambush cards, not %(count)d.", count=len(names)),
                "ambushes",
            )
        if self.edition != "combined" and names != edition_ambushes(self.edition):
            raise SetupError(
                _(
                    "%(edition)s uses its own four ambush cards; combine the two games to mix them.",
                    edition=EDITION_LABELS[self.edition],
                ),
                "ambushes",
            )

    def _check_edicts(self) -> None:
        if self.edicts not in EDICT_MODES:
            raise SetupError(_("Place the scoring cards at random, as in a first game, or as chosen."))
        if self.edicts == "first_game" and self.edition == "base":
            raise SetupError(
                _(
                    "The base game's rulebook names no scoring cards for a first game; "
                    "place them at random or choose them."
                )
            )
        if self.edicts != "chosen":
            return
        chosen = self.chosen
        if not isinstance(chosen, tuple) or len(chosen) != 4:
            raise SetupError(_("Choose four scoring cards, one for each edict A to D."))
        cards = []
        for letter, name in zip(EDICT_LETTERS, chosen, strict=True):
            info = _scoring_index().get(data.normalise_name(name)) if isinstance(name, str) else None
            if info is None:
                raise SetupError(
                    _(
                        "There is no scoring card called %(name)r (edict %(letter)s).",
                        name=str(name),
                        letter=letter,
                    )
                )
            if self.edition != "combined" and info.game != self.edition:
                raise SetupError(
                    _(
                        "%(card)s (edict %(letter)s) is not a %(edition)s scoring card; "
                        "combine the two games to mix them.",
                        card=Name("scoring", info.name),
                        letter=letter,
                        edition=EDITION_LABELS[self.edition],
                    )
                )
            cards.append(info)
        for back in data.CARD_BACKS:
            same = [c.name for c in cards if c.back == back]
            if len(same) != 1:
                label = data.CARD_BACK_LABELS[back]
                if not same:
                    raise SetupError(
                        _("Choose one %(back)s scoring card: there is none among the four.", back=label)
                    )
                raise SetupError(
                    _(
                        "Choose only one %(back)s scoring card: %(cards)s have the same card back.",
                        back=label,
                        cards=join([Name("scoring", n) for n in same]),
                    )
                )

    def options(self) -> str:
        """The deal-deciding choices as one canonical line (part of the generator's seed)."""
        return (
            f"seasons={self.season_set};explore={self.explore_set};heroes={int(bool(self.heroes))};"
            f"ambushes={','.join(self.ambushes)};edicts={self.edicts};"
            f"chosen={','.join(self.chosen) if self.chosen else ''}"
        )

    def to_dict(self) -> dict[str, Any]:
        """Every field, as JSON-ready values (``from_dict`` reads it back)."""
        return {
            "version": self.version,
            "edition": self.edition,
            "seed": self.seed,
            "season_set": self.season_set,
            "explore_set": self.explore_set,
            "heroes": self.heroes,
            "ambushes": list(self.ambushes),
            "edicts": self.edicts,
            "chosen": list(self.chosen) if self.chosen else None,
            "solo": self.solo,
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Setup:
        """The setup ``to_dict`` wrote, checked."""
        try:
            chosen = raw.get("chosen")
            return cls(
                edition=raw["edition"],
                seed=raw["seed"],
                season_set=raw.get("season_set", ""),
                explore_set=raw.get("explore_set", ""),
                heroes=raw.get("heroes"),
                ambushes=tuple(raw.get("ambushes") or ()),
                edicts=raw.get("edicts", "random"),
                chosen=tuple(chosen) if chosen else None,
                solo=bool(raw.get("solo", False)),
                version=raw.get("version", DEAL_VERSION),
            ).check()
        except (KeyError, TypeError, AttributeError) as e:
            raise SetupError(
                _("This stored setup is incomplete or damaged (%(error)s).", error=str(e))
            ) from None


AMBUSH_MODES = ("random", "chosen")
"""How a combined game's four ambush cards are chosen: from the seed, or by hand."""


def ambushes_at_random(seed: str) -> tuple[str, ...]:
    """Four of the two games' eight ambush cards, drawn at random from the
    seed for a combined game, in printed order. The same seed draws the same
    four everywhere (its own PCG32 stream, apart from the deal's), and the
    setup then names them, so the deal itself is unchanged."""
    rng = Pcg32.from_text(f"referee-ambushes-v1:{check_seed(seed)}")
    drawn = set(rng.shuffle([a.name for a in data.ambush_cards()])[:4])
    return tuple(a.name for a in data.ambush_cards() if a.name in drawn)


def check_seed(seed: object) -> str:
    """The seed if it can be dealt, else SetupError saying why."""
    if not isinstance(seed, str) or not seed.strip():
        raise SetupError(
            _("Type a seed: any word or phrase, the same one for everyone at the table."), "seed"
        )
    seed = unicodedata.normalize("NFC", seed.strip())
    if len(seed) > MAX_SEED_LENGTH:
        raise SetupError(
            ngettext(
                "The seed is %(num)d character long; keep it to %(most)d or fewer.",
                "The seed is %(num)d characters long; keep it to %(most)d or fewer.",
                len(seed),
                most=MAX_SEED_LENGTH,
            ),
            "seed",
        )
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in seed):
        raise SetupError(_("The seed may not contain control characters or line breaks."), "seed")
    return seed


_SEED_WORDS = (
    "amber azure brave bright calm cedar clever copper coral crimson dusky eager early fern "
    "frosty gentle golden green hidden hollow honest iron ivory jade jolly keen lively lucky "
    "misty mossy noble olive quiet rapid rosy ruby rustic sandy silver sly snowy stony sunny "
    "swift tawny tidy velvet wild windy wise"
).split()
_SEED_NOUNS = (
    "badger bear beaver bison boar crane crow deer dove eagle falcon ferret finch fox frog "
    "goat goose hare hawk heron ibex lark lynx marten mole moose newt otter owl pike quail "
    "raven robin salmon seal stag stoat swan toad trout vole walrus weasel wolf wren yak"
).split()


def new_seed() -> str:
    """A fresh seed that is easy to read aloud, e.g. 'amber-fox-417'."""
    return f"{secrets.choice(_SEED_WORDS)}-{secrets.choice(_SEED_NOUNS)}-{100 + secrets.randbelow(900)}"


# --- The deal -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reveal:
    """One card turned face up."""

    name: str
    """The official English card name."""
    kind: str
    """'explore', 'ruins', 'ambush' or 'hero'."""
    time: int
    """Its time value (ambush, hero and ruins cards: 0)."""
    ruins: bool
    """This explore card's shape must overlap a ruins space (if possible): a
    ruins card came before it this turn, or before an ambush or hero."""


@dataclass(frozen=True)
class Turn:
    """One tap: any ruins cards, then the card they reveal at once (or just one card)."""

    reveals: tuple[Reveal, ...]
    time_after: int
    """The season's time total after this turn."""


@dataclass(frozen=True)
class SeasonDeal:
    """One season: its threshold, edicts and every turn until the time is up."""

    name: str
    """'spring', 'summer', 'fall' or 'winter'."""
    threshold: int
    edicts: tuple[str, str]
    """The two edicts scored at its end, e.g. ('A', 'B')."""
    turns: tuple[Turn, ...]
    time: int
    """The season's total time (at least the threshold)."""
    ambushes_added: tuple[str, ...]
    """The ambush (and hero) shuffled into the explore deck at its start."""
    deck: tuple[str, ...] = field(default=(), compare=False)
    """The whole explore deck at the season's start, top card first."""


@dataclass(frozen=True)
class Position:
    """Where a table stands after some taps."""

    taps: int
    season_index: int
    """0 (spring) to 3 (winter)."""
    turn_index: int
    """Turns revealed in this season."""
    revealed: tuple[Reveal, ...]
    """This season's reveals so far, in order."""
    time: int
    season_over: bool
    """The time reached the threshold: score the edicts now."""
    game_over: bool
    """Winter is over."""


@dataclass(frozen=True)
class Deal:
    """A whole game's deal."""

    setup: Setup
    edicts: dict[str, str]
    """Scoring card names under edicts A to D."""
    seasons: tuple[SeasonDeal, SeasonDeal, SeasonDeal, SeasonDeal]

    def turn_count(self) -> int:
        """Taps in the whole game."""
        return sum(len(s.turns) for s in self.seasons)

    def position(self, taps: int) -> Position:
        """The table after ``taps`` turns (0: nothing revealed yet). The season
        ends on its last turn: the next tap starts the next season."""
        if isinstance(taps, bool) or not isinstance(taps, int) or taps < 0:
            raise SetupError(_("The number of cards revealed cannot be negative."))
        left = taps
        for index, season in enumerate(self.seasons):
            count = len(season.turns)
            if left <= count:
                turns = season.turns[:left]
                over = left == count
                return Position(
                    taps=taps,
                    season_index=index,
                    turn_index=left,
                    revealed=tuple(r for t in turns for r in t.reveals),
                    time=turns[-1].time_after if turns else 0,
                    season_over=over,
                    game_over=over and index == 3,
                )
            left -= count
        raise SetupError(
            _(
                "The game is over after %(turns)d turns; there is nothing more to reveal.",
                turns=self.turn_count(),
            )
        )

    def to_json(self) -> dict[str, Any]:
        """The deal as the command line prints it with ``--json``."""
        return {
            "version": self.setup.version,
            "seed": self.setup.seed,
            "edition": self.setup.edition,
            "options": {
                "season_set": self.setup.season_set,
                "explore_set": self.setup.explore_set,
                "heroes": self.setup.heroes,
                "ambushes": list(self.setup.ambushes),
                "edicts": self.setup.edicts,
                "chosen": list(self.setup.chosen) if self.setup.chosen else None,
            },
            "edicts": {letter: self.edicts[letter] for letter in EDICT_LETTERS},
            "seasons": [
                {
                    "name": s.name,
                    "threshold": s.threshold,
                    "edicts": list(s.edicts),
                    "ambushes_added": list(s.ambushes_added),
                    "revealed": [
                        {"name": r.name, "kind": r.kind, "time": r.time, "ruins": r.ruins}
                        for t in s.turns
                        for r in t.reveals
                    ],
                    "turns": [len(t.reveals) for t in s.turns],
                    "time": s.time,
                }
                for s in self.seasons
            ],
        }


@dataclass(frozen=True)
class DeckCard:
    """A card in the explore deck: an explore, ruins, ambush or hero card."""

    name: str
    kind: str
    time: int


def explore_deck_cards(explore_set: str, ruins_always: bool) -> tuple[DeckCard, ...]:
    """The explore cards of a set; ruins cards added when ``ruins_always``."""
    cards = [
        DeckCard(e.name, "ruins" if e.is_ruins else "explore", e.time)
        for e in data.explore_cards()
        if e.game == explore_set or (ruins_always and e.is_ruins)
    ]
    return tuple(cards)


def _place_edicts(setup: Setup, rng: Pcg32) -> dict[str, str]:
    if setup.edicts == "first_game":
        names = data.first_game_edicts()["heroes"]
        return {letter: names[letter] for letter in EDICT_LETTERS}
    if setup.edicts == "chosen":
        assert setup.chosen is not None
        return dict(zip(EDICT_LETTERS, setup.chosen, strict=True))
    games = data.GAMES if setup.edition == "combined" else (setup.edition,)
    drawn = []
    for back in data.CARD_BACKS:
        stack = [s.name for s in data.scoring_card_infos() if s.back == back and s.game in games]
        drawn.append(rng.shuffle(stack)[0])
    return dict(zip(EDICT_LETTERS, rng.shuffle(drawn), strict=True))


def deal(setup: Setup) -> Deal:
    """The whole game dealt from the setup: pure and the same for ever."""
    setup.check()
    rng = Pcg32.from_text(f"referee-deal-v{setup.version}:{setup.edition}:{setup.options()}:{setup.seed}")
    edicts = _place_edicts(setup, rng)

    explore = explore_deck_cards(setup.explore_set, ruins_always=setup.edition == "combined")
    seasons_printed = data.season_cards()[setup.season_set]
    most = max(s.threshold for s in seasons_printed)
    if sum(c.time for c in explore) < most:
        raise DealError(
            _(
                "The explore cards' time values add up to %(sum)d, so a season of %(most)d could never end.",
                sum=sum(c.time for c in explore),
                most=most,
            )
        )

    ambush_deck = rng.shuffle([DeckCard(name, "ambush", 0) for name in setup.ambushes])
    hero_deck = (
        rng.shuffle([DeckCard(h.name, "hero", h.time) for h in data.hero_cards()]) if setup.heroes else []
    )
    deck = rng.shuffle(explore)

    seasons: list[SeasonDeal] = []
    for printed in seasons_printed:
        added = [ambush_deck.pop(0)]
        if setup.heroes:
            added.append(hero_deck.pop(0))
        deck = rng.shuffle(deck + added)
        start = tuple(c.name for c in deck)
        turns, revealed = reveal_season(deck, printed.threshold, printed.name)
        seasons.append(
            SeasonDeal(
                name=printed.name,
                threshold=printed.threshold,
                edicts=printed.edicts,
                turns=turns,
                time=turns[-1].time_after,
                ambushes_added=tuple(c.name for c in added),
                deck=start,
            )
        )
        # Every explore card goes back; revealed ambushes and heroes leave the game.
        deck = deck + [c for c in revealed if c.kind in ("explore", "ruins")]
    return Deal(setup, edicts, (seasons[0], seasons[1], seasons[2], seasons[3]))


def reveal_season(
    deck: list[DeckCard], threshold: int, season: str
) -> tuple[tuple[Turn, ...], list[DeckCard]]:
    """Reveal turns from the top of ``deck`` (consumed) until the season's time
    meets ``threshold``; returns the turns and the cards revealed, in order."""
    turns: list[Turn] = []
    revealed: list[DeckCard] = []
    time = 0
    ruins_waiting = False
    while time < threshold:
        reveals: list[Reveal] = []
        while True:
            if not deck:
                raise DealError(
                    _(
                        "The explore deck ran out in %(season)s at time %(time)d of %(threshold)d.",
                        season=season,
                        time=time,
                        threshold=threshold,
                    )
                )
            card = deck.pop(0)
            revealed.append(card)
            if card.kind == "ruins":
                ruins_waiting = True
                reveals.append(Reveal(card.name, card.kind, card.time, False))
                continue
            if card.kind == "explore":
                reveals.append(Reveal(card.name, card.kind, card.time, ruins_waiting))
                ruins_waiting = False
            else:
                reveals.append(Reveal(card.name, card.kind, card.time, False))
            break
        time += sum(r.time for r in reveals)
        turns.append(Turn(tuple(reveals), time))
    return tuple(turns), revealed
