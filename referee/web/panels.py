"""The part of a table page that changes with each reveal, rendered once per table and taps.

A thousand followers of one table are shown the same panel after each reveal:
the follower's and the TV's panels hold nothing of the person looking (no
token, no form) but their language. So each process keeps the last few
hundred of them, keyed by table (its code and id), view, taps, the deal's
version, the map side (a host may switch it before the first sheet is
saved) and the reader's language, and renders a panel only the first time
it is asked for: the event streams (``push``) and the panel route that
polling pages fetch (``dealer.panel``) share it. The host's panel carries
the host's token and a CSRF token, so it is rendered per request, never kept.
The small JSON state that polling pages fetch after a change is kept the same
way (it holds no words, so not per language).

Once winter has ended, every panel also shows the game's end as the players
score it: who is still to score winter, then the standings (the TV in place
of the last card; the phones say who is still to score in the season's end
box, with a link to the standings page). Those change with scores, not
reveals, so a kept panel's key holds them too, and the page asks for its
panel again while the game is over (``static/js/table.js``): no reveal, so
no event and no change of taps, brings them."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from flask import Flask, current_app, render_template

from referee.table import GameTable, Table, hosting
from referee.table.deal import map_side_of
from referee.table.standings import Settled, settle
from referee.web.database import get_session
from referee.web.i18n import language
from referee.web.present import view_of

SHARED_VIEWS = ("follow", "tv")
"""The views whose panel is the same for everyone who looks."""

SIZE = 512
"""Panels kept per process: two views of 256 tables at one reveal each, a few hundred KB."""

EXTENSION = "referee.panels"
STATES = "referee.states"

Key = tuple[Hashable, ...]


class PanelCache:
    """A bounded map from a key (a table, a view, taps) to the text shown for
    it, dropping the least recently used. ``renders`` counts the misses."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self.renders = 0
        self._panels: OrderedDict[Key, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Key, render: Callable[[], str]) -> str:
        """The panel for ``key``, rendered by ``render`` only if not kept. The
        render happens under the lock, so many pages asking at once after a
        reveal wait for one render instead of each doing their own."""
        with self._lock:
            html = self._panels.get(key)
            if html is not None:
                self._panels.move_to_end(key)
                return html
            html = render()
            self.renders += 1
            self._panels[key] = html
            if len(self._panels) > self.size:
                self._panels.popitem(last=False)
            return html


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = PanelCache(app.config.get("PANEL_CACHE_SIZE", SIZE))
    app.extensions[STATES] = PanelCache(app.config.get("PANEL_CACHE_SIZE", SIZE))


def cache_of(app: Flask) -> PanelCache:
    cache: PanelCache = app.extensions[EXTENSION]
    return cache


def final_standings(table: GameTable, shown: int) -> Settled | None:
    """What a table page shows of the game's end after ``shown`` reveals: once
    winter has ended, the standings as the table layer settles them for the
    standings page, or who is still to score. None before the game is over,
    and for a panel of another number of reveals than the table's (one the
    scores may not be the table's at)."""
    if shown != table.taps:
        return None
    t = Table.of(table)
    return settle(get_session(), t) if t.position.game_over else None


def standings_key(settled: Settled | None) -> Hashable:
    """What a kept panel shows of the game's end: who waits, and each
    player's seasons and monsters, from which the places and tiebreaks follow."""
    if settled is None:
        return None
    players = [(st.place, st.player.name, st.player.seasons, st.player.monsters) for st in settled.standings]
    return (tuple(settled.waiting), tuple(players))


def render_panel(table: GameTable, mode: str, taps: int | None = None, token: str | None = None) -> str:
    """The panel of ``table`` after ``taps`` reveals (by default its own) as
    ``mode`` shows it, in the request's language."""
    shown = table.taps if taps is None else taps
    settled = final_standings(table, shown)

    def render(**extra: object) -> str:
        view = view_of(table, shown)
        return render_template("dealer/_panel.html", v=view, mode=mode, token=token, settled=settled, **extra)

    if mode not in SHARED_VIEWS:  # the host's: its Undo is off when it would be refused
        return render(undo_kept=hosting.undo_kept(get_session(), table))
    key = (
        table.code,
        table.id,
        table.deal_version,
        map_side_of(table).letter,
        mode,
        shown,
        language(),
        standings_key(settled),
    )
    return cache_of(current_app).get(key, render)


def shared_state(code: str, table_id: int, taps: int, table: Callable[[], GameTable]) -> str:
    """The JSON state polling pages are sent after ``taps`` reveals, built once
    per table and taps; ``table`` loads the table when it must be built."""
    states: PanelCache = current_app.extensions[STATES]
    return states.get((code, table_id, taps), lambda: current_app.json.dumps(view_of(table(), taps).state()))
