"""Photograph my sheet: read a photo of the paper map into the grid editor, unsaved.

The player photographs the sheet; the reader (``referee.vision.reader``)
turns it into map codes. The answer is the ordinary editor, pre-filled with
the reading and the straightened photo beside it, every doubtful square
outlined. Nothing is saved here: the player checks, fixes by tapping and
presses the editor's own Save, with the revision the page was built from,
so a sheet another phone saved meanwhile is never overwritten. The photo is
read from the request and never stored (Werkzeug drops its spool at the end
of the request); only a small JPEG of the straightened grid goes back to
the page, as a data URL.

Also here, because they serve players who play on paper: the printable map
sheets (PDF, A4 and Letter) and the legend that says how to mark a sheet so
the reader can read it.
"""

from __future__ import annotations

import base64
import hashlib
import io
from collections.abc import Callable, Collection
from functools import lru_cache
from typing import Any, TypeVar

import numpy as np
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import force_locale
from flask_wtf.file import FileField, FileRequired
from numpy.typing import NDArray
from PIL import Image
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from wtforms import StringField
from wtforms.validators import Optional

from referee.rules import terrain
from referee.rules.data import map_sides
from referee.rules.errors import RefereeError
from referee.rules.geometry import SIZE, Cell
from referee.rules.i18n import _
from referee.table import SEASON_NAMES, SeasonSheet, Table, readings
from referee.table.records import coins_before, heroes_before, known_mountains
from referee.table.sheets import open_to_change
from referee.table.sides import other_sides
from referee.vision.errors import (
    BlackAndWhiteError,
    Corners,
    NoGridError,
    OtherSideError,
    TooLargeError,
    TwoSheetsError,
    VisionError,
    WrongSheetError,
)
from referee.vision.load import MAX_PIXELS, load_photo
from referee.vision.printable import PAPERS, PrintableError, sheet_pdf
from referee.vision.reader import SheetReading, corners_from_text, read_sheet
from referee.vision.render import SheetWords
from referee.vision.unsure import ADVICE
from referee.web import database, i18n, sheets
from referee.web.database import get_session
from referee.web.errors import answer, wants_json
from referee.web.forms import Form
from referee.web.offload import ReaderBusy, off_the_loop
from referee.web.seats import host_token

bp = Blueprint("photo", __name__)
T = TypeVar("T")
# A refused sheet (a season not begun, a seat that does not exist) answers as on the sheet pages.
bp.register_error_handler(RefereeError, sheets._refused)

PHOTO_JPEG_QUALITY = 80
"""The straightened photo sent back to the page: about 40 KB."""
MARK_JPEG_QUALITY = 85
"""A refused photo sent back to the page for the player to mark the grid's
corners on, at the reader's working size (``load.WORK_SIDE``): some 200 to
400 KB, sent back with the corners. The reader reads that picture as it
would have read the photo, without storing anything between the requests."""
BAD_CORNERS = _("The marked corners could not be read: tap the four corners of the grid again.")
PRINT_MAX_AGE = 7 * 86400
"""Printable sheets change only with a new release; browsers may keep them a week."""
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}


class PhotoForm(Form):
    """The photo upload; Flask-WTF checks its CSRF token."""

    photo = FileField(
        _("Photograph my sheet"),
        validators=[FileRequired(_("Choose a photo of your map sheet first."))],
    )
    corners = StringField(validators=[Optional()])
    """The grid's four corners the player marked on a photo the reader
    refused, ``x,y`` in the photo's pixels, four of them apart by spaces."""


