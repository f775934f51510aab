"""The reader's stages on drawn pictures whose answer is known by construction:
the paper's colour across the sheet, grid lines beside a dark frame, and the
direction of pencil strokes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from referee.rules.geometry import SIZE
from referee.vision import cells, lines, rectify
from referee.vision.rectify import MARGIN, S


def _canvas_with_yellowing_paper() -> tuple[np.ndarray, list[tuple[int, int]], list[tuple[int, int]]]:
    """A canvas whose paper goes from white on the left to yellowed on the
    right, with some squares shaded in saturated blue and yellow pencil."""
    n = round((SIZE + 2 * MARGIN) * S)
    x = np.linspace(0.0, 1.0, n, dtype=np.float32)[None, :, None]
    paper = np.array([0.92, 0.9, 0.88], np.float32) * (1 - x * np.array([0.0, 0.06, 0.22], np.float32))
    img = np.broadcast_to(paper, (n, n, 3)).copy()
    m = round(MARGIN * S)
    blue = [(2, 2), (2, 3), (5, 8), (9, 9)]
    yellow = [(4, 4), (7, 1), (8, 9), (1, 9)]
    for squares, pencil in ((blue, (0.25, 0.45, 0.85)), (yellow, (0.95, 0.85, 0.2))):
        for r, c in squares:
            y0, x0 = m + r * S + 3, m + c * S + 3
            img[y0 : y0 + S - 6, x0 : x0 + S - 6] *= np.array(pencil, np.float32)
    return (np.clip(img, 0, 1) * 255).astype(np.uint8), blue, yellow


def _square_mean(light: np.ndarray, r: int, c: int) -> np.ndarray:
    m = round(MARGIN * S)
    return (
        light[m + r * S + 8 : m + (r + 1) * S - 8, m + c * S + 8 : m + (c + 1) * S - 8].reshape(-1, 3).mean(0)
    )


def test_yellowing_paper_is_evened_out_and_pencil_keeps_its_colour() -> None:
    canvas, blue, yellow = _canvas_with_yellowing_paper()
    light = cells.even_light(canvas)
    # bare squares at both ends of the sheet: grey, not yellow
    for r, c in [(0, 0), (6, 0), (0, 10), (6, 10), (10, 10), (3, 6)]:
        red, _, blue_ch = _square_mean(light, r, c)
        assert abs(red - blue_ch) < 0.03, (r, c, _square_mean(light, r, c))
    for r, c in yellow:
        red, _, blue_ch = _square_mean(light, r, c)
        assert red - blue_ch > 0.5, (r, c)
    for r, c in blue:
        red, _, blue_ch = _square_mean(light, r, c)
        assert blue_ch - red > 0.3, (r, c)


def _grid_photo(frame: int) -> tuple[np.ndarray, np.ndarray]:
    """A straight-on grid of 40 px squares in thin lines, with a dark frame
    ``frame`` px wide right outside its outer line, as the pad prints it,
    photographed a little soft."""
    u, pad = 40, 80
    side = SIZE * u + 2 * pad
    img = np.full((side, side, 3), 235, np.uint8)
    g0, g1 = pad, pad + SIZE * u
    if frame:
        # a frame band, darkest a few pixels out from the grid's outer line
        img[g0 - frame : g1 + frame, g0 - frame : g1 + frame] = 90
        img[g0 - 7 : g1 + 7, g0 - 7 : g1 + 7] = 30
        img[g0 - 3 : g1 + 3, g0 - 3 : g1 + 3] = 120
    img[g0:g1, g0:g1] = 235
    for k in range(SIZE + 1):
        img[g0:g1, g0 + k * u - 1 : g0 + k * u + 1] = 90
        img[g0 + k * u - 1 : g0 + k * u + 1, g0:g1] = 90
    corners = np.array([[g0, g0], [g1, g0], [g1, g1], [g0, g1]], np.float32) - 0.5
    return cv2.GaussianBlur(img, (0, 0), 3.0), corners  # a phone's optics


@pytest.mark.parametrize("frame", [0, 16])
def test_grid_lines_stay_put_beside_a_dark_frame(frame: int) -> None:
    """A frame is dark on one side all the way; it must not be taken for the
    grid's outer line and pull the inner lines off their places."""
    img, corners = _grid_photo(frame)
    canvas = rectify.rectify(img, corners).canvas
    dark = 255.0 - canvas.max(axis=2).astype(np.float32)
    m = round(MARGIN * S)
    band = dark[m + S : m + 10 * S]
    profile = band.mean(axis=0)
    for k in range(1, SIZE):
        x = m + k * S
        peak = x - 3 + int(np.argmax(profile[x - 3 : x + 4]))
        assert abs(peak - x) <= 1, (k, peak, x)
    # and the squares next to the frame are bare inside
    inner = cells._cells(cells.even_light(canvas))
    edge = [r * SIZE for r in range(SIZE)] + [r * SIZE + SIZE - 1 for r in range(SIZE)]
    assert float((1 - inner[edge]).max(axis=-1).mean()) < 0.03


