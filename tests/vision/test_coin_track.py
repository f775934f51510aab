"""How the coin track's ink is split into inked and clean coins."""

from __future__ import annotations

import numpy as np
import pytest

from referee.vision.track import COINS, split


def test_inked_coins_standing_apart_are_counted() -> None:
    ink = np.array([0.55, 0.6, 0.5, 0.58, 0.52] + [0.06, 0.08, 0.05, 0.07, 0.06, 0.05, 0.08, 0.07, 0.06])
    assert split(ink) == 5


@pytest.mark.parametrize(
    "level",
    [0.03, 0.5],
    ids=["all as light as the paper", "all dark, as a printing's solid discs are"],
)
def test_a_track_all_alike_is_left_to_the_player(level: float) -> None:
    """Nothing to compare the coins with: solid printed discs look inked and
    a track read off its place looks clean, so neither 14 nor 0 is said."""
    rng = np.random.default_rng(1)
    ink = level + rng.uniform(-0.02, 0.02, COINS)
    assert split(ink) is None


@pytest.mark.parametrize(("x0", "step", "radius"), [(30.0, 12.0, 4), (20.0, 14.0, 5), (20.0, 10.0, 4)])
def test_a_row_of_fourteen_circles_is_found_where_it_is(x0: float, step: float, radius: int) -> None:
    """A strip with fourteen circles drawn at a known place and spacing, a
    printed line and a blot beside them: the track is that row."""
    import cv2

    from referee.vision.track import find_track

    picture = np.full((50, 224), 230, np.uint8)
    cv2.line(picture, (0, 8), (223, 8), 60, 2)
    cv2.circle(picture, (215, 40), 6, 40, -1)
    for k in range(14):
        cv2.circle(picture, (round(x0 + k * step), 28), radius, 70, 1)
    track = find_track(picture.astype(np.float32))
    assert track is not None
    assert abs(track.y - 28) <= 1
    assert abs(track.step - step) <= 0.03 * step
    assert abs(track.x0 - x0) <= 1.5


@pytest.mark.parametrize("ornament", ["studs", "checks"])
def test_a_frame_decorated_along_the_sheet_is_not_the_track(ornament: str) -> None:
    """A pad's frame below the grid, dark, with a row of light studs or
    checks along its whole width, far stronger than the faint coins printed
    below it: the track is the fourteen coins, which stop, not the frame's
    row, which runs on past both ends."""
    import cv2

    from referee.vision.track import find_track

    picture = np.full((50, 224), 200, np.uint8)
    picture[2:16] = 40
    for x in range(4, 224, 12):
        if ornament == "studs":
            cv2.circle(picture, (x, 9), 4, 230, 1)
        else:
            picture[5:13, x - 3 : x + 3] = 230
    x0, step = 36.0, 12.5
    for k in range(14):
        cv2.circle(picture, (round(x0 + k * step), 33), 5, 165, 1)
    track = find_track(picture.astype(np.float32))
    assert track is not None
    assert abs(track.y - 33) <= 1
    assert abs(track.x0 - x0) <= 1.5 and abs(track.step - step) <= 0.03 * step


def test_every_coin_is_read_alike_wherever_it_falls_on_the_pixels() -> None:
    """Fourteen coins in a row, the first six marked alike: each mark reads
    as the same ink, and the clean coins as none, whether a coin's centre
    falls on a strip pixel or between two (read too coarsely, alternate
    coins read a third apart)."""
    import cv2

    from referee.vision.track import coin_ink, find_track, read_coins, strip

    px, off = 60, 120  # photo pixels per grid square, and the grid's top-left corner
    photo = np.full((17 * px, 15 * px + 2 * off, 3), 235, np.uint8)
    cv2.rectangle(photo, (off, off), (off + 11 * px, off + 11 * px), (60, 50, 40), 3)
    for k in range(COINS):
        cx, cy = round(off + (5.5 + (k - 6.5) * 0.75) * px), round(off + 12.0 * px)
        cv2.circle(photo, (cx, cy), round(0.3 * px), (70, 60, 50), 2)
        if k < 6:
            cv2.line(photo, (cx - 9, cy + 2), (cx - 3, cy + 9), (90, 90, 95), 2)
            cv2.line(photo, (cx - 3, cy + 9), (cx + 10, cy - 10), (90, 90, 95), 2)
    to_photo = np.array([[px, 0, off], [0, px, off], [0, 0, 1]], np.float64)
    track = find_track(strip(cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY), to_photo, 0))
    assert track is not None
    ink = coin_ink(photo, to_photo, 0, track)
    assert ink is not None
    assert np.ptp(ink[:6]) < 0.05 and ink[:6].min() > 0.2
    assert ink[6:].max() < 0.05
    assert read_coins(photo, to_photo, 0, track) == 6


