"""`engram mcp` over stdio answers every line it cannot serve with a JSON-RPC error, at once, and goes on serving:
malformed JSON, nesting past what a validator follows, a lone surrogate, an integer of thousands of digits, invalid
UTF-8 (refused, never stored as U+FFFD). A real server process, as an agent runs it."""

from __future__ import annotations

import json
import queue
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from engram.interfaces.mcp.stdio import MAX_DEPTH, Refused, checked

STARTUP_S = 600  # the first answer waits for the model to load (slow on a busy machine)
ANSWER_S = 10  # generous: the check itself takes microseconds


class Server:
    def __init__(self, db: Path, home: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "engram", "--db", str(db), "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={"ENGRAM_HOME": str(home), "PATH": "/usr/bin:/bin"},
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def close(self) -> None:
        """End the session as a client does (closing stdin) and wait for the server to exit."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=STARTUP_S)
        self._reader.join(timeout=ANSWER_S)
        self.proc.stdout.close()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def send(self, raw: bytes, timeout: float = ANSWER_S) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()
        try:
            answer: dict[str, Any] = json.loads(self.lines.get(timeout=timeout))
        except queue.Empty:
            pytest.fail(f"no answer within {timeout} s to {raw[:80]!r}")
        return answer

    def initialize(self) -> None:
        """The handshake every session opens with (answered once the model has loaded)."""
        init = {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        }
        assert "result" in self.send(request(1, "initialize", init), timeout=STARTUP_S)
        self.notify({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def notify(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()


def request(request_id: int, method: str, params: dict[str, Any] | None = None) -> bytes:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        body["params"] = params
    return json.dumps(body).encode()


def remember(request_id: int, content: str) -> bytes:
    return request(request_id, "tools/call", {"name": "remember", "arguments": {"content": content}})


BAD = {
    "malformed JSON": b'{"jsonrpc": "2.0", "id": 7, "method": "tools/list"',
    "not JSON at all": b"hello there",
    "nesting 300 deep": b'{"jsonrpc": "2.0", "id": 8, "method": "ping", "params": {"a": '
    + b"[" * 300
    + b"]" * 300
    + b"}}",
    "a lone surrogate": remember(9, "x").replace(b'"x"', b'"\\ud800 alone"'),
    "a 5,000-digit integer": b'{"jsonrpc": "2.0", "id": 10, "method": "ping", "params": {"n": '
    + b"9" * 5000
    + b"}}",
    "a 1,000-digit integer": b'{"jsonrpc": "2.0", "id": 11, "method": "ping", "params": {"n": '
    + b"9" * 1000
    + b"}}",
    "invalid UTF-8": remember(12, "caf-").replace(b"caf-", b"caf\xe9 au lait"),
    "not a JSON-RPC message": b'{"hello": "world"}',
    "an array of numbers": b"[1, 2, 3]",
    # A method or an id of 50,000 characters: the SDK answers "Method not found" quoting the method whole, and
    # every answer repeats the id.
    "a 50,000-character method": request(13, "x" * 50_000),
    "a 50,000-character id": b'{"jsonrpc": "2.0", "id": "' + b"x" * 50_000 + b'", "method": "ping"}',
    "arguments that are a list": request(14, "tools/call", {"name": "recall", "arguments": [1, 2]}),
    "arguments that are text": request(15, "tools/call", {"name": "recall", "arguments": "q"}),
}


def test_every_bad_line_gets_an_error_and_the_server_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "stdio.db"
    server = Server(db, tmp_path / "home")
    try:
        server.initialize()
        for name, raw in BAD.items():
            answer = server.send(raw)
            assert "error" in answer and answer["error"]["code"] in (-32700, -32600, -32602), name
        # the ids that could be read are answered with their id
        assert server.send(BAD["a lone surrogate"])["id"] == 9
        # the first write loads the classifiers: as slow as the start on a busy machine
        stored = server.send(remember(20, "the garage code changed to 4421"), timeout=STARTUP_S)
        assert "result" in stored and not stored["result"].get("isError"), stored
        assert server.send(request(21, "ping"))["result"] == {}
    finally:
        server.close()
    with sqlite3.connect(db) as conn:
        contents = [c for (c,) in conn.execute("SELECT content FROM memories WHERE parent_id IS NULL")]
    assert contents == ["the garage code changed to 4421"]  # nothing of the refused lines, no U+FFFD


@pytest.mark.parametrize("raw", list(BAD.values()), ids=list(BAD))
def test_the_line_check_refuses_each_bad_line(raw: bytes) -> None:
    with pytest.raises(Refused):
        checked(raw)


def test_the_line_check_passes_a_good_message_unchanged() -> None:
    deep = {"a": 1}
    for _ in range(MAX_DEPTH - 6):  # a tool's own bounds refuse what nests deeper in its arguments
        deep = {"a": deep}
    raw = request(
        3, "tools/call", {"name": "remember", "arguments": {"content": "é ✓ 日本", "metadata": deep}}
    )
    passed = checked(raw)
    assert json.loads(passed.text) == json.loads(raw) and passed.awaited == "3"
