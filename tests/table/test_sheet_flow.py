"""A sheet through the seasons at the table layer: what a save refuses, when
a season's sheet opens and locks, and the Heroes and solo ambush helpers."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy.orm import Session

from referee.rules import deck
from referee.rules.errors import DrawingError, MapError
from referee.table import Refused, Table, ambushes, hosting, scoring
from referee.table import sheets as table_sheets
from referee.table.errors import SheetPage
from tests.table.conftest import EASY_EDICTS, new_table, reveal_to, save, season_end

BLANK_A = [
    "...........",
    "...^.......",
    "........^..",
    "...........",
    "...........",
    ".....^.....",
    "...........",
    "...........",
    "..^........",
    ".......^...",
    "...........",
]
# Side C prints mountains at rows 2, 4, 6, 9 and 10 (columns 2, 9, 4, 10 and 6).
BLANK_C = [
    "...........",
    ".^.........",
    "...........",
    "........^..",
    "...........",
    "...^.......",
    "...........",
    "...........",
    ".........^.",
    ".....^.....",
    "...........",
]


def drawn(blank: list[str], **spaces: str) -> list[str]:
    """A blank side with codes at spaces named like ``r4c5="M"`` (0-based)."""
    rows = [list(r) for r in blank]
    for name, code in spaces.items():
        r, c = name[1:].split("c")
        rows[int(r)][int(c)] = code
    return ["".join(r) for r in rows]


@pytest.mark.parametrize(
    ("payload", "sentence"),
    [
        (None, "The page sent nothing the referee could read; reload it and try again."),
        ([], "The page sent no sheet; reload it and try again."),
        ({"map": ""}, "The page sent no revision number; reload it and try again."),
        ({"revision": True}, "The page sent no revision number; reload it and try again."),
        ({"revision": 1, "map": 5}, "The page sent no map; reload it and try again."),
        (
            {"revision": 1, "map": "\n".join(BLANK_A), "coins": "3"},
            "The page sent no coin count; reload it and try again.",
        ),
        (
            {"revision": 1, "map": "\n".join(BLANK_A), "coins": 0, "monsters": {}},
            "The page sent the monster tags in a form the referee does not know.",
        ),
        (
            {
                "revision": 1,
                "map": "\n".join(drawn(BLANK_A, r0c0="M")),
                "coins": 0,
                "monsters": [{"ambush": "Gorgon Gaze", "spaces": [[0, 0]]}],
            },
            "Gorgon Gaze is not one of this table's ambush cards.",
        ),
        (
            {
                "revision": 1,
                "map": "\n".join(drawn(BLANK_A, r0c0="H")),
                "coins": 0,
                "heroes": [{"hero": "Dal of Jolev", "at": [0, 0]}],
            },
            "There are no hero cards in this game.",
        ),
        (
            {"revision": 1, "map": "\n".join(drawn(BLANK_A, r2c3="H")), "coins": 0},
            "row 3, column 4 holds a hero, but there are no hero cards in this game.",
        ),
        (
            {
                "revision": 1,
                "map": "\n".join(BLANK_A),
                "coins": 0,
                "heroes": [{"hero": "Dal of Jolev", "at": [11, 0]}],
            },
            "A space must be a row and a column from 1 to 11.",
        ),
    ],
)
def test_a_save_refuses_what_the_editor_could_not_have_sent(
    session: Session, payload: Any, sentence: str
) -> None:
    t = new_table(session, ["Ann"])
    seat = t.seat(1)
    table_sheets.open_sheet(session, t, seat, 0)
    with pytest.raises(Refused) as refused:
        table_sheets.save(session, t, seat, 0, payload)
    assert (refused.value.status, str(refused.value)) == (400, sentence)


def test_a_map_the_side_does_not_allow_is_the_rules_refusal(session: Session) -> None:
    t = new_table(session, ["Ann"])
    with pytest.raises(MapError):
        save(session, t, t.seat(1), 0, ["." * 11] * 11)  # the printed mountains are missing


def test_a_save_from_a_stale_page_is_refused(session: Session) -> None:
    t = new_table(session, ["Ann"])
    seat = t.seat(1)
    save(session, t, seat, 0, drawn(BLANK_A, r0c0="F"))
    with pytest.raises(Refused) as refused:
        save(session, t, seat, 0, drawn(BLANK_A, r0c1="F"), revision=1)
    assert refused.value.status == 409
    assert str(refused.value).startswith(
        "This sheet was saved from another page or phone since you opened it"
    )
    assert table_sheets.open_sheet(session, t, seat, 0).map_text == "\n".join(drawn(BLANK_A, r0c0="F"))


def test_when_a_seasons_sheet_opens_and_locks(session: Session) -> None:
    t = new_table(session, ["Ann"])
    seat = t.seat(1)
    with pytest.raises(Refused) as early:
        table_sheets.open_sheet(session, t, seat, 1)
    assert (early.value.status, str(early.value)) == (
        409,
        "Summer has not begun yet; it starts when the host reveals its first card.",
    )
    with pytest.raises(Refused) as unsaved:
        table_sheets.save(session, t, seat, 0, {})
    assert (unsaved.value.status, str(unsaved.value)) == (
        409,
        "This season's sheet does not exist yet; reload the page.",
    )
    save(session, t, seat, 0, drawn(BLANK_A, r0c0="F"))
    t = reveal_to(session, t, season_end(t, 0) + 1)
    with pytest.raises(Refused) as unscored:
        table_sheets.open_sheet(session, t, seat, 1)
    assert str(unscored.value) == "Score Ann's Spring first: the next season starts from that map."
    assert unscored.value.remedy == SheetPage("sheet", 0)
    scoring.score(session, t, seat, 0)
    summer = table_sheets.open_for_editing(session, t, seat, 1)
    assert summer.sheet.map_text == "\n".join(drawn(BLANK_A, r0c0="F")) and not summer.scored
    with pytest.raises(Refused) as begun:
        scoring.score(session, t, seat, 0)
    assert (
        str(begun.value) == "Ann's next season has begun from this map; Spring's score can no longer change."
    )
    t = reveal_to(session, t, season_end(t, 1))
    scoring.score(session, t, seat, 1)
    with pytest.raises(Refused) as locked:
        table_sheets.open_to_change(session, t, seat, 0)
    assert (locked.value.status, str(locked.value)) == (
        409,
        "A later season has been scored; this season's map can no longer change.",
    )


def test_the_zombies_spread_once_confirmed(session: Session) -> None:
    t = new_table(session, ["Ann", "Ben"], edition="heroes", side="C", chosen=None)
    seat = t.seat(1)
    tags = [{"ambush": "Zombie Plague", "spaces": [[0, 10]]}]
    save(session, t, seat, 0, drawn(BLANK_C, r0c10="M"), monsters=tags)
    with pytest.raises(Refused) as unscored:
        ambushes.confirm_effects(session, t, seat, 0, None)
    assert str(unscored.value) == "Score the season before applying the ambushes' effects."
    assert unscored.value.remedy == SheetPage("sheet", 0)
    t = reveal_to(session, t, season_end(t, 0) + 1)
    scoring.score(session, t, seat, 0)
    page = scoring.scored_season(session, t, seat, 0)
    assert page is not None and page.effects is not None
    assert page.effects.pending == ["Zombie Plague"] and page.effects.troll is None
    assert page.effects.zombies == [(0, 9), (1, 10)] and not page.effects.done
    with pytest.raises(Refused) as waiting:
        table_sheets.open_sheet(session, t, seat, 1)
    assert "ambush effects to apply first" in str(waiting.value)
    assert waiting.value.remedy == SheetPage("score", 0)
    ambushes.confirm_effects(session, t, seat, 0, None)
    summer = table_sheets.open_sheet(session, t, seat, 1)
    assert summer.monsters == [{"ambush": "Zombie Plague", "spaces": [[0, 9], [0, 10], [1, 10]]}]


def test_a_sheet_link_leads_to_the_effects_waiting_before_the_next_sheet(session: Session) -> None:
    """Spring scored with zombies to spread and summer begun: the seat's
    sheet link opens spring's score page, where they are applied (summer's
    sheet starts from them), not a refusal; once applied, summer's sheet."""
    t = new_table(session, ["Ann", "Ben"], edition="heroes", side="C", chosen=None)
    seat = t.seat(1)
    tags = [{"ambush": "Zombie Plague", "spaces": [[0, 10]]}]
    save(session, t, seat, 0, drawn(BLANK_C, r0c10="M"), monsters=tags)
    t = reveal_to(session, t, season_end(t, 0) + 1)
    assert table_sheets.page_to_open(session, t, seat) == SheetPage("sheet", 0)  # not scored yet
    scoring.score(session, t, seat, 0)
    assert table_sheets.page_to_open(session, t, seat) == SheetPage("score", 0)
    ambushes.confirm_effects(session, t, seat, 0, None)
    assert table_sheets.page_to_open(session, t, seat) == SheetPage("sheet", 1)


