"""The pages of a model file that onnxruntime maps in place (the int8 word-embedding table), handed back after each
batch (Linux; elsewhere nothing happens).

A text reads a few rows of the table, but each page it touches brings its neighbours in with it (the kernel maps up
to 16 pages around a fault), so after a few hundred texts nearly the whole table counts in the process's resident
set, and stays there. The pages are clean copies of the file: `MADV_DONTNEED` unmaps them from this process, the
kernel's file cache keeps them, and the next text that needs a row maps its page again from that cache (a minor
fault, no read from disk). onnxruntime never writes to these pages (its mapping holds no private copy of one after
embedding), so what the next read sees is the file's bytes, as before.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import mmap
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

# Smaller mappings (a layer's biases) are not worth a system call after every batch.
MIN_BYTES = 1 << 20

Range = tuple[int, int]


def mappings(path: Path, proc: Path = Path("/proc/self/maps")) -> set[Range]:
    """(start, length) of this process's mappings of `path`, at least MIN_BYTES long."""
    try:
        lines = proc.read_text().splitlines()
    except OSError:
        return set()
    found = set()
    for line in lines:
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and fields[5] == str(path):
            start, end = (int(x, 16) for x in fields[0].split("-"))
            if end - start >= MIN_BYTES:
                found.add((start, end - start))
    return found


@cache
def _madvise() -> Any:
    if not sys.platform.startswith("linux") or not hasattr(mmap, "MADV_DONTNEED"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None
    madvise = libc.madvise
    madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    madvise.restype = ctypes.c_int
    return madvise


class MappedFile:
    """The mappings of one file that sessions loaded while it watched (`loading`), and `drop()` to unmap their
    pages. Only ranges that appeared during a load it watched are touched: they stay mapped for as long as the
    session that made them, which its owner keeps."""

    def __init__(self, path: Path) -> None:
        self.path = path.resolve()  # as /proc names it
        self.ranges: set[Range] = set()

    def loading(self, before: Iterable[Range]) -> None:
        """Record the ranges of the file mapped since `before` (its mappings before a session loaded)."""
        # A new set, not one changed in place: another thread may be dropping the old one's ranges.
        self.ranges = self.ranges | (mappings(self.path) - set(before))

    def drop(self) -> int:
        """Unmap the resident pages of the recorded ranges (they come back from the file cache when read);
        how many ranges were dropped."""
        madvise = _madvise()
        if madvise is None:
            return 0
        return sum(madvise(start, length, mmap.MADV_DONTNEED) == 0 for start, length in self.ranges)


__all__ = ["MIN_BYTES", "MappedFile", "mappings"]
