"""Why a photo reads unsure: what the player can change in the next one.

When so many squares are doubtful that the reader asks for another photo
(``SheetReading.worth_retaking``), a player told only to take another may
take the same one again. Such photos are mostly hard ones (on a training
draw, seed 93000, 19 of the 22 asked for again were among its photos made
dim, shaded, blurred, steeply tilted, covered or pale on purpose), and
four of those faults leave their own mark on the straightened grid, which
a person sees at a glance:

- something lying on the sheet hides the printed lines under it, over a
  patch of squares side by side (``covered.line_contrast``);
- a dark photo's paper is grey, not white;
- a shadow or a lamp from one side leaves the paper bright in one place
  and dark in another;
- a blurred photo's lines barely stand out from the paper anywhere.

Each cause is named only where its mark is plain, so that what the player
is told to change is what spoiled the photo; where none is, the player
gets the general advice.

The four lines below were chosen on a training draw of hard photos
only (``--seed 31000 --hard 1``), where each photo's truth says what was
done to it. On a training draw's 317 ordinary photos (seed 93000), each
side's printed wastelands left out (``causes``' ``printed``), 5 have
eight hidden squares side by side (the 95th percentile has 4), 3 have
their brightest paper under 150 (the 5th percentile is 174), 4 a light
twice as bright in one place as in another (the 95th percentile is 1.82)
and 27 lines under 0.2 (the 5th percentile is 0.17): which is why a cause
is named only on a reading that asks for another photo
(``SheetReading.retake_causes``), where 3 of those 317 do.
"""

from __future__ import annotations

from collections.abc import Collection
from enum import StrEnum

import numpy as np
from numpy.typing import NDArray

from referee.rules.geometry import SIZE, Cell
from referee.rules.i18n import Text, _
from referee.vision.covered import line_contrast
from referee.vision.pixels import channel_max
from referee.vision.rectify import MARGIN, S


class Cause(StrEnum):
    """What spoiled a photo, in the order the player is told."""

    COVERED = "covered"
    DARK = "dark"
    UNEVEN = "uneven"
    BLURRED = "blurred"


ADVICE: dict[Cause, Text] = {
    Cause.COVERED: _("something seems to lie over part of the sheet: move it away"),
    Cause.DARK: _("the photo is dark: take it in brighter light"),
    Cause.UNEVEN: _(
        "the light falls unevenly, as from a shadow or a lamp to one side: light the whole sheet alike"
    ),
    Cause.BLURRED: _(
        "the grid's lines look blurred: hold the phone still, straight over the sheet, and let it focus"
    ),
}
"""What the player is told to change for each cause."""

HIDDEN_LINE = 0.25
"""A square's faintest side stands out from the paper less than this share
of the sheet's usual line: its line is hidden. Pencil darkens the paper on
both sides of a line and leaves the line darker still (``covered``), so
only something lying on it hides it this far."""
COVERED_PATCH = 8
"""Hidden squares side by side (corners touching count) from which
something is said to lie on the sheet: a pencil across it hides a row of
eight or more, a finger or a hand a patch, while a blurred or shaded
photo's faintest lines are more often scattered."""
DARK_PAPER = 150
"""Light (of 255, each pixel's brightest colour) under which the grid's
brightest paper is dark: the brightest tenth of its squares' paper."""
UNEVEN_LIGHT = 2.0
"""How many times brighter the grid's brightest paper may be than its
darkest (each the twentieth of its squares' paper from that end) before
the light is said to be uneven."""
BLURRED_LINES = 0.2
"""Share of the paper's light by which the sheet's usual line stands out
under which the lines are blurred: a blurred photo spreads a thin line's
darkness over its paper."""


def causes(canvas: NDArray[np.uint8], printed: Collection[Cell] = ()) -> tuple[Cause, ...]:
    """What spoiled the photo whose straightened grid is ``canvas``
    (``rectify``), each cause whose mark on it is plain, in ``Cause``'s
    order; none when no mark is.

    ``printed``: the squares the sheet prints over, lines and all (the
    side's wastelands, which a pad may print solid): their lines are hidden
    and their paper dark on every photo of the side, which says nothing of
    what lies on it or of the light."""
    lines = line_contrast(canvas)
    usual = max(float(np.median(lines)), 1e-3)
    blank = np.ones(SIZE * SIZE, bool)
    blank[[r * SIZE + c for r, c in printed]] = False
    paper = _paper(canvas)[blank]
    hidden = (lines.min(axis=1) / usual < HIDDEN_LINE) & blank
    found = []
    if _largest_patch(hidden) >= COVERED_PATCH:
        found.append(Cause.COVERED)
    if np.percentile(paper, 90) < DARK_PAPER:
        found.append(Cause.DARK)
    if np.percentile(paper, 95) >= UNEVEN_LIGHT * max(float(np.percentile(paper, 5)), 1.0):
        found.append(Cause.UNEVEN)
    if usual < BLURRED_LINES:
        found.append(Cause.BLURRED)
    return tuple(found)


def _paper(canvas: NDArray[np.uint8]) -> NDArray[np.float64]:
    """Each square's paper light (121): the light of its brightest tenth of
    pixels, which is paper wherever a player's pencil leaves any."""
    m = round(MARGIN * S)
    light = channel_max(canvas[m : m + SIZE * S, m : m + SIZE * S]).astype(np.float32)
    squares = light.reshape(SIZE, S, SIZE, S).transpose(0, 2, 1, 3).reshape(SIZE * SIZE, S * S)
    return np.asarray(np.percentile(squares, 90, axis=1), np.float64)


def _largest_patch(hidden: NDArray[np.bool_]) -> int:
    """The most ``hidden`` squares (121, row by row) joined side by side or
    corner to corner. A walk over the 121 squares rather than OpenCV's
    labelling: ``bench/retake_causes.py`` names the causes in the process
    that forks its readers, folder after folder, and with OpenCV's labelling
    run there its second folder's readers hung, as forks of a process whose
    OpenCV threads have started may."""
    left = {i for i in range(SIZE * SIZE) if hidden[i]}
    largest = 0
    while left:
        todo = [left.pop()]
        size = 0
        while todo:
            r, c = divmod(todo.pop(), SIZE)
            size += 1
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    j = (r + dr) * SIZE + c + dc
                    if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE and j in left:
                        left.remove(j)
                        todo.append(j)
        largest = max(largest, size)
    return largest