def test_the_gorgon_gaze(session: Session) -> None:
    t = new_table(session, ["Ann", "Ben"], edition="heroes", side="C", chosen=None)
    seat = t.seat(1)
    with pytest.raises(Refused) as none_yet:
        ambushes.gorgon_sheet(session, t, seat, 0)
    assert (none_yet.value.status, str(none_yet.value)) == (
        409,
        "There is no Gorgon gaze waiting on this sheet.",
    )
    tags = [{"ambush": "Gorgon Gaze", "spaces": [[10, 0]]}]
    saved = save(session, t, seat, 0, drawn(BLANK_C, r10c0="M", r9c0="F"), monsters=tags)
    assert saved.gorgon == [(9, 0), (10, 1)]
    sheet = ambushes.gorgon_sheet(session, t, seat, 0)
    with pytest.raises(Refused) as stale:
        ambushes.apply_gorgon(session, t, sheet, sheet.revision - 1, (9, 0))
    assert stale.value.status == 409
    ambushes.apply_gorgon(session, t, sheet, sheet.revision, (9, 0))
    assert sheet.map_text.splitlines()[9][0] == "X"
    assert table_sheets.open_for_editing(session, t, seat, 0).gorgon == []


def test_the_solo_ambush_helper(session: Session) -> None:
    t = new_table(session, ["Ann"], edition="heroes", side="C", chosen=None)
    ambush = t.setup.ambushes[0]
    helped = ambushes.solo_help(t, "\n".join(BLANK_C), ambush)
    assert helped["ambush"] == ambush and helped["spaces"] and helped["sentence"]
    with pytest.raises(Refused) as refused:
        ambushes.solo_help(t, "\n".join(BLANK_C), "Goblin Attack")
    assert (refused.value.status, str(refused.value)) == (400, "Choose one of this table's ambush cards.")


