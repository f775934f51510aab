"""Which ambush drew the monsters a photo reads (``readings.read_monsters``):
a photo shows monster spaces, not the card that drew them, and the Heroes
ambushes act by their monsters, so a reading saved untagged would lose the
troll's ravage, the zombies' spread, the Gorgon's gaze or the Dragon's coins."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy.orm import Session

from referee.rules import deck, heroes, shapes
from referee.table import Refused, Table, hosting, readings, records, scoring
from referee.table import sheets as table_sheets
from referee.table.deal import ambush_cards, explore_cards
from tests.deals import spring_seed, troll_and_dobrik_seed
from tests.table.conftest import new_table, reveal_to, save, season_end
from tests.table.test_sheet_flow import BLANK_A, drawn


def _ambushes_per_season(t: Table) -> list[list[str]]:
    return [
        [r.name for turn in sd.turns for r in turn.reveals if r.kind == "ambush"] for sd in t.deal.seasons
    ]


def _drawing_monsters(t: Table, season: int) -> list[str]:
    """The cards of ``season`` that have a player draw monsters: ambushes, and Rift Lands and its like."""
    return [r.name for turn in t.deal.seasons[season].turns for r in turn.reveals if heroes.draws_monsters(r)]


#: A combined game's choices: the base game's cards with its hero cards, two
#: ambushes of each game (the base ones have no effect, the Heroes ones act).
COMBINED = {
    "season_set": "base",
    "explore_set": "base",
    "heroes": True,
    "ambushes": ("Bugbear Assault", "Goblin Attack", "Giant Troll Ravage", "Zombie Plague"),
}


def _new_table(session: Session, edition: str, seed: str) -> Table:
    if edition != "combined":
        return new_table(session, ["Ann", "Ben"], edition=edition, seed=seed, chosen=None)
    setup = deck.Setup(edition=edition, seed=seed, **COMBINED).check()  # type: ignore[arg-type]
    return Table.of(hosting.set_up(session, setup, "A", ["Ann", "Ben"]).table)


def _table_with(
    session: Session,
    edition: str,
    season: int,
    count: int,
    rift: bool = False,
    ambush: Callable[[str], bool] = lambda name: True,
) -> Table:
    """The first table (seeds ``read-monsters-0``, ``-1``, ...) whose deal
    reveals ``count`` ambushes in ``season`` (each one ``ambush`` takes), and
    an explore card offering monster terrain there too or not (``rift``)."""
    for k in range(300):
        t = _new_table(session, edition, f"read-monsters-{k}")
        names = _ambushes_per_season(t)[season]
        if (
            len(names) == count
            and all(map(ambush, names))
            and (len(_drawing_monsters(t, season)) > count) == rift
        ):
            return t
    raise AssertionError(f"no deal in 300 reveals {count} ambushes in season {season}")


def _codes(rows: list[str]) -> str:
    return "".join(rows)


def _size(ambush: str) -> int:
    return ambush_cards()[ambush].shape.size


def _drawn_shape(
    ambush: str, turn: int = 0, at: tuple[int, int] = (6, 5)
) -> tuple[list[str], list[list[int]]]:
    """Side A with ``ambush``'s shape drawn in monsters, its ``turn``-th way
    (``shapes.orientations``), its top left corner at ``at`` (rows 6 to 8,
    columns 5 to 9 hold no mountain), and the spaces it covers."""
    ways = shapes.orientations(ambush_cards()[ambush].shape.cells)
    spaces = sorted([r + at[0], c + at[1]] for r, c in ways[turn % len(ways)])
    return drawn(BLANK_A, **{f"r{r}c{c}": "M" for r, c in spaces}), spaces


def test_one_ambush_revealed_this_season_drew_the_new_monsters(session: Session) -> None:
    """Its shape, turned or flipped as any shape may be drawn, is tagged with it."""
    t = _table_with(session, "heroes", 0, 1, ambush=lambda name: _size(name) >= 2)
    [ambush] = _ambushes_per_season(t)[0]
    t = reveal_to(session, t, season_end(t, 0))
    sheet = table_sheets.open_sheet(session, t, t.seat(1), 0)
    for turn in range(len(shapes.orientations(ambush_cards()[ambush].shape.cells))):
        rows, spaces = _drawn_shape(ambush, turn)
        read = readings.read_monsters(t, sheet, _codes(drawn(rows, r3c4="F")))
        assert (read.groups, read.untagged) == ([{"ambush": ambush, "spaces": spaces}], []), turn


def test_fewer_monsters_than_the_ambush_shape_are_the_players_to_tag(session: Session) -> None:
    """One monster space where the ambush's shape has several: the 1x1 a
    neighbour draws when the shape cannot be drawn, which carries no
    initial ("do not write the initial of the monster"), or a misreading.
    The player says which, so it is outlined, not tagged."""
    t = _table_with(session, "heroes", 0, 1, ambush=lambda name: _size(name) >= 2)
    t = reveal_to(session, t, season_end(t, 0))
    sheet = table_sheets.open_sheet(session, t, t.seat(1), 0)
    read = readings.read_monsters(t, sheet, _codes(drawn(BLANK_A, r0c0="M")))
    assert (read.groups, read.untagged) == ([], [0])


def test_more_new_monsters_than_the_ambush_draws_are_the_players_to_tag(session: Session) -> None:
    """An ambush draws its shape, no more: a reading with more new monster
    spaces holds a misreading or another card's, and the player says which."""
    t = _table_with(session, "heroes", 0, 1)
    [ambush] = _ambushes_per_season(t)[0]
    size = _size(ambush)
    t = reveal_to(session, t, season_end(t, 0))
    sheet = table_sheets.open_sheet(session, t, t.seat(1), 0)
    rows = [("M" * (size + 1)).ljust(11, ".")] + BLANK_A[1:]
    read = readings.read_monsters(t, sheet, _codes(rows))
    assert (read.groups, read.untagged) == ([], list(range(size + 1)))


