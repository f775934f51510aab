"""The dealer's pages: set up a table, reveal cards as host, follow along.

Views stay thin: the form checks input, ``referee.table.hosting`` sets up and
advances a table (refusing a stale tap with 409), ``present`` turns the deal
into what a page shows. Pages are sent each reveal over an event stream
(``push``); when it fails they poll ``/api/t/<code>`` once a second, which
answers 304 while nothing changed (see ``static/js/table.js``). A follower's
and a TV's panel is rendered once per table and taps (``panels``).
"""

from __future__ import annotations

from collections.abc import Sequence

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from referee.rules import data, terrain
from referee.rules.i18n import _
from referee.table import GameTable, Table, find_table, hosting, normalise_code, progress, sides
from referee.web import svg
from referee.web.database import get_session
from referee.web.errors import wants_json
from referee.web.forms import MAP_GAME, SetupForm
from referee.web.inputs import field, form_number
from referee.web.panels import final_standings, render_panel, shared_state
from referee.web.present import CORNER_NAMES, DIRECTION_NAMES, KIND_NAMES, TableView, view_of
from referee.web.seats import host_cookie, set_cookie

bp = Blueprint("dealer", __name__)

VIEWS = ("host", "follow", "tv")


@bp.app_context_processor
def _helpers() -> dict[str, object]:
    return {
        "svg": svg,
        "terrain_names": terrain.LABELS,
        "kind_names": KIND_NAMES,
        "corner_names": CORNER_NAMES,
        "direction_names": DIRECTION_NAMES,
    }


@bp.route("/", methods=["GET", "POST"])
def home() -> ResponseReturnValue:
    form = SetupForm()
    if form.validate_on_submit():
        assert form.setup is not None
        new = hosting.set_up(
            get_session(), form.setup, form.map_side.data or "", form.names, form.printing_choice
        )
        if wants_json():  # a script sets up the table: it gets the links, not a page
            return set_up_answer(new.table.code, new.host_token)
        flash(
            str(
                _(
                    "Table %(code)s is ready. Keep this page's address: it is your host link.",
                    code=new.table.code,
                )
            )
        )
        return redirect(url_for("dealer.host", code=new.table.code, token=new.host_token), code=303)
    if request.method == "POST" and wants_json():
        return form_refusal(form)
    status = 400 if request.method == "POST" else 200
    return render_template("dealer/home.html", form=form, map_games=MAP_GAME), status


def set_up_answer(code: str, token: str) -> ResponseReturnValue:
    """201 with the new table's code and links, for a client that asked for
    JSON; the host link holds the host's token, as the page's address does."""
    host_url = url_for("dealer.host", code=code, token=token, _external=True)
    response = jsonify(
        code=code,
        host=host_url,
        follow=url_for("dealer.follow", code=code, _external=True),
        tv=url_for("dealer.tv", code=code, _external=True),
    )
    response.status_code = 201
    response.headers["Location"] = host_url
    return response


def form_refusal(form: SetupForm) -> ResponseReturnValue:
    """400 in JSON: the first refused field's sentence after the field's name
    (what a script sends), and every field's sentences by name."""
    fields = {name: [str(e) for e in errors] for name, errors in form.errors.items() if errors}
    first = next(iter(fields.items()), None)
    sentence = f"{first[0]}: {first[1][0]}" if first else str(_("The form could not be read."))
    return jsonify(error=sentence, status=400, fields=fields), 400


@bp.get("/join")
def join() -> ResponseReturnValue:
    code = normalise_code(request.args.get("code", ""))
    if not code:
        abort(400, str(_("Type the table's code: the letters and digits the host's screen shows.")))
    load(code)
    return redirect(url_for("dealer.follow", code=code), code=303)


def load(code: str) -> GameTable:
    """The table with this code, or 404/410 with a sentence (``referee.table.Refused``)."""
    return find_table(get_session(), code, current_app.config["TABLE_LIFETIME"])


def host_table(code: str, token: str | None) -> GameTable:
    """The table with this code, when ``token`` is its host token (else 403)."""
    table = load(code)
    if not table.is_host(token):
        abort(
            403,
            str(
                _(
                    "Only the host of this table can do that, and this host link is not the table's: "
                    "follow the table to see its cards."
                )
            ),
        )
    return table


def qr_svg(url: str) -> Markup:
    """The join link as an inline SVG QR code, for phones to scan off the host's screen."""
    qr = segno.make(url, error="m")
    return Markup(
        qr.svg_inline(
            border=2, dark="#000", light="#fff", omitsize=True, title=str(_("Join: %(url)s", url=url))
        )
    )