def test_the_correction_surface_is_the_sum_of_its_terms() -> None:
    """``rectify._surface`` sums the cubic's terms in two small products,
    not term by term: the same surface to the last digits of a double."""
    rng = np.random.default_rng(3)
    t = np.clip(np.arange(60) / 60.0, 0.1, 0.9)
    yy, xx = np.meshgrid(t, t, indexing="ij")
    for _ in range(20):
        coef = rng.normal(scale=3.0, size=10)
        assert np.allclose(rectify._surface(coef, t), rectify._terms(xx, yy) @ coef, rtol=0, atol=1e-12)


def _stroke_square(vertical: bool, shift: int, darkness: float) -> np.ndarray:
    sq = np.zeros((cells.INNER, cells.INNER), np.float32)
    a = cells.INNER // 2 + shift
    if vertical:
        sq[3:-3, a - 1 : a + 1] = darkness
    else:
        sq[a - 1 : a + 1, 3:-3] = darkness
    return sq


def test_strokes_tell_upright_from_level_whatever_the_pressure() -> None:
    squares = np.stack(
        [
            _stroke_square(True, 0, 0.6),
            _stroke_square(True, 1, 0.25),
            _stroke_square(False, 0, 0.6),
        ]
    )
    f = cells._strokes(squares)
    hist = f[:, :-1]
    upright, light_upright, level = hist
    # a light stroke a pixel aside looks like a dark one, not like a level one
    assert np.abs(upright - light_upright).sum() < np.abs(upright - level).sum() / 2
    # the energy says how much pencil there is
    assert f[0, -1] > f[1, -1]


def test_mottled_paper_is_bare_and_a_dark_fill_stays_dark() -> None:
    """Paper whose brightness changes from square to square (stains, fibres,
    mottling) is still bare paper; a dark forest fill is still dark."""
    n = round((SIZE + 2 * MARGIN) * S)
    rng = np.random.default_rng(5)
    blotches = rng.uniform(0.88, 1.0, (6, 6)).astype(np.float32)
    shade = cv2.resize(blotches, (n, n), interpolation=cv2.INTER_CUBIC)
    img = np.repeat((0.93 * shade)[..., None], 3, axis=2)
    m = round(MARGIN * S)
    forest = (5, 5)
    y0, x0 = m + forest[0] * S + 2, m + forest[1] * S + 2
    img[y0 : y0 + S - 4, x0 : x0 + S - 4] *= np.array([0.25, 0.45, 0.3], np.float32)
    light = cells.even_light((np.clip(img, 0, 1) * 255).astype(np.uint8))
    taken = np.clip(1 - cells._cells(light), 0, 1).sum(axis=-1).reshape(SIZE * SIZE, -1).mean(axis=1)
    fill = forest[0] * SIZE + forest[1]
    bare = np.delete(taken, fill)
    assert float(np.percentile(bare, 90)) < cells.INKED
    assert taken[fill] > 1.2


def test_a_ruins_space_is_compared_with_the_plainest_one() -> None:
    """Every ruins space carries the same print; the one with a drawing on
    top differs from the plainest one there and nowhere else, and spaces
    that are not ruins get nothing."""
    from referee.rules.data import map_sides

    side = map_sides()["A"]
    n = round((SIZE + 2 * MARGIN) * S)
    light = np.ones((n, n, 3), np.float32)
    m = round(MARGIN * S)
    drawn = sorted(side.ruins)[2]
    for r, c in side.ruins:
        y0, x0 = m + r * S, m + c * S
        light[y0 + 8 : y0 + 12, x0 + 6 : x0 + 26] = 0.4  # the printed picture's lintel
        if (r, c) == drawn:
            light[y0 + 16 : y0 + 26, x0 + 14 : x0 + 24] = 0.3  # a player's mark below it
    x = cells.features(light, side)
    context = x[:, -cells.RUINS_CONTEXT :]
    ruins = {r * SIZE + c for r, c in side.ruins}
    for i in range(SIZE * SIZE):
        if i not in ruins:
            assert not context[i].any()
    d = drawn[0] * SIZE + drawn[1]
    plain = [i for i in ruins if i != d]
    extra = context[:, 6:]
    assert extra[d].sum() > 1.0
    assert all(extra[i].sum() < 1e-6 for i in plain)
    # the plainest one's ink is the same for every ruins space: the print
    assert np.allclose(context[sorted(ruins)][:, 0], context[d, 0])
    assert context[d, 0] > 0


