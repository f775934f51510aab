"""Draw a map sheet of one side, the way the official sheet is laid out.

One renderer serves three needs: the printable PDF sheets, the synthetic
photos the reader is trained and measured on, and the reader itself, which
compares what it sees around the grid with this drawing to tell which way up
the sheet is. Keeping them one drawing means the three cannot drift apart.

All positions are in *units* of one grid square. The page is portrait, with
the title and the name line above the grid, and the coin track (14 coins) and
the four season score boxes below it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

from referee.rules.data import MapSide, map_sides
from referee.rules.geometry import SIZE

PAGE_W = 15.5
"""Page width in units (a grid square is one unit)."""
PAGE_H = 21.9
"""Page height in units: A4's proportion."""
GRID_X = (PAGE_W - SIZE) / 2
"""Left edge of the grid's outer square."""
GRID_Y = 4.2
"""Top edge of the grid's outer square."""
COINS = 14
COIN_Y = GRID_Y + SIZE + 0.95
"""Centre line of the coin track."""
COIN_R = 0.3
SEASON_Y = COIN_Y + 0.9
"""Top of the four season score boxes."""
SEASON_H = 2.6
SEASONS = ("Spring", "Summer", "Fall", "Winter")
FONT_FILE = "DejaVuSans-Latin.ttf"
"""A font with Latin Extended-A (Czech: č, ř, ž, ě, ů), for words Pillow's own
default font cannot draw; shipped beside this module with its licence."""


@dataclass(frozen=True)
class SheetWords:
    """The words printed on a sheet, in one language (English by default)."""

    title: str = "CARTOGRAPHERS"
    sheet: str = "Map sheet - side {letter}: {name}"
    """The line under the title; ``{letter}`` and ``{name}`` are the side's."""
    name: str = "Name"
    document: str = "Cartographers map sheet, side {letter}"
    """The PDF's title."""
    seasons: tuple[str, str, str, str] = SEASONS
    pencils: str = (
        "Coloured pencils: forest green, village red, farm yellow, water blue, monster violet, hero orange"
    )
    side_names: dict[str, str] | None = None
    """Each side's name by letter, when not the data's English one."""

    @property
    def needs_font(self) -> bool:
        """Whether any word is beyond Latin-1, which the default font lacks."""
        text = "".join([self.title, self.sheet, self.name, *self.seasons, self.pencils])
        text += "".join((self.side_names or {}).values())
        return any(ord(ch) > 0xFF for ch in text)


"""The season boxes, named as the English rulebook names the seasons."""

PAPER = (247, 243, 232)
INK = (28, 26, 24)
LINE = (70, 66, 60)
MOUNTAIN_FILL = (150, 132, 108)
RUINS_INK = (120, 90, 60)
WASTE_INK = (105, 88, 70)


@dataclass(frozen=True)
class Style:
    """How a sheet is drawn: ``official`` imitates the pad; ``printable``
    adds what makes a home-printed sheet easy to read (heavier grid outline,
    corner markers and an orientation arrow that is not symmetric)."""

    name: str
    border: float
    """Width of the grid's outer square, in units."""
    markers: bool


OFFICIAL = Style("official", 0.09, False)
PRINTABLE = Style("printable", 0.13, True)
STYLES = {s.name: s for s in (OFFICIAL, PRINTABLE)}


def coin_centres() -> list[tuple[float, float]]:
    """Centres of the coin track's 14 coins, in units, left to right."""
    step = SIZE / COINS
    return [(GRID_X + step * (k + 0.5), COIN_Y) for k in range(COINS)]