def render_table(
    view: TableView,
    mode: str,
    token: str | None = None,
    other_sides: Sequence[data.MapSide] = (),
    undo_kept: bool = False,
) -> str:
    """A table page: the host's (with the QR code, the map sides it may
    still switch to, and its Undo off when it would be refused), a
    follower's or the TV's."""
    join_url = url_for("dealer.follow", code=view.code, _external=True)
    return render_template(
        "dealer/table.html",
        v=view,
        mode=mode,
        token=token,
        join_url=join_url,
        qr=qr_svg(join_url) if mode == "host" else None,
        poll_ms=current_app.config["POLL_MS"],
        events_url=url_for("push.events", code=view.code, mode=mode),
        other_sides=other_sides,
        undo_kept=undo_kept,
        settled=final_standings(view.table, view.taps),
    )


@bp.get("/t/<code>")
def follow(code: str) -> ResponseReturnValue:
    return render_table(view_of(load(code)), "follow")


@bp.get("/t/<code>/tv")
def tv(code: str) -> ResponseReturnValue:
    return render_table(view_of(load(code)), "tv")


@bp.get("/t/<code>/host/<token>")
def host(code: str, token: str) -> ResponseReturnValue:
    """The host page. Opening it makes this phone the host's on the sheets
    too, as the host link promises, however the host reaches them next (a
    sheet's own address, the join code typed in), not only through this
    page's Map sheets and scores."""
    table = host_table(code, token)
    other_sides = sides.other_sides(get_session(), table)
    kept = hosting.undo_kept(get_session(), table)
    response = make_response(render_table(view_of(table), "host", token, other_sides, kept))
    set_cookie(response, host_cookie(table.code), token, table.code)
    return response


@bp.get("/t/<code>/panel")
def panel(code: str) -> ResponseReturnValue:
    """The part of a table page that changes with each reveal."""
    mode = request.args.get("mode", "follow")
    if mode not in VIEWS:
        abort(400, str(_("A table page is shown for the host, a follower or a TV.")))
    token = request.args.get("token")
    table = host_table(code, token) if mode == "host" else load(code)
    response = Response(render_panel(table, mode, token=token))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/api/t/<code>")
def state(code: str) -> ResponseReturnValue:
    """What followers poll: 304 while ``taps`` is unchanged (ETag), else the state."""
    poll = hosting.poll(get_session(), code)  # 404 with its sentence
    etag = f"{poll.table_id}-{poll.taps}"
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        body = shared_state(normalise_code(code), poll.table_id, poll.taps, lambda: load(code))
        response = Response(body, mimetype="application/json")
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


MAX_TAPS = 10_000
"""Far more reveals and undos than any deal has cards."""


def _seen() -> int:
    return form_number(
        "taps", MAX_TAPS, str(_("The page did not say which card it was showing; reload it and try again."))
    )


def _moved(table: GameTable) -> ResponseReturnValue:
    """After a reveal or undo: the new state to a script, the host page to a browser."""
    if wants_json():
        return jsonify(view_of(table).state())
    return redirect(url_for("dealer.host", code=table.code, token=field("host")), code=303)


@bp.post("/t/<code>/reveal")
@bp.post("/api/t/<code>/reveal")
def reveal(code: str) -> ResponseReturnValue:
    table = host_table(code, field("host"))
    hosting.reveal(get_session(), table, _seen())
    return _moved(table)


@bp.get("/t/<code>/before-next")
def before_next(code: str) -> ResponseReturnValue:
    """What the host's page asks before starting the next season (JSON ``ask``,
    null when nothing): asked at the tap, so that it names the sheets still
    unscored then, not when the page was drawn."""
    table = host_table(code, request.args.get("host"))
    ask = progress.before_next_season(get_session(), Table.of(table))
    response = jsonify(ask=None if ask is None else str(ask))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/t/<code>/undo")
@bp.post("/api/t/<code>/undo")
def undo(code: str) -> ResponseReturnValue:
    table = host_table(code, field("host"))
    hosting.undo(get_session(), table, _seen())
    return _moved(table)


@bp.post("/t/<code>/side")
def side(code: str) -> ResponseReturnValue:
    """Switch the table to another map side, while nobody has saved a sheet."""
    table = host_table(code, field("host"))
    sides.change_side(get_session(), table, field("side") or "")
    letter = table.setup["map_side"]
    if wants_json():
        return jsonify(map_side=letter)
    flash(
        str(
            _(
                "Table %(code)s now plays map side %(side)s. Sheets already open show side %(side)s "
                "once their page is reloaded.",
                code=table.code,
                side=letter,
            )
        )
    )
    return redirect(url_for("dealer.host", code=table.code, token=field("host")), code=303)
