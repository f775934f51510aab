"""A long computation runs beside a gevent worker's loop, not on it
(``referee.web.offload``); elsewhere, where it is called."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from referee.web.offload import off_the_loop, under_gevent

ROOT = Path(__file__).resolve().parents[2]

UNDER_GEVENT = """
from gevent import monkey
monkey.patch_all()
import gevent
from referee.web.offload import off_the_loop, under_gevent

assert under_gevent()
ticks = []


def tick():
    while True:
        ticks.append(1)
        gevent.sleep(0.001)


gevent.spawn(tick)
gevent.sleep(0)


def busy():
    # Pure Python that never waits: the loop's greenlets run meanwhile only
    # if this runs in a thread of its own. Bounded, so a wrong answer ends.
    start, n = len(ticks), 0
    while len(ticks) < start + 20 and n < 30_000_000:
        n += 1
    return len(ticks) - start


print(off_the_loop(busy))
try:
    off_the_loop(int, "not a number")
except ValueError as error:
    print("raised", error)


def refuse():
    photo = bytearray(1_000_000)  # what a refused read's frames hold
    raise ValueError(len(photo))


try:
    off_the_loop(refuse)
except ValueError as error:
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    # the traceback still says where, for the log, but holds no variables
    print(tb.tb_frame.f_code.co_name, sorted(tb.tb_frame.f_locals))
"""


def test_under_gevent_the_loop_runs_while_it_computes() -> None:
    run = subprocess.run(
        [sys.executable, "-c", UNDER_GEVENT], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    seen, raised, refused = run.stdout.splitlines()
    assert int(seen) >= 20  # the ticking greenlet went on while ``busy`` computed
    assert raised == "raised invalid literal for int() with base 10: 'not a number'"
    assert refused == "refuse []"  # the refused photo's frames let go of it
    assert run.stderr == ""  # an exception handed back, not printed by gevent's thread


def test_elsewhere_it_runs_where_it_is_called() -> None:
    assert not under_gevent()
    assert off_the_loop(threading.get_ident) == threading.get_ident()
    assert off_the_loop(lambda a, b=0: a + b, 2, b=3) == 5
    with pytest.raises(ValueError):
        off_the_loop(int, "x")


PATIENCE = """
from gevent import monkey
monkey.patch_all()
import time
import gevent
from referee.web.offload import ReaderBusy, off_the_loop


def read(seconds):
    # a photo's reading: computes without waiting, for ``seconds``
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return "read"


answers = {}


def send(name, patience):
    try:
        answers[name] = off_the_loop(read, 0.6, patience=patience)
    except ReaderBusy as busy:
        answers[name] = f"busy {busy.waited:.1f}"


gevent.joinall(
    [
        gevent.spawn(send, "first", 0.2),  # the thread is free: read at once
        gevent.spawn(send, "second", 0.2),  # its turn after 0.6 s: too late
        gevent.spawn(send, "third", None),  # no patience: waits its turn
        gevent.spawn(send, "fourth", 5.0),  # its turn after 1.2 s: in time
    ]
)
for name in ("first", "second", "third", "fourth"):
    print(name, answers[name])
"""


def test_a_photo_that_waited_past_its_patience_is_not_read() -> None:
    """Four photos sent at once to one worker: the first is read, the second
    waited for it longer than its patience and is refused unread, and those
    after it wait only for the photos read."""
    run = subprocess.run(
        [sys.executable, "-c", PATIENCE], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    first, second, third, fourth = (line.split(" ", 1)[1] for line in run.stdout.splitlines())
    assert (first, third, fourth) == ("read", "read", "read")
    assert second.startswith("busy ") and 0.5 <= float(second.split()[1]) < 1.2
    assert run.stderr == ""


def test_outside_gevent_nothing_waits_so_patience_changes_nothing() -> None:
    assert not under_gevent()
    assert off_the_loop(sorted, [3, 1, 2], patience=0.0) == [1, 2, 3]


ONE_CORE = """
import sys
if sys.argv[1] == "gevent":
    from gevent import monkey
    monkey.patch_all()
import cv2
import numpy
from threadpoolctl import threadpool_info, threadpool_limits
from referee.web.offload import off_the_loop, under_gevent

assert under_gevent() == (sys.argv[1] == "gevent")
numpy.ones((64, 64)) @ numpy.ones((64, 64))  # BLAS loaded
cv2.setNumThreads(4)  # a thread per core, on a machine of four
threadpool_limits(limits=4, user_api="blas")


def threads():
    blas = {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}
    return cv2.getNumThreads(), sorted(blas)


print(threads(), off_the_loop(threads))
"""


@pytest.mark.parametrize("server", ["gevent", "threads"])
def test_a_server_reads_each_photo_on_one_core(server: str) -> None:
    """A gunicorn worker stands for one core, and ``flask run`` reads each
    request's photo in the request's thread beside the others': OpenCV and
    the BLAS libraries compute on one thread each, not on a thread per
    core that the other readings need too (``referee.vision.cores``)."""
    run = subprocess.run(
        [sys.executable, "-c", ONE_CORE, server], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "(4, [4]) (1, [1])"
