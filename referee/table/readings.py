"""What a photo's reading means at a table: which card drew what it shows.

A photo shows terrain, not the cards behind it, and the table acts by the
cards: the Heroes ambushes by their tagged monsters (the Gorgon's gaze, the
Dragon's coins, the zombies' spread, the troll's ravage), a hero by its
card's attack pattern. Where the cards revealed leave one answer, the
reading takes it, as a player tapping with the Monster or Hero brush would
by default; where they leave more, the player says, square by square.

A hero drawn in an earlier season stays on the map for the rest of the
game: where the photo reads its space as anything else, the reading keeps
the hero, with its card, and says so (``keep_earlier_heroes``).

A coin track the photo does not read starts from the coins the map and the
sheets saved before show (``unread_coins``); a coin drawn with a shape shows
on the paper alone, and the player adds it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from referee.rules import heroes, season, shapes, terrain
from referee.rules.geometry import SIZE, Cell, where_all
from referee.rules.i18n import Name, Text, _, join, ngettext
from referee.rules.sheet import MapSheet
from referee.store.sheets import SeasonSheet
from referee.table import ambushes
from referee.table.deal import ambush_cards, explore_cards
from referee.table.records import patterns_of, tags_of
from referee.table.state import Table


@dataclass(frozen=True)
class ReadMonsters:
    """Which ambush drew each monster space a photo reads (``read_monsters``)."""

    groups: list[dict[str, Any]]
    """Monster tags as a sheet stores them: the saved sheet's, then the new ones'."""
    untagged: list[int]
    """New monster spaces (row * 11 + column) no one ambush can claim, in a
    game whose ambushes act: the player says which drew each."""


def read_monsters(
    table: Table, sheet: SeasonSheet, codes: str, earlier: Iterable[dict[str, Any]] = ()
) -> ReadMonsters:
    """Tag the monster spaces a photo reads (``codes``, 121 map codes) that
    the saved sheet does not hold: a photo shows monsters, not which card
    drew them, and the Heroes ambushes act by their monsters (the Gorgon's
    gaze, the Dragon's coins, the zombies' spread, the troll's ravage).

    Each season "take the top card of the ambush deck ... then shuffle" it
    into the explore deck, and one not revealed stays there, "so it is
    possible to have multiple ambush cards" in a season: the new monsters of
    a season were drawn by the ambushes revealed in it whose monsters the
    saved sheet does not hold yet, or by an explore card that offers monster
    terrain (Rift Lands, Kethra's Gates: one space each). Each ambush's
    neighbour "draws the depicted monster shape ... and writes the initial
    of the monster", or, where it cannot be drawn, "a 1x1 square ... but do
    not write the initial".

    A hero may have destroyed part of a monster since: "all monster spaces
    within the hero's attack pattern are immediately destroyed", and then
    "all monster spaces drawn within any hero's attack pattern are
    destroyed". A destroyed space inside the pattern of a hero the photo
    shows (``read_heroes``, with the heroes drawn in ``earlier`` seasons)
    may be such a monster's, and a tag covers
    "every space drawn for this monster, destroyed ones included"
    (``heroes.MonsterTag``), as the editor's brushes tag it: the Monster
    brush tags a space whatever a hero does to it after.

    So where the new monsters, with such destroyed spaces, hold each such
    ambush's shape (turned or flipped) in exactly one way, the rest no more
    than those explore cards give, each ambush drew its shape there: those
    spaces are tagged with it, as the Monster brush would by default, and
    the rest are the explore cards' and carry no tag. A destroyed space is
    taken for a monster only where the monsters read need it: the ways
    that take the fewest are the answers. Otherwise which drew which is the player's to
    say (a misreading, a 1x1 drawn for a shape that did not fit, or spaces
    that more than one card could have drawn): where one of those ambushes
    acts by its monsters (``ambushes.acting_ambushes``), the new spaces are
    outlined for the Monster brush; elsewhere a tag changes no score, and
    they stay untagged."""
    saved = sheet.map_text.replace("\n", "")
    tags = tags_of(sheet)
    tagged = {r * SIZE + c for t in tags for r, c in t.spaces}
    new = [
        i
        for i, code in enumerate(codes)
        if code == terrain.MONSTER and saved[i] != terrain.MONSTER and i not in tagged
    ]
    groups = [dict(m) for m in sheet.monsters or []]
    if not new:
        return ReadMonsters(groups, [])
    on_map = {t.ambush for t in tags}
    drew = [
        card
        for card in table.revealed(sheet.season)
        if heroes.draws_monsters(card) and not (card.kind == "ambush" and card.name in on_map)
    ]
    ambush_names = [card.name for card in drew if card.kind == "ambush"]
    spare = heroes.most_monster_spaces(card for card in drew if card.kind == "explore") or 0
    spaces = frozenset(divmod(i, SIZE) for i in new)
    destroyed = _destroyed_by_heroes(table, sheet, codes, tagged, earlier)
    cards = ambush_cards()
    found = _explanations(
        [(name, shapes.placements(cards[name].shape.cells, spaces | destroyed)) for name in ambush_names],
        spaces,
        destroyed,
        spare,
    )
    if len(found) == 1:
        drawn = [{"ambush": name, "spaces": sorted([r, c] for r, c in at)} for name, at in found[0].items()]
        return ReadMonsters(groups + drawn, [])
    acting = ambushes.acting_ambushes(sheet.season)
    asks = any(name in acting for name in ambush_names)
    return ReadMonsters(groups, new if asks else [])


def _destroyed_by_heroes(
    table: Table, sheet: SeasonSheet, codes: str, tagged: set[int], earlier: Iterable[dict[str, Any]]
) -> frozenset[Cell]:
    """The destroyed spaces in ``codes`` inside the attack pattern of a hero
    the photo shows with its card, that no tag holds: a monster drawn there
    was destroyed by the hero, so each may be part of a monster. A hero's
    own space is not: it held the hero."""
    drawn = read_heroes(table, sheet, codes, earlier)
    found = drawn.kept + drawn.named
    heroes_at = {(h["at"][0], h["at"][1]) for h in found}
    attacked = set().union(*patterns_of(found))
    return frozenset(
        (r, c)
        for r, c in attacked - heroes_at
        if codes[r * SIZE + c] == terrain.DESTROYED and r * SIZE + c not in tagged
    )


def _explanations(
    ambushes_placed: list[tuple[str, list[shapes.Placement]]],
    monsters: frozenset[Cell],
    destroyed: frozenset[Cell],
    spare: int,
    limit: int = 2,
) -> list[dict[str, shapes.Placement]]:
    """Up to ``limit`` ways the ``monsters``, with some of the ``destroyed``
    spaces, hold one placement of each ambush's shape, none sharing a space,
    with at most ``spare`` monsters left over: one way is an answer, two are
    a choice. Of the ways, those that take the fewest destroyed spaces for
    monsters: a destroyed space is a monster's only where the monsters read
    need it."""
    found: list[dict[str, shapes.Placement]] = []
    fewest = len(destroyed) + 1

    def place(
        k: int, left: frozenset[Cell], free: frozenset[Cell], chosen: dict[str, shapes.Placement]
    ) -> None:
        nonlocal found, fewest
        taken = len(destroyed) - len(free)
        if taken > fewest or (taken == fewest and len(found) >= limit):
            return
        if k == len(ambushes_placed):
            if len(left) <= spare:
                if taken < fewest:
                    found, fewest = [], taken
                found.append(dict(chosen))
            return
        name, options = ambushes_placed[k]
        for at in options:
            if at <= left | free:
                place(k + 1, left - at, free - at, {**chosen, name: at})

    place(0, monsters, destroyed, {})
    return found


@dataclass(frozen=True)
class ReadHeroes:
    """Which hero card each hero space a photo reads is (``read_heroes``)."""

    kept: list[dict[str, Any]]
    """The saved sheet's heroes, and those drawn in earlier seasons, whose
    space still reads as the hero (or destroyed): they keep their card and pattern."""
    named: list[dict[str, Any]]
    """A new hero space named after the one hero card it can be, as stored."""
    unnamed: list[int]
    """New hero spaces (row * 11 + column) whose card the player names."""


def read_heroes(
    table: Table, sheet: SeasonSheet, codes: str, earlier: Iterable[dict[str, Any]] = ()
) -> ReadHeroes:
    """Name the hero spaces a photo reads (``codes``, 121 map codes).

    The saved sheet's heroes, and those drawn in ``earlier`` seasons (as
    ``earlier_heroes`` keeps them), whose space reads as a hero or destroyed
    keep their card. Each revealed hero is drawn once by every player, and each season
    "take the top card of the ... hero deck" into the explore deck: the
    hero cards out by this season that the map does not hold are the cards
    its new hero spaces can be. One new space and one such card: it is that
    hero, its pattern as printed (``heroes.Orientation``'s default; a turned
    one is the player's to set). Otherwise the player names each."""
    kept = [h for h in sheet.heroes or [] if codes[h["at"][0] * SIZE + h["at"][1]] in "HX"]
    cards = {h["hero"] for h in kept}
    kept += [
        h
        for h in earlier_heroes(sheet, earlier)
        if h["hero"] not in cards and codes[h["at"][0] * SIZE + h["at"][1]] in "HX"
    ]
    at = {h["at"][0] * SIZE + h["at"][1] for h in kept}
    new = [i for i, code in enumerate(codes) if code == terrain.HERO and i not in at]
    held = {h["hero"] for h in kept}
    free = [name for name in table.heroes_named(sheet.season) if name not in held]
    if len(new) == 1 and len(free) == 1:
        r, c = divmod(new[0], SIZE)
        named = [{"hero": free[0], "at": [r, c], "orientation": heroes.Orientation.PRINTED.value}]
        return ReadHeroes(kept, named, [])
    return ReadHeroes(kept, [], new)


def earlier_heroes(sheet: SeasonSheet, earlier: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The heroes drawn in earlier seasons (``earlier``, as
    ``records.heroes_before`` gives them) that are on the map still: a
    filled space never changes, and a hero's attack destroys monster
    spaces, not heroes. As the saved sheet holds each, unless the player
    put it right this season: a hero card the sheet holds at another space,
    or another hero card at its space, is theirs to say."""
    saved = sheet.heroes or []
    by_card = {h["hero"]: h for h in saved}
    by_space = {(h["at"][0], h["at"][1]): h for h in saved}
    out = []
    for h in earlier:
        now = by_card.get(h["hero"], h)
        there = by_space.get((h["at"][0], h["at"][1]))
        if now["at"] == h["at"] and (there is None or there["hero"] == h["hero"]):
            out.append(now)
    return out


@dataclass(frozen=True)
class KeptHero:
    """A hero drawn in an earlier season whose space a photo reads as
    something else (``keep_earlier_heroes``)."""

    hero: dict[str, Any]
    """The hero as stored: its card, its space and its pattern."""
    read: str
    """The map code the photo read at its space."""

    @property
    def index(self) -> int:
        """Its space, as row * 11 + column."""
        return int(self.hero["at"][0]) * SIZE + int(self.hero["at"][1])

    def sentence(self) -> Text:
        """What the note over the reading says of it."""
        return _(
            "The square at row %(row)d, column %(col)d is %(hero)s's hero space from an earlier season, "
            "which stays on the map; the photo read “%(terrain)s” there.",
            row=self.hero["at"][0] + 1,
            col=self.hero["at"][1] + 1,
            hero=Name("hero", self.hero["hero"]),
            terrain=terrain.LABELS[self.read],
        )


@dataclass(frozen=True)
class KeptHeroes:
    """A photo's reading with the heroes of earlier seasons kept (``keep_earlier_heroes``)."""

    codes: str
    """The 121 map codes read, each such hero's space back as the saved map holds it."""
    heroes: list[KeptHero]
    """The heroes whose space the photo read as something else."""


def keep_earlier_heroes(sheet: SeasonSheet, earlier: Iterable[dict[str, Any]], codes: str) -> KeptHeroes:
    """The photo's ``codes`` with the heroes drawn in earlier seasons kept.

    A hero drawn stays on the map for the rest of the game: a filled space
    never changes, and a hero's attack destroys monster spaces, not heroes.
    Where the photo reads such a hero's space (``earlier_heroes``) as
    anything but the hero or destroyed ("if a hero space is destroyed, that
    hero's attack pattern remains active"), the photo is wrong: the space
    holds what the saved map holds there, the hero or destroyed, and the
    hero keeps its card."""
    saved = sheet.map_text.replace("\n", "")
    out = list(codes)
    kept = []
    for h in earlier_heroes(sheet, earlier):
        hero = KeptHero(h, codes[int(h["at"][0]) * SIZE + int(h["at"][1])])
        if hero.read in (terrain.HERO, terrain.DESTROYED):
            continue
        kept.append(hero)
        out[hero.index] = saved[hero.index] if saved[hero.index] == terrain.DESTROYED else terrain.HERO
    return KeptHeroes("".join(out), kept)


@dataclass(frozen=True)
class UnreadCoins:
    """Where the coins of a sheet start when its photo's coin track could not
    be read (``unread_coins``): what the referee knows of this season's
    coins, and what only the paper sheet shows.

    The rules fill a coin in two ways: "if a player surrounds a mountain
    space ... they fill in the next coin symbol", which the map shows, and
    "if a player chooses a shape with a coin", which it does not (the
    shape drawn covers the same spaces with or without its coin). Dragon
    Inferno fills three more, which the map shows too: "when all spaces of
    the Dragon are surrounded or destroyed, gain 3 coins"."""

    carried: int
    """The coins the sheet held when the season began: the season before's."""
    mountains: list[Cell]
    """The mountains the map read surrounds that were not surrounded when
    the season began: each filled a coin this season."""
    offered: list[str]
    """The explore cards revealed this season that offer a shape with a
    coin: whether the player chose it, only the sheet says."""
    track: int
    """The coin symbols the track prints: "if a player fills in all coin
    symbols ... they ignore any additional coins"."""
    first_season: bool
    """Spring: no season before carried any coin."""
    dragon: int = 0
    """The Dragon's coins, when the map read closes it in and it has not
    paid them before (a play-test's player, told the count without them,
    saved it, and the Dragon's coins were lost)."""

    @property
    def coins(self) -> int:
        """The count the track starts at: every coin the referee can know of."""
        return min(self.track, self.carried + len(self.mountains) + self.dragon)

    def sentences(self) -> list[Text]:
        """What the count holds, and what the player adds to it."""
        m = len(self.mountains)
        places = where_all(self.mountains)
        if self.first_season and not m and not self.dragon:
            said = [
                _(
                    "The coin track could not be read, and your map surrounds no mountain: "
                    "the count below is 0."
                )
            ]
        elif self.first_season and not m:
            said = [_("The coin track could not be read, and your map surrounds no mountain.")]
        elif self.first_season:
            said = [
                ngettext(
                    "The coin track could not be read: the count below is 1, for the mountain your map "
                    "surrounds (%(places)s).",
                    "The coin track could not be read: the count below is %(num)d, one for each mountain "
                    "your map surrounds (%(places)s).",
                    m,
                    places=places,
                )
            ]
        elif not m:
            said = [
                ngettext(
                    "The coin track could not be read: the count below is the %(num)d coin carried from "
                    "the season before; no mountain was surrounded this season.",
                    "The coin track could not be read: the count below is the %(num)d coins carried from "
                    "the season before; no mountain was surrounded this season.",
                    self.carried,
                )
            ]
        else:
            said = [
                ngettext(
                    "The coin track could not be read: the count below is the %(carried)s carried from the "
                    "season before, plus 1 for the mountain surrounded this season (%(places)s).",
                    "The coin track could not be read: the count below is the %(carried)s carried from the "
                    "season before, plus %(num)d for the mountains surrounded this season (%(places)s).",
                    m,
                    carried=ngettext("%(num)d coin", "%(num)d coins", self.carried),
                    places=places,
                )
            ]
        if self.dragon:
            said.append(
                _(
                    "The count below holds the %(gain)d coins of the Dragon too: every space of it is "
                    "surrounded or destroyed on the map read.",
                    gain=self.dragon,
                )
            )
        if self.carried + m + self.dragon >= self.track:
            return [*said, _("That fills your coin track.")]
        if self.offered:
            cards = join([Name("explore", name) for name in self.offered])
            said.append(
                ngettext(
                    "If you chose the shape with a coin on %(cards)s this season, add 1.",
                    "Add 1 for each shape with a coin you chose this season, on %(cards)s.",
                    len(self.offered),
                    cards=cards,
                )
            )
        else:
            said.append(_("No explore card this season offered a shape with a coin."))
        return said


def unread_coins(
    table: Table,
    sheet: SeasonSheet,
    codes: str,
    known: Collection[Cell],
    monsters: Iterable[dict[str, Any]] = (),
) -> UnreadCoins:
    """Where the coin track starts when a photo's (``codes``, 121 map codes)
    could not be read: the coins the sheet carried into the season, one
    for each mountain the map surrounds that was not surrounded when the
    season began (``known``, as ``records.known_mountains`` gives them),
    and the Dragon's, when the map closes in a Dragon tagged in
    ``monsters`` (as ``ReadMonsters.groups``) that has not paid them yet,
    as far as the track goes. The explore cards revealed this season that
    offer a shape with a coin are named for the player to add its coin."""
    themap = MapSheet(table.side, codes)
    mountains = season.newly_surrounded(themap, known)
    dragons = [
        [(r, c) for r, c in tag["spaces"]] for tag in monsters if tag["ambush"] == heroes.DRAGON_INFERNO
    ]
    closed = any(
        all(codes[r * SIZE + c] in (terrain.MONSTER, terrain.DESTROYED) for r, c in spaces)
        and heroes.dragon_coins_due(themap, spaces)
        for spaces in dragons
    )
    cards = explore_cards()
    offered = [
        r.name
        for r in table.revealed(sheet.season)
        if r.kind == "explore" and any(shape.coin for shape in cards[r.name].shapes)
    ]
    return UnreadCoins(
        sheet.coins,
        mountains,
        list(dict.fromkeys(offered)),
        table.side.coin_track,
        sheet.season == 0,
        heroes.DRAGON_COINS if closed and not (sheet.effects or {}).get("dragon_paid") else 0,
    )


def limits_said(table: Table, s: int, limited: Iterable[tuple[int, int, str]]) -> list[Text]:
    """Why the reading shows something else at each square whose code the
    game's limits chose (``SheetReading.limited``: row, column, and the code
    the reader saw there), a sentence per code seen.

    The reader keeps to what the table's cards allow: no hero space in a
    game without hero cards, no destroyed space where nothing destroys, no
    more hero spaces than hero cards revealed ("when a hero card is
    revealed, each player draws a 1x1 square anywhere on their map"), no
    more monster spaces than the ambushes and explore cards revealed by
    season ``s``'s end can draw. A square past those shows its second
    guess, outlined. The sentence says which rule chose it: a player whose
    drawn monster shows as a village learns why, and that the cards
    revealed on the dealer decide it (a dealer behind the table's play
    allows too few)."""
    seen: dict[str, list[Cell]] = {}
    for r, c, code in limited:
        seen.setdefault(code, []).append((r, c))
    said = []
    for code, spaces in seen.items():
        words = {"terrain": terrain.LABELS[code], "reason": _limit(table, s, code)}
        if len(spaces) > PLACES_SAID:  # outlined on the map: a long list of places only hides the reason
            said.append(
                ngettext(
                    "The photo read %(num)d square as “%(terrain)s”, but %(reason)s: "
                    "it shows the reader's second guess, outlined.",
                    "The photo read %(num)d squares as “%(terrain)s”, but %(reason)s: "
                    "they show the reader's second guesses, outlined.",
                    len(spaces),
                    **words,
                )
            )
        else:
            said.append(
                ngettext(
                    "The photo read %(num)d square as “%(terrain)s” (%(places)s), but %(reason)s: "
                    "it shows the reader's second guess, outlined.",
                    "The photo read %(num)d squares as “%(terrain)s” (%(places)s), but %(reason)s: "
                    "they show the reader's second guesses, outlined.",
                    len(spaces),
                    places=where_all(spaces),
                    **words,
                )
            )
    return said


PLACES_SAID = 3
"""Most squares of one code whose places ``limits_said`` names; beyond, the
outlines on the map say where, and the sentence says only why."""


def _limit(table: Table, s: int, code: str) -> Text:
    """The rule of the table's game that keeps squares read as ``code`` off
    the map at season ``s``'s end (``limits_said``)."""
    if code == terrain.HERO and not table.heroes:
        return _("this game has no hero cards")
    if code == terrain.DESTROYED and not table.destroys:
        return _("nothing in this game destroys a space")
    if code == terrain.HERO:
        most = table.heroes_revealed(s)
        if most == 0:
            return _("no hero card has been revealed yet")
        return ngettext(
            "the hero cards revealed so far allow at most %(num)d hero space",
            "the hero cards revealed so far allow at most %(num)d hero spaces",
            most,
        )
    if code == terrain.MONSTER:
        bound = table.monsters_at_most(s)
        if bound == 0:
            return _("no card revealed so far draws a monster")
        if bound is not None:
            return ngettext(
                "the cards revealed so far allow at most %(num)d monster space",
                "the cards revealed so far allow at most %(num)d monster spaces",
                bound,
            )
    return _("this game's cards do not draw it")
