"""The player's marks on a synthetic sheet: coloured pencil, graphite, coins.

Marks are drawn into one mask per pencil and laid on the paper at the end,
through a paper grain, the way pencil catches on the paper's tooth.

- Coloured pencil (style ``color``): forest dark green, village red, farm
  yellow, water blue, monster violet, hero orange; each square hatched,
  cross-hatched, scribbled, outlined and half filled, or shaded solid, at a
  pressure and coverage of its own, strokes spilling over the grid lines;
  sometimes a small graphite mark on top (an icon, a season's number, a
  coin's ring).
- Graphite (style ``graphite``): the letters F V A W M H in a handwriting of
  the sample's own (slant, size, stroke width, wobble, shapes of letters), or
  small icons (trees, houses, wheat, furrows or a furrowed field, waves or a
  pond, a monster's face, a hero) from one of several icon sets, or mixed
  from them, one or two icons for each terrain.
- A destroyed space is a big graphite X, over empty or over colour.
- Coins are marked on the coin track from the left: shaded, coloured,
  crossed, ticked or blotted.

No icon set is held out: what a player's icon means cannot be guessed from
a set never seen, so a held-out set of icons would measure nothing the
generator could fix.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from PIL import Image, ImageDraw

from referee.rules.geometry import SIZE

Stroke = list[tuple[float, float]]
Glyph = list[Stroke]

PIGMENTS = {
    "F": (35, 95, 45),
    "V": (205, 40, 40),
    "A": (245, 205, 35),
    "W": (40, 105, 215),
    "M": (125, 55, 165),
    "H": (245, 135, 30),
}
GRAPHITE = (70, 70, 78)


def _circle(
    cx: float,
    cy: float,
    r: float,
    n: int = 14,
    a0: float = 0.0,
    a1: float = 2 * math.pi,
    ry: float | None = None,
) -> Stroke:
    """A circle's arc, or an ellipse's when ``ry`` is given (``r`` is then the half width)."""
    h = r if ry is None else ry
    return [
        (cx + r * math.cos(a0 + (a1 - a0) * k / n), cy + h * math.sin(a0 + (a1 - a0) * k / n))
        for k in range(n + 1)
    ]


def _star(cx: float = 0.5, cy: float = 0.55, r: float = 0.4) -> Stroke:
    return [
        (
            cx + r * math.cos(-math.pi / 2 + k * 4 * math.pi / 5),
            cy + r * math.sin(-math.pi / 2 + k * 4 * math.pi / 5),
        )
        for k in range(6)
    ]


def _wave(y: float, x0: float = 0.1, x1: float = 0.9, amp: float = 0.1, n: int = 11) -> Stroke:
    return [(x0 + (x1 - x0) * k / (n - 1), y + amp * math.sin(k * 1.3)) for k in range(n)]


X_MARK: Glyph = [[(0.06, 0.06), (0.94, 0.94)], [(0.94, 0.06), (0.06, 0.94)]]

HANDS: dict[str, dict[str, Glyph]] = {
    "block": {
        "F": [[(0.3, 0.9), (0.3, 0.1), (0.72, 0.1)], [(0.3, 0.5), (0.62, 0.5)]],
        "V": [[(0.22, 0.1), (0.5, 0.9), (0.78, 0.1)]],
        "A": [[(0.22, 0.9), (0.5, 0.1), (0.78, 0.9)], [(0.34, 0.6), (0.66, 0.6)]],
        "W": [[(0.12, 0.12), (0.3, 0.88), (0.5, 0.4), (0.7, 0.88), (0.88, 0.12)]],
        "M": [[(0.18, 0.9), (0.2, 0.1), (0.5, 0.6), (0.8, 0.1), (0.82, 0.9)]],
        "H": [[(0.25, 0.1), (0.25, 0.9)], [(0.75, 0.1), (0.75, 0.9)], [(0.25, 0.5), (0.75, 0.5)]],
    },
    "round": {
        "F": [[(0.72, 0.14), (0.45, 0.08), (0.33, 0.2), (0.32, 0.9)], [(0.18, 0.48), (0.6, 0.46)]],
        "V": [[(0.2, 0.12), (0.42, 0.8), (0.5, 0.9), (0.58, 0.8), (0.8, 0.12)]],
        "A": [[(0.2, 0.9), (0.45, 0.15), (0.55, 0.15), (0.8, 0.9)], [(0.3, 0.58), (0.72, 0.56)]],
        "W": [
            [
                (0.1, 0.15),
                (0.22, 0.8),
                (0.32, 0.88),
                (0.45, 0.5),
                (0.55, 0.5),
                (0.68, 0.88),
                (0.78, 0.8),
                (0.9, 0.15),
            ]
        ],
        "M": [[(0.15, 0.9), (0.15, 0.25), (0.3, 0.12), (0.5, 0.35), (0.7, 0.12), (0.85, 0.25), (0.85, 0.9)]],
        "H": [[(0.28, 0.08), (0.26, 0.92)], [(0.74, 0.1), (0.72, 0.9)], [(0.2, 0.52), (0.8, 0.48)]],
    },
    "narrow": {
        "F": [[(0.38, 0.9), (0.4, 0.1), (0.66, 0.1)], [(0.39, 0.48), (0.6, 0.48)]],
        "V": [[(0.32, 0.1), (0.5, 0.9), (0.68, 0.1)]],
        "A": [[(0.32, 0.9), (0.5, 0.1), (0.68, 0.9)], [(0.38, 0.55), (0.62, 0.55)]],
        "W": [[(0.2, 0.1), (0.32, 0.9), (0.5, 0.35), (0.68, 0.9), (0.8, 0.1)]],
        "M": [[(0.26, 0.9), (0.3, 0.1), (0.5, 0.7), (0.7, 0.1), (0.74, 0.9)]],
        "H": [[(0.34, 0.1), (0.34, 0.9)], [(0.66, 0.1), (0.66, 0.9)], [(0.34, 0.45), (0.66, 0.45)]],
    },
}
"""Letter shapes, in the unit square; each sample writes in one hand."""

ICON_SETS: dict[str, dict[str, Glyph]] = {
    "rulebook": {
        "F": [[(0.5, 0.1), (0.2, 0.7), (0.8, 0.7), (0.5, 0.1)], [(0.5, 0.7), (0.5, 0.92)]],
        "V": [[(0.2, 0.9), (0.2, 0.45), (0.5, 0.15), (0.8, 0.45), (0.8, 0.9), (0.2, 0.9)]],
        "A": [
            [(0.5, 0.92), (0.5, 0.12)],
            [(0.5, 0.32), (0.33, 0.18)],
            [(0.5, 0.32), (0.67, 0.18)],
            [(0.5, 0.55), (0.33, 0.41)],
            [(0.5, 0.55), (0.67, 0.41)],
        ],
        "W": [_wave(0.35), _wave(0.65)],
        "M": [
            _circle(0.5, 0.58, 0.3),
            [(0.3, 0.38), (0.22, 0.1)],
            [(0.7, 0.38), (0.78, 0.1)],
            _circle(0.4, 0.52, 0.04, 6),
        ],
        "H": [_star()],
    },
    "drawn": {
        "F": [_circle(0.5, 0.38, 0.26), [(0.5, 0.64), (0.5, 0.92)]],
        "V": [
            [(0.22, 0.45), (0.22, 0.9), (0.78, 0.9), (0.78, 0.45)],
            [(0.12, 0.5), (0.5, 0.12), (0.88, 0.5)],
            [(0.44, 0.9), (0.44, 0.66), (0.58, 0.66), (0.58, 0.9)],
        ],
        "A": [
            [(0.3, 0.92), (0.3, 0.3)],
            [(0.5, 0.92), (0.5, 0.15)],
            [(0.7, 0.92), (0.7, 0.3)],
            _circle(0.5, 0.15, 0.06, 6),
        ],
        "W": [
            _wave(0.3, 0.15, 0.85, 0.07, 8),
            _wave(0.5, 0.15, 0.85, 0.07, 8),
            _wave(0.7, 0.15, 0.85, 0.07, 8),
        ],
        "M": [
            [
                (0.2, 0.85),
                (0.2, 0.25),
                (0.35, 0.4),
                (0.5, 0.2),
                (0.65, 0.4),
                (0.8, 0.25),
                (0.8, 0.85),
                (0.2, 0.85),
            ],
            _circle(0.38, 0.55, 0.05, 6),
            _circle(0.62, 0.55, 0.05, 6),
            [(0.35, 0.72), (0.5, 0.68), (0.65, 0.72)],
        ],
        "H": [[(0.5, 0.08), (0.5, 0.92)], [(0.25, 0.35), (0.75, 0.35)], [(0.4, 0.92), (0.6, 0.92)]],
    },
    "sketch": {
        "F": [
            [(0.3, 0.35), (0.5, 0.1), (0.7, 0.35)],
            [(0.25, 0.6), (0.5, 0.3), (0.75, 0.6)],
            [(0.2, 0.85), (0.5, 0.5), (0.8, 0.85)],
        ],
        "V": [
            [(0.2, 0.9), (0.2, 0.35), (0.8, 0.35), (0.8, 0.9), (0.2, 0.9)],
            [(0.15, 0.38), (0.5, 0.12), (0.85, 0.38)],
            [(0.65, 0.25), (0.65, 0.08), (0.72, 0.08), (0.72, 0.3)],
        ],
        "A": [[(0.15, 0.3), (0.85, 0.3)], [(0.15, 0.5), (0.85, 0.5)], [(0.15, 0.7), (0.85, 0.7)]],
        "W": [[(0.5, 0.1), (0.3, 0.55), (0.35, 0.8), (0.5, 0.88), (0.65, 0.8), (0.7, 0.55), (0.5, 0.1)]],
        "M": [
            _circle(0.5, 0.45, 0.3),
            [(0.35, 0.7), (0.35, 0.9), (0.65, 0.9), (0.65, 0.7)],
            _circle(0.4, 0.42, 0.06, 6),
            _circle(0.6, 0.42, 0.06, 6),
        ],
        "H": [[(0.2, 0.15), (0.8, 0.15), (0.78, 0.55), (0.5, 0.9), (0.22, 0.55), (0.2, 0.15)]],
    },
    "scenes": {
        "F": [
            [(0.08, 0.72), (0.28, 0.12), (0.46, 0.72), (0.08, 0.72)],
            [(0.28, 0.72), (0.28, 0.92)],
            [(0.54, 0.72), (0.72, 0.2), (0.92, 0.72), (0.54, 0.72)],
            [(0.72, 0.72), (0.72, 0.92)],
        ],
        "V": [
            [(0.08, 0.9), (0.08, 0.5), (0.28, 0.3), (0.48, 0.5), (0.48, 0.9), (0.08, 0.9)],
            [(0.52, 0.9), (0.52, 0.45), (0.72, 0.2), (0.92, 0.45), (0.92, 0.9), (0.52, 0.9)],
        ],
        "A": [
            [(0.36, 0.2), (0.32, 0.82)],
            [(0.52, 0.2), (0.48, 0.82)],
            [(0.68, 0.2), (0.64, 0.82)],
            [(0.24, 0.14), (0.84, 0.14), (0.78, 0.88), (0.18, 0.88), (0.24, 0.14)],
        ],
        "W": [_circle(0.5, 0.52, 0.42, 16, ry=0.3), _wave(0.52, 0.25, 0.75, 0.06, 7)],
        "M": [
            _circle(0.5, 0.55, 0.3),
            [(0.3, 0.4), (0.15, 0.12), (0.4, 0.3)],
            [(0.7, 0.4), (0.85, 0.12), (0.6, 0.3)],
            [(0.32, 0.68), (0.4, 0.6), (0.48, 0.7), (0.56, 0.6), (0.64, 0.7), (0.7, 0.62)],
        ],
        "H": [
            _circle(0.5, 0.18, 0.1),
            [(0.5, 0.28), (0.5, 0.62)],
            [(0.22, 0.4), (0.78, 0.4)],
            [(0.3, 0.92), (0.5, 0.62), (0.7, 0.92)],
        ],
    },
    "marks": {
        "F": [
            _circle(0.5, 0.28, 0.16),
            _circle(0.32, 0.48, 0.16),
            _circle(0.68, 0.48, 0.16),
            [(0.5, 0.55), (0.5, 0.92)],
        ],
        "V": [
            [(0.25, 0.9), (0.25, 0.3), (0.35, 0.3), (0.35, 0.15), (0.45, 0.15), (0.45, 0.3), (0.55, 0.3)],
            [(0.55, 0.3), (0.55, 0.15), (0.65, 0.15), (0.65, 0.3), (0.75, 0.3), (0.75, 0.9), (0.25, 0.9)],
        ],
        "A": [
            [(0.42, 0.22), (0.32, 0.88)],
            [(0.58, 0.22), (0.68, 0.88)],
            [(0.2, 0.55), (0.8, 0.55)],
            [(0.3, 0.22), (0.7, 0.22), (0.92, 0.88), (0.08, 0.88), (0.3, 0.22)],
        ],
        "W": [_circle(0.5, 0.5, 0.12, 8), _circle(0.5, 0.5, 0.26, 12), _circle(0.5, 0.5, 0.4, 16)],
        "M": [
            [(0.15, 0.2), (0.5, 0.88), (0.85, 0.2), (0.15, 0.2)],
            [(0.3, 0.35), (0.4, 0.45), (0.5, 0.35), (0.6, 0.45), (0.7, 0.35)],
            _circle(0.5, 0.62, 0.05, 6),
        ],
        "H": [
            [(0.2, 0.12), (0.8, 0.12), (0.8, 0.5), (0.5, 0.9), (0.2, 0.5), (0.2, 0.12)],
            [(0.5, 0.2), (0.5, 0.75)],
            [(0.3, 0.38), (0.7, 0.38)],
        ],
    },
}
"""Small icons players draw instead of letters, one set per sample. The
rulebooks leave the drawing to the player, so the sets differ in kind, not
only in hand: a pine or a round tree or two trees; a house, two houses or a
tower; wheat, stalks, furrows alone, or a field seen from above or in
perspective with its furrows; waves, a drop, a pond or ripples; a face with
or without horns; a star, a sword, a shield or a figure. ``_simplified``
drops strokes other than the first, so a field's furrows are drawn before
its outline: a player may draw either."""

DIGITS: dict[str, Glyph] = {
    "0": [_circle(0.5, 0.5, 0.35)],
    "1": [[(0.35, 0.25), (0.5, 0.1), (0.5, 0.9)]],
    "2": [[(0.25, 0.25), (0.5, 0.1), (0.75, 0.3), (0.25, 0.9), (0.78, 0.9)]],
    "3": [[(0.25, 0.15), (0.72, 0.2), (0.45, 0.48), (0.75, 0.7), (0.25, 0.88)]],
    "4": [[(0.65, 0.9), (0.65, 0.1), (0.2, 0.65), (0.8, 0.65)]],
    "5": [[(0.72, 0.1), (0.3, 0.1), (0.28, 0.45), (0.72, 0.55), (0.6, 0.88), (0.25, 0.85)]],
    "7": [[(0.25, 0.1), (0.75, 0.1), (0.4, 0.9)]],
}


class Ink:
    """Pencil marks of one colour, drawn into a mask and laid on the paper at once."""

    def __init__(self, size: tuple[int, int], colour: tuple[int, int, int]):
        self.mask = Image.new("L", size, 0)
        self.draw = ImageDraw.Draw(self.mask)
        self.colour = colour
        self.used = False

    def line(self, pts: Stroke, width: float, alpha: float) -> None:
        self.used = True
        self.draw.line(pts, fill=int(255 * min(1.0, alpha)), width=max(1, round(width)), joint="curve")

    def lay(self, paper: np.ndarray, grain: np.ndarray) -> None:
        box = self.mask.getbbox() if self.used else None
        if not box:
            return
        x0, y0, x1, y1 = box
        a = np.asarray(self.mask.crop(box), np.float32) / 255.0 * grain[y0:y1, x0:x1]
        col = np.array(self.colour, np.float32) / 255.0
        paper[y0:y1, x0:x1] *= 1.0 - a[..., None] * (1.0 - col)


def jitter(rng: np.random.Generator, c: tuple[int, int, int], amount: int = 18) -> tuple[int, int, int]:
    r, g, b = (int(np.clip(v + rng.integers(-amount, amount + 1), 0, 255)) for v in c)
    return (r, g, b)


def _clip(
    p: tuple[float, float], q: tuple[float, float], x0: float, y0: float, x1: float, y1: float
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Liang-Barsky clipping of segment p-q to a box."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    t0, t1 = 0.0, 1.0
    for pk, qk in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if pk == 0:
            if qk < 0:
                return None
            continue
        t = qk / pk
        if pk < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    if t0 >= t1:
        return None
    return (p[0] + t0 * dx, p[1] + t0 * dy), (p[0] + t1 * dx, p[1] + t1 * dy)


def _hatch(
    ink: Ink,
    rng: np.random.Generator,
    box: tuple[float, float, float, float],
    u: float,
    angle: float,
    cover: float,
    pressure: float,
    zigzag: bool = False,
) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    half = max(x1 - x0, y1 - y0) * 0.75
    width = rng.uniform(0.05, 0.11) * u
    step = width * rng.uniform(0.7, 1.2)
    dx, dy = math.cos(angle), math.sin(angle)
    nx, ny = -dy, dx
    t = -half
    prev: tuple[float, float] | None = None
    while t < half:
        if rng.random() < cover:
            a0 = -half + rng.uniform(0, 0.15) * u
            a1 = half - rng.uniform(0, 0.15) * u
            p = (cx + nx * t + dx * a0, cy + ny * t + dy * a0)
            q = (cx + nx * t + dx * a1, cy + ny * t + dy * a1)
            seg = _clip(p, q, x0, y0, x1, y1)
            if seg:
                alpha = rng.uniform(0.55, 0.95) * min(1.0, cover + 0.2) * pressure
                a, b = seg
                if zigzag and prev is not None:
                    ink.line([prev, a], width, alpha)
                ink.line([a, b], width, alpha)
                prev = b if zigzag else None
                if zigzag:
                    a, b = b, a
        t += step


FILLS = ("hatch", "crosshatch", "scribble", "outline", "solid")


def fill_square(
    ink: Ink,
    rng: np.random.Generator,
    x: float,
    y: float,
    u: float,
    angle: float,
    cover: float,
    mode: str,
    pressure: float,
) -> None:
    """Colour one square, sometimes spilling over its edges."""
    spill = [
        rng.uniform(-0.04, 0.18) * u if rng.random() < 0.35 else rng.uniform(-0.1, 0.02) * u for _ in range(4)
    ]
    box = (x - spill[0], y - spill[1], x + u + spill[2], y + u + spill[3])
    if mode == "outline":
        inset = rng.uniform(0.05, 0.15) * u
        pts = [
            (x + inset, y + inset),
            (x + u - inset, y + inset),
            (x + u - inset, y + u - inset),
            (x + inset, y + u - inset),
            (x + inset, y + inset),
        ]
        ink.line(
            [(px + rng.normal(0, 0.02 * u), py + rng.normal(0, 0.02 * u)) for px, py in pts],
            0.07 * u,
            0.9 * pressure,
        )
        _hatch(ink, rng, box, u, angle, cover * rng.uniform(0.3, 0.8), pressure)
    elif mode == "scribble":
        _hatch(ink, rng, box, u, angle, min(1.0, cover + 0.15), pressure, zigzag=True)
    elif mode == "crosshatch":
        _hatch(ink, rng, box, u, angle, cover * 0.8, pressure)
        _hatch(ink, rng, box, u, angle + math.pi / 2 + rng.normal(0, 0.2), cover * 0.8, pressure)
    elif mode == "solid":
        _hatch(ink, rng, box, u, angle, 1.0, min(1.0, pressure * 1.15))
        _hatch(ink, rng, box, u, angle + rng.normal(0, 0.3), 0.7, pressure * 0.6)
    else:
        _hatch(ink, rng, box, u, angle, cover, pressure)


class Hand:
    """One player's handwriting: slant, size, stroke width, wobble."""

    def __init__(self, rng: np.random.Generator, pressure: float):
        self.slant = rng.uniform(-0.3, 0.3)
        self.size = (rng.uniform(0.45, 0.65), rng.uniform(0.7, 0.9))
        self.width = rng.uniform(0.03, 0.075)
        self.wobble = rng.uniform(0.006, 0.025)
        self.alpha = (rng.uniform(0.55, 0.8) * pressure, min(1.0, rng.uniform(0.85, 1.0) * pressure))

    def write(
        self,
        ink: Ink,
        rng: np.random.Generator,
        glyph: Glyph,
        x: float,
        y: float,
        u: float,
        scale: tuple[float, float] | None = None,
    ) -> None:
        """A letter or icon drawn by hand in the square at x, y of side u."""
        s = rng.uniform(*(scale or self.size))
        rot = math.radians(rng.uniform(-10, 10))
        ox = x + u * (1 - s) / 2 + rng.uniform(-0.08, 0.08) * u
        oy = y + u * (1 - s) / 2 + rng.uniform(-0.08, 0.08) * u
        width = self.width * u * rng.uniform(0.85, 1.15)
        alpha = rng.uniform(*self.alpha)
        cr, sr = math.cos(rot), math.sin(rot)
        for stroke in glyph:
            pts = []
            for (ax, ay), (bx, by) in zip(stroke[:-1], stroke[1:], strict=True):
                n = max(1, int(math.hypot(bx - ax, by - ay) / 0.2))
                pts.extend((ax + (bx - ax) * k / n, ay + (by - ay) * k / n) for k in range(n))
            pts.append(stroke[-1])
            out = []
            for px, py in pts:
                px, py = px - 0.5 + self.slant * (0.5 - py), py - 0.5
                px, py = px * cr - py * sr, px * sr + py * cr
                out.append(
                    (
                        ox + (px + 0.5) * s * u + rng.normal(0, self.wobble * u),
                        oy + (py + 0.5) * s * u + rng.normal(0, self.wobble * u),
                    )
                )
            ink.line(out, width, alpha)


