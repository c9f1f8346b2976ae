"""The process's C heap (glibc only; elsewhere nothing happens): hand its free pages back to the system, and cap
its arenas. The model's activations and a loaded index's rows are freed in bursts that glibc otherwise keeps
mapped in case they are asked for again."""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache
from typing import Any

_M_ARENA_MAX = -8  # mallopt's parameter numbers (malloc.h)
_M_MMAP_THRESHOLD = -3


@cache
def _glibc() -> Any:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None


def give_back() -> None:
    """Hand the C heap's free pages back to the system."""
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)


def cap_arenas(arenas: int) -> bool:
    """At most `arenas` arenas for this process; whether it took."""
    libc = _glibc()
    return libc is not None and bool(libc.mallopt(_M_ARENA_MAX, arenas))


def map_from(size: int) -> bool:
    """Allocations of `size` bytes or more get pages of their own, returned to the system when freed; whether it
    took. glibc's own threshold rises to the largest block freed so far (up to 32 MB), after which such blocks
    come from the heap and their pages stay with the process once freed."""
    libc = _glibc()
    return libc is not None and bool(libc.mallopt(_M_MMAP_THRESHOLD, size))