def test_monsters_the_saved_sheet_holds_keep_their_tags(session: Session) -> None:
    """A monster space saved before is not new, and an ambush whose monsters
    the saved sheet holds drew no more: a monster read beside them is left
    untagged, not given to it."""
    t = _table_with(session, "heroes", 0, 1)
    [ambush] = _ambushes_per_season(t)[0]
    t = reveal_to(session, t, season_end(t, 0))
    seat = t.seat(1)
    tags = [{"ambush": ambush, "spaces": [[0, 0]]}]
    save(session, t, seat, 0, drawn(BLANK_A, r0c0="M"), monsters=tags)
    sheet = table_sheets.open_sheet(session, t, seat, 0)
    read = readings.read_monsters(t, sheet, _codes(drawn(BLANK_A, r0c0="M", r10c10="M")))
    assert read.groups == tags
    assert read.untagged == []


def test_no_ambush_revealed_tags_nothing(session: Session) -> None:
    t = _table_with(session, "heroes", 0, 1)
    sheet = table_sheets.open_sheet(session, t, t.seat(1), 0)  # before any reveal
    read = readings.read_monsters(t, sheet, _codes(drawn(BLANK_A, r0c0="M")))
    assert (read.groups, read.untagged) == ([], [])


def test_two_ambushes_in_a_season_leave_the_choice_to_the_player(session: Session) -> None:
    """Where the ambushes act, the new monsters are outlined for the player to
    tag; in a base game a tag changes no score, and nothing is outlined."""
    for edition, outlined in (("heroes", [0, 1]), ("base", [])):
        t = _table_with(session, edition, 1, 2)
        t = reveal_to(session, t, season_end(t, 1))
        seat = t.seat(1)
        save(session, t, seat, 0, BLANK_A)
        scoring.score(session, t, seat, 0)  # summer's sheet starts from spring's scored map
        sheet = table_sheets.open_sheet(session, t, seat, 1)
        read = readings.read_monsters(t, sheet, _codes(drawn(BLANK_A, r0c0="M", r0c1="M")))
        assert (read.groups, read.untagged) == ([], outlined), edition


