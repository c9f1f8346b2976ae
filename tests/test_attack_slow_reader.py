"""A client that asks for an export and reads none of it: the answer waited in the server's memory, and the
task sending it waited with it, for as long as the client kept the connection open (slowloris on the answer).
A send that makes no progress for as long as a body is given now ends the connection; the server still
serves the others."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
import pytest

from engram.interfaces.http import guard
from engram.interfaces.tenants import LOCAL
from tests.live import LiveServer


def _unread(port: int, head: bytes, wait: float) -> tuple[int, int]:
    """Ask, read nothing for `wait` seconds, then read what is left: (the length announced, the bytes read)."""
    with socket.socket() as conn:
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        conn.connect(("127.0.0.1", port))
        conn.sendall(head)
        time.sleep(wait)
        conn.settimeout(30)
        answer = b""
        try:
            while chunk := conn.recv(1 << 20):
                answer += chunk
        except (TimeoutError, ConnectionResetError):
            pass
    top, _, body = answer.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1]) for line in top.split(b"\r\n") if line.lower().startswith(b"content-length")
    )
    return length, len(body)


def test_an_answer_nobody_reads_is_given_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guard, "BODY_SECONDS", 1.0)
    live = LiveServer(tmp_path / "home", require_key=False)
    try:
        mem = live.app.state.tenants.memory(LOCAL)
        mem.remember_many([{"content": f"note {i} on the harbour crane {i}"} for i in range(2500)])
        head = (
            f"GET /v1/export?with_embeddings=true HTTP/1.1\r\nHost: 127.0.0.1:{live.port}\r\n\r\n"
        ).encode()
        announced, read = _unread(live.port, head, wait=6)
        assert announced > 5_000_000 and read < announced, (announced, read)
        with httpx.Client(base_url=live.url, timeout=60) as http:
            whole = http.get("/v1/export", params={"with_embeddings": "true"})
            assert len(whole.content) == announced  # a client that reads gets all of it
    finally:
        live.stop()
