"""An exact index grows into room it already has: no copy of its rows, no peak of two buffers at once."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from engram.store import room
from engram.store.vectors import EXACT_MAX, ExactRows, VectorIndex

DIM = 384
linux = pytest.mark.skipif(sys.platform != "linux", reason="reads the resident set from /proc")


def _status(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(field)


def _rows(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32)


def test_growing_keeps_the_buffer_in_place() -> None:
    rows = ExactRows(DIM)
    rows.upsert(np.arange(1000, dtype=np.uint64), _rows(1000, 1))
    at = rows._matrix.ctypes.data
    for start in range(1000, 12_000, 1000):
        rows.upsert(np.arange(start, start + 1000, dtype=np.uint64), _rows(1000, start))
    assert rows._matrix.ctypes.data == at
    assert len(rows) == 12_000


def test_room_past_the_limit_still_takes_every_row() -> None:
    rows = ExactRows(4)
    many = EXACT_MAX + 10
    rows.upsert(np.arange(many, dtype=np.uint64), np.ones((many, 4), dtype=np.float32))
    assert len(rows) == many and len(rows._keys) >= many
    keys, vecs = rows.all()
    assert np.array_equal(keys, np.arange(many, dtype=np.uint64)) and np.allclose(vecs, 0.5)


def test_grown_answers_as_a_scan_of_the_same_rows() -> None:
    index = VectorIndex(DIM)
    data = _rows(11_000, 7)
    for start in range(0, 11_000, 2500):
        index.upsert(list(range(start, min(start + 2500, 11_000))), data[start : start + 2500])
    unit = data / np.linalg.norm(data, axis=1, keepdims=True)
    for q in _rows(5, 99):
        found = index.search(q, 10)
        best = np.argsort(-(unit @ (q / np.linalg.norm(q))), kind="stable")[:10]
        assert [key for key, _ in found] == best.tolist()


@linux
def test_room_takes_memory_only_as_rows_fill_it() -> None:
    before = _status("VmRSS")
    buffer = room.zeros((EXACT_MAX, DIM), np.float32)  # 30.7 MB of room
    assert _status("VmRSS") - before < 2
    buffer[:1000] = 1.0  # 1.5 MB of rows
    assert _status("VmRSS") - before < 4
    assert not buffer[1000:].any()


@linux
def test_growth_past_the_loaded_rows_adds_no_peak() -> None:
    rows = ExactRows(DIM)
    for start in range(0, 10_240, 4096):  # as a store's index loads: batches of 4,096
        n = min(4096, 10_240 - start)
        rows.upsert(np.arange(start, start + n, dtype=np.uint64), _rows(n, start))
    extra = _rows(300, 3)
    try:
        Path("/proc/self/clear_refs").write_text("5")  # the peak (VmHWM) starts again from here
    except OSError:
        pytest.skip("cannot reset this process's peak")
    before = _status("VmHWM")
    rows.upsert(np.arange(10_240, 10_540, dtype=np.uint64), extra)
    # Copying 10,240 rows and their codes into a larger buffer held both for a moment (about 24 MB more).
    assert _status("VmHWM") - before < 4
