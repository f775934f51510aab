"""The message catalogues: every marked string is translated, the compiled
catalogue is the source one, Czech counts in three forms, and the Czech card
data covers every printed card (its English name kept, and marked, where the
Czech rulebook gives none)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from referee.rules import data, i18n
from referee.rules.cards import Printing, differs
from referee.rules.i18n import Name, Text, _, ngettext, npgettext

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "referee" / "translations"
LANGUAGES = sorted(p.name for p in TRANSLATIONS.iterdir() if p.is_dir())
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}


def po(language: str) -> Catalog:
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=language)


def mo(language: str) -> Catalog:
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo").open("rb") as f:
        return read_mo(f)


def marked() -> set[tuple[str, str]]:
    """Every (context, message id) marked in the code and the templates, as
    ``babel.cfg`` tells ``pybabel extract`` to find them."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        if msgid:
            found.add((context or "", msgid))
    return found


def test_there_is_a_czech_catalogue() -> None:
    assert "cs" in LANGUAGES


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_string_is_in_the_catalogue(language: str) -> None:
    """A string marked for translation in Python or a template but missing from
    the catalogue: run the README's extract and update commands, then translate."""
    catalogue = {
        (m.context or "", m.id[0] if isinstance(m.id, tuple) else m.id) for m in po(language) if m.id
    }
    missing = sorted(marked() - catalogue)
    assert not missing, f"not in {language}'s catalogue: {missing[:10]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language: str) -> None:
    """No empty translation, no plural form left out, nothing fuzzy."""
    bad = []
    for m in po(language):
        if not m.id:
            continue
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy or not all(forms) or (isinstance(m.id, tuple) and len(forms) != 3):
            bad.append(m.id)
    assert not bad, f"{language}: untranslated, fuzzy or short of plural forms: {bad[:10]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_their_placeholders(language: str) -> None:
    """Babel's own checks: each %(name)s of the message is in its translation."""
    problems = [(m.id, [str(e) for e in errors]) for m, errors in po(language).check()]
    assert not problems, problems[:5]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_is_the_source_one(language: str) -> None:
    """The committed .mo says what the .po says (compile it again after an edit:
    ``pybabel compile -d referee/translations``)."""
    source = {(m.context, _key(m.id)): _key(m.string) for m in po(language) if m.id and not m.fuzzy}
    compiled = {(_text(m.context), _key(m.id)): _key(m.string) for m in mo(language) if m.id}
    assert compiled == source


def _key(value: object) -> object:
    """A message id or string, plural ones as tuples (read_mo gives lists)."""
    return tuple(value) if isinstance(value, list | tuple) else value


def _text(context: str | bytes | None) -> str | None:
    """A message context (read_mo leaves it as bytes)."""
    return context.decode("utf-8") if isinstance(context, bytes) else context


@pytest.fixture()
def czech() -> object:
    """The Czech catalogue installed as the engine's translator, English again after."""
    with (TRANSLATIONS / "cs" / "LC_MESSAGES" / "messages.mo").open("rb") as f:
        translations = Translations(f)

    class Czech:
        def gettext(self, message: str) -> str:
            return translations.ugettext(message)

        def ngettext(self, singular: str, plural: str, n: int) -> str:
            return translations.ungettext(singular, plural, n)

        def pgettext(self, context: str, message: str) -> str:
            return translations.upgettext(context, message)

        def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
            return translations.unpgettext(context, singular, plural, n)

        def name(self, kind: str, name: str) -> str:
            texts = data.card_texts("cs")
            return texts.name(kind, name) if texts else name

    i18n.install(Czech())
    yield
    i18n.install(i18n.English())


@pytest.mark.parametrize(
    ("n", "stars", "squares"),
    [
        (1, "1 bod pověsti", "1 pole"),
        (3, "3 body pověsti", "3 pole"),
        (5, "5 bodů pověsti", "5 polí"),
        (22, "22 bodů pověsti", "22 polí"),
        (0, "0 bodů pověsti", "0 polí"),
    ],
)
def test_czech_counts_in_three_forms(czech: object, n: int, stars: str, squares: str) -> None:
    assert str(ngettext("%(num)d star", "%(num)d stars", n)) == stars
    assert str(ngettext("%(num)d square", "%(num)d squares", n)) == squares