def test_scoring_a_season_never_opened_points_to_its_sheet(session: Session) -> None:
    t = new_table(session, ["Ann", "Ben"])
    t = reveal_to(session, t, season_end(t, 0) + 1)
    with pytest.raises(Refused) as unsaved:
        scoring.score(session, t, t.seat(1), 0)
    assert (unsaved.value.status, str(unsaved.value)) == (
        409,
        "Ann has no Spring map to score yet; open and save it first.",
    )
    assert unsaved.value.remedy == SheetPage("sheet", 0)


GORGON_WAITS = (
    "Gorgon Gaze waits: choose the space next to the Gorgon that it destroys, "
    "in the box above the map, then score."
)


@pytest.mark.parametrize("players", [["Ann", "Ben"], ["Ann"]], ids=["table", "solo"])
def test_a_season_is_not_scored_while_the_gorgon_gaze_waits(session: Session, players: list[str]) -> None:
    """The Gorgon Gaze: "immediately after the Gorgon is drawn, destroy one
    non-mountain space adjacent to it". The space is part of the score, so
    Score waits for it. Solo, the rules place the Gorgon (the helper), and
    the gaze is the same."""
    t = new_table(session, players, edition="heroes", side="C", chosen=None)
    seat = t.seat(1)
    if t.solo:
        spaces = ambushes.solo_help(t, "\n".join(BLANK_C), "Gorgon Gaze")["spaces"]
    else:
        spaces = [[10, 0]]
    codes = {f"r{r}c{c}": "M" for r, c in spaces}
    rows = drawn(BLANK_C, **codes)
    saved = save(session, t, seat, 0, rows, monsters=[{"ambush": "Gorgon Gaze", "spaces": spaces}])
    assert saved.gorgon
    t = reveal_to(session, t, season_end(t, 0))
    with pytest.raises(Refused) as waiting:
        scoring.score(session, t, seat, 0)
    assert (waiting.value.status, str(waiting.value)) == (409, GORGON_WAITS)
    assert waiting.value.remedy == SheetPage("sheet", 0)
    assert scoring.scored_season(session, t, seat, 0) is None
    sheet = ambushes.gorgon_sheet(session, t, seat, 0)
    assert sheet.map_text == "\n".join(rows) and sheet.revision == saved.sheet.revision  # nothing lost
    target = saved.gorgon[0]
    ambushes.apply_gorgon(session, t, sheet, sheet.revision, target)
    record = scoring.score(session, t, seat, 0)
    assert record.map_text.splitlines()[target[0]][target[1]] == "X"


def test_a_gaze_already_drawn_on_paper_is_named_not_drawn_again(session: Session) -> None:
    """The gaze comes "immediately after the Gorgon is drawn", so the paper
    sheet recorded at the season's end may already show its destroyed space.
    The player names that space: the map stays as it is, and the season scores."""
    t = new_table(session, ["Ann", "Ben"], edition="heroes", side="C", chosen=None)
    seat = t.seat(1)
    rows = drawn(BLANK_C, r10c0="M", r9c0="X", r5c5="X")
    tags = [{"ambush": "Gorgon Gaze", "spaces": [[10, 0]]}]
    assert save(session, t, seat, 0, rows, monsters=tags).gorgon == [(10, 1)]
    editing = table_sheets.open_for_editing(session, t, seat, 0)
    assert (editing.gorgon, editing.gorgon_drawn) == ([(10, 1)], [(9, 0)])  # not (5, 5): not next to it
    sheet = ambushes.gorgon_sheet(session, t, seat, 0)
    with pytest.raises(DrawingError):
        ambushes.apply_gorgon(session, t, sheet, sheet.revision, (5, 5))
    ambushes.apply_gorgon(session, t, sheet, sheet.revision, (9, 0))
    assert sheet.map_text == "\n".join(rows)
    assert table_sheets.open_for_editing(session, t, seat, 0).gorgon_drawn == []
    t = reveal_to(session, t, season_end(t, 0))
    assert scoring.score(session, t, seat, 0).map_text == "\n".join(rows)


