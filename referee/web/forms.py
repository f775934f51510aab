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
from referee.table import MAX_NAME_LENGTH
from referee.web.inputs import json_body

MAX_PLAYERS = 100
"""The rulebooks allow 1 to 100 players."""

EDITIONS = {
    "base": "Cartographers",
    "heroes": "Cartographers Heroes",
    "combined": "Both games combined",
}
GAMES = {"base": "Cartographers", "heroes": "Heroes"}
AMBUSH_MODES = {
    "random": "At random from the seed: four of the eight",
    "chosen": "Chosen by hand",
}
EDICT_MODES = {
    "random": "At random from the seed",
    "first_game": "The rulebook's first-game set (Heroes)",
    "chosen": "Chosen by hand",
}
MAP_GAME = {"A": "base", "B": "base", "C": "heroes", "D": "heroes"}


NOT_AN_OBJECT = (
    "The referee reads a form here, or a JSON object of its fields; "
    "it cannot read a JSON list, text or number."
)


class Form(FlaskForm):
    """A form that answers 400 with a sentence, never 500, when a client posts
    JSON that is not an object (Flask-WTF would fail to read a list or a
    string as the form's fields)."""

    class Meta:
        def wrap_formdata(self, form: Any, formdata: Any) -> Any:
            if request.is_json and not request.form and not request.files:
                if not isinstance(json_body(), dict):
                    abort(400, NOT_AN_OBJECT)
            return super().wrap_formdata(form, formdata)  # type: ignore[misc]


class CheckboxesField(SelectMultipleField):
    """Several choices as checkboxes, each a large tap target."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


def _choices(options: dict[str, str]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in options.items()]


def _map_choices() -> list[SelectChoice]:
    return [SelectChoice(letter, f"{letter}: {side.title}") for letter, side in data.map_sides().items()]


def _ambush_choices() -> list[SelectChoice]:
    return [SelectChoice(a.name, f"{a.name} ({GAMES[a.game]})") for a in data.ambush_cards()]


def _scoring_choices() -> list[SelectChoice]:
    return [
        SelectChoice(s.name, s.name, optgroup=data.CARD_BACK_NAMES[back].capitalize())
        for back in data.CARD_BACKS
        for s in data.scoring_card_infos()
        if s.back == back
    ]


def player_names(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


class SetupForm(Form):
    """Everything the host decides before the first card."""

    edition = RadioField("Game", choices=_choices(EDITIONS), default="base")
    map_side = RadioField("Map sheet side", choices=_map_choices, default="A")
    players = TextAreaField(
        "Players in seat order, going clockwise round the table, one per line",
        validators=[InputRequired("Type at least one player's name.")],
    )
    season_set = RadioField("Season cards", choices=_choices(GAMES), default="base")
    explore_set = RadioField("Explore cards", choices=_choices(GAMES), default="base")
    heroes = BooleanField("Hero cards in the explore deck", default=True)
    ambush_mode = RadioField("Ambush cards", choices=_choices(AMBUSH_MODES), default="random")
    ambushes = CheckboxesField("Ambush cards by hand: choose four", choices=_ambush_choices)
    edicts = RadioField("Scoring cards", choices=_choices(EDICT_MODES), default="random")
    edict_a = SelectField("Edict A", choices=_scoring_choices, validate_choice=False)
    edict_b = SelectField("Edict B", choices=_scoring_choices, validate_choice=False)
    edict_c = SelectField("Edict C", choices=_scoring_choices, validate_choice=False)
    edict_d = SelectField("Edict D", choices=_scoring_choices, validate_choice=False)
    seed = StringField(
        "Seed: the same seed and choices deal the same game everywhere",
        default=deck.new_seed,
        validators=[InputRequired("Type a seed, or keep the one suggested.")],
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

    def validate_players(self, field: TextAreaField) -> None:
        names = player_names(field.data or "")
        if not names:
            raise ValidationError("Type at least one player's name.")
        if len(names) > MAX_PLAYERS:
            raise ValidationError(f"A table seats at most {MAX_PLAYERS} players, not {len(names)}.")
        long = [n for n in names if len(n) > MAX_NAME_LENGTH]
        if long:
            raise ValidationError(
                f"Keep each name to {MAX_NAME_LENGTH} characters; {long[0][:20]}… is longer."
            )
        seen: set[str] = set()
        for name in names:
            if name.casefold() in seen:
                raise ValidationError(f"Two players are called {name}; give them different names.")
            seen.add(name.casefold())
        self.names = names

    def validate_seed(self, field: StringField) -> None:
        try:
            field.data = deck.check_seed(field.data)
        except deck.SetupError as error:
            raise ValidationError(str(error)) from None

    def validate_map_side(self, field: RadioField) -> None:
        edition = self.edition.data
        if edition in MAP_GAME.values() and MAP_GAME.get(field.data or "") != edition:
            sides = " and ".join(k for k, v in MAP_GAME.items() if v == edition)
            raise ValidationError(
                f"{EDITIONS[edition]} comes with map sides {sides}; combine the two games to use any side."
            )

    def validate_ambushes(self, field: CheckboxesField) -> None:
        if (
            self.edition.data == "combined"
            and self.ambush_mode.data == "chosen"
            and len(field.data or []) != 4
        ):
            raise ValidationError(f"Choose exactly four ambush cards, not {len(field.data or [])}.")

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
            message = str(error)
            field = self.ambushes if "ambush" in message else self.edicts
            if "seed" in message:
                field = self.seed
            field.errors = [*field.errors, message]
            return False
        self.setup = setup
        return True
