"""Whether two readers read every photo the same, and their CPU time photo by photo.

Many changes to the photo reader are meant to change no reading: a
speed-up, a refactor. This reads every photo of the folders with the
reader of two checkouts, BEFORE and AFTER, and names each photo read
differently and what differs: grid squares, confidences, coins, corners,
side, canvas, or the refusal (its class and sentence). The line to check
is "0 differ"; the status is 1 when a photo differs, so the run can gate
a claim that a change reads every photo exactly as before.

Each checkout's reader runs in a process of its own (this Python, the
checkout first on ``PYTHONPATH``, numpy, OpenBLAS and OpenCV held to one
thread), fed one photo at a time: each photo is read by one and then by
the other, the first in turn, so that only one process is busy at a time
and both meet the same machine. Each photo's CPU time is its process
time, as ``bench/scan_bench.py`` measures it; per folder the medians and
95th percentiles are printed, before and after, with the median of each
photo's time after over its own time before (which, unlike two medians
taken one after the other, a machine's moods hardly move), and the
slowest photos. ``--json FILE`` keeps every photo's two records.

``--marks ERROR`` reads each photo instead as a player's marked corners
have it read (``read_sheet(..., corners=...)``, the editor's "Mark the
grid yourself"): the true corners each moved by up to ERROR squares
either way, the same marks for both readers (drawn from the photo's
name) and kept on the photo, as the editor keeps a tap. A marked grid is
read along its own path: the reader fits a grid near the marks and keeps
the surest of the fits that pass, which a photo read plainly never asks.

Usage (the reader before in a git worktree; each folder holds ``NAME.jpg``
photos beside ``NAME.json`` truths, whose ``side`` the reader is given)::

    git worktree add /tmp/before REV
    python bench/paired_readings.py /tmp/before . sample_sheets /tmp/holdout
    python bench/paired_readings.py /tmp/before . sample_sheets /tmp/holdout --marks 0.3
    git worktree remove /tmp/before
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any, NamedTuple

THREADS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
"""The variables that hold numpy's BLAS to one thread, set before numpy loads."""

WHO = ("before", "after")
"""The two checkouts, as the output and ``--json`` name them."""

Record = dict[str, Any]
"""What a worker answers for one photo: ``seconds`` (CPU), and either
``refusal`` (``"ClassName: sentence"``) or ``reading`` (``SheetReading.to_json()``),
``side`` and ``canvas`` (SHA-1 of the canvas's shape and bytes)."""

READING_PARTS = {"grid", "confidence", "coins", "corners"}
"""The parts of ``SheetReading.to_json()`` compared one by one; any other is compared whole."""

SHOWN = 4
"""Squares named in a difference before the rest are only counted."""

SIZE = 11
"""Squares along a side of the grid (``referee.rules.geometry.SIZE``; this
file does not import the package, whose two checkouts are compared)."""


# The worker: one checkout's reader, a photo a line on stdin, a JSON line out.


def worker(stdin: IO[str], stdout: IO[str], marks: float | None = None) -> None:
    """Read each photo path on ``stdin`` with the ``referee`` on ``PYTHONPATH``
    (with the player's marks up to ``marks`` squares off, if given); first
    say which one that is, then answer each path with its ``Record``."""
    for var in THREADS:
        os.environ.setdefault(var, "1")
    import cv2

    import referee

    cv2.setNumThreads(1)
    print(json.dumps({"referee": referee.__file__}), file=stdout, flush=True)
    for line in stdin:
        if line.strip():
            print(json.dumps(read_photo(Path(line.strip()), marks)), file=stdout, flush=True)


def player_marks(
    truth: dict[str, Any], name: str, error: float, size: tuple[int, int]
) -> list[tuple[float, float]]:
    """The four corners a player marks: the true ones (``corners_px``, photo
    pixels as displayed) each moved by up to ``error`` squares along each
    axis, drawn from ``name`` alone so that both readers get the same
    marks, and kept on a photo of ``size`` (width, height)."""
    import numpy as np

    corners = np.array(truth.get("corners_px", truth.get("corners")), float)
    square = float(np.linalg.norm(corners[0] - corners[1])) / SIZE
    seed = int.from_bytes(hashlib.sha1(name.encode()).digest()[:8], "big")
    moved = corners + np.random.default_rng(seed).uniform(-error, error, corners.shape) * square
    return [(float(x), float(y)) for x, y in np.clip(moved, 0, size)]


