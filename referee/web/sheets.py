"""The sheet pages: claim a seat, draw the map, score each season, settle the game.

Thin views over ``referee.table``: each reads the request, checks who may
change a sheet (``seats``, by cookie), calls the table layer and renders. A
refusal from the table layer, or input the rules do not allow, answers with
its status and one sentence.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from typing import Any

from flask import Blueprint, Response, abort, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from referee.rules import data, heroes, season, terrain
from referee.rules.errors import RefereeError
from referee.rules.geometry import SIZE, Cell, where
from referee.rules.i18n import _, ngettext
from referee.table import SEASON_NAMES, SEASONS, SeasonSheet, Seat, Table, ambushes, hosting, scoring
from referee.table import sheets as table_sheets
from referee.table.bgstats import bgstats_link
from referee.table.checks import hero_choices
from referee.table.deal import hero_patterns
from referee.table.progress import effects_to_confirm, where_now
from referee.table.records import coins_before, ever_saved, known_mountains, map_of, scores_by_seat
from referee.table.standings import EXPORT_FIELDS, export_game, export_rows, settle
from referee.web.database import get_session
from referee.web.dealer import load
from referee.web.errors import answer, status_of
from referee.web.i18n import card, plural_forms
from referee.web.inputs import MAX_DIGITS, field, form_number, json_body
from referee.web.present import ORIENTATION_NAMES, printing_note
from referee.web.seats import (
    host_cookie,
    host_token,
    is_host,
    may_change,
    my_seat,
    require_change,
    seat_cookie,
    set_cookie,
)

bp = Blueprint("sheets", __name__)


def sentence(message: object) -> str:
    """The engine's message as a sentence: a capital first letter and a full stop."""
    text = str(message).strip()
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


@bp.errorhandler(RefereeError)
def _refused(error: RefereeError) -> ResponseReturnValue:
    """A refused sheet: its own status, or 400 for input the rules do not allow."""
    return answer(status_of(error), sentence(error), error)


def _table(code: str) -> Table:
    return Table.of(load(code))


def for_change(code: str, number: int, season: str) -> tuple[Table, Seat, int]:
    """The table, the seat and the season index of a request that changes a
    sheet, refused unless this phone holds the seat or is the host's."""
    t = _table(code)
    seat = t.seat(number)
    require_change(t.table, seat)
    return t, seat, t.season_index(season)


def _spaces(cells: Iterable[Cell]) -> list[tuple[int, str]]:
    """Spaces as (map index, name), for the pages' highlights and choices."""
    return [(r * SIZE + c, str(where(r, c))) for r, c in cells]


def _str(message: object) -> str | None:
    """A message for a page's script, in the reader's language (None stays None)."""
    return None if message is None else str(message)


# --- seats -------------------------------------------------------------------------------------------


@bp.get("/t/<code>/sheets")
def seats(code: str) -> ResponseReturnValue:
    t = _table(code)
    token = request.args.get("host")
    if token is not None:
        if not t.table.is_host(token):
            abort(403, str(_("That host link is not this table's; open the link the host page gave you.")))
        response = redirect(url_for("sheets.seats", code=t.table.code), code=303)
        set_cookie(response, host_cookie(t.table.code), token, t.table.code)
        return response
    token = host_token(t.table)
    scores = scores_by_seat(get_session(), t)
    to_confirm = effects_to_confirm(get_session(), t, scores)
    return render_template(
        "sheets/seats.html",
        t=t,
        host=token is not None,
        mine=my_seat(t.table),
        scores=scores,
        season_names=[SEASON_NAMES[s] for s in SEASONS],
        where_now=where_now(t, scores, to_confirm),
        to_confirm=to_confirm,
        seasons=SEASONS,
        # The host's way back leads to the host page, with its Reveal button.
        cards_url=url_for("dealer.host", code=t.table.code, token=token)
        if token
        else url_for("dealer.follow", code=t.table.code),
    )


