"""Playing through the table layer alone: a season from the first reveal to
its score, and a whole game to its standings and exports, on an in-memory
SQLite session with no Flask app."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from referee.rules import season
from referee.rules.sheet import MapSheet
from referee.table import Refused, hosting, scoring, standings
from referee.table import sheets as table_sheets
from tests.table.conftest import new_table, reveal_to, save, season_end

# Edicts: A Sentinel Wood, B Canal Lake, C Great City, D Borderlands.
# Ann: four forests on the top edge, a monster with three empty neighbours, 3 coins.
# Ben: the same forests, no monster, no coins.
ANN = [
    "FFFF.......",
    "...^.......",
    "........^..",
    "...........",
    "...........",
    "M....^.....",
    "...........",
    "...........",
    "..^........",
    ".......^...",
    "...........",
]
BEN = ["FFFF......."] + ANN[1:5] + [".....^....."] + ANN[6:]


def test_a_season_from_the_first_reveal_to_its_score(session: Session) -> None:
    """Spring scores A and B: Sentinel Wood 4 (four forests on the edge),
    Canal Lake 0, 3 coins, the monster's three empty neighbours -3: 4."""
    t = new_table(session, ["Ann", "Ben"])
    ann = t.seat(1)
    saved = save(session, t, ann, 0, ANN, coins=3)
    assert saved.sheet.revision == 2 and saved.messages == [] and saved.gorgon == []
    with pytest.raises(Refused) as early:
        scoring.score(session, t, ann, 0)
    assert early.value.status == 409
    assert str(early.value).startswith("Spring has not ended yet: its time is 0 of ")

    t = reveal_to(session, t, season_end(t, 0))
    assert t.current == 0 and t.ended(0) and not t.ended(1)
    record = scoring.score(session, t, ann, 0)
    assert (record.first_edict, record.first_card, record.first_stars) == ("A", "Sentinel Wood", 4)
    assert (record.second_edict, record.second_card, record.second_stars) == ("B", "Canal Lake", 0)
    assert (record.coins, record.monsters, record.total) == (3, -3, 4)
    assert record.detail["penalised"] == [[4, 0], [5, 1], [6, 0]]
    themap = MapSheet.parse("\n".join(ANN), t.side)
    by_rules = season.score_season(themap, t.season_rule(0), t.edict_cards(), 3)
    assert record.total == by_rules.total

    page = scoring.scored_season(session, t, ann, 0)
    assert page is not None
    assert page.record is record and page.scores == {0: record}
    assert not page.next_started and page.effects is None  # a base game: no after-scoring effects
    assert scoring.scored_season(session, t, t.seat(2), 0) is None


def test_a_whole_game_to_its_standings_and_exports(session: Session) -> None:
    """Ann: spring 4+0+3-3=4, summer 0+0+3-3=0, fall 0, winter 0+4+3-3=4: 8, 12 lost to monsters.
    Ben: spring 4, summer 0, fall 0, winter 4: 8, none lost. Tied on 8; Ben wins the tiebreak."""
    t = new_table(session, ["Ann", "Ben"])
    save(session, t, t.seat(1), 0, ANN, coins=3)
    save(session, t, t.seat(2), 0, BEN)
    assert standings.settle(session, t).waiting == ["Ann", "Ben"]
    for s in range(4):
        t = reveal_to(session, t, season_end(t, s))
        for number in (1, 2):
            seat = t.seat(number)
            sheet = table_sheets.open_sheet(session, t, seat, s)  # each season starts from the last
            assert sheet.map_text == "\n".join(ANN if number == 1 else BEN)
            scoring.score(session, t, seat, s)
    assert t.position.game_over

    settled = standings.settle(session, t)
    assert settled.waiting == []
    assert [(st.place, st.player.name, st.player.total) for st in settled.standings] == [
        (1, "Ben", 8),
        (2, "Ann", 8),
    ]
    assert "Ben lost 0, Ann 12" in settled.standings[0].reason
    assert settled.solo is None

    rows = standings.export_rows(session, t)
    assert [r["total"] for r in rows if r["player"] == "Ann"] == [4, 0, 0, 4]
    assert [r["season"] for r in rows[:4]] == ["spring", "summer", "fall", "winter"]
    assert set(rows[0]) == set(standings.EXPORT_FIELDS)
    game = standings.export_game(session, t)
    assert [s["player"] for s in game["standings"]] == ["Ben", "Ann"]
    assert game["edicts"]["A"] == "Sentinel Wood" and game["map_side"] == "A"
    assert game["printing"] == "english"
    assert [{k: v for k, v in s.items() if k != "ambush_tags"} for s in game["seasons"]] == rows
    assert all(s["ambush_tags"] == [] and "heroes" not in s for s in game["seasons"])  # a base game, no tags

    with pytest.raises(Refused) as over:
        hosting.reveal(session, t.table, t.table.taps)
    assert over.value.status == 409
    assert str(over.value) == "The game is over: winter has ended and there are no more cards to reveal."


