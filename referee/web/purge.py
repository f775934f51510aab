"""``flask --app referee purge``: delete the tables that have expired.

An expired table answers 410 but its rows stay until this runs; each table
in play is some 20 KB, so a hall's server runs it now and then (cron, a
systemd timer) to keep the database the size of the games still open. The
lifetime is the app's ``TABLE_LIFETIME`` (``REFEREE_TABLE_DAYS``); the
table layer owns the query. The command line speaks English: its counted
words go through ``referee.rules.i18n`` as the ``score`` command's do.
"""

from __future__ import annotations

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from referee.rules.i18n import ngettext
from referee.table.state import purge_expired
from referee.web.database import get_session


@click.command("purge")
@with_appcontext
def purge_command() -> None:
    """Delete tables idle longer than REFEREE_TABLE_DAYS, with their seats, sheets and scores."""
    lifetime = current_app.config["TABLE_LIFETIME"]
    deleted = purge_expired(get_session(), lifetime)
    tables = ngettext("%(num)d table", "%(num)d tables", deleted)  # outside the f-string: pybabel finds them
    days = ngettext("%(num)d day", "%(num)d days", lifetime.days)
    click.echo(f"Deleted {tables} idle for more than {days}, with their seats, sheets and scores.")


def init_app(app: Flask) -> None:
    """Add the ``purge`` command."""
    app.cli.add_command(purge_command)
