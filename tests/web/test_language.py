"""The reader's language: the browser's Accept-Language, the EN / CS switch
that overrides it and is remembered, and Czech everywhere a person reads:
pages, form errors, error pages, JSON errors, the table layer's refusals and
the printable sheet."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.web.conftest import act, create_table, csrf_token, setup_form

CS = {"Accept-Language": "cs-CZ,cs;q=0.9,en;q=0.5"}
EN = {"Accept-Language": "en-GB,en;q=0.9"}


def lang(html: str) -> str:
    match = re.search(r'<html lang="([a-z]+)">', html)
    assert match
    return match.group(1)


@pytest.mark.parametrize(
    ("headers", "code", "heading"),
    [(CS, "cs", "Založit stůl"), (EN, "en", "Set up a table"), ({}, "en", "Set up a table")],
)
def test_the_browsers_language_chooses(
    client: FlaskClient, headers: dict[str, str], code: str, heading: str
) -> None:
    page = client.get("/", headers=headers).text
    assert lang(page) == code
    assert f"<h1>{heading}</h1>" in page


def test_pages_vary_by_language(client: FlaskClient) -> None:
    vary = client.get("/", headers=CS).headers["Vary"]
    assert "Accept-Language" in vary and "Cookie" in vary


def test_a_language_without_a_catalogue_gets_english(client: FlaskClient) -> None:
    assert lang(client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).text) == "en"


def test_the_switch_overrides_the_browser_and_is_remembered(client: FlaskClient) -> None:
    page = client.get("/legend", headers=CS).text
    link = re.search(r'<a href="([^"]+)" lang="en"', page)
    assert link, "the switch is on the page"
    response = client.get(link.group(1).replace("&amp;", "&"), headers=CS)
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/legend")
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=en;") and "Max-Age=" in cookie
    for path in ("/", "/legend"):
        assert lang(client.get(path, headers=CS).text) == "en"  # the choice wins over the browser
    client.get("/language/cs?next=/", headers=EN)
    assert lang(client.get("/", headers=EN).text) == "cs"


@pytest.mark.parametrize(
    "target", ["https://elsewhere.example/", "//elsewhere.example/x", "javascript:alert(1)"]
)
def test_the_switch_goes_back_only_to_this_site(client: FlaskClient, target: str) -> None:
    response = client.get("/language/cs", query_string={"next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_an_unknown_language_changes_nothing(client: FlaskClient) -> None:
    response = client.get("/language/xx?next=/")
    assert response.status_code == 303 and "Set-Cookie" not in response.headers


def test_the_switch_is_on_every_page(client: FlaskClient) -> None:
    code, token, _ = create_table(client)
    for path in ("/", "/legend", f"/t/{code}", f"/t/{code}/host/{token}", f"/t/{code}/sheets", "/t/NOSUCH"):
        page = client.get(path, headers=CS).text
        assert 'class="lang-switch"' in page, path
        assert 'lang="en"' in page and 'lang="cs" title="Čeština"' in page, path


def test_form_errors_in_czech(client: FlaskClient) -> None:
    page = client.get("/", headers=CS).text
    form = {**setup_form(players="Ann\nann", seed=""), "csrf_token": csrf_token(page)}
    answer = client.post("/", data=form, headers=CS)
    assert answer.status_code == 400
    assert "Některé volby je třeba zkontrolovat" in answer.text
    assert "Dva hráči se jmenují ann; dejte jim různá jména." in answer.text
    assert "Napište semínko, nebo ponechte navržené." in answer.text


def test_a_setup_the_dealer_refuses_in_czech(client: FlaskClient) -> None:
    """The rules engine's SetupError, shown beside its field, in Czech."""
    page = client.get("/", headers=CS).text
    form = {**setup_form(seed="x" * 70), "csrf_token": csrf_token(page)}
    answer = client.post("/", data=form, headers=CS)
    assert answer.status_code == 400
    assert "Semínko má 70 znaků; smí mít nejvýše 64." in answer.text


def test_error_pages_in_czech(client: FlaskClient) -> None:
    missing = client.get("/t/NOSUCH", headers=CS)
    assert missing.status_code == 404
    assert "Žádný stůl nemá kód NOSUCH; ověřte si ho u hostitele." in missing.text
    assert "Chyba 404" in missing.text
    api = client.get("/api/t/NOSUCH", headers=CS)
    assert api.status_code == 404
    assert api.get_json()["error"] == "Žádný stůl nemá kód NOSUCH; ověřte si ho u hostitele."
    nowhere = client.get("/no/such/page", headers=CS)
    assert "Na této adrese žádná stránka není." in nowhere.text


