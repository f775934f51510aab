"""The sheet pages: claim a seat, draw the map, score each season, settle the game.

Thin views over ``sheet_play``: they find the table, check who may change a
sheet and render. A phone that claims a seat keeps the seat's secret in a
cookie; the host's phone keeps the host token in one (set by opening the
sheets page from the host link), and may change every sheet.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from flask import Blueprint, Response, abort, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from referee.rules import data, heroes, season
from referee.rules.errors import RefereeError
from referee.rules.geometry import SIZE, where
from referee.store.models import GameTable, Seat
from referee.web import sheet_play as play
from referee.web.database import get_session
from referee.web.dealer import load
from referee.web.present import SEASON_NAMES

bp = Blueprint("sheets", __name__)

COOKIE_DAYS = 60


def sentence(text: str) -> str:
    """The engine's message as a sentence: a capital first letter and a full stop."""
    text = text.strip()
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


@bp.errorhandler(RefereeError)
def _refused(error: RefereeError) -> ResponseReturnValue:
    """A refused sheet: its own status, or 400 for input the rules do not allow."""
    from referee.web.errors import answer

    status = error.status if isinstance(error, play.SheetRefused) else 400
    return answer(status, sentence(str(error)))


# --- who may change a sheet -------------------------------------------------------------------------


def _host_cookie(code: str) -> str:
    return f"host_{code}"


def _seat_cookie(code: str) -> str:
    return f"seat_{code}"


def is_host(table: GameTable) -> bool:
    return table.is_host(request.cookies.get(_host_cookie(table.code)))


def my_seat(table: GameTable) -> Seat | None:
    """The seat this phone claimed, if its secret still matches."""
    raw = request.cookies.get(_seat_cookie(table.code), "")
    order, _, token = raw.partition(".")
    if not order.isdigit():
        return None
    for seat in table.seats:
        if seat.order == int(order) and seat.holds(token):
            return seat
    return None


def may_change(table: GameTable, seat: Seat) -> bool:
    return is_host(table) or my_seat(table) is seat


def require_change(table: GameTable, seat: Seat) -> None:
    if not may_change(table, seat):
        abort(
            403,
            f"Only {seat.name} or the host can change {seat.name}'s sheet; "
            "claim your own seat on this phone from the table's sheets page.",
        )


def _table(code: str) -> play.Table:
    return play.Table.of(load(code))


def for_change(code: str, number: int, season: str) -> tuple[play.Table, Seat, int]:
    """The table, the seat and the season index of a request that changes a
    sheet, refused unless this phone holds the seat or is the host's."""
    t = _table(code)
    seat = t.seat(number)
    require_change(t.table, seat)
    return t, seat, t.season_index(season)


def _set_cookie(response: Response, name: str, value: str, code: str) -> None:
    response.set_cookie(
        name,
        value,
        max_age=COOKIE_DAYS * 86400,
        path=f"/t/{code}",
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )


# --- seats -------------------------------------------------------------------------------------------


@bp.get("/t/<code>/sheets")
def seats(code: str) -> ResponseReturnValue:
    t = _table(code)
    token = request.args.get("host")
    if token is not None:
        if not t.table.is_host(token):
            abort(403, "That host link is not this table's; open the link the host page gave you.")
        response = redirect(url_for("sheets.seats", code=t.table.code), code=303)
        _set_cookie(response, _host_cookie(t.table.code), token, t.table.code)
        return response
    session = get_session()
    scores = play.scores_by_seat(session, t)
    return render_template(
        "sheets/seats.html",
        t=t,
        host=is_host(t.table),
        mine=my_seat(t.table),
        scores=scores,
        season_names=[SEASON_NAMES[s] for s in play.SEASONS],
        current=play.SEASONS[t.current],
    )


@bp.post("/t/<code>/seats/<int:number>/claim")
def claim(code: str, number: int) -> ResponseReturnValue:
    t = _table(code)
    seat = t.seat(number)
    if seat.token_hash is not None and not is_host(t.table) and my_seat(t.table) is not seat:
        abort(
            403,
            f"{seat.name}'s seat is already claimed on another phone; the host can hand it to this one.",
        )
    token = seat.issue_token()
    get_session().commit()
    response = redirect(url_for("sheets.editor", code=t.table.code, number=number), code=303)
    _set_cookie(response, _seat_cookie(t.table.code), f"{seat.order}.{token}", t.table.code)
    return response


# --- the grid editor ---------------------------------------------------------------------------------


@bp.get("/t/<code>/sheets/<int:number>")
def editor(code: str, number: int) -> ResponseReturnValue:
    t = _table(code)
    t.seat(number)
    return redirect(url_for("sheets.edit", code=t.table.code, number=number, season=play.SEASONS[t.current]))