@cache
def _font(px: int, extended: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    if extended:
        path = resources.files("referee.vision").joinpath(FONT_FILE)
        with path.open("rb") as f:
            return ImageFont.truetype(io.BytesIO(f.read()), size=max(px, 6))
    return ImageFont.load_default(size=max(px, 6))


def _mountain(draw: ImageDraw.ImageDraw, x: float, y: float, u: float) -> None:
    """A printed mountain: two peaks with snow caps, inside the square at x, y."""
    base = y + 0.82 * u
    peaks = [(x + 0.38 * u, y + 0.2 * u, 0.3 * u), (x + 0.66 * u, y + 0.36 * u, 0.24 * u)]
    for px, py, half in peaks:
        pts = [(px - half, base), (px, py), (px + half, base)]
        draw.polygon(pts, fill=MOUNTAIN_FILL, outline=INK, width=max(1, round(0.035 * u)))
        cap = [
            (px - half * 0.32, py + (base - py) * 0.32),
            (px, py),
            (px + half * 0.32, py + (base - py) * 0.32),
        ]
        draw.polygon(cap, fill=PAPER)


def _ruins(draw: ImageDraw.ImageDraw, x: float, y: float, u: float) -> None:
    """A printed ruins symbol: a broken arch on a plinth, in the upper part of
    the square, so that what a player draws there still shows."""
    w = max(1, round(0.04 * u))
    left, right, top, foot = x + 0.3 * u, x + 0.7 * u, y + 0.12 * u, y + 0.42 * u
    draw.line([(left, foot), (left, top + 0.1 * u)], fill=RUINS_INK, width=w)
    draw.line([(right, foot), (right, top + 0.16 * u)], fill=RUINS_INK, width=w)
    draw.arc([left, top, right - 0.08 * u, top + 0.22 * u], 180, 300, fill=RUINS_INK, width=w)
    draw.line([(left - 0.06 * u, foot), (right + 0.06 * u, foot)], fill=RUINS_INK, width=w)


def _wasteland(draw: ImageDraw.ImageDraw, x: float, y: float, u: float) -> None:
    """A printed wasteland: the square hatched with diagonal lines."""
    w = max(1, round(0.035 * u))
    n = 6
    for k in range(1, 2 * n):
        t = k / n
        a = (x + min(t, 1) * u, y + max(t - 1, 0) * u)
        b = (x + max(t - 1, 0) * u, y + min(t, 1) * u)
        draw.line([a, b], fill=WASTE_INK, width=w)


def _frame(draw: ImageDraw.ImageDraw, u: float) -> None:
    """The decorative frame near the page edge: a double line with small
    diamonds, well away from the grid so it is never mistaken for it."""
    m = 0.35 * u
    W, H = PAGE_W * u, PAGE_H * u
    draw.rectangle([m, m, W - m, H - m], outline=LINE, width=max(1, round(0.04 * u)))
    m2 = 0.5 * u
    draw.rectangle([m2, m2, W - m2, H - m2], outline=LINE, width=max(1, round(0.02 * u)))
    d = 0.12 * u
    for cx, cy in ((m, m), (W - m, m), (W - m, H - m), (m, H - m)):
        draw.polygon([(cx - d, cy), (cx, cy - d), (cx + d, cy), (cx, cy + d)], fill=LINE)


def _markers(draw: ImageDraw.ImageDraw, u: float) -> None:
    """Printable sheets: solid corner squares and an arrow pointing up at the
    top left, which no rotation of the sheet reproduces."""
    s = 0.55 * u
    for cx, cy in ((0.9, 0.9), (PAGE_W - 0.9, 0.9), (PAGE_W - 0.9, PAGE_H - 0.9), (0.9, PAGE_H - 0.9)):
        draw.rectangle([cx * u - s / 2, cy * u - s / 2, cx * u + s / 2, cy * u + s / 2], fill=INK)
    ax, ay = 2.0 * u, 1.3 * u
    draw.polygon(
        [(ax, ay - 0.45 * u), (ax - 0.35 * u, ay + 0.1 * u), (ax + 0.35 * u, ay + 0.1 * u)], fill=INK
    )
    draw.rectangle([ax - 0.12 * u, ay + 0.1 * u, ax + 0.12 * u, ay + 0.55 * u], fill=INK)


def render_sheet(
    side: str | MapSide, u: float = 40.0, style: str = "official", words: SheetWords | None = None
) -> Image.Image:
    """The blank sheet of ``side`` as an RGB image, ``u`` pixels per grid square,
    its words in English unless ``words`` gives another language's."""
    words = words or SheetWords()
    ext = words.needs_font
    if isinstance(side, str):
        side = map_sides()[side.upper()]
    st = STYLES[style]
    W, H = round(PAGE_W * u), round(PAGE_H * u)
    img = Image.new("RGB", (W, H), PAPER)
    draw = ImageDraw.Draw(img)
    _frame(draw, u)
    if st.markers:
        _markers(draw, u)

    title = words.title
    font = _font(round(0.95 * u), ext)
    tw = draw.textlength(title, font=font)
    draw.text(((W - tw) / 2, 0.9 * u), title, fill=INK, font=font)
    side_name = (words.side_names or {}).get(side.letter) or side.name.split(" (")[0]
    sub = words.sheet.format(letter=side.letter, name=side_name)
    font2 = _font(round(0.42 * u), ext)
    draw.text(((W - draw.textlength(sub, font=font2)) / 2, 2.15 * u), sub, fill=LINE, font=font2)
    draw.text((GRID_X * u, 3.05 * u), words.name, fill=INK, font=font2)
    draw.line(
        [((GRID_X + 1.5) * u, 3.5 * u), ((GRID_X + SIZE) * u, 3.5 * u)],
        fill=LINE,
        width=max(1, round(0.03 * u)),
    )

    gx, gy = GRID_X * u, GRID_Y * u
    thin = max(1, round(0.03 * u))
    for r in range(SIZE):
        for c in range(SIZE):
            x, y = gx + c * u, gy + r * u
            if (r, c) in side.mountains:
                _mountain(draw, x, y, u)
            elif (r, c) in side.wastelands:
                _wasteland(draw, x, y, u)
            if (r, c) in side.ruins:
                _ruins(draw, x, y, u)
    for k in range(1, SIZE):
        draw.line([(gx + k * u, gy), (gx + k * u, gy + SIZE * u)], fill=LINE, width=thin)
        draw.line([(gx, gy + k * u), (gx + SIZE * u, gy + k * u)], fill=LINE, width=thin)
    b = st.border * u
    draw.rectangle(
        [gx - b / 2, gy - b / 2, gx + SIZE * u + b / 2, gy + SIZE * u + b / 2],
        outline=INK,
        width=max(2, round(b)),
    )

    for cx, cy in coin_centres():
        radius = COIN_R * u
        draw.ellipse(
            [(cx * u - radius), (cy * u - radius), (cx * u + radius), (cy * u + radius)],
            outline=INK,
            width=max(1, round(0.05 * u)),
        )
        inner = radius * 0.35
        draw.ellipse(
            [(cx * u - inner), (cy * u - inner), (cx * u + inner), (cy * u + inner)],
            outline=LINE,
            width=thin,
        )
    bw = SIZE / 4
    font3 = _font(round(0.38 * u), ext)
    for k, name in enumerate(words.seasons):
        x0 = (GRID_X + k * bw) * u
        y0 = SEASON_Y * u
        draw.rectangle(
            [x0 + 0.08 * u, y0, x0 + bw * u - 0.08 * u, y0 + SEASON_H * u], outline=INK, width=thin
        )
        draw.text((x0 + 0.2 * u, y0 + 0.12 * u), name, fill=INK, font=font3)
        for j in range(2):
            bx = x0 + (0.25 + j * 1.25) * u
            draw.rectangle([bx, y0 + 0.75 * u, bx + 1.0 * u, y0 + 1.6 * u], outline=LINE, width=thin)
        draw.rectangle([x0 + 0.8 * u, y0 + 1.8 * u, x0 + 1.95 * u, y0 + 2.45 * u], outline=INK, width=thin)
    font4 = _font(round(0.25 * u), ext)
    foot = words.pencils
    size = round(0.25 * u)
    while size > 6 and draw.textlength(foot, font=font4) > W - 4 * u:  # clear of the corner marks
        size -= 1
        font4 = _font(size, ext)
    draw.text(((W - draw.textlength(foot, font=font4)) / 2, (PAGE_H - 1.25) * u), foot, fill=LINE, font=font4)
    return img


def grid_corners(u: float) -> list[tuple[float, float]]:
    """The grid's outer corners on a sheet drawn at ``u`` px per unit: TL, TR, BR, BL."""
    x0, y0 = GRID_X * u, GRID_Y * u
    x1, y1 = x0 + SIZE * u, y0 + SIZE * u
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
