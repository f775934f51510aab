"""Sheet designs for the synthetic photos: what the blank map sheet looks like.

The reader must not learn that a map sheet is the one drawing we happen to
print. So each sample draws its sheet from a *design*, chosen at random among
three families:

- ``printable``: our home-printed sheet (``referee.vision.render``, style
  ``printable``) on a random paper;
- ``official``: the renderer's imitation of the pad (style ``official``);
- ``pad``: a design like the box's pad, randomized widely around it: title
  "CARTOGRAPHERS" and "A Roll Player Tale", the Cartographer and Title lines,
  the 11x11 grid inside a dark decorative frame from none to a full square
  thick (plain, double, dots, studs, rules, rope, checker; corner pieces),
  printed mountains, ruins and wastelands in several icon styles, the coin
  track of 14 circles, four season boxes or none, a "MAP A" label or none,
  and paper, line and frame colours of several families.

All positions are in *units* of one grid square, like ``render``'s.

Held-out variants (``--designs holdout``) are never drawn for a training set
(``--designs train``), so that a bench set can measure the reader on a design
it has never seen: see ``HOLDOUT``.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from referee.rules.data import MapSide
from referee.rules.geometry import SIZE
from referee.vision import render

RGB = tuple[int, int, int]

# --- the choices, and which of them only a held-out set sees -------------------

PAPERS: dict[str, list[RGB]] = {
    "white": [(250, 250, 247), (244, 245, 244), (252, 250, 245)],
    "cream": [(247, 241, 225), (243, 236, 214), (249, 244, 230)],
    "yellowed": [(238, 226, 190), (232, 220, 180), (240, 230, 200)],
    "parchment": [(233, 218, 184), (226, 208, 170), (236, 222, 192)],
    "grey": [(222, 222, 216), (214, 214, 210), (228, 226, 220)],
    "aged": [(228, 205, 160), (220, 196, 150), (232, 212, 172)],
}
"""Paper tints; ``parchment`` and ``aged`` are mottled, ``aged`` also stained."""
INKS: dict[str, list[RGB]] = {
    "sepia": [(105, 72, 45), (95, 65, 40), (120, 85, 55)],
    "brown": [(78, 55, 38), (70, 48, 32), (88, 62, 44)],
    "black": [(25, 23, 22), (38, 36, 34), (18, 18, 20)],
    "grey": [(70, 70, 70), (85, 84, 82), (60, 62, 64)],
    "slate": [(48, 60, 80), (40, 52, 72), (58, 68, 88)],
    "olive": [(58, 68, 42), (66, 72, 48), (50, 60, 38)],
}
"""Line colours of the printed sheet."""
ORNAMENTS = ("plain", "double", "dots", "studs", "rules", "rope", "checker")
MOUNTAINS = ("peaks2", "peak1", "peaks3", "solid", "hills")
RUINS = ("arch", "temple", "wall", "dome", "composed")
WASTES = ("hatch", "solid", "crosshatch", "stipple")

HOLDOUT: dict[str, frozenset[str]] = {
    "paper": frozenset({"grey", "aged"}),
    "ink": frozenset({"slate", "olive"}),
    "ornament": frozenset({"rope", "checker"}),
    "mountain": frozenset({"hills"}),
    "ruins": frozenset({"dome"}),
    "waste": frozenset({"stipple"}),
}
"""Variants reserved for held-out sets, by attribute; ``scene.HOLDOUT_BACKGROUNDS``
holds the backgrounds."""


def pick(rng: np.random.Generator, attr: str, options: tuple[str, ...] | list[str], designs: str) -> str:
    """One variant of ``attr``: training variants only for ``train``; for
    ``holdout`` a held-out variant half of the time; anything for ``all``."""
    held = [o for o in options if o in HOLDOUT.get(attr, frozenset())]
    kept = [o for o in options if o not in held]
    if designs == "train" or not held:
        pool = kept
    elif designs == "holdout":
        pool = held if rng.random() < 0.5 else kept
    else:
        pool = list(options)
    return str(pool[int(rng.integers(len(pool)))])


# --- the design ----------------------------------------------------------------


@dataclass(frozen=True)
class Design:
    """Everything that decides how a blank sheet is drawn."""

    family: str
    """``printable``, ``official`` (both drawn by ``render``) or ``pad``."""
    page_w: float
    page_h: float
    grid_x: float
    """Left edge of the grid's outer square."""
    grid_y: float
    paper_family: str
    paper: RGB
    ink_family: str
    ink: RGB
    """Colour of the grid lines, text and icons."""
    line: float
    """Width of the inner grid lines."""
    outline: float
    """Width of the grid's outer square."""
    frame: float
    """Thickness of the dark frame band around the grid (0: none)."""
    frame_gap: float
    """Paper between the grid's outer square and the frame band."""
    frame_colour: RGB
    ornament: str
    corner_piece: str
    """``none``, ``square``, ``circle`` or ``diamond`` at the frame's corners."""
    mountain: str
    mountain_tint: bool
    """Printed mountain squares have a tinted ground."""
    ruins: str
    ruins_size: float
    ruins_centred: bool
    waste: str
    title_y: float
    title_size: float
    subtitle: bool
    name_y: float
    """Baseline of the (first) Cartographer / Title line."""
    name_rows: int
    coin_x0: float
    """Centre of the first coin."""
    coin_step: float
    coin_y: float
    coin_r: float
    coin_style: str
    seasons: bool
    season_y: float
    season_h: float
    map_label: str
    font: str
    holdout: tuple[str, ...]
    """The attributes whose variant is a held-out one."""
    ruins_fade: float = 0.0
    """How far the printed ruins' ink is lightened towards the paper: pads
    print them in a faint grey as often as in the lines' ink."""
    ruins_width: float = 0.035
    """Width of the printed ruins' strokes."""
    ruins_parts: tuple[tuple[str, tuple[float, ...]], ...] = ()
    """The ``composed`` ruins' own picture (see ``compose_ruins``)."""
    ruins_grey: bool = False
    """The ruins are printed in a neutral grey instead of the lines' ink: on
    a cream or yellowed paper a grey print takes away more red than blue,
    so once the paper is made white it has a colour of its own."""
    ruins_ground: float = 0.0
    """How far the ruins space's whole ground is printed towards the ruins'
    ink (0: bare paper). A printing may set its printed spaces apart with a
    shaded ground as well as a picture, so an empty ruins space may be a
    little darker all over than the bare squares around it."""
    ruins_hollow: bool = False
    """The ruins' strokes are printed in outline, as hollow bands, the way
    a pad's artwork draws them, rather than as single lines."""

    def coin_centres(self) -> list[tuple[float, float]]:
        return [(self.coin_x0 + k * self.coin_step, self.coin_y) for k in range(render.COINS)]

    def grid_corners(self, u: float) -> list[tuple[float, float]]:
        """The grid's outer corners at ``u`` px per unit: TL, TR, BR, BL."""
        x0, y0 = self.grid_x * u, self.grid_y * u
        x1, y1 = x0 + SIZE * u, y0 + SIZE * u
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]

    def season_boxes(self) -> list[tuple[float, float, float, float]]:
        """Each season box's x0, y0, x1, y1 (none without season boxes)."""
        if not self.seasons:
            return []
        bw = SIZE / 4
        return [
            (
                self.grid_x + k * bw + 0.08,
                self.season_y,
                self.grid_x + (k + 1) * bw - 0.08,
                self.season_y + self.season_h,
            )
            for k in range(4)
        ]

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for k, v in asdict(self).items():
            out[k] = round(v, 3) if isinstance(v, float) else list(v) if isinstance(v, tuple) else v
        return out


