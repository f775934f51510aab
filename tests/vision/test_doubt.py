"""How sure the reader is of each square, weighed with its sheet
(``referee.vision.doubt``), and the script that fits the weighing
(``tools/train_doubt.py``)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from referee.rules import terrain
from referee.rules.data import map_sides
from referee.vision import doubt
from referee.vision.cells import CLASSES, Squares
from referee.vision.doubt import CLUES, DRAWN, chance_right, clues, doubtful_line
from referee.vision.reader import _free_spaces, read_sheet, read_with_clues
from tests.scripts import load_script

FARM, EMPTY = CLASSES.index(terrain.FARM), CLASSES.index(terrain.EMPTY)
LINES = np.full((121, 4), 0.4, np.float32)
"""Every square's four grid lines as plain as each other (``covered``)."""


def _sheet(
    sure: float = 0.98, networks: int = 3, looks: np.ndarray | None = None
) -> tuple[Squares, np.ndarray, list[str], np.ndarray, list[int]]:
    """A sheet of bare squares but the first row, farms, every square read
    alike by ``networks`` networks at ``sure``; squares lie close in the
    networks' hidden layer to those of their code, unless ``looks`` says."""
    probs = np.full((121, len(CLASSES)), (1 - sure) / (len(CLASSES) - 1), np.float32)
    probs[:, EMPTY] = sure
    probs[:11, EMPTY] = probs[0, FARM]
    probs[:11, FARM] = sure
    if looks is None:
        rng = np.random.default_rng(1)
        looks = rng.normal(0, 0.05, (121, 4)).astype(np.float32)
        looks[:11, 0] += 1.0
        looks[11:, 1] += 1.0
    grid = ["A" * 11] + ["." * 11] * 10
    shown = np.full(121, sure, np.float64)
    squares = Squares(probs, looks, np.repeat(probs[None], networks, axis=0))
    return squares, probs, grid, shown, list(range(121))


def test_a_row_of_clues_for_each_free_square_in_order() -> None:
    squares, probs, grid, shown, free = _sheet()
    rows = clues(squares, probs, grid, shown, free[5:], LINES)
    assert rows.shape == (116, len(CLUES))
    code = rows[:, CLUES.index("code_A") : CLUES.index("code_A") + 1].ravel()
    assert code.tolist() == [1.0] * 6 + [0.0] * 110  # squares 5 to 10 are farms
    assert np.isfinite(rows).all()


def test_a_farm_that_looks_like_bare_paper_is_far_from_its_own_code() -> None:
    """The clue ``like_own``: a square read as a farm that, to the networks,
    looks like the sheet's bare squares lies far from the other farms."""
    squares, probs, grid, shown, free = _sheet()
    looks = squares.looks.copy()
    looks[3] = looks[50]  # square 3 is read as a farm but looks bare
    odd = Squares(squares.probs, looks, squares.each)
    rows = clues(odd, probs, grid, shown, free, LINES)
    own, other = CLUES.index("like_own"), CLUES.index("like_other")
    assert rows[3, own] > 2 * rows[4, own]
    assert rows[3, other] < rows[4, other]


def test_neighbours_and_sheet_are_read_from_the_free_squares_only() -> None:
    squares, probs, grid, shown, _free = _sheet()
    shown[13] = 0.2  # the square right below square 2
    free = [i for i in range(121) if i != 1]  # square 1 is printed
    rows = clues(squares, probs, grid, shown, free, LINES)
    near_mean, near_least = CLUES.index("near_mean"), CLUES.index("near_least")
    row = free.index(2)
    assert rows[row, near_least] == pytest.approx(np.log(0.2 / 0.8))
    # square 2's free neighbours: 3, 12, 13, 14 (square 1 is printed)
    mean = (3 * 0.98 + 0.2) / 4
    assert rows[row, near_mean] == pytest.approx(np.log(mean / (1 - mean)))
    assert rows[0, CLUES.index("sheet_unsure")] == pytest.approx(1 / 120)


def test_a_square_whose_lines_are_hidden_is_less_sure() -> None:
    """Square 60, read as surely as before, but with something lying over
    it that hides one of its grid lines (a hand, a pencil): the clue
    ``faintest_line`` falls to its least, and the square is less likely
    right."""
    squares, probs, grid, shown, free = _sheet(sure=0.999)
    covered = LINES.copy()
    covered[60, 2] = 0.0
    plain_rows = clues(squares, probs, grid, shown, free, LINES)
    covered_rows = clues(squares, probs, grid, shown, free, covered)
    faintest = CLUES.index("faintest_line")
    assert plain_rows[60, faintest] == pytest.approx(0.0)  # as plain as the sheet's usual line
    assert covered_rows[60, faintest] == pytest.approx(np.log(doubt.LINE_RANGE[0]))
    assert chance_right(covered_rows)[60] < chance_right(plain_rows)[60]


