"""A request head no server reads whole: a query of a megabyte in the address, a header of a megabyte, a
hundred headers of ten kilobytes, or bytes that are no HTTP. uvicorn refused each with a plain-text "Invalid
HTTP request received." that named nothing, unlike every other refusal; each is now problem+json naming the
part (414 for the request line, 431 for the headers), the connection is closed, and the server serves the
others. Huge fields inside a body are refused naming the field, and nothing is stored."""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Iterator

import pytest

from tests.live import LiveServer


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("heads") / "home", require_key=False)
    yield server
    server.stop()


def _sent(live: LiveServer, head: bytes) -> tuple[int, dict[str, str], bytes]:
    """What the server answered to `head`: its status, headers and body, read until it closed."""
    with socket.create_connection(("127.0.0.1", live.port)) as conn:
        conn.settimeout(60)
        with contextlib.suppress(
            OSError
        ):  # it answered and closed before reading all: the answer is still there
            conn.sendall(head)
        answer = b""
        try:
            while chunk := conn.recv(1 << 16):
                answer += chunk
        except ConnectionResetError:
            pass
    top, _, body = answer.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


HOST = "Host: 127.0.0.1\r\n"


@pytest.mark.parametrize(
    ("head", "status", "field"),
    [
        (f"GET /v1/memories?query={'crane+' * 150_000} HTTP/1.1\r\n{HOST}\r\n", 414, "url"),
        (f"GET /v1/memories/{'a' * 1_000_000} HTTP/1.1\r\n{HOST}\r\n", 414, "url"),
        (f"GET /v1/tools HTTP/1.1\r\n{HOST}X-Big: {'a' * 1_000_000}\r\n\r\n", 431, "headers"),
        (
            f"GET /v1/tools HTTP/1.1\r\n{HOST}" + "".join(f"X-{i}: {'a' * 10_000}\r\n" for i in range(100)),
            431,
            "headers",
        ),
        ("NOT HTTP AT ALL\r\n\r\n", 400, "request"),
    ],
)
def test_a_head_too_long_to_read_is_refused_naming_its_part(
    live: LiveServer, head: str, status: int, field: str
) -> None:
    answered, headers, body = _sent(live, head.encode())
    assert answered == status, body[:200]
    assert headers["content-type"] == "application/problem+json" and headers["connection"] == "close"
    assert json.loads(body)["field"] == field
    with live.client() as http:  # the server still serves the others
        assert http.get("/v1/tools").status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"content": "a" * 10_000_000}, 413, "body"),
        ({"content": "word " * 180_000}, 400, "content"),
        ({"content": "the crane note", "tags": ["t" * 900_000]}, 400, "tags"),
        ({"content": "the crane note", "tags": [f"t{i}" for i in range(100_000)]}, 400, "tags"),
        ({"content": "the crane note", "user_id": "u" * 900_000}, 400, "user_id"),
    ],
)
def test_a_huge_field_in_a_body_is_refused_naming_it(
    live: LiveServer, body: dict[str, object], status: int, field: str
) -> None:
    with live.client() as http:
        answer = http.post("/api/remember", json=body)
        assert answer.status_code == status, answer.text[:300]
        assert answer.headers["content-type"] == "application/problem+json"
        assert answer.json()["field"] == field
        assert http.get("/v1/stats").json()["memories"] == 0
    with live.client() as http:
        assert http.post("/api/recall", json={"query": "crane " * 150_000}).json()["field"] == "query"
