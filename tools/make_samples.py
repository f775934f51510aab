"""Make synthetic photos of filled-in map sheets, each with its true answer.

Why: the sheet reader must be trained and measured on photos whose true
grid is known exactly. This script draws a plausible map on a rendered sheet
(``referee.vision.render``), marks it the way players do, and photographs it
the way phones at a table do. Everything is seeded, so the same command
always writes the same files.

Each sample is ``NNN.jpg`` plus ``NNN.json`` with:

- ``grid``: 11 strings of 11 map codes, printed ``^`` and ``#`` included;
- ``coins``: filled coins on the coin track;
- ``corners``: the grid's outer corners in image pixels (as displayed, i.e.
  after the EXIF orientation is applied), TL, TR, BR, BL of the upright sheet;
- ``side``, ``style`` (``colour`` or ``pencil``) and how it was made.

Marking styles:

- ``colour``: coloured pencil (forest dark green, village red, farm yellow,
  water blue, monster violet, hero orange), streaky hatching with 55-100 %
  coverage, strokes spilling over grid lines, small doodles; a destroyed
  space is a big graphite X, over empty or over colour.
- ``pencil``: graphite letters F V A W M H or the rulebook's little icons;
  X for destroyed.

The photograph: perspective tilt up to 35 degrees, any rotation including
upside down, a gentle curl of the paper, EXIF orientation on some, 1-12 MP,
warm or cool light, shadows, mild blur, JPEG noise, a table around the sheet,
and sometimes a pencil or a finger on the margin.

Usage::

    python tools/make_samples.py --out sample_sheets --count 64 --seed 5
    python tools/make_samples.py --out /tmp/train --count 1500 --seed 3000 --large-every 0 --balanced

Seed ranges: the committed ``sample_sheets`` use seed 5, training sets
seeds 1000 and 3000, held-out bench sets 2000 and 4000; never train on a
set that is measured.
"""

from __future__ import annotations

import argparse
import io
import json
import math
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw

from referee.rules.data import MapSide, map_sides
from referee.rules.geometry import NEIGHBOURS, SIZE
from referee.vision import render

PIGMENTS = {
    "F": (35, 95, 45),
    "V": (205, 40, 40),
    "A": (245, 205, 35),
    "W": (40, 105, 215),
    "M": (125, 55, 165),
    "H": (245, 135, 30),
}
GRAPHITE = (70, 70, 78)

LETTERS: dict[str, list[list[tuple[float, float]]]] = {
    "F": [[(0.3, 0.9), (0.3, 0.1), (0.72, 0.1)], [(0.3, 0.5), (0.62, 0.5)]],
    "V": [[(0.22, 0.1), (0.5, 0.9), (0.78, 0.1)]],
    "A": [[(0.22, 0.9), (0.5, 0.1), (0.78, 0.9)], [(0.34, 0.6), (0.66, 0.6)]],
    "W": [[(0.12, 0.12), (0.3, 0.88), (0.5, 0.4), (0.7, 0.88), (0.88, 0.12)]],
    "M": [[(0.18, 0.9), (0.2, 0.1), (0.5, 0.6), (0.8, 0.1), (0.82, 0.9)]],
    "H": [[(0.25, 0.1), (0.25, 0.9)], [(0.75, 0.1), (0.75, 0.9)], [(0.25, 0.5), (0.75, 0.5)]],
    "X": [[(0.06, 0.06), (0.94, 0.94)], [(0.94, 0.06), (0.06, 0.94)]],
}


def _circle(cx: float, cy: float, r: float, n: int = 14) -> list[tuple[float, float]]:
    return [
        (cx + r * math.cos(2 * math.pi * k / n), cy + r * math.sin(2 * math.pi * k / n)) for k in range(n + 1)
    ]