def _ruins_sheet(print_colour: tuple[float, float, float]) -> tuple[np.ndarray, list[int]]:
    """Squares of map side A on near-white paper, every ruins space carrying
    the same printed lintel and column in ``print_colour``, the second one
    a pixel to the right."""
    from referee.rules.data import map_sides

    side = map_sides()["A"]
    rng = np.random.default_rng(3)
    squares = rng.uniform(0.97, 1.0, (SIZE * SIZE, cells.INNER, cells.INNER, 3)).astype(np.float32)
    ruins = [r * SIZE + c for r, c in sorted(side.ruins)]
    ink = np.array(print_colour, np.float32)
    for n, i in enumerate(ruins):
        dx = 1 if n == 1 else 0
        squares[i, 4:8, 3 + dx : 21 + dx] *= ink  # lintel
        squares[i, 8:20, 5 + dx : 9 + dx] *= ink  # column
    return squares, ruins


def test_the_printed_ruins_are_divided_out_and_the_pencil_kept() -> None:
    """Every ruins space carries the same grey print, one of them a pixel
    off; once the print is divided out, a ruins space holding only the print
    is bare paper, a player's mark keeps its colour, and its darkness where
    it crosses the print, and squares that are not ruins are untouched."""
    from referee.rules.data import map_sides

    side = map_sides()["A"]
    squares, ruins = _ruins_sheet((0.35, 0.35, 0.35))
    drawn = ruins[3]
    green = np.array([0.45, 0.8, 0.5], np.float32)
    squares[drawn, 12:22, 2:22] *= green  # a forest shaded across the column
    before = squares.copy()
    out = cells._unprinted(squares, side)
    assert np.array_equal(squares, before)  # the photo's squares are left as they were
    taken = np.clip(1 - out, 0, 1).sum(axis=-1)
    for i in ruins:
        if i != drawn:
            assert taken[i].max() < cells.INKED
    mark = out[drawn, 12:22, 12:22]  # off the print (its last pixel or two may go with it)
    assert np.allclose(mark.mean(axis=(0, 1)), green, atol=0.03)
    assert taken[drawn, 14:20, 6:8].mean() > 0.5  # where the shading lies on the column
    others = [i for i in range(SIZE * SIZE) if i not in ruins]
    assert np.array_equal(out[others], squares[others])


def test_a_brown_print_leaves_a_tint_not_its_shape() -> None:
    """A brown print is divided out as grey, as light as its lightest
    colour: what stays on its lines is much less than the print took."""
    from referee.rules.data import map_sides

    squares, ruins = _ruins_sheet((0.35, 0.3, 0.25))
    out = cells._unprinted(squares, map_sides()["A"])
    before = np.clip(1 - squares[ruins[0], 9:19, 6:8], 0, 1).sum(axis=-1).mean()
    after = np.clip(1 - out[ruins[0], 9:19, 6:8], 0, 1).sum(axis=-1).mean()
    assert after < before / 3


def test_a_coloured_print_seen_alone_twice_is_divided_out_in_its_colours() -> None:
    """A slate-blue print, held alone by most ruins spaces: divided out
    colour by colour, a space holding only the print is bare paper, with no
    blue left on its lines for a network to take for water; a forest shaded
    across the print keeps its green. Taken as grey, the print left the
    blue on its lines."""
    from referee.rules.data import map_sides

    side = map_sides()["A"]
    squares, ruins = _ruins_sheet((48 / 255, 60 / 255, 80 / 255))
    drawn = ruins[3]
    green = np.array([0.45, 0.8, 0.5], np.float32)
    squares[drawn, 12:22, 2:22] *= green
    out = cells._unprinted(squares, side)
    taken = np.clip(1 - out, 0, 1).sum(axis=-1)
    for i in ruins:
        if i != drawn:
            assert taken[i].max() < cells.INKED
    mark = out[drawn, 12:22, 12:22]
    assert np.allclose(mark.mean(axis=(0, 1)), green, atol=0.03)
    grey = squares[ruins[0]] / cells._print_of_ruins(squares[ruins]).max(axis=-1, keepdims=True)
    column = np.clip(1 - grey[9:19, 6:8], 0, 1)
    assert column[..., 0].mean() > 0.2 > column[..., 2].mean()  # red taken, blue left: a blue tint


