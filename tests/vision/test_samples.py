"""The training-data generator (``tools/make_samples.py``) writes truths in the
shared photo sets' format, for every sheet design family, the same bytes for
the same seed, and keeps held-out design variants out of training sets."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageOps

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import make_samples  # noqa: E402

from referee.rules.data import map_sides  # noqa: E402

FORMAT = {"side", "style", "difficulty", "grid", "ruins", "coins", "corners_px", "image_size"}
SMALL = {"max_mp": 1.5}
"""Small photos keep the test fast."""


def _sample(out: Path, k: int, seed: int, **opts: Any) -> dict[str, Any]:
    make_samples.write_sample((out, k, seed, {**SMALL, **opts}))
    truth: dict[str, Any] = json.loads((out / f"{k:03d}.json").read_text())
    return truth


def _check(out: Path, k: int, truth: dict[str, Any]) -> None:
    assert FORMAT <= truth.keys()
    side = map_sides()[truth["side"]]
    assert truth["style"] in ("color", "graphite")
    assert truth["difficulty"] in ("normal", "hard")
    grid = truth["grid"]
    assert len(grid) == 11 and all(len(row) == 11 for row in grid)
    assert set("".join(grid)) <= set(".FVAWMHX^#")
    for r in range(11):
        for c in range(11):
            printed = side.printed(r, c)
            assert (grid[r][c] == printed) if printed != "." else grid[r][c] not in "^#"
    assert sorted(map(tuple, truth["ruins"])) == sorted(side.ruins)
    assert 0 <= truth["coins"] <= 14
    with Image.open(out / f"{k:03d}.jpg") as img:
        shown = ImageOps.exif_transpose(img)
        assert list(shown.size) == truth["image_size"]
    w, h = truth["image_size"]
    assert len(truth["corners_px"]) == 4
    for x, y in truth["corners_px"]:
        assert 0 <= x < w and 0 <= y < h


@pytest.mark.parametrize("family", ["printable", "official", "pad"])
def test_each_design_family_writes_the_shared_truth_format(tmp_path: Path, family: str) -> None:
    for k in range(2):
        truth = _sample(tmp_path, k, 900 + k, family=family, hard_share=0.5 * k)
        _check(tmp_path, k, truth)
        assert truth["design"]["family"] == family
        assert truth["design"]["holdout"] == []


def test_hard_and_held_out_samples(tmp_path: Path) -> None:
    truth = _sample(tmp_path, 0, 31, designs="holdout", hard_share=1.0)
    _check(tmp_path, 0, truth)
    assert truth["difficulty"] == "hard" and truth["hard"]
    assert truth["design"]["holdout"]


def test_the_same_seed_gives_the_same_bytes(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    for out in (a, b):
        _sample(out, 0, 4242)
    assert (a / "000.jpg").read_bytes() == (b / "000.jpg").read_bytes()
    assert (a / "000.json").read_text() == (b / "000.json").read_text()


def test_composed_ruins_are_pictures_of_their_own() -> None:
    """Each design composes its own ruins picture inside the ruins' box, so
    the classifier learns that a printed picture on a ruins space is the
    print whatever it shows."""
    import numpy as np
    import sheet_design

    pictures = {sheet_design.compose_ruins(np.random.default_rng(seed)) for seed in range(40)}
    assert len(pictures) == 40
    for picture in pictures:
        assert picture
        for kind, v in picture:
            assert kind in ("line", "box", "arc")
            assert all(-0.2 <= t <= 1.2 for t in v[:4])
            if kind != "line":
                assert v[0] <= v[2] and v[1] <= v[3]


def test_players_draw_each_terrain_in_ways_of_different_kinds() -> None:
    """The rulebooks leave a terrain's drawing to the player, so the icon
    sets must not agree on one picture per terrain: a farm is wheat in one
    set, furrows in another, a field with its furrows in a third. Each set
    draws all six terrains, inside the square, each terrain its own way."""
    import pencil

    assert len(pencil.ICON_SETS) >= 5
    for name, icons in pencil.ICON_SETS.items():
        assert set(icons) == set("FVAWMH"), name
        glyphs = [icons[code] for code in "FVAWMH"]
        assert all(a != b for i, a in enumerate(glyphs) for b in glyphs[i + 1 :]), name
        for glyph in glyphs:
            assert all(0 <= v <= 1 for stroke in glyph for point in stroke for v in point), name
    farms = [icons["A"] for icons in pencil.ICON_SETS.values()]
    assert len({len(farm) for farm in farms}) >= 3  # stalks, furrows, fields: not one picture redrawn
    # a field's furrows come before its outline, so a simpler drawing keeps a furrow
    field = pencil.ICON_SETS["scenes"]["A"]
    assert len(field[0]) == 2 and len(field[-1]) == 5


def test_a_player_may_draw_icons_with_fewer_strokes() -> None:
    import numpy as np
    import pencil

    stalks = pencil.ICON_SETS["drawn"]["A"]
    drawn = [pencil._simplified(np.random.default_rng(seed), stalks) for seed in range(30)]
    assert all(2 <= len(g) <= len(stalks) and g[0] == stalks[0] for g in drawn)
    assert any(len(g) < len(stalks) for g in drawn)
    assert pencil._simplified(np.random.default_rng(0), pencil.X_MARK) == pencil.X_MARK


def test_a_pad_may_shade_its_ruins_spaces_in_grey() -> None:
    """An empty ruins space may be printed darker all over than a bare
    square, and its picture in a neutral grey on a tinted paper: the
    classifier must see such prints as the print, not as a drawn forest."""
    import numpy as np
    import sheet_design

    designs = [sheet_design.pad_design(np.random.default_rng(seed), "train") for seed in range(60)]
    assert any(d.ruins_grey for d in designs) and not all(d.ruins_grey for d in designs)
    shaded = [d for d in designs if d.ruins_ground]
    assert shaded and len(shaded) < len(designs)
    d = next(d for d in shaded if d.ruins_grey and d.paper_family in ("cream", "yellowed", "parchment"))
    side = map_sides()["A"]
    u = 40
    sheet = np.asarray(sheet_design.draw_pad(d, side, u), np.float32)
    r, c = sorted(side.ruins)[0]
    x, y = round((d.grid_x + c) * u), round((d.grid_y + r) * u)
    corner = sheet[y + 3 : y + 8, x + 3 : x + 8].reshape(-1, 3).mean(axis=0)  # ground, not picture
    paper = np.array(d.paper, np.float32)
    assert (corner < paper - 1).all()
    # a grey ground on a tinted paper takes away more red than blue, relative to the paper
    taken = 1 - corner / paper
    assert taken[2] < taken[0]


def test_a_coloured_squares_small_mark_is_never_an_x() -> None:
    import numpy as np
    import pencil

    marks = [pencil._doodle(np.random.default_rng(seed)) for seed in range(60)]
    assert pencil.X_MARK not in marks
    assert any(m in pencil.DIGITS.values() for m in marks)
    assert any(len(m) == 1 and len(m[0]) == 15 for m in marks)  # a ring


def test_a_player_may_stand_icons_on_a_ground_line() -> None:
    import numpy as np
    import pencil

    tree = pencil.ICON_SETS["drawn"]["F"]
    grounded = pencil._grounded(np.random.default_rng(1), tree)
    assert grounded[:-1] == tree
    (x0, y0), (x1, y1) = grounded[-1]
    assert y0 == y1 >= 0.9 and x1 - x0 >= 0.6


def test_old_paper_browns_in_clouds_not_only_in_brightness() -> None:
    """Aged paper's mottling takes away more blue than red, as browning does,
    so that the classifier sees brown clouds on bare squares and ruins as
    paper; otherwise the reader takes them for a faint farm or forest."""
    import dataclasses

    import numpy as np
    import sheet_design

    browner = 0
    for seed in range(12):
        rng = np.random.default_rng(seed)
        d = dataclasses.replace(sheet_design.pad_design(rng, "train"), paper_family="parchment")
        texture = sheet_design.paper_texture(rng, d, 300, 240)
        assert texture.shape == (300, 240, 3)
        taken = 1 - texture.reshape(-1, 3)
        dark = taken.mean(axis=1) > np.percentile(taken.mean(axis=1), 80)  # the clouds
        red, _, blue = taken[dark].mean(axis=0)
        assert blue > 0.02  # visibly mottled
        browner += bool(blue > 1.3 * red)
    assert 6 <= browner < 12  # mostly brown, sometimes grey


def test_some_players_shade_hard() -> None:
    """Players shade from light hatching to nearly solid squares (hard
    pressure, two coats, felt pens): a forest may take away twice the light
    of a light one, as dark as graphite, and must still read as a forest."""
    import numpy as np
    import pencil

    u, n = 24, 4
    grid = [["F"] * 11 for _ in range(11)]
    shades = []
    for seed in range(16):
        sheet = Image.new("RGB", (12 * u, 12 * u), (250, 250, 250))
        texture = np.ones((12 * u, 12 * u, 3), np.float32)
        marked = pencil.mark_sheet(
            np.random.default_rng(seed), sheet, texture, (0.5, 0.5), [], 0.3, [], grid, set(), "color", 0, u,
            "letters", 0.9,
        )  # fmt: skip
        inside = marked[u // 2 + n : u // 2 + 11 * u - n, u // 2 + n : u // 2 + 11 * u - n]
        shades.append(float(1 - inside[..., 0].mean() / 0.98))  # red taken away by green pencil
    assert min(shades) < 0.35 and max(shades) > 0.5


def test_a_pad_may_print_its_ruins_in_outline() -> None:
    """A pad's artwork may draw the ruins' strokes as hollow bands: ink at
    the band's edges, the ground inside, where a single line is ink."""
    import dataclasses

    import numpy as np
    import sheet_design

    base = sheet_design.pad_design(np.random.default_rng(3), "train")
    d = dataclasses.replace(
        base,
        ruins="temple",
        ruins_size=0.8,
        ruins_width=0.06,
        ruins_fade=0.0,
        ruins_ground=0.0,
        ruins_grey=False,
    )
    side = map_sides()["A"]
    u = 60
    r, c = sorted(side.ruins)[0]
    x, y = round((d.grid_x + c) * u), round((d.grid_y + r) * u)

    def square(hollow: bool) -> np.ndarray:
        img = sheet_design.draw_pad(dataclasses.replace(d, ruins_hollow=hollow), side, u)
        return np.asarray(img, np.float32)[y + 4 : y + u - 4, x + 4 : x + u - 4].mean(axis=2)

    paper = float(np.mean(d.paper))
    solid, hollow = square(False) < paper - 40, square(True) < paper - 40
    assert solid.sum() > 20 and hollow.sum() > 20
    assert (solid & ~hollow).sum() > 10  # stroke centres the outline leaves bare
    assert (hollow & ~solid).sum() > 10  # band edges beyond the single line