def _star() -> list[tuple[float, float]]:
    pts = []
    for k in range(6):
        a = -math.pi / 2 + k * 4 * math.pi / 5
        pts.append((0.5 + 0.4 * math.cos(a), 0.55 + 0.4 * math.sin(a)))
    return pts


ICONS: dict[str, list[list[tuple[float, float]]]] = {
    "F": [[(0.5, 0.1), (0.2, 0.7), (0.8, 0.7), (0.5, 0.1)], [(0.5, 0.7), (0.5, 0.92)]],
    "V": [[(0.2, 0.9), (0.2, 0.45), (0.5, 0.15), (0.8, 0.45), (0.8, 0.9), (0.2, 0.9)]],
    "A": [
        [(0.5, 0.92), (0.5, 0.12)],
        [(0.5, 0.32), (0.33, 0.18)],
        [(0.5, 0.32), (0.67, 0.18)],
        [(0.5, 0.55), (0.33, 0.41)],
        [(0.5, 0.55), (0.67, 0.41)],
    ],
    "W": [
        [(0.1 + 0.08 * k, 0.35 + 0.1 * math.sin(k * 1.3)) for k in range(11)],
        [(0.1 + 0.08 * k, 0.65 + 0.1 * math.sin(k * 1.3)) for k in range(11)],
    ],
    "M": [
        _circle(0.5, 0.58, 0.3),
        [(0.3, 0.38), (0.22, 0.1)],
        [(0.7, 0.38), (0.78, 0.1)],
        _circle(0.4, 0.52, 0.04, 6),
    ],
    "H": [_star()],
    "X": LETTERS["X"],
}


# --- the map -----------------------------------------------------------------


MIX = [0.24, 0.22, 0.2, 0.2, 0.1, 0.04]
"""How often each of F V A W M H starts a shape on a played map."""
BALANCED_MIX = [0.18, 0.18, 0.18, 0.18, 0.16, 0.12]
"""The mix for training sets (``--balanced``): monsters and heroes are rare
in play, so the classifier would otherwise see too few of them to learn the
violet and orange pencils apart from their neighbours."""


def random_map(
    rng: np.random.Generator, side: MapSide, mix: list[float] = MIX
) -> tuple[list[list[str]], set[tuple[int, int]]]:
    """A plausible map: terrain in clusters, monsters, heroes and some destroyed
    spaces. Returns the codes and the destroyed spaces drawn over colour, with
    the colour that lies under each X kept in the returned grid's shadow set."""
    grid = [[side.printed(r, c) for c in range(SIZE)] for r in range(SIZE)]
    free = [(r, c) for r in range(SIZE) for c in range(SIZE) if grid[r][c] == "."]
    target = rng.uniform(0.15, 0.92) * len(free)
    placed = 0
    tries = 0
    while placed < target and tries < 400:
        tries += 1
        code = str(rng.choice(list("FVAWMH"), p=mix))
        size = 1 if code == "H" else int(rng.integers(1, 6))
        r, c = free[int(rng.integers(len(free)))]
        if grid[r][c] != ".":
            continue
        shape = [(r, c)]
        while len(shape) < size:
            i = shape[int(rng.integers(len(shape)))]
            nbrs = [divmod(n, SIZE) for n in NEIGHBOURS[i[0] * SIZE + i[1]]]
            nbrs = [n for n in nbrs if grid[n[0]][n[1]] == "." and n not in shape]
            if not nbrs:
                break
            shape.append(nbrs[int(rng.integers(len(nbrs)))])
        for rr, cc in shape:
            grid[rr][cc] = code
        placed += len(shape)
    under: set[tuple[int, int]] = set()
    for _ in range(int(rng.integers(0, 5))):
        r, c = free[int(rng.integers(len(free)))]
        if grid[r][c] in PIGMENTS:
            under.add((r, c))
        grid[r][c] = "X"
    return grid, under


# --- marking -----------------------------------------------------------------