def _ringed_coins() -> tuple[np.ndarray, np.ndarray]:
    """A photo of a grid with fourteen printed coins below it, none marked,
    each with a smaller ring inside, and the map from grid units to the
    photo. In the strip (16 px a square from 1.5 squares left of the grid
    and 0.1 below it) the coins lie at x = 34 + 12 k, y = 15, radius 0.3
    squares."""
    import cv2

    px, off = 60, 120
    photo = np.full((17 * px, 16 * px + 2 * off, 3), 235, np.uint8)
    cv2.rectangle(photo, (off, off), (off + 11 * px, off + 11 * px), (60, 50, 40), 3)
    for k in range(COINS):
        cx, cy = round(off + (5.5 + (k - 6.5) * 0.75) * px), round(off + 12.0 * px)
        cv2.circle(photo, (cx, cy), round(0.3 * px), (70, 60, 50), 2)
        cv2.circle(photo, (cx, cy), round(0.12 * px), (70, 60, 50), 3)
    return photo, np.array([[px, 0, off], [0, px, off], [0, 0, 1]], np.float64)


def test_a_track_read_one_coin_off_gives_no_count() -> None:
    """Fourteen printed coins with a ring inside each, none marked, and the
    track taken one coin to the right: its last place is bare paper beside
    the track. Compared with each other, the thirteen printed coins look
    inked and the bare place clean, a count of 13; but the bare place has
    no printed rim, so the reader says it does not know."""

    from referee.vision.track import Track, coin_ink, read_coins, split

    photo, to_photo = _ringed_coins()
    right = Track(1.0, 34.0, 12.0, 15.0, 4.8)
    assert split(coin_ink(photo, to_photo, 0, right)) is None  # all alike: unknown
    off_by_one = Track(1.0, 46.0, 12.0, 15.0, 4.8)
    assert split(coin_ink(photo, to_photo, 0, off_by_one)) == 13
    assert read_coins(photo, to_photo, 0, off_by_one) is None
    assert read_coins(photo, to_photo, 0, right) is None


def test_coins_with_a_ring_inside_are_found_in_place() -> None:
    """Printed coins with a smaller ring inside each: the inner rings are
    circles too, but of another radius; the track is the coins' centres,
    not a row half a coin off between their rims."""
    import cv2

    from referee.vision.track import find_track, strip

    photo, to_photo = _ringed_coins()
    track = find_track(strip(cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY), to_photo, 0))
    assert track is not None
    assert abs(track.x0 - 34) <= 1.5 and abs(track.step - 12) <= 0.3 and abs(track.y - 15) <= 1


def test_a_faint_coin_inside_the_inked_run_still_counts() -> None:
    """Coins are filled from the left: one lightly ticked coin among hard
    shaded ones is still inked, and the clean coins after the run are
    alike, so the count is where the run ends."""
    ink = np.array([0.4, 0.45, 0.38, 0.06, 0.42, 0.4, 0.44, 0.41, 0.39, 0.43] + [0.02, 0.03, 0.02, 0.03])
    assert split(ink) == 10


def test_a_lone_light_coin_at_the_end_is_not_taken_for_the_only_clean_one() -> None:
    """A shadow darkens every coin but the last: thirteen coins read inked
    and one clean, with a faint one among them. One clean coin shows no
    spread to compare with, so the count is left to the player; a track
    whose thirteen are inked plainly is read."""
    shadowed = np.array([0.3, 0.35, 0.28, 0.06, 0.3, 0.32, 0.3, 0.28, 0.33, 0.3, 0.29, 0.31, 0.3, 0.05])
    assert split(shadowed) is None
    plain = np.array([0.4, 0.45, 0.38, 0.42, 0.4, 0.42, 0.44, 0.41, 0.39, 0.43, 0.4, 0.42, 0.41, 0.03])
    assert split(plain) == 13