def test_every_ruins_picture_can_be_printed_in_outline() -> None:
    import dataclasses

    import numpy as np
    import sheet_design

    side = map_sides()["B"]
    for seed in range(12):
        d = sheet_design.pad_design(np.random.default_rng(seed), "all")
        for kind in sheet_design.RUINS:
            sheet_design.draw_pad(dataclasses.replace(d, ruins=kind, ruins_hollow=True), side, 28)


def test_a_map_holds_no_more_heroes_than_there_are_hero_cards() -> None:
    """Each revealed hero card is drawn once and goes back to the box, so a
    drawn map never has a fifth hero, however often heroes come up."""
    import numpy as np

    from referee.rules.heroes import most_hero_spaces

    side = map_sides()["A"]
    most = 0
    for seed in range(200):
        grid, _ = make_samples.random_map(np.random.default_rng(seed), side, [0.1, 0.1, 0.1, 0.1, 0.1, 0.5])
        most = max(most, sum(row.count("H") for row in grid))
    assert most == most_hero_spaces()


def test_a_dim_photos_colour_noise_is_coarser_than_its_brightness_noise() -> None:
    """A phone smooths colour noise more than brightness noise, leaving
    blotches of colour a few pixels across, coarser in dim light: the
    network must see such blotches in pencil strokes, not only noise pixel
    by pixel."""
    import numpy as np
    import scene

    def lag_correlation(a: np.ndarray, lag: int) -> float:
        return float(np.corrcoef(a[:, :-lag].ravel(), a[:, lag:].ravel())[0, 1])

    flat = np.full((512, 512, 3), 128, np.uint8)
    coarse = 0
    for seed in range(8):
        noise = scene.sensor_noise(np.random.default_rng(seed), flat, 0.05, dim=True).astype(np.float32) - 128
        luma = noise.mean(axis=2)
        chroma = noise[..., 0] - noise[..., 2]
        assert abs(float(noise.std()) - 0.05 * 255 * 0.94) < 3  # the asked strength, grain or not
        assert lag_correlation(chroma, 2) >= lag_correlation(luma, 2) - 0.05
        coarse += lag_correlation(chroma, 3) > 0.3
    assert coarse >= 4  # mostly blotches several pixels across


