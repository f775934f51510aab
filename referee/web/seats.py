"""Who may change a sheet: the host's cookie and each phone's seat cookie.

A phone that claims a seat keeps the seat's secret in a cookie; the host's
phone keeps the host token in one (set by opening the sheets page from the
host link), and may change every sheet. The cookies are scoped to the
table's pages and hold secrets the database keeps only as digests.
"""

from __future__ import annotations

from flask import abort, request
from werkzeug.wrappers import Response

from referee.rules.i18n import _
from referee.table import GameTable, Seat
from referee.web.forms import MAX_PLAYERS
from referee.web.inputs import whole_number

COOKIE_DAYS = 60


def host_cookie(code: str) -> str:
    """The cookie that holds a table's host token."""
    return f"host_{code}"


def seat_cookie(code: str) -> str:
    """The cookie that holds the claimed seat and its secret, as ``order.token``."""
    return f"seat_{code}"


def is_host(table: GameTable) -> bool:
    """Whether this phone holds the table's host token."""
    return host_token(table) is not None


def host_token(table: GameTable) -> str | None:
    """The table's host token, when this phone holds it (to link back to the host page)."""
    token = request.cookies.get(host_cookie(table.code))
    return token if table.is_host(token) else None


def my_seat(table: GameTable) -> Seat | None:
    """The seat this phone claimed, if its secret still matches."""
    raw = request.cookies.get(seat_cookie(table.code), "")
    order, _, token = raw.partition(".")
    number = whole_number(order, MAX_PLAYERS)
    if number is None:
        return None
    for seat in table.seats:
        if seat.order == number and seat.holds(token):
            return seat
    return None


def may_change(table: GameTable, seat: Seat) -> bool:
    """The host may change every sheet, a player their own seat's."""
    return is_host(table) or my_seat(table) is seat


def require_change(table: GameTable, seat: Seat) -> None:
    """Refuse (403) unless this phone may change the seat's sheet."""
    if not may_change(table, seat):
        abort(
            403,
            str(
                _(
                    "Only %(name)s or the host can change %(name)s's sheet; "
                    "claim your own seat on this phone from the table's sheets page.",
                    name=seat.name,
                )
            ),
        )


def set_cookie(response: Response, name: str, value: str, code: str) -> None:
    """Keep a secret on this phone for the table's pages only, out of scripts' reach."""
    response.set_cookie(
        name,
        value,
        max_age=COOKIE_DAYS * 86400,
        path=f"/t/{code}",
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