def _grounded(rng: np.random.Generator, glyph: Glyph) -> Glyph:
    """An icon standing on a ground line drawn under it."""
    y = float(rng.uniform(0.9, 0.98))
    return [*glyph, [(float(rng.uniform(0.05, 0.2)), y), (float(rng.uniform(0.8, 0.95)), y)]]


def _doodle(rng: np.random.Generator) -> Glyph:
    """A small graphite mark a player leaves on a coloured square: a tiny
    icon of the terrain, the season's number by the shape drawn in it, or a
    ring for the coin it earned. None of them is a destroyed space's X."""
    kind = rng.random()
    if kind < 0.5:
        icons = ICON_SETS[str(rng.choice(["rulebook", "drawn"]))]
        return icons[str(rng.choice(list("FVAWMH")))]
    if kind < 0.8:
        return DIGITS[str(rng.choice(["1", "2", "3", "4"]))]
    return [_circle(0.5, 0.5, float(rng.uniform(0.2, 0.4)))]


def _simplified(rng: np.random.Generator, glyph: Glyph) -> Glyph:
    """An icon as a player may draw it with fewer strokes: stalks without
    their ears, a house without its door. Players draw icons their own way,
    and the classifier should know an icon by its main strokes, not by the
    one detail our icon sets happen to have."""
    if len(glyph) < 3:
        return glyph
    kept = [glyph[0]] + [s for s in glyph[1:] if rng.random() > 0.35]
    return kept if len(kept) >= 2 else glyph[:2]