def read_photo(path: Path, marks: float | None = None) -> Record:
    """The reading of one photo, with the side its truth names (and, with
    ``marks``, the corners a player marks, ``player_marks``), and its CPU
    seconds."""
    import numpy as np

    from referee.vision.errors import VisionError
    from referee.vision.load import load_photo
    from referee.vision.reader import read_sheet

    truth = json.loads(path.with_suffix(".json").read_text())
    side = str(truth["side"])
    data = path.read_bytes()
    corners = None if marks is None else player_marks(truth, path.name, marks, load_photo(data).size)
    t0 = time.process_time()
    try:
        reading = read_sheet(data, side, corners=corners)
    except VisionError as e:
        seconds = time.process_time() - t0
        return {"refusal": f"{type(e).__name__}: {e}", "seconds": seconds}
    seconds = time.process_time() - t0
    canvas = np.ascontiguousarray(reading.canvas)
    digest = hashlib.sha1(f"{canvas.shape} {canvas.dtype}\n".encode())
    digest.update(canvas.tobytes())
    return {
        "reading": reading.to_json(),
        "side": reading.side,
        "canvas": digest.hexdigest(),
        "seconds": seconds,
    }


# Comparing two records.


def differences(before: Record, after: Record) -> list[str]:
    """What differs between two readings of one photo, one phrase a part;
    none when they are the same (two refusals with the same sentence too)."""
    if "refusal" in before or "refusal" in after:
        was, now = before.get("refusal", "read"), after.get("refusal", "read")
        return [] if was == now else [f"refusal: {was} -> {now}"]
    a, b = before["reading"], after["reading"]
    out = []
    if before["side"] != after["side"]:
        out.append(f"side {before['side']} -> {after['side']}")
    if a["grid"] != b["grid"]:
        out.append(_squares_changed(a["grid"], b["grid"]))
    if a["confidence"] != b["confidence"]:
        out.append(_confidences_changed(a["confidence"], b["confidence"]))
    if a["coins"] != b["coins"]:
        out.append(f"coins {a['coins']} -> {b['coins']}")
    if a["corners"] != b["corners"]:
        pairs = zip(a["corners"], b["corners"], strict=True)
        shift = max(abs(p - q) for c, d in pairs for p, q in zip(c, d, strict=True))
        out.append(f"corners (moved up to {shift:.3g} px)")
    for key in sorted((a.keys() | b.keys()) - READING_PARTS):
        if a.get(key) != b.get(key):
            out.append(f"{key} {a.get(key)} -> {b.get(key)}")
    if before["canvas"] != after["canvas"]:
        out.append("canvas")
    return out


def _squares_changed(before: list[str], after: list[str]) -> str:
    """The grid squares read differently, ``r2c5 F -> W``, the first few named."""
    changed = [
        f"r{r}c{c} {p} -> {q}"
        for r, (row_p, row_q) in enumerate(zip(before, after, strict=True))
        for c, (p, q) in enumerate(zip(row_p, row_q, strict=True))
        if p != q
    ]
    return f"{_count(len(changed), 'grid square')} ({_first(changed)})"


def _confidences_changed(before: list[list[float]], after: list[list[float]]) -> str:
    """How many squares' confidences differ, and by how much at most."""
    gaps = [
        abs(p - q)
        for rp, rq in zip(before, after, strict=True)
        for p, q in zip(rp, rq, strict=True)
        if p != q
    ]
    return f"confidences of {_count(len(gaps), 'square')} (by up to {max(gaps):.3g})"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _first(items: list[str]) -> str:
    shown = ", ".join(items[:SHOWN])
    return shown if len(items) <= SHOWN else f"{shown}, ... {len(items) - SHOWN} more"


# The figures.


class Photo(NamedTuple):
    """One photo read by both readers."""

    path: str
    folder: str
    """The folder as given on the command line, which the times are grouped by."""
    before: Record
    after: Record
    differs: tuple[str, ...] = ()
    """What ``differences`` names; empty when both read the photo the same."""


def times(photos: Sequence[Photo]) -> dict[str, float]:
    """CPU seconds before and after, median and 95th percentile, and the
    median of each photo's time after over its own time before."""
    import numpy as np

    if not photos:
        raise ValueError("no photo to time")
    before = [p.before["seconds"] for p in photos]
    after = [p.after["seconds"] for p in photos]
    ratios = [q / p for p, q in zip(before, after, strict=True) if p > 0]
    return {
        "photos": len(photos),
        "before_median": float(np.median(before)),
        "after_median": float(np.median(after)),
        "before_p95": float(np.percentile(before, 95)),
        "after_p95": float(np.percentile(after, 95)),
        "ratio_median": float(np.median(ratios)) if ratios else float("nan"),
    }


def slowest(photos: Sequence[Photo], n: int = 6) -> list[Photo]:
    """The ``n`` photos slowest before or after, whichever is the slower."""
    return sorted(photos, key=lambda p: -max(p.before["seconds"], p.after["seconds"]))[:n]


