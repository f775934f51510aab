"""Numbers and JSON bodies read from a request, checked in one place (and the
numbers the server is started with, read alike).

A number comes from a page anyone can change, so it is read here and only
here: ASCII digits only (``str.isdigit`` also takes ``'²'`` and ``'①'``,
which ``int`` then refuses), at most ``MAX_DIGITS`` of them, and within the
range the caller names. A JSON body is capped in size and may not nest so
deep that the parser gives up. Each refusal is one sentence and a 4xx.
"""

from __future__ import annotations

from typing import Any

from flask import abort, request

from referee.rules.i18n import _

MAX_DIGITS = 9
"""No number the pages send is near a billion; longer strings are refused unread."""

MAX_JSON_BYTES = 256 * 1024
"""A whole sheet with every monster and hero tagged is a few kilobytes."""

TOO_LARGE = _("The page sent more than the referee reads at once; reload it and try again.")
TOO_DEEP = _("The page sent a sheet the referee could not read; reload it and try again.")


def whole_number(raw: str | None, high: int) -> int | None:
    """``raw`` as a number from 0 to ``high``, or ``None`` when it is not one."""
    if raw is None or not 0 < len(raw) <= MAX_DIGITS or not (raw.isascii() and raw.isdigit()):
        return None
    value = int(raw)
    return value if value <= high else None


def setting(raw: str, name: str, low: int, high: int, unit: str = "") -> int:
    """``raw``, the environment's value of the setting ``name``, as a whole
    number from ``low`` to ``high`` (of ``unit``, which the sentence names),
    read as a request's number is; or a ValueError saying what it takes,
    which stops the server at start-up rather than fail in a request."""
    value = whole_number(raw, high)
    if value is None or value < low:
        what = f"a whole number of {unit}" if unit else "a whole number"
        raise ValueError(f"{name} must be {what} from {low} to {high}, not {raw!r}.")
    return value


NOT_AN_OBJECT = _(
    "The referee reads a form here, or a JSON object of its fields; it cannot read a JSON list, "
    "text or number."
)


def field(name: str) -> str | None:
    """The form field ``name``, or the same name in a JSON object sent in
    place of the form: a script reveals a card as readily in JSON, and the
    field it sent is read, not taken as missing. 400 for JSON that is not an
    object; a list or an object given as a field's value counts as missing."""
    if not request.is_json:
        return request.form.get(name)
    body = json_body()
    if not isinstance(body, dict):
        abort(400, str(NOT_AN_OBJECT))
    value = body.get(name)
    return str(value) if isinstance(value, str | int | float) and not isinstance(value, bool) else None


def form_number(name: str, high: int, sentence: object) -> int:
    """The form field ``name`` as a number from 0 to ``high``; else 400 with ``sentence``."""
    value = whole_number(field(name), high)
    if value is None:
        abort(400, str(sentence))
    return value


def json_body() -> Any:
    """The request's JSON, or ``None`` when it is not JSON; 413 when it is too
    large, 400 when it nests too deep to read."""
    length = request.content_length
    if length is not None and length > MAX_JSON_BYTES:
        abort(413, str(TOO_LARGE))
    if length is None and len(request.get_data(cache=True)) > MAX_JSON_BYTES:
        abort(413, str(TOO_LARGE))
    try:
        return request.get_json(silent=True)
    except RecursionError:
        abort(400, str(TOO_DEEP))
