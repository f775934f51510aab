"""The photograph around a synthetic sheet: table, camera, light, hands.

- Backgrounds: wood, plain cloth, checked (gingham) tablecloths whose lattice
  is about the size of a grid square, plain dark or light tables, other
  sheets of paper with printed text; held out: plaid cloth and stone.
- Camera: any turn (mostly near a quarter turn), a perspective tilt, the grid
  anywhere in the picture, from about a third of it to nearly all of it.
- Light: colour temperature, gradients, soft shadows, blur, a phone's noise
  (its colour noise in blotches a few pixels across, coarser in dim light); for
  hard samples dim or strongly coloured light, a hot spot, a hard-edged
  shadow across the grid, stronger or motion blur.
- Occluders: a pencil or a fingertip on the margin; for hard samples a
  pencil, finger or hand, or coins lying on the grid itself.
- A neighbour's sheet (``neighbour``): another player's sheet of the pad
  lying on the table beside the player's, in the same plane.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

BACKGROUNDS = ("wood", "cloth", "gingham", "dark", "light", "papers", "plaid", "stone")
HOLDOUT_BACKGROUNDS = frozenset({"plaid", "stone"})
Fn = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def soft(mask: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur of a one-channel float picture; wide blurs are done on a
    smaller copy (the result is smooth anyway), which is far faster."""
    f = int(sigma / 3)
    if f < 2:
        return cv2.GaussianBlur(mask, (0, 0), max(sigma, 0.3))
    h, w = mask.shape[:2]
    small = cv2.resize(mask, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / f)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _coords(rng: np.random.Generator, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel coordinates turned by a random angle (for stripes and grain)."""
    a = rng.uniform(0, math.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    return xx * math.cos(a) + yy * math.sin(a), -xx * math.sin(a) + yy * math.cos(a)


def _smooth_noise(rng: np.random.Generator, w: int, h: int, cell: float) -> np.ndarray:
    sw, sh = max(2, int(w / cell) + 2), max(2, int(h / cell) + 2)
    return cv2.resize(rng.random((sh, sw)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)


def _stripes(t: np.ndarray, period: float, duty: float) -> np.ndarray:
    """Soft-edged stripes, 1 inside a stripe."""
    ph = np.mod(t, period) / period
    s = (ph < duty).astype(np.float32)
    return cv2.GaussianBlur(s, (0, 0), 0.7)


CLOTH = [
    (0.75, 0.12, 0.12),
    (0.12, 0.25, 0.6),
    (0.1, 0.45, 0.2),
    (0.1, 0.1, 0.12),
    (0.55, 0.2, 0.45),
    (0.8, 0.55, 0.1),
]


def background(rng: np.random.Generator, kind: str, w: int, h: int, ppu: float) -> np.ndarray:
    """A table top of ``kind``, float RGB; ``ppu`` is the photo's pixels per
    grid square. Drawn at half size (the camera focuses on the sheet)."""
    small = _table(rng, kind, (w + 1) // 2, (h + 1) // 2, ppu / 2)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _table(rng: np.random.Generator, kind: str, w: int, h: int, ppu: float) -> np.ndarray:
    if kind == "wood":
        base = np.array([rng.uniform(0.3, 0.8), rng.uniform(0.2, 0.55), rng.uniform(0.1, 0.35)], np.float32)
        t, s = _coords(rng, w, h)
        f = rng.uniform(0.05, 0.25) * 40 / max(ppu, 10)
        warp = rng.uniform(1, 4) * _smooth_noise(rng, w, h, max(w, h) / 4)
        grain = (
            0.85
            + 0.07 * np.sin(s * f + warp)
            + 0.05 * np.sin(s * f * 3.7 + 2 * warp)
            + 0.04 * _smooth_noise(rng, w, h, 3)
        )
        img = base * grain[..., None]
        if rng.random() < 0.5:  # planks
            img *= (1 - 0.25 * _stripes(s, rng.uniform(4, 12) * ppu, 0.01))[..., None]
        return img
    if kind in ("cloth", "dark", "light"):
        if kind == "cloth":
            base = np.array(CLOTH[int(rng.integers(len(CLOTH)))], np.float32) * rng.uniform(0.7, 1.2)
        elif kind == "dark":
            base = np.full(3, rng.uniform(0.04, 0.25), np.float32) * rng.uniform(0.8, 1.2, 3).astype(
                np.float32
            )
        else:
            base = np.full(3, rng.uniform(0.7, 0.95), np.float32) * rng.uniform(0.93, 1.05, 3).astype(
                np.float32
            )
        shade = 0.85 + 0.25 * _smooth_noise(rng, w, h, max(w, h) / 4)
        weave = 1 + (0.06 if kind == "cloth" else 0.02) * (rng.random((h, w), dtype=np.float32) - 0.5)
        return np.clip(base, 0, 1) * (shade * weave)[..., None]
    if kind in ("gingham", "plaid"):
        x, y = _coords(rng, w, h)
        white = np.array([0.93, 0.92, 0.9], np.float32)
        img = np.ones((h, w, 3), np.float32) * white
        colours = [np.array(CLOTH[int(rng.integers(len(CLOTH)))], np.float32) for _ in range(3)]
        if kind == "gingham":
            period = rng.uniform(0.35, 1.6) * ppu
            for t in (x, y):
                s = _stripes(t, period, 0.5)[..., None]
                img *= 1 - 0.5 * s * (1 - colours[0])
        else:
            for k, t in enumerate((x, y, x, y)):
                period = rng.uniform(1.0, 3.0) * ppu
                s = _stripes(t + rng.uniform(0, period), period, rng.uniform(0.08, 0.35))[..., None]
                img *= 1 - 0.55 * s * (1 - colours[k % 3])
        return img * (1 + 0.05 * (rng.random((h, w), dtype=np.float32) - 0.5))[..., None]
    if kind == "stone":
        base = np.array([rng.uniform(0.45, 0.75)] * 3, np.float32) * rng.uniform(0.9, 1.1, 3).astype(
            np.float32
        )
        n = (
            0.5 * _smooth_noise(rng, w, h, ppu * 2)
            + 0.3 * _smooth_noise(rng, w, h, ppu / 3)
            + 0.2 * rng.random((h, w), dtype=np.float32)
        )
        speck = (rng.random((h, w), dtype=np.float32) < 0.01).astype(np.float32)
        speck = cv2.GaussianBlur(speck, (0, 0), 1.0) * 3
        return base * (0.7 + 0.5 * n - 0.4 * np.clip(speck, 0, 1))[..., None]
    # papers: a light or wooden table with printed pages on it
    img = _table(rng, "wood" if rng.random() < 0.5 else "light", w, h, ppu)
    for _ in range(int(rng.integers(1, 4))):
        pw, ph = rng.uniform(8, 16) * ppu, rng.uniform(11, 22) * ppu
        centre = (rng.uniform(0, w), rng.uniform(0, h))
        ang = rng.uniform(-40, 40)
        box = cv2.boxPoints((centre, (pw, ph), ang)).astype(np.float32)
        src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
        m = cv2.getPerspectiveTransform(src, box)
        page = np.ones((int(ph), int(pw)), np.float32)
        line_h = rng.uniform(0.25, 0.5) * ppu
        y = rng.uniform(1, 2) * ppu
        while y < ph - ppu:
            x = ppu
            while x < pw - ppu:
                word = rng.uniform(0.5, 2.5) * line_h * 2
                cv2.rectangle(
                    page, (int(x), int(y)), (int(min(x + word, pw - ppu)), int(y + line_h * 0.45)), 0.35, -1
                )
                x += word + line_h * 0.6
            y += line_h * rng.uniform(1.4, 2.2)
        page = cv2.GaussianBlur(page, (0, 0), max(0.5, line_h * 0.08))
        tint = np.array([0.95, 0.94, 0.9], np.float32) * rng.uniform(0.9, 1.02)
        sheet = np.repeat(page[..., None], 3, axis=2) * tint
        cv2.warpPerspective(sheet, m, (w, h), dst=img, borderMode=cv2.BORDER_TRANSPARENT)
    return img


NEIGHBOUR_SIDES = ((1.0, 0.0, 0.35), (-1.0, 0.0, 0.35), (0.0, 1.0, 0.15), (0.0, -1.0, 0.15))
"""Where a neighbour's sheet lies from the player's, in the player's page's
own directions, and how often: mostly to either side (the players beside
them), less often above or below (across the table)."""
NEIGHBOUR_TURNS = ((0.0, 0.5), (90.0, 0.15), (180.0, 0.2), (270.0, 0.15))
"""How a neighbour's sheet is turned from the player's, and how often: as
the player's for someone beside them, upside down across the table, a
quarter turn from the table's ends; each then off by some degrees."""


def neighbour(rng: np.random.Generator, page_w: float, page_h: float) -> tuple[np.ndarray, float]:
    """Where another player's sheet of the same pad lies on the table: the
    homography (a turn and a shift) from its page units to the player's
    page units, and its turn in degrees. It lies beside the player's sheet
    (``NEIGHBOUR_SIDES``) with a gap of a fifth of a square to three
    squares, slid along that side by up to a third of the page, turned as
    ``NEIGHBOUR_TURNS`` says and a few degrees more; it never overlaps the
    player's page."""
    sides, turns = NEIGHBOUR_SIDES, NEIGHBOUR_TURNS
    ex, ey, _p = sides[int(rng.choice(len(sides), p=[p for *_e, p in sides]))]
    turn = float(turns[int(rng.choice(len(turns), p=[p for _t, p in turns]))][0] + rng.normal(0, 8))
    a = math.radians(turn)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    half = np.array([page_w, page_h]) / 2
    corners = (np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * half) @ rot.T
    along = np.array([ex, ey])
    across = np.array([-ey, ex])
    reach = float(np.abs(half @ np.abs(along))) + float((corners @ along).max())
    slide = rng.uniform(-1 / 3, 1 / 3) * float(np.abs(half @ np.abs(across))) * 2
    centre = half + along * (reach + rng.uniform(0.2, 3.0)) + across * slide
    to_player = np.eye(3)
    to_player[:2, :2] = rot
    to_player[:2, 2] = centre - rot @ half
    return to_player, turn


def camera(
    rng: np.random.Generator,
    page_wh: tuple[float, float],
    grid_box: tuple[float, float, float, float],
    w: int,
    h: int,
    max_tilt: tuple[float, float],
    fill_range: tuple[float, float] = (0.33, 0.97),
) -> tuple[np.ndarray, dict[str, float]]:
    """Homography from page units to photo pixels: turned, tilted, placed so
    that the whole grid is in the picture, filling a third of it to nearly
    all (``fill_range``: of the picture's width or height, whichever it
    reaches first). ``grid_box`` may hold more than the grid: both grids of
    a photo of two sheets."""
    rot = (
        math.radians(90 * int(rng.integers(4)) + rng.normal(0, 8))
        if rng.random() < 0.75
        else rng.uniform(0, 2 * math.pi)
    )
    tilt = math.radians(rng.uniform(*max_tilt))
    axis = rng.uniform(0, 2 * math.pi)
    cz, sz = math.cos(rot), math.sin(rot)
    Rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    ca, sa = math.cos(axis), math.sin(axis)
    Ra = np.array([[ca, -sa, 0], [sa, ca, 0], [0, 0, 1]])
    ct, st = math.cos(tilt), math.sin(tilt)
    Rx = np.array([[1, 0, 0], [0, ct, -st], [0, st, ct]])
    R = Ra @ Rx @ Ra.T @ Rz
    pw, ph = page_wh
    gx0, gy0, gx1, gy1 = grid_box
    centre = np.array([(gx0 + gx1) / 2, (gy0 + gy1) / 2])
    dist = rng.uniform(1.3, 3.0) * max(pw, ph)

    def project(pts: np.ndarray) -> np.ndarray:
        p3 = np.c_[pts - centre, np.zeros(len(pts))] @ R.T
        z = p3[:, 2] + dist
        return p3[:, :2] * (dist / z)[:, None]

    page = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], float)
    grid = np.array([[gx0, gy0], [gx1, gy0], [gx1, gy1], [gx0, gy1]], float)
    pg = project(grid)
    lo, hi = pg.min(0), pg.max(0)
    span = hi - lo
    fill = rng.uniform(*fill_range)
    scale = fill * min(w / span[0], h / span[1])
    # the grid 350 to 3000 px across
    across = math.sqrt(abs(cv2.contourArea((pg * scale).astype(np.float32))))
    scale *= float(np.clip(across, 350, 3000) / across)
    scale = min(scale, 0.985 * min(w / span[0], h / span[1]))
    margin = 0.005 * min(w, h)
    ox = rng.uniform(margin - lo[0] * scale, w - margin - hi[0] * scale)
    oy = rng.uniform(margin - lo[1] * scale, h - margin - hi[1] * scale)
    dst = project(page) * scale + [ox, oy]
    H = cv2.getPerspectiveTransform(page.astype(np.float32), dst.astype(np.float32))
    info = {
        "turn": round(math.degrees(rot) % 360, 1),
        "tilt": round(math.degrees(tilt), 1),
        "fill": round(float(fill), 3),
    }
    return H, info