class Ink:
    """Pencil marks of one colour, drawn into a mask and laid on the paper at once."""

    def __init__(self, size: tuple[int, int], colour: tuple[int, int, int]):
        self.mask = Image.new("L", size, 0)
        self.draw = ImageDraw.Draw(self.mask)
        self.colour = colour

    def line(self, pts: list[tuple[float, float]], width: float, alpha: float) -> None:
        self.draw.line(pts, fill=int(255 * alpha), width=max(1, round(width)), joint="curve")

    def lay(self, paper: np.ndarray, grain: np.ndarray) -> None:
        a = np.asarray(self.mask, np.float32)[..., None] / 255.0 * grain[..., None]
        col = np.array(self.colour, np.float32) / 255.0
        paper *= 1.0 - a * (1.0 - col)


def _jitter_colour(
    rng: np.random.Generator, c: tuple[int, int, int], amount: int = 18
) -> tuple[int, int, int]:
    r, g, b = (int(np.clip(v + rng.integers(-amount, amount + 1), 0, 255)) for v in c)
    return (r, g, b)


def _fill(
    ink: Ink, rng: np.random.Generator, x: float, y: float, u: float, angle: float, cover: float
) -> None:
    """Streaky hatching of one square, sometimes spilling over its edges."""
    spill = [
        rng.uniform(-0.04, 0.18) * u if rng.random() < 0.35 else rng.uniform(-0.1, 0.02) * u for _ in range(4)
    ]
    x0, y0, x1, y1 = x - spill[0], y - spill[1], x + u + spill[2], y + u + spill[3]
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    half = max(x1 - x0, y1 - y0) * 0.75
    width = rng.uniform(0.05, 0.11) * u
    step = width * rng.uniform(0.7, 1.1)
    dx, dy = math.cos(angle), math.sin(angle)
    nx, ny = -dy, dx
    t = -half
    while t < half:
        if rng.random() < cover:
            a0 = -half + rng.uniform(0, 0.15) * u
            a1 = half - rng.uniform(0, 0.15) * u
            p = (cx + nx * t + dx * a0, cy + ny * t + dy * a0)
            q = (cx + nx * t + dx * a1, cy + ny * t + dy * a1)
            seg = _clip(p, q, x0, y0, x1, y1)
            if seg:
                ink.line(list(seg), width, rng.uniform(0.55, 0.95) * min(1.0, cover + 0.2))
        t += step


def _clip(p: tuple[float, float], q: tuple[float, float], x0: float, y0: float, x1: float, y1: float):  # type: ignore[no-untyped-def]
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


def _strokes(
    ink: Ink,
    rng: np.random.Generator,
    strokes: list[list[tuple[float, float]]],
    x: float,
    y: float,
    u: float,
    scale: tuple[float, float] = (0.6, 0.9),
) -> None:
    """A letter or icon drawn by hand: scaled, turned a little, wobbly."""
    s = rng.uniform(*scale)
    rot = math.radians(rng.uniform(-12, 12))
    ox = x + u * (1 - s) / 2 + rng.uniform(-0.08, 0.08) * u
    oy = y + u * (1 - s) / 2 + rng.uniform(-0.08, 0.08) * u
    width = rng.uniform(0.035, 0.07) * u
    alpha = rng.uniform(0.6, 0.95)
    for stroke in strokes:
        pts = []
        for px, py in stroke:
            px, py = px - 0.5, py - 0.5
            px, py = px * math.cos(rot) - py * math.sin(rot), px * math.sin(rot) + py * math.cos(rot)
            pts.append(
                (
                    ox + (px + 0.5) * s * u + rng.normal(0, 0.015 * u),
                    oy + (py + 0.5) * s * u + rng.normal(0, 0.015 * u),
                )
            )
        ink.line(pts, width, alpha)