def _colour(rng: np.random.Generator, base: RGB, amount: int) -> RGB:
    r, g, b = (int(np.clip(v + rng.integers(-amount, amount + 1), 0, 255)) for v in base)
    return (r, g, b)


def _tint(rng: np.random.Generator, table: dict[str, list[RGB]], family: str, amount: int) -> RGB:
    options = table[family]
    return _colour(rng, options[int(rng.integers(len(options)))], amount)


def render_design(rng: np.random.Generator, family: str, designs: str) -> Design:
    """A design of ``render``'s own layout (``printable`` or ``official``): only
    the paper varies (a home printer's paper, or the pad's)."""
    held: list[str] = []
    paper_family = pick(
        rng, "paper", ("white", "cream", "grey") if family == "printable" else tuple(PAPERS), designs
    )
    if paper_family in HOLDOUT["paper"]:
        held.append("paper")
    c = render.coin_centres()
    return Design(
        family=family,
        page_w=render.PAGE_W,
        page_h=render.PAGE_H,
        grid_x=render.GRID_X,
        grid_y=render.GRID_Y,
        paper_family=paper_family,
        paper=_tint(rng, PAPERS, paper_family, 5),
        ink_family="black",
        ink=render.INK,
        line=0.03,
        outline=render.STYLES[family].border,
        frame=0.0,
        frame_gap=0.0,
        frame_colour=render.INK,
        ornament="none",
        corner_piece="none",
        mountain="render",
        mountain_tint=False,
        ruins="render",
        ruins_size=0.4,
        ruins_centred=False,
        waste="render",
        title_y=0.9,
        title_size=0.95,
        subtitle=True,
        name_y=3.5,
        name_rows=1,
        coin_x0=c[0][0],
        coin_step=c[1][0] - c[0][0],
        coin_y=render.COIN_Y,
        coin_r=render.COIN_R,
        coin_style="render",
        seasons=True,
        season_y=render.SEASON_Y,
        season_h=render.SEASON_H,
        map_label="",
        font="default",
        holdout=tuple(held),
    )