def summary(photos: Sequence[Photo], n_slowest: int = 6) -> list[str]:
    """The lines printed last: photos compared and how many differ, each
    folder's times, and the slowest photos."""
    differ = sum(bool(p.differs) for p in photos)
    lines = [f"{len(photos)} photos compared, {differ} differ"]
    folders = dict.fromkeys(p.folder for p in photos)
    for folder in folders:
        t = times([p for p in photos if p.folder == folder])
        lines.append(
            f"{folder}: {t['photos']:.0f} photos, CPU s median {t['before_median']:.3f} -> "
            f"{t['after_median']:.3f}, p95 {t['before_p95']:.3f} -> {t['after_p95']:.3f}; "
            f"each photo's time after over before, median {t['ratio_median']:.3f}"
        )
    if photos:
        lines.append("slowest photos, CPU s before -> after:")
        for p in slowest(photos, n_slowest):
            lines.append(f"  {p.path}: {p.before['seconds']:.2f} -> {p.after['seconds']:.2f}")
    return lines


# The two workers, fed in turn.


class Reader:
    """A worker process (this file, ``--worker``) reading photos with one checkout's reader."""

    def __init__(self, checkout: Path, marks: float | None = None) -> None:
        self.checkout = checkout.resolve()
        env = {**os.environ, "PYTHONPATH": str(self.checkout), **dict.fromkeys(THREADS, "1")}
        marked = [] if marks is None else ["--marks", repr(marks)]
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", *marked],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.referee = Path(self._answer()["referee"])
        if not self.referee.resolve().is_relative_to(self.checkout):
            self.close()
            raise SystemExit(f"{checkout}: the worker imported {self.referee}, not the checkout's referee")

    def read(self, path: Path) -> Record:
        assert self.process.stdin
        self.process.stdin.write(f"{path}\n")
        self.process.stdin.flush()
        return self._answer(path)

    def _answer(self, path: Path | None = None) -> Record:
        assert self.process.stdout
        line = self.process.stdout.readline()
        if not line:
            self.close()
            where = f" on {path}" if path else ""
            raise SystemExit(f"{self.checkout}: the worker stopped{where} (its error is above)")
        answer: Record = json.loads(line)
        return answer

    def close(self) -> None:
        """End the worker: its input closed, it stops once it has answered."""
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe:
                pipe.close()
        self.process.wait()


def photos_of(folders: Sequence[Path]) -> Iterator[tuple[str, Path]]:
    """Each folder's photos, in name order, with the folder as given."""
    for folder in folders:
        for path in sorted(folder.glob("*.jpg")):
            yield str(folder), path


def compare(readers: Sequence[Reader], folders: Sequence[Path]) -> Iterator[Photo]:
    """Each photo read by both readers, one after the other, the first in turn."""
    for n, (folder, path) in enumerate(photos_of(folders)):
        records: list[Record] = [{}, {}]
        for i in (0, 1) if n % 2 == 0 else (1, 0):
            records[i] = readers[i].read(path.resolve())
        yield Photo(str(path), folder, records[0], records[1], tuple(differences(records[0], records[1])))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", type=Path, help="the checkout with the reader before the change")
    ap.add_argument("after", type=Path, help="the checkout with the reader after it")
    ap.add_argument("folders", type=Path, nargs="+", help="folders of NAME.jpg photos beside NAME.json")
    ap.add_argument("--json", type=Path, metavar="FILE", help="keep every photo's two records here")
    ap.add_argument(
        "--marks",
        type=float,
        metavar="ERROR",
        help="read each photo with the corners a player marks, up to ERROR squares off the true ones",
    )
    args = ap.parse_args(argv)
    if args.marks is not None and not 0 <= args.marks < 1:
        ap.error("--marks: a player's marks are from 0 to under 1 square off the true corners")
    readers = [Reader(args.before, args.marks), Reader(args.after, args.marks)]
    photos: list[Photo] = []
    try:
        for who, reader in zip(WHO, readers, strict=True):
            print(f"{who}: {reader.referee}", flush=True)
        if args.marks is not None:
            print(f"each photo read with the corners marked up to {args.marks:g} squares off", flush=True)
        for photo in compare(readers, args.folders):
            photos.append(photo)
            if photo.differs:
                print(f"{photo.path}: {'; '.join(photo.differs)}", flush=True)
    finally:
        for reader in readers:
            reader.close()
    print("\n".join(summary(photos)))
    if args.json:
        kept = {
            **{who: str(r.referee) for who, r in zip(WHO, readers, strict=True)},
            "photos": [p._asdict() for p in photos],
        }
        args.json.write_text(json.dumps(kept) + "\n")
    return 1 if any(p.differs for p in photos) else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker(sys.stdin, sys.stdout, float(sys.argv[3]) if sys.argv[2:3] == ["--marks"] else None)
    else:
        raise SystemExit(main())
