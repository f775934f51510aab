"""Refusals of the sheet reader, each a sentence telling the player what to do."""

from __future__ import annotations

from referee.rules.errors import RefereeError
from referee.rules.i18n import Text


class VisionError(RefereeError):
    """A photo the reader cannot read; the message says why and what to do."""


class NotAnImageError(VisionError):
    """The upload is not a photo the reader can open."""


class TooLargeError(NotAnImageError):
    """The upload has too many bytes or too many pixels; a smaller photo will do."""


class NoGridError(VisionError):
    """No map grid was found in the photo."""


class BlackAndWhiteError(VisionError):
    """The photo has no colour at all (a black-and-white filter, a scan in
    grey): coloured pencils cannot be told apart in it, and no marking of
    the grid brings their colours back."""


class WrongSheetError(VisionError):
    """A grid was found but it does not match the printed side."""


class OtherSideError(WrongSheetError):
    """The grid was found, and its printed mountains are another side's: the
    table's side or the sheet is the wrong one, not the grid. ``other`` is
    that side's letter, so a page can say what to do at its table."""

    def __init__(self, message: Text | str, other: str) -> None:
        super().__init__(message)
        self.other = other


Corners = tuple[tuple[float, float], ...]
"""A grid's four outer corners in photo pixels (as displayed)."""


class TwoSheetsError(WrongSheetError):
    """The photo shows the grids of two map sheets of the side, such as a
    neighbour's beside the player's: which is the player's is not the
    reader's guess to make. ``grids`` are both grids' corners, the one the
    search found first first, so that a page can offer each to choose."""

    def __init__(self, message: Text | str, grids: tuple[Corners, ...] = ()) -> None:
        super().__init__(message)
        self.grids = grids