def pad_design(rng: np.random.Generator, designs: str) -> Design:
    """A design like the box's pad, every part of it randomized."""
    held: list[str] = []

    def choose(attr: str, options: tuple[str, ...]) -> str:
        v = pick(rng, attr, options, designs)
        if v in HOLDOUT.get(attr, frozenset()):
            held.append(attr)
        return v

    paper_family = choose("paper", tuple(PAPERS))
    ink_family = choose("ink", tuple(INKS))
    ink = _tint(rng, INKS, ink_family, 10)
    if rng.random() < 0.12:
        frame = 0.0
    elif rng.random() < 0.3:
        frame = float(rng.uniform(0.04, 0.15))
    else:
        frame = float(rng.uniform(0.15, 1.0))
    ornament = choose("ornament", ORNAMENTS) if frame >= 0.15 else ("plain" if frame else "none")
    darker = tuple(int(v * rng.uniform(0.45, 1.0)) for v in ink)
    frame_colour: RGB = (darker[0], darker[1], darker[2])
    frame_gap = float(rng.uniform(0.0, 0.3)) if rng.random() < 0.6 else 0.0
    ring = frame + frame_gap
    # top to bottom
    top = float(rng.uniform(0.4, 1.0))
    title_size = float(rng.uniform(0.55, 1.15))
    y = top + title_size * 1.1
    subtitle = bool(rng.random() < 0.8)
    if subtitle:
        y += 0.55
    name_rows = int(rng.integers(1, 3))
    name_y = y + 0.55
    y = name_y + 0.7 * (name_rows - 1) + float(rng.uniform(0.25, 0.8))
    grid_y = y + ring
    bottom = grid_y + SIZE + ring
    coin_r = float(rng.uniform(0.2, 0.38))
    coin_step = min(0.85, max(2.15 * coin_r, 0.5) + float(rng.uniform(0.0, 0.3)))
    coin_y = bottom + float(rng.uniform(0.2, 1.4)) + coin_r
    seasons = bool(rng.random() < 0.85)
    season_y = coin_y + coin_r + float(rng.uniform(0.25, 0.9))
    season_h = float(rng.uniform(1.5, 3.0)) if seasons else 0.0
    page_h = (season_y + season_h if seasons else coin_y + coin_r) + float(rng.uniform(0.3, 2.0))
    side_m = float(rng.uniform(0.3, 2.2))
    page_w = SIZE + 2 * ring + 2 * side_m
    grid_x = side_m + ring
    coin_x0 = grid_x + SIZE / 2 - coin_step * (render.COINS - 1) / 2
    return Design(
        family="pad",
        page_w=page_w,
        page_h=page_h,
        grid_x=grid_x,
        grid_y=grid_y,
        paper_family=paper_family,
        paper=_tint(rng, PAPERS, paper_family, 6),
        ink_family=ink_family,
        ink=ink,
        line=float(rng.uniform(0.015, 0.07)),
        outline=float(rng.uniform(0.03, 0.16)),
        frame=frame,
        frame_gap=frame_gap,
        frame_colour=frame_colour,
        ornament=ornament,
        corner_piece=str(rng.choice(["none", "square", "circle", "diamond"])) if frame >= 0.1 else "none",
        mountain=choose("mountain", MOUNTAINS),
        mountain_tint=bool(rng.random() < 0.3),
        ruins=choose("ruins", RUINS),
        ruins_size=float(rng.uniform(0.32, 0.85)),
        ruins_centred=bool(rng.random() < 0.35),
        waste=choose("waste", WASTES),
        title_y=top,
        title_size=title_size,
        subtitle=subtitle,
        name_y=name_y,
        name_rows=name_rows,
        coin_x0=coin_x0,
        coin_step=coin_step,
        coin_y=coin_y,
        coin_r=coin_r,
        coin_style=str(rng.choice(["ring", "ring_dot", "double", "disc", "star"])),
        seasons=seasons,
        season_y=season_y,
        season_h=season_h,
        map_label=str(rng.choice(["", "", "MAP", "SIDE", "LETTER"])),
        font=str(rng.choice(["serif", "serif_bold", "sans_bold", "default"])),
        holdout=tuple(held),
        ruins_fade=float(rng.uniform(0.2, 0.65)) if rng.random() < 0.5 else 0.0,
        ruins_width=float(rng.uniform(0.02, 0.06)),
        ruins_parts=compose_ruins(rng),
        ruins_grey=bool(rng.random() < 0.35),
        ruins_ground=float(rng.uniform(0.03, 0.25)) if rng.random() < 0.4 else 0.0,
        ruins_hollow=bool(rng.random() < 0.4),
    )


FAMILIES = {
    "train": {"printable": 0.2, "official": 0.1, "pad": 0.7},
    "holdout": {"printable": 0.15, "pad": 0.85},
}


def random_design(rng: np.random.Generator, designs: str, family: str | None = None) -> Design:
    """A design for a ``train``, ``holdout`` or ``all`` set, of a random family
    unless ``family`` is given."""
    weights = FAMILIES.get(designs, FAMILIES["train"])
    names = list(weights)
    chosen = str(rng.choice(names, p=np.array(list(weights.values())) / sum(weights.values())))
    family = family or chosen
    if family == "pad":
        return pad_design(rng, designs)
    return render_design(rng, family, designs)


# --- drawing -------------------------------------------------------------------

