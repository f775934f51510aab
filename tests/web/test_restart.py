"""A table lives only in the database: a new app on the same file (a server
restart) finds it where it was, mid-season."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from referee.rules import deck
from referee.web.database import engine_of
from tests.web.conftest import act, create_table, make_app


def test_a_table_survives_a_restart(app: Flask, db_path: Path, tmp_path: Path) -> None:
    client = app.test_client()
    code, token, _ = create_table(client, seed="calm-heron-250")
    for taps in range(4):
        assert act(client, code, token, "reveal", taps).status_code == 303
    before = client.get(f"/api/t/{code}").get_json()
    engine_of(app).dispose()

    restarted = make_app(f"sqlite:///{db_path}", tmp_path)
    again = restarted.test_client()
    after = again.get(f"/api/t/{code}").get_json()
    assert after == before
    game = deck.deal(deck.Setup("base", "calm-heron-250"))
    position = game.position(4)
    assert after["taps"] == 4 and after["time"] == position.time
    assert after["season"] == game.seasons[position.season_index].name
    # The host link still works and the next reveal continues the same deal.
    nxt = act(again, code, token, "reveal", 4, Accept="application/json").get_json()
    flat = [t for s in game.seasons for t in s.turns]
    assert nxt["turn"] == [r.name for r in flat[4].reveals]