def test_an_explore_card_offering_monsters_leaves_a_lone_space_to_the_player(session: Session) -> None:
    """A lone monster read where Rift Lands (or Kethra's Gates) came out
    beside an ambush of several spaces: the player's own choice of terrain
    on the explore card, or the ambush's 1x1 drawn where its shape did not
    fit. The player says which card drew it."""
    t = _table_with(session, "heroes", 0, 1, rift=True, ambush=lambda name: _size(name) >= 2)
    t = reveal_to(session, t, season_end(t, 0))
    sheet = table_sheets.open_sheet(session, t, t.seat(1), 0)
    read = readings.read_monsters(t, sheet, _codes(drawn(BLANK_A, r0c0="M")))
    assert (read.groups, read.untagged) == ([], [0])


def test_the_ambush_shape_beside_rift_lands_monster_is_the_ambush(session: Session) -> None:
    """The ambush's shape and one space more, where Rift Lands (or Kethra's
    Gates, one space each) came out too: the shape is the ambush's, and the
    space left is the explore card's, with no tag and nothing to ask."""
    t = _table_with(session, "heroes", 0, 1, rift=True, ambush=lambda name: _size(name) >= 2)
    [ambush] = _ambushes_per_season(t)[0]
    t = reveal_to(session, t, season_end(t, 0))
    sheet = table_sheets.open_sheet(session, t, t.seat(1), 0)
    rows, spaces = _drawn_shape(ambush)
    read = readings.read_monsters(t, sheet, _codes(drawn(rows, r0c0="M")))
    assert (read.groups, read.untagged) == ([{"ambush": ambush, "spaces": spaces}], [])
    # Two spaces more than the shape: more than the one explore card draws.
    read = readings.read_monsters(t, sheet, _codes(drawn(rows, r0c0="M", r10c10="M")))
    assert read.groups == []
    assert len(read.untagged) == len(spaces) + 2


def _heroes_out(t: Table, season: int) -> list[str]:
    return [r.name for turn in t.deal.seasons[season].turns for r in turn.reveals if r.kind == "hero"]


def _table_with_heroes(session: Session, count: int) -> Table:
    """The first Heroes table (seeds ``read-heroes-0``, ...) whose spring reveals ``count`` hero cards."""
    for k in range(300):
        t = new_table(session, ["Ann", "Ben"], edition="heroes", seed=f"read-heroes-{k}", chosen=None)
        if len(_heroes_out(t, 0)) == count:
            return t
    raise AssertionError(f"no deal in 300 reveals {count} heroes in spring")


def test_one_hero_card_out_names_the_one_new_hero_space(session: Session) -> None:
    t = _table_with_heroes(session, 1)
    [hero] = _heroes_out(t, 0)
    t = reveal_to(session, t, season_end(t, 0))
    sheet = table_sheets.open_sheet(session, t, t.seat(1), 0)
    read = readings.read_heroes(t, sheet, _codes(drawn(BLANK_A, r4c4="H")))
    assert (read.kept, read.unnamed) == ([], [])
    assert read.named == [{"hero": hero, "at": [4, 4], "orientation": "printed"}]
    # Two hero spaces for one card: which is the hero is the player's to say.
    read = readings.read_heroes(t, sheet, _codes(drawn(BLANK_A, r4c4="H", r6c6="H")))
    assert (read.named, read.unnamed) == ([], [4 * 11 + 4, 6 * 11 + 6])


def test_a_saved_hero_keeps_its_card_and_the_next_space_has_none_left(session: Session) -> None:
    """The one hero card out is on the saved sheet already: a second hero
    space read cannot be it, and waits for the player's card."""
    t = _table_with_heroes(session, 1)
    [hero] = _heroes_out(t, 0)
    t = reveal_to(session, t, season_end(t, 0))
    seat = t.seat(1)
    placed = [{"hero": hero, "at": [4, 4], "orientation": "printed"}]
    save(session, t, seat, 0, drawn(BLANK_A, r4c4="H"), heroes=placed)
    sheet = table_sheets.open_sheet(session, t, seat, 0)
    read = readings.read_heroes(t, sheet, _codes(drawn(BLANK_A, r4c4="H", r6c6="H")))
    assert (read.kept, read.named, read.unnamed) == (placed, [], [6 * 11 + 6])
    # Its space read as a farm: the card is free again, for the one new space.
    read = readings.read_heroes(t, sheet, _codes(drawn(BLANK_A, r4c4="A", r6c6="H")))
    assert (read.kept, read.named) == ([], [{"hero": hero, "at": [6, 6], "orientation": "printed"}])