def test_a_solo_game_gets_its_rating(session: Session) -> None:
    t = new_table(session, ["Ann"])
    save(session, t, t.seat(1), 0, ANN, coins=3)
    for s in range(4):
        t = reveal_to(session, t, season_end(t, s))
        table_sheets.open_sheet(session, t, t.seat(1), s)
        record = scoring.score(session, t, t.seat(1), s)
        assert record.solo
    settled = standings.settle(session, t)
    assert settled.solo is not None and settled.solo.title
    assert standings.export_game(session, t)["solo"]["rating"] == settled.solo.rating


@pytest.mark.parametrize(
    ("edition", "drawn"),
    [("base", "FVAWM"), ("heroes", "FVAWMHX")],
)
def test_what_a_player_can_draw_in_each_edition(session: Session, edition: str, drawn: str) -> None:
    """A base game has no hero cards and nothing that destroys a space; the
    photo reader reads only what a player can draw (``Table.drawn``)."""
    t = new_table(session, ["Ann", "Ben"], edition=edition, chosen=None)
    assert t.drawn == frozenset(drawn)


def test_the_heroes_a_map_can_hold_follow_the_reveals(session: Session) -> None:
    """Each hero card revealed is drawn once on every map, so by a season's
    end a map holds at most the heroes revealed up to then: none before the
    first reveal, the season's own at its end, and an earlier season's count
    stays as it was while later seasons reveal more."""
    from referee.rules.heroes import most_hero_spaces

    t = new_table(session, ["Ann", "Ben"], edition="heroes", seed="heroes-count-22", chosen=None)
    assert t.heroes_revealed(0) == 0
    per_season = [sum(r.kind == "hero" for turn in sd.turns for r in turn.reveals) for sd in t.deal.seasons]
    assert per_season == [1, 1, 1, 1]  # this seed's deal: a hero in each season
    spring = t.deal.seasons[0].turns
    spring_hero = next(i for i, turn in enumerate(spring) if any(r.kind == "hero" for r in turn.reveals))
    t = reveal_to(session, t, spring_hero)
    assert t.heroes_revealed(0) == 0
    t = reveal_to(session, t, spring_hero + 1)
    assert t.heroes_revealed(0) == 1
    t = reveal_to(session, t, season_end(t, 2))
    assert [t.heroes_revealed(s) for s in range(4)] == [1, 2, 3, 3]
    t = reveal_to(session, t, season_end(t, 3))
    assert [t.heroes_revealed(s) for s in range(4)] == [1, 2, 3, 4]
    assert t.heroes_revealed(3) == most_hero_spaces()


def test_the_monsters_a_map_can_hold_follow_the_reveals(session: Session) -> None:
    """This base deal reveals Goblin Attack (3 spaces) on spring's second
    turn, Gnoll Raid (5) in summer, Rift Lands (one monster square at most)
    and Kobold Onslaught (4) in fall, and Bugbear Assault (4) in winter:
    counted by hand from the cards, a map holds at most 0 monster spaces
    before the goblins, 3 after them, and 3, 8, 13 and 17 by each season's end."""
    t = new_table(session, ["Ann", "Ben"], chosen=None)
    reveals = [[r.name for turn in sd.turns for r in turn.reveals] for sd in t.deal.seasons]
    assert "Goblin Attack" in [r.name for r in t.deal.seasons[0].turns[1].reveals]
    assert "Goblin Attack" not in [r.name for r in t.deal.seasons[0].turns[0].reveals]
    assert "Gnoll Raid" in reveals[1]
    assert {"Rift Lands", "Kobold Onslaught"} <= set(reveals[2]) and "Bugbear Assault" in reveals[3]
    t = reveal_to(session, t, 1)
    assert t.monsters_at_most(0) == 0
    t = reveal_to(session, t, 2)
    assert t.monsters_at_most(0) == 3
    t = reveal_to(session, t, season_end(t, 3))
    assert [t.monsters_at_most(s) for s in range(4)] == [3, 8, 13, 17]