@bp.post("/t/<code>/seats/<int:number>/claim")
def claim(code: str, number: int) -> ResponseReturnValue:
    t = _table(code)
    seat = t.seat(number)
    if seat.token_hash is not None and not is_host(t.table) and my_seat(t.table) is not seat:
        abort(
            403,
            str(
                _(
                    "%(name)s's seat is held on another phone; ask the host to free it, "
                    "then tap This is me here.",
                    name=seat.name,
                )
            ),
        )
    token = hosting.claim_seat(get_session(), seat, leaving=my_seat(t.table))
    response = redirect(url_for("sheets.editor", code=t.table.code, number=number), code=303)
    set_cookie(response, seat_cookie(t.table.code), f"{seat.order}.{token}", t.table.code)
    return response


@bp.post("/t/<code>/seats/<int:number>/free")
def free(code: str, number: int) -> ResponseReturnValue:
    """The host frees a seat held on a phone, for the player to take it on another."""
    t = _table(code)
    seat = t.seat(number)
    if not is_host(t.table):
        abort(403, str(_("Only the host can free a seat.")))
    hosting.free_seat(get_session(), seat)
    return redirect(url_for("sheets.seats", code=t.table.code), code=303)


# --- the grid editor ---------------------------------------------------------------------------------


@bp.get("/t/<code>/sheets/<int:number>")
def editor(code: str, number: int) -> ResponseReturnValue:
    t = _table(code)
    seat = t.seat(number)
    page = table_sheets.page_to_open(get_session(), t, seat)
    endpoint = "sheets.edit" if page.page == "sheet" else "sheets.scored"
    return redirect(url_for(endpoint, code=t.table.code, number=number, season=SEASONS[page.season]))


def _initials() -> dict[str, str]:
    """The letters each ambush card's monsters are marked with on a map: a
    Heroes monster's printed initial, which the player writes in its shape
    ("D" for the Dragon, "G" for the Gorgon); for a card that prints none,
    the shortest start of its name that is no printed initial and that no
    other such card's name begins with ("Go" for Goblin Attack and "Gn" for
    Gnoll Raid: with one letter, both were "G", as the Gorgon is)."""
    cards = data.ambush_cards()
    printed = {a.initial for a in cards if a.initial}
    unprinted = [a.name for a in cards if not a.initial]
    out: dict[str, str] = {}
    for a in cards:
        n = 1
        while (
            not a.initial
            and n < len(a.name)
            and (a.name[:n] in printed or any(o != a.name and o.startswith(a.name[:n]) for o in unprinted))
        ):
            n += 1
        out[a.name] = a.initial or a.name[:n]
    return out


def _hero_names() -> dict[str, str]:
    """Each hero card's name in the reader's language: the title of its space on the map."""
    return {h.name: card(h.name, "hero") for h in data.hero_cards()}


def _hero_initials(names: dict[str, str]) -> dict[str, str]:
    """The letters a hero's space shows on the editor's map: the shortest start
    of its card's name, two letters at least, that no other hero card's name
    begins with ("Do" for Dobrik of Lorkheim and "Da" for Dal of Jolev)."""
    out: dict[str, str] = {}
    for hero, shown in names.items():
        n = 2
        while n < len(shown) and any(o != hero and s.startswith(shown[:n]) for o, s in names.items()):
            n += 1
        out[hero] = shown[:n].strip()
    return out


def _hero_letters(drawn: list[dict[str, Any]], codes: str) -> dict[int, str]:
    """Each hero space of ``codes`` with its card's initials, as the editor writes them."""
    initials = _hero_initials(_hero_names())
    return {
        h["at"][0] * SIZE + h["at"][1]: initials.get(h["hero"], h["hero"][:2])
        for h in drawn
        if codes[h["at"][0] * SIZE + h["at"][1]] == terrain.HERO
    }


def _ambush_letters(monsters: list[dict[str, Any]], codes: str) -> dict[int, str]:
    """Each tagged monster space of ``codes`` (or one destroyed since) with
    its ambush's letter, as the editor writes it."""
    initials = _initials()
    return {
        r * SIZE + c: initials.get(tag["ambush"], tag["ambush"][:1])
        for tag in monsters
        for r, c in tag["spaces"]
        if codes[r * SIZE + c] in (terrain.MONSTER, terrain.DESTROYED)
    }