def other_side_sentence(side: str, other: str, switchable: bool) -> str:
    """A photo of side ``other`` at a table that plays ``side``: what to do
    at the table, where no side can be chosen sheet by sheet. Each pad
    prints its game's two sides back to back (A and B, C and D), so a sheet
    of the same game is turned over; one of the other game is another pad's.
    And if the whole table drew on that side, the table was set up wrong:
    the host can switch it while nobody has saved a sheet (``switchable``,
    ``referee.table.sides``), else a new table is needed."""
    sides = map_sides()
    same_pad = sides[other].game == sides[side].game
    if same_pad and switchable:
        said = _(
            "This looks like map side %(other)s, but this table plays side %(side)s: turn the sheet "
            "over and photograph side %(side)s. If everyone drew on side %(other)s, the host can "
            "switch the table to side %(other)s on the host page, under “Change the map side”, "
            "until someone saves a sheet.",
            other=other,
            side=side,
        )
    elif same_pad:
        said = _(
            "This looks like map side %(other)s, but this table plays side %(side)s: turn the sheet "
            "over and photograph side %(side)s. If everyone drew on side %(other)s, set up a new "
            "table with side %(other)s.",
            other=other,
            side=side,
        )
    elif switchable:
        said = _(
            "This looks like map side %(other)s, from the other game's pad, but this table plays side "
            "%(side)s: photograph a side %(side)s sheet. If everyone drew on side %(other)s, the host "
            "can switch the table to side %(other)s on the host page, under “Change the map "
            "side”, until someone saves a sheet.",
            other=other,
            side=side,
        )
    else:
        said = _(
            "This looks like map side %(other)s, from the other game's pad, but this table plays side "
            "%(side)s: photograph a side %(side)s sheet. If everyone drew on side %(other)s, set up a new "
            "table with side %(other)s.",
            other=other,
            side=side,
        )
    return str(said)


def _status(error: VisionError) -> int:
    """413 for a photo too large, 422 for a good picture with no readable sheet, else 400."""
    if isinstance(error, TooLargeError):
        return 413
    if isinstance(error, NoGridError | WrongSheetError | BlackAndWhiteError):
        return 422
    return 400


def _size(n: int) -> str:
    return f"{n / 2**20:g} MB" if n >= 2**20 else f"{max(1, round(n / 1024))} KB"


def limit_sentence(what: str = "upload") -> str:
    """Over the upload limit: the limit, and how to send a smaller JPEG."""
    limit = int(current_app.config.get("MAX_CONTENT_LENGTH") or 0)
    advice = _(
        "send a smaller JPEG (on a phone, press Photograph my sheet to take a fresh photo, or share the "
        "photo from your gallery at a smaller size, as JPEG rather than HEIC or PNG)."
    )
    if what == "photo":
        return str(
            _(
                "That photo is too large. The referee accepts at most %(size)s: %(advice)s",
                size=_size(limit),
                advice=advice,
            )
        )
    return str(
        _(
            "That upload is too large. The referee accepts at most %(size)s: %(advice)s",
            size=_size(limit),
            advice=advice,
        )
    )


# --- reading a photo -------------------------------------------------------------------------------


def _jpeg_url(rgb: NDArray[np.uint8], quality: int) -> str:
    """``rgb`` as a JPEG data URL, for a page to show without another request."""
    out = io.BytesIO()
    Image.fromarray(rgb).save(out, "JPEG", quality=quality, optimize=True)
    return "data:image/jpeg;base64," + base64.b64encode(out.getvalue()).decode("ascii")


def _photo_url(reading: SheetReading) -> str:
    """The straightened grid, with the name line and coin track round it, as a small JPEG."""
    return _jpeg_url(reading.canvas, PHOTO_JPEG_QUALITY)