def test_the_table_layers_refusal_in_czech(client: FlaskClient) -> None:
    """``referee.table`` raises a Text; the web layer puts it into the reader's words."""
    code, token, _ = create_table(client)
    answer = act(client, code, token, "undo", 0, Accept="application/json", **CS)
    assert answer.status_code == 409
    assert answer.get_json()["error"] == "Není co vrátit: zatím nebyla odhalena žádná karta."
    english = act(client, code, token, "undo", 0, Accept="application/json", **EN)
    assert english.get_json()["error"] == "There is nothing to undo: no card has been revealed yet."


def test_counted_words_on_a_czech_page(client: FlaskClient) -> None:
    """ngettext in a template, with Czech's three forms."""
    for players, words in (("Ann\nBen", "2 hráči"), ("A\nB\nC\nD\nE", "5 hráčů")):
        code, _, _ = create_table(client, players=players)
        assert words in client.get(f"/t/{code}", headers=CS).text


def test_the_printable_sheet_in_czech(client: FlaskClient) -> None:
    english = client.get("/print/map-sheet-A-a4.pdf")
    czech = client.get("/print/map-sheet-A-a4.pdf?lang=cs")
    assert english.status_code == czech.status_code == 200
    assert czech.data.startswith(b"%PDF") and czech.data != english.data
    assert client.get("/print/map-sheet-A-a4.pdf?lang=xx").data == english.data
    home = client.get("/", headers=CS).text
    assert "/print/map-sheet-A-a4.pdf?lang=cs" in home
    assert "/print/map-sheet-A-a4.pdf?lang" not in client.get("/", headers=EN).text


def test_the_card_names_the_czech_rulebook_gives(client: FlaskClient) -> None:
    """Heroes scoring cards by their Czech names; a base-game card keeps its English one."""
    page = client.get("/", headers=CS).text
    for name in ("Vepřín", "Hustý les", "Bludná houština", "Signální ohně", "Sentinel Wood"):
        assert name in page
    options = re.findall(r"<option [^>]*>([^<]*)</option>", page)
    assert "Vepřín" in options and "Jorekburg" not in options


def test_the_offline_page_in_czech(client: FlaskClient) -> None:
    """What the service worker shows without the network, kept in the reader's language."""
    page = client.get("/offline", headers=CS).text
    assert lang(page) == "cs"
    assert "<h1>Žádné spojení</h1>" in page and "tlačítka Odhalit a Zpět" in page
    assert 'Hostitel stolu <b class="join-code"></b>' in page
    assert "No connection" not in page and "Host table" not in page and "network" not in page


def test_the_table_pages_connection_words_in_czech(client: FlaskClient) -> None:
    """The reconnecting mark, the offline mark and the sentence offline.js
    shows when the table moved without this phone, all from the page."""
    code, token, _ = create_table(client)
    host = client.get(f"/t/{code}/host/{token}", headers=CS).text
    assert "Znovu se připojujeme ke stolu" in host
    assert "<b>Bez připojení</b> <span>Klepnutí se odešlou později</span>" in host
    assert 'data-offline-conflict="Zatímco byl tento telefon bez připojení' in host
    assert "Reconnecting" not in host and "Offline" not in host and "Another tab" not in host
    deal = client.get(f"/api/t/{code}/deal?token={token}", headers=CS).get_json()
    assert all("Bez připojení" in panel for panel in deal["panels"])


def test_the_manifest_names_the_app_in_the_readers_language(client: FlaskClient) -> None:
    czech = client.get("/manifest.webmanifest", headers=CS)
    english = client.get("/manifest.webmanifest", headers=EN)
    manifest = czech.get_json(force=True)
    assert (manifest["name"], manifest["short_name"]) == ("Rozhodčí pro Kartografy", "Rozhodčí")
    assert manifest["description"].startswith("Rozdává karty Kartografů")
    assert english.get_json(force=True)["name"] == "Cartographers referee"
    for response in (czech, english, client.get("/sw.js", headers=CS)):
        assert "Accept-Language" in response.headers["Vary"] and "Cookie" in response.headers["Vary"]
    # The worker keeps the offline page and the manifest: another language, another worker.
    assert client.get("/sw.js", headers=CS).text != client.get("/sw.js", headers=EN).text


SCRIPTS = Path(__file__).resolve().parent.parent.parent / "static" / "js"


def test_no_script_carries_its_own_sentence() -> None:
    """The scripts' words come from the page (data attributes, the editor's
    settings block), in the page's language: a quoted run of words in a script,
    outside a comment, is an English sentence no Czech reader could read."""
    sentences = []
    for path in sorted(SCRIPTS.glob("*.js")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//")[0]
            for quoted in re.findall(r'"([^"]*)"', code):
                if re.search(r"[A-Z][a-z]* [a-z]+", quoted):  # not "use strict", nor "board show-"
                    sentences.append(f"{path.name}:{number}: {quoted}")
    assert sentences == []
