"""Counted words in sentences for players: "1 row", "3 rows".

Every message that puts a number before a noun goes through ``plural``, so
no player reads "1 rows" or "1 doubtful squares" (the engine's map parser,
the scoring cards' explanations and the command line share it).
"""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 forest space', '3 forest spaces'; ``many`` for irregular plurals."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
