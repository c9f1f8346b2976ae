"""The MCP gate and the Guard read a header the way the app behind them does. A request may carry a header twice;
the gate read the last copy of `Mcp-Session-Id` while the SDK acts on the first, so a tenant naming its own
session last and another's first passed the gate's ownership check and reached (or ended) the other's session.
A request naming a session, a key or a host more than once is refused before anything behind reads it."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from engram import FakeEmbedder, Settings
from engram.interfaces.http import guard, pacing
from engram.interfaces.http.serve import McpGate, build_app
from tests.live import MCP_INIT as INIT
from tests.live import LiveServer, free_port

ACCEPT = ("accept", "application/json, text/event-stream")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "home", require_key=True)
    yield live
    live.stop()


def _open(http: httpx.Client, key: str) -> str:
    answer = http.post(
        "/mcp",
        content=json.dumps(INIT),
        headers=[("authorization", f"Bearer {key}"), ("content-type", "application/json"), ACCEPT],
    )
    assert answer.status_code == 200, answer.text
    session = answer.headers["mcp-session-id"]
    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    headers = [("authorization", f"Bearer {key}"), ("content-type", "application/json"), ACCEPT]
    http.post("/mcp", content=json.dumps(done), headers=[*headers, ("mcp-session-id", session)])
    return session


def _ping(http: httpx.Client, key: str, session: str) -> int:
    body = {"jsonrpc": "2.0", "id": 7, "method": "ping"}
    headers = [("authorization", f"Bearer {key}"), ("content-type", "application/json"), ACCEPT]
    return http.post(
        "/mcp", content=json.dumps(body), headers=[*headers, ("mcp-session-id", session)]
    ).status_code


def test_a_session_named_twice_cannot_reach_another_tenants_session(server: LiveServer) -> None:
    owner, other = server.key("owner"), server.key("other")
    with httpx.Client(base_url=server.url, timeout=60) as http:
        victim = _open(http, owner)
        mine = _open(http, other)
        smuggled: list[Any] = [("authorization", f"Bearer {other}"), ("mcp-session-id", victim)]
        ended = http.delete("/mcp", headers=[*smuggled, ("mcp-session-id", mine)])
        assert ended.status_code == 400, ended.text
        assert "mcp-session-id" in ended.text
        assert _ping(http, owner, victim) == 200  # the owner's session was not ended
        assert _ping(http, other, mine) == 200


def test_a_key_named_twice_is_refused(server: LiveServer) -> None:
    owner, other = server.key("owner"), server.key("other")
    with httpx.Client(base_url=server.url, timeout=60) as http:
        twice = [("authorization", f"Bearer {owner}"), ("authorization", f"Bearer {other}"), ACCEPT]
        answer = http.post(
            "/mcp", content=json.dumps(INIT), headers=[*twice, ("content-type", "application/json")]
        )
        assert answer.status_code == 400 and "authorization" in answer.text
        listed = http.get("/v1/memories", headers=twice)
        assert listed.status_code == 400 and "authorization" in listed.text


def _half(port: int, head: bytes, wait: float = 60) -> bytes:
    """What the server answers to a request whose body stops halfway, and the connection then left open."""
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.settimeout(wait)
        conn.sendall(head)
        answer = b""
        try:
            while chunk := conn.recv(65536):
                answer += chunk
        except TimeoutError:
            pass
        return answer


@pytest.mark.parametrize("path", ["/v1/store", "/mcp", "/v1/import"])
def test_a_body_that_stops_halfway_is_answered_and_its_connection_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """Slowloris: a client that sends half a body and waits held a connection and a task until it gave up, so
    a few thousand such clients took every file descriptor. Now the server answers 408 and closes it."""
    monkeypatch.setattr(guard, "BODY_SECONDS", 1.0)
    live = LiveServer(tmp_path / "home", require_key=False)
    try:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{live.port}\r\nContent-Type: application/json\r\n"
            "Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n"
        ).encode()
        answer = _half(live.port, head + b'{"content": "half')
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b"body: the body did not arrive" in answer or b'"field":"body"' in answer
        with httpx.Client(base_url=live.url, timeout=60) as http:  # the server still serves the others
            assert http.get("/v1/tools").status_code == 200
    finally:
        live.stop()


def test_a_request_head_that_never_ends_has_its_connection_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Slowloris on the head: a connection that sends nothing, or headers a line at a time, was held for ever."""
    monkeypatch.setattr(pacing, "HEAD_SECONDS", 1.0)
    home = tmp_path / "home"
    app = build_app(
        Settings(home=home, maintain_every_minutes=0),
        db=home / "local.db",
        embedder=FakeEmbedder(),
        require_key=False,
    )
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, http=pacing.PacedH11))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.05)
        for head in (b"", b"GET /v1/tools HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: 1\r\n"):
            with socket.create_connection(("127.0.0.1", port)) as conn:
                conn.settimeout(60)
                conn.sendall(head)
                assert conn.recv(100) == b""  # closed by the server, not by this timeout
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
            assert http.get("/v1/tools").status_code == 200
    finally:
        server.should_exit = True
        thread.join(10)


