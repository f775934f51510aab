"""Reading on one core: the numerical libraries' own threads held to one.

NumPy's BLAS (OpenBLAS) and OpenCV each start a thread per core of the
machine and split their larger sums among them. For one photo read alone on
an idle machine that helps a little. A gunicorn worker, though, stands for
one core (the README's recipe runs about one per core), and at a season's
end a hall's phones send their sheets at once, so every worker reads at
once: each worker's threads then take turns with the other workers' for
the same cores, and OpenBLAS's threads spin while they wait, burning CPU
time the other readings needed.

Measured through the README's recipe on a machine of two cores, 8 phones
sending held-out photos to its two workers (``bench/followers_bench.py
--photos FOLDER --readers 8``, figures in the README's "Followers in a
hall"): 1.85 photos answered a second held to one thread, against 1.29
with a thread per core. Alone on an idle machine a photo reads some 14 %
faster with the second thread, which is why only a server's worker is held
(``referee/web/offload.py``), and the command line and ``flask run`` are
not.
"""

from __future__ import annotations

import cv2
from threadpoolctl import threadpool_limits


def on_one_core() -> None:
    """Hold OpenCV and every BLAS library loaded in this process to one
    thread each, for the rest of the process's life."""
    cv2.setNumThreads(1)
    threadpool_limits(limits=1, user_api="blas")
