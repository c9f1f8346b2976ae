"""Slowloris on an upload: /v1/import streams its file to disk and only refused a pause as long as the time a
body is given, so a client sending one byte just inside that time held its connection, its task and a
temporary file for as long as it liked (256 MB at a byte a second is eight years). Past that time an upload
must now keep up half the rate a request body is given; one that trickles is answered 408 and closed, and
the server still serves the others."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
import pytest

from engram.interfaces.http import guard
from tests.live import LiveServer


def _trickle(port: int, head: bytes, gap: float, longest: float) -> bytes:
    """Send a byte every `gap` seconds (never a pause the server refuses) for at most `longest` seconds; what
    the server answered, if it answered."""
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(head)
        conn.settimeout(gap)
        answer = b""
        ends = time.monotonic() + longest
        while time.monotonic() < ends:
            try:
                conn.sendall(b"x")
                answer += conn.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                break
            if b"\r\n\r\n" in answer:  # answered: the rest of the answer, until the server closes
                conn.settimeout(30)
                while chunk := conn.recv(65536):
                    answer += chunk
                break
        return answer


def test_an_upload_sent_a_byte_at_a_time_is_answered_and_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guard, "BODY_SECONDS", 1.0)
    live = LiveServer(tmp_path / "home", require_key=False)
    try:
        head = (
            f"POST /v1/import HTTP/1.1\r\nHost: 127.0.0.1:{live.port}\r\n"
            "Content-Type: application/x-ndjson\r\nContent-Length: 1000000\r\n\r\n"
        ).encode()
        answer = _trickle(live.port, head, gap=0.3, longest=30)
        assert answer.startswith(b"HTTP/1.1 408"), answer[:300]
        assert b'"field":"body"' in answer
        with httpx.Client(base_url=live.url, timeout=60) as http:
            assert http.get("/v1/tools").status_code == 200
    finally:
        live.stop()
