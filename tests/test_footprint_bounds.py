"""What bounds a serving process's memory: no memory map of the database per reading connection, glibc's
arenas capped, and a bounded pool of worker threads."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import anyio.to_thread
import pytest
from fastapi.testclient import TestClient

from engram import FakeEmbedder, Settings
from engram.interfaces.http.heap import WORKERS
from engram.interfaces.http.serve import build_app
from engram.store.sqlite.store import SQLiteStore
from engram.store.values import Filter

LINUX = pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc")


@LINUX
def test_reading_threads_do_not_map_the_database(tmp_path: Path) -> None:
    db = tmp_path / "reads.db"
    store = SQLiteStore(db)
    try:
        counted: list[int] = []
        readers = [threading.Thread(target=lambda: counted.append(store.count(Filter()))) for _ in range(4)]
        for t in readers:
            t.start()
        for t in readers:
            t.join()
        assert counted == [0, 0, 0, 0]  # each thread read on its own connection
        mapped = [line.split()[-1] for line in Path("/proc/self/maps").read_text().splitlines()]
    finally:
        store.close()
    # A mapped database counts in the resident set once per connection that maps it (the WAL index, -shm, is
    # SQLite's shared memory and stays).
    assert str(db.resolve()) not in mapped
    assert f"{db.resolve()}-shm" in mapped


_ARENAS = """
import ctypes, sys, threading
from engram.interfaces.http.heap import limit_arenas
took = limit_arenas() if sys.argv[1] == "capped" else False
libc = ctypes.CDLL("libc.so.6")
libc.malloc.restype = ctypes.c_void_p
start, done = threading.Barrier(8), threading.Barrier(8)

def allocate():
    start.wait()
    held = [libc.malloc(256) for _ in range(200)]
    done.wait()  # every thread holds its allocations at once

threads = [threading.Thread(target=allocate) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
libc.malloc_stats()  # one "Arena N:" block per arena, on stderr
print(took)
"""


@LINUX
@pytest.mark.parametrize("mode", ["capped", "default"])
def test_a_serving_process_caps_glibcs_arenas(mode: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    done = subprocess.run(
        [sys.executable, "-c", _ARENAS, mode], capture_output=True, text=True, env=env, timeout=60, check=True
    )
    arenas = done.stderr.count("Arena ")
    if mode == "capped":
        assert done.stdout.strip() == "True"
        assert 1 <= arenas <= 2
    else:  # what the cap prevents: a thread's first allocation takes an arena of its own
        assert arenas > 2


def test_the_cap_leaves_a_chosen_malloc_arena_max(monkeypatch: pytest.MonkeyPatch) -> None:
    from engram.interfaces.http.heap import limit_arenas

    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert limit_arenas() is False


def test_the_server_bounds_its_worker_threads(tmp_path: Path) -> None:
    app = build_app(
        Settings(home=tmp_path, maintain_every_minutes=0),
        db=tmp_path / "local.db",
        embedder=FakeEmbedder(),
        require_key=False,
    )

    async def tokens() -> float:
        return anyio.to_thread.current_default_thread_limiter().total_tokens

    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        assert client.portal is not None
        assert client.portal.call(tokens) == WORKERS < 40  # anyio's default
