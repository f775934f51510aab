"""How plainly each square's grid lines show (``referee.vision.covered``)."""

from __future__ import annotations

import numpy as np

from referee.rules.geometry import SIZE
from referee.vision.covered import line_contrast
from referee.vision.rectify import MARGIN, S, canvas_side

PAPER = (236, 228, 208)
SEPIA = (120, 90, 60)


def plain_sheet() -> np.ndarray:
    """A straightened canvas of cream paper with sepia grid lines, two pixels
    wide, where ``rectify`` puts them."""
    n = canvas_side(S)
    canvas = np.empty((n, n, 3), np.uint8)
    canvas[:] = PAPER
    m = round(MARGIN * S)
    for k in range(SIZE + 1):
        at = m + S * k
        canvas[at : at + 2, m : m + SIZE * S + 1] = SEPIA
        canvas[m : m + SIZE * S + 1, at : at + 2] = SEPIA
    return canvas


def _square(canvas: np.ndarray, row: int, col: int) -> tuple[slice, slice]:
    m = round(MARGIN * S)
    return slice(m + row * S, m + (row + 1) * S), slice(m + col * S, m + (col + 1) * S)


def test_every_side_of_a_plain_sheet_shows_its_line() -> None:
    sides = line_contrast(plain_sheet())
    assert sides.shape == (SIZE * SIZE, 4)
    assert np.allclose(sides, sides[0, 0])
    assert sides.min() > 0.3  # sepia on cream: about half the light


def test_a_hand_over_squares_hides_their_lines_and_no_others() -> None:
    canvas = plain_sheet()
    m = round(MARGIN * S)
    # a skin-coloured hand over the squares of rows 4 to 6, columns 3 to 5, and a little beyond
    canvas[m + 4 * S - 6 : m + 7 * S + 6, m + 3 * S - 6 : m + 6 * S + 6] = (205, 160, 130)
    faintest = line_contrast(canvas).min(axis=1).reshape(SIZE, SIZE)
    assert (faintest[4:7, 3:6] < 0.05).all()
    plain = np.ones((SIZE, SIZE), bool)
    plain[3:8, 2:7] = False  # the covered squares and their neighbours, whose shared line is hidden
    assert (faintest[plain] > 0.3).all()


def test_colour_pencil_leaves_the_lines_it_crosses_darker_than_the_paper() -> None:
    """Shading spills over a square's lines onto its neighbours, darkening
    the paper on both sides: the lines still show."""
    canvas = plain_sheet()
    rows, cols = _square(canvas, 5, 5)
    shaded = slice(rows.start - 4, rows.stop + 4), slice(cols.start - 4, cols.stop + 4)
    canvas[shaded] = (canvas[shaded] * np.array([0.55, 0.75, 0.95])).astype(np.uint8)  # blue pencil
    sides = line_contrast(canvas)
    assert sides[5 * SIZE + 5].min() > 0.5 * sides[0].min()


def test_a_shadow_dims_the_lines_with_the_paper() -> None:
    """Darker over half the sheet, lines and paper alike: each line is still
    as much darker than the paper beside it."""
    canvas = plain_sheet()
    canvas[:, : canvas.shape[1] // 2] = (canvas[:, : canvas.shape[1] // 2] * 0.5).astype(np.uint8)
    sides = line_contrast(canvas)
    assert np.allclose(sides, line_contrast(plain_sheet()), atol=0.02)