def test_training_stains_change_only_the_paper_and_never_the_held_out_aged_paper(tmp_path: Path) -> None:
    """``--stains``: stains drawn from the seed apart, so a draw with them is
    the same photos as one without, but for the stains; never on held-out
    papers, whose own stains stay unseen in training."""
    plain, stained = tmp_path / "plain", tmp_path / "stained"
    plain.mkdir()
    stained.mkdir()
    a = _sample(plain, 0, 4242)
    b = _sample(stained, 0, 4242, stains=1.0)
    assert (a["stained"], b["stained"]) == (False, True)
    assert {k: v for k, v in a.items() if k != "stained"} == {k: v for k, v in b.items() if k != "stained"}
    assert (plain / "000.jpg").read_bytes() != (stained / "000.jpg").read_bytes()
    held_out = [_sample(tmp_path, k, 700 + k, designs="holdout", stains=1.0) for k in range(6)]
    assert any(t["design"]["paper_family"] in ("grey", "aged") for t in held_out)
    for t in held_out:
        assert t["stained"] == (t["design"]["paper_family"] not in ("grey", "aged"))


def test_a_stain_browns_the_paper_in_a_shape_of_its_own() -> None:
    """A stain takes away more blue than red, as browning does, and covers
    part of the page, not all of it."""
    import numpy as np
    import sheet_design

    for seed in range(6):
        rng = np.random.default_rng(seed)
        d = sheet_design.pad_design(rng, "train")
        texture = sheet_design.blotches(rng, d, 400, 300)
        assert texture.shape == (400, 300, 3)
        taken = 1 - texture.reshape(-1, 3)
        inside = taken.mean(axis=1) > 0.01
        assert 0 < inside.mean() < 0.6
        red, _, blue = taken[inside].mean(axis=0)
        assert blue > red > -0.01


