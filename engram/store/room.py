"""Room for an exact index's rows: zeroed buffers whose pages the kernel maps only when a row is first written.

A buffer grown by copying holds the old rows and the new buffer at once (a 10k index's rows and codes, about 20 MB,
twice over for a moment) and keeps the room it grew into resident. A buffer made once with room for every row
an exact index may hold costs only the pages its rows fill, and growing within it copies nothing.
"""

from __future__ import annotations

import mmap
import sys
from typing import Any

import numpy as np
import numpy.typing as npt

# Anonymous private pages, committed only as they are written (Linux, macOS); elsewhere numpy's zeros.
_LAZY = sys.platform != "win32" and hasattr(mmap, "MAP_ANONYMOUS") and hasattr(mmap, "MAP_PRIVATE")
_FLAGS = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | getattr(mmap, "MAP_NORESERVE", 0) if _LAZY else 0


def zeros(shape: tuple[int, ...], dtype: npt.DTypeLike) -> npt.NDArray[Any]:
    """A zeroed, writable, C-contiguous array whose pages take memory only once written."""
    kind = np.dtype(dtype)
    size = int(np.prod(shape, dtype=np.int64)) * kind.itemsize
    if not _LAZY or size == 0:
        return np.zeros(shape, dtype=kind)
    pages = mmap.mmap(-1, size, flags=_FLAGS)  # unmapped when the last array over it is collected
    return np.frombuffer(pages, dtype=kind).reshape(shape)


def grown(arr: npt.NDArray[Any], rows: int) -> npt.NDArray[Any]:
    """`arr` in a lazily mapped buffer of `rows` rows (at least its own), its rows copied."""
    out = zeros((max(rows, len(arr)), *arr.shape[1:]), arr.dtype)
    out[: len(arr)] = arr
    return out
