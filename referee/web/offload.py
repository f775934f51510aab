"""Long computations off a gevent worker's loop, so its other pages go on.

Under the README's recipe (gunicorn ``-k gevent``) one process serves every
page it holds from one loop: a follower's event stream, a tap, a sheet. Code
that computes without waiting holds that loop, and reading a photo computes
for about half a second, but for some photos (squared paper or a checked
cloth with no sheet on it, which offer lattices everywhere) for 10 s and
more. Meanwhile none of the worker's pages moved, a reveal reached none of
its followers, and the worker could not tell gunicorn it was alive: a read
longer than gunicorn's ``--timeout`` (30 s) got the worker killed, every
page it held dropped and the player's photo answered by a broken connection.

``off_the_loop`` runs such a computation in an operating-system thread of
the worker's own, through gevent's thread pool, and lets the loop serve the
other pages meanwhile. NumPy and OpenCV let go of Python's lock while they
compute, and Python hands it back and forth between threads every few
milliseconds, so the loop keeps answering. The pool has one thread: photos
are read one at a time per worker, as before, each with the core the worker
stands for (``-w`` is about one per core) and with no more memory than one
read takes; a photo sent while another is read waits its turn, and its
page waits with it, but no other page does.

A photo waits its turn for so long only (``patience``, the app's
``PHOTO_WAIT``). When a hall's phones all send their sheets at a season's
end, a worker's queue can hold minutes of reading, and a phone left
waiting that long sees a page that never answers, or the proxy in front
gives up on it (nginx after 60 s). A photo that waited past its patience
is not read at all: ``ReaderBusy`` tells the player to send it again in a
moment, the queue empties at once of those that waited too long, and the
photos after them wait no longer for them.

Outside a gevent worker (``flask run``'s threads, the test client, a sync
worker) the computation runs where it is called: there a request already
has a thread of its own, and nothing waits in a queue.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from referee.vision.cores import on_one_core

T = TypeVar("T")

_pool: Any = None
"""This process's one-thread pool, made at its first use (after gunicorn forks)."""
_pool_pid = 0


def under_gevent() -> bool:
    """Whether gevent has patched ``threading`` in this process (a gunicorn gevent worker)."""
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey is not None and monkey.is_module_patched("threading"))


class ReaderBusy(Exception):
    """The computation waited longer than its patience for the worker's
    reading thread, and was not run."""

    def __init__(self, waited: float) -> None:
        super().__init__(f"waited {waited:.1f} s for the reading thread")
        self.waited = waited


def off_the_loop(compute: Callable[..., T], *args: Any, patience: float | None = None, **kwargs: Any) -> T:
    """``compute(*args, **kwargs)``, in this worker's reading thread under
    gevent and right here otherwise; whatever it raises is raised here.
    With ``patience``, ``ReaderBusy`` instead when it has waited more than
    that many seconds for the thread when its turn comes. Either way the
    computation runs on one core (``cores.on_one_core``): a server reads
    its photos one to a worker, or one to a request's thread, each beside
    the others."""
    on_one_core()
    if not under_gevent():
        return compute(*args, **kwargs)
    queued = time.monotonic()
    done, outcome = _thread_pool().apply(_caught, (compute, args, kwargs, queued, patience))
    if not done:
        raise outcome
    result: T = outcome
    return result


def _caught(
    compute: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    queued: float = 0.0,
    patience: float | None = None,
) -> tuple[bool, Any]:
    """``(True, result)``, or ``(False, the exception)``: handed back to be
    raised in the request, since gevent would print a traceback for an
    exception raised in its thread (a photo with no grid is no fault).

    The exception keeps its traceback, for the log, but not its frames'
    variables: the pool's thread holds its last answer until the next task,
    and a refused photo's frames hold the decoded photo and every picture
    made from it. Kept, they left a worker that had read 30 sample photos
    holding 488 MB, against 190 MB for the same reads on its loop; let go
    of, 206 MB. ``(False, ReaderBusy)`` without computing when it was
    ``queued`` (``time.monotonic``) more than ``patience`` seconds ago."""
    waited = time.monotonic() - queued
    if patience is not None and waited > patience:
        return False, ReaderBusy(waited)
    try:
        return True, compute(*args, **kwargs)
    except Exception as error:
        traceback.clear_frames(error.__traceback__)
        return False, error


def _thread_pool() -> Any:
    """This worker's reading thread, made at its first use."""
    global _pool, _pool_pid
    if _pool is None or _pool_pid != os.getpid():
        from gevent.threadpool import ThreadPool

        _pool, _pool_pid = ThreadPool(1), os.getpid()
    return _pool
