"""A serving process's C heap and worker threads, bounded at start.

glibc gives each thread that allocates while another holds the heap's lock an arena of its own (up to 8 per
core), and memory freed in one arena serves only the threads on it: a server whose request threads, reader
threads and model threads allocate side by side holds each arena's high-water mark at once. Two arenas keep the
freed memory shared; the heap's lock is held only for the allocation itself, and Python's own small objects never
take it (they come from its pools, under the interpreter's lock).

Every worker thread of the server reads on its own SQLite connection (with its page cache) and stack, so the
pool that runs blocking calls (REST endpoints, MCP tools, static files) is bounded too: on a small machine a few
threads keep every core busy, and a request beyond them waits its turn instead of adding a thread.
"""

from __future__ import annotations

import os

from engram.model import heap

ARENAS = 2
# A block this large or larger (the model's activations, the vector index's buffers and the room they grow into)
# is mapped on its own and unmapped when freed: glibc's own threshold rises with the largest block freed, after
# which they come from the heap and a server kept their pages as free heap memory.
MAPPED_FROM = 1 << 20
# Blocking calls at once: twice the cores (a call may wait on the disk or the write lock), at least 4.
WORKERS = max(4, 2 * len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 4)


def limit_arenas(arenas: int = ARENAS, mapped_from: int = MAPPED_FROM) -> bool:
    """Cap glibc's arenas for this process and give blocks of `mapped_from` bytes or more pages of their own
    (elsewhere nothing happens); whether the cap took. `MALLOC_ARENA_MAX` and `MALLOC_MMAP_THRESHOLD_` in the
    environment win: whoever runs the server has chosen."""
    if "MALLOC_MMAP_THRESHOLD_" not in os.environ:
        heap.map_from(mapped_from)
    return "MALLOC_ARENA_MAX" not in os.environ and heap.cap_arenas(arenas)


def limit_workers(workers: int = WORKERS) -> None:
    """Bound the thread pool that runs blocking calls in this event loop (anyio's default is 40 threads)."""
    import anyio.to_thread

    anyio.to_thread.current_default_thread_limiter().total_tokens = workers


__all__ = ["ARENAS", "MAPPED_FROM", "WORKERS", "limit_arenas", "limit_workers"]
