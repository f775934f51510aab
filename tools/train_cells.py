"""Train the square classifier shipped as ``referee/vision/cells.npz``.

Why a script: the weights must be reproducible from the seeded synthetic
photos (``tools/make_samples.py``), not a file of unknown origin. It runs the
reader's own stages on each photo (rectify, light) so the network learns
from what it will see, with the grid's corners and orientation taken from
the truth (``corners_px``, or ``corners`` in the older truth files such as
``sample_sheets/``), so training depends neither on the grid finder nor on
the orientation stage, and a wrong turn never teaches it a wrong label. Then it
fits a small network with Adam, in torch (the train extra): three
convolutions over each square's picture (``cells.pictures``) beside the
square's features (``cells.features``), a ReLU hidden layer, softmax out,
weighting rare codes (heroes, monsters, destroyed spaces) up so that they
are not sacrificed to the common ones. The reader runs the trained network
in numpy (``cells.forward``), so torch is needed to train, never to read.
``--members N`` fits N such networks alike, each from its own seed, and
ships them together: the reader reads their mean (``cells.ensemble``). ``--member FILE`` hands it a network it
already fitted alike (with ``--no-refit``), so that members can be fitted
one at a time, or side by side, and joined at the end. ``--start FILE``
goes on training the networks of a weights file (member k from its member
k, its input scaling kept) on the photos given, at the step size ``--lr``:
the generator's newer draws teach the shipped networks what it now draws
without refitting them from nothing on every older photo, which would need
each older generator's draws made again. ``--share F`` fits on that share
of the photos alone (with ``--no-refit``), for a learning curve: how many
fewer squares more photos read wrong (``bench/nets_bench.py`` reads them).
``--ruins-times K`` fits on each ruins space K times: a pencil drawing
over a printed ruins picture is read wrong several times as often as on
bare paper, and ruins spaces are one square in twenty of what is fitted.
``--checkpoint DIR`` saves each fit there after every epoch, and a fit
cut off (a machine stopped, a session ended) goes on from its last epoch
when run again alike, to the very weights it would have ended with.
The networks it writes have no ruins output layers (``cells.RUINS_HEAD``),
even from ``--start`` weights that had them: those are fitted on the
networks' last hidden layer, so ``tools/fit_ruins_heads.py`` fits them
again after, and ``tools/train_doubt.py`` the weighing after that.

Confidence: a tenth of the photos is held out, and the softmax temperature
is chosen on it so that about ``--right-doubtful`` of the squares read right
fall under the networks' ``cells.UNSURE`` line (never sharper than the
temperature that best fits the held-out squares). Most wrong squares then
fall under it too; the script prints both shares. The final weights are
trained on all photos with that temperature, unless ``--no-refit``.

Never train on a set that is measured: the committed ``sample_sheets`` (seed
5) and the bench sets (seeds 2000, 2500 and 4000) stay out. Usage::

    python tools/make_samples.py --out /tmp/train1000 --count 2000 --seed 1000 --designs train --jobs 2
    python tools/make_samples.py --out /tmp/train3000 --count 1500 --seed 3000 --balanced --jobs 2
    pip install -e '.[train]'
    python tools/train_cells.py /tmp/train1000 /tmp/train3000 --out referee/vision/cells.npz

The shipped weights' own recipe, with its seeds, is in the README.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's referee, not an installed one

from referee.rules import terrain  # noqa: E402
from referee.rules.data import map_sides  # noqa: E402
from referee.rules.geometry import SIZE  # noqa: E402
from referee.vision.cells import (  # noqa: E402
    CLASSES,
    CONVOLUTIONS,
    INNER,
    PICTURE_GAIN,
    UNSURE,
    even_light,
    features,
    hidden,
    mean_of,
    members,
    on_ruins,
    pictures,
)
from referee.vision.errors import VisionError  # noqa: E402
from referee.vision.load import load_photo  # noqa: E402
from referee.vision.rectify import rectify  # noqa: E402

Weights = dict[str, NDArray[np.float32]]
DRAWN = [CLASSES.index(c) for c in CLASSES if c not in terrain.PRINTED]


def true_corners(truth: dict[str, object]) -> np.ndarray:
    """The grid's corners TL, TR, BR, BL of the upright sheet in displayed-photo
    pixels, from the shared truth format (``corners_px``) or the older one
    (``corners``)."""
    corners = truth.get("corners_px", truth.get("corners"))
    return np.array(corners, np.float32).reshape(4, 2)


def _photo(path: Path) -> tuple[np.ndarray, np.ndarray, list[int], list[int]] | None:
    """One photo's features, pictures (uint8), true codes and printed codes
    (or -1); None if unreadable."""
    truth = json.loads(path.with_suffix(".json").read_text())
    side = map_sides()[truth["side"]]
    try:
        photo = load_photo(path.read_bytes())
    except VisionError:
        return None
    rect = rectify(photo.rgb, true_corners(truth) / np.float32(photo.scale))
    light = even_light(rect.canvas)
    x = features(light, side)
    pics = np.round(pictures(light, side) * 255.0).astype(np.uint8)
    y = [CLASSES.index(ch) for ch in "".join(truth["grid"])]
    codes = [side.printed(*divmod(i, SIZE)) for i in range(SIZE * SIZE)]
    return x, pics, y, [CLASSES.index(c) if c != terrain.EMPTY else -1 for c in codes]


class Squares(NamedTuple):
    """Every square of some photos: features, pictures (uint8, as
    ``cells.pictures`` times 255), true code, printed code (or -1), photo number."""

    x: np.ndarray
    pics: np.ndarray
    y: np.ndarray
    printed: np.ndarray
    photo: np.ndarray


def extract(folder: Path, jobs: int = 1) -> Squares:
    """Every square of the photos in ``folder``."""
    xs, pics, ys, printed, photo_no = [], [], [], [], []
    paths = sorted(folder.glob("*.jpg"))
    cv2.setNumThreads(1)  # OpenCV's own threads and fork() do not mix
    pool = multiprocessing.Pool(jobs, initializer=cv2.setNumThreads, initargs=(1,)) if jobs > 1 else None
    rows = pool.imap(_photo, paths, chunksize=8) if pool else map(_photo, paths)
    for n, row in enumerate(rows):
        if n % 100 == 0:
            print(f"  {folder}: {n} photos", flush=True)
        if row is None:
            continue
        xs.append(row[0])
        pics.append(row[1])
        ys.append(row[2])
        printed.append(row[3])
        photo_no.append(np.full(SIZE * SIZE, n))
    if pool:
        pool.close()
        pool.join()
    return Squares(
        np.concatenate(xs),
        np.concatenate(pics),
        np.concatenate(ys),
        np.concatenate(printed),
        np.concatenate(photo_no),
    )


def kept_squares(folder: Path, jobs: int, cache_dir: Path) -> Path:
    """The file in ``cache_dir`` that keeps ``folder``'s squares (named
    after the folder), read from its photos first if it is not kept yet: a
    draw's squares take five minutes to read for every 4,000 photos, and
    a refit on more photos than the last needs to read only the new draws."""
    kept = cache_dir / f"{folder.name}.npz"
    if not kept.exists():
        cache_dir.mkdir(parents=True, exist_ok=True)
        np.savez(kept, **extract(folder, jobs)._asdict())
    return kept


def join(parts: list[Squares]) -> Squares:
    """Several draws' squares as one, each photo numbered after the last draw's."""
    offsets = np.cumsum([0] + [int(p.photo.max()) + 1 for p in parts[:-1]])
    return Squares(
        *(np.concatenate([getattr(p, name) for p in parts]) for name in Squares._fields[:-1]),
        np.concatenate([p.photo + o for p, o in zip(parts, offsets, strict=True)]),
    )


def gather(folders: list[Path], jobs: int = 1, cache_dir: Path | None = None) -> Squares:
    """Every square of the photos in ``folders``, as ``join`` joins them.
    With ``cache_dir``, each draw is kept there (``kept_squares``) and the
    arrays are filled draw by draw from the kept files, so the squares are
    held once, not twice (the pictures of 25,900 photos take 9.5 GB)."""
    if cache_dir is None:
        return join([extract(f, jobs) for f in folders])
    files = [kept_squares(f, jobs, cache_dir) for f in folders]
    total = 0
    for f in files:
        with np.load(f) as data:
            total += len(data["y"])
    sq: Squares | None = None
    at, offset = 0, 0
    for f in files:
        with np.load(f) as data:
            part = Squares(*(data[name] for name in Squares._fields))
        if sq is None:
            sq = Squares(*(np.empty((total, *a.shape[1:]), a.dtype) for a in part))
        n = len(part.y)
        for name in Squares._fields[:-1]:
            getattr(sq, name)[at : at + n] = getattr(part, name)
        sq.photo[at : at + n] = part.photo + offset
        at, offset = at + n, offset + int(part.photo.max()) + 1
        del part
    assert sq is not None
    return sq


def spread_share(photo: np.ndarray, share: float) -> np.ndarray:
    """Which squares to fit on when only ``share`` of the photos is asked
    for: that share of the photos outside the held-out tenth (``photo % 10
    == 0``, which stays whole, so that every share is judged alike), spread
    evenly over them, a half's photos among a whole's and a quarter's among
    a half's. For a learning curve: how much fewer wrong squares more
    photos buy."""
    numbers = np.unique(photo[photo % 10 != 0])
    rank = np.arange(len(numbers))
    kept = numbers[np.floor((rank + 1) * share) > np.floor(rank * share)]
    return np.isin(photo, kept)


def rows_to_fit(chosen: np.ndarray, x: np.ndarray, ruins_times: int = 1) -> np.ndarray:
    """The row numbers of the ``chosen`` squares (a mask over ``x``'s rows),
    each ruins space among them ``ruins_times`` times, so that an epoch
    fits on it that many times."""
    rows = np.flatnonzero(chosen)
    ruins = rows[on_ruins(x)[rows]]  # one column read, not a copy of the rows' features
    return np.concatenate([rows, *[ruins] * (ruins_times - 1)])


class Refused(ValueError):
    """A fit asked for that would not be the fit asked for (a start or a
    checkpoint of another shape or fit), with the sentence why: the
    command line says it, without a traceback."""


CHANNELS = (16, 32, 48)
"""Channels of the three convolutions, unless ``--channels`` asks for others
(the reader takes each network's from its weights)."""


def _layout(state: dict[str, torch.Tensor]) -> Weights:
    """Torch's parameters in ``cells``' layout: each kernel as (neighbour,
    input channel) rows by output columns, each dense layer inputs by outputs."""
    out: Weights = {}
    for i in range(1, CONVOLUTIONS + 1):
        k = state[f"conv{i}.weight"].detach().numpy()
        out[f"k{i}"] = k.transpose(2, 3, 1, 0).reshape(-1, k.shape[0])
        out[f"kb{i}"] = state[f"conv{i}.bias"].detach().numpy()
    for i in (1, 2):
        out[f"w{i}"] = state[f"dense{i}.weight"].detach().numpy().T
        out[f"b{i}"] = state[f"dense{i}.bias"].detach().numpy()
    return {k: np.ascontiguousarray(a, np.float32) for k, a in out.items()}


def _torch_state(w: Weights) -> dict[str, torch.Tensor]:
    """``_layout`` undone: a network of ``cells``' layout as torch parameters."""
    import torch

    state = {}
    for i in range(1, CONVOLUTIONS + 1):
        k = w[f"k{i}"]
        c_in = k.shape[0] // 9
        state[f"conv{i}.weight"] = torch.from_numpy(k.reshape(3, 3, c_in, -1).transpose(3, 2, 0, 1).copy())
        state[f"conv{i}.bias"] = torch.from_numpy(w[f"kb{i}"].copy())
    for i in (1, 2):
        state[f"dense{i}.weight"] = torch.from_numpy(w[f"w{i}"].T.copy())
        state[f"dense{i}.bias"] = torch.from_numpy(w[f"b{i}"].copy())
    return state


def _network(features: int, hidden: int, channels: tuple[int, ...] = CHANNELS) -> torch.nn.Module:
    """The network ``cells.hidden`` and ``cells.forward`` compute: three
    convolutions over the square's picture, each halving it, then one
    hidden layer over what they saw beside the square's features."""
    import torch
    from torch import nn

    class Network(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            if len(channels) != CONVOLUTIONS:
                raise Refused(f"the reader computes {CONVOLUTIONS} convolutions, not {len(channels)}")
            sizes = (3, *channels)
            for i in range(1, CONVOLUTIONS + 1):
                setattr(self, f"conv{i}", nn.Conv2d(sizes[i - 1], sizes[i], 3, padding=1))
            side = INNER // 2**CONVOLUTIONS
            self.dense1 = nn.Linear(channels[-1] * side * side + features, hidden)
            self.dense2 = nn.Linear(hidden, len(CLASSES))

        def forward(self, pics: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
            z = pics * PICTURE_GAIN
            for i in range(1, CONVOLUTIONS + 1):
                z = torch.nn.functional.max_pool2d(torch.relu(getattr(self, f"conv{i}")(z)), 2)
            h = torch.relu(self.dense1(torch.cat([z.flatten(1), x], 1)))
            return self.dense2(h)

    return Network()


def train(
    x: np.ndarray,
    pics: np.ndarray,
    y: np.ndarray,
    hidden: int,
    epochs: int,
    seed: int,
    balance: float,
    batch: int = 256,
    lr: float = 2e-3,
    start: Weights | None = None,
    channels: tuple[int, ...] = CHANNELS,
    rows: np.ndarray | None = None,
    checkpoint: Path | None = None,
) -> Weights:
    """Adam on the class-weighted cross entropy, with a little noise on the
    features and each batch's pictures moved a pixel or none each way (the
    reader's grid may sit a pixel off), the step size rising over the first
    seventh and falling to nothing by the end (one cycle).

    ``pics``: the squares' pictures as uint8 (``cells.pictures`` times 255).
    ``start``: a network already trained (of the same shape) to go on from,
    its input scaling kept, instead of a random one. Training it further on
    photos of a newer generator teaches it what the generator now draws
    without refitting from nothing on every photo it has seen before.
    ``channels``: the convolutions' channels (more read better and cost
    the reader more time).
    ``rows``: the squares to fit on, as indices into ``x``, ``pics`` and
    ``y`` (all of them if None), fitted exactly as their copy would be:
    a copy of nine tenths of the pictures of 25,900 photos is 8.5 GB more.
    ``checkpoint``: a file the fit is saved to after each epoch, and goes
    on from (``Checkpoint``): a fit of the shipped recipe takes about an
    hour a network, and one cut off by a machine stopped or a session
    ended then costs at most an epoch, and ends with the very weights it
    would have ended with uncut."""
    import torch

    rows = np.arange(len(y)) if rows is None else np.asarray(rows, np.int64)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    if start is None:
        fitted = x[rows]  # the rows' features alone, once (4.2 GB for 25,900 photos)
        mean, std = fitted.mean(0), fitted.std(0) + 1e-3
        del fitted
    else:
        mean, std = start["mean"], start["std"]
    net = _network(x.shape[1], hidden, channels)
    if start is not None:
        want = {k: tuple(v.shape) for k, v in net.state_dict().items()}
        state = _torch_state(start) if "k1" in start else {}
        if {k: tuple(v.shape) for k, v in state.items()} != want:
            raise Refused("the starting network is not of the shape asked for (--hidden, --channels)")
        net.load_state_dict(state)
    # each batch's features are scaled as it is drawn: a scaled copy of them all
    # would be as large again as the features (gigabytes for 20,000 photos)
    feats = torch.from_numpy(np.asarray(x, np.float32))
    centre = torch.from_numpy(np.asarray(mean, np.float32))
    scale = torch.from_numpy(np.asarray(std, np.float32))
    images = torch.from_numpy(pics).permute(0, 3, 1, 2)  # uint8, squares x colours x rows x columns
    codes = torch.from_numpy(y.astype(np.int64))
    counts = np.bincount(y[rows], minlength=len(CLASSES)).astype(np.float64)
    cw = (counts.max() / np.maximum(counts, 1.0)) ** balance
    cw *= counts.sum() / (cw * counts).sum()
    class_weight = torch.tensor(cw, dtype=torch.float32)
    steps = max(1, epochs * -(-len(rows) // batch))
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-5)
    schedule = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=1 / 7)
    saved = None
    if checkpoint is not None:
        fit = {
            "seed": seed,
            "epochs": epochs,
            "batch": batch,
            "lr": lr,
            "hidden": hidden,
            "channels": list(channels),
            "balance": balance,
            "squares": _fingerprint(rows, y[rows], None if start is None else start["w1"]),
        }
        saved = Checkpoint(checkpoint, fit)
    done = 0 if saved is None else saved.restore(net, opt, schedule, rng)
    net.train()
    for epoch in range(done, epochs):
        order = torch.from_numpy(rows[rng.permutation(len(rows))])
        for s in range(0, len(rows), batch):
            idx = order[s : s + batch]
            dy, dx = (int(v) for v in rng.integers(-1, 2, 2))
            p = torch.roll(images[idx].float() / 255.0, shifts=(dy, dx), dims=(2, 3))
            noise = rng.standard_normal((len(idx), feats.shape[1]), np.float32)
            noisy = (feats[idx] - centre) / scale + 0.05 * torch.from_numpy(noise)
            loss = torch.nn.functional.cross_entropy(net(p, noisy), codes[idx], weight=class_weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
            schedule.step()
        if saved is not None:
            saved.save(epoch + 1, net, opt, schedule, rng)
    return {
        "mean": np.asarray(mean, np.float32),
        "std": np.asarray(std, np.float32),
        **_layout(net.state_dict()),
    }


def _fingerprint(*arrays: np.ndarray | None) -> str:
    """A digest of what a fit is fitted on: a checkpoint of a fit on other
    squares, or from another start, is another fit's."""
    digest = hashlib.sha256()
    for a in arrays:
        digest.update(b"-" if a is None else np.ascontiguousarray(a).tobytes())
    return digest.hexdigest()


class Checkpoint:
    """A fit's state after its last whole epoch, in ``path``: the network,
    Adam's moments, the step size schedule and the random generator that
    orders the squares and moves the pictures. Restored, the fit goes on
    exactly as if it had never stopped. ``fit`` names the fit (its seed,
    shape, settings and squares); a checkpoint of another fit is refused
    with a sentence rather than gone on from, since its weights would be
    another fit's."""

    def __init__(self, path: Path, fit: dict[str, object]) -> None:
        self.path, self.fit = path, fit

    def restore(
        self,
        net: torch.nn.Module,
        opt: torch.optim.Optimizer,
        schedule: torch.optim.lr_scheduler.LRScheduler,
        rng: np.random.Generator,
    ) -> int:
        """The epochs already done (0 without a checkpoint), the state restored."""
        import torch

        if not self.path.exists():
            return 0
        state = torch.load(self.path, weights_only=True)
        if json.loads(state["fit"]) != self.fit:
            raise Refused(
                f"{self.path} is a checkpoint of another fit (other photos, seed or settings): "
                "remove it, or give another --checkpoint folder"
            )
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        schedule.load_state_dict(state["schedule"])
        rng.bit_generator.state = json.loads(state["rng"])
        return int(state["epoch"])

    def save(
        self,
        epoch: int,
        net: torch.nn.Module,
        opt: torch.optim.Optimizer,
        schedule: torch.optim.lr_scheduler.LRScheduler,
        rng: np.random.Generator,
    ) -> None:
        """Keep the state after ``epoch`` epochs, replacing the last whole
        file only once the new one is written."""
        import torch

        self.path.parent.mkdir(parents=True, exist_ok=True)
        part = self.path.with_name(self.path.name + ".part")
        torch.save(
            {
                "fit": json.dumps(self.fit),
                "epoch": epoch,
                "net": net.state_dict(),
                "opt": opt.state_dict(),
                "schedule": schedule.state_dict(),
                "rng": json.dumps(rng.bit_generator.state),
            },
            part,
        )
        os.replace(part, self.path)


class Seen(NamedTuple):
    """What some networks make of some squares, before their temperature:
    each network's last hidden layer, worked out once for every temperature tried."""

    nets: list[Weights]
    layers: list[np.ndarray]
    squares: Squares

    @classmethod
    def of(cls, nets: list[Weights], sq: Squares) -> Seen:
        step = 4096
        layers = [
            np.concatenate(
                [
                    hidden(sq.x[s : s + step], w, sq.pics[s : s + step].astype(np.float32) / 255.0)
                    for s in range(0, len(sq.y), step)
                ]
            )
            for w in nets
        ]
        return cls(nets, layers, sq)

    def probs(self, temperature: float) -> np.ndarray:
        """The networks' mean probabilities, each ruins space read by their
        ruins output layers if they have them, as the reader reads it."""
        return mean_of(self.layers, self.nets, temperature, on_ruins(self.squares.x))


def read(seen: Seen, temperature: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Codes and confidences the way the reader decides them: a printed square
    is its printed code, any other square the likeliest drawn code, its
    probability renormalised over the drawn codes."""
    printed = seen.squares.printed
    probs = seen.probs(temperature)
    rows = np.arange(len(printed))
    pick = np.where(printed >= 0, printed, 0)
    drawn = probs[:, DRAWN] / np.maximum(probs[:, DRAWN].sum(1, keepdims=True), 1e-6)
    k = drawn.argmax(1)
    codes = np.where(printed >= 0, printed, np.array(DRAWN)[k])
    conf = np.where(printed >= 0, probs[rows, pick], drawn[rows, k])
    return codes, conf


def calibrate(seen: Seen, right_doubtful: float) -> float:
    """The temperature: the best fit to held-out squares, softened until about
    ``right_doubtful`` of the right ones are doubtful."""
    y = seen.squares.y

    def nll(temp: float) -> float:
        probs = seen.probs(temp)
        return float(-np.log(np.maximum(probs[np.arange(len(y)), y], 1e-9)).mean())

    temps = np.exp(np.linspace(np.log(0.5), np.log(8.0), 40))
    fit = float(temps[int(np.argmin([nll(t) for t in temps]))])
    best = fit
    for temp in temps[temps >= fit]:
        codes, conf = read(seen, float(temp))
        if np.mean(conf[codes == y] < UNSURE) > right_doubtful:
            break
        best = float(temp)
    return best


def report(seen: Seen, label: str, temp: float = 1.0) -> None:
    codes, conf = read(seen, temp)
    right = codes == seen.squares.y
    free = seen.squares.printed < 0
    print(
        f"{label}: square accuracy {right.mean():.4%} ({np.mean(right[free]):.4%} of the squares a player "
        f"draws on); doubtful: {np.mean(conf[~right] < UNSURE):.1%} of {int((~right).sum())} wrong, "
        f"{np.mean(conf[right] < UNSURE):.2%} of right",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, default=Path("referee/vision/cells.npz"))
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument(
        "--channels",
        type=lambda v: tuple(int(c) for c in v.split(",")),
        default=CHANNELS,
        help="channels of the three convolutions, comma-separated (default %(default)s)",
    )
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--balance", type=float, default=0.5, help="class weight = (most common / count) ** this")
    ap.add_argument("--right-doubtful", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument(
        "--members",
        type=int,
        default=1,
        help="networks in the ensemble, each trained alike from its own seed (seed, seed + 1, ...)",
    )
    ap.add_argument(
        "--member",
        type=Path,
        action="append",
        default=[],
        help="a network this script already trained alike, with --no-refit, to take the next member's place",
    )
    ap.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="keep the squares read from the photos here, and read them back next time",
    )
    ap.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="keep each folder's squares in a file of this folder named after it, and read them back "
        "next time: a refit on more photos reads only the new ones",
    )
    ap.add_argument(
        "--share",
        type=float,
        default=1.0,
        help="fit on this share of the photos outside the held-out tenth, spread over them "
        "(a learning curve)",
    )
    ap.add_argument("--jobs", type=int, default=1, help="worker processes for reading the photos")
    ap.add_argument(
        "--ruins-times", type=int, default=1, help="fit on each ruins space this many times an epoch"
    )
    ap.add_argument("--batch", type=int, default=256, help="squares per Adam step")
    ap.add_argument(
        "--lr",
        type=float,
        default=2e-3,
        help="Adam's largest step size: reached a seventh of the way through, then falling to nothing",
    )
    ap.add_argument(
        "--start",
        type=Path,
        default=None,
        help="a weights file (such as the shipped cells.npz) whose networks to go on training, "
        "member k from its member k, instead of starting from random ones",
    )
    ap.add_argument(
        "--checkpoint",
        type=Path,
        default=None,
        help="a folder where each fit is saved after every epoch, and from which a fit cut off goes on "
        "where it stopped, to the same weights",
    )
    ap.add_argument(
        "--no-refit",
        dest="refit",
        action="store_false",
        help="ship the weights trained without the held-out tenth (the ones the temperature was fitted on) "
        "instead of training again on everything",
    )
    args = ap.parse_args()
    if args.member and args.refit:
        ap.error("--member takes a network trained without the held-out tenth: add --no-refit")
    if not 0.0 < args.share <= 1.0:
        ap.error("--share is a share of the photos, above 0 and at most 1")
    if args.ruins_times < 1:
        ap.error("--ruins-times is how many times each ruins space is fitted on: 1 or more")
    if args.share < 1.0 and args.refit:
        ap.error("--share fits on part of the photos to judge it on the held-out tenth: add --no-refit")
    cv2.setNumThreads(1)
    if args.cache:
        args.cache = args.cache.with_suffix(".npz")  # numpy adds the suffix when it saves
    if args.cache and args.cache.exists():
        data = np.load(args.cache)
        sq = Squares(*(data[name] for name in Squares._fields))
    else:
        sq = gather(args.folders, args.jobs, args.cache_dir)
        if args.cache:
            np.savez(args.cache, **sq._asdict())
    starts = members(dict(np.load(args.start))) if args.start else []
    counts = np.bincount(sq.y, minlength=len(CLASSES)).tolist()
    print(f"{len(sq.y)} squares; codes {dict(zip(CLASSES, counts, strict=True))}", flush=True)
    hold = sq.photo % 10 == 0
    held = Squares(*(a[hold] for a in sq))

    def fit(k: int, rows: np.ndarray) -> Weights:
        if k < len(args.member):  # the same training, already done
            return members(dict(np.load(args.member[k])))[0]
        seed = args.seed + k
        start = starts[k % len(starts)] if starts else None
        chosen = rows_to_fit(rows, sq.x, args.ruins_times)
        try:
            return train(
                sq.x,
                sq.pics,
                sq.y,
                args.hidden,
                args.epochs,
                seed,
                args.balance,
                args.batch,
                args.lr,
                start,
                args.channels,
                chosen,
                None if args.checkpoint is None else args.checkpoint / f"seed{seed}-{len(chosen)}squares.pt",
            )
        except Refused as e:
            ap.error(str(e))

    nets = []
    fitted_on = ~hold & spread_share(sq.photo, args.share)
    print(f"fitting on {len(np.unique(sq.photo[fitted_on]))} photos", flush=True)
    for k in range(args.members):
        nets.append(fit(k, fitted_on))
        report(Seen.of(nets[-1:], held), f"held-out photos, network {k + 1}, raw")
    seen = Seen.of(nets, held)
    report(seen, "held-out photos, their mean, raw")
    temp = calibrate(seen, args.right_doubtful)
    report(seen, f"temperature {temp:.2f}", temp)
    if args.refit:
        nets = [fit(k, np.ones(len(sq.y), bool)) for k in range(args.members)]
    if len(nets) == 1:
        np.savez_compressed(args.out, **nets[0], temperature=np.float32(temp))
    else:
        stored = {f"m{k}.{name}": a for k, net in enumerate(nets) for name, a in net.items()}
        np.savez_compressed(args.out, **stored, temperature=np.float32(temp))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
