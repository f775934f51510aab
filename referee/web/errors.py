"""Error answers: one clear sentence and the right status, never a traceback.

Browsers get a page; API clients (a path under ``/api/`` or an ``Accept``
header preferring JSON) get ``{"error": sentence, "status": code}``. A
refusal from the table layer (``referee.table.Refused``) answers with its own
status; any other engine error is input the rules do not allow (400).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, current_app, jsonify, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from referee.rules.errors import RefereeError
from referee.rules.i18n import Text, _
from referee.table import SEASON_NAMES, SEASONS, Refused

bp = Blueprint("errors", __name__)

#: What each status means to a player, when the view gave no sentence of its own.
SENTENCES: dict[int, Text] = {
    400: _("The request could not be understood; go back and check what you entered."),
    403: _("Only the host of this table can do that."),
    404: _("There is no page at this address."),
    405: _("That page cannot be used that way."),
    409: _("The table changed in the meantime; reload the page to see where it stands."),
    410: _("This table has expired."),
    413: _("That upload is too large."),
    429: _("Too many requests; wait a moment and try again."),
    500: _("Something went wrong on the server; try again in a moment."),
}

CSRF_SENTENCE = _("The form had expired or came from another page; reload the page and try again.")


def wants_json() -> bool:
    """Whether to answer JSON: an API path, or an ``Accept`` header preferring it to HTML."""
    if request.path.startswith("/api/"):
        return True
    accept = request.accept_mimetypes
    return accept["application/json"] > accept["text/html"]


def answer(
    status: int,
    sentence: str | Text,
    refusal: RefereeError | None = None,
    link: tuple[str, str] | None = None,
    details: Mapping[str, Any] | None = None,
) -> ResponseReturnValue:
    """The error page, or the JSON error, with this status and sentence (in
    the reader's language: a ``Text`` is put into words here), and a link to
    the page that puts a refused sheet request right, when ``refusal``
    names one (or ``link``, as (address, words)). ``details`` are further
    fields of the JSON error, for a script to act on what the sentence says
    to a person."""
    sentence = str(sentence)
    link = remedy_link(refusal) or link
    if wants_json():
        extra = {"remedy": link[0]} if link else {}
        return jsonify(error=sentence, status=status, **extra, **(details or {})), status
    return render_template("errors/error.html", status=status, sentence=sentence, link=link), status


def remedy_link(error: RefereeError | None) -> tuple[str, str] | None:
    """Where a refused sheet request is put right, as (address, words): the
    season to save or score first, on the seat the request was about."""
    remedy = error.remedy if isinstance(error, Refused) else None
    args = request.view_args or {}
    if remedy is None or "code" not in args or "number" not in args:
        return None
    season = SEASONS[remedy.season]
    if remedy.page == "sheet":
        endpoint, words = "sheets.edit", _("Open the %(season)s sheet", season=SEASON_NAMES[season])
    else:
        endpoint, words = "sheets.scored", _("Open the %(season)s score", season=SEASON_NAMES[season])
    return url_for(endpoint, code=args["code"], number=args["number"], season=season), str(words)


def sentence_for(error: HTTPException) -> str | Text:
    """The view's own sentence if it gave one, else the plain one for the status."""
    status = error.code or 500
    own = error.description
    if own and own != type(error).description:
        return own
    return SENTENCES.get(status, SENTENCES[500] if status >= 500 else SENTENCES[400])


@bp.app_errorhandler(CSRFError)
def csrf_failed(_error: CSRFError) -> ResponseReturnValue:
    return answer(400, CSRF_SENTENCE)


def follow_link(status: int) -> tuple[str, str] | None:
    """Where a phone refused a host's page goes instead: the same table, followed
    (a player who opened a host link not theirs still wants to see the cards)."""
    code = (request.view_args or {}).get("code")
    if status != 403 or request.blueprint != "dealer" or not isinstance(code, str):
        return None
    return url_for("dealer.follow", code=code), str(_("Follow this table"))


@bp.app_errorhandler(HTTPException)
def http_error(error: HTTPException) -> ResponseReturnValue:
    status = error.code or 500
    return answer(status, sentence_for(error), link=follow_link(status))


def status_of(error: RefereeError) -> int:
    """A table refusal's own status, else 400 for input the rules do not allow."""
    return error.status if isinstance(error, Refused) else 400


@bp.app_errorhandler(RefereeError)
def referee_error(error: RefereeError) -> ResponseReturnValue:
    return answer(status_of(error), str(error), error)


@bp.app_errorhandler(Exception)
def unexpected(error: Exception) -> ResponseReturnValue:
    if isinstance(error, HTTPException):
        return http_error(error)
    current_app.logger.exception("unhandled error", exc_info=error)
    return answer(500, SENTENCES[500])