def curl(rng: np.random.Generator, img: np.ndarray, u: float, amount: float) -> tuple[np.ndarray, Fn]:
    """Bow the paper a little; returns the image and the forward point map."""
    h, w = img.shape[:2]
    ax, ay = rng.uniform(-amount, amount) * u, rng.uniform(-amount, amount) * u

    def fwd(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return x + ax * ((y - h / 2) / (h / 2)) ** 2, y + ay * ((x - w / 2) / (w / 2)) ** 2

    ys = np.arange(h, dtype=np.float32)[:, None]
    xs = np.arange(w, dtype=np.float32)[None, :]
    mx = xs - np.float32(ax) * ((ys - h / 2) / (h / 2)) ** 2
    my = ys - np.float32(ay) * ((xs - w / 2) / (w / 2)) ** 2
    out = cv2.remap(
        img,
        np.broadcast_to(mx, (h, w)).copy(),
        np.broadcast_to(my, (h, w)).copy(),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return out, fwd


def _capsule(
    img: np.ndarray, p: np.ndarray, q: np.ndarray, width: float, colour: tuple[float, float, float]
) -> None:
    cv2.line(img, tuple(int(v) for v in p), tuple(int(v) for v in q), colour, max(1, int(width)), cv2.LINE_AA)
    cv2.circle(img, tuple(int(v) for v in p), max(1, int(width / 2)), colour, -1, cv2.LINE_AA)


def _shadowed(
    photo: np.ndarray,
    draw: Callable[[np.ndarray, np.ndarray], None],
    colour: tuple[float, float, float],
    ppu: float,
) -> None:
    """Lay an object with a soft shadow under it: ``draw(layer, offset)``
    paints its silhouette into a float layer, shifted by ``offset``."""
    h, w = photo.shape[:2]
    mask = np.zeros((h, w), np.float32)
    off = np.array([0.3, 0.4]) * ppu
    draw(mask, np.zeros(2))
    pts = cv2.findNonZero((mask > 0).astype(np.uint8))
    if pts is None:
        return
    x, y, bw, bh = cv2.boundingRect(pts)
    pad = int(2 * ppu) + 4
    x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(w, x + bw + pad), min(h, y + bh + pad)
    roi = photo[y0:y1, x0:x1]
    m = mask[y0:y1, x0:x1]
    shifted = np.zeros_like(mask)
    draw(shifted, off)
    shadow = soft(shifted[y0:y1, x0:x1], max(1.0, ppu * 0.4))
    roi *= 1 - 0.4 * np.clip(shadow, 0, 1)[..., None]
    shade = 0.8 + 0.25 * soft(m, max(1.0, ppu * 0.3))
    m3 = np.clip(m, 0, 1)[..., None]
    roi[:] = roi * (1 - m3) + np.array(colour, np.float32) * shade[..., None] * m3


def occluder(
    rng: np.random.Generator,
    photo: np.ndarray,
    H: np.ndarray,
    grid_box: tuple[float, float, float, float],
    on_grid: bool,
    ppu: float,
) -> str:
    """A pencil, finger, hand or coins, on the margin or (``on_grid``) over the grid."""
    gx0, gy0, gx1, gy1 = grid_box
    kinds = ["pencil", "finger", "hand", "coins"] if on_grid else ["pencil", "finger"]
    kind = str(rng.choice(kinds))

    def to_photo(pts: list[tuple[float, float]]) -> np.ndarray:
        return cv2.perspectiveTransform(np.array([pts], np.float32), H)[0]

    if kind == "coins":
        n = int(rng.integers(1, 5))
        metal = [(0.78, 0.78, 0.76), (0.72, 0.45, 0.3), (0.8, 0.68, 0.35)][int(rng.integers(3))]
        for _ in range(n):
            c = to_photo([(rng.uniform(gx0, gx1), rng.uniform(gy0, gy1))])[0]
            r = rng.uniform(0.5, 0.9) * ppu

            def disc(layer: np.ndarray, off: np.ndarray, c: np.ndarray = c, r: float = r) -> None:
                cv2.circle(layer, tuple(int(v) for v in c + off), int(r), 1.0, -1, cv2.LINE_AA)

            _shadowed(photo, disc, metal, ppu)
            cv2.circle(
                photo,
                tuple(int(v) for v in c),
                int(r * 0.85),
                tuple(v * 0.75 for v in metal),
                max(1, int(r * 0.06)),
                cv2.LINE_AA,
            )
        return kind
    side = int(rng.integers(4))
    if on_grid:
        tip = (rng.uniform(gx0 + 1, gx1 - 1), rng.uniform(gy0 + 1, gy1 - 1))
    else:
        along = rng.uniform(0.1, 0.9)
        tip = [
            (gx0 - 0.9, gy0 + along * (gy1 - gy0)),
            (gx1 + 0.9, gy0 + along * (gy1 - gy0)),
            (gx0 + along * (gx1 - gx0), gy1 + 1.6),
            (gx0 + along * (gx1 - gx0), gy0 - 1.2),
        ][side]
    out = [
        (-1.0, rng.uniform(-0.4, 0.4)),
        (1.0, rng.uniform(-0.4, 0.4)),
        (rng.uniform(-0.4, 0.4), 1.0),
        (rng.uniform(-0.4, 0.4), -1.0),
    ][side]
    n = math.hypot(*out)
    length = 30.0
    p = to_photo([tip, (tip[0] + out[0] / n * length, tip[1] + out[1] / n * length)])
    if kind == "pencil":
        width = rng.uniform(0.45, 0.8) * ppu
        colour = [
            (0.85, 0.7, 0.2),
            (0.7, 0.15, 0.1),
            (0.15, 0.35, 0.6),
            (0.12, 0.12, 0.12),
            (0.2, 0.5, 0.25),
        ][int(rng.integers(5))]
    else:
        width = (rng.uniform(1.1, 1.7) if kind == "finger" else rng.uniform(3.5, 6.0)) * ppu
        colour = tuple(float(v) for v in np.array([0.85, 0.62, 0.5]) * rng.uniform(0.55, 1.1))

    def body(layer: np.ndarray, off: np.ndarray) -> None:
        _capsule(layer, p[0] + off, p[1] + off, width, 1.0)

    _shadowed(photo, body, colour, ppu)
    if kind == "pencil":  # the sharpened wood and the lead
        d = (p[1] - p[0]) / max(float(np.linalg.norm(p[1] - p[0])), 1e-6)
        cone = p[0] + d * width * 1.5
        nrm = np.array([-d[1], d[0]]) * width / 2
        tri = np.array([p[0], cone + nrm, cone - nrm], np.int32)
        cv2.fillConvexPoly(photo, tri, (0.85, 0.72, 0.55), cv2.LINE_AA)
        cv2.circle(
            photo, tuple(int(v) for v in p[0]), max(1, int(width * 0.18)), (0.2, 0.2, 0.22), -1, cv2.LINE_AA
        )
    return kind


def light(
    rng: np.random.Generator, photo: np.ndarray, effects: set[str], grid_quad: np.ndarray
) -> np.ndarray:
    """Colour and brightness of the light over the whole picture."""
    h, w = photo.shape[:2]
    # most light is near daylight once the phone has balanced it; a warm lamp
    # in the evening often is not, and leaves the picture orange
    temp = rng.uniform(-1, 1) if rng.random() < 0.7 else rng.uniform(1, 3)
    gain = np.array([1 + 0.1 * temp, 1.0, 1 - 0.15 * temp], np.float32)
    if "cast" in effects:
        gain = np.array(
            [(1.25, 1.0, 0.62), (0.78, 0.95, 1.25), (0.9, 1.1, 0.85), (1.15, 0.9, 1.0)][int(rng.integers(4))],
            np.float32,
        )
    exposure = rng.uniform(0.3, 0.55) if "dim" in effects else rng.uniform(0.78, 1.08)
    sw, sh = max(8, w // 8), max(8, h // 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    strength = rng.uniform(0.3, 0.6) if "cast" in effects else rng.uniform(0, 0.25)
    grad = 1 + strength * ((xx * math.cos(a) + yy * math.sin(a)) / max(sw, sh) - 0.5)
    if rng.random() < 0.3 or "cast" in effects:  # a hot spot (lamp or flash)
        cx, cy, r = rng.uniform(0, sw), rng.uniform(0, sh), rng.uniform(0.2, 0.6) * max(sw, sh)
        grad *= 1 + rng.uniform(0.05, 0.3) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
    grad *= 1 - rng.uniform(0, 0.25) * (((xx / sw - 0.5) ** 2 + (yy / sh - 0.5) ** 2) * 2)  # vignette
    if rng.random() < 0.4:
        pts = (rng.random((5, 2)) * [sw, sh]).astype(np.int32)
        sh_mask = np.zeros_like(grad)
        cv2.fillConvexPoly(sh_mask, cv2.convexHull(pts), 1.0)
        sh_mask = cv2.GaussianBlur(sh_mask, (0, 0), rng.uniform(2, 10))
        grad *= 1 - rng.uniform(0.1, 0.35) * sh_mask
    lit = grad[..., None] * gain
    if rng.random() < 0.5:
        # a second light of another colour (a window and a lamp) reaching
        # across the sheet: the light's colour changes from side to side
        b = rng.uniform(0, 2 * math.pi)
        t = np.clip((xx * math.cos(b) + yy * math.sin(b)) / max(sw, sh) + rng.uniform(-0.5, 0.5), 0, 1)
        temp2 = float(np.clip(temp + rng.choice([-1, 1]) * rng.uniform(0.4, 1.2), -1.5, 1.5))
        gain2 = np.array([1 + 0.1 * temp2, 1.0, 1 - 0.15 * temp2], np.float32)
        lit *= 1 + t[..., None] * (gain2 / gain - 1)
    photo *= cv2.resize(lit, (w, h)) * exposure
    if "shadow" in effects:
        # a hard-edged shadow (a phone, a head, an arm) across part of the grid
        c = grid_quad.mean(0)
        a = rng.uniform(0, 2 * math.pi)
        d = np.array([math.cos(a), math.sin(a)])
        n = np.array([-d[1], d[0]])
        reach = rng.uniform(-0.3, 0.4) * float(np.linalg.norm(grid_quad[0] - grid_quad[2]))
        big = 4 * max(w, h)
        edge = c + d * reach + n * rng.normal(0, 0.2) * reach
        poly = np.array(
            [edge - n * big, edge + n * big, edge + n * big + d * big, edge - n * big + d * big], np.int32
        )
        mask = np.zeros((h, w), np.float32)
        cv2.fillPoly(mask, [poly], 1.0)
        mask = soft(mask, rng.uniform(1.0, 0.01 * max(w, h) + 1.5))
        photo *= (1 - rng.uniform(0.4, 0.65) * mask)[..., None] * np.array([0.97, 0.98, 1.03], np.float32)
    return photo


def blur(rng: np.random.Generator, photo: np.ndarray, effects: set[str], ppu: float) -> np.ndarray:
    """Focus and shake: mild for every photo, strong for hard ones."""
    if "blur" in effects:
        if rng.random() < 0.5:
            length = int(rng.uniform(0.08, 0.25) * ppu) | 1
            k = np.zeros((length, length), np.float32)
            k[length // 2, :] = 1.0 / length
            rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0)
            k = cv2.warpAffine(k, rot, (length, length))
            return cv2.filter2D(photo, -1, k / max(float(k.sum()), 1e-6))
        sigma = rng.uniform(0.05, 0.1) * ppu
    else:
        sigma = rng.uniform(0, 0.03) * ppu
    return cv2.GaussianBlur(photo, (0, 0), sigma) if sigma > 0.4 else photo


def sensor_noise(rng: np.random.Generator, img: np.ndarray, sigma: float, dim: bool = False) -> np.ndarray:
    """Add a phone's noise to a uint8 picture, from a random tile (cheap at 12 MP).

    A phone's noise is not one value per pixel: demosaicing spreads it over a
    pixel or two, and the camera's noise reduction smooths the colour noise
    far more than the brightness noise, leaving blotches of colour a few
    pixels across; in dim light both are stronger and coarser. A network
    that only saw noise pixel by pixel reads such blotches in a pencil's
    strokes as other strokes. So the brightness and the colour noise each
    have a grain of their own, the colour's at least as coarse."""
    h, w = img.shape[:2]
    t = 256
    luma_grain = rng.uniform(1.0, 3.0 if dim else 2.0)
    chroma_grain = luma_grain * rng.uniform(1.0, 4.0 if dim else 2.5)
    tile = (0.8 * _grain(rng, t, 1, luma_grain) + 0.5 * _grain(rng, t, 3, chroma_grain)) * sigma * 255
    reps = (h // t + 2, w // t + 2, 1)
    oy, ox = int(rng.integers(t)), int(rng.integers(t))
    up = np.tile(np.clip(tile, 0, 255).astype(np.uint8), reps)[oy : oy + h, ox : ox + w]
    down = np.tile(np.clip(-tile, 0, 255).astype(np.uint8), reps)[oy : oy + h, ox : ox + w]
    return cv2.subtract(cv2.add(img, up), down)


def _grain(rng: np.random.Generator, size: int, channels: int, grain: float) -> np.ndarray:
    """A size x size x channels tile of unit noise whose blotches are about
    ``grain`` pixels across, wrapping at its edges like the tile it fills."""
    if grain < 1.2:
        return rng.normal(0, 1, (size, size, channels)).astype(np.float32)
    small = max(4, round(size / grain))
    noise = rng.normal(0, 1, (small, small, channels)).astype(np.float32)
    wrapped = np.concatenate([noise, noise[:1]], axis=0)
    wrapped = np.concatenate([wrapped, wrapped[:, :1]], axis=1)  # so the tile repeats without a seam
    step = size / small
    big = cv2.resize(wrapped, (size + round(step), size + round(step)), interpolation=cv2.INTER_CUBIC)
    big = big.reshape(big.shape[0], big.shape[1], channels)[:size, :size]
    return big / max(float(big.std()), 1e-6)
