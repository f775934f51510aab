"""Sentences for people, put into the reader's language only when shown.

The engine and the table layer speak to players (a refusal, why a card
scored what it did, a tiebreak) but must not know who reads them or import
Flask. So they build a ``Text``: the English sentence as a gettext message
id, with its parameters, rendered by ``str()`` through whichever
``Translator`` is installed at that moment. Out of the box that is English
(the message id itself), which is what the command line prints; the web
layer installs one backed by Flask-Babel, whose language is the request's.

``_``, ``ngettext`` and ``npgettext`` are named as gettext names them, so
``pybabel extract`` finds the messages here like anywhere else (``babel.cfg``).
A ``Text`` can be stored as JSON (``to_json``) and read back (``from_json``),
so a score kept in the database is shown in the language of whoever looks
at it later. ``Name`` is a printed card name, translated from the card data
rather than the catalogue (the Czech names come from the Czech rulebook).
"""

from __future__ import annotations

from typing import Any, Protocol


class Translator(Protocol):
    """What renders a ``Text``: gettext's three calls, and card names."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def pgettext(self, context: str, message: str) -> str: ...

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str: ...

    def name(self, kind: str, name: str) -> str: ...


class English:
    """The message ids themselves: English, with English plurals (1 and many)."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        return message

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def name(self, kind: str, name: str) -> str:
        return name


_translator: Translator = English()


def install(translator: Translator) -> None:
    """Render every ``Text`` through ``translator`` from now on (the web app
    installs Flask-Babel's, which follows each request's language)."""
    global _translator
    _translator = translator


def current() -> Translator:
    """The installed translator."""
    return _translator


class Text:
    """A sentence marked for translation, rendered when ``str()`` is called.

    ``message`` is the English text with ``%(name)s`` placeholders; a counted
    message also has ``plural`` and ``n`` (available as ``%(num)d``); a
    parameter may itself be a ``Text``, rendered in the same language."""

    __slots__ = ("message", "plural", "n", "context", "params")

    def __init__(
        self,
        message: str,
        plural: str | None = None,
        n: int | None = None,
        context: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        self.message = message
        self.plural = plural
        self.n = n
        self.context = context
        self.params = dict(params or {})

    def __str__(self) -> str:
        t = _translator
        if self.plural is not None:
            n = int(self.n or 0)
            if self.context:
                text = t.npgettext(self.context, self.message, self.plural, n)
            else:
                text = t.ngettext(self.message, self.plural, n)
        elif self.context:
            text = t.pgettext(self.context, self.message)
        else:
            text = t.gettext(self.message)
        values = {key: str(value) if isinstance(value, Text) else value for key, value in self.params.items()}
        if self.plural is not None:
            values.setdefault("num", self.n)
        return text % values if values else text

    def __repr__(self) -> str:
        return f"Text({self.message!r}, params={self.params!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Text):
            return self.to_json() == other.to_json()
        if isinstance(other, str):
            return str(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.message)

    def __add__(self, other: object) -> str:
        return str(self) + str(other)

    def __radd__(self, other: object) -> str:
        return str(other) + str(self)

    def __bool__(self) -> bool:
        return bool(self.message)

    # A Text reads like the str it renders to, where code or tests treat it as one.
    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __contains__(self, part: str) -> bool:
        return part in str(self)

    def startswith(self, prefix: str | tuple[str, ...]) -> bool:
        return str(self).startswith(prefix)

    def endswith(self, suffix: str | tuple[str, ...]) -> bool:
        return str(self).endswith(suffix)

    def lower(self) -> str:
        return str(self).lower()

    def capitalize(self) -> str:
        text = str(self)
        return text[:1].upper() + text[1:]

    def strip(self) -> str:
        return str(self).strip()

    def split(self, sep: str | None = None) -> list[str]:
        return str(self).split(sep)

    def to_json(self) -> dict[str, Any]:
        """The message and its parameters as JSON, to keep and render later."""
        out: dict[str, Any] = {"text": self.message}
        if self.plural is not None:
            out["plural"], out["n"] = self.plural, self.n
        if self.context:
            out["context"] = self.context
        if self.params:
            out["params"] = {k: v.to_json() if isinstance(v, Text) else v for k, v in self.params.items()}
        return out

    @staticmethod
    def from_json(value: Any) -> Text | str:
        """A kept message back as a ``Text``; a plain string (kept before
        messages were translatable) stays as it is."""
        if isinstance(value, dict) and "name" in value and "kind" in value:
            return Name(str(value["kind"]), str(value["name"]))
        if isinstance(value, dict) and "joined" in value:
            parts = [Text.from_json(v) if isinstance(v, dict) else v for v in value["joined"]]
            return Joined(parts, str(value.get("sep", ", ")))
        if not isinstance(value, dict) or "text" not in value:
            return value if isinstance(value, str) else str(value)
        kept = value.get("params", {})
        params = {k: Text.from_json(v) if isinstance(v, dict) else v for k, v in kept.items()}
        return Text(str(value["text"]), value.get("plural"), value.get("n"), value.get("context"), params)


class Name(Text):
    """A printed card name, shown as the reader's edition prints it."""

    __slots__ = ("kind", "name")

    def __init__(self, kind: str, name: str) -> None:
        super().__init__(name)
        self.kind = kind
        self.name = name

    def __str__(self) -> str:
        return _translator.name(self.kind, self.name)

    def __repr__(self) -> str:
        return f"Name({self.kind!r}, {self.name!r})"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name}


def _(message: str, **params: Any) -> Text:
    """A sentence to translate: ``_("%(space)s is off the map", space=...)``."""
    return Text(message, params=params)


def ngettext(singular: str, plural: str, n: int, **params: Any) -> Text:
    """A counted sentence: the catalogue has a form for each of the language's
    plural classes (Czech has three: 1, 2 to 4, 5 and more)."""
    return Text(singular, plural, n, params=params)


def pgettext(context: str, message: str, **params: Any) -> Text:
    """A sentence that one language says differently by where it stands."""
    return Text(message, context=context, params=params)


def npgettext(context: str, singular: str, plural: str, n: int, **params: Any) -> Text:
    """A counted phrase inside a longer sentence, where ``context`` says how
    it is used (Czech inflects the noun after a preposition)."""
    return Text(singular, plural, n, context, params)


class Joined(Text):
    """Several phrases separated by commas, each rendered in the reader's language."""

    __slots__ = ("parts", "sep")

    def __init__(self, parts: list[Any], sep: str = ", ") -> None:
        super().__init__(sep)
        self.parts = list(parts)
        self.sep = sep

    def __str__(self) -> str:
        return self.sep.join(str(p) for p in self.parts)

    def to_json(self) -> dict[str, Any]:
        return {"joined": [p.to_json() if isinstance(p, Text) else p for p in self.parts], "sep": self.sep}


def join(parts: list[Any]) -> Text:
    """'a, b and c' in the reader's language."""
    items = list(parts)
    if len(items) <= 1:
        return Joined(items)
    return _("%(head)s and %(tail)s", head=Joined(items[:-1]), tail=items[-1])


def render(value: Any) -> str:
    """``value`` as the reader reads it: a kept message (JSON), a ``Text`` or plain text."""
    if isinstance(value, dict):
        return str(Text.from_json(value))
    return str(value)