def test_a_season_is_not_scored_while_its_acting_ambush_tags_no_monster(session: Session) -> None:
    """Spring's one ambush (a Heroes one, which acts by its monsters) was
    drawn on every map; saved with its monster untagged, the season is not
    scored, since its effect would be lost; tagged, it scores."""
    t = _table_with(session, "heroes", 0, 1)
    [ambush] = _ambushes_per_season(t)[0]
    t = reveal_to(session, t, season_end(t, 0))
    seat = t.seat(1)
    save(session, t, seat, 0, drawn(BLANK_A, r0c0="M", r0c1="F", r1c0="F"))
    with pytest.raises(Refused) as untold:
        scoring.score(session, t, seat, 0)
    assert (untold.value.status, str(untold.value)) == (
        409,
        f"Which monsters did {ambush} draw? Tap them with the Monster brush, its ambush chosen, "
        "save, then score: its effect acts on them. If its shape could not be drawn on this map, "
        "tick that under the Score button.",
    )
    with pytest.raises(Refused):  # another ambush's shape that did not fit says nothing of this one
        scoring.score(session, t, seat, 0, shapeless=[a for a in ambush_cards() if a != ambush])
    tags = [{"ambush": ambush, "spaces": [[0, 0]]}]
    save(session, t, seat, 0, drawn(BLANK_A, r0c0="M", r0c1="F", r1c0="F"), monsters=tags)
    assert scoring.score(session, t, seat, 0).total is not None


def test_an_ambush_whose_shape_did_not_fit_scores_untagged(session: Session) -> None:
    """The rulebook: "If a player cannot legally draw the depicted monster
    shape on their neighbor's map, they instead draw a 1x1 square anywhere
    ... but do not write the initial of the monster": the player says so, and the season
    scores with that monster untagged, its effect on no space."""
    t = _table_with(session, "heroes", 0, 1)
    [ambush] = _ambushes_per_season(t)[0]
    t = reveal_to(session, t, season_end(t, 0))
    seat = t.seat(1)
    save(session, t, seat, 0, drawn(BLANK_A, r0c0="M"))
    assert scoring.score(session, t, seat, 0, shapeless=[ambush]).total is not None


def test_an_ambush_with_no_effect_asks_nothing(session: Session) -> None:
    """A base ambush beside Rift Lands, in a combined game whose other
    ambushes act: which drew the monsters changes no score, so nothing is
    outlined, and the season scores untagged."""
    base = deck.edition_ambushes("base")
    t = _table_with(session, "combined", 0, 1, rift=True, ambush=lambda name: name in base)
    assert t.ambush_effects
    t = reveal_to(session, t, season_end(t, 0))
    seat = t.seat(1)
    sheet = table_sheets.open_sheet(session, t, seat, 0)
    read = readings.read_monsters(t, sheet, _codes(drawn(BLANK_A, r0c0="M")))
    assert (read.groups, read.untagged) == ([], [])
    save(session, t, seat, 0, drawn(BLANK_A, r0c0="M"))
    assert scoring.score(session, t, seat, 0).total is not None


TROLL = "Giant Troll Ravage"
DRAGON = "Dragon Inferno"
DOBRIK = "Dobrik of Lorkheim"


def _troll_and_dobrik(session: Session, rift: bool) -> Table:
    """A Heroes table whose spring, now over, revealed the Giant Troll Ravage as
    its one ambush and Dobrik of Lorkheim (``deals.troll_and_dobrik_seed``)."""
    t = _new_table(session, "heroes", troll_and_dobrik_seed(rift))
    return reveal_to(session, t, season_end(t, 0))


#: The troll drawn at rows 7 and 8 (0-based 6 and 7), Dobrik drawn below its left end:
#: his pattern (the spaces above, below and on each side of him) destroys two of its spaces.
TROLL_SPACES = [[6, 5], [6, 6], [6, 7], [7, 6]]
TROLL_HALF_DESTROYED = drawn(BLANK_A, r6c5="X", r6c6="M", r6c7="M", r7c6="X", r7c5="H")