def mark_sheet(
    rng: np.random.Generator,
    sheet: Image.Image,
    grid: list[list[str]],
    under: set[tuple[int, int]],
    style: str,
    coins: int,
    u: float,
) -> np.ndarray:
    """The sheet with the player's marks, as float RGB 0..1."""
    paper = np.asarray(sheet, np.float32) / 255.0
    h, w = paper.shape[:2]
    small = rng.random((h // 8 + 2, w // 8 + 2)).astype(np.float32)
    grain = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)[:h, :w]
    grain = 0.55 + 0.45 * (grain * 0.5 + 0.5 * rng.random((h, w)).astype(np.float32))
    inks = {k: Ink((w, h), _jitter_colour(rng, c)) for k, c in PIGMENTS.items()}
    graphite = Ink((w, h), _jitter_colour(rng, GRAPHITE, 10))
    gx, gy = render.GRID_X * u, render.GRID_Y * u
    icons = rng.random() < 0.35
    angles = {k: rng.uniform(0, math.pi) for k in PIGMENTS}
    for r in range(SIZE):
        for c in range(SIZE):
            code = grid[r][c]
            x, y = gx + c * u, gy + r * u
            if style == "colour":
                colour = code if code in PIGMENTS else None
                if (r, c) in under:
                    colour = str(rng.choice(list("FVAW")))
                if colour:
                    _fill(
                        inks[colour],
                        rng,
                        x,
                        y,
                        u,
                        angles[colour] + rng.normal(0, 0.2),
                        rng.uniform(0.55, 1.0),
                    )
                    if rng.random() < 0.08:
                        _strokes(graphite, rng, ICONS[str(rng.choice(list("FVAWMH")))], x, y, u, (0.25, 0.4))
                if code == "X":
                    _strokes(graphite, rng, LETTERS["X"], x, y, u, (0.85, 1.02))
            elif code in LETTERS:
                shapes = ICONS if icons and code != "X" else LETTERS
                _strokes(graphite, rng, shapes[code], x, y, u, (0.55, 0.85) if code != "X" else (0.85, 1.02))
    for cx, cy in render.coin_centres()[:coins]:
        ink = graphite if style == "pencil" or rng.random() < 0.5 else inks[str(rng.choice(list(PIGMENTS)))]
        rr = render.COIN_R * u
        if rng.random() < 0.5:
            _strokes(ink, rng, LETTERS["X"], cx * u - rr, cy * u - rr, 2 * rr, (0.9, 1.0))
        else:
            _fill(ink, rng, cx * u - rr * 0.8, cy * u - rr * 0.8, 1.6 * rr, rng.uniform(0, 3), 0.9)
    # a name on the name line and a few season scores
    nx = (render.GRID_X + 2) * u
    pts = [(nx + k * 0.25 * u, 3.3 * u + rng.normal(0, 0.1 * u)) for k in range(int(rng.integers(4, 20)))]
    graphite.line(pts, 0.04 * u, 0.8)
    for k in range(int(rng.integers(0, 4))):
        bx = (render.GRID_X + k * SIZE / 4 + 0.4) * u
        by = (render.SEASON_Y + 0.85) * u
        _strokes(graphite, rng, ICONS["W"], bx, by, 0.7 * u, (0.8, 1.0))
    for ink in inks.values():
        ink.lay(paper, grain)
    graphite.lay(paper, grain)
    return paper


# --- the photograph ----------------------------------------------------------


def _background(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A table: wood grain or cloth, at low resolution and scaled up."""
    sw, sh = max(8, w // 8), max(8, h // 8)
    base = np.array(
        [rng.uniform(0.25, 0.75), rng.uniform(0.2, 0.6), rng.uniform(0.1, 0.5)]
        if rng.random() < 0.7
        else [rng.uniform(0.1, 0.9)] * 3,
        np.float32,
    )
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    a = rng.uniform(0, math.pi)
    t = xx * math.cos(a) + yy * math.sin(a)
    grain = (
        0.85 + 0.1 * np.sin(t * rng.uniform(0.2, 0.8) + 3 * np.sin(t * 0.05)) + 0.05 * rng.random((sh, sw))
    )
    img = base[None, None, :] * grain[..., None]
    return cv2.resize(img.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def _curl(rng: np.random.Generator, img: np.ndarray, u: float) -> tuple[np.ndarray, callable]:  # type: ignore[valid-type]
    """Bow the paper a little; returns the image and the forward point map."""
    h, w = img.shape[:2]
    ax, ay = rng.uniform(-0.15, 0.15) * u, rng.uniform(-0.15, 0.15) * u

    def fwd(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return x + ax * ((y - h / 2) / (h / 2)) ** 2, y + ay * ((x - w / 2) / (w / 2)) ** 2

    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # inverse by one fixed-point step (the bow is small)
    sx, sy = fwd(xx, yy)
    mx, my = xx - (sx - xx), yy - (sy - yy)
    out = cv2.remap(
        img, mx.astype(np.float32), my.astype(np.float32), cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return out, fwd


def _camera(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Homography from page units to photo pixels: turned, tilted, placed."""
    rot = rng.uniform(0, 2 * math.pi)
    tilt = math.radians(rng.uniform(0, 35))
    axis = rng.uniform(0, 2 * math.pi)
    cz, sz = math.cos(rot), math.sin(rot)
    Rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    ca, sa = math.cos(axis), math.sin(axis)
    Ra = np.array([[ca, -sa, 0], [sa, ca, 0], [0, 0, 1]])
    ct, st = math.cos(tilt), math.sin(tilt)
    Rx = np.array([[1, 0, 0], [0, ct, -st], [0, st, ct]])
    R = Ra @ Rx @ Ra.T @ Rz
    page = np.array([[0, 0], [render.PAGE_W, 0], [render.PAGE_W, render.PAGE_H], [0, render.PAGE_H]], float)
    centre = np.array([render.PAGE_W / 2, render.PAGE_H / 2])
    dist = rng.uniform(1.6, 3.0) * render.PAGE_H

    def project(pts: np.ndarray) -> np.ndarray:
        p3 = np.c_[pts - centre, np.zeros(len(pts))] @ R.T
        z = p3[:, 2] + dist
        return p3[:, :2] * (dist / z)[:, None]

    gc = np.array(render.grid_corners(1.0))
    proj_page, proj_grid = project(page), project(gc)
    lo, hi = proj_page.min(0), proj_page.max(0)
    fill = rng.uniform(0.75, 1.1)
    scale = fill * min(w / (hi - lo)[0], h / (hi - lo)[1])
    glo, ghi = proj_grid.min(0) * scale, proj_grid.max(0) * scale
    # keep the whole grid in frame with a margin; the page may be cut
    margin = 0.03 * min(w, h)
    ox_lo, ox_hi = margin - glo[0], w - margin - ghi[0]
    oy_lo, oy_hi = margin - glo[1], h - margin - ghi[1]
    plo, phi = lo * scale, hi * scale
    ox = rng.uniform(ox_lo, ox_hi) if ox_hi > ox_lo else (ox_lo + ox_hi) / 2
    oy = rng.uniform(oy_lo, oy_hi) if oy_hi > oy_lo else (oy_lo + oy_hi) / 2
    ox = float(
        np.clip((w - (plo[0] + phi[0])) / 2 + rng.normal(0, 0.1 * w), min(ox_lo, ox_hi), max(ox_lo, ox_hi))
    )
    oy = float(
        np.clip((h - (plo[1] + phi[1])) / 2 + rng.normal(0, 0.1 * h), min(oy_lo, oy_hi), max(oy_lo, oy_hi))
    )
    dst = proj_page * scale + [ox, oy]
    return cv2.getPerspectiveTransform(page.astype(np.float32), dst.astype(np.float32))


def _occluder(rng: np.random.Generator, photo: np.ndarray, H: np.ndarray, px_per_unit: float) -> None:
    """A pencil or a fingertip resting on the sheet's margin, never on the grid."""
    side = int(rng.integers(4))
    gx0, gy0 = render.GRID_X, render.GRID_Y
    if side == 0:
        tip, out = (gx0 - 0.9, gy0 + rng.uniform(1, 10)), (-1.0, rng.uniform(-0.3, 0.3))
    elif side == 1:
        tip, out = (gx0 + SIZE + 0.9, gy0 + rng.uniform(1, 10)), (1.0, rng.uniform(-0.3, 0.3))
    elif side == 2:
        tip, out = (
            (gx0 + rng.uniform(0, 11), render.SEASON_Y + render.SEASON_H + 0.4),
            (rng.uniform(-0.3, 0.3), 1.0),
        )
    else:
        tip, out = (gx0 + rng.uniform(0, 11), 0.6), (rng.uniform(-0.3, 0.3), -1.0)
    n = math.hypot(*out)
    length = 4.0
    p0 = np.array([tip, (tip[0] + out[0] / n * length, tip[1] + out[1] / n * length)], np.float32)
    p = cv2.perspectiveTransform(p0[None], H)[0]
    width = (0.7 if rng.random() < 0.5 else 1.6) * px_per_unit
    colour = (0.85, 0.7, 0.2) if width < px_per_unit else (0.85, 0.65, 0.55)
    shadow = np.zeros(photo.shape[:2], np.float32)
    off = np.array([0.3, 0.4]) * px_per_unit
    cv2.line(shadow, tuple(int(v) for v in p[0] + off), tuple(int(v) for v in p[1] + off), 1.0, int(width))
    shadow = cv2.GaussianBlur(shadow, (0, 0), px_per_unit * 0.4)
    photo *= 1 - 0.35 * shadow[..., None]
    cv2.line(photo, tuple(int(v) for v in p[0]), tuple(int(v) for v in p[1]), colour, int(width))
    cv2.circle(photo, tuple(int(v) for v in p[0]), int(width / 2), colour, -1)


def photograph(
    rng: np.random.Generator, marked: np.ndarray, u: float, w: int, h: int, H_units: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The photo (uint8 RGB) and the grid corners in it."""
    curled, fwd = _curl(rng, marked, u)
    H = H_units @ np.diag([1 / u, 1 / u, 1.0])
    photo = _background(rng, w, h)
    # soft shadow of the sheet on the table
    mask = cv2.warpPerspective(np.ones(curled.shape[:2], np.float32), H, (w, h))
    k = max(3, int(0.01 * w)) | 1
    drop = cv2.GaussianBlur(mask, (k * 3, k * 3), 0)
    drop = np.roll(np.roll(drop, k, 0), k, 1)
    photo *= 1 - 0.3 * drop[..., None]
    cv2.warpPerspective(curled, H, (w, h), dst=photo, borderMode=cv2.BORDER_TRANSPARENT, flags=cv2.INTER_AREA)
    gc = np.array(render.grid_corners(u))
    cx, cy = fwd(gc[:, 0], gc[:, 1])
    corners = cv2.perspectiveTransform(np.c_[cx, cy][None].astype(np.float32), H)[0]
    ppu = math.sqrt(abs(cv2.contourArea(corners))) / SIZE
    if rng.random() < 0.3:
        _occluder(rng, photo, H, ppu)
    # light: colour temperature, a gradient, a shadow
    temp = rng.uniform(-1, 1)
    photo *= np.array([1 + 0.1 * temp, 1.0, 1 - 0.15 * temp], np.float32) * rng.uniform(0.75, 1.05)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    grad = 1 + rng.uniform(0, 0.25) * ((xx * math.cos(a) + yy * math.sin(a)) / max(w, h) - 0.5)
    if rng.random() < 0.5:
        pts = (rng.random((5, 2)) * [w / 8, h / 8]).astype(np.int32)
        sh = np.zeros_like(grad)
        cv2.fillConvexPoly(sh, cv2.convexHull(pts), 1.0)
        sh = cv2.GaussianBlur(sh, (0, 0), rng.uniform(2, 10))
        grad *= 1 - rng.uniform(0.15, 0.4) * sh
    photo *= cv2.resize(grad, (w, h))[..., None]
    sigma = rng.uniform(0, 1.3) * max(1.0, w / 1600)
    if sigma > 0.3:
        photo = cv2.GaussianBlur(photo, (0, 0), sigma)
    photo += rng.normal(0, rng.uniform(0.005, 0.025), photo.shape).astype(np.float32)
    return (np.clip(photo, 0, 1) * 255).astype(np.uint8), corners


SIZES_SMALL = [(1152, 864), (1280, 960), (1600, 1200), (1024, 1024)]
SIZES_LARGE = [(3264, 2448), (4000, 3000), (2592, 1944)]


def make_one(
    seed: int, large: bool, force_style: str | None = None, balanced: bool = False
) -> tuple[bytes, dict[str, object]]:
    rng = np.random.default_rng(seed)
    side = map_sides()["ABCD"[int(rng.integers(4))]]
    style = force_style or ("colour" if rng.random() < 0.6 else "pencil")
    sheet_style = "printable" if rng.random() < 0.25 else "official"
    grid, under = random_map(rng, side, BALANCED_MIX if balanced else MIX)
    coins = int(rng.integers(0, 15))
    w, h = (SIZES_LARGE if large else SIZES_SMALL)[int(rng.integers(3 if large else 4))]
    if rng.random() < 0.5:
        w, h = h, w
    H_units = _camera(rng, w, h)
    area = abs(
        cv2.contourArea(
            cv2.perspectiveTransform(np.array([render.grid_corners(1.0)], np.float32), H_units)[0]
        )
    )
    u = float(np.clip(math.sqrt(area) / SIZE * 1.3, 24, 140))
    sheet = render.render_sheet(side, u, sheet_style)
    marked = mark_sheet(rng, sheet, grid, under, style, coins, u)
    photo, corners = photograph(rng, marked, u, w, h, H_units)
    img = Image.fromarray(photo)
    orientation = 1
    if rng.random() < 0.2:
        # store the pixels turned and let EXIF turn them back for display
        orientation = int(rng.choice([3, 6, 8]))
        stored = img.transpose(
            {3: Image.Transpose.ROTATE_180, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}[
                orientation
            ]
        )
        exif = Image.Exif()
        exif[0x0112] = orientation
        img_out, extra = stored, {"exif": exif}
    else:
        img_out, extra = img, {}
    buf = io.BytesIO()
    quality = int(rng.integers(70, 93)) if not large else int(rng.integers(68, 80))
    img_out.save(buf, "JPEG", quality=quality, **extra)
    truth: dict[str, object] = {
        "grid": ["".join(row) for row in grid],
        "coins": coins,
        "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in corners],
        "side": side.letter,
        "style": style,
        "sheet_style": sheet_style,
        "exif_orientation": orientation,
        "size": [w, h],
        "seed": seed,
    }
    return buf.getvalue(), truth


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--count", type=int, default=64)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--large-every", type=int, default=16, help="every Nth photo is 8-12 MP (0: none)")
    ap.add_argument("--style", choices=["colour", "pencil"], default=None)
    ap.add_argument("--balanced", action="store_true", help="more monsters and heroes (training sets)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for k in range(args.count):
        large = args.large_every > 0 and k % args.large_every == args.large_every - 1
        data, truth = make_one(args.seed * 100003 + k, large, args.style, args.balanced)
        (args.out / f"{k:03d}.jpg").write_bytes(data)
        (args.out / f"{k:03d}.json").write_text(json.dumps(truth) + "\n")
    print(f"wrote {args.count} samples to {args.out}")


if __name__ == "__main__":
    main()