def _editor_config(t: Table, seat: Seat, sheet: SeasonSheet, s: int) -> dict[str, Any]:
    """What ``editor.js`` starts from: the map, the side's printed spaces, the tags and the addresses."""
    themap = map_of(t, sheet)
    side = t.side
    known = known_mountains(get_session(), t, seat, s)
    hero_names = _hero_names() if t.heroes else {}
    return {
        "map": themap.text().replace("\n", ""),
        "printed": "".join(side.printed(r, c) for r in range(SIZE) for c in range(SIZE)),
        "ruins": sorted(r * SIZE + c for r, c in side.ruins),
        "coins": sheet.coins,
        "track": side.coin_track,
        "monsters": sheet.monsters or [],
        "heroes": sheet.heroes or [],
        "revision": sheet.revision,
        "everSaved": ever_saved(sheet),
        "heroesGame": t.heroes,
        # The Monster brush's and the solo helper's choices: the ambushes out by this season,
        # and any the sheet tags besides (kept from a sheet saved under other rules).
        "ambushes": list(dict.fromkeys(t.ambushes_out(s) + [m["ambush"] for m in sheet.monsters or []])),
        # This season's ambushes that act by their monsters, and why Score waits
        # while one tags none of them (``ambushes.ambushes_untold``).
        "untold": {
            name: str(ambushes.ambush_untold_refusal([name]))
            for name in t.ambushes_revealed(s)
            if name in ambushes.acting_ambushes(s)
        },
        "initials": _initials(),
        "heroPatterns": hero_patterns() if t.heroes else {},
        "heroNames": hero_names,
        "heroInitials": _hero_initials(hero_names),
        "orientations": [o.value for o in heroes.Orientation],
        "saveUrl": url_for("sheets.save", code=t.table.code, number=seat.order + 1, season=SEASONS[s]),
        "editUrl": url_for("sheets.edit", code=t.table.code, number=seat.order + 1, season=SEASONS[s]),
        "soloUrl": url_for("sheets.solo_help", code=t.table.code, number=seat.order + 1, season=SEASONS[s])
        if t.solo
        else None,
        "warning": _str(season.coin_warning(themap, sheet.coins, known)),
        "knownMountains": sorted(r * SIZE + c for r, c in known),
        "coinsBefore": coins_before(get_session(), seat, s),
        "text": editor_words(),
    }