def _editor_config(t: play.Table, seat: Seat, sheet: Any, s: int) -> dict[str, Any]:
    themap = play.map_of(t, sheet)
    side = t.side
    return {
        "map": themap.text().replace("\n", ""),
        "printed": "".join(side.printed(r, c) for r in range(SIZE) for c in range(SIZE)),
        "ruins": sorted(r * SIZE + c for r, c in side.ruins),
        "coins": sheet.coins,
        "track": side.coin_track,
        "monsters": sheet.monsters or [],
        "heroes": sheet.heroes or [],
        "revision": sheet.revision,
        "heroesGame": t.heroes,
        "ambushes": t.ambushes(),
        "initials": {a.name: (a.initial or a.name[0]) for a in data.ambush_cards()},
        "heroPatterns": play.hero_patterns() if t.heroes else {},
        "orientations": [o.value for o in heroes.Orientation],
        "saveUrl": url_for("sheets.save", code=t.table.code, number=seat.order + 1, season=play.SEASONS[s]),
        "soloUrl": url_for(
            "sheets.solo_help", code=t.table.code, number=seat.order + 1, season=play.SEASONS[s]
        )
        if t.solo
        else None,
        "warning": season.coin_warning(themap, sheet.coins),
    }


@bp.get("/t/<code>/sheets/<int:number>/<season>")
def edit(code: str, number: int, season: str) -> ResponseReturnValue:
    return editor_page(code, number, season)


def editor_page(code: str, number: int, season: str, **extra: Any) -> str:
    """The editor page; ``extra`` goes to the template (``reading`` and
    ``photo_error`` from the photo reader, ``photo.py``)."""
    t = _table(code)
    seat = t.seat(number)
    s = t.season_index(season)
    session = get_session()
    sheet = play.open_sheet(session, t, seat, s)
    config = _editor_config(t, seat, sheet, s)
    config.update(extra.pop("config", {}))
    targets = play.gorgon_pending(t, sheet)
    return render_template(
        "sheets/editor.html",
        t=t,
        seat=seat,
        s=s,
        season=season,
        season_name=SEASON_NAMES[season],
        sheet=sheet,
        config=config,
        can_change=may_change(t.table, seat),
        scored=play.find_score(session, seat, s) is not None,
        ended=t.ended(s),
        gorgon=[(r * SIZE + c, where(r, c)) for r, c in targets],
        edicts=[(letter, t.deal.edicts[letter]) for letter in t.season_card(s).edicts],
        ambushes_now=t.ambushes_revealed(s),
        **extra,
    )


def _json() -> Any:
    payload = request.get_json(silent=True)
    if payload is None:
        abort(400, "The page sent nothing the referee could read; reload it and try again.")
    return payload


@bp.post("/t/<code>/sheets/<int:number>/<season>")
def save(code: str, number: int, season: str) -> ResponseReturnValue:
    t, seat, s = for_change(code, number, season)
    session = get_session()
    sheet = play.find_sheet(session, seat, s)
    if sheet is None:
        abort(409, "This season's sheet does not exist yet; reload the page.")
    if play.find_score(session, seat, s + 1) is not None if s < 3 else False:
        abort(409, "A later season has been scored; this season's map can no longer change.")
    saved = play.save(session, t, sheet, _json())
    config = _editor_config(t, seat, saved.sheet, s)
    return jsonify(
        revision=saved.sheet.revision,
        map=config["map"],
        coins=saved.sheet.coins,
        monsters=config["monsters"],
        heroes=config["heroes"],
        warning=config["warning"],
        messages=saved.messages,
        gorgon=bool(play.gorgon_pending(t, saved.sheet)),
    )


@bp.post("/t/<code>/sheets/<int:number>/<season>/solo")
def solo_help(code: str, number: int, season: str) -> ResponseReturnValue:
    t = _table(code)
    t.seat(number)
    t.season_index(season)
    if not t.solo:
        abort(400, "The ambush helper is for solo games; at a table your neighbour draws the monster.")
    payload = _json()
    return jsonify(play.solo_help(t, payload.get("map"), payload.get("ambush")))


def _space(raw: str | None) -> tuple[int, int]:
    if not raw or not raw.isdigit() or not 0 <= int(raw) < SIZE * SIZE:
        abort(400, "Choose a space.")
    return divmod(int(raw), SIZE)


def _revision() -> int:
    raw = request.form.get("revision", "")
    if not raw.isdigit():
        abort(400, "The page did not say which version of the sheet it showed; reload it and try again.")
    return int(raw)


@bp.post("/t/<code>/sheets/<int:number>/<season>/gorgon")
def gorgon(code: str, number: int, season: str) -> ResponseReturnValue:
    t, seat, s = for_change(code, number, season)
    session = get_session()
    sheet = play.find_sheet(session, seat, s)
    if sheet is None or not play.gorgon_pending(t, sheet):
        abort(409, "There is no Gorgon gaze waiting on this sheet.")
    play.apply_gorgon(session, t, sheet, _revision(), _space(request.form.get("space")))
    return redirect(url_for("sheets.edit", code=t.table.code, number=number, season=season), code=303)


# --- scoring -----------------------------------------------------------------------------------------