def reading_config(
    t: Table,
    sheet: SeasonSheet,
    reading: SheetReading,
    filled_before: int = 0,
    known: Collection[Cell] = (),
    earlier: Collection[dict[str, Any]] = (),
) -> dict[str, Any]:
    """What the editor needs to start from the reading instead of the saved map.

    ``check`` lists the squares to outline: those the reader doubts, filled
    spaces of the saved map that the photo reads differently (a filled space
    is never emptied in play), and heroes with no hero card yet. A hero
    drawn in an earlier season (``earlier``, ``records.heroes_before``) stays
    on the map whatever the photo reads at its space: the map keeps it, with
    its card, outlined, and the note says so (``heroesKept``,
    ``readings.keep_earlier_heroes``). ``retake``
    says whether the reader doubts so many squares that another photo may
    read better, and ``retakeWhy`` what spoiled it as far as the reader can
    tell (``SheetReading.retake_causes``). ``heroNamed``: each hero space read given the one hero
    card out that the map did not hold, with whether that space is doubted
    (a square read as a hero wrongly still takes the card). Coins read
    below ``filled_before``, the count the season before was scored with,
    are set aside (``coinsBelow``): a filled coin is never emptied in play,
    so that reading is wrong, and the player is asked;
    a track the season before filled whole is full still, read or not
    (``coinsFull`` when not read, so that the note does not say it was).
    A track that could not be read starts from the coins the referee can
    know of (``readings.unread_coins``: those carried into the season,
    one per mountain surrounded since the mountains ``known`` were, and the
    Dragon's once the map closes it in), the
    note saying what that count holds and what the player adds to it
    (``coinsStart``, ``coinsSaid``). A square whose code the game's limits
    chose (``SheetReading.limited``: ``limited``, row, column and the code
    read there) is outlined, and the note says which limit
    (``limitsSaid``, ``readings.limits_said``).

    Once the player has saved this season's sheet (its revision is past the
    one it was opened at), that map is their word: every square the photo
    reads otherwise is outlined, an empty one read as filled too (a square
    they emptied by hand, the reader had read wrong before), and a coin
    track the photo cannot read keeps the count they saved (``coinsKept``)
    instead of asking again."""
    read = "".join(reading.grid)
    saved = sheet.map_text.replace("\n", "")
    saved_here = sheet.revision > 1
    doubtful = {r * SIZE + c for r, c in reading.doubtful()}
    changed = {
        i
        for i, (was, now) in enumerate(zip(saved, read, strict=True))
        if now != was
        and now != terrain.DESTROYED
        and (was in terrain.DRAWN or (saved_here and now in terrain.DRAWN))
    }
    kept = readings.keep_earlier_heroes(sheet, earlier, read)
    codes = kept.codes
    held = {hero.index for hero in kept.heroes}
    heroes = readings.read_heroes(t, sheet, codes, earlier)
    unnamed = set(heroes.unnamed)
    monsters = readings.read_monsters(t, sheet, codes, earlier)
    untagged = set(monsters.untagged)
    # a hero of an earlier season kept where a limit took it: the map shows what was read
    bounded = [(r, c, code) for r, c, code in reading.limited if codes[r * SIZE + c] != code]
    limited = {r * SIZE + c for r, c, _code in bounded}
    track = t.side.coin_track
    coins = min(reading.coins, track) if reading.coins is not None else None
    full = coins is None and filled_before >= track
    if full:
        coins = track  # a full track stays full: coins are never lost
    below = coins is not None and coins < filled_before
    start = (
        readings.unread_coins(t, sheet, codes, known, monsters.groups)
        if coins is None and not saved_here
        else None
    )
    spoiled = reading.retake_causes()
    return {
        "map": codes,
        "coins": None if below else coins,
        "coinsBelow": [coins, filled_before] if below else None,
        "coinsFull": full,
        "coinsKept": sheet.coins if saved_here and reading.coins is None else None,
        "coinsStart": start.coins if start else None,
        "coinsSaid": [str(said) for said in start.sentences()] if start else [],
        "savedHere": saved_here,
        "heroes": heroes.kept + heroes.named,
        # the card is sure (the one out that the map did not hold); its space is as sure as its reading
        "heroNamed": [[h["hero"], h["at"], h["at"][0] * SIZE + h["at"][1] in doubtful] for h in heroes.named],
        "heroesKept": [str(hero.sentence()) for hero in kept.heroes],
        "doubtful": sorted(doubtful),
        "changed": sorted(changed - doubtful),
        "unnamed": sorted(unnamed),
        "monsters": monsters.groups,
        "untagged": sorted(untagged),
        "limited": [[r, c, code] for r, c, code in bounded],
        "limitsSaid": [str(said) for said in readings.limits_said(t, sheet.season, bounded)],
        "check": sorted(doubtful | changed | held | unnamed | untagged | limited),
        "retake": reading.worth_retaking(),
        "retakeWhy": [str(cause) for cause in spoiled],
        "retakeSaid": [sheets.sentence(ADVICE[cause]) for cause in spoiled],
        "confidence": [v for row in reading.confidence for v in row],
    }


