"""Make synthetic photos of filled-in map sheets, each with its true answer.

Why: the sheet reader must be trained and measured on photos whose true
grid is known exactly, and it must not learn an invariant of one drawing
(a frame, a paper, an icon) that the box's pad breaks. So each sample draws
a random *sheet design* (``sheet_design``: our printable sheet, the
renderer's imitation of the pad, and a widely randomized pad-like design),
marks a plausible map on it (``pencil``) and photographs it the way phones
at a table do (``scene``). Everything is seeded: the same command writes the
same bytes on the same machine.

Each sample is ``NNN.jpg`` plus ``NNN.json`` in the format of the shared
photo sets (``shared/sheet_photos/README.md``):

- ``side`` (A or B mostly, C and D rarer), ``style`` (``color`` or
  ``graphite``), ``difficulty`` (``normal`` or ``hard``);
- ``grid``: 11 strings of 11 map codes, printed ``^`` and ``#`` included;
- ``ruins``: ``[row, col]`` of the printed ruins, 0-indexed;
- ``coins``: coins marked on the coin track from the left, 0 to 14;
- ``corners_px``: the grid's outer corners in image pixels as displayed
  (after the EXIF orientation), TL, TR, BR, BL of the upright sheet;
- ``image_size``: ``[width, height]`` as displayed;

and our own keys: ``design`` (every drawn design parameter, with
``holdout`` listing the attributes whose variant is a held-out one),
``glyphs`` (``letters`` or an icon set), ``background``, ``camera``,
``hard`` (the hard effects applied), ``exif_orientation`` and ``seed``.

Photos: 1.2 to 12 MP, portrait and landscape; the grid 350 to 3000 px
across, anywhere in the picture, a third of it to nearly all of it; any
turn, a tilt up to 30 degrees, a gentle curl; wood, cloth, checked
tablecloths, plain tables or printed pages around it. A quarter of the
samples (``--hard``) are ``hard``: one to three of a steeper tilt (25-50
degrees), dim light, strongly coloured or uneven light, a hard shadow across
the grid, strong or motion blur, light pencil, and a pencil, finger, hand or
coins on the grid.

Paper and light are not one colour across the sheet: half the sheets yellow
from their edges inwards, unevenly, and half the photos have a second light
of another colour (a window and a lamp) reaching across the picture. Old
paper browns in clouds and foxes in spots, mostly taking away more blue than
red; a third of the players shade hard or twice, nearly solid. Half
the pad-like designs print their ruins in a faint grey instead of the lines'
ink. ``--family`` draws every sheet in one family (``printable``,
``official`` or ``pad``): the training mix keeps a set of printable sheets so
that learning the pads does not cost the sheet we print. ``--stains P``
gives that share of the sheets on training papers stains of a spilt drink
or of damp, of shapes of their own (``sheet_design.blotches``), unlike the
held-out aged paper's soft round stains; they are drawn from the seed
apart, so that the same draw without them is the same photos.
``--neighbour P`` puts another player's sheet on the table beside the
player's in that share of the photos (``scene.neighbour``): the same
design and side, a map, pencils and coins of its own, to either side
mostly, turned as a player beside or across the table holds theirs. Half
of those photos frame both grids, filling 70 to 97 % of the picture with
the two (``NEIGHBOURS_FILL``), and half the player's grid alone, as any
photo, so that the neighbour's sheet is cut by the picture's edge or out
of it. The truth then says where it is (``neighbour``: its grid's
``corners_px``, its ``turn`` and the share ``in_picture`` of its grid).
It is drawn from the seed apart too; ``bench/two_sheets.py --as-drawn``
reads such a draw.

Held-out designs (``--designs holdout``): these variants never appear in a
training set (``--designs train``), and each held-out sample uses at least
one of them: frame ornaments rope and checker; paper grey and aged
(stained); line colours slate and olive; mountains drawn as hills, ruins as
a dome, wastelands stippled; plaid and stone backgrounds. The players' icon
sets are all in training: an icon never seen cannot be read, whatever the
reader does. ``--designs all`` mixes everything.

Usage::

    python tools/make_samples.py --out /tmp/train_dr --count 2000 --seed 1000 --designs train --jobs 2
    python tools/make_samples.py --out /tmp/holdout_dr --count 150 --seed 2000 --designs holdout

Speed: about 0.3 s of CPU per sample (photos are composed at most 1800 px
on their longer side and scaled up; the sheet is drawn at most 100 px per
square); ``--jobs 2`` uses two cores. 2,000 samples took 12 minutes on two
busy shared cores, and 0.9 GB.

Seed ranges: the committed ``sample_sheets`` use seed 5 (made by an earlier
version of this script, in the old truth format); training sets seeds 1000,
3000 (``--balanced``), 6000 (``--family printable``), 8000, 9000
(``--balanced``), 10000, 11000 (``--balanced``), 12000, 13000
(``--balanced``), 14000 and 15000 (``--balanced``), and for going on
training the networks 23000, 24000 (``--balanced``) and 25000
(``--family printable``); the doubt weighing's
fitting draws 20000, 21000 and 22000 (``tools/train_doubt.py``); held-out
bench sets 2000, 2500 and 4000; draws with a neighbour's sheet for
``bench/two_sheets.py --as-drawn`` 70000 (looked at) and 71000 (measured).
Never train on a set that is measured.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import multiprocessing
import os
import sys
import time
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's referee, not an installed one

import pencil  # noqa: E402
import scene  # noqa: E402
import sheet_design  # noqa: E402

from referee.rules.data import MapSide, map_sides  # noqa: E402
from referee.rules.geometry import NEIGHBOURS, SIZE  # noqa: E402
from referee.rules.heroes import most_hero_spaces  # noqa: E402

PIGMENTS = pencil.PIGMENTS

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
    """A plausible map: terrain in clusters, monsters, heroes (no more than the
    game's hero cards) and some destroyed spaces. Returns the codes and the
    destroyed spaces drawn over colour, with the colour that lies under each
    X kept in the returned grid's shadow set."""
    grid = [[side.printed(r, c) for c in range(SIZE)] for r in range(SIZE)]
    heroes = 0
    free = [(r, c) for r in range(SIZE) for c in range(SIZE) if grid[r][c] == "."]
    target = rng.uniform(0.15, 0.92) * len(free)
    placed = 0
    tries = 0
    while placed < target and tries < 400:
        tries += 1
        code = str(rng.choice(list("FVAWMH"), p=mix))
        if code == "H" and heroes >= most_hero_spaces():
            continue  # a map holds one hero space per hero card
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
        heroes += code == "H"
    under: set[tuple[int, int]] = set()
    for _ in range(int(rng.integers(0, 5))):
        r, c = free[int(rng.integers(len(free)))]
        if grid[r][c] in PIGMENTS:
            under.add((r, c))
        grid[r][c] = "X"
    return grid, under


# --- one sample ----------------------------------------------------------------

SIZES = [
    ((1280, 960), 0.14),
    ((1200, 1200), 0.05),
    ((1440, 1080), 0.12),
    ((1600, 1200), 0.14),
    ((1920, 1080), 0.1),
    ((2048, 1536), 0.12),
    ((2592, 1944), 0.1),
    ((3264, 2448), 0.09),
    ((3840, 2160), 0.05),
    ((4000, 3000), 0.09),
]
"""Photo sizes (1.2 to 12 MP) and how often each is taken."""
WORK = 1800
"""Longest side of the picture while it is composed; larger photos are
scaled up at the end, then get their sensor noise at full size."""
HARD_EFFECTS = ("tilt", "dim", "cast", "shadow", "blur", "light_pencil", "occluder")
SIDES = {"A": 0.45, "B": 0.45, "C": 0.05, "D": 0.05}


NEIGHBOURS_FILL = (0.7, 0.97)
"""How much of the picture a photo framing both the player's grid and a
neighbour's fills with the two (``scene.camera``'s ``fill_range``): the
player aims at their own sheet, so it fills about a third of the picture
or more, as any photo's grid does, and the neighbour's lies beside it."""


def _pick_background(rng: np.random.Generator, designs: str) -> str:
    held = sorted(scene.HOLDOUT_BACKGROUNDS)
    kept = [b for b in scene.BACKGROUNDS if b not in scene.HOLDOUT_BACKGROUNDS]
    weights = {"wood": 0.3, "cloth": 0.15, "gingham": 0.2, "dark": 0.1, "light": 0.1, "papers": 0.15}
    if designs == "holdout" and rng.random() < 0.5 or designs == "all" and rng.random() < 0.2:
        return str(held[int(rng.integers(len(held)))])
    return str(rng.choice(kept, p=np.array([weights[k] for k in kept]) / sum(weights.values())))


def _pick_glyphs(rng: np.random.Generator) -> str:
    if rng.random() < 0.6:
        return "letters"
    sets = list(pencil.ICON_SETS)
    return str(sets[int(rng.integers(len(sets)))])


def make_one(
    seed: int,
    designs: str = "train",
    force_style: str | None = None,
    balanced: bool = False,
    hard_share: float = 0.25,
    max_mp: float = 12.5,
    family: str | None = None,
    stains: float = 0.0,
    neighbour: float = 0.0,
) -> tuple[bytes, dict[str, object]]:
    """One photo (JPEG bytes) and its truth; ``family`` forces the design
    family; ``stains`` is the chance of stains on training papers, drawn
    from the seed apart, so that a draw without them is the same photos;
    ``neighbour`` the chance of another player's sheet on the table beside
    the player's (``_neighbours_sheet``), drawn from the seed apart too."""
    rng = np.random.default_rng(seed)
    side = map_sides()[str(rng.choice(list(SIDES), p=list(SIDES.values())))]
    style = force_style or ("color" if rng.random() < 0.55 else "graphite")
    hard = rng.random() < hard_share
    effects: set[str] = set()
    if hard:
        n = int(rng.choice([1, 2, 3], p=[0.5, 0.35, 0.15]))
        effects = {str(e) for e in rng.choice(HARD_EFFECTS, size=n, replace=False)}
    # design and background: a held-out sample holds out at least one thing
    for _ in range(50):
        design = sheet_design.random_design(rng, designs, family)
        background = _pick_background(rng, designs)
        glyphs = _pick_glyphs(rng) if style == "graphite" else "letters"
        held = list(design.holdout)
        held += ["background"] if background in scene.HOLDOUT_BACKGROUNDS else []
        if designs != "holdout" or held:
            break
    grid, under = random_map(rng, side, BALANCED_MIX if balanced else MIX)
    coins = int(rng.integers(0, side.coin_track + 1))
    sizes = [(s, p) for s, p in SIZES if s[0] * s[1] <= max_mp * 1e6] or SIZES[:1]
    k = int(rng.choice(len(sizes), p=np.array([p for _, p in sizes]) / sum(p for _, p in sizes)))
    w, h = sizes[k][0]
    if rng.random() < 0.55:
        w, h = h, w
    ws = min(1.0, WORK / max(w, h))
    cw, ch = round(w * ws), round(h * ws)
    grid_box = (design.grid_x, design.grid_y, design.grid_x + SIZE, design.grid_y + SIZE)
    gc_units = np.array(design.grid_corners(1.0), np.float32)
    beside_rng = np.random.default_rng([seed, 2])  # apart from ``rng``: see the docstring
    beside: tuple[np.ndarray, float] | None = None
    framed, fill = grid_box, (0.33, 0.97)
    if beside_rng.random() < neighbour:
        beside = scene.neighbour(beside_rng, design.page_w, design.page_h)
        if beside_rng.random() < 0.5:  # the photo frames both grids, else the player's alone
            both = np.vstack([gc_units, cv2.perspectiveTransform(gc_units[None], beside[0])[0]])
            framed = (*both.min(axis=0), *both.max(axis=0))
            fill = NEIGHBOURS_FILL
    H_full, cam = scene.camera(
        rng,
        (design.page_w, design.page_h),
        framed,
        w,
        h,
        (25.0, 50.0) if "tilt" in effects else (0.0, 30.0),
        fill,
    )
    H_units = np.diag([ws, ws, 1.0]) @ H_full
    quad = cv2.perspectiveTransform(gc_units[None], H_units)[0]
    ppu = math.sqrt(abs(cv2.contourArea(quad))) / SIZE
    u = float(np.clip(ppu * 1.1, 28, 100))
    sheet = sheet_design.draw_sheet(design, side, u)
    texture = sheet_design.paper_texture(rng, design, sheet.height, sheet.width)
    if rng.random() < 0.5:
        texture = texture * sheet_design.paper_tint(rng, sheet.height, sheet.width)
    stain_rng = np.random.default_rng([seed, 1])  # apart from ``rng``: see the docstring
    stained = stain_rng.random() < stains and design.paper_family not in sheet_design.HOLDOUT["paper"]
    if stained:
        texture = texture * sheet_design.blotches(stain_rng, design, sheet.height, sheet.width)
    pressure = rng.uniform(0.4, 0.6) if "light_pencil" in effects else rng.uniform(0.65, 1.05)
    writing = _writing(design)
    marked = pencil.mark_sheet(
        rng, sheet, texture, (design.grid_x, design.grid_y), design.coin_centres(), design.coin_r, writing,
        grid, under, style, coins, u, glyphs, pressure,
    )  # fmt: skip
    # the photograph, composed at (cw, ch)
    curled, fwd = scene.curl(rng, marked, u, 0.25 if hard else 0.15)
    H = H_units @ np.diag([1 / u, 1 / u, 1.0])
    photo = scene.background(rng, background, cw, ch, ppu)
    # the sheet's soft shadow on the table, worked out at a quarter size
    quarter = np.diag([0.25, 0.25, 1.0]) @ H_units
    page = np.array(
        [[0, 0], [design.page_w, 0], [design.page_w, design.page_h], [0, design.page_h]], np.float32
    )
    mask = np.zeros(((ch + 3) // 4, (cw + 3) // 4), np.float32)
    cv2.fillConvexPoly(mask, cv2.perspectiveTransform(page[None], quarter)[0].astype(np.int32), 1.0)
    if beside is not None:
        on_table = cv2.perspectiveTransform(page[None], quarter @ beside[0])[0]
        cv2.fillConvexPoly(mask, on_table.astype(np.int32), 1.0)
    blur_k = max(1, int(0.0025 * cw))
    drop = cv2.GaussianBlur(mask, (0, 0), blur_k * 0.8)
    drop = np.roll(np.roll(drop, blur_k, 0), blur_k, 1)
    drop = cv2.resize(drop, (cw, ch), interpolation=cv2.INTER_LINEAR)
    photo *= 1 - rng.uniform(0.15, 0.4) * drop[..., None]
    if beside is not None:
        cv2.warpPerspective(
            _neighbours_sheet(beside_rng, design, side, u),
            H_units @ beside[0] @ np.diag([1 / u, 1 / u, 1.0]),
            (cw, ch),
            dst=photo,
            borderMode=cv2.BORDER_TRANSPARENT,
            flags=cv2.INTER_LINEAR,
        )
    cv2.warpPerspective(
        curled, H, (cw, ch), dst=photo, borderMode=cv2.BORDER_TRANSPARENT, flags=cv2.INTER_LINEAR
    )
    gc = np.array(design.grid_corners(u))
    cx, cy = fwd(gc[:, 0], gc[:, 1])
    corners = cv2.perspectiveTransform(np.c_[cx, cy][None].astype(np.float32), H)[0]
    occluded = ""
    if "occluder" in effects:
        occluded = scene.occluder(rng, photo, H_units, grid_box, True, ppu)
    elif rng.random() < 0.3:
        occluded = scene.occluder(rng, photo, H_units, grid_box, False, ppu)
    photo = scene.light(rng, photo, effects, corners)
    photo = scene.blur(rng, photo, effects, ppu)
    img8 = (np.clip(photo, 0, 1) * 255).astype(np.uint8)
    theirs = None if beside is None else cv2.perspectiveTransform(gc_units[None], H_units @ beside[0])[0]
    if (cw, ch) != (w, h):
        img8 = cv2.resize(img8, (w, h), interpolation=cv2.INTER_LINEAR)
        corners = (corners + 0.5) * np.array([w / cw, h / ch], np.float32) - 0.5
        if theirs is not None:
            theirs = (theirs + 0.5) * np.array([w / cw, h / ch], np.float32) - 0.5
    sigma = rng.uniform(0.004, 0.02) * (2.5 if "dim" in effects else 1.0)
    img8 = scene.sensor_noise(rng, img8, sigma, "dim" in effects)
    img = Image.fromarray(img8)
    orientation = 1
    extra: dict[str, object] = {}
    if rng.random() < 0.2:
        # store the pixels turned and let EXIF turn them back for display
        orientation = int(rng.choice([3, 6, 8]))
        turn = {3: Image.Transpose.ROTATE_180, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}
        img = img.transpose(turn[orientation])
        exif = Image.Exif()
        exif[0x0112] = orientation
        extra = {"exif": exif}
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=int(rng.integers(70, 94)), **extra)
    across = float(np.mean([np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)]))
    truth: dict[str, object] = {
        "side": side.letter,
        "style": style,
        "difficulty": "hard" if hard else "normal",
        "grid": ["".join(row) for row in grid],
        "ruins": [list(rc) for rc in sorted(side.ruins)],
        "coins": coins,
        "corners_px": [[round(float(x), 1), round(float(y), 1)] for x, y in corners],
        "image_size": [w, h],
        "design": {**design.to_json(), "holdout": held},
        "glyphs": glyphs,
        "background": background,
        "camera": {**cam, "grid_px": round(across, 1), "megapixels": round(w * h / 1e6, 2)},
        "hard": sorted(effects),
        "occluder": occluded,
        "stained": bool(stained),
        **(
            {}
            if theirs is None or beside is None
            else {"neighbour": _neighbour_truth(theirs, beside[1], w, h)}
        ),
        "exif_orientation": orientation,
        "seed": seed,
    }
    return buf.getvalue(), truth


def _writing(design: sheet_design.Design) -> list[tuple[float, float, float]]:
    """Where a player writes on their sheet, and how wide: their name, and a
    score in each season's box."""
    return [(design.grid_x + 2.5, design.name_y, 4.0)] + [
        (x0 + 0.2, y0 + 0.5 + (y1 - y0) * 0.3, 1.2) for x0, y0, x1, y1 in design.season_boxes()
    ]


def _neighbours_sheet(
    rng: np.random.Generator, design: sheet_design.Design, side: MapSide, u: float
) -> np.ndarray:
    """Another player's sheet from the same pad, at ``u`` px per unit: the
    player's design and side, with a map, pencils, coins and writing of its
    own, and not curled. At a table every sheet is of one side, so the
    reader cannot tell the player's from it by its printed spaces."""
    style = "color" if rng.random() < 0.55 else "graphite"
    glyphs = _pick_glyphs(rng) if style == "graphite" else "letters"
    grid, under = random_map(rng, side, MIX)
    sheet = sheet_design.draw_sheet(design, side, u)
    texture = sheet_design.paper_texture(rng, design, sheet.height, sheet.width)
    writing = _writing(design)
    coins = int(rng.integers(0, side.coin_track + 1))
    return pencil.mark_sheet(
        rng, sheet, texture, (design.grid_x, design.grid_y), design.coin_centres(), design.coin_r, writing,
        grid, under, style, coins, u, glyphs, float(rng.uniform(0.65, 1.05)),
    )  # fmt: skip


def _neighbour_truth(corners: np.ndarray, turn: float, w: int, h: int) -> dict[str, object]:
    """What the truth says of a neighbour's sheet: its grid's outer corners
    in image pixels as composed (its own TL, TR, BR, BL), its turn from the
    player's, and the share of its grid inside the picture (1: whole)."""
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    quad = corners.astype(np.float32)
    inside, _ = cv2.intersectConvexConvex(quad, frame)
    area = abs(float(cv2.contourArea(quad)))
    return {
        "corners_px": [[round(float(x), 1), round(float(y), 1)] for x, y in corners],
        "turn": round(turn % 360, 1),
        "in_picture": round(float(inside) / area, 3) if area > 0 else 0.0,
    }


def write_sample(job: tuple[Path, int, int, dict[str, object]]) -> None:
    """Write sample number ``k`` (seed ``seed``) into ``out``."""
    out, k, seed, opts = job
    data, truth = make_one(seed, **opts)  # type: ignore[arg-type]
    (out / f"{k:03d}.jpg").write_bytes(data)
    (out / f"{k:03d}.json").write_text(json.dumps(truth) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--count", type=int, default=64)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--designs", choices=["train", "holdout", "all"], default="train")
    ap.add_argument("--style", choices=["color", "graphite", "colour", "pencil"], default=None)
    ap.add_argument("--balanced", action="store_true", help="more monsters and heroes (training sets)")
    ap.add_argument("--hard", type=float, default=0.25, help="share of hard samples")
    ap.add_argument("--max-mp", type=float, default=12.5, help="largest photo, in megapixels")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument(
        "--family",
        choices=["printable", "official", "pad"],
        default=None,
        help="draw every sheet in this family",
    )
    ap.add_argument(
        "--stains",
        type=float,
        default=0.0,
        help="share of sheets on training papers with stains of a spilt drink or damp",
    )
    ap.add_argument(
        "--neighbour",
        type=float,
        default=0.0,
        help="share of photos with another player's sheet on the table beside the player's",
    )
    args = ap.parse_args()
    style = {"colour": "color", "pencil": "graphite"}.get(args.style, args.style)
    args.out.mkdir(parents=True, exist_ok=True)
    cv2.setNumThreads(1)
    opts = {
        "designs": args.designs,
        "force_style": style,
        "balanced": args.balanced,
        "hard_share": args.hard,
        "max_mp": args.max_mp,
        "family": args.family,
        "stains": args.stains,
        "neighbour": args.neighbour,
    }
    jobs = [(args.out, k, args.seed * 100003 + k, opts) for k in range(args.count)]
    t0 = time.perf_counter()
    if args.jobs > 1:
        pool = multiprocessing.Pool(args.jobs, initializer=cv2.setNumThreads, initargs=(1,))
        for _ in pool.imap_unordered(write_sample, jobs, chunksize=4):
            pass
        pool.close()
        pool.join()
    else:
        for job in jobs:
            write_sample(job)
    took = time.perf_counter() - t0
    cpu = sum(os.times()[:4])  # this process and its finished workers
    n = max(args.count, 1)
    print(f"wrote {args.count} samples to {args.out} in {took:.0f} s; {cpu / n:.2f} s of CPU per sample")


if __name__ == "__main__":
    main()
