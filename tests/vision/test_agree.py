"""The squares of one sheet read together (``referee.vision.agree``), and the
confidence the reader shows for them (``reader._decide``)."""

from __future__ import annotations

import numpy as np

from referee.rules import terrain
from referee.rules.data import map_sides
from referee.vision.agree import agree, kin
from referee.vision.cells import CLASSES, UNSURE, Squares
from referee.vision.reader import _decide

FARM, MONSTER, EMPTY = (CLASSES.index(c) for c in (terrain.FARM, terrain.MONSTER, terrain.EMPTY))


def _sure(code: int, p: float = 0.95) -> np.ndarray:
    row = np.full(len(CLASSES), (1 - p) / (len(CLASSES) - 1), np.float32)
    row[code] = p
    return row


def _sheet(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """121 squares that each look like nothing else on the sheet, read surely as empty."""
    rng = np.random.default_rng(seed)
    looks = rng.normal(size=(121, 64)).astype(np.float32)
    looks /= np.linalg.norm(looks, axis=1, keepdims=True)
    probs = np.stack([_sure(EMPTY)] * 121)
    return probs, looks


def _drawn_alike(looks: np.ndarray, squares: list[int], seed: int = 1) -> None:
    """The ``squares`` drawn in one hand: their looks close together."""
    rng = np.random.default_rng(seed)
    centre = rng.normal(size=looks.shape[1])
    for i in squares:
        v = centre + rng.normal(scale=0.05, size=looks.shape[1])
        looks[i] = v / np.linalg.norm(v)


def test_a_square_drawn_like_the_sheets_farms_is_read_as_a_farm() -> None:
    """Four farms the networks are sure of, and a fifth drawn alike that
    they read, unsure, as a monster: read together, it is a farm."""
    probs, looks = _sheet()
    farms = [12, 30, 55, 77]
    doubted = 90
    _drawn_alike(looks, farms + [doubted])
    for i in farms:
        probs[i] = _sure(FARM)
    probs[doubted] = 0.02
    probs[doubted, MONSTER], probs[doubted, FARM] = 0.5, 0.34
    agreed = agree(Squares(probs, looks, probs[None]), range(121))
    assert agreed[doubted].argmax() == FARM
    assert all(agreed[i].argmax() == FARM for i in farms)
    assert np.allclose(agreed.sum(axis=1), 1.0, atol=1e-5)


def test_a_clear_drawing_is_not_outvoted() -> None:
    """A square the networks are sure of keeps its code, even where its
    likest fellows are all sure of another."""
    probs, looks = _sheet()
    _drawn_alike(looks, [1, 2, 3, 4, 5])
    for i in (1, 2, 3, 4):
        probs[i] = _sure(FARM)
    probs[5] = _sure(MONSTER, 0.9)
    agreed = agree(Squares(probs, looks, probs[None]), range(121))
    assert agreed[5].argmax() == MONSTER


def test_only_the_free_squares_take_part() -> None:
    """A printed space is the side's to decide: its probabilities are left
    as they are, and it lends none to the squares it looks like."""
    probs, looks = _sheet()
    _drawn_alike(looks, [10, 11, 12, 13, 14])
    for i in (10, 11, 12, 13):
        probs[i] = _sure(FARM)
    probs[14] = 0.02
    probs[14, MONSTER], probs[14, FARM] = 0.5, 0.34
    free = [i for i in range(121) if i not in (10, 11, 12, 13)]
    agreed = agree(Squares(probs, looks, probs[None]), free)
    assert np.array_equal(agreed[[10, 11, 12, 13]], probs[[10, 11, 12, 13]])
    assert agreed[14].argmax() == MONSTER


def test_the_sheet_may_mend_a_square_but_never_hides_a_doubt() -> None:
    """The code is the sheet's reading; the confidence shown is the lesser
    of the sheet's and the square's own, so a square the networks doubt
    alone is still outlined, and so is a square the sheet changed."""
    side = map_sides()["A"]
    free = [i for i in range(121) if side.printed(*divmod(i, 11)) == terrain.EMPTY]
    mended, doubted, plain = free[0], free[1], free[2]
    alone = np.stack([_sure(EMPTY)] * 121)
    alone[mended] = 0.02
    alone[mended, MONSTER], alone[mended, FARM] = 0.5, 0.34
    alone[doubted] = _sure(FARM, 0.6)
    agreed = alone.copy()
    agreed[mended] = _sure(FARM, 0.9)
    agreed[doubted] = _sure(FARM, 0.97)
    grid, conf = _decide(agreed, alone, side)
    at = [divmod(i, 11) for i in (mended, doubted, plain)]
    assert [grid[r][c] for r, c in at] == [terrain.FARM, terrain.FARM, terrain.EMPTY]
    assert conf[at[0][0]][at[0][1]] < UNSURE
    assert conf[at[1][0]][at[1][1]] < UNSURE
    assert conf[at[2][0]][at[2][1]] >= UNSURE


def test_a_code_drawn_once_keeps_its_reading() -> None:
    """A hero drawn once, in the farms' yellow: its likest squares are the
    farms, but theirs are each other, so it is read on its own."""
    hero = CLASSES.index(terrain.HERO)
    probs, looks = _sheet()
    farms = [20, 21, 22, 23, 24, 25, 26, 27]
    _drawn_alike(looks, farms)
    rng = np.random.default_rng(2)
    near_farms = looks[farms].mean(axis=0) + rng.normal(scale=0.04, size=looks.shape[1])
    looks[60] = near_farms / np.linalg.norm(near_farms)
    for i in farms:
        probs[i] = _sure(FARM)
    probs[60] = 0.02
    probs[60, hero], probs[60, FARM] = 0.5, 0.34
    agreed = agree(Squares(probs, looks, probs[None]), range(121))
    assert agreed[60].argmax() == hero


def test_no_more_heroes_than_the_game_allows() -> None:
    """Six squares look most like heroes. A map holds one hero space per hero
    card revealed (four in a whole game), so only the likeliest keep it, and
    each of the others is the likeliest of the rest, outlined as a guess."""
    hero = CLASSES.index(terrain.HERO)
    side = map_sides()["A"]
    free = [i for i in range(121) if side.printed(*divmod(i, 11)) == terrain.EMPTY]
    probs = np.stack([_sure(EMPTY)] * 121)
    looks_hero = free[:6]
    for n, i in enumerate(looks_hero):
        probs[i] = 0.01
        probs[i, hero], probs[i, FARM] = 0.9 - n * 0.05, 0.08
        probs[i] /= probs[i].sum()
    for heroes, kept in ((None, 4), (4, 4), (1, 1), (0, 0)):
        grid, conf = _decide(probs, probs, side, heroes=heroes)
        read = [grid[i // 11][i % 11] for i in looks_hero]
        assert read == [terrain.HERO] * kept + [terrain.FARM] * (6 - kept)
        assert all(conf[i // 11][i % 11] < UNSURE for i in looks_hero[kept:])
    no_heroes = frozenset(terrain.DRAWN - {terrain.HERO})
    grid, _ = _decide(probs, probs, side, no_heroes, heroes=0)
    assert [grid[i // 11][i % 11] for i in looks_hero] == [terrain.FARM] * 6


def test_no_more_monsters_than_the_ambushes_allow() -> None:
    """Five squares look most like monsters. Where the cards revealed allow
    two monster spaces, the two likeliest keep it and the others are the
    likeliest of the rest, outlined; with no bound given, all five stay."""
    side = map_sides()["A"]
    free = [i for i in range(121) if side.printed(*divmod(i, 11)) == terrain.EMPTY]
    probs = np.stack([_sure(EMPTY)] * 121)
    looks_monster = free[10:15]
    for n, i in enumerate(looks_monster):
        probs[i] = 0.01
        probs[i, MONSTER], probs[i, FARM] = 0.9 - n * 0.05, 0.08
        probs[i] /= probs[i].sum()
    for monsters, kept in ((None, 5), (2, 2), (0, 0)):
        grid, conf = _decide(probs, probs, side, monsters=monsters)
        read = [grid[i // 11][i % 11] for i in looks_monster]
        assert read == [terrain.MONSTER] * kept + [terrain.FARM] * (5 - kept)
        assert all(conf[i // 11][i % 11] < UNSURE for i in looks_monster[kept:])


def test_a_monster_past_its_bound_is_not_a_hero_past_its_own() -> None:
    """Seven squares look most like monsters, and next most like heroes (a
    photo of another sheet, or one drawn before the cards were revealed).
    Where three monster spaces and no hero space are possible, the four
    monsters past the bound are not heroes either: the bounds hold together."""
    hero = CLASSES.index(terrain.HERO)
    side = map_sides()["C"]
    free = [i for i in range(121) if side.printed(*divmod(i, 11)) == terrain.EMPTY]
    probs = np.stack([_sure(EMPTY)] * 121)
    looks_monster = free[10:17]
    for n, i in enumerate(looks_monster):
        probs[i] = 0.01
        probs[i, MONSTER], probs[i, hero], probs[i, FARM] = 0.8 - n * 0.05, 0.15, 0.04
        probs[i] /= probs[i].sum()
    for heroes, monsters, want in (
        (0, 3, "MMMAAAA"),
        (2, 3, "MMMAAHH"),  # the heroes likeliest among the rest
        (0, None, "MMMMMMM"),
        (None, 0, "AAAHHHH"),
    ):
        grid, conf = _decide(probs, probs, side, heroes=heroes, monsters=monsters)
        assert "".join(grid[i // 11][i % 11] for i in looks_monster) == want, (heroes, monsters)
        guessed = [i for i, code in zip(looks_monster, want, strict=True) if code != "M"]
        assert all(conf[i // 11][i % 11] < UNSURE for i in guessed)


def test_a_square_drawn_like_the_sheets_forests_but_apart_is_read_as_a_forest() -> None:
    """Twelve forests drawn alike and twelve farms: a thirteenth forest drawn
    a little apart (a lighter hand) is none of their likest, so it hears
    nothing from them as a fellow; read unsurely as a farm, it is still
    nearer the sheet's forests together than its farms, and is a forest."""
    forest = CLASSES.index(terrain.FOREST)
    probs, looks = _sheet()
    forests, farms, apart = list(range(20, 32)), list(range(40, 52)), 90
    _drawn_alike(looks, forests, seed=1)
    _drawn_alike(looks, farms, seed=2)
    for i in forests:
        probs[i] = _sure(forest)
    for i in farms:
        probs[i] = _sure(FARM)
    rng = np.random.default_rng(3)
    v = looks[forests].mean(axis=0) + rng.normal(scale=0.05, size=looks.shape[1])
    v /= np.linalg.norm(v)
    looks[apart] = 0.5 * v + 0.5 * looks[apart]
    looks[apart] /= np.linalg.norm(looks[apart])
    probs[apart] = 0.02
    probs[apart, FARM], probs[apart, forest] = 0.5, 0.34
    squares = Squares(probs, looks, probs[None])
    alone_fellows = [i for i in forests + farms if apart in np.argsort(((looks - looks[i]) ** 2).sum(1))[1:6]]
    assert alone_fellows == []
    agreed = agree(squares, range(121))
    assert agreed[apart].argmax() == forest
    assert all(agreed[i].argmax() == forest for i in forests)
    assert all(agreed[i].argmax() == FARM for i in farms)


def test_likenesses_weigh_nothing_when_the_sheet_shows_one_code_surely() -> None:
    """A likeness tells codes apart: a sheet read surely only as empty has
    one, and leaves every reading as it was."""
    probs, looks = _sheet()
    probs[7] = 0.02
    probs[7, FARM], probs[7, MONSTER] = 0.5, 0.34
    assert not kin(looks.astype(np.float64), probs.astype(np.float64)).any()