def _patterned_coins(marked: int, mark: str, shift: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A photo of a grid with fourteen printed coins below it, each with a
    dot printed in its middle as some pads print them, the first ``marked``
    of them marked with a thin pencil ``mark`` (a tick or a cross) laid
    over the print; ``shift`` moves the photo's coins off the grid's
    spacing by that many photo pixels per coin, as a sheet printed a little
    off does."""
    import cv2

    px, off = 60, 120
    photo = np.full((17 * px, 16 * px + 2 * off, 3), 232, np.uint8)
    pencil = np.zeros(photo.shape[:2], np.uint8)
    cv2.rectangle(photo, (off, off), (off + 11 * px, off + 11 * px), (60, 50, 40), 3)
    for k in range(COINS):
        cx = round(off + (5.5 + (k - 6.5) * 0.75) * px + k * shift)
        cy = round(off + 12.0 * px)
        cv2.circle(photo, (cx, cy), round(0.3 * px), (70, 60, 50), 2)
        cv2.circle(photo, (cx, cy), 4, (70, 60, 50), -1)
        if k < marked:
            if mark == "tick":
                cv2.line(pencil, (cx - 10, cy + 1), (cx - 4, cy + 10), 255, 2)
                cv2.line(pencil, (cx - 4, cy + 10), (cx + 10, cy - 11), 255, 2)
            else:
                cv2.line(pencil, (cx - 10, cy - 10), (cx + 10, cy + 10), 255, 2)
                cv2.line(pencil, (cx - 10, cy + 10), (cx + 10, cy - 10), 255, 2)
    # graphite darkens what lies under it
    photo = (photo * (1 - 0.5 * pencil[..., None] / 255.0)).astype(np.uint8)
    return photo, np.array([[px, 0, off], [0, px, off], [0, 0, 1]], np.float64)


@pytest.mark.parametrize(("marked", "mark"), [(3, "tick"), (9, "cross"), (12, "tick")])
def test_thin_marks_on_patterned_coins_are_counted(marked: int, mark: str) -> None:
    """A tick covers a small share of a coin, and the printed dot in every
    coin darkens as much of it: the print, alike in every coin, is taken
    away first, and what is left is the pencil, counted by its strokes."""
    import cv2

    from referee.vision.track import find_track, read_coins, strip

    photo, to_photo = _patterned_coins(marked, mark)
    track = find_track(strip(cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY), to_photo, 0))
    assert track is not None
    assert read_coins(photo, to_photo, 0, track) == marked


def test_each_coin_is_read_on_its_own_rim() -> None:
    """The track is one spacing for all fourteen coins, found at a third of
    the size the coins are read at; on a sheet whose coins drift a little
    from it, each coin is still read on its own rim, so its rim never
    reads as pencil and the clean coins stay alike."""
    from referee.vision.track import Track, coin_ink, read_coins

    photo, to_photo = _patterned_coins(4, "cross", shift=0.6)
    track = Track(1.0, 34.0, 12.0, 15.0, 4.8)  # the coins' spacing without the drift
    ink = coin_ink(photo, to_photo, 0, track)
    assert ink is not None
    assert ink[4:].max() < 0.05 < 0.2 < ink[:4].min()
    assert read_coins(photo, to_photo, 0, track) == 4


def test_a_track_running_off_the_photo_gives_no_count() -> None:
    """The photo cuts the track: past its edge the strip repeats the edge's
    pixels, which may look like any number of coins, so the count is left
    to the player."""
    from referee.vision.track import Track, coin_ink, read_coins

    photo, to_photo = _patterned_coins(5, "cross")
    track = Track(1.0, 34.0, 12.0, 15.0, 4.8)
    assert read_coins(photo, to_photo, 0, track) == 5
    cut = photo[:, : photo.shape[1] // 2 + 60].copy()  # the right half of the track is not in the photo
    assert coin_ink(cut, to_photo, 0, track) is None
    assert read_coins(cut, to_photo, 0, track) is None


def test_lightly_ticked_coins_in_the_run_are_counted() -> None:
    """Eight coins marked, two of them with a light tick, well above the six
    clean coins though far below the hard shaded ones: the count is eight,
    not left to the player for two faint coins among eight."""
    ink = np.array([0.3, 0.42, 0.12, 0.35, 0.28, 0.1, 0.38, 0.25] + [0.03, 0.05, 0.04, 0.02, 0.04, 0.03])
    assert split(ink) == 8


def test_a_clean_coin_inside_the_run_gives_no_count() -> None:
    """Eight coins lightly marked, then six clean ones, the fourth of them
    smudged: counted to the smudge, the run would hold three coins as clean
    as the rest, so no count is said; the smudge, as inked as the marked
    coins, hides where the run ends."""
    ink = np.array([0.13, 0.09, 0.1, 0.1, 0.12, 0.07, 0.09, 0.11] + [0.0, 0.01, 0.01, 0.08, 0.01, 0.01])
    assert split(ink) is None


def test_shading_spilt_onto_the_next_coin_does_not_count_it() -> None:
    """Nine coins shaded hard, and the tenth a little grey where the
    ninth's shading spilt over: counting ten splits too, the grey coin
    above the four clean ones after it, but the run plainly ends at nine,
    where the gap is far the larger."""
    ink = np.array([0.45, 0.38, 0.42, 0.5, 0.44, 0.39, 0.41, 0.47, 0.43] + [0.12, 0.03, 0.04, 0.02, 0.03])
    assert split(ink) == 9


def _coin_x(k: float) -> int:
    """The photo column of coin ``k``'s centre (0 the first) in ``_patterned_coins``."""
    return round(120 + (5.5 + (k - 6.5) * 0.75) * 60)


def _shadowed(photo: np.ndarray, x: int) -> np.ndarray:
    """``photo`` with everything right of column ``x`` in shadow."""
    dim = photo.copy()
    dim[:, x:] = (dim[:, x:] * 0.6).astype(np.uint8)
    return dim


def test_a_shadow_edge_across_the_first_clean_coin_gives_no_count() -> None:
    """Five coins crossed, and a shadow's edge through the middle of the
    sixth: half of that clean coin is darker than the lit paper beside it,
    as pencil is, so compared with the others it reads as inked and the
    run seems to end one coin late. The paper around it is lit unevenly,
    so the count is left to the player rather than told as six."""
    from referee.vision.track import Track, coin_ink, read_coins, split

    photo, to_photo = _patterned_coins(5, "cross")
    track = Track(1.0, 34.0, 12.0, 15.0, 4.8)
    dim = _shadowed(photo, _coin_x(5))  # through the sixth coin's centre
    assert split(coin_ink(dim, to_photo, 0, track)) == 6  # what the pencil alone says
    assert read_coins(dim, to_photo, 0, track) is None


@pytest.mark.parametrize(("coin", "where"), [(1, "across an inked coin"), (9.5, "between two clean coins")])
def test_a_shadow_edge_away_from_the_end_of_the_run_keeps_the_count(coin: float, where: str) -> None:
    """The same five crossed coins with a shadow's edge elsewhere: across
    the second coin, already inked, or between the tenth and the eleventh.
    Neither moves where the run ends, so the count is read."""
    from referee.vision.track import Track, read_coins

    photo, to_photo = _patterned_coins(5, "cross")
    track = Track(1.0, 34.0, 12.0, 15.0, 4.8)
    dim = _shadowed(photo, _coin_x(coin))
    assert read_coins(dim, to_photo, 0, track) == 5, where


@pytest.mark.parametrize("coin", [5, 6, 8])
def test_paper_browned_in_a_cloud_over_clean_coins_keeps_the_count(coin: int) -> None:
    """The five crossed coins on paper browned in a soft cloud, a little
    wider than a coin, just right of a clean coin: the paper darkens across
    that coin and the next, more on one side than the other. Against the
    lit side of the paper around it alone, the clean paper on the dark side
    reads as pencil, and the run seemed to end a coin or more late; against
    the paper as it runs across the coin, the clean coins stay clean."""
    from referee.vision.track import Track, coin_ink, read_coins

    photo, to_photo = _patterned_coins(5, "cross")
    track = Track(1.0, 34.0, 12.0, 15.0, 4.8)
    h, w = photo.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    x, y = _coin_x(coin) + 11, 120 + 12 * 60 + 10  # just right of the coin's centre, a little below
    cloud = 1 - 0.3 * np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * 40.0**2))
    browned = (photo * cloud[..., None]).astype(np.uint8)
    ink = coin_ink(browned, to_photo, 0, track)
    assert ink is not None
    assert ink[5:].max() < 0.1 < 0.4 < ink[:5].min()
    assert read_coins(browned, to_photo, 0, track) == 5
