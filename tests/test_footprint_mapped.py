"""A serving process gives blocks of a megabyte or more pages of their own, unmapped when freed. glibc's own
threshold rises to the largest block freed so far, after which such blocks (the model's activations, the vector
index's buffers) came from the heap and their pages stayed with the process once freed."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

CODE = """
import ctypes, sys
import numpy as np
from engram.interfaces.http.heap import limit_arenas

if sys.argv[1] != "default":
    limit_arenas()
class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]
libc = ctypes.CDLL("libc.so.6")
libc.mallinfo2.restype = Info
large = np.ones(20 << 20, np.uint8)
del large  # glibc's own threshold is now 20 MB
before = libc.mallinfo2().hblkhd
block = np.ones(4 << 20, np.uint8)
print(libc.mallinfo2().hblkhd - before >= 4 << 20)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
@pytest.mark.parametrize(("mode", "mapped"), [("default", "False"), ("serving", "True"), ("chosen", "False")])
def test_a_serving_process_maps_large_blocks_on_their_own(mode: str, mapped: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_MMAP_THRESHOLD_"}
    if mode == "chosen":  # whoever runs the server has chosen a threshold: it stays
        env["MALLOC_MMAP_THRESHOLD_"] = str(32 << 20)
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(CODE), mode],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=env,
    )
    assert done.stdout.split() == [mapped]
