"""How many threads numpy's BLAS may use.

Engram's matrix products are small (a query against a few hundred candidates, a vector against the tag
vocabulary or the prototypes) and bound by memory, not arithmetic. A multi-threaded BLAS pool gains nothing on
them, and after each product its idle threads spin on a core for a while: the model, which runs next, then
shares that core. With one BLAS thread, store_memory went from 40 to 31 ms p50 at 10k memories (same process
state, one run). The limit is process-wide (BLAS has no other kind); `ENGRAM_BLAS_THREADS=0` leaves it.
"""

from __future__ import annotations

import threading

from threadpoolctl import threadpool_limits

_lock = threading.Lock()
_applied: int | None = None


def limit_blas(threads: int) -> None:
    """Cap numpy's BLAS at `threads` once per process (0: leave it as it is)."""
    global _applied
    if threads == 0:
        return
    with _lock:
        if _applied != threads:
            threadpool_limits(limits=threads, user_api="blas")
            _applied = threads
