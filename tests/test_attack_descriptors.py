"""Every descriptor taken: slow clients hold one each for the 30 s they are given, and once a server has none
left asyncio logged each refused accept with its traceback, up to the backlog (2,048) every second: 11 MB of log
in 50 s. `engram serve` now keeps one such line a minute, and raises its soft limit on open files to the hard
one, so it takes far more clients to get there."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from engram.interfaces.http.descriptors import most_descriptors
from tests.live import free_port

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no RLIMIT_NOFILE")

FEW = 200  # enough for the server to start, far fewer than the clients below


def _few_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FEW, FEW))


def test_a_server_out_of_descriptors_logs_it_once(tmp_path: Path) -> None:
    port = free_port()
    env = os.environ | {"ENGRAM_HOME": str(tmp_path / "home")}
    command = [sys.executable, "-m", "engram", "--db", str(tmp_path / "s.db"), "serve", "--local"]
    proc = subprocess.Popen(
        [*command, "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=_few_files,
    )
    held: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 120
        while True:
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=30).status_code == 200:
                    break
            assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        for _ in range(FEW + 100):  # more than the server can accept: the rest wait in its backlog
            held.append(socket.create_connection(("127.0.0.1", port)))
        time.sleep(4)  # asyncio retries the accept every second
    finally:
        for conn in held:
            conn.close()
        proc.send_signal(signal.SIGTERM)
        try:
            _, stderr = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, stderr = proc.communicate()
    logged = stderr.decode(errors="replace").count("out of system resource")
    assert 1 <= logged <= 2, f"{logged} lines of refused accepts"


def test_the_soft_limit_on_open_files_is_raised_to_the_hard_one() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, hard), hard))
        now = most_descriptors()
        assert now == resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert now == min(hard, 1 << 20) or hard == resource.RLIM_INFINITY
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
