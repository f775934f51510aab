"""The table setup form: the rulebook's setup choices, checked field by field.

Each field's error is one sentence next to that field. The dealer's own
``Setup.check()`` has the last word; its sentence is shown beside the field it
is about.
"""

from __future__ import annotations

from typing import Any

from flask import abort, request
from flask_wtf import FlaskForm
from wtforms import BooleanField, RadioField, SelectField, SelectMultipleField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from referee.rules import data, deck
from referee.rules.cards import Printing
from referee.rules.i18n import Name, Text, _, ngettext
from referee.table import MAX_NAME_LENGTH, Refused
from referee.table.sides import check_side
from referee.web.inputs import NOT_AN_OBJECT, json_body

MAX_PLAYERS = 100
"""The rulebooks allow 1 to 100 players."""

EDITIONS: dict[str, Text] = {
    "base": _("Cartographers"),
    "heroes": _("Cartographers Heroes"),
    "combined": _("Both games combined"),
}
GAMES: dict[str, Text] = {"base": _("Cartographers"), "heroes": _("Heroes")}
AMBUSH_MODES: dict[str, Text] = {
    "random": _("At random from the seed: four of the eight"),
    "chosen": _("Chosen by hand"),
}
EDICT_MODES: dict[str, Text] = {
    "random": _("At random from the seed"),
    "first_game": _("The rulebook's first-game set (Heroes)"),
    "chosen": _("Chosen by hand"),
}
MAP_GAME = {letter: side.game for letter, side in data.map_sides().items()}
"""Whose pad prints each map side, for the page to offer an edition its own."""


class Form(FlaskForm):
    """A form that answers 400 with a sentence, never 500, when a client posts
    JSON that is not an object (Flask-WTF would fail to read a list or a
    string as the form's fields)."""

    class Meta:
        def wrap_formdata(self, form: Any, formdata: Any) -> Any:
            if request.is_json and not request.form and not request.files:
                if not isinstance(json_body(), dict):
                    abort(400, str(NOT_AN_OBJECT))
            return super().wrap_formdata(form, formdata)  # type: ignore[misc]


class CheckboxesField(SelectMultipleField):
    """Several choices as checkboxes, each a large tap target."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


def _choices(options: dict[str, Text]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in options.items()]


def _map_choices() -> list[SelectChoice]:
    return [
        SelectChoice(letter, _("%(letter)s: %(title)s", letter=letter, title=_SideTitle(side)))
        for letter, side in data.map_sides().items()
    ]


class _SideTitle(Text):
    """A map side's name, in the reader's language when its card data names it."""

    def __init__(self, side: data.MapSide) -> None:
        super().__init__(side.title)
        self.side = side

    def __str__(self) -> str:
        named = str(Name("map_side", self.side.letter))
        return self.side.title if named == self.side.letter else named


def _ambush_choices() -> list[SelectChoice]:
    return [
        SelectChoice(a.name, _("%(card)s (%(game)s)", card=Name("ambush", a.name), game=GAMES[a.game]))
        for a in data.ambush_cards()
    ]


def _scoring_choices() -> list[SelectChoice]:
    return [
        SelectChoice(s.name, Name("scoring", s.name), optgroup=_Capital(data.CARD_BACK_LABELS[back]))
        for back in data.CARD_BACKS
        for s in data.scoring_card_infos()
        if s.back == back
    ]


class _Capital(Text):
    """A label with a capital first letter, in the reader's language."""

    def __init__(self, inner: Text) -> None:
        super().__init__(inner.message)
        self.inner = inner

    def __str__(self) -> str:
        return self.inner.capitalize()