_FONTS = {
    "serif": ["DejaVuSerif.ttf", "LiberationSerif-Regular.ttf"],
    "serif_bold": ["DejaVuSerif-Bold.ttf", "LiberationSerif-Bold.ttf"],
    "sans_bold": ["DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf"],
}
_FONT_DIRS = [Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation")]


@cache
def font(name: str, px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A system font if the machine has it, else Pillow's own (the same bytes
    for the same seed on one machine, not necessarily on another)."""
    for file in _FONTS.get(name, []):
        for d in _FONT_DIRS:
            if (d / file).exists():
                return ImageFont.truetype(str(d / file), max(px, 6))
    return ImageFont.load_default(size=max(px, 6))


def _w(u: float, units: float) -> int:
    return max(1, round(units * u))


def _mountain(draw: ImageDraw.ImageDraw, d: Design, x: float, y: float, u: float) -> None:
    ink, lw = d.ink, _w(u, 0.035)
    fill = tuple(int(p * 0.55 + i * 0.45) for p, i in zip(d.paper, ink, strict=True))
    if d.mountain_tint:
        draw.rectangle(
            [x, y, x + u, y + u],
            fill=tuple(int(p * 0.85 + i * 0.15) for p, i in zip(d.paper, ink, strict=True)),
        )
    base = y + 0.84 * u
    if d.mountain in ("peaks2", "solid"):
        peaks = [(0.38, 0.18, 0.3), (0.66, 0.36, 0.24)] if d.mountain == "peaks2" else [(0.5, 0.14, 0.38)]
        for px, py, half in peaks:
            top = (x + px * u, y + py * u)
            pts = [(top[0] - half * u, base), top, (top[0] + half * u, base)]
            draw.polygon(pts, fill=fill if d.mountain == "peaks2" else ink, outline=ink, width=lw)
            k = 0.33
            cap = [
                (top[0] - half * u * k, top[1] + (base - top[1]) * k),
                top,
                (top[0] + half * u * k, top[1] + (base - top[1]) * k),
            ]
            draw.polygon(cap, fill=d.paper)
    elif d.mountain == "peak1":
        top = (x + 0.5 * u, y + 0.14 * u)
        draw.line([(x + 0.1 * u, base), top, (x + 0.9 * u, base)], fill=ink, width=lw, joint="curve")
        for k in range(1, 5):
            t = k / 5
            p = (top[0] + 0.4 * u * t, top[1] + (base - top[1]) * t)
            draw.line([p, (p[0] - 0.12 * u, p[1] + 0.14 * u)], fill=ink, width=max(1, lw // 2 + 1))
        draw.line([(x + 0.08 * u, base), (x + 0.92 * u, base)], fill=ink, width=lw)
    elif d.mountain == "peaks3":
        for px, py, half in ((0.3, 0.42, 0.22), (0.7, 0.38, 0.22), (0.5, 0.16, 0.28)):
            top = (x + px * u, y + py * u)
            draw.polygon(
                [(top[0] - half * u, base), top, (top[0] + half * u, base)],
                fill=d.paper,
                outline=ink,
                width=lw,
            )
    else:  # hills
        for cx, r in ((0.35, 0.28), (0.66, 0.22)):
            draw.chord(
                [x + (cx - r) * u, base - 1.3 * r * u, x + (cx + r) * u, base + 1.3 * r * u],
                180,
                360,
                fill=fill,
                outline=ink,
                width=lw,
            )
        for k in range(3):
            sx = x + (0.25 + 0.12 * k) * u
            draw.line(
                [(sx, base - 0.12 * u), (sx + 0.06 * u, base - 0.3 * u)], fill=ink, width=max(1, lw // 2 + 1)
            )


def compose_ruins(rng: np.random.Generator) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """A ruins picture of its own, built from the pieces of a ruin: columns
    standing and broken, an arch, a lintel, fallen blocks, a ground line.

    Pads print ruins as a small picture that differs from one printing and
    one expansion to the next. A few fixed pictures would teach the cell
    classifier those pictures, so that a new one reads as a tree or a house;
    pictures composed at random teach it that a thin printed drawing on a
    ruins space is the print, whatever it shows. Coordinates are in the
    picture's own unit box."""
    parts: list[tuple[str, tuple[float, ...]]] = []
    n = int(rng.integers(1, 4))
    xs = np.sort(rng.uniform(0.05, 0.95, n)) if n > 1 else np.array([rng.uniform(0.2, 0.8)])
    tops = rng.uniform(0.05, 0.6, n)
    for cx, top in zip(xs, tops, strict=True):
        parts.append(("line", (float(cx), float(top), float(cx + rng.normal(0, 0.03)), 0.9)))
    if n > 1 and rng.random() < 0.6:
        a, b = float(xs[0]), float(xs[-1])
        top = float(min(tops))
        rise = top + (b - a) * rng.uniform(0.4, 0.9)
        parts.append(("arc", (a, top - 0.05, b, rise, 180.0, float(rng.uniform(250, 360)))))
    if rng.random() < 0.4:
        yy = float(rng.uniform(0.05, 0.4))
        x0, x1 = float(rng.uniform(0.0, 0.3)), float(rng.uniform(0.6, 1.0))
        parts.append(("line", (x0, yy, x1, yy + rng.normal(0, 0.05))))
    for _ in range(int(rng.integers(0, 3))):
        bx, by, bw = float(rng.uniform(0.0, 0.8)), float(rng.uniform(0.6, 0.8)), float(rng.uniform(0.1, 0.25))
        parts.append(("box", (bx, by, bx + bw, by + bw * rng.uniform(0.5, 1.0))))
    if rng.random() < 0.6:
        parts.append(("line", (-0.1, 0.9, 1.1, 0.9)))
    if rng.random() < 0.3:
        x0, x1, y1 = float(rng.uniform(0.4, 0.9)), float(rng.uniform(0.6, 1.1)), float(rng.uniform(0.5, 0.75))
        parts.append(("line", (x0, 0.88, x1, y1)))
    return tuple(parts)


def _ruins(draw: ImageDraw.ImageDraw, d: Design, x: float, y: float, u: float) -> None:
    s = d.ruins_size * u
    x0 = x + (u - s) / 2
    y0 = y + (u - s) / 2 if d.ruins_centred else y + 0.08 * u
    base = (round(sum(d.ink) / 3),) * 3 if d.ruins_grey else d.ink
    ground = tuple(round(p + (i - p) * d.ruins_ground) for i, p in zip(base, d.paper, strict=True))
    if d.ruins_ground:
        draw.rectangle([x, y, x + u, y + u], fill=ground)
    ink = tuple(round(i + (p - i) * d.ruins_fade) for i, p in zip(base, d.paper, strict=True))
    lw = _w(u, d.ruins_width)
    if d.ruins_hollow:  # a wide band of ink, then its inside in the ground's colour
        band = max(3, 2 * lw)
        inner = max(1, band - 2 * max(1, lw // 2))
        _ruins_strokes(draw, d, x0, y0, s, ink, band)
        _ruins_strokes(draw, d, x0, y0, s, ground, inner, (band - inner) / 2)
    else:
        _ruins_strokes(draw, d, x0, y0, s, ink, lw)


def _ruins_strokes(
    draw: ImageDraw.ImageDraw,
    d: Design,
    x0: float,
    y0: float,
    s: float,
    ink: tuple[int, ...],
    lw: int,
    inset: float = 0.0,
) -> None:
    """The ruins picture of design ``d`` in a box of side ``s`` at ``x0, y0``;
    arcs and boxes (which Pillow draws inwards from their bounds) drawn
    ``inset`` pixels inside them, so that a hollow stroke's inside is centred."""

    def inside(box: list[float]) -> list[float]:
        dx = min(inset, (box[2] - box[0]) / 2)
        dy = min(inset, (box[3] - box[1]) / 2)
        return [box[0] + dx, box[1] + dy, box[2] - dx, box[3] - dy]

    if d.ruins == "composed":
        for kind, v in d.ruins_parts:
            box = [x0 + v[0] * s, y0 + v[1] * s, x0 + v[2] * s, y0 + v[3] * s]
            if kind == "line":
                draw.line(box, fill=ink, width=lw)
            elif kind == "box":
                draw.rectangle(inside(box), outline=ink, width=lw)
            else:
                draw.arc(inside(box), v[4], v[5], fill=ink, width=lw)
    elif d.ruins == "arch":
        left, right, top, foot = x0, x0 + s, y0, y0 + s * 0.8
        draw.line([(left, foot), (left, top + 0.25 * s)], fill=ink, width=lw)
        draw.line([(right, foot), (right, top + 0.4 * s)], fill=ink, width=lw)
        draw.arc(inside([left, top, right - 0.2 * s, top + 0.5 * s]), 180, 300, fill=ink, width=lw)
        draw.line([(left - 0.15 * s, foot), (right + 0.15 * s, foot)], fill=ink, width=lw)
    elif d.ruins == "temple":
        draw.polygon([(x0, y0 + 0.3 * s), (x0 + s / 2, y0), (x0 + s, y0 + 0.3 * s)], outline=ink, width=lw)
        for k in range(3):
            cx = x0 + (0.15 + 0.35 * k) * s
            h = 0.55 if k != 2 else 0.35
            draw.line([(cx, y0 + 0.35 * s), (cx, y0 + (0.35 + h) * s)], fill=ink, width=lw)
        draw.line([(x0 - 0.05 * s, y0 + 0.92 * s), (x0 + s * 1.05, y0 + 0.92 * s)], fill=ink, width=lw)
    elif d.ruins == "wall":
        steps = [
            (0, 0.3),
            (0.3, 0.3),
            (0.3, 0.05),
            (0.55, 0.05),
            (0.55, 0.5),
            (0.8, 0.5),
            (0.8, 0.35),
            (1, 0.35),
            (1, 0.9),
            (0, 0.9),
        ]
        draw.polygon([(x0 + a * s, y0 + b * s) for a, b in steps], outline=ink, width=lw)
        for b in (0.5, 0.7):
            draw.line([(x0, y0 + b * s), (x0 + s, y0 + b * s)], fill=ink, width=max(1, lw // 2))
    else:  # dome
        draw.arc(inside([x0 + 0.1 * s, y0, x0 + 0.9 * s, y0 + 0.6 * s]), 180, 360, fill=ink, width=lw)
        for a in (0.15, 0.5, 0.85):
            draw.line([(x0 + a * s, y0 + 0.3 * s), (x0 + a * s, y0 + 0.9 * s)], fill=ink, width=lw)
        draw.rectangle(inside([x0, y0 + 0.88 * s, x0 + s, y0 + s]), outline=ink, width=max(1, lw // 2))


def _waste(draw: ImageDraw.ImageDraw, d: Design, x: float, y: float, u: float) -> None:
    ink, lw = d.ink, _w(u, 0.035)
    if d.waste == "solid":
        dark = tuple(int(p * 0.35 + i * 0.65) for p, i in zip(d.paper, ink, strict=True))
        draw.rectangle([x, y, x + u, y + u], fill=dark)
        return
    if d.waste == "stipple":
        g = np.random.default_rng(7)
        for px, py in g.random((40, 2)):
            r = 0.03 * u
            draw.ellipse([x + px * u - r, y + py * u - r, x + px * u + r, y + py * u + r], fill=ink)
        return
    n = 6
    for k in range(1, 2 * n):
        t = k / n
        draw.line(
            [(x + min(t, 1) * u, y + max(t - 1, 0) * u), (x + max(t - 1, 0) * u, y + min(t, 1) * u)],
            fill=ink,
            width=lw,
        )
        if d.waste == "crosshatch":
            draw.line(
                [
                    (x + u - min(t, 1) * u, y + max(t - 1, 0) * u),
                    (x + u - max(t - 1, 0) * u, y + min(t, 1) * u),
                ],
                fill=ink,
                width=lw,
            )


def _frame(draw: ImageDraw.ImageDraw, d: Design, u: float) -> None:
    """The frame band around the grid, with its ornament and corner pieces."""
    if d.frame <= 0:
        return
    g0x, g0y = d.grid_x * u, d.grid_y * u
    g1x, g1y = g0x + SIZE * u, g0y + SIZE * u
    o = (d.frame_gap + d.frame) * u
    t = d.frame * u
    box = [g0x - o, g0y - o, g1x + o, g1y + o]
    col, paper = d.frame_colour, d.paper
    draw.rectangle(box, outline=col, width=max(1, round(t)))
    mid = d.frame_gap * u + t / 2
    # the band's centre line as four segments
    cx0, cy0, cx1, cy1 = g0x - mid, g0y - mid, g1x + mid, g1y + mid
    if d.ornament == "double":
        draw.rectangle([cx0, cy0, cx1, cy1], outline=paper, width=max(1, round(t * 0.18)))
    elif d.ornament == "rules":
        draw.rectangle(
            [box[0] - 0.12 * u, box[1] - 0.12 * u, box[2] + 0.12 * u, box[3] + 0.12 * u],
            outline=col,
            width=_w(u, 0.03),
        )
    elif d.ornament in ("dots", "studs", "rope", "checker"):
        step = max(0.25, d.frame * (1.4 if d.ornament != "checker" else 1.0)) * u
        for (ax, ay), (bx, by) in (
            ((cx0, cy0), (cx1, cy0)),
            ((cx1, cy0), (cx1, cy1)),
            ((cx1, cy1), (cx0, cy1)),
            ((cx0, cy1), (cx0, cy0)),
        ):
            length = math.hypot(bx - ax, by - ay)
            n = max(2, int(length / step))
            for k in range(n):
                f = (k + 0.5) / n
                px, py = ax + (bx - ax) * f, ay + (by - ay) * f
                r = t * 0.22
                if d.ornament == "dots":
                    draw.ellipse([px - r, py - r, px + r, py + r], fill=paper)
                elif d.ornament == "studs":
                    draw.ellipse([px - 1.6 * r, py - 1.6 * r, px + 1.6 * r, py + 1.6 * r], fill=paper)
                    draw.ellipse([px - r, py - r, px + r, py + r], fill=col)
                elif d.ornament == "rope":
                    h = t * 0.4
                    draw.line([(px - h, py + h), (px + h, py - h)], fill=paper, width=max(1, round(t * 0.12)))
                elif k % 2 == 0:  # checker
                    h = length / n / 2
                    dx, dy = (bx - ax) / length * h, (by - ay) / length * h
                    nx, ny = -dy / h * t * 0.3, dx / h * t * 0.3
                    draw.polygon(
                        [
                            (px - dx - nx, py - dy - ny),
                            (px + dx - nx, py + dy - ny),
                            (px + dx + nx, py + dy + ny),
                            (px - dx + nx, py - dy + ny),
                        ],
                        fill=paper,
                    )
    if d.corner_piece != "none":
        r = max(t * 0.9, 0.2 * u)
        for px, py in ((cx0, cy0), (cx1, cy0), (cx1, cy1), (cx0, cy1)):
            if d.corner_piece == "square":
                draw.rectangle([px - r, py - r, px + r, py + r], fill=col)
                draw.rectangle(
                    [px - r * 0.45, py - r * 0.45, px + r * 0.45, py + r * 0.45],
                    outline=paper,
                    width=max(1, round(r * 0.15)),
                )
            elif d.corner_piece == "circle":
                draw.ellipse([px - r, py - r, px + r, py + r], fill=col)
                draw.ellipse([px - r * 0.4, py - r * 0.4, px + r * 0.4, py + r * 0.4], fill=paper)
            else:
                draw.polygon(
                    [(px - r * 1.2, py), (px, py - r * 1.2), (px + r * 1.2, py), (px, py + r * 1.2)], fill=col
                )


def _text_centred(
    draw: ImageDraw.ImageDraw,
    text: str,
    cx: float,
    y: float,
    f: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    fill: RGB,
) -> None:
    draw.text((cx - draw.textlength(text, font=f) / 2, y), text, fill=fill, font=f)


def _coins(draw: ImageDraw.ImageDraw, d: Design, u: float) -> None:
    lw = _w(u, 0.04)
    for cx, cy in d.coin_centres():
        x, y, r = cx * u, cy * u, d.coin_r * u
        if d.coin_style == "disc":
            fill = tuple(int(p * 0.8 + i * 0.2) for p, i in zip(d.paper, d.ink, strict=True))
            draw.ellipse([x - r, y - r, x + r, y + r], fill=fill, outline=d.ink, width=lw)
        else:
            draw.ellipse([x - r, y - r, x + r, y + r], outline=d.ink, width=lw)
        if d.coin_style == "ring_dot":
            q = r * 0.3
            draw.ellipse([x - q, y - q, x + q, y + q], outline=d.ink, width=max(1, lw // 2))
        elif d.coin_style == "double":
            q = r * 0.75
            draw.ellipse([x - q, y - q, x + q, y + q], outline=d.ink, width=max(1, lw // 2))
        elif d.coin_style == "star":
            pts = []
            for k in range(10):
                a = -math.pi / 2 + k * math.pi / 5
                rr = r * (0.5 if k % 2 == 0 else 0.22)
                pts.append((x + rr * math.cos(a), y + rr * math.sin(a)))
            draw.polygon(pts, outline=d.ink, width=max(1, lw // 2))


def _seasons(draw: ImageDraw.ImageDraw, d: Design, u: float) -> None:
    lw = _w(u, d.line * 1.3)
    f = font(d.font, round(0.34 * u))
    for (x0, y0, x1, y1), name in zip(d.season_boxes(), render.SEASONS[: len(d.season_boxes())], strict=True):
        draw.rectangle([x0 * u, y0 * u, x1 * u, y1 * u], outline=d.ink, width=lw)
        _text_centred(draw, name, (x0 + x1) / 2 * u, y0 * u + 0.08 * u, f, d.ink)
        h = y1 - y0
        bw = (x1 - x0 - 0.5) / 2
        for j in range(2):
            bx = x0 + 0.15 + j * (bw + 0.2)
            draw.rectangle(
                [bx * u, (y0 + 0.5) * u, (bx + bw) * u, (y0 + 0.5 + h * 0.32) * u], outline=d.ink, width=lw
            )
        if h > 1.7:
            by = y0 + 0.6 + h * 0.32
            draw.rectangle([(x0 + 0.5) * u, by * u, (x1 - 0.5) * u, (y1 - 0.12) * u], outline=d.ink, width=lw)


def draw_pad(d: Design, side: MapSide, u: float) -> Image.Image:
    W, H = round(d.page_w * u), round(d.page_h * u)
    img = Image.new("RGB", (W, H), d.paper)
    draw = ImageDraw.Draw(img)
    f = font(d.font, round(d.title_size * u))
    _text_centred(draw, "CARTOGRAPHERS", W / 2, d.title_y * u, f, d.frame_colour)
    f2 = font(d.font, round(0.36 * u))
    if d.subtitle:
        _text_centred(draw, "A Roll Player Tale", W / 2, (d.title_y + d.title_size * 1.1) * u, f2, d.ink)
    gx0, gx1 = d.grid_x * u, (d.grid_x + SIZE) * u
    lw = _w(u, 0.03)
    fields = [("Cartographer", "Title")] if d.name_rows == 1 else [("Cartographer",), ("Title",)]
    for row, names in enumerate(fields):
        yb = (d.name_y + 0.7 * row) * u
        span = (gx1 - gx0) / len(names)
        for k, name in enumerate(names):
            x = gx0 + k * span
            draw.text((x, yb - 0.42 * u), name, fill=d.ink, font=f2)
            x1 = x + draw.textlength(name, font=f2) + 0.15 * u
            draw.line([(x1, yb), (x + span - 0.3 * u, yb)], fill=d.ink, width=lw)
    if d.map_label:
        text = {"MAP": f"MAP {side.letter}", "SIDE": f"SIDE {side.letter}", "LETTER": side.letter}[
            d.map_label
        ]
        fl = font(d.font, round(0.28 * u))
        draw.text((W - 0.25 * u - draw.textlength(text, font=fl), 0.06 * u), text, fill=d.ink, font=fl)
    gx, gy = d.grid_x * u, d.grid_y * u
    for r in range(SIZE):
        for c in range(SIZE):
            x, y = gx + c * u, gy + r * u
            if (r, c) in side.mountains:
                _mountain(draw, d, x, y, u)
            elif (r, c) in side.wastelands:
                _waste(draw, d, x, y, u)
            if (r, c) in side.ruins:
                _ruins(draw, d, x, y, u)
    thin = _w(u, d.line)
    for k in range(1, SIZE):
        draw.line([(gx + k * u, gy), (gx + k * u, gy + SIZE * u)], fill=d.ink, width=thin)
        draw.line([(gx, gy + k * u), (gx + SIZE * u, gy + k * u)], fill=d.ink, width=thin)
    b = d.outline * u
    draw.rectangle(
        [gx - b / 2, gy - b / 2, gx + SIZE * u + b / 2, gy + SIZE * u + b / 2],
        outline=d.ink,
        width=max(1, round(b)),
    )
    _frame(draw, d, u)
    _coins(draw, d, u)
    _seasons(draw, d, u)
    return img


def draw_sheet(d: Design, side: MapSide, u: float) -> Image.Image:
    """The blank sheet of ``side`` in design ``d``, ``u`` pixels per square."""
    if d.family == "pad":
        return draw_pad(d, side, u)
    img = np.asarray(render.render_sheet(side, u, d.family), np.float32)
    img *= np.array(d.paper, np.float32) / np.array(render.PAPER, np.float32)
    return Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))


def paper_texture(rng: np.random.Generator, d: Design, h: int, w: int) -> np.ndarray:
    """A colour multiplier for the paper (h x w x 3): a slow
    mottling, strong on parchment and aged paper (aged paper also stained).

    Old paper browns unevenly, in clouds a square or a few across, and foxes
    in small spots. Browning takes away more blue than green and more green
    than red, as a light yellow pencil does, and the reader's light
    correction is smooth across the sheet, so it leaves such clouds and spots
    behind on bare squares: the network must see them on bare squares and
    ruins, or it reads them as a faint farm or forest. So most mottling, and
    a third of the other papers, carries a brown tone, not only brightness."""
    units = w / d.page_w  # pixels per grid square
    cloud = units / rng.uniform(0.6, 2.0)  # pixels per random value: clouds about 1 to 5 squares across
    small = rng.random((max(2, int(h / cloud) + 1), max(2, int(w / cloud) + 1))).astype(np.float32)
    mottle = cv2.resize(cv2.GaussianBlur(small, (0, 0), 1.0), (w, h), interpolation=cv2.INTER_LINEAR)
    mottle = (mottle - mottle.mean()) / max(float(mottle.std()), 1e-3)
    mottled = {"parchment": rng.uniform(0.05, 0.14), "aged": rng.uniform(0.1, 0.2)}  # both drawn, always
    amount = mottled.get(d.paper_family, 0.02)
    if d.paper_family not in mottled and rng.random() < 0.3:
        amount = rng.uniform(0.03, 0.1)
    # how much of each channel the browning takes, relative to their mean
    tone = np.array([rng.uniform(0.3, 0.9), rng.uniform(0.8, 1.1), rng.uniform(1.2, 1.9)], np.float32)
    if rng.random() < 0.25:
        tone = np.ones(3, np.float32)  # a grey mottling, brightness only
    tone /= tone.mean()
    dark = amount * 0.5 * mottle
    if rng.random() < 0.3:  # foxing: small brown spots
        spots = np.zeros((h, w), np.float32)
        for _ in range(int(rng.integers(3, 30))):
            r = max(1, int(rng.uniform(0.04, 0.25) * units))
            cv2.circle(
                spots, (int(rng.random() * w), int(rng.random() * h)), r, float(rng.uniform(0.03, 0.12)), -1
            )
        dark = dark + cv2.GaussianBlur(spots, (0, 0), max(1.0, units * 0.03))
    if d.paper_family == "aged":
        for _ in range(int(rng.integers(1, 5))):
            cx, cy, r = rng.random() * w, rng.random() * h, rng.uniform(0.03, 0.12) * w
            stain = np.zeros((h // 8 + 1, w // 8 + 1), np.float32)
            cv2.circle(stain, (int(cx / 8), int(cy / 8)), int(r / 8), 1.0, -1)
            stain = cv2.resize(cv2.GaussianBlur(stain, (0, 0), r / 40 + 1), (w, h))
            dark = dark + 0.12 * stain
    out = 1.0 - dark[..., None] * tone
    return np.clip(out, 0.6, 1.1).astype(np.float32)


def blotches(rng: np.random.Generator, d: Design, h: int, w: int) -> np.ndarray:
    """A colour multiplier for the paper (h x w x 3): one to four stains of
    a spilt drink or of damp, of a shape of their own, a square to five
    across, browner than the paper and darker at their dried edge.

    Drawn for training sheets only (``make_samples.py --stains``), never on
    the held-out aged paper, whose soft round stains stay unseen: the
    networks learn that a brown cloud on a bare square is paper, and the
    held-out draws measure whether that carries over to stains of another
    shape."""
    units = w / d.page_w
    dark = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(1, 5))):
        size = rng.uniform(1.0, 5.0) * units  # across, in pixels
        n = 48
        field = cv2.GaussianBlur(rng.random((n, n)).astype(np.float32), (0, 0), rng.uniform(3, 7))
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
        falloff = 1 - np.hypot(yy - n / 2, xx - n / 2) / (n / 2)  # a blob, not a square
        field = (field - field.mean()) / max(float(field.std()), 1e-3) * 0.35 + falloff * 2.5
        inside = (field > 1.0).astype(np.float32)
        edge = inside - cv2.erode(inside, np.ones((3, 3), np.uint8))
        blob = inside * rng.uniform(0.03, 0.12) + edge * rng.uniform(0.0, 0.1)
        side = max(4, int(size))
        blob = cv2.resize(blob, (side, side), interpolation=cv2.INTER_LINEAR)
        blob = cv2.GaussianBlur(blob, (0, 0), max(0.6, side / 60))
        x0, y0 = int(rng.random() * w - side / 2), int(rng.random() * h - side / 2)
        xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + side, w), min(y0 + side, h)
        if xa < xb and ya < yb:
            dark[ya:yb, xa:xb] += blob[ya - y0 : yb - y0, xa - x0 : xb - x0]
    tone = np.array([rng.uniform(0.2, 0.8), rng.uniform(0.8, 1.1), rng.uniform(1.2, 2.0)], np.float32)
    tone /= tone.mean()
    return np.clip(1.0 - dark[..., None] * tone, 0.6, 1.1).astype(np.float32)


def paper_tint(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A colour multiplier for the paper: sheets yellow from their edges
    inwards, unevenly, so bare paper is not one colour across the grid."""
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    edge = np.minimum(np.minimum(xx, w - xx), np.minimum(yy, h - yy)) / (0.5 * min(h, w))
    reach = rng.uniform(0.2, 0.8)
    age = np.clip(1 - edge / reach, 0, 1) ** rng.uniform(1.0, 2.5)
    small = rng.random((6, 6)).astype(np.float32)
    age *= 0.6 + 0.8 * cv2.resize(small, (age.shape[1], age.shape[0]), interpolation=cv2.INTER_CUBIC)
    yellow = np.array([0.0, rng.uniform(0.02, 0.06), rng.uniform(0.08, 0.2)], np.float32)
    tint = 1 - rng.uniform(0.3, 1.0) * np.clip(age, 0, 1.4)[..., None] * yellow
    return cv2.resize(tint, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)
