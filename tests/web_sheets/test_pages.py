"""What every page gets right, through the test client: stylesheets and the
icon in the head, counted words, the rulebook's season names, labels said
once; and the sentences of issue 11 ("The first hour"): which season is on,
the host's way back to Reveal, why a sheet cannot be changed, the solo
standings, the hero card's key, the coin warning said once, the Destroyed
brush only where spaces can be destroyed, and the CSV's final totals."""

from __future__ import annotations

import csv
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.rules.cards import card_named
from referee.rules.sheet import MapSheet
from tests.web_photo.conftest import post_photo, sample
from tests.web_sheets.conftest import (
    EASY_EDICTS,
    as_host,
    claim,
    csrf_token,
    editor,
    make_table,
    save,
    score,
)
from tests.web_sheets.test_heroes_pages import drawn
from tests.web_sheets.test_standings import play_four_seasons

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


class Head(HTMLParser):
    """Where a page puts its ``<link>`` elements: in the head or in the body."""

    def __init__(self) -> None:
        super().__init__()
        self.in_body = False
        self.head_links: list[dict[str, str]] = []
        self.body_links: list[dict[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":
            self.in_body = True
        if tag == "link":
            (self.body_links if self.in_body else self.head_links).append({k: v or "" for k, v in attrs})


def links(html: str) -> Head:
    parser = Head()
    parser.feed(html)
    return parser


def every_page(app: Flask, client: FlaskClient) -> dict[str, str]:
    """Each kind of page the app renders, by name, as the host sees it at the end of a game."""
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    play_four_seasons(client, t)
    pages = {
        "home": "/",
        "legend": "/legend",
        "follow": f"/t/{t.code}",
        "tv": f"/t/{t.code}/tv",
        "host": f"/t/{t.code}/host/{t.host}",
        "seats": f"/t/{t.code}/sheets",
        "editor": f"/t/{t.code}/sheets/1/fall",
        "score": f"/t/{t.code}/sheets/1/fall/score",
        "standings": f"/t/{t.code}/standings",
        "not found": "/nowhere",
        "bad join": "/join?code=",
    }
    answers = {name: client.get(path) for name, path in pages.items()}
    # every page renders: an error page has a head and stylesheets too
    assert {name: r.status_code for name, r in answers.items()} == {
        **{name: 200 for name in pages},
        "not found": 404,
        "bad join": 400,
    }
    out = {name: r.text for name, r in answers.items()}
    photo_table = make_table(app, ["Ann", "Ben"], seed="photo-page")
    claim(client, photo_table, 1)
    out["photo reading"] = post_photo(client, photo_table, 1, "spring", sample()[0]).text
    return out


def test_stylesheets_and_the_icon_are_linked_in_the_head_of_every_page(
    app: Flask, client: FlaskClient
) -> None:
    for name, html in every_page(app, client).items():
        found = links(html)
        assert [link for link in found.body_links if "stylesheet" in link.get("rel", "")] == [], name
        icons = [link for link in found.head_links if link.get("rel") == "icon"]
        assert icons and icons[0]["type"] == "image/svg+xml", name
        assert "Autumn" not in html and "autumn" not in html, name
    with client.get("/static/favicon.svg") as icon:
        assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
        assert icon.data.startswith(b"<svg")


def test_the_checker_sees_a_stylesheet_in_the_body() -> None:
    page = '<html><head><link rel="icon" href="x"></head><body><link rel="stylesheet" href="a.css"></body>'
    assert links(page).body_links == [{"rel": "stylesheet", "href": "a.css"}]


def test_the_pages_say_fall_as_the_rulebook_does(app: Flask, client: FlaskClient) -> None:
    pages = every_page(app, client)
    assert "Fall" in pages["editor"] and "Fall" in pages["score"] and "Fall" in pages["standings"]


# --- counted words ------------------------------------------------------------------------------------


def test_templates_count_words_through_ngettext() -> None:
    """No template makes its own plural ('square{{ "s" if n != 1 }}'): every
    counted phrase goes through ngettext, which knows Czech's three forms."""
    offenders = [
        f"{path.relative_to(TEMPLATES)}: {match.group(0)}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for match in re.finditer(r"""['"]s['"] if|[!=]= 1 else ['"][\w ]*s['"]""", path.read_text())
    ]
    assert offenders == []


@pytest.mark.parametrize(("n", "text"), [(0, "0 squares"), (1, "1 square"), (2, "2 squares")])
def test_counted_words_in_english(app: Flask, n: int, text: str) -> None:
    with app.test_request_context(headers={"Accept-Language": "en"}):
        template = app.jinja_env.from_string('{{ ngettext("%(num)d square", "%(num)d squares", n) }}')
        assert template.render(n=n) == text


def test_a_tie_for_largest_at_one_space() -> None:
    rows = ["V.V" + "." * 8] + ["." * 11] * 10
    text = MapSheet.blank("A").text().splitlines()
    rows = [rows[0]] + text[1:]
    why = card_named("Shieldgate").score(MapSheet.parse("\n".join(rows), "A")).why
    assert why == "Two or more clusters tie for largest at 1 space; one of them scores."


def test_one_square_to_check_is_said_in_the_singular(app: Flask, client: FlaskClient) -> None:
    with app.test_request_context():
        html = app.jinja_env.get_template("sheets/photo_form.html").render(
            reading={"check": [5], "changed": [], "unnamed": [], "coins": 1, "coinsKept": None},
            t=None,
            can_change=False,
        )
    assert "1 outlined square</b>" in html and "1 filled coin</b>" in html


# --- labels said once ---------------------------------------------------------------------------------


def test_the_map_side_is_named_once(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"])
    host = client.get(f"/t/{t.code}/host/{t.host}").text
    assert "map side A: Wilderness ·" in host
    assert "(side A)" not in host
    home = client.get("/").text
    assert "A: Wilderness</span>" in home and "C: Heroes (no wasteland)</span>" in home
    assert "(side" not in home


# --- which season is on -------------------------------------------------------------------------------


def test_the_seats_page_says_when_a_season_has_ended(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"])
    t.set_taps(1)
    assert "Spring is on." in client.get(f"/t/{t.code}/sheets").text
    t.set_taps(t.season_end(0))
    page = client.get(f"/t/{t.code}/sheets").text
    assert "Spring is on" not in page
    assert "Spring has ended: score every sheet before summer begins." in page
    t.set_taps(t.season_start(1))
    assert "Summer is on." in client.get(f"/t/{t.code}/sheets").text
    t.set_taps(t.season_end(3))
    assert "Winter has ended: score every sheet, then see the standings." in (
        client.get(f"/t/{t.code}/sheets").text
    )


# --- the host's way back ------------------------------------------------------------------------------


def test_the_hosts_way_back_leads_to_the_host_page(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"])
    follower = app.test_client().get(f"/t/{t.code}/sheets").text
    assert f'id="cards-link" href="/t/{t.code}"' in follower
    as_host(client, t)
    page = client.get(f"/t/{t.code}/sheets").text
    assert f'id="cards-link" href="/t/{t.code}/host/{t.host}"' in page
    assert "Reveal the cards" in page
    host = client.get(f"/t/{t.code}/host/{t.host}")
    assert host.status_code == 200 and "button" in host.text and 'class="big reveal"' in host.text


def test_a_phone_without_a_seat_learns_how_to_get_a_held_one_back(app: Flask, client: FlaskClient) -> None:
    """Ann's seat is held on her old phone: on a phone with no seat, her row
    says the host can hand it over; on the phone holding a seat, it does not."""
    t = make_table(app, ["Ann", "Ben"])
    claim(app.test_client(), t, 1)  # Ann's old phone
    hint = "Held on another phone. Is it yours? Ask the host to free it, then tap This is me."
    page = client.get(f"/t/{t.code}/sheets").text
    assert page.count(hint) == 1  # Ann's row; Ben's seat is free ("This is me")
    claim(client, t, 2)
    assert hint not in client.get(f"/t/{t.code}/sheets").text


def test_the_host_frees_a_seat_for_the_player_to_take_on_another_phone(
    app: Flask, client: FlaskClient
) -> None:
    """Ann's old phone holds her seat; the host frees it; her new phone takes
    it with This is me; the old phone can no longer save."""
    t = make_table(app, ["Ann", "Ben"])
    old, new = app.test_client(), app.test_client()
    claim(old, t, 1)
    page = new.get(f"/t/{t.code}/sheets").text
    refused = new.post(f"/t/{t.code}/seats/1/free", data={"csrf_token": csrf_token(page)})
    assert refused.status_code == 403 and "Only the host can free a seat." in refused.text
    as_host(client, t)
    host_page = client.get(f"/t/{t.code}/sheets").text
    assert host_page.count(">Free seat</button>") == 1  # Ann's, the one seat held
    freed = client.post(f"/t/{t.code}/seats/1/free", data={"csrf_token": csrf_token(host_page)})
    assert freed.status_code == 303
    claim(new, t, 1)
    assert save(new, t, 1, "spring", MapSheet.blank("A").text().splitlines()).status_code == 200
    assert save(old, t, 1, "spring", MapSheet.blank("A").text().splitlines()).status_code == 403


def test_the_seats_page_names_ambush_effects_waiting_to_be_applied(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"], edition="heroes", side="C")
    as_host(client, t)
    tags = [{"ambush": "Zombie Plague", "spaces": [[0, 10]]}]
    assert save(client, t, 1, "spring", drawn(r0c10="M"), monsters=tags).status_code == 200
    t.set_taps(t.season_end(0))
    scored = score(client, t, 1, "spring")
    assert scored.status_code == 303, scored.text
    page = client.get(f"/t/{t.code}/sheets").text
    assert (
        f'<a class="seat-effects" href="/t/{t.code}/sheets/1/spring/score">'
        "Spring: the ambushes' effects wait to be applied</a>"
    ) in page
    assert page.count('class="seat-effects"') == 1


def test_the_hosts_undo_is_off_while_it_would_be_refused(app: Flask, client: FlaskClient) -> None:
    """Spring scored for a sheet: the card that ended spring stays revealed,
    so the host's Undo is off, on the page and on the panel it fetches after
    each reveal, with why in its title; after summer's first card it is on."""
    t = make_table(app, ["Ann", "Ben"])
    as_host(client, t)
    save(client, t, 1, "spring", MapSheet.blank("A").text().splitlines())
    t.set_taps(t.season_end(0))
    off = (
        'class="undo secondary" disabled title="A sheet has been scored for the season this card ended: '
        'it stays revealed."'
    )
    urls = (f"/t/{t.code}/host/{t.host}", f"/t/{t.code}/panel?mode=host&token={t.host}")
    assert all(off not in client.get(url).text for url in urls)
    assert score(client, t, 1, "spring").status_code == 303
    assert all(off in client.get(url).text for url in urls)
    t.set_taps(t.season_end(0) + 1)
    assert all('class="undo secondary" >' in client.get(url).text for url in urls)


# --- why a sheet cannot be changed --------------------------------------------------------------------


def test_a_sheet_that_cannot_be_changed_says_why_and_offers_the_way_in(
    app: Flask, client: FlaskClient
) -> None:
    t = make_table(app, ["Ann", "Ben"])
    html, _ = editor(client, t, 1, "spring")  # no seat, not the host
    assert 'id="read-only"' in html
    assert "You can look at Ann's sheet but not change it" in html
    assert "This is me: take Ann's seat on this phone" in html
    assert f'action="/t/{t.code}/seats/1/claim"' in html
    assert "open this table's host link, then <b>Map sheets and scores</b>" in html
    assert 'id="save"' not in html
    claim(client, t, 2)
    html, _ = editor(client, t, 1, "spring")
    assert "This phone holds Ben's seat" in html and f'href="/t/{t.code}/sheets/2/spring"' in html
    html, _ = editor(client, t, 2, "spring")
    assert 'id="read-only"' not in html and 'id="save"' in html
    host = app.test_client()
    as_host(host, t)
    html, _ = editor(host, t, 1, "spring")
    assert 'id="read-only"' not in html and 'id="save"' in html


# --- standings, the hero card's key, the brushes ------------------------------------------------------


def test_a_solo_player_is_rated_not_told_they_won(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Sol"], chosen=EASY_EDICTS)
    as_host(client, t)
    for s, name in enumerate(("spring", "summer", "fall", "winter")):
        t.set_taps(t.season_end(s))
        editor(client, t, 1, name)
        assert score(client, t, 1, name).status_code == 303
    page = client.get(f"/t/{t.code}/standings").text
    assert 'id="solo-result"' in page
    assert 'class="crown"' not in page
    two = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    play_four_seasons(client, two)
    assert '<span class="crown">wins</span>' in client.get(f"/t/{two.code}/standings").text


def test_the_hero_card_has_a_key_for_the_attacked_spaces(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"], edition="heroes", side="C")
    taps = 0
    for season in t.deal.seasons:
        for turn in season.turns:
            taps += 1
            if turn.reveals[-1].kind == "hero":
                break
        else:
            continue
        break
    t.set_taps(taps)
    page = client.get(f"/t/{t.code}").text
    assert 'class="card kind-hero' in page
    key = re.search(r'<figcaption class="key">(.*?)</figcaption>', page, re.S)
    assert key and "the hero" in key.group(1) and "a space it attacks" in key.group(1)
    assert 'class="shape attack key-hit"' in key.group(1) and 'class="cross"' in key.group(1)


@pytest.mark.parametrize(
    ("edition", "side", "ambushes", "shown"),
    [
        ("base", "A", None, False),
        ("heroes", "C", None, True),
        ("combined", "A", ("Goblin Attack", "Bugbear Assault", "Kobold Onslaught", "Gnoll Raid"), False),
        ("combined", "A", ("Goblin Attack", "Bugbear Assault", "Kobold Onslaught", "Gorgon Gaze"), True),
    ],
)
def test_the_destroyed_brush_only_where_spaces_can_be_destroyed(
    app: Flask, client: FlaskClient, edition: str, side: str, ambushes: tuple[str, ...] | None, shown: bool
) -> None:
    extra = {"ambushes": ambushes, "heroes": False, "season_set": "base", "explore_set": "base"}
    t = make_table(app, ["Ann", "Ben"], edition=edition, side=side, **(extra if ambushes else {}))
    as_host(client, t)
    html, _ = editor(client, t, 1, "spring")
    assert ('data-brush="X"' in html) == shown
    assert 'data-brush="M"' in html


# --- the coin warning, once ---------------------------------------------------------------------------


def _with(rows: list[str], **spaces: str) -> list[str]:
    out = [list(r) for r in rows]
    for name, code in spaces.items():
        r, c = name[1:].split("c")
        out[int(r)][int(c)] = code
    return ["".join(r) for r in out]


def test_the_coin_warning_is_said_in_the_season_a_mountain_is_closed_in(
    app: Flask, client: FlaskClient
) -> None:
    """Side A's mountain at row 2, column 4 is closed in during spring with no coin
    filled: spring warns; summer, on the same map, does not say it again; closing in
    row 6, column 6 in summer warns again."""
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    as_host(client, t)
    blank = MapSheet.blank("A").text().splitlines()
    spring = _with(blank, r0c3="F", r1c2="F", r1c4="F", r2c3="F")
    assert save(client, t, 1, "spring", spring).json["warning"].startswith("The map surrounds 1 mountain")
    t.set_taps(t.season_end(0))
    score(client, t, 1, "spring")
    assert "The map surrounds 1 mountain" in client.get(f"/t/{t.code}/sheets/1/spring/score").text

    t.set_taps(t.season_end(1))
    html, config = editor(client, t, 1, "summer")
    assert config["warning"] is None and config["knownMountains"] == [1 * 11 + 3]
    assert 'id="coin-warning" class="warning" hidden' in html
    score(client, t, 1, "summer")
    assert "The map surrounds" not in client.get(f"/t/{t.code}/sheets/1/summer/score").text

    summer = _with(spring, r4c5="V", r5c4="V", r5c6="V", r6c5="V")
    warned = save(client, t, 1, "summer", summer).json["warning"]
    assert warned.startswith("The map surrounds 2 mountains (row 2, column 4; row 6, column 6)")


# --- the CSV ------------------------------------------------------------------------------------------


def test_the_csv_carries_each_players_final_total_and_place(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    as_host(client, t)
    save(client, t, 1, "spring", MapSheet.blank("A").text())
    t.set_taps(t.season_end(0))
    score(client, t, 1, "spring")
    early = list(csv.DictReader(io.StringIO(client.get(f"/t/{t.code}/export.csv").text)))
    assert [(r["final_total"], r["place"]) for r in early] == [("", "")]

    done = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    play_four_seasons(client, done)
    rows = list(csv.DictReader(io.StringIO(client.get(f"/t/{done.code}/export.csv").text)))
    assert {(r["player"], r["final_total"], r["place"]) for r in rows} == {
        ("Ann", "8", "2"),
        ("Ben", "8", "1"),
    }
    assert len(rows) == 8


def test_the_seats_page_lists_each_scored_seasons_total(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    play_four_seasons(client, t)
    page = client.get(f"/t/{t.code}/sheets")
    assert page.status_code == 200
    scores = re.findall(r'<span class="seat-scores">(.*?)</span>', page.text)
    seasons = [[part.rsplit(" ", 1)[0] for part in s.split(" · ")] for s in scores]
    assert seasons == [["Spring", "Summer", "Fall", "Winter"]] * 2, scores


def test_open_sheet_leads_to_the_first_season_still_to_score(app: Flask, client: FlaskClient) -> None:
    """A table that recorded nothing while it played opens each sheet at
    spring, which every later season's map is made from, and a later season
    asked for directly names spring as the one to score first."""
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    as_host(client, t)
    t.set_taps(t.season_end(3))
    opened = client.get(f"/t/{t.code}/sheets/1")
    assert opened.status_code == 302 and opened.headers["Location"].endswith(f"/t/{t.code}/sheets/1/spring")
    winter = client.get(f"/t/{t.code}/sheets/1/winter")
    assert winter.status_code == 409 and "Score Ann&#39;s Spring first" in winter.text
    assert f'<a class="button" href="/t/{t.code}/sheets/1/spring">Open the Spring sheet</a>' in winter.text
    asked = client.get(f"/t/{t.code}/sheets/1/winter", headers={"Accept": "application/json"})
    assert asked.status_code == 409 and asked.json["remedy"] == f"/t/{t.code}/sheets/1/spring"
    save(client, t, 1, "spring", MapSheet.blank("A").text())
    score(client, t, 1, "spring")
    assert client.get(f"/t/{t.code}/sheets/1").headers["Location"].endswith("/sheets/1/summer")
    winter = client.get(f"/t/{t.code}/sheets/1/winter")
    assert "Score Ann&#39;s Summer first" in winter.text and f"/t/{t.code}/sheets/1/summer" in winter.text
    t.set_taps(1)  # during spring, spring is where the sheet opens
    assert client.get(f"/t/{t.code}/sheets/2").headers["Location"].endswith("/sheets/2/spring")


@pytest.mark.parametrize(("season", "first", "second"), [(0, "A", "B"), (3, "D", "A")])
def test_a_seasons_end_names_its_edicts_in_the_season_cards_order(
    app: Flask, client: FlaskClient, season: int, first: str, second: str
) -> None:
    """Spring scores A and B, winter D and A: the box at a season's end says
    them in that order, as the list of the season's cards does."""
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    t.set_taps(t.season_end(season))
    html = client.get(f"/t/{t.code}/tv").get_data(as_text=True)
    said = re.search(r"Score edicts <b>(\w)</b> \([^)]*\) and <b>(\w)</b>", html)
    assert said is not None and said.groups() == (first, second)
