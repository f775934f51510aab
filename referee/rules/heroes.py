"""Cartographers Heroes: heroes, destroyed spaces and the ambushes' ongoing effects.

Heroes and the four Heroes ambushes are what change a map after it is drawn:
a hero destroys monsters in its attack pattern, a zombie spreads, a troll and
a gorgon destroy spaces, a dragon pays coins once it is closed in. The rules
in the Heroes rulebook and the online edition's ambush texts are quoted at
each function; where a text leaves room, the reading chosen is written there.

Spaces are ``(row, col)`` cells counted from 0 at the top left; sentences
for players name them with :func:`referee.rules.geometry.where`, from 1.
A monster's spaces are known only because the player tagged them with their
ambush (:class:`MonsterTag`); the map codes alone cannot tell two monsters
apart.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from referee.rules.data import HeroCard, ambush_cards, explore_cards, hero_cards, normalise_name
from referee.rules.deck import Reveal
from referee.rules.errors import DrawingError, UnknownCardError
from referee.rules.geometry import NEIGHBOURS, SIZE, Cell, cell, index, where, where_all
from referee.rules.i18n import Name, Text, _
from referee.rules.sheet import MapSheet
from referee.rules.terrain import DESTROYED, EMPTY, HERO, LABELS, MONSTER, MOUNTAIN, WASTELAND

DRAGON_INFERNO = "Dragon Inferno"
ZOMBIE_PLAGUE = "Zombie Plague"
GIANT_TROLL_RAVAGE = "Giant Troll Ravage"
GORGON_GAZE = "Gorgon Gaze"

#: "When all spaces of the Dragon are surrounded or destroyed, gain 3 coins."
DRAGON_COINS = 3


# --- heroes ---------------------------------------------------------------


class Orientation(Enum):
    """How a hero card's attack pattern is turned before it is marked.

    The rulebook only says to mark "the depicted attack pattern, relative to
    the hero space"; whether the pattern may be rotated or flipped like an
    explore shape is not confirmed, so the printed orientation is the default
    and the other seven are offered for tables that allow them. Rotations are
    clockwise about the hero space; "flipped" mirrors left and right first.
    """

    PRINTED = "printed"
    ROTATED_90 = "rotated 90"
    ROTATED_180 = "rotated 180"
    ROTATED_270 = "rotated 270"
    FLIPPED = "flipped"
    FLIPPED_90 = "flipped, rotated 90"
    FLIPPED_180 = "flipped, rotated 180"
    FLIPPED_270 = "flipped, rotated 270"

    def turn(self, offset: Cell) -> Cell:
        """An offset ``(drow, dcol)`` from the hero space, turned this way."""
        flipped, quarters = _TURNS[self]
        dr, dc = offset
        if flipped:
            dc = -dc
        for _turn in range(quarters):
            dr, dc = dc, -dr  # a quarter turn clockwise: right becomes down
        return dr, dc


#: Each orientation as (mirrored left-right first, clockwise quarter turns).
_TURNS: dict[Orientation, tuple[bool, int]] = {
    Orientation.PRINTED: (False, 0),
    Orientation.ROTATED_90: (False, 1),
    Orientation.ROTATED_180: (False, 2),
    Orientation.ROTATED_270: (False, 3),
    Orientation.FLIPPED: (True, 0),
    Orientation.FLIPPED_90: (True, 1),
    Orientation.FLIPPED_180: (True, 2),
    Orientation.FLIPPED_270: (True, 3),
}


def most_hero_spaces() -> int:
    """The most hero spaces a map can hold in a whole game: one per hero
    card, since "when a hero card is revealed, each player draws a 1x1
    square" and then "discard the hero card and return it to the game box";
    the box has "4 hero cards"."""
    return len(hero_cards())


def draws_monsters(card: Reveal) -> bool:
    """Whether a revealed card has a player draw monster spaces: an ambush,
    or an explore card whose terrains include monster (Rift Lands, Kethra's
    Gates), where the player may choose them."""
    if card.kind == "ambush":
        return True
    return card.kind == "explore" and MONSTER in {c.name: c for c in explore_cards()}[card.name].terrains


def most_monster_spaces(revealed: Iterable[Reveal]) -> int | None:
    """The most monster spaces a map can hold after the cards ``revealed``,
    or None when no number bounds them.

    For an ambush, "that player draws the depicted monster shape on your
    map. If the shape cannot be legally drawn, they draw a 1x1 monster square
    instead ... Discard the ambush card": its shape's spaces at most. An
    explore card whose terrains include monster (Rift Lands, Kethra's Gates)
    adds its largest shape. Only the Zombie Plague adds more, since its
    zombies spread to the spaces around them season after season, so once it
    is revealed there is no bound."""
    ambushes = {a.name: a for a in ambush_cards()}
    explore = {c.name: c for c in explore_cards()}
    most = 0
    for card in revealed:
        if card.kind == "ambush":
            if card.name == ZOMBIE_PLAGUE:
                return None
            most += ambushes[card.name].shape.size
        elif card.kind == "explore" and MONSTER in explore[card.name].terrains:
            most += max(shape.size for shape in explore[card.name].shapes)
    return most


def _on_map(at: Cell) -> bool:
    return 0 <= at[0] < SIZE and 0 <= at[1] < SIZE


def _index(at: Cell) -> int:
    """The index of a space, refused with a sentence when it is off the map."""
    row, col = at
    if not _on_map(at):
        raise DrawingError(
            _(
                "%(space)s is off the map; rows and columns run from 1 to %(size)d",
                space=where(row, col),
                size=SIZE,
            )
        )
    return index(row, col)


def attacked_spaces(
    hero_at: Cell, hero: HeroCard, orientation: Orientation = Orientation.PRINTED
) -> set[Cell]:
    """The spaces a hero attacks: "each player then marks spaces in the
    depicted attack pattern, relative to the hero space. Attack patterns can
    overlap filled spaces and the edge of the map." The part of the pattern
    beyond the edge attacks nothing and is left out; the hero's own space is
    not part of its pattern."""
    _index(hero_at)
    out = set()
    for offset in hero.attack:
        dr, dc = orientation.turn(offset)
        target = (hero_at[0] + dr, hero_at[1] + dc)
        if _on_map(target):
            out.add(target)
    return out


def _destroy_monsters(sheet: MapSheet, spaces: Iterable[Cell]) -> tuple[MapSheet, set[Cell]]:
    destroyed = {at for at in spaces if _on_map(at) and sheet.at(*at) == MONSTER}
    if not destroyed:
        return sheet, destroyed
    return sheet.with_codes({index(*at): DESTROYED for at in destroyed}), destroyed


def place_hero(
    sheet: MapSheet,
    at: Cell,
    hero: HeroCard,
    orientation: Orientation = Orientation.PRINTED,
) -> tuple[MapSheet, set[Cell]]:
    """Draw a hero and let it attack: "each player draws a 1x1 square anywhere
    on their map, then fills it with the hero terrain type ... When a hero is
    drawn, all monster spaces within the hero's attack pattern are immediately
    destroyed."

    The hero space must be empty (an empty ruins space is fine, as for any
    drawing). Returns the new map and the monster spaces destroyed."""
    i = _index(at)
    code = sheet.codes[i]
    if code != EMPTY:
        raise DrawingError(
            _(
                "%(space)s holds %(terrain)s; a hero is drawn on an empty space",
                space=where(*at),
                terrain=LABELS[code],
            )
        )
    drawn = sheet.with_codes({i: HERO})
    return _destroy_monsters(drawn, attacked_spaces(at, hero, orientation))


def apply_standing_attacks(
    sheet: MapSheet, patterns: Iterable[Collection[Cell]]
) -> tuple[MapSheet, set[Cell]]:
    """Destroy every monster inside an attack pattern: "for the rest of the
    game, all monster spaces drawn within any hero's attack pattern are
    destroyed." The patterns are those of every hero drawn so far, whatever
    is on the hero space now: "if a hero space is destroyed, that hero's
    attack pattern remains active."

    Returns the new map and the monster spaces destroyed (none when the map
    already obeys every pattern)."""
    spaces: set[Cell] = set()
    for pattern in patterns:
        spaces.update(pattern)
    return _destroy_monsters(sheet, spaces)


# --- monsters and their tags --------------------------------------------


@dataclass(frozen=True)
class MonsterTag:
    """The spaces of one ambush's monster on one map, as the player tagged
    them when drawing it ("writes the initial of the monster")."""

    ambush: str
    """The ambush card's name, e.g. 'Zombie Plague'."""
    spaces: frozenset[Cell]
    """Every space drawn for this monster, destroyed ones included."""


def _check_tag(sheet: MapSheet, name: str, spaces: Collection[Cell]) -> None:
    for at in spaces:
        code = sheet.codes[_index(at)]
        if code not in (MONSTER, DESTROYED):
            raise DrawingError(
                _(
                    "%(space)s is tagged as the %(ambush)s but holds %(terrain)s, not a monster",
                    space=where(*at),
                    ambush=Name("ambush", name),
                    terrain=LABELS[code],
                )
            )


def _living(sheet: MapSheet, name: str, spaces: Collection[Cell]) -> set[Cell]:
    """The tagged spaces still holding a monster: a destroyed space "has no
    terrain type", so the monster is gone from it."""
    _check_tag(sheet, name, spaces)
    return {at for at in spaces if sheet.at(*at) == MONSTER}


def _adjacent(spaces: Iterable[Cell]) -> set[Cell]:
    """The spaces adjacent to a group, the group itself left out."""
    group = {index(*at) for at in spaces}
    return {cell(n) for i in group for n in NEIGHBOURS[i] if n not in group}


def _names(spaces: Iterable[Cell]) -> Text:
    return where_all(spaces)


def destroy(sheet: MapSheet, at: Cell, allowed: Collection[Cell] | None = None) -> MapSheet:
    """Destroy one space: "draw a large X over the space. Destroyed spaces
    count as filled spaces, but have no terrain type."

    A space already destroyed cannot be destroyed again, and printed mountains
    and wastelands stay as printed. ``allowed``, when given, is the set the
    effect lets the player choose from (see :func:`troll_targets` and
    :func:`gorgon_targets`); a choice outside it is refused with the list."""
    i = _index(at)
    code = sheet.codes[i]
    if allowed is not None and at not in allowed:
        if not allowed:
            raise DrawingError(
                _("%(space)s cannot be destroyed: there is no space to destroy", space=where(*at))
            )
        raise DrawingError(
            _(
                "%(space)s cannot be destroyed; choose one of: %(allowed)s",
                space=where(*at),
                allowed=_names(allowed),
            )
        )
    if code == DESTROYED:
        raise DrawingError(_("%(space)s is already destroyed", space=where(*at)))
    if code in (MOUNTAIN, WASTELAND):
        raise DrawingError(
            _(
                "%(space)s is a printed %(terrain)s and cannot be destroyed",
                space=where(*at),
                terrain=LABELS[code],
            )
        )
    return sheet.with_codes({i: DESTROYED})


# --- the four Heroes ambushes -------------------------------------------


def zombie_spread(sheet: MapSheet, zombies: Collection[Cell]) -> set[Cell]:
    """Zombie Plague: "after scoring each season, draw a Zombie in each empty
    space adjacent to a Zombie."

    Reading: only zombie spaces that are not destroyed spread (a destroyed
    space has no terrain type, so no zombie is there any more), and the
    spread is computed once, from the zombies before this spread: a new
    zombie does not spread again in the same season."""
    living = _living(sheet, ZOMBIE_PLAGUE, zombies)
    return {at for at in _adjacent(living) if sheet.at(*at) == EMPTY}


def spread_zombies(sheet: MapSheet, zombies: Collection[Cell]) -> tuple[MapSheet, frozenset[Cell]]:
    """Draw the Zombie Plague's spread: a monster on every space of
    :func:`zombie_spread`. Returns the new map and the zombie's spaces with
    the new ones tagged."""
    spread = zombie_spread(sheet, zombies)
    new = sheet.with_codes({index(*at): MONSTER for at in spread})
    return new, frozenset(zombies) | frozenset(spread)


def troll_targets(sheet: MapSheet, troll: Collection[Cell]) -> set[Cell]:
    """Giant Troll Ravage: "after scoring each season, destroy an empty space
    adjacent to the Giant Troll." The player picks one of these; when the set
    is empty there is nothing to destroy.

    Reading: as with the zombies, the troll is where its spaces are not
    destroyed; a troll whose every space is destroyed ravages nothing."""
    living = _living(sheet, GIANT_TROLL_RAVAGE, troll)
    return {at for at in _adjacent(living) if sheet.at(*at) == EMPTY}


def ravage(sheet: MapSheet, troll: Collection[Cell], at: Cell) -> MapSheet:
    """Destroy the empty space the player chose next to the Giant Troll."""
    return destroy(sheet, at, troll_targets(sheet, troll))


def gorgon_targets(sheet: MapSheet, gorgon: Collection[Cell]) -> set[Cell]:
    """Gorgon Gaze: "after drawing the Gorgon, destroy an adjacent
    non-mountain space." The player picks one of these.

    Reading: every space adjacent to a space of the Gorgon, filled or empty,
    other than a mountain. The gaze happens as the Gorgon is drawn, so all of
    its drawn spaces count even if a hero's pattern destroys them at once.
    Left out, because destroying them would change nothing: spaces already
    destroyed, and printed wastelands (already filled, with no terrain type,
    and never drawn over). The Gorgon's own spaces are not adjacent to it."""
    _check_tag(sheet, GORGON_GAZE, gorgon)
    return {at for at in _adjacent(gorgon) if sheet.at(*at) not in (MOUNTAIN, WASTELAND, DESTROYED)}


def gorgon_already_destroyed(sheet: MapSheet, gorgon: Collection[Cell]) -> set[Cell]:
    """The destroyed spaces next to the Gorgon: where its gaze may already
    be drawn. The gaze comes "immediately after drawing the Gorgon", so a
    sheet recorded at the season's end may already show it, and the player
    then says which of these it was rather than destroying another space."""
    _check_tag(sheet, GORGON_GAZE, gorgon)
    return {at for at in _adjacent(gorgon) if sheet.at(*at) == DESTROYED}


def gorgon_gaze(sheet: MapSheet, gorgon: Collection[Cell], at: Cell) -> MapSheet:
    """Destroy the space the player chose next to the Gorgon."""
    return destroy(sheet, at, gorgon_targets(sheet, gorgon))


def dragon_coins_due(sheet: MapSheet, dragon: Collection[Cell]) -> bool:
    """Dragon Inferno: "when all spaces of the Dragon are surrounded or
    destroyed, gain 3 coins."

    A Dragon space is surrounded when no space adjacent to it is empty (the
    edge of the map and other Dragon spaces close it in as well as any filled
    space), and every Dragon space must be one or the other. The coins are
    gained once; remembering that they were is the caller's part."""
    _check_tag(sheet, DRAGON_INFERNO, dragon)
    if not dragon:
        return False
    codes = sheet.codes
    for at in dragon:
        i = index(*at)
        if codes[i] == DESTROYED:
            continue
        if any(codes[n] == EMPTY for n in NEIGHBOURS[i]):
            return False
    return True


# --- after scoring --------------------------------------------------------


@dataclass(frozen=True)
class EffectOutcome:
    """What one ongoing effect did to the map after a season's scoring."""

    ambush: str
    sentence: Text
    drawn: frozenset[Cell] = frozenset()
    """Monster spaces drawn (the zombies' spread)."""
    destroyed: frozenset[Cell] = frozenset()
    """Spaces destroyed by the effect or, right after it, by a hero's pattern."""
    coins: int = 0


@dataclass(frozen=True)
class AfterScoring:
    """The map after every ongoing effect has resolved."""

    sheet: MapSheet
    monsters: tuple[MonsterTag, ...]
    """The tags in reveal order, the zombies' new spaces added."""
    outcomes: tuple[EffectOutcome, ...] = field(default_factory=tuple)
    coins: int = 0
    """Coins gained (the Dragon's 3 at most); the coin track still caps them."""

    @property
    def dragon_paid(self) -> bool:
        return any(o.ambush == DRAGON_INFERNO and o.coins for o in self.outcomes)


def _canonical(name: str) -> str:
    """The printed name of an ambush card, refused when no card has it."""
    for card in ambush_cards():
        if normalise_name(name) == normalise_name(card.name):
            return card.name
    raise UnknownCardError(_("there is no ambush card called '%(name)s'", name=name))


def resolve_after_scoring(
    sheet: MapSheet,
    effects_in_reveal_order: Sequence[MonsterTag],
    choices: Mapping[str, Cell] | None = None,
    *,
    patterns: Iterable[Collection[Cell]] = (),
    dragon_paid: bool = False,
) -> AfterScoring:
    """Resolve the ongoing effects at the end of a season: "some ambush cards
    have ongoing effects that resolve after scoring each season ... If there
    are multiple ambush cards with these effects, resolve them one at a time
    in the order that the ambush cards were revealed."

    Zombie Plague spreads and Giant Troll Ravage destroys the space named in
    ``choices`` (by ambush name); a troll with an empty space beside it and
    no valid choice is refused with the spaces to choose from. After each
    effect the heroes' ``patterns`` destroy any monster drawn inside them.
    Gorgon Gaze acts when drawn, and ambushes without an ongoing effect do
    nothing here. Dragon Inferno is a condition, not an action: it is checked
    once every other effect has resolved, and pays 3 coins unless
    ``dragon_paid`` says it already did (check it before scoring as well,
    with :func:`dragon_coins_due`, so coins gained during a season count in
    that season)."""
    choices = {_canonical(k): v for k, v in (choices or {}).items()}
    patterns = [frozenset(p) for p in patterns]
    tags = [MonsterTag(_canonical(t.ambush), frozenset(t.spaces)) for t in effects_in_reveal_order]
    outcomes: list[EffectOutcome] = []
    for n, tag in enumerate(tags):
        if tag.ambush == ZOMBIE_PLAGUE:
            sheet, spaces = spread_zombies(sheet, tag.spaces)
            drawn = spaces - tag.spaces
            tags[n] = MonsterTag(tag.ambush, spaces)
            sheet, killed = apply_standing_attacks(sheet, patterns)
            if drawn and killed:
                sentence = _(
                    "The zombies spread to %(spaces)s. Heroes destroyed the zombies at %(killed)s.",
                    spaces=_names(drawn),
                    killed=_names(killed),
                )
            elif drawn:
                sentence = _("The zombies spread to %(spaces)s.", spaces=_names(drawn))
            else:
                sentence = _("The zombies have no empty space next to them to spread to.")
            outcomes.append(EffectOutcome(tag.ambush, sentence, frozenset(drawn), frozenset(killed)))
        elif tag.ambush == GIANT_TROLL_RAVAGE:
            targets = troll_targets(sheet, tag.spaces)
            if not targets:
                outcomes.append(
                    EffectOutcome(tag.ambush, _("The Giant Troll has no empty space next to it to destroy."))
                )
                continue
            choice = choices.get(tag.ambush)
            if choice is None:
                raise DrawingError(
                    _(
                        "choose which empty space next to the Giant Troll is destroyed: %(spaces)s",
                        spaces=_names(targets),
                    )
                )
            sheet = destroy(sheet, choice, targets)
            outcomes.append(
                EffectOutcome(
                    tag.ambush,
                    _("The Giant Troll destroyed %(space)s.", space=where(*choice)),
                    destroyed=frozenset({choice}),
                )
            )
    for tag in tags:
        if tag.ambush == DRAGON_INFERNO and not dragon_paid and dragon_coins_due(sheet, tag.spaces):
            dragon_paid = True
            outcomes.append(
                EffectOutcome(
                    tag.ambush,
                    _(
                        "Every space of the Dragon is surrounded or destroyed: gain %(coins)d coins.",
                        coins=DRAGON_COINS,
                    ),
                    coins=DRAGON_COINS,
                )
            )
    coins = sum(o.coins for o in outcomes)
    return AfterScoring(sheet, tuple(tags), tuple(outcomes), coins)
