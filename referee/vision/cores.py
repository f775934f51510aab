"""Reading on one core: the numerical libraries' own threads held to one.

NumPy's BLAS (OpenBLAS) and OpenCV each start a thread per core of the
machine and split their larger sums among them. A gunicorn worker, though,
stands for one core (the README's recipe runs about one per core), and at
a season's end a hall's phones send their sheets at once, so every worker
reads at once: each worker's threads then take turns with the other
workers' for the same cores, and OpenBLAS's threads spin while they wait,
burning CPU time the other readings needed. ``flask run`` reads each photo
in its request's thread, beside the other requests', and the same holds
there.

Measured through the README's recipe on a machine of two cores, 8 phones
sending held-out photos to its two workers (``bench/followers_bench.py
--photos FOLDER --readers 8``, figures in the README's "Followers in a
hall"): 1.9 photos answered a second held to one thread, against 1.0 to
1.3 with a thread per core. With one phone sending, so that a worker read
alone with a core to spare, the answers came as quickly either way, the
server using 1.0 cores against 1.4. ``referee/web/offload.py`` holds a
server's reading so before its first photo; the command line, which
reads one photo, is left as it is.
"""

from __future__ import annotations

import functools

import cv2
from threadpoolctl import threadpool_limits


@functools.cache
def on_one_core() -> None:
    """Hold OpenCV and every BLAS library loaded in this process to one
    thread each, for the rest of the process's life; once, since looking up
    the libraries walks every one the process has loaded. A process forked
    after it keeps the limits with the libraries' memory."""
    cv2.setNumThreads(1)
    threadpool_limits(limits=1, user_api="blas")