@pytest.mark.parametrize("rift", [False, True])
def test_monster_spaces_a_hero_destroyed_count_as_the_ambush_shape(session: Session, rift: bool) -> None:
    """The troll's four spaces were drawn, then Dobrik, drawn beside it, destroyed
    the two inside his attack pattern ("all monster spaces within the hero's
    attack pattern are immediately destroyed"): the photo reads two monsters
    and two destroyed spaces. The destroyed ones may be the troll's, so the
    troll's shape is found there, and all four are tagged with it, as the
    Monster brush and the Hero brush would have tagged them."""
    t = _troll_and_dobrik(session, rift)
    sheet = table_sheets.open_sheet(session, t, t.seat(1), 0)
    read = readings.read_monsters(t, sheet, _codes(TROLL_HALF_DESTROYED))
    assert (read.groups, read.untagged) == ([{"ambush": TROLL, "spaces": TROLL_SPACES}], [])


def test_destroyed_spaces_count_only_inside_a_hero_pattern_and_only_when_needed(session: Session) -> None:
    """A destroyed space out of every hero's pattern was no monster a hero
    destroyed; and where the monsters read hold the shape themselves, a
    destroyed space beside them is left alone."""
    t = _troll_and_dobrik(session, rift=False)
    sheet = table_sheets.open_sheet(session, t, t.seat(1), 0)
    # Dobrik drawn far away: nothing destroyed is his, and the two monsters hold no troll.
    far = drawn(BLANK_A, r6c5="X", r6c6="M", r6c7="M", r7c6="X", r1c8="H")
    read = readings.read_monsters(t, sheet, _codes(far))
    assert (read.groups, read.untagged) == ([], [6 * 11 + 6, 6 * 11 + 7])
    # The whole troll read as monsters, one of Dobrik's spaces destroyed beside it.
    whole = drawn(BLANK_A, r6c6="M", r6c7="M", r6c8="M", r7c7="M", r7c5="H", r8c5="X")
    read = readings.read_monsters(t, sheet, _codes(whole))
    assert (read.groups, read.untagged) == (
        [{"ambush": TROLL, "spaces": [[6, 6], [6, 7], [6, 8], [7, 7]]}],
        [],
    )


# --- a coin track the photo could not read ---------------------------------------------------------

CARRIED_NONE = "The coin track could not be read, and your map surrounds no mountain: the count below is 0."
NO_COIN_SHAPE = "No explore card this season offered a shape with a coin."


@pytest.mark.parametrize(
    ("unread", "coins", "said"),
    [
        (readings.UnreadCoins(0, [], [], 14, True), 0, [CARRIED_NONE, NO_COIN_SHAPE]),
        (
            readings.UnreadCoins(0, [(1, 3)], ["Great River"], 14, True),
            1,
            [
                "The coin track could not be read: the count below is 1, for the mountain your map "
                "surrounds (row 2, column 4).",
                "If you chose the shape with a coin on Great River this season, add 1.",
            ],
        ),
        (
            readings.UnreadCoins(3, [], ["Great River", "Hamlet"], 14, False),
            3,
            [
                "The coin track could not be read: the count below is the 3 coins carried from the season "
                "before; no mountain was surrounded this season.",
                "Add 1 for each shape with a coin you chose this season, on Great River and Hamlet.",
            ],
        ),
        (
            readings.UnreadCoins(1, [(1, 3), (2, 8)], [], 14, False),
            3,
            [
                "The coin track could not be read: the count below is the 1 coin carried from the season "
                "before, plus 2 for the mountains surrounded this season (row 2, column 4; row 3, column 9).",
                NO_COIN_SHAPE,
            ],
        ),
        (
            readings.UnreadCoins(13, [(1, 3), (2, 8)], ["Hamlet"], 14, False),
            14,
            [
                "The coin track could not be read: the count below is the 13 coins carried from the season "
                "before, plus 2 for the mountains surrounded this season (row 2, column 4; row 3, column 9).",
                "That fills your coin track.",
            ],
        ),
        (
            readings.UnreadCoins(2, [(3, 8), (5, 3)], ["Hamlet"], 14, False, 3),
            7,
            [
                "The coin track could not be read: the count below is the 2 coins carried from the season "
                "before, plus 2 for the mountains surrounded this season (row 4, column 9; row 6, column 4).",
                "The count below holds the 3 coins of the Dragon too: every space of it is surrounded or "
                "destroyed on the map read.",
                "If you chose the shape with a coin on Hamlet this season, add 1.",
            ],
        ),
        (
            readings.UnreadCoins(0, [], [], 14, True, 3),
            3,
            [
                "The coin track could not be read, and your map surrounds no mountain.",
                "The count below holds the 3 coins of the Dragon too: every space of it is surrounded or "
                "destroyed on the map read.",
                NO_COIN_SHAPE,
            ],
        ),
    ],
)
def test_an_unread_coin_track_says_what_its_count_holds(
    unread: readings.UnreadCoins, coins: int, said: list[str]
) -> None:
    """The count holds what the referee can know (the coins carried into the
    season and the mountains surrounded since, as far as the track goes),
    and the note names the cards whose coin only the sheet shows."""
    assert unread.coins == coins
    assert [str(s) for s in unread.sentences()] == said