def player_names(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


class SetupForm(Form):
    """Everything the host decides before the first card."""

    edition = RadioField(_("Game"), choices=_choices(EDITIONS), default="base")
    map_side = RadioField(_("Map sheet side"), choices=_map_choices, default="A")
    players = TextAreaField(
        _("Players in seat order, going clockwise round the table, one per line"),
        validators=[InputRequired(_("Type at least one player's name."))],
    )
    season_set = RadioField(_("Season cards"), choices=_choices(GAMES), default="base")
    explore_set = RadioField(_("Explore cards"), choices=_choices(GAMES), default="base")
    heroes = BooleanField(_("Hero cards in the explore deck"), default=True)
    ambush_mode = RadioField(_("Ambush cards"), choices=_choices(AMBUSH_MODES), default="random")
    ambushes = CheckboxesField(_("Ambush cards by hand: choose four"), choices=_ambush_choices)
    edicts = RadioField(_("Scoring cards"), choices=_choices(EDICT_MODES), default="random")
    edict_a = SelectField(_("Edict A"), choices=_scoring_choices, validate_choice=False)
    edict_b = SelectField(_("Edict B"), choices=_scoring_choices, validate_choice=False)
    edict_c = SelectField(_("Edict C"), choices=_scoring_choices, validate_choice=False)
    edict_d = SelectField(_("Edict D"), choices=_scoring_choices, validate_choice=False)
    printing = BooleanField(_("Score by the Czech printing of the cards"), default=False)
    seed = StringField(
        _("Seed: the same seed and choices deal the same game everywhere"),
        default=deck.new_seed,
        validators=[InputRequired(_("Type a seed, or keep the one suggested."))],
        render_kw={"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        first = data.first_game_edicts()["heroes"]
        for letter in deck.EDICT_LETTERS:
            field = getattr(self, f"edict_{letter.lower()}")
            if not field.data:
                field.data = first[letter]
        self.setup: deck.Setup | None = None
        self.names: list[str] = []
        self.printing_choice = Printing.ENGLISH

    def validate_players(self, field: TextAreaField) -> None:
        names = player_names(field.data or "")
        if not names:
            raise ValidationError(_("Type at least one player's name."))
        if len(names) > MAX_PLAYERS:
            raise ValidationError(
                _(
                    "A table seats at most %(most)d players, not %(count)d.",
                    most=MAX_PLAYERS,
                    count=len(names),
                )
            )
        long = [n for n in names if len(n) > MAX_NAME_LENGTH]
        if long:
            raise ValidationError(
                ngettext(
                    "Keep each name to %(num)d character; %(name)s… is longer.",
                    "Keep each name to %(num)d characters; %(name)s… is longer.",
                    MAX_NAME_LENGTH,
                    name=long[0][:20],
                )
            )
        seen: set[str] = set()
        for name in names:
            if name.casefold() in seen:
                raise ValidationError(
                    _("Two players are called %(name)s; give them different names.", name=name)
                )
            seen.add(name.casefold())
        self.names = names

    def validate_seed(self, field: StringField) -> None:
        try:
            field.data = deck.check_seed(field.data)
        except deck.SetupError as error:
            raise ValidationError(error.args[0]) from None

    def validate_map_side(self, field: RadioField) -> None:
        try:
            check_side(self.edition.data or "", field.data or "")
        except Refused as refused:
            raise ValidationError(str(refused)) from None

    def validate_ambushes(self, field: CheckboxesField) -> None:
        if (
            self.edition.data == "combined"
            and self.ambush_mode.data == "chosen"
            and len(field.data or []) != 4
        ):
            raise ValidationError(
                _("Choose exactly four ambush cards, not %(count)d.", count=len(field.data or []))
            )

    def validate(self, extra_validators: Any = None) -> bool:
        if not super().validate(extra_validators):
            return False
        combined = self.edition.data == "combined"
        chosen = tuple(getattr(self, f"edict_{x.lower()}").data for x in deck.EDICT_LETTERS)
        ambushes: tuple[str, ...] = ()
        if combined:
            by_hand = self.ambush_mode.data == "chosen"
            ambushes = (
                tuple(self.ambushes.data or ()) if by_hand else deck.ambushes_at_random(self.seed.data or "")
            )
        setup = deck.Setup(
            edition=self.edition.data or "",
            seed=self.seed.data or "",
            season_set=self.season_set.data if combined else "",
            explore_set=self.explore_set.data if combined else "",
            heroes=bool(self.heroes.data) if combined else None,
            ambushes=ambushes,
            edicts=self.edicts.data or "",
            chosen=(chosen[0], chosen[1], chosen[2], chosen[3]) if self.edicts.data == "chosen" else None,
            solo=len(self.names) == 1,
        )
        try:
            setup.check()
        except deck.SetupError as error:
            fields = {"ambushes": self.ambushes, "seed": self.seed, "edition": self.edition}
            field = fields.get(error.field, self.edicts)
            field.errors = [*field.errors, error.args[0]]
            return False
        self.setup = setup
        # The Czech printing changes two Heroes scoring cards; a base game cannot deal them.
        if self.printing.data and self.edition.data in ("heroes", "combined"):
            self.printing_choice = Printing.CZECH
        return True