def test_a_neighbours_sheet_lies_beside_the_players_and_is_said_where(tmp_path: Path) -> None:
    """``--neighbour``: another player's sheet of the same pad on the table,
    drawn from the seed apart, so the player's sheet, map and coins are
    those of the same seed without it; the truth says where its grid lies,
    never over the player's."""
    import numpy as np

    plain, beside = tmp_path / "plain", tmp_path / "beside"
    plain.mkdir()
    beside.mkdir()
    framed = set()
    for k in range(6):
        a = _sample(plain, k, 5150 + k)
        b = _sample(beside, k, 5150 + k, neighbour=1.0)
        _check(beside, k, b)
        assert "neighbour" not in a
        for key in ("side", "style", "grid", "coins", "design", "glyphs", "background"):
            assert a[key] == b[key], key
        theirs = b["neighbour"]
        assert len(theirs["corners_px"]) == 4 and 0 <= theirs["turn"] < 360
        assert 0.0 <= theirs["in_picture"] <= 1.0
        mine, other = (np.array(q, float) for q in (b["corners_px"], theirs["corners_px"]))
        # the two grids do not overlap: each lies wholly to one side of the other's centre line
        gap = np.linalg.norm(mine.mean(axis=0) - other.mean(axis=0))
        assert gap > 0.5 * (np.linalg.norm(mine[0] - mine[2]) + np.linalg.norm(other[0] - other[2])) / 2
        framed.add(theirs["in_picture"] == 1.0)
        if theirs["in_picture"] == 1.0:
            w, h = b["image_size"]
            assert all(0 <= x <= w and 0 <= y <= h for x, y in theirs["corners_px"])
    assert framed == {True, False}  # some photos frame both grids, some the player's alone