@bp.post("/t/<code>/sheets/<int:number>/<season>/score")
def score(code: str, number: int, season: str) -> ResponseReturnValue:
    t, seat, s = for_change(code, number, season)
    play.score(get_session(), t, seat, s)
    return redirect(url_for("sheets.scored", code=t.table.code, number=number, season=season), code=303)


@bp.get("/t/<code>/sheets/<int:number>/<season>/score")
def scored(code: str, number: int, season: str) -> ResponseReturnValue:
    t = _table(code)
    seat = t.seat(number)
    s = t.season_index(season)
    session = get_session()
    record = play.find_score(session, seat, s)
    if record is None:
        abort(404, f"{seat.name}'s {SEASON_NAMES[season]} has not been scored yet.")
    sheet = play.find_sheet(session, seat, s)
    assert sheet is not None
    scores = play.scores_by_seat(session, t)[seat.id]
    effects: dict[str, Any] = {}
    next_started = s < 3 and play.find_sheet(session, seat, s + 1) is not None
    if t.heroes and not next_started:
        pending = play.pending_effects(t, sheet)
        themap = play.map_of(t, sheet)
        for tag in play.tags_of(sheet):
            if tag.ambush == heroes.ZOMBIE_PLAGUE and tag.ambush in pending:
                spread = sorted(heroes.zombie_spread(themap, tag.spaces))
                effects["zombies"] = [(r * SIZE + c, where(r, c)) for r, c in spread]
            if tag.ambush == heroes.GIANT_TROLL_RAVAGE and tag.ambush in pending:
                targets = sorted(heroes.troll_targets(themap, tag.spaces))
                effects["troll"] = [(r * SIZE + c, where(r, c)) for r, c in targets]
        effects["pending"] = pending
        effects["done"] = bool((sheet.effects or {}).get("after_scoring"))
    return render_template(
        "sheets/score.html",
        t=t,
        seat=seat,
        s=s,
        season=season,
        season_name=SEASON_NAMES[season],
        record=record,
        codes=record.map_text.replace("\n", ""),
        printed_ruins={r * SIZE + c for r, c in t.side.ruins},
        scores=scores,
        season_names=[SEASON_NAMES[x] for x in play.SEASONS],
        edict_pairs=[t.season_card(x).edicts for x in range(4)],
        can_change=may_change(t.table, seat),
        effects=effects,
        next_season=play.SEASONS[s + 1] if s < 3 else None,
        next_open=s < 3 and t.current > s,
        sheet=sheet,
    )


@bp.post("/t/<code>/sheets/<int:number>/<season>/effects")
def effects(code: str, number: int, season: str) -> ResponseReturnValue:
    t, seat, s = for_change(code, number, season)
    raw = request.form.get("troll")
    troll = _space(raw) if raw else None
    play.confirm_effects(get_session(), t, seat, s, troll)
    return redirect(url_for("sheets.scored", code=t.table.code, number=number, season=season), code=303)


# --- the end of the game -----------------------------------------------------------------------------


@bp.get("/t/<code>/standings")
def standings(code: str) -> ResponseReturnValue:
    t = _table(code)
    session = get_session()
    settled = play.settle(session, t)
    return render_template(
        "sheets/standings.html",
        t=t,
        settled=settled,
        scores=play.scores_by_seat(session, t),
        season_names=[SEASON_NAMES[x] for x in play.SEASONS],
    )


@bp.get("/t/<code>/export.json")
def export_json(code: str) -> ResponseReturnValue:
    t = _table(code)
    session = get_session()
    settled = play.settle(session, t)
    body = {
        "table": t.table.code,
        "setup": t.setup.to_dict(),
        "map_side": t.side.letter,
        "edicts": t.deal.edicts,
        "seats": [{"seat": s.order + 1, "player": s.name} for s in t.seats],
        "seasons": play.export_rows(session, t),
        "standings": [
            {"place": st.place, "player": st.player.name, "total": st.player.total, "reason": st.reason}
            for st in settled.standings
        ],
    }
    if settled.solo is not None:
        body["solo"] = {"rating": settled.solo.rating, "title": settled.solo.title}
    response = Response(json.dumps(body, indent=2, ensure_ascii=False), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="referee-{t.table.code}.json"'
    return response


@bp.get("/t/<code>/export.csv")
def export_csv(code: str) -> ResponseReturnValue:
    t = _table(code)
    rows = play.export_rows(get_session(), t)
    out = io.StringIO()
    fields = [
        "table",
        "seat",
        "player",
        "season",
        "edict_1",
        "card_1",
        "stars_1",
        "edict_2",
        "card_2",
        "stars_2",
        "coins",
        "monsters",
        "total",
        "map",
    ]
    writer = csv.DictWriter(out, fieldnames=fields)
    writer.writeheader()
    for row in rows:
        writer.writerow({**row, "map": row["map"].replace("\n", "/")})
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="referee-{t.table.code}.csv"'
    return response