def test_a_gorgon_with_nothing_to_destroy_lets_the_season_score(session: Session) -> None:
    """A Gorgon closed in by mountains and destroyed spaces has no gaze waiting."""
    t = new_table(session, ["Ann", "Ben"], edition="heroes", side="C", chosen=None)
    seat = t.seat(1)
    rows = drawn(BLANK_C, r10c0="M", r9c0="X", r10c1="X")
    tags = [{"ambush": "Gorgon Gaze", "spaces": [[10, 0]]}]
    assert save(session, t, seat, 0, rows, monsters=tags).gorgon == []
    t = reveal_to(session, t, season_end(t, 0))
    assert scoring.score(session, t, seat, 0).total is not None


def test_no_ambush_acts_after_winter(session: Session) -> None:
    """The rulebook: "some ambush cards have ongoing effects that resolve after
    scoring each season ... If the current season is winter, the game is now
    over." After winter's score no season starts from the map, so nothing is
    offered, and confirming is refused with a sentence."""
    t = new_table(session, ["Ann", "Ben"], edition="heroes", side="C", chosen=None)
    seat = t.seat(1)
    save(session, t, seat, 0, BLANK_C)
    for s in range(3):
        t = reveal_to(session, t, season_end(t, s) + 1)
        table_sheets.open_sheet(session, t, seat, s)
        scoring.score(session, t, seat, s)
    t = reveal_to(session, t, season_end(t, 3))
    tags = [
        {"ambush": "Zombie Plague", "spaces": [[0, 10]]},
        {"ambush": "Giant Troll Ravage", "spaces": [[10, 10]]},
    ]
    save(session, t, seat, 3, drawn(BLANK_C, r0c10="M", r10c10="M"), monsters=tags)
    scoring.score(session, t, seat, 3)
    page = scoring.scored_season(session, t, seat, 3)
    assert page is not None and page.effects is None
    winter = table_sheets.open_sheet(session, t, seat, 3)
    assert ambushes.pending_effects(t, winter) == []
    before = (winter.map_text, winter.revision, dict(winter.effects or {}))
    with pytest.raises(Refused) as refused:
        ambushes.confirm_effects(session, t, seat, 3, (9, 10))
    assert (refused.value.status, str(refused.value)) == (
        409,
        "Winter is the last season: the game ends once it is scored, so the Zombie Plague and the "
        "Giant Troll Ravage have no map left to change.",
    )
    assert refused.value.remedy == SheetPage("score", 3)
    assert (winter.map_text, winter.revision, dict(winter.effects or {})) == before


def test_the_zombies_spread_in_a_combined_game_without_hero_cards(session: Session) -> None:
    """ "Combining Games" may leave the hero cards out and keep the Heroes
    ambushes: the Zombie Plague still spreads after scoring ("after scoring
    each season, ..."), though no hero is drawn."""
    setup = deck.Setup(
        edition="combined",
        seed="table-layer-1",
        season_set="base",
        explore_set="base",
        heroes=False,
        ambushes=("Zombie Plague", "Goblin Attack", "Bugbear Assault", "Kobold Onslaught"),
        edicts="chosen",
        chosen=EASY_EDICTS,
    ).check()
    t = Table.of(hosting.set_up(session, setup, "A", ["Ann", "Ben"]).table)
    assert not t.heroes and t.ambush_effects
    seat = t.seat(1)
    tags = [{"ambush": "Zombie Plague", "spaces": [[0, 10]]}]
    save(session, t, seat, 0, drawn(BLANK_A, r0c10="M"), monsters=tags)
    t = reveal_to(session, t, season_end(t, 0) + 1)
    scoring.score(session, t, seat, 0)
    page = scoring.scored_season(session, t, seat, 0)
    assert page is not None and page.effects is not None
    assert page.effects.pending == ["Zombie Plague"] and page.effects.zombies == [(0, 9), (1, 10)]
    with pytest.raises(Refused):
        table_sheets.open_sheet(session, t, seat, 1)  # the spread first
    ambushes.confirm_effects(session, t, seat, 0, None)
    summer = table_sheets.open_sheet(session, t, seat, 1)
    assert summer.monsters == [{"ambush": "Zombie Plague", "spaces": [[0, 9], [0, 10], [1, 10]]}]
