"""How plainly each square's grid lines show: a hand, a pencil or coins
lying on the sheet hide the lines under them.

The networks learned to name what is drawn in a square, and under a hand
they still name something, at times surely: squares under something lying
on the sheet are the likeliest to be read wrong (on the three draws the
weighing is fitted on, 38 % of the wrong squares lay on the one photo in
twenty with something over the grid). A person checking the reading sees
at once that those squares cannot be seen. What tells them apart on the
straightened grid is the printed lines:
every drawing is made between them, and colour pencil darkens the paper on
both sides of a line while the line stays darker still, whereas a thing
lying on the sheet hides it. So each side of each square is measured as
how much darker its line is than the paper a few pixels either side, and
``doubt`` weighs a square's faintest side against the sheet's usual line
(a pale print or a dim photo has faint lines everywhere).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from referee.rules.geometry import SIZE
from referee.vision.pixels import channel_max
from referee.vision.rectify import MARGIN, S

BESIDE = 5
"""Canvas pixels from a line's place to the paper it is compared with: past
the line's width and the local correction's last pixel or two, within the
square's own paper."""
ENDS = 5
"""Canvas pixels left out at each end of a square's side, where the crossing
line lies."""


def _along(light: NDArray[np.float32]) -> NDArray[np.float32]:
    """For each line across the rows of ``light`` (the grid's 12), how much
    darker than the paper beside it it is along each of the 11 squares it
    bounds (12 x 11): one minus the line's light over the paper's, the
    median along the square's side. The line is taken as the darkest of the
    three pixels at its place, the paper as the lighter side."""
    m = round(MARGIN * S)
    at = m + S * np.arange(SIZE + 1)
    line = np.minimum(np.minimum(light[at - 1], light[at]), light[at + 1])
    paper = np.maximum(light[at - BESIDE], light[at + BESIDE])
    dark = 1.0 - line / np.maximum(paper, 1.0)
    sides = dark[:, m : m + SIZE * S].reshape(SIZE + 1, SIZE, S)[:, :, ENDS : S - ENDS]
    return np.asarray(np.median(sides, axis=2), np.float32)


def line_contrast(canvas: NDArray[np.uint8]) -> NDArray[np.float32]:
    """Each square's four sides (121 x 4: top, bottom, left, right, row by row
    from the top left), as how much darker the grid line there is than the
    paper beside it, on the straightened ``canvas`` (``rectify``). Measured on
    each pixel's brightest channel, which a colour pencil darkens least."""
    light = channel_max(canvas).astype(np.float32)
    rows, cols = _along(light), _along(np.ascontiguousarray(light.T))
    return np.stack([rows[:-1], rows[1:], cols[:-1].T, cols[1:].T], axis=-1).reshape(SIZE * SIZE, 4)
