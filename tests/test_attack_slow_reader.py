"""A client that asks for an export and reads none of it: the answer waited in the server's memory, and the
task sending it waited with it, for as long as the client kept the connection open (slowloris on the answer).
A send that makes no progress for as long as a body is given now ends the answer; the server still serves the
others. Ending the answer was not letting the connection go: the server asked to close it once what it had
buffered was sent, which a client that never reads never lets happen, so the socket, its buffers and a file
descriptor were held for as long as that client liked. A connection that cannot write for as long as a head is
given is now dropped at once."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
import pytest

from engram.interfaces.http import guard, pacing
from engram.interfaces.tenants import LOCAL
from tests.live import LiveServer


def _held(live: LiveServer) -> int:
    """How many connections the server still holds."""
    return len(live.server.server_state.connections)


def _rest(conn: socket.socket) -> bytes:
    """What the client can still read on `conn` once it starts reading."""
    conn.settimeout(30)
    answer = b""
    try:
        while chunk := conn.recv(1 << 20):
            answer += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return answer


def test_an_answer_nobody_reads_is_given_up_and_its_connection_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guard, "BODY_SECONDS", 1.0)
    monkeypatch.setattr(pacing, "HEAD_SECONDS", 1.0)
    live = LiveServer(tmp_path / "home", require_key=False)
    try:
        mem = live.app.state.tenants.memory(LOCAL)
        mem.remember_many([{"content": f"note {i} on the harbour crane {i}"} for i in range(2500)])
        head = (
            f"GET /v1/export?with_embeddings=true HTTP/1.1\r\nHost: 127.0.0.1:{live.port}\r\n\r\n"
        ).encode()
        with socket.socket() as conn:
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            conn.connect(("127.0.0.1", live.port))
            conn.sendall(head)
            time.sleep(1)
            deadline = time.monotonic() + 15  # far beyond the seconds given, so a busy machine passes
            while _held(live) and time.monotonic() < deadline:
                time.sleep(0.2)
            assert _held(live) == 0, "the server still holds a connection whose client reads nothing"
            top, _, body = _rest(conn).partition(b"\r\n\r\n")
        announced = next(
            int(line.split(b":")[1])
            for line in top.split(b"\r\n")
            if line.lower().startswith(b"content-length")
        )
        assert announced > 5_000_000 and len(body) < announced, (announced, len(body))
        with httpx.Client(base_url=live.url, timeout=60) as http:
            whole = http.get("/v1/export", params={"with_embeddings": "true"})
            assert len(whole.content) == announced  # a client that reads gets all of it
    finally:
        live.stop()
