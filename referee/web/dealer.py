"""The dealer's pages: set up a table, reveal cards as host, follow along.

Views stay thin: the form checks input, ``referee.store.tables`` advances a
table with a conditional UPDATE, ``present`` turns the deal into what a page
shows. Followers poll ``/api/t/<code>`` once a second; it answers 304 while
nothing changed (see ``static/js/table.js``).
"""

from __future__ import annotations

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from referee.rules import terrain
from referee.store import GameTable
from referee.store import tables as store
from referee.store.models import utcnow
from referee.web import svg
from referee.web.database import get_session
from referee.web.errors import wants_json
from referee.web.forms import SetupForm
from referee.web.present import TableView, dealt, setup_of, view_of

bp = Blueprint("dealer", __name__)

VIEWS = ("host", "follow", "tv")


@bp.app_context_processor
def _helpers() -> dict[str, object]:
    return {"svg": svg, "terrain_names": terrain.NAMES}


@bp.route("/", methods=["GET", "POST"])
def home() -> ResponseReturnValue:
    form = SetupForm()
    if form.validate_on_submit():
        assert form.setup is not None
        setup = form.setup
        dealt(setup)  # refuse now, not on the first page view, if it cannot be dealt
        stored = {"deal": setup.to_dict(), "map_side": form.map_side.data}
        table, token = store.create_table(get_session(), stored, setup.version, form.names)
        flash(f"Table {table.code} is ready. Keep this page's address: it is your host link.")
        return redirect(url_for("dealer.host", code=table.code, token=token), code=303)
    status = 400 if request.method == "POST" else 200
    return render_template("dealer/home.html", form=form), status


@bp.get("/join")
def join() -> ResponseReturnValue:
    code = store.normalise_code(request.args.get("code", ""))
    if not code:
        abort(400, "Type the table's code: the letters and digits the host's screen shows.")
    load(code)
    return redirect(url_for("dealer.follow", code=code), code=303)


def load(code: str) -> GameTable:
    """The table with this code, or 404/410 with a sentence."""
    table = store.find_table(get_session(), code)
    if table is None:
        abort(404, f"No table has the code {store.normalise_code(code)[:16]}; check it with the host.")
    lifetime = current_app.config["TABLE_LIFETIME"]
    if table.updated_at < utcnow() - lifetime:
        abort(
            410, f"Table {table.code} expired after {lifetime.days} days without a reveal; start a new one."
        )
    return table


def host_table(code: str, token: str | None) -> GameTable:
    table = load(code)
    if not table.is_host(token):
        abort(403, "Only the host of this table can do that; open the host link to reveal cards.")
    return table


def qr_svg(url: str) -> Markup:
    qr = segno.make(url, error="m")
    return Markup(qr.svg_inline(border=2, dark="#000", light="#fff", omitsize=True, title=f"Join: {url}"))


def render_table(view: TableView, mode: str, token: str | None = None) -> str:
    join_url = url_for("dealer.follow", code=view.code, _external=True)
    return render_template(
        "dealer/table.html",
        v=view,
        mode=mode,
        token=token,
        join_url=join_url,
        qr=qr_svg(join_url) if mode == "host" else None,
        poll_ms=current_app.config["POLL_MS"],
    )


@bp.get("/t/<code>")
def follow(code: str) -> ResponseReturnValue:
    return render_table(view_of(load(code)), "follow")


@bp.get("/t/<code>/tv")
def tv(code: str) -> ResponseReturnValue:
    return render_table(view_of(load(code)), "tv")


@bp.get("/t/<code>/host/<token>")
def host(code: str, token: str) -> ResponseReturnValue:
    return render_table(view_of(host_table(code, token)), "host", token)


@bp.get("/t/<code>/panel")
def panel(code: str) -> ResponseReturnValue:
    """The part of a table page that changes with each reveal."""
    mode = request.args.get("mode", "follow")
    if mode not in VIEWS:
        abort(400, "A table page is shown for the host, a follower or a TV.")
    token = request.args.get("token")
    table = host_table(code, token) if mode == "host" else load(code)
    response = Response(render_template("dealer/_panel.html", v=view_of(table), mode=mode, token=token))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/api/t/<code>")
def state(code: str) -> ResponseReturnValue:
    """What followers poll: 304 while ``taps`` is unchanged (ETag), else the state."""
    row = store.peek(get_session(), code)
    if row is None:
        load(code)  # the 404 with its sentence
        abort(404)
    table_id, taps, _updated = row
    etag = f"{table_id}-{taps}"
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        response = jsonify(view_of(load(code)).state())
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


def _seen() -> int:
    raw = request.form.get("taps", "")
    if not raw.isdigit():
        abort(400, "The page did not say which card it was showing; reload it and try again.")
    return int(raw)


def _moved(table: GameTable) -> ResponseReturnValue:
    if wants_json():
        get_session().expire_all()
        return jsonify(view_of(load(table.code)).state())
    return redirect(url_for("dealer.host", code=table.code, token=request.form.get("host")), code=303)


@bp.post("/t/<code>/reveal")
@bp.post("/api/t/<code>/reveal")
def reveal(code: str) -> ResponseReturnValue:
    table = host_table(code, request.form.get("host"))
    seen = _seen()
    total = dealt(setup_of(table)).turn_count()
    if seen >= total and table.taps >= total:
        abort(409, "The game is over: winter has ended and there are no more cards to reveal.")
    if seen != table.taps or not store.move(get_session(), table.id, seen, 1, total):
        abort(409, "That card was already revealed (a second tap or another tab); the page now shows it.")
    return _moved(table)


@bp.post("/t/<code>/undo")
@bp.post("/api/t/<code>/undo")
def undo(code: str) -> ResponseReturnValue:
    table = host_table(code, request.form.get("host"))
    seen = _seen()
    if seen == 0 and table.taps == 0:
        abort(409, "There is nothing to undo: no card has been revealed yet.")
    total = dealt(setup_of(table)).turn_count()
    if seen != table.taps or not store.move(get_session(), table.id, seen, -1, total):
        abort(
            409, "The table changed in the meantime (another tab or tap); the page now shows where it stands."
        )
    return _moved(table)
