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