def mark_sheet(
    rng: np.random.Generator,
    sheet: Image.Image,
    texture: np.ndarray,
    origin: tuple[float, float],
    coin_centres: list[tuple[float, float]],
    coin_r: float,
    writing: list[tuple[float, float, float]],
    grid: list[list[str]],
    under: set[tuple[int, int]],
    style: str,
    coins: int,
    u: float,
    glyphs: str,
    pressure: float,
) -> np.ndarray:
    """The sheet with the player's marks, as float RGB 0..1.

    ``origin`` is the grid's top-left corner and ``coin_centres`` the coin
    track, in units; ``writing`` lists (x, y, width) in units of places where
    the player writes a name or a score. ``glyphs`` is ``letters`` or an
    icon set's name; ``pressure`` scales how dark every mark is."""
    paper = np.asarray(sheet, np.float32) / 255.0
    paper *= texture if texture.ndim == 3 else texture[..., None]
    h, w = paper.shape[:2]
    small = rng.random((h // 8 + 2, w // 8 + 2)).astype(np.float32)
    grain = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)[:h, :w]
    fine = rng.random((h, w), dtype=np.float32)
    grain = 0.55 + 0.45 * (grain * 0.5 + 0.5 * fine)
    inks = {k: Ink((w, h), jitter(rng, c, 22)) for k, c in PIGMENTS.items()}
    graphite = Ink((w, h), jitter(rng, GRAPHITE, 12))
    hand = Hand(rng, pressure)
    letters = HANDS[str(rng.choice(list(HANDS)))]
    shapes = letters if glyphs == "letters" else ICON_SETS[glyphs]
    variants = {code: [glyph] for code, glyph in shapes.items()}
    if glyphs != "letters" and rng.random() < 0.5:
        # a player's icons need not come from one set: a forest may be a round
        # tree in one square and a pine in the next
        sets = list(ICON_SETS.values())
        for code in variants:
            picked = rng.choice(len(sets), size=int(rng.integers(1, 3)), replace=False)
            variants[code] = [sets[int(i)][code] for i in picked]
    if glyphs != "letters" and rng.random() < 0.5:
        variants = {code: [_simplified(rng, g) for g in options] for code, options in variants.items()}
    if glyphs != "letters" and rng.random() < 0.4:
        # some players stand their icons on the ground: stalks on a furrow, a tree on a hill
        for code in rng.choice(list(variants), size=int(rng.integers(1, 4)), replace=False):
            variants[str(code)] = [_grounded(rng, g) for g in variants[str(code)]]
    gx, gy = origin[0] * u, origin[1] * u
    angles = {k: rng.uniform(0, math.pi) for k in PIGMENTS}
    main_fill = str(rng.choice(FILLS, p=[0.45, 0.15, 0.15, 0.1, 0.15]))
    doodles = rng.uniform(0.0, 0.15)
    # some players shade hard, go over each square twice, or colour with felt
    # pens: their squares are nearly solid and take away twice the light of
    # one light coat, dark enough that a forest is as dark as graphite
    heavy = rng.random() < 0.35
    coats = {k: Ink((w, h), ink.colour) for k, ink in inks.items()} if heavy else {}
    for r in range(SIZE):
        for c in range(SIZE):
            code = grid[r][c]
            x, y = gx + c * u, gy + r * u
            if style == "color":
                colour = code if code in PIGMENTS else None
                if (r, c) in under:  # a space destroyed after it was filled, whatever with
                    colour = str(rng.choice(list(PIGMENTS)))
                if colour:
                    mode = main_fill if rng.random() < 0.8 else str(rng.choice(FILLS))
                    cover = rng.uniform(0.55, 1.0)
                    fill_square(
                        inks[colour],
                        rng,
                        x,
                        y,
                        u,
                        angles[colour] + rng.normal(0, 0.2),
                        cover,
                        mode,
                        pressure * rng.uniform(0.8, 1.1),
                    )
                    if heavy:
                        fill_square(
                            coats[colour],
                            rng,
                            x,
                            y,
                            u,
                            angles[colour] + rng.normal(0, 0.6),
                            rng.uniform(0.8, 1.0),
                            "solid",
                            pressure * rng.uniform(1.0, 1.3),
                        )
                    if rng.random() < doodles:
                        hand.write(graphite, rng, _doodle(rng), x, y, u, (0.2, 0.4))
            elif code in PIGMENTS:
                options = variants[code]
                hand.write(graphite, rng, options[int(rng.integers(len(options)))], x, y, u)
            if code == "X":
                hand.write(graphite, rng, X_MARK, x, y, u, (0.85, 1.02))
    coin_mode = str(rng.choice(["shade", "colour", "cross", "tick", "blot"]))
    coin_colour = str(rng.choice(list(PIGMENTS)))
    for cx, cy in coin_centres[:coins]:
        mode = coin_mode if rng.random() < 0.9 else str(rng.choice(["shade", "cross"]))
        ink = inks[coin_colour] if mode == "colour" and style == "color" else graphite
        rr = coin_r * u
        x0, y0 = cx * u - rr, cy * u - rr
        if mode == "cross":
            hand.write(ink, rng, X_MARK, x0, y0, 2 * rr, (0.9, 1.1))
        elif mode == "tick":
            hand.write(ink, rng, [[(0.15, 0.55), (0.4, 0.85), (0.9, 0.1)]], x0, y0, 2 * rr, (0.9, 1.1))
        elif mode == "blot":
            for _ in range(2):  # two coats
                _hatch(
                    ink,
                    rng,
                    (x0 + 0.3 * rr, y0 + 0.3 * rr, x0 + 1.7 * rr, y0 + 1.7 * rr),
                    2 * rr,
                    rng.uniform(0, 3),
                    1.0,
                    pressure,
                )
        else:
            _hatch(
                ink,
                rng,
                (x0 + 0.2 * rr, y0 + 0.2 * rr, x0 + 1.8 * rr, y0 + 1.8 * rr),
                2 * rr,
                rng.uniform(0, 3),
                0.9,
                pressure,
            )
    for wx, wy, ww in writing:
        if rng.random() < 0.25:
            continue
        n = int(rng.integers(3, 12))
        size = rng.uniform(0.35, 0.55)
        for k in range(n):
            if k * size * 0.8 > ww:
                break
            glyph = (
                letters[str(rng.choice(list("FVAWMH")))]
                if rng.random() < 0.7
                else DIGITS[str(rng.choice(list(DIGITS)))]
            )
            hand.write(graphite, rng, glyph, (wx + k * size * 0.8) * u, (wy - size) * u, size * u, (0.8, 1.0))
    for ink in inks.values():
        ink.lay(paper, grain)
    for ink in coats.values():  # a second coat, pressed into the paper's grain
        ink.lay(paper, np.sqrt(grain))
    graphite.lay(paper, grain)
    return paper