def test_the_shipped_weighing_fits_the_clues() -> None:
    with resources.files("referee.vision").joinpath("doubt.json").open("rb") as f:
        model = json.load(f)
    assert model["clues"] == list(CLUES)
    assert len(model["hidden_weights"]) == len(model["mean"]) == len(model["scale"]) == len(CLUES)
    hidden = {len(model["hidden_bias"]), len(model["weights"])}
    assert {len(row) for row in model["hidden_weights"]} == hidden and len(hidden) == 1
    assert 0.5 < doubtful_line() < 1.0
    # fitted on what the shipped networks make of the squares: refit it when they change
    assert model["networks"] == load_script("tools/train_doubt.py").networks_fingerprint()


def test_a_clear_square_on_a_clear_sheet_is_not_doubtful() -> None:
    """Clear as the networks read a plain square: two thirds of the fitting
    draw's squares at 0.999 or surer. (Squares they read at 0.97 to 0.99
    are wrong one time in a hundred there, and a farm among them, on a
    sheet of farms and bare squares, may well be asked about: a bare square
    read as a farm is the commonest mistake.)"""
    squares, probs, grid, shown, free = _sheet(sure=0.999)
    chance = chance_right(clues(squares, probs, grid, shown, free, LINES))
    assert (chance >= doubtful_line()).all()


def test_a_square_is_less_sure_where_its_networks_part() -> None:
    """Bare square 60, read surely by every network, then with one of them
    seeing a farm there, the networks' mean and the square's own confidence
    falling with it."""
    squares, probs, grid, shown, free = _sheet(sure=0.999)
    before = chance_right(clues(squares, probs, grid, shown, free, LINES))[60]
    each = squares.each.copy()
    each[0, 60, EMPTY], each[0, 60, FARM] = 0.3, 0.69
    mean = each.mean(axis=0)
    parted_shown = shown.copy()
    parted_shown[60] = mean[60, EMPTY]
    parted = Squares(mean, squares.looks, each)
    after = chance_right(clues(parted, mean, grid, parted_shown, free, LINES))[60]
    assert after < before


def test_a_square_is_less_sure_on_a_sheet_read_unsurely() -> None:
    """The same square, read alike, on a sheet whose other squares the
    networks doubt (a blurred or dim photo) is less likely right."""
    squares, probs, grid, shown, free = _sheet()
    unsure = shown.copy()
    unsure[::2] = 0.55
    unsure[60] = shown[60]
    clear_sheet = chance_right(clues(squares, probs, grid, shown, free, LINES))[60]
    blurred_sheet = chance_right(clues(squares, probs, grid, unsure, free, LINES))[60]
    assert blurred_sheet < clear_sheet


def test_a_stale_weighing_is_refused() -> None:
    doubt._model.cache_clear()
    real = resources.files("referee.vision").joinpath("doubt.json").read_text()
    stale = json.loads(real)
    stale["clues"] = stale["clues"][:-1]
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(json, "load", lambda _f: stale)
            with pytest.raises(RuntimeError, match="train_doubt"):
                doubtful_line()
    finally:
        doubt._model.cache_clear()


def test_the_fit_finds_a_known_relation() -> None:
    """``tools/train_doubt.py``'s fit recovers the chance of being right
    from clues that decide it."""
    tool = load_script("tools/train_doubt.py")
    rng = np.random.default_rng(4)
    x = rng.normal(0, 1, (20000, len(CLUES)))
    truth = 1 / (1 + np.exp(-(2.0 * x[:, 0] - 1.0 * x[:, 4] + 1.5)))
    right = rng.random(20000) < truth
    model = tool.fit(x, right)
    assert model["clues"] == list(CLUES)
    assert np.abs(chance_right(x, model) - truth).mean() < 0.05  # a constant chance is 0.25 off
    assert len(DRAWN) == sum(c.startswith("code_") for c in CLUES)


def test_the_fit_weighs_clues_together() -> None:
    """A square is right when two clues agree in sign: no sum of the clues
    says that, and the fitted network does."""
    tool = load_script("tools/train_doubt.py")
    rng = np.random.default_rng(5)
    x = rng.normal(0, 1, (20000, len(CLUES)))
    truth = np.where(x[:, 0] * x[:, 4] > 0, 0.97, 0.1)
    right = rng.random(20000) < truth
    chance = chance_right(x, tool.fit(x, right))
    assert np.abs(chance - truth).mean() < 0.1
    assert chance[right].mean() > chance[~right].mean() + 0.4


def test_each_draw_is_weighed_by_a_weighing_not_fitted_on_it() -> None:
    """Two draws where a clue says the opposite: a weighing fitted on the
    other draw alone is sure of each draw's wrong squares and doubts its
    right ones, where one fitted on both would say nothing either way."""
    tool = load_script("tools/train_doubt.py")
    rng = np.random.default_rng(8)
    x = rng.normal(0, 1, (8000, len(CLUES)))
    draw = np.repeat(np.arange(2), 4000)
    right = np.where(draw == 0, x[:, 0] > 0, x[:, 0] < 0)
    apart = tool.weighed_apart(x, right, draw)
    assert apart[right].mean() < 0.2
    assert apart[~right].mean() > 0.8