def _mark_photo(data: bytes, grids: tuple[Corners, ...] = ()) -> dict[str, Any] | None:
    """The photo the reader refused, upright at the size it was read at, as
    a data URL with its width and height, for the player to mark the grid's
    corners on (``templates/sheets/photo_mark.html``), with the ``grids``
    the reader found (photo pixels as displayed) in its pixels, to choose
    one of; None for a file that is no photo the reader can open."""
    try:
        photo = load_photo(data)
    except VisionError:
        return None
    rgb, k = photo.rgb, photo.scale
    return {
        "url": _jpeg_url(rgb, MARK_JPEG_QUALITY),
        "width": rgb.shape[1],
        "height": rgb.shape[0],
        "grids": [[[round(x / k, 1), round(y / k, 1)] for x, y in grid] for grid in grids],
    }


def _aside(compute: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``compute`` in the worker's reading thread (``offload``), this request's
    database connection given back meanwhile."""
    database.release_connection()
    return off_the_loop(compute, *args, **kwargs)


def _refuse(
    code: str,
    number: int,
    season: str,
    status: int,
    sentence: str,
    data: bytes | None = None,
    side_switch_url: str | None = None,
    two_sheets: TwoSheetsError | None = None,
) -> ResponseReturnValue:
    """The editor again with the refusal on top (JSON for API clients); nothing
    saved changes. With the refused photo (``data``: a good picture in which
    no grid was found, or none that matched the side), the page also offers
    to mark the grid's corners on it; when the photo showed ``two_sheets``,
    it asks for the player's own, and offers the two grids found to choose
    from. With ``side_switch_url``, a link to the host page's side switch.
    A JSON client is told the two grids' corners (``grids``, photo pixels as
    displayed, as ``corners`` takes them) to send back the player's own."""
    grids = two_sheets.grids if two_sheets is not None else ()
    if wants_json():
        offered = {"grids": [[list(c) for c in grid] for grid in grids]} if grids else None
        return answer(status, sentence, details=offered)
    mark = _aside(_mark_photo, data, grids) if data is not None else None
    if mark is not None:
        mark["own"] = two_sheets is not None
    page = sheets.editor_page(
        code, number, season, photo_error=sentence, mark_photo=mark, side_switch_url=side_switch_url
    )
    return page, status


BUSY = _(
    "many photos are being read right now, and yours waited too long for its turn: send it again in a minute"
)
BUSY_RETRY = 60
"""Seconds a refused photo's ``Retry-After`` asks a script to wait."""


def _busy(code: str, number: int, season: str) -> ResponseReturnValue:
    """The editor again, or the JSON error, with 503 and ``BUSY`` when the
    photo waited past ``PHOTO_WAIT`` for the worker's reading thread
    (``offload.ReaderBusy``); nothing saved changes, and the photo is not
    offered to mark, since it was never read."""
    response = make_response(_refuse(code, number, season, 503, sheets.sentence(str(BUSY))))
    response.headers["Retry-After"] = str(BUSY_RETRY)
    return response