def editor_words() -> dict[str, Any]:
    """What ``editor.js`` says, in the reader's language (counted phrases by plural category)."""
    return {
        "notSaved": str(_("Not saved yet.")),
        "saved": str(_("Saved.")),
        "save": str(_("Save")),
        "savedMark": str(_("Saved ✓")),
        "printed": str(_("Printed mountains and wastelands cannot be painted over.")),
        "badAnswer": str(_("The referee did not answer properly ({status}); try again.")),
        "notSavedStatus": str(_("The sheet could not be saved ({status}).")),
        "offline": str(
            _(
                "The sheet could not be saved: no connection. Your changes are still here; try again.",
            )
        ),
        "saveFirst": str(_("Save the map first: the season is scored from the saved sheet.")),
        "keptBack": str(_("Your changes not yet saved are back on the map.")),
        "coinsRight": plural_forms(ngettext("%(num)d coin is right", "%(num)d coins are right", 0)),
        "coinsUnread": str(
            _("Set your coins before you save: tap your last filled coin, or − if none is filled.")
        ),
        "gorgonWaits": str(ambushes.GORGON_WAITS),
        "noHero": str(_("No hero card has come out yet: a hero is drawn once its card is revealed.")),
        "monsterKept": str(
            _("Checked: this monster stays %(ambush)s's. Tap it again to give it the ambush chosen.")
        ),
        "where": str(_("row %(row)d, column %(col)d")),
        "heroNoCard": plural_forms(scoring.hero_cards_missing([])),
        "heroWarning": plural_forms(
            ngettext(
                "The hero at %(spaces)s has no hero card yet, so it attacks nothing: "
                "choose the Hero brush and its card, then tap it.",
                "The heroes at %(spaces)s have no hero card yet, so they attack nothing: "
                "choose the Hero brush and each one's card, then tap each.",
                0,
            )
        ),
        "heroNoCardTitle": str(_("A hero with no hero card yet")),
        "heroPlaced": str(_("%(hero)s is on the map: a new pattern turns it there at once.")),
        "heroOnMap": str(_("%(hero)s (on the map)")),
        "heroOffMap": str(
            _("Turned this way, its attack pattern lies wholly off the map: it attacks nothing.")
        ),
        "outlined": plural_forms(ngettext("%(num)d outlined square", "%(num)d outlined squares", 0)),
        "coinsLost": plural_forms(
            ngettext(
                "The season before ended with %(num)d coin, and coins are never lost: "
                "the track shows only %(coins)d.",
                "The season before ended with %(num)d coins, and coins are never lost: "
                "the track shows only %(coins)d.",
                0,
            )
        ),
        "coinWarning": plural_forms(
            ngettext(
                "The map surrounds %(num)d mountain, each worth a coin, "
                "but the coin track shows only %(coins)d.",
                "The map surrounds %(num)d mountains, each worth a coin, "
                "but the coin track shows only %(coins)d.",
                0,
            )
        ),
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
    editing = table_sheets.open_for_editing(get_session(), t, seat, s)
    config = _editor_config(t, seat, editing.sheet, s)
    config.update(extra.pop("config", {}))
    return render_template(
        "sheets/editor.html",
        t=t,
        seat=seat,
        s=s,
        season=season,
        season_name=SEASON_NAMES[season],
        season_names=[SEASON_NAMES[x] for x in SEASONS],
        orientation_names=ORIENTATION_NAMES,
        sheet=editing.sheet,
        config=config,
        can_change=may_change(t.table, seat) and not editing.locked,
        locked=editing.locked,
        next_begun=editing.next_begun,
        mine=my_seat(t.table),
        scored=editing.scored,
        ended=t.ended(s),
        gorgon=_spaces(editing.gorgon),
        gorgon_drawn=_spaces(editing.gorgon_drawn),
        edicts=[(letter, t.deal.edicts[letter]) for letter in t.season_card(s).edicts],
        ambushes_now=t.ambushes_revealed(s),
        untold=ambushes.ambushes_untold(t, editing.sheet),
        shapeless_said=editing.shapeless,
        ambush_default=t.latest_ambush(s),
        heroes_out=t.heroes_named(s) if t.heroes else [],
        hero_choices=hero_choices(t, s, editing.sheet.heroes or []),
        **extra,
    )


@bp.post("/t/<code>/sheets/<int:number>/<season>")
def save(code: str, number: int, season: str) -> ResponseReturnValue:
    t, seat, s = for_change(code, number, season)
    saved = table_sheets.save(get_session(), t, seat, s, json_body())
    config = _editor_config(t, seat, saved.sheet, s)
    return jsonify(
        revision=saved.sheet.revision,
        map=config["map"],
        coins=saved.sheet.coins,
        monsters=config["monsters"],
        heroes=config["heroes"],
        warning=config["warning"],
        messages=[str(m) for m in saved.messages],
        gorgon=bool(saved.gorgon),
    )


@bp.post("/t/<code>/sheets/<int:number>/<season>/solo")
def solo_help(code: str, number: int, season: str) -> ResponseReturnValue:
    t = _table(code)
    t.seat(number)
    t.season_index(season)
    if not t.solo:
        abort(
            400,
            str(
                _(
                    "The ambush helper is for solo games; at a table your neighbour draws the monster.",
                )
            ),
        )
    payload = json_body()
    if not isinstance(payload, dict):
        abort(
            400,
            str(
                _(
                    "The page sent no map and ambush card the referee could read; reload it and try again.",
                )
            ),
        )
    helped = ambushes.solo_help(t, payload.get("map"), payload.get("ambush"))
    return jsonify({**helped, "sentence": str(helped["sentence"])})


MAX_REVISION = 10**MAX_DIGITS - 1


def _space(name: str) -> tuple[int, int]:
    return divmod(form_number(name, SIZE * SIZE - 1, _("Choose a space.")), SIZE)


def _revision() -> int:
    return form_number(
        "revision",
        MAX_REVISION,
        _("The page did not say which version of the sheet it showed; reload it and try again."),
    )


@bp.post("/t/<code>/sheets/<int:number>/<season>/gorgon")
def gorgon(code: str, number: int, season: str) -> ResponseReturnValue:
    t, seat, s = for_change(code, number, season)
    seen, at = _revision(), _space("space")
    sheet = ambushes.gorgon_sheet(get_session(), t, seat, s)
    ambushes.apply_gorgon(get_session(), t, sheet, seen, at)
    return redirect(url_for("sheets.edit", code=t.table.code, number=number, season=season), code=303)


# --- scoring -----------------------------------------------------------------------------------------


@bp.post("/t/<code>/sheets/<int:number>/<season>/score")
def score(code: str, number: int, season: str) -> ResponseReturnValue:
    t, seat, s = for_change(code, number, season)
    # The acting ambushes whose shape, the player says, could not be drawn on this map.
    scoring.score(get_session(), t, seat, s, request.form.getlist("shapeless"))
    return redirect(url_for("sheets.scored", code=t.table.code, number=number, season=season), code=303)


@bp.get("/t/<code>/sheets/<int:number>/<season>/score")
def scored(code: str, number: int, season: str) -> ResponseReturnValue:
    t = _table(code)
    seat = t.seat(number)
    s = t.season_index(season)
    found = scoring.scored_season(get_session(), t, seat, s)
    if found is None:
        abort(
            404,
            str(
                _(
                    "%(name)s's %(season)s has not been scored yet.",
                    name=seat.name,
                    season=SEASON_NAMES[season],
                )
            ),
        )
    effects: dict[str, Any] = {}
    if found.effects is not None:
        if found.effects.zombies is not None:
            effects["zombies"] = _spaces(found.effects.zombies)
        if found.effects.troll is not None:
            effects["troll"] = _spaces(found.effects.troll)
        effects["pending"] = found.effects.pending
        effects["done"] = found.effects.done
    record = found.record
    codes = record.map_text.replace("\n", "")
    return render_template(
        "sheets/score.html",
        t=t,
        seat=seat,
        s=s,
        season=season,
        season_name=SEASON_NAMES[season],
        record=record,
        codes=codes,
        letters=_ambush_letters(found.sheet.monsters or [], codes)
        | _hero_letters(found.sheet.heroes or [], codes),
        printed_ruins={r * SIZE + c for r, c in t.side.ruins},
        scores=found.scores,
        season_names=[SEASON_NAMES[x] for x in SEASONS],
        edict_pairs=[t.season_card(x).edicts for x in range(4)],
        can_change=may_change(t.table, seat),
        effects=effects,
        next_season=SEASONS[s + 1] if s < 3 else None,
        next_open=s < 3 and t.current > s,
        sheet=found.sheet,
        printing_note=printing_note(t.printing, list(t.deal.edicts.values())),
    )


@bp.post("/t/<code>/sheets/<int:number>/<season>/effects")
def effects(code: str, number: int, season: str) -> ResponseReturnValue:
    t, seat, s = for_change(code, number, season)
    troll = _space("troll") if field("troll") else None
    ambushes.confirm_effects(get_session(), t, seat, s, troll)
    return redirect(url_for("sheets.scored", code=t.table.code, number=number, season=season), code=303)


# --- the end of the game -----------------------------------------------------------------------------


@bp.get("/t/<code>/standings")
def standings(code: str) -> ResponseReturnValue:
    t = _table(code)
    settled = settle(get_session(), t)
    return render_template(
        "sheets/standings.html",
        t=t,
        settled=settled,
        scores=settled.scores,
        bgstats=bgstats_link(t, settled),
        season_names=[SEASON_NAMES[x] for x in SEASONS],
        printing_note=printing_note(t.printing, list(t.deal.edicts.values())),
    )


def _download(body: str, mimetype: str, code: str, extension: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="referee-{code}.{extension}"'
    return response


@bp.get("/t/<code>/export.json")
def export_json(code: str) -> ResponseReturnValue:
    t = _table(code)
    body = json.dumps(export_game(get_session(), t), indent=2, ensure_ascii=False)
    return _download(body, "application/json", t.table.code, "json")


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet may read as the start of a formula (OWASP, CSV injection)."""


def csv_cell(value: Any) -> Any:
    """A text cell that a spreadsheet could run as a formula, quoted with a
    leading ``'``; numbers (a monster penalty of -3) stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


@bp.get("/t/<code>/export.csv")
def export_csv(code: str) -> ResponseReturnValue:
    t = _table(code)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=EXPORT_FIELDS)
    writer.writeheader()
    for row in export_rows(get_session(), t):
        row = {**row, "map": row["map"].replace("\n", "/")}
        writer.writerow({key: csv_cell(value) for key, value in row.items()})
    return _download(out.getvalue(), "text/csv", t.table.code, "csv")
