"""``tools/train_cells.py``: the network it trains (in torch) is exactly
the one the reader computes (in numpy, ``cells.forward``), and ``--start``
goes on training the shipped networks on photos of a newer generator
instead of starting from random ones. Going on must start where the given
network is (its weights and its input scaling), and refuse a network of
another shape rather than train something else.

Skipped without torch (the train extra), unless ``REFEREE_REQUIRE_TORCH=1``
(CI) makes that a failure."""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from referee.vision.cells import CLASSES, INNER, RUINS_COLUMN, forward
from tests.scripts import load_script

if os.environ.get("REFEREE_REQUIRE_TORCH") == "1":
    import torch
else:
    torch = pytest.importorskip("torch", reason="training needs the train extra: pip install -e '.[train]'")

FEATURES = 6


def _train_cells() -> ModuleType:
    return load_script("tools/train_cells.py")


def _squares(
    rng: np.random.Generator, n: int, faint: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features (noise), pictures (uint8) and codes of squares whose code
    only their picture tells: a bar across the square at a height of its
    code's own. ``faint``: a newer generator's, drawn lightly in one colour
    on noisier paper."""
    y = rng.integers(0, len(CLASSES), n)
    pics = rng.uniform(0.0, 0.12 if faint else 0.05, (n, INNER, INNER, 3))
    for i, code in enumerate(y):
        top = 1 + 2 * int(code)
        if faint:
            pics[i, top : top + 3, 2:-2, 0] += 0.3
        else:
            pics[i, top : top + 3, 2:-2, :] += 0.8
    x = rng.normal(0, 1, (n, FEATURES)).astype(np.float32)
    return x, np.round(np.clip(pics, 0, 1) * 255).astype(np.uint8), y


def _right(w: dict[str, np.ndarray], x: np.ndarray, pics: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean(forward(x, w, 1.0, pics.astype(np.float32) / 255).argmax(1) == y))


def test_the_trained_network_is_the_one_the_reader_computes() -> None:
    tc = _train_cells()
    torch.manual_seed(0)
    net = tc._network(FEATURES, 16)
    rng = np.random.default_rng(1)
    x, pics, _ = _squares(rng, 9)
    scaling = {"mean": np.zeros(FEATURES, np.float32), "std": np.ones(FEATURES, np.float32)}
    w = {**scaling, **tc._layout(net.state_dict())}
    p = torch.from_numpy(pics).permute(0, 3, 1, 2).float() / 255
    with torch.no_grad():
        want = torch.softmax(net(p, torch.from_numpy(x)), 1).numpy()
    assert np.allclose(forward(x, w, 1.0, pics.astype(np.float32) / 255), want, atol=1e-5)
    back = tc._torch_state(w)
    for name, a in net.state_dict().items():
        assert torch.equal(back[name], a), name


def test_training_learns_what_only_the_picture_shows() -> None:
    tc = _train_cells()
    rng = np.random.default_rng(2)
    x, pics, y = _squares(rng, 2000)
    w = tc.train(x, pics, y, hidden=32, epochs=4, seed=1, balance=0.5, batch=64)
    tx, tpics, ty = _squares(rng, 500)
    assert _right(w, tx, tpics, ty) > 0.9  # chance is 0.1: the features are noise


def test_zero_epochs_from_a_start_is_the_start() -> None:
    tc = _train_cells()
    rng = np.random.default_rng(3)
    x, pics, y = _squares(rng, 300)
    start = tc.train(x, pics, y, hidden=16, epochs=1, seed=1, balance=0.5, batch=64)
    again = tc.train(x + 5.0, pics, y, hidden=16, epochs=0, seed=2, balance=0.5, start=start)
    assert again.keys() == start.keys()
    for k in start:  # the input scaling too, though these rows' mean is another
        assert np.array_equal(again[k], start[k]), k


def test_going_on_learns_the_newer_photos_and_keeps_the_older() -> None:
    """A network trained on one draw, trained further on a newer draw
    beside some of the older one, reads the newer better than before and
    the older about as well."""
    tc = _train_cells()
    rng = np.random.default_rng(4)
    old = _squares(rng, 2000)
    new = _squares(rng, 1500, faint=True)
    start = tc.train(*old, hidden=32, epochs=3, seed=1, balance=0.5, batch=64)
    both = [np.concatenate([a[:500], b]) for a, b in zip(old, new, strict=True)]
    went_on = tc.train(*both, hidden=32, epochs=3, seed=2, balance=0.5, batch=64, lr=5e-4, start=start)
    test_old, test_new = _squares(rng, 500), _squares(rng, 500, faint=True)
    assert _right(went_on, *test_new) > _right(start, *test_new)
    assert _right(went_on, *test_old) >= _right(start, *test_old) - 0.03


def test_a_start_of_another_shape_is_refused() -> None:
    tc = _train_cells()
    rng = np.random.default_rng(5)
    x, pics, y = _squares(rng, 200)
    start = tc.train(x, pics, y, hidden=16, epochs=1, seed=1, balance=0.5)
    with pytest.raises(ValueError, match="shape"):
        tc.train(x, pics, y, hidden=32, epochs=1, seed=1, balance=0.5, start=start)
    without_pictures = {k: v for k, v in start.items() if not k.startswith("k")}
    with pytest.raises(ValueError, match="shape"):
        tc.train(x, pics, y, hidden=16, epochs=1, seed=1, balance=0.5, start=without_pictures)


def test_wider_convolutions_are_trained_and_read_alike() -> None:
    """``--channels``: a network with other convolutions is the one the
    reader computes too, since the reader takes their sizes from the weights."""
    tc = _train_cells()
    rng = np.random.default_rng(6)
    x, pics, y = _squares(rng, 1000)
    w = tc.train(x, pics, y, hidden=32, epochs=3, seed=1, balance=0.5, batch=64, channels=(8, 12, 20))
    assert w["k1"].shape == (27, 8) and w["k2"].shape == (72, 12) and w["k3"].shape == (108, 20)
    tx, tpics, ty = _squares(rng, 300)
    assert _right(w, tx, tpics, ty) > 0.9
    with pytest.raises(ValueError, match="convolutions"):
        tc.train(x, pics, y, hidden=16, epochs=1, seed=1, balance=0.5, channels=(8, 12))


def test_a_share_of_the_photos_is_spread_over_them_and_never_the_held_out_tenth() -> None:
    tc = _train_cells()
    photo = np.repeat(np.arange(200), 3)  # three squares a photo
    whole = tc.spread_share(photo, 1.0)
    assert np.array_equal(whole, photo % 10 != 0)
    half, quarter = tc.spread_share(photo, 0.5), tc.spread_share(photo, 0.25)
    assert len(np.unique(photo[half])) == 90 and len(np.unique(photo[quarter])) == 45
    assert not (half & (photo % 10 == 0)).any()
    assert np.all(half[quarter])  # a quarter's photos are among a half's
    kept = np.unique(photo[quarter])
    assert kept.min() < 20 and kept.max() > 180  # spread over the draw, not its first photos
    assert all(np.all(half[photo == p]) or not np.any(half[photo == p]) for p in range(200))  # whole photos


def test_fitting_on_some_rows_is_fitting_on_their_copy() -> None:
    """``rows`` spares the copy of nine tenths of the pictures, and must fit
    exactly the network the copy would."""
    tc = _train_cells()
    rng = np.random.default_rng(7)
    x, pics, y = _squares(rng, 400)
    rows = np.flatnonzero(np.arange(400) % 10 != 0)
    copied = tc.train(x[rows], pics[rows], y[rows], hidden=16, epochs=2, seed=3, balance=0.5, batch=64)
    indexed = tc.train(x, pics, y, hidden=16, epochs=2, seed=3, balance=0.5, batch=64, rows=rows)
    assert copied.keys() == indexed.keys()
    for k in copied:
        assert np.array_equal(copied[k], indexed[k]), k
    whole = tc.train(x, pics, y, hidden=16, epochs=2, seed=3, balance=0.5, batch=64)
    assert not np.array_equal(whole["mean"], indexed["mean"])  # the rows left out are left out


@pytest.mark.parametrize("letter", ["A", "B"])
def test_the_ruins_column_marks_the_sides_ruins_spaces_alone(letter: str) -> None:
    """``--ruins-times`` and the ruins output layers find a square's ruins
    space in its features: the column they read must be the one
    ``cells.features`` sets on them."""
    from referee.rules.data import map_sides
    from referee.vision.cells import MARGIN, SIZE, S, features, on_ruins

    side = map_sides()[letter]
    n = round((SIZE + 2 * MARGIN) * S)
    x = features(np.ones((n, n, 3), np.float32), side)
    marked = set(np.flatnonzero(x[:, RUINS_COLUMN] == 1.0).tolist())
    assert marked == {r * SIZE + c for r, c in side.ruins}
    assert set(np.unique(x[:, RUINS_COLUMN]).tolist()) == {0.0, 1.0}
    assert set(np.flatnonzero(on_ruins(x)).tolist()) == marked


def test_each_ruins_space_chosen_is_fitted_on_as_often_as_asked() -> None:
    tc = _train_cells()
    x = np.zeros((20, 1 - RUINS_COLUMN), np.float32)
    x[[3, 4, 15], RUINS_COLUMN] = 1.0
    chosen = np.arange(20) != 4  # the ruins space 4 is not chosen
    assert np.array_equal(tc.rows_to_fit(chosen, x), np.flatnonzero(chosen))
    rows = tc.rows_to_fit(chosen, x, ruins_times=3)
    assert np.bincount(rows, minlength=20).tolist() == [1, 1, 1, 3, 0] + [1] * 10 + [3] + [1] * 4


def _draw(tc: ModuleType, rng: np.random.Generator, photos: int) -> object:
    x, pics, y = _squares(rng, photos * 4)
    return tc.Squares(x, pics, y, np.where(y % 3 == 0, y, -1), np.repeat(np.arange(photos), 4))


def test_kept_draws_are_joined_as_if_read_together(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--cache-dir``: each draw's squares kept in a file of its own, read
    back without reading its photos again, and joined as ``join`` joins
    the draws read at once, each photo numbered after the last draw's."""
    tc = _train_cells()
    rng = np.random.default_rng(8)
    draws = {"n1": _draw(tc, rng, 5), "n2": _draw(tc, rng, 3), "n3": _draw(tc, rng, 4)}
    read = []

    def extract(folder: Path, jobs: int = 1) -> object:
        read.append(folder.name)
        return draws[folder.name]

    monkeypatch.setattr(tc, "extract", extract)
    folders = [tmp_path / "photos" / name for name in draws]
    at_once = tc.gather(folders)
    assert read == ["n1", "n2", "n3"]
    assert np.array_equal(at_once.photo[:20], np.repeat(np.arange(5), 4))
    assert np.array_equal(at_once.photo[20:32], np.repeat(np.arange(5, 8), 4))
    assert at_once.photo.max() == 11
    kept = tmp_path / "kept"
    tc.gather(folders[:2], cache_dir=kept)  # a first refit read two draws
    read.clear()
    again = tc.gather(folders, cache_dir=kept)  # the next reads only the third
    assert read == ["n3"]
    assert sorted(p.name for p in kept.iterdir()) == ["n1.npz", "n2.npz", "n3.npz"]
    for name in tc.Squares._fields:
        assert np.array_equal(getattr(again, name), getattr(at_once, name)), name
        assert getattr(again, name).dtype == getattr(at_once, name).dtype, name


class _CutOff(Exception):
    """The machine stopping in the middle of a fit."""


def test_a_fit_cut_off_goes_on_from_its_checkpoint_to_the_same_weights(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--checkpoint``: a fit stopped after an epoch and run again goes on
    from there, to exactly the weights of the fit never stopped, which are
    those of a fit without a checkpoint."""
    tc = _train_cells()
    x, pics, y = _squares(np.random.default_rng(8), 600)
    fit = {"hidden": 16, "epochs": 3, "seed": 1, "balance": 0.5, "batch": 64}
    uncut = tc.train(x, pics, y, **fit)
    _assert_same_weights(tc.train(x, pics, y, **fit, checkpoint=tmp_path / "whole.pt"), uncut)

    saved = tc.Checkpoint.save
    epochs_run = []

    def stop_after_the_first(self: object, epoch: int, *args: object) -> None:
        saved(self, epoch, *args)
        epochs_run.append(epoch)
        if epoch == 1:
            raise _CutOff

    monkeypatch.setattr(tc.Checkpoint, "save", stop_after_the_first)
    with pytest.raises(_CutOff):
        tc.train(x, pics, y, **fit, checkpoint=tmp_path / "cut.pt")
    _assert_same_weights(tc.train(x, pics, y, **fit, checkpoint=tmp_path / "cut.pt"), uncut)
    assert epochs_run == [1, 2, 3]  # the first epoch was not fitted again
    # a finished fit's checkpoint is its weights: run again, it fits nothing
    _assert_same_weights(tc.train(x, pics, y, **fit, checkpoint=tmp_path / "cut.pt"), uncut)
    assert epochs_run == [1, 2, 3]


def test_a_checkpoint_of_another_fit_is_refused(tmp_path: Path) -> None:
    tc = _train_cells()
    x, pics, y = _squares(np.random.default_rng(9), 300)
    kept = tmp_path / "fit.pt"
    tc.train(x, pics, y, hidden=16, epochs=1, seed=1, balance=0.5, checkpoint=kept)
    for other in ({"seed": 2}, {"epochs": 2}, {"hidden": 8}):
        fit = {"hidden": 16, "epochs": 1, "seed": 1, "balance": 0.5, **other}
        with pytest.raises(ValueError, match="another fit"):
            tc.train(x, pics, y, **fit, checkpoint=kept)
    with pytest.raises(ValueError, match="another fit"):  # the same settings on other squares
        tc.train(x, pics, y, hidden=16, epochs=1, seed=1, balance=0.5, rows=np.arange(200), checkpoint=kept)


def _assert_same_weights(got: dict[str, np.ndarray], want: dict[str, np.ndarray]) -> None:
    assert got.keys() == want.keys()
    for k in want:
        assert np.array_equal(got[k], want[k]), k


def test_the_command_says_a_checkpoint_is_another_fits_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tc = _train_cells()
    kept = tmp_path / "kept"
    kept.mkdir()
    draw = _draw(tc, np.random.default_rng(10), 40)
    wide = np.hstack(
        [draw.x, np.zeros((len(draw.y), 30), np.float32)]
    )  # the ruins column lies 25 from the end
    np.savez(kept / "n1.npz", **draw._replace(x=wide)._asdict())
    command = [
        "train_cells.py",
        str(tmp_path / "n1"),
        "--cache-dir",
        str(kept),
        "--no-refit",
        "--epochs",
        "1",
    ]
    command += ["--checkpoint", str(tmp_path / "fits"), "--out", str(tmp_path / "w.npz")]
    monkeypatch.setattr("sys.argv", command)
    tc.main()
    assert (tmp_path / "w.npz").exists() and len(list((tmp_path / "fits").iterdir())) == 1
    monkeypatch.setattr("sys.argv", [*command, "--hidden", "16"])
    with pytest.raises(SystemExit) as stopped:
        tc.main()
    assert stopped.value.code == 2
    assert "is a checkpoint of another fit" in capsys.readouterr().err