def _corners(text: str | None) -> list[tuple[float, float]] | None:
    """The four marked corners in ``text`` (``corners_from_text``), None when
    none were sent; a ``ValueError`` when they are not four pairs of numbers."""
    return corners_from_text(text) if text and text.strip() else None


@bp.get("/t/<code>/sheets/<int:number>/<season>/photo")
def reading_address(code: str, number: int, season: str) -> ResponseReturnValue:
    """A reading is the answer to the photo's POST, not a page to fetch again:
    its address, reloaded, restored with a tab or taken by the language
    switch, opens the sheet as saved (``sheets.edit`` answers a wrong code,
    seat or season with its sentence)."""
    return redirect(url_for("sheets.edit", code=code, number=number, season=season), 303)


@bp.post("/t/<code>/sheets/<int:number>/<season>/photo")
def read(code: str, number: int, season: str) -> ResponseReturnValue:
    t, seat, s = sheets.for_change(code, number, season)
    sheet = open_to_change(get_session(), t, seat, s)
    form = PhotoForm()
    if not form.validate_on_submit():
        errors = form.photo.errors or next(iter(form.errors.values()), [_("The form could not be read.")])
        return _refuse(code, number, season, 400, sheets.sentence(str(errors[0])))
    data = form.photo.data.read()
    try:
        corners = _corners(form.corners.data)
    except ValueError:
        return _refuse(code, number, season, 400, sheets.sentence(str(BAD_CORNERS)), data)
    try:
        reading = _aside(
            read_sheet,
            data,
            t.side.letter,
            t.drawn,
            t.heroes_revealed(s),
            t.monsters_at_most(s),
            corners=corners,
            patience=current_app.config["PHOTO_WAIT"],
        )
    except ReaderBusy:
        return _busy(code, number, season)
    except OtherSideError as error:  # the grid is found: the sheet or the table's side is the wrong one
        switchable = error.other in {side.letter for side in other_sides(get_session(), t.table)}
        token = host_token(t.table) if switchable else None
        # the host, on this phone, is one tap from the switch the sentence names
        switch = url_for("dealer.host", code=code, token=token, _anchor="change-side") if token else None
        return _refuse(
            code,
            number,
            season,
            _status(error),
            other_side_sentence(t.side.letter, error.other, switchable),
            side_switch_url=switch,
        )
    except VisionError as error:
        # no grid found, or none that matched the side: the player can mark it
        markable = isinstance(error, NoGridError | WrongSheetError)
        return _refuse(
            code,
            number,
            season,
            _status(error),
            sheets.sentence(str(error)),
            data if markable else None,
            two_sheets=error if isinstance(error, TwoSheetsError) else None,
        )
    session = get_session()
    config = reading_config(
        t,
        sheet,
        reading,
        coins_before(session, seat, s),
        known_mountains(session, t, seat, s),
        heroes_before(session, seat, s),
    )
    if wants_json():
        return jsonify(
            revision=sheet.revision,
            grid=list(reading.grid),
            confidence=[list(row) for row in reading.confidence],
            coins=reading.coins,
            corners=[list(c) for c in reading.corners],
            check=[divmod(i, SIZE) for i in config["check"]],
            limited=config["limited"],
            limitsSaid=config["limitsSaid"],
            retake=config["retake"],
            retakeWhy=config["retakeWhy"],
            photo=_photo_url(reading),
        )
    return sheets.editor_page(
        code, number, season, config={"reading": config}, reading=config, photo_url=_photo_url(reading)
    )


