"""Errors the engine raises, each carrying a sentence a player can act on."""

from __future__ import annotations


class RefereeError(ValueError):
    """Base of every error whose message is meant for a person."""


class MapError(RefereeError):
    """A map text that is not a legal map of its side: wrong size, an unknown
    code, or a printed mountain or wasteland missing or added. ``row`` and
    ``col`` (0-based) name the space when there is one."""

    def __init__(self, message: object, row: int | None = None, col: int | None = None):
        super().__init__(message)
        self.row = row
        self.col = col


class UnknownCardError(RefereeError):
    """A card name that is not printed on any card of either game."""


class ScoringError(RefereeError):
    """Scoring input that cannot be scored: a coin count off the track, a
    season that does not exist, an edict with no card."""


class DrawingError(RefereeError):
    """A drawing the rules do not allow: a hero on a filled space, a space
    destroyed that the ambush does not let you destroy, a monster tag on a
    space that holds no monster."""