def test_an_unread_coin_track_counts_the_mountains_surrounded_this_season(session: Session) -> None:
    """Spring scored with the mountain at row 2, column 4 surrounded, and its
    coin; summer's photo shows the one at row 3, column 9 surrounded too:
    summer's track starts at 2, and the explore cards summer revealed with a
    coin on a shape are named, whichever shape the player chose."""
    t = new_table(session, ["Ann", "Ben"], seed="unread-coins-1")
    t = reveal_to(session, t, season_end(t, 1))
    seat = t.seat(1)
    spring = drawn(BLANK_A, r0c3="F", r2c3="F", r1c2="F", r1c4="F")
    save(session, t, seat, 0, spring, coins=1)
    scoring.score(session, t, seat, 0)
    sheet = table_sheets.open_sheet(session, t, seat, 1)
    summer = drawn(spring, r1c8="A", r3c8="A", r2c7="A", r2c9="A")
    known = records.known_mountains(session, t, seat, 1)
    assert known == [(1, 3)]
    unread = readings.unread_coins(t, sheet, _codes(summer), known)
    offered = [
        r.name
        for turn in t.deal.seasons[1].turns
        for r in turn.reveals
        if r.kind == "explore" and any(shape.coin for shape in explore_cards()[r.name].shapes)
    ]
    assert offered  # this deal's summer has some
    assert (unread.carried, unread.mountains, unread.offered, unread.coins) == (1, [(2, 8)], offered, 2)


def test_an_unread_coin_track_holds_the_dragons_coins_once_the_map_closes_it_in(session: Session) -> None:
    """A play-test's player followed the note of an unread track (2 carried,
    2 for mountains, 1 for Hamlet), saved 5, and the Dragon she had just
    closed in paid nothing. The count now starts with the Dragon's 3; not
    before the map closes it in, and not once it has paid them."""
    t = new_table(session, ["Ann", "Ben"], edition="heroes", seed="unread-dragon", chosen=None)
    t = reveal_to(session, t, season_end(t, 0))
    seat = t.seat(1)
    sheet = table_sheets.open_sheet(session, t, seat, 0)
    tags = [{"ambush": DRAGON, "spaces": [[0, 0], [0, 1]]}]
    open_dragon = drawn(BLANK_A, r0c0="M", r0c1="M")
    closed = drawn(open_dragon, r1c0="F", r1c1="F", r0c2="F")
    assert readings.unread_coins(t, sheet, _codes(open_dragon), [], tags).dragon == 0
    unread = readings.unread_coins(t, sheet, _codes(closed), [], tags)
    assert (unread.dragon, unread.coins) == (3, 3)
    assert readings.unread_coins(t, sheet, _codes(closed), []).dragon == 0  # no Dragon tagged
    sheet.effects = {"dragon_paid": True}
    assert readings.unread_coins(t, sheet, _codes(closed), [], tags).coins == 0


# --- a hero drawn in an earlier season ---------------------------------------------------------------

DAL = "Dal of Jolev"


