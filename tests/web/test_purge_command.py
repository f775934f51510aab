"""``flask --app referee purge`` deletes the expired tables and says how many."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask

from referee.store.models import utcnow
from referee.table import find_table
from referee.web.database import get_session
from tests.web.conftest import create_table


def test_the_purge_command_deletes_expired_tables_and_says_how_many(app: Flask) -> None:
    client = app.test_client()
    expired, _, _ = create_table(client, seed="purge-1")
    kept, _, _ = create_table(client, seed="purge-2")
    with app.app_context():
        table = find_table(get_session(), expired, app.config["TABLE_LIFETIME"])
        table.updated_at = utcnow() - timedelta(days=31)
        get_session().commit()
    assert client.get(f"/t/{expired}").status_code == 410

    result = app.test_cli_runner().invoke(args=["purge"])
    assert result.exit_code == 0, result.output
    assert result.output == (
        "Deleted 1 table idle for more than 30 days, with their seats, sheets and scores.\n"
    )
    assert client.get(f"/t/{expired}").status_code == 404
    assert client.get(f"/t/{kept}").status_code == 200
    again = app.test_cli_runner().invoke(args=["purge"])
    assert again.output.startswith("Deleted 0 tables idle for more than 30 days")
