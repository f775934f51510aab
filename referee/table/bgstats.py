"""Logging a finished game in BG Stats.

BG Stats takes a whole play as url-encoded JSON on one link,
``https://app.bgstatsapp.com/createPlay.html?data=...`` (its support page
"Push plays to BG Stats from other apps or websites"). Opening the link shows
BG Stats' own import dialog; it matches the game by its BoardGameGeek id and
each player by ``sourcePlayerId``, and remembers the matches for next time.

The play is built from the settled standings: each player's total, place and
victory (a shared victory marks every winner; a solo game has none), seat 1 as the start player,
the map side and the four edicts in the comments and, in a solo game, the
reputation score and title. The store keeps no time for each reveal, so the
play starts when the table was set up and lasts until its last reveal
(``GameTable.created_at`` and ``updated_at``, both UTC).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote

from referee.rules import deck
from referee.table.standings import Settled
from referee.table.state import Table

CREATE_PLAY_URL = "https://app.bgstatsapp.com/createPlay.html"
"""BG Stats' import link; the play goes in its ``data`` parameter."""

SOURCE_NAME = "Referee"
"""How BG Stats names the app a play came from."""

DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
"""``playDate`` as BG Stats reads it."""


@dataclass(frozen=True)
class BggGame:
    """One game as BoardGameGeek lists it."""

    name: str
    bgg_id: int
    source_id: str
    """Our own stable id for the game, so BG Stats matches it once."""


CARTOGRAPHERS = BggGame("Cartographers: A Roll Player Tale", 263918, "cartographers")
HEROES = BggGame("Cartographers Heroes", 315767, "cartographers-heroes")


def bgg_game(table: Table) -> BggGame:
    """The BoardGameGeek entry a play logs as: base and Heroes are separate
    entries, and a combined game is the one whose sheet side was used."""
    if table.setup.edition == "combined":
        return HEROES if table.side.game == "heroes" else CARTOGRAPHERS
    return HEROES if table.setup.edition == "heroes" else CARTOGRAPHERS


def comments(table: Table, settled: Settled) -> str:
    """The map side and the four edicts, and a solo game's reputation and title."""
    edicts = ", ".join(f"{letter} {table.deal.edicts[letter]}" for letter in deck.EDICT_LETTERS)
    lines = [f"Map side {table.side.letter} ({table.side.title}).", f"Edicts: {edicts}."]
    if settled.solo is not None:
        lines.append(f"Solo: reputation {settled.solo.rating}, {settled.solo.title}.")
    return "\n".join(lines)


def _minutes(start: datetime, end: datetime) -> int:
    return max(0, round((end - start).total_seconds() / 60))


def play_data(table: Table, settled: Settled) -> dict[str, Any] | None:
    """The play in BG Stats' import format, or None until the game is settled."""
    if not settled.standings:
        return None
    game = bgg_game(table)
    row = table.table
    final = {st.player.name: st for st in settled.standings}
    solo = settled.solo is not None
    players = []
    for seat in table.seats:
        standing = final[seat.name]
        players.append(
            {
                "name": seat.name,
                "sourcePlayerId": seat.name,
                "score": standing.player.total,
                "rank": standing.place,
                "winner": standing.winner and not solo,
                "startPlayer": seat.order == 0,
            }
        )
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"{row.code}-{row.created_at.strftime('%Y%m%d%H%M%S')}",
        "playDate": row.created_at.strftime(DATE_FORMAT),
        "durationMin": _minutes(row.created_at, row.updated_at),
        "comments": comments(table, settled),
        "game": {
            "name": game.name,
            "bggId": game.bgg_id,
            "sourceGameId": game.source_id,
            "highestWins": True,
            "noPoints": False,
        },
        "players": players,
    }


def play_url(data: dict[str, Any]) -> str:
    """The link that hands ``data`` to BG Stats: compact JSON, every reserved character escaped."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY_URL}?data={quote(text, safe='')}"


def bgstats_link(table: Table, settled: Settled) -> str | None:
    """The "Log this game in BG Stats" link once the game is settled, else None."""
    data = play_data(table, settled)
    return None if data is None else play_url(data)