@pytest.mark.parametrize(
    ("n", "czech_text"),
    [(1, "Les zasahuje do 1 řádku a 1 sloupce."), (3, "Les zasahuje do 3 řádků a 3 sloupců.")],
)
def test_a_counted_phrase_inside_a_sentence(czech: object, n: int, czech_text: str) -> None:
    text = _(
        "Forest in %(rows)s and %(columns)s.",
        rows=npgettext("forest in", "%(num)d row", "%(num)d rows", n),
        columns=npgettext("forest in", "%(num)d column", "%(num)d columns", n),
    )
    assert str(text) == czech_text


def test_a_text_renders_when_shown_not_when_made(czech: object) -> None:
    """The engine builds a sentence once; each reader sees it in their language."""
    text = _("row %(row)d, column %(col)d", row=3, col=4)
    assert str(text) == "řádek 3, sloupec 4"
    i18n.install(i18n.English())
    assert str(text) == "row 3, column 4"


def test_a_kept_text_comes_back_the_same() -> None:
    text = _(
        "Best choice: the village cluster at %(space)s, spanning %(rows)s and %(columns)s.",
        space=_("row %(row)d, column %(col)d", row=1, col=2),
        rows=npgettext("spanning", "%(num)d row", "%(num)d rows", 2),
        columns=Name("scoring", "Jorekburg"),
    )
    kept = json.loads(json.dumps(text.to_json()))
    assert Text.from_json(kept) == text
    assert str(Text.from_json(kept)) == str(text)
    assert Text.from_json("A sentence kept before messages were translatable.") == (
        "A sentence kept before messages were translatable."
    )


def test_card_names_in_czech(czech: object) -> None:
    assert str(Name("scoring", "Jorekburg")) == "Vepřín"
    assert str(Name("explore", "Kethra's Gates")) == "Brány světů"
    assert str(Name("scoring", "Sentinel Wood")) == "Sentinel Wood"


def test_the_czech_card_data_covers_every_card() -> None:
    """Every printed card has a Czech entry; the Czech rulebook names the 16
    Heroes scoring cards and Kethra's Gates, and no other card, so every other
    name is kept in English and marked untranslated."""
    texts = data.card_texts("cs")
    assert texts is not None
    for info in data.scoring_card_infos():
        assert texts.rule(info.name, Printing.ENGLISH), info.name
        assert texts.untranslated("scoring", info.name) == (info.game == "base"), info.name
        if texts.untranslated("scoring", info.name):
            assert texts.name("scoring", info.name) == info.name
    for card in data.explore_cards():
        assert texts.untranslated("explore", card.name) == (card.name != "Kethra's Gates"), card.name
    for ambush in data.ambush_cards():
        assert texts.untranslated("ambush", ambush.name)
        assert bool(texts.effect(ambush.name)) == bool(ambush.effect)
    for hero in data.hero_cards():
        assert texts.untranslated("hero", hero.name)
    assert {t for _, t in data.solo_titles()} <= set(texts.raw["title"])


def test_the_czech_printing_is_worded_as_the_czech_rulebook() -> None:
    """The two cards the Czech printing changes: its sentences, in Czech and in
    English, say what its score functions do."""
    texts = data.card_texts("cs")
    assert texts is not None
    assert set(differs(Printing.CZECH)) == {"Jorekburg", "Deepwood"}
    infos = {info.name: info for info in data.scoring_card_infos()}
    jorekburg, deepwood = texts.rule("Jorekburg", "czech"), texts.rule("Deepwood", "czech")
    assert jorekburg and jorekburg.startswith("Získáš pět bodů pověsti za každý sloupec")
    assert (
        deepwood == "Získáš šest bodů pověsti za každé území polí s lesem, které nesousedí s polem s vesnicí."
    )
    assert "four" in infos["Jorekburg"].rule and "five" in infos["Jorekburg"].rule_in("czech")
    assert "five or more" in infos["Deepwood"].rule and "five" not in infos["Deepwood"].rule_in("czech")
