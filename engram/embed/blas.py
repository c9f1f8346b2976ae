"""How many threads numpy's BLAS may use.

Engram's matrix products are small (a query against a few hundred candidates, a vector against the tag
vocabulary or the prototypes) and bound by memory, not arithmetic. A multi-threaded BLAS pool gains nothing on
them, and after each product its idle threads spin on a core for a while: the model, which runs next, then
shares that core, and store_memory slows down (see docs/design/embeddings.md). The limit is process-wide (BLAS
has no other kind); `ENGRAM_BLAS_THREADS=0` leaves it.
"""

from __future__ import annotations

import threading

from threadpoolctl import threadpool_info, threadpool_limits

_lock = threading.Lock()


def limit_blas(threads: int) -> None:
    """Cap every BLAS loaded in the process at `threads` (0: leave them as they are). Checked at each call:
    faiss brings an OpenMP build of OpenBLAS, whose limit holds only on the thread that set it."""
    if threads == 0:
        return
    with _lock:
        if any(p["user_api"] == "blas" and p["num_threads"] != threads for p in threadpool_info()):
            threadpool_limits(limits=threads, user_api="blas")