def _surrogate_body() -> bytes:
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "recall", "arguments": {}}}
    return json.dumps(call).replace("{}", '{"query": "\\ud800"}').encode()


@pytest.mark.parametrize(
    ("body", "headers", "said"),
    [
        (_surrogate_body(), [], "surrogate"),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": '
            + b"[" * 200
            + b"]" * 200
            + b"}}",
            [],
            "deeper",
        ),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": ' + b"9" * 5000 + b"}}",
            [],
            "digits",
        ),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "' + b"a" * 1_100_000 + b'"}}',
            [],
            "bytes",
        ),
        (json.dumps(INIT).encode(), [("host", "evil.example")], "host"),
        (json.dumps(INIT).encode(), [("origin", "http://evil.example")], "another site"),
        (json.dumps(INIT).encode(), [("mcp-session-id", "a"), ("mcp-session-id", "b")], "twice"),
    ],
)
def test_every_refusal_on_mcp_is_a_json_rpc_error(
    api: Any, body: bytes, headers: list[tuple[str, str]], said: str
) -> None:
    """An MCP client reads JSON-RPC errors only: the server's own refusals (lone surrogates, nesting, huge numbers
    or bodies, foreign hosts and origins) answered /mcp with problem+json, which no MCP client parses."""
    sent = [("content-type", "application/json"), ACCEPT, *headers]
    if not any(k == "host" for k, _ in headers):
        sent.append(("host", "127.0.0.1:8765"))
    answer = api.post("/mcp", content=body, headers=sent)
    assert 400 <= answer.status_code < 500, answer.text[:300]
    assert answer.headers["content-type"] == "application/json"
    error = answer.json()
    assert error["jsonrpc"] == "2.0" and error["id"] is None, error
    assert error["error"]["code"] == -32600 and said in error["error"]["message"], error


def test_a_session_of_another_tenant_looks_like_no_session(server: LiveServer) -> None:
    """The gate's 404 for another tenant's session was problem+json, the SDK's for an unknown one JSON-RPC: the
    difference told a caller which session ids were live."""
    owner, other = server.key("owner"), server.key("other")
    with httpx.Client(base_url=server.url, timeout=60) as http:
        victim = _open(http, owner)
        answers = []
        for session in (victim, "0" * 32):
            headers = [("authorization", f"Bearer {other}"), ("mcp-session-id", session), ACCEPT]
            body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "ping"})
            answer = http.post("/mcp", content=body, headers=[*headers, ("content-type", "application/json")])
            answers.append((answer.status_code, answer.headers["content-type"], answer.content))
        assert answers[0] == answers[1] and answers[0][0] == 404


def test_refused_requests_leave_no_session_owner_behind(api: Any) -> None:
    """The SDK names a new session in the header of a request it refuses (a ping with no session, a GET or a
    DELETE without one) and drops it; the gate kept its owner for an hour, so a loop of refused requests grew
    the server's memory without bound."""
    gate = next(r.app for r in api.app.router.routes if isinstance(getattr(r, "app", None), McpGate))
    headers = [("content-type", "application/json"), ACCEPT]
    ping = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    for _ in range(30):
        assert api.post("/mcp", content=ping, headers=headers).status_code == 400
        assert api.get("/mcp", headers=headers).status_code >= 400
        assert api.delete("/mcp", headers=headers).status_code >= 400
    assert gate.owners == {} and gate.used == {}
    opened = api.post("/mcp", content=json.dumps(INIT), headers=headers)
    assert opened.status_code == 200
    assert gate.owners == {opened.headers["mcp-session-id"]: "local"}


def test_mcp_answers_every_host_the_rest_api_answers_and_no_other(tmp_path: Path) -> None:
    """Local mode's host allow-list is one for every route: /mcp refused a configured host name (and a loopback
    name without its port) that the REST API answered, with a plain-text 421 no MCP client reads."""
    from fastapi.testclient import TestClient

    settings = Settings(home=tmp_path / "home", maintain_every_minutes=0)
    app = build_app(
        settings, db=tmp_path / "l.db", embedder=FakeEmbedder(), require_key=False, hosts=["box.lan"]
    )
    with TestClient(app, base_url="http://127.0.0.1:8765") as http:
        for host, allowed in (("box.lan:8765", True), ("localhost", True), ("evil.example:8765", False)):
            headers = [("host", host), ("content-type", "application/json"), ACCEPT]
            answer = http.post("/mcp", content=json.dumps(INIT), headers=headers)
            rest = http.get("/v1/tools", headers=[("host", host)])
            assert (answer.status_code == 200) is allowed and (rest.status_code == 200) is allowed, host
            if not allowed:
                assert answer.status_code == 421 and answer.json()["error"]["code"] == -32600
