"""Why a photo's reading shows something else where the game's limits chose
a square's code (``readings.limits_said``): the player whose drawn monster
shows as a village is told which of the table's cards kept it off the map."""

from __future__ import annotations

from sqlalchemy.orm import Session

from referee.table import readings
from tests.table.conftest import new_table, reveal_to
from tests.table.test_readings import _table_with_heroes


def _said(t: object, limited: list[tuple[int, int, str]], s: int = 0) -> list[str]:
    return [str(said) for said in readings.limits_said(t, s, limited)]  # type: ignore[arg-type]


def test_a_base_game_draws_no_hero_and_destroys_nothing(session: Session) -> None:
    t = new_table(session, ["Ann", "Ben"], seed="sheet-test-1", chosen=None)
    assert _said(t, [(0, 0, "H"), (2, 3, "X"), (4, 4, "H")]) == [
        "The photo read 2 squares as “hero” (row 1, column 1; row 5, column 5), but this game has no "
        "hero cards: they show the reader's second guesses, outlined.",
        "The photo read 1 square as “destroyed” (row 3, column 4), but nothing in this game destroys "
        "a space: it shows the reader's second guess, outlined.",
    ]
    assert _said(t, []) == []
    # a code no limit of the game keeps off a map (the reader never lists one): said plainly
    assert "but this game's cards do not draw it:" in _said(t, [(0, 0, "F")])[0]


def test_monsters_are_bound_by_the_cards_revealed_so_far(session: Session) -> None:
    """This deal's spring opens with Rift Lands (one monster square at most)
    and then the Gnoll Raid (a five-space monster): none, one, then six."""
    t = new_table(session, ["Ann", "Ben"], seed="sheet-test-1", chosen=None)
    first_two = [r.name for turn in t.deal.seasons[0].turns[:2] for r in turn.reveals]
    assert first_two == ["Rift Lands", "Gnoll Raid"]
    monster = [(3, 6, "M")]
    assert _said(t, monster) == [
        "The photo read 1 square as “monster” (row 4, column 7), but no card revealed so far draws "
        "a monster: it shows the reader's second guess, outlined."
    ]
    t = reveal_to(session, t, 1)
    assert _said(t, monster + [(5, 1, "M")]) == [
        "The photo read 2 squares as “monster” (row 4, column 7; row 6, column 2), but the cards "
        "revealed so far allow at most 1 monster space: they show the reader's second guesses, outlined."
    ]
    t = reveal_to(session, t, 2)
    assert "allow at most 6 monster spaces:" in _said(t, monster)[0]
    # more than three squares: the outlines on the map say where, the sentence only why
    assert _said(t, [(r, 0, "M") for r in range(7)]) == [
        "The photo read 7 squares as “monster”, but the cards revealed so far allow at most 6 monster "
        "spaces: they show the reader's second guesses, outlined."
    ]


def test_hero_spaces_are_bound_by_the_hero_cards_revealed(session: Session) -> None:
    t = _table_with_heroes(session, 1)
    hero = [(6, 6, "H")]
    assert _said(t, hero) == [
        "The photo read 1 square as “hero” (row 7, column 7), but no hero card has been revealed "
        "yet: it shows the reader's second guess, outlined."
    ]
    turns = [{r.kind for r in turn.reveals} for turn in t.deal.seasons[0].turns]
    t = reveal_to(session, t, next(i for i, kinds in enumerate(turns) if "hero" in kinds) + 1)
    assert _said(t, hero) == [
        "The photo read 1 square as “hero” (row 7, column 7), but the hero cards revealed so far "
        "allow at most 1 hero space: it shows the reader's second guess, outlined."
    ]