def _dal_drawn_in_spring(session: Session, at: list[int]) -> tuple[Table, list[dict[str, Any]]]:
    """A Heroes table whose spring revealed Dal of Jolev: Ann drew him at
    ``at`` and scored spring; summer has begun from that map."""
    t = new_table(session, ["Ann", "Ben"], edition="heroes", seed=spring_seed(DAL, "dal"), chosen=None)
    t = reveal_to(session, t, season_end(t, 0) + 1)
    seat = t.seat(1)
    placed = [{"hero": DAL, "at": at, "orientation": "printed"}]
    save(session, t, seat, 0, drawn(BLANK_A, **{f"r{at[0]}c{at[1]}": "H"}), heroes=placed)
    scoring.score(session, t, seat, 0)
    return t, placed


@pytest.mark.parametrize("read_as", ["M", "F", "."])
def test_a_hero_from_an_earlier_season_stays_whatever_the_photo_reads(session: Session, read_as: str) -> None:
    """The play-test: Dal, drawn in spring at row 9, column 9, read by a later
    photo as a monster. A hero stays on the map for the rest of the game (a
    filled space never changes, a hero's attack destroys monsters, not
    heroes): the reading keeps him there with his card, and says why; the
    square is no new monster for an ambush to claim."""
    t, placed = _dal_drawn_in_spring(session, [8, 8])
    seat = t.seat(1)
    sheet = table_sheets.open_sheet(session, t, seat, 1)
    earlier = records.heroes_before(session, seat, 1)
    assert earlier == placed
    codes = _codes(drawn(BLANK_A, r8c8=read_as))
    kept = readings.keep_earlier_heroes(sheet, earlier, codes)
    assert kept.codes == _codes(drawn(BLANK_A, r8c8="H"))
    assert [(k.hero, k.read, k.index) for k in kept.heroes] == [(placed[0], read_as, 8 * 11 + 8)]
    terrain_read = {"M": "monster", "F": "forest", ".": "empty"}[read_as]
    assert str(kept.heroes[0].sentence()) == (
        "The square at row 9, column 9 is Dal of Jolev's hero space from an earlier season, "
        f"which stays on the map; the photo read “{terrain_read}” there."
    )
    heroes_read = readings.read_heroes(t, sheet, kept.codes, earlier)
    assert (heroes_read.kept, heroes_read.named, heroes_read.unnamed) == (placed, [], [])
    monsters = readings.read_monsters(t, sheet, kept.codes, earlier)
    assert (monsters.groups, monsters.untagged) == ([], [])


def test_a_hero_from_an_earlier_season_read_as_itself_or_destroyed_is_left_alone(session: Session) -> None:
    t, placed = _dal_drawn_in_spring(session, [8, 8])
    sheet = table_sheets.open_sheet(session, t, t.seat(1), 1)
    for code in ("H", "X"):
        codes = _codes(drawn(BLANK_A, r8c8=code))
        kept = readings.keep_earlier_heroes(sheet, placed, codes)
        assert (kept.codes, kept.heroes) == (codes, [])
        assert readings.read_heroes(t, sheet, codes, placed).kept == placed


def test_a_hero_the_player_moved_this_season_is_theirs_to_say(session: Session) -> None:
    """Summer's sheet saved with Dal at row 5, column 5 instead (a slip put
    right): his spring space is not forced back, and the photo's reading of
    it stands. Saved without him at all, he is still on the map."""
    t, placed = _dal_drawn_in_spring(session, [8, 8])
    seat = t.seat(1)
    moved = [{"hero": DAL, "at": [4, 4], "orientation": "printed"}]
    save(session, t, seat, 1, drawn(BLANK_A, r4c4="H"), heroes=moved)
    sheet = table_sheets.open_sheet(session, t, seat, 1)
    codes = _codes(drawn(BLANK_A, r4c4="H", r8c8="M"))
    kept = readings.keep_earlier_heroes(sheet, placed, codes)
    assert (kept.codes, kept.heroes) == (codes, [])
    assert readings.read_heroes(t, sheet, codes, placed).kept == moved
    # Saved with his space emptied: the hero of spring is on the map still.
    save(session, t, seat, 1, BLANK_A)
    sheet = table_sheets.open_sheet(session, t, seat, 1)
    kept = readings.keep_earlier_heroes(sheet, placed, _codes(drawn(BLANK_A, r8c8="M")))
    assert kept.codes == _codes(drawn(BLANK_A, r8c8="H"))
    assert readings.read_heroes(t, sheet, kept.codes, placed).kept == placed