def test_a_coloured_print_is_seen_alone_twice_under_uneven_light() -> None:
    """The same slate-blue print, each ruins space a few hundredths darker
    or lighter than the next, as the light evened block by block leaves
    them: compared pixel by pixel at their own light, two spaces still
    show the print alone, so it is divided out in its colours and leaves
    no blue on its lines, only each space's own light; a forest shaded
    across it keeps its green."""
    from referee.rules.data import map_sides

    squares, ruins = _ruins_sheet((48 / 255, 60 / 255, 80 / 255))
    drawn = ruins[3]
    green = np.array([0.45, 0.8, 0.5], np.float32)
    squares[drawn, 12:22, 2:22] *= green
    lights = (1.0, 0.92, 0.88, 0.85, 0.9, 0.87)
    for i, light in zip(ruins, lights, strict=True):
        squares[i] *= light
    out = cells._unprinted(squares, map_sides()["A"])
    for i, light in zip(ruins, lights, strict=True):
        if i != drawn:
            column = out[i, 9:19, 6:8].mean(axis=(0, 1))
            assert np.allclose(column, light, atol=0.03)  # no shape, no tint: the space's light alone
    mark = out[drawn, 12:22, 12:22].mean(axis=(0, 1))
    assert np.allclose(mark / mark.max(), green / green.max(), atol=0.03)
    # compared at the photo's light, the two brightest spaces part on most pixels
    brightest = np.sort(squares[ruins], axis=0)
    assert (np.abs(brightest[-1] - brightest[-2]).max(axis=-1) < cells.PRINT_ALIKE).mean() < 0.5


def test_shading_on_every_ruins_space_keeps_its_colour() -> None:
    """When every ruins space is shaded, each in green, red or yellow, the
    brightest of them is no bare paper anywhere in blue, and bluer in some
    rows than others (between one space's strokes, or none); the print is still
    taken as grey, so a green space stays green and is not turned blue."""
    from referee.rules.data import map_sides

    squares, ruins = _ruins_sheet((0.35, 0.35, 0.35))
    pencils = [(0.45, 0.8, 0.5), (0.9, 0.45, 0.45), (0.95, 0.9, 0.45)]
    for n, i in enumerate(ruins):
        pencil = np.array(pencils[n % 3], np.float32)
        strokes = np.where(np.arange(cells.INNER) % 8 == n, 0.5, 1.0)[:, None, None]
        squares[i] *= 1 - (1 - pencil) * strokes  # each space's strokes leave other rows lighter
    out = cells._unprinted(squares, map_sides()["A"])
    for i in ruins:
        off_print = out[i, 12:22, 12:22].mean(axis=(0, 1))
        assert np.allclose(off_print, squares[i, 12:22, 12:22].mean(axis=(0, 1)), atol=0.03)


@pytest.mark.parametrize("q", [99.5, 99.0, 90.0])
def test_a_high_percentile_is_numpys_to_the_bit(q: float) -> None:
    """``lines.high_percentile`` looks only among the largest values, and
    must give ``np.percentile``'s very number: on pictures of mostly zeros,
    of many ties, of few distinct values, and of smooth noise."""
    rng = np.random.default_rng(7)
    pictures = [
        np.sqrt(rng.random((300, 400), dtype=np.float32) * rng.random((300, 400), dtype=np.float32)),
        (rng.integers(0, 5, (250, 333)) / 4).astype(np.float32),
        np.where(rng.random((400, 300)) < 0.97, 0, rng.exponential(size=(400, 300)) ** 3).astype(np.float32),
        np.zeros((200, 200), np.float32),
        rng.random(999).astype(np.float32),  # too few to sample: numpy's own way
    ]
    pictures[3][5, 7] = 0.25  # one value above a sea of zeros
    for picture in pictures:
        assert lines.high_percentile(picture, q) == float(np.percentile(picture, q))
