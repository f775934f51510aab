"""The reader's language: Flask-Babel, the browser's choice and a remembered switch.

Flask-Babel picks each request's language (``select_locale``): the one the
reader chose with the EN / CS switch (a cookie), else the best match for the
browser's ``Accept-Language``, else English. The catalogues live in
``referee/translations/<language>/LC_MESSAGES/messages.po`` (compiled
``.mo`` beside them, see the README).

The rules and table layers mark their sentences with
``referee.rules.i18n`` and never import Flask; ``init_app`` installs a
translator there that reads Flask-Babel's catalogue for the current request,
and card names and rules from the package's card data
(``referee/data/cards_<language>.json``, copied from the Czech rulebook).
Templates get the same through ``card``, ``rule`` and ``effect`` filters.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, has_request_context, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import Babel, get_locale, get_translations

from referee.rules import data, i18n
from referee.rules.data import AmbushCard, MapSide, ScoringCardInfo

LANGUAGES = {"en": "English", "cs": "Čeština"}
"""The languages with a catalogue, by code, each named in itself."""
DEFAULT = "en"
COOKIE = "lang"
"""The cookie that remembers the reader's choice (a year)."""
COOKIE_DAYS = 365

bp = Blueprint("i18n", __name__)
babel = Babel()


def select_locale() -> str:
    """The switch's choice, else the browser's best match, else English
    (English outside a request: a command such as ``flask purge`` speaks it)."""
    if not has_request_context():
        return DEFAULT
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES), default=DEFAULT) or DEFAULT


def language() -> str:
    """The current request's language code ('en' outside a request)."""
    try:
        return str(get_locale() or DEFAULT)
    except RuntimeError:  # no request: the command line, a test of the engine
        return DEFAULT


def _texts() -> data.CardTexts | None:
    lang = language()
    return None if lang == DEFAULT else data.card_texts(lang)


class BabelTranslator:
    """``referee.rules.i18n``'s translator backed by Flask-Babel: the
    request's catalogue, and the card data of the request's language."""

    def gettext(self, message: str) -> str:
        return str(get_translations().ugettext(message))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return str(get_translations().ungettext(singular, plural, n))

    def pgettext(self, context: str, message: str) -> str:
        return str(get_translations().upgettext(context, message))

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return str(get_translations().unpgettext(context, singular, plural, n))

    def name(self, kind: str, name: str) -> str:
        texts = _texts()
        return texts.name(kind, name) if texts else name


def card(name: Any, kind: str = "scoring") -> str:
    """A printed name in the reader's language: ``{{ c.name|card("explore") }}``."""
    return str(i18n.Name(kind, str(name)))


def side_title(side: MapSide) -> str:
    """A map side's name without its letter, in the reader's language."""
    texts = _texts()
    return texts.name("map_side", side.letter) if texts else side.title


def rule(info: ScoringCardInfo, printing: str = "english") -> str:
    """A scoring card's rule, as ``printing`` words it, in the reader's language."""
    texts = _texts()
    own = texts.rule(info.name, printing) if texts else None
    return own or info.rule_in(printing)


def effect(ambush: AmbushCard) -> str:
    """An ambush card's effect in the reader's language."""
    texts = _texts()
    own = texts.effect(ambush.name) if texts else None
    return own or (ambush.effect or "")


def text(value: Any) -> str:
    """A kept message (JSON), a ``Text`` or plain text, in the reader's language."""
    return i18n.render(value)


def plural_forms(counted: i18n.Text) -> dict[str, str]:
    """A counted phrase's forms by CLDR plural category, for a script to pick
    with ``Intl.PluralRules`` ('{n}' stands for the number): the catalogue
    entry of ``counted``, an ``ngettext`` message (so pybabel finds it)."""
    singular, plural = counted.message, counted.plural or counted.message
    locale = get_locale()
    forms: dict[str, str] = {}
    for n in (*range(0, 30), 100, 101, 1000):
        category = locale.plural_form(n) if locale else ("one" if n == 1 else "other")
        if category not in forms:
            forms[category] = str(get_translations().ungettext(singular, plural, n)).replace("%(num)d", "{n}")
    return forms


def _safe_next(target: str | None) -> str:
    """Where to go back to after switching: a path on this site, else home."""
    if not target:
        return url_for("dealer.home")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return url_for("dealer.home")
    return target


@bp.get("/language/<code>")
def switch(code: str) -> ResponseReturnValue:
    """Remember the reader's language in a cookie and go back to the page."""
    response = redirect(_safe_next(request.args.get("next")), code=303)
    if code in LANGUAGES:
        response.set_cookie(
            COOKIE, code, max_age=COOKIE_DAYS * 86400, samesite="Lax", secure=request.is_secure, httponly=True
        )
    return response


def switch_links() -> list[dict[str, Any]]:
    """The EN / CS switch: each language's link back to this page, and which is on."""
    here = request.full_path.rstrip("?") if request else "/"
    current = language()
    return [
        {
            "code": code,
            "label": code.upper(),
            "name": name,
            "current": code == current,
            "url": url_for("i18n.switch", code=code, next=here),
        }
        for code, name in LANGUAGES.items()
    ]


def _vary(response: Response) -> Response:
    """Pages and JSON answers are in the reader's language: a cache must keep
    one copy per language (the header, and the cookie of the switch)."""
    if response.mimetype in ("text/html", "application/json"):
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


def init_app(app: Flask) -> None:
    """Flask-Babel with our locale selector, the template filters, the switch,
    and the translator the rules and table layers render through."""
    babel.init_app(app, locale_selector=select_locale)
    i18n.install(BabelTranslator())
    app.add_template_filter(card)
    app.add_template_filter(rule)
    app.add_template_filter(effect)
    app.add_template_filter(side_title)
    app.add_template_filter(text)
    app.add_template_global(switch_links)
    app.add_template_global(language)
    app.add_template_global(plural_forms)
    app.register_blueprint(bp)
    app.after_request(_vary)