@pytest.mark.parametrize(
    ("flagged", "false_alarms", "wrong_under", "right_under"),
    [
        (0.9, 0.03, 0.9, None),  # nine in ten of the wrong cost more false alarms than allowed
        (0.5, 0.03, None, 0.03),  # the false alarms allowed flag more than half the wrong
    ],
)
def test_the_line_flags_the_wrong_squares_asked_or_the_false_alarms_allowed(
    flagged: float, false_alarms: float, wrong_under: float | None, right_under: float | None
) -> None:
    tool = load_script("tools/train_doubt.py")
    rng = np.random.default_rng(6)
    right = rng.random(40000) < 0.97
    chance = np.where(right, rng.beta(12, 1, 40000), rng.beta(2, 2, 40000))
    cut = tool.line(chance, right, flagged, false_alarms)
    if wrong_under is not None:
        assert np.mean(chance[~right] < cut) == pytest.approx(wrong_under, abs=0.01)
        assert np.mean(chance[right] < cut) > false_alarms
    if right_under is not None:
        assert np.mean(chance[right] < cut) == pytest.approx(right_under, abs=0.003)
        assert np.mean(chance[~right] < cut) > flagged


def test_a_code_the_game_chose_is_never_made_surer_than_the_networks_read_it() -> None:
    """Sample 006 read for a game in which no monster may be drawn yet: its
    monsters become the likeliest of the other codes, a guess the weighing
    (fitted on readings no game limited) must not make look sure."""
    sample = Path(__file__).parents[2] / "sample_sheets" / "006.jpg"
    side = json.loads(sample.with_suffix(".json").read_text())["side"]
    data = sample.read_bytes()
    plain, _rows, overruled = read_with_clues(data, side, monsters=0)
    weighed = read_sheet(data, side, monsters=0)
    free = _free_spaces(map_sides()[side])
    chosen = [i for i, limited in zip(free, overruled, strict=True) if limited]
    assert chosen
    mine, theirs = np.ravel(weighed.confidence), np.ravel(plain.confidence)
    assert all(mine[i] <= theirs[i] < doubtful_line() for i in chosen)
    assert weighed.grid == plain.grid


def test_the_reading_lists_each_square_the_game_chose_with_what_was_seen_there() -> None:
    """Sample 006 read with no monster allowed, and with no limit: the reading
    lists each square whose code differs, with the code read without limits,
    so that the player can be told which limit chose it."""
    sample = Path(__file__).parents[2] / "sample_sheets" / "006.jpg"
    side = json.loads(sample.with_suffix(".json").read_text())["side"]
    data = sample.read_bytes()
    bound, unbound = read_sheet(data, side, monsters=0), read_sheet(data, side)
    assert unbound.limited == ()
    seen = "".join(unbound.grid)
    differ = [(i // 11, i % 11, seen[i]) for i, code in enumerate("".join(bound.grid)) if code != seen[i]]
    assert differ and {code for _r, _c, code in differ} == {"M"}
    assert bound.limited == tuple(differ)


def test_a_square_is_told_how_many_of_its_neighbours_share_its_code() -> None:
    """The clue ``same_around``: the share of a square's neighbours on the map
    (four, fewer at the edge) read as its code. Players draw shapes of
    several squares, so a code no neighbour shares is more often misread."""
    squares, probs, grid, shown, free = _sheet()
    grid[5] = ".....A....."  # a lone farm, square 60, among bare squares
    grid[0] = "A^AAAAAAAAA"  # a printed mountain, square 1, in the row of farms
    rows = clues(squares, probs, grid, shown, [i for i in free if i != 1], LINES)
    same = CLUES.index("same_around")

    def at(square: int) -> float:
        return float(rows[square - (square > 1), same])

    assert at(60) == 0.0
    assert at(61) == pytest.approx(3 / 4)  # bare beside the lone farm
    assert at(5) == pytest.approx(2 / 3)  # farms either side, bare below
    assert at(0) == 0.0  # the printed mountain beside it, bare below
    assert at(2) == pytest.approx(1 / 3)  # the printed mountain, a farm, bare below
    assert at(120) == 1.0  # the bottom right corner, bare among bare


def test_a_drawn_square_no_neighbour_shares_is_less_sure() -> None:
    """The shipped weighing reads ``same_around`` as its draws taught it: a
    farm read as surely as its row's, but with no farm beside it, is
    less likely right than one in the middle of the row of farms."""
    squares, probs, grid, shown, free = _sheet(sure=0.97)
    rows = clues(squares, probs, grid, shown, free, LINES)
    same = CLUES.index("same_around")
    alone = rows[5:6].copy()
    alone[0, same] = 0.0
    assert rows[5, same] == pytest.approx(2 / 3)
    assert chance_right(alone)[0] < chance_right(rows[5:6])[0]