@bp.app_errorhandler(RequestEntityTooLarge)
def too_large(error: RequestEntityTooLarge) -> ResponseReturnValue:
    """Over ``MAX_CONTENT_LENGTH``: say the limit and how to send less; on the
    photo route, the editor again, its saved sheet untouched. A refusal
    that says its own sentence (a JSON body over its far smaller cap, from
    ``inputs.json_body``) says that one: the upload's limit and a JPEG are
    not what it is about."""
    if error.description != RequestEntityTooLarge.description:
        return answer(413, str(error.description))
    if request.endpoint != "photo.read":
        return answer(413, limit_sentence())
    view = request.view_args or {}
    try:
        return _refuse(view["code"], view["number"], view["season"], 413, limit_sentence("photo"))
    except (HTTPException, RefereeError):
        # No such table, seat or season, or a season not begun: no editor to show, the plain page.
        return answer(413, limit_sentence("photo"))


# --- paper: printable sheets and the legend ----------------------------------------------------------


def sheet_words(lang: str) -> SheetWords | None:
    """The printable sheet's words in ``lang`` (None: the English default)."""
    if lang == i18n.DEFAULT:
        return None
    with force_locale(lang):
        return SheetWords(
            title=str(_("CARTOGRAPHERS")),
            sheet=str(_("Map sheet - side %(letter)s: %(name)s", letter="{letter}", name="{name}")),
            name=str(_("Name")),
            document=str(_("Cartographers map sheet, side %(letter)s", letter="{letter}")),
            seasons=(
                str(SEASON_NAMES["spring"]),
                str(SEASON_NAMES["summer"]),
                str(SEASON_NAMES["fall"]),
                str(SEASON_NAMES["winter"]),
            ),
            pencils=str(
                _(
                    "Coloured pencils: forest green, village red, farm yellow, water blue, monster violet, "
                    "hero orange"
                )
            ),
            side_names={letter: i18n.side_title(side) for letter, side in map_sides().items()},
        )


@lru_cache(maxsize=len(PAPERS) * 4 * len(i18n.LANGUAGES))
def _pdf(side: str, paper: str, lang: str = i18n.DEFAULT) -> bytes:
    return sheet_pdf(side, paper, words=sheet_words(lang))


@bp.get("/print/map-sheet-<side>-<paper>.pdf")
def printable(side: str, paper: str) -> ResponseReturnValue:
    side = side.upper()
    if side not in map_sides():
        abort(404, str(_("There is no map side %(side)s: the sides are A, B, C and D.", side=side)))
    try:
        lang = request.args.get("lang", i18n.DEFAULT)
        body = _pdf(side, paper.lower(), lang if lang in i18n.LANGUAGES else i18n.DEFAULT)
    except PrintableError:
        abort(404, str(_("Map sheets print on A4 or Letter paper, not %(paper)s.", paper=paper)))
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = (
        f'inline; filename="cartographers-map-sheet-{side}-{PAPER_NAMES[paper.lower()]}.pdf"'
    )
    response.cache_control.public = True
    response.cache_control.max_age = PRINT_MAX_AGE
    response.set_etag(hashlib.sha256(body).hexdigest()[:32])
    return response.make_conditional(request)


@bp.app_template_global()
def printable_sheets() -> list[dict[str, str]]:
    """Every side at every paper size, for the download links (a template global,
    so that imported macros see it), with the sheet's words in the reader's language."""
    lang = i18n.language()
    return [
        {
            "side": side,
            "paper": paper,
            "label": str(_("Side %(side)s, %(paper)s", side=side, paper=PAPER_NAMES[paper])),
            "lang": "" if lang == i18n.DEFAULT else lang,
        }
        for side in sorted(map_sides())
        for paper in PAPERS
    ]


@bp.app_template_global()
def photo_limit() -> int:
    """The largest upload in bytes, for the page to check a photo before sending it."""
    return int(current_app.config.get("MAX_CONTENT_LENGTH") or 0)


@bp.app_template_global()
def photo_pixels() -> int:
    """The most pixels the reader opens, for the page to make a picture of
    more pixels smaller before sending it, however few bytes its file holds."""
    return MAX_PIXELS


@bp.get("/legend")
def legend() -> ResponseReturnValue:
    return render_template("legend.html", sides=sorted(map_sides()), papers=PAPER_NAMES)
