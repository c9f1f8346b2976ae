"""Messages of the wrong shape sent to /mcp over streamable HTTP: a batch (an array of messages, which MCP no
longer has), a `jsonrpc` other than "2.0", no method, a method that is no text, params that are a list. The SDK
refused each as bad params (-32602, the code of a call whose arguments are wrong) with pydantic's dump of four
models, quoting pieces of every message in a batch. Each is now an invalid request (-32600) naming the field, as
over stdio, answered before a session sees it, and nothing in the batch is stored. A tool's path given as no
text was refused as "path.str: must be text (and 1 more problem)": a member of a type union named as a field,
the other member's refusal counted as a second problem; the answer now names the argument alone. A request whose
params MCP's own model of the method refuses (a log level, a resource's uri, a list cursor, a progress token of
the wrong type) was answered "Invalid request parameters" alone; the field is now named, on both doors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from engram.interfaces.mcp.stdio import INVALID_PARAMS, INVALID_REQUEST, Refused, checked
from tests.live import MCP_INIT as INIT
from tests.live import LiveServer


def _store(i: int) -> dict[str, Any]:
    arguments = {"content": f"batched secret number {i}"}
    return {
        "jsonrpc": "2.0",
        "id": i,
        "method": "tools/call",
        "params": {"name": "store_memory", "arguments": arguments},
    }


SHAPES: list[tuple[Any, str]] = [
    ([_store(i) for i in range(3)], "batch"),
    ([], "batch"),
    ({"jsonrpc": "1.0", "id": 9, "method": "ping"}, "jsonrpc"),
    ({"jsonrpc": "2.0", "id": 9}, "method"),
    ({"jsonrpc": "2.0", "id": 9, "method": 5}, "method"),
    ({"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": [1, 2]}, "params"),
    ("ping", "object"),
]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "home", require_key=True)
    yield live
    live.stop()


def _headers(key: str, session: str | None = None) -> list[tuple[str, str]]:
    headers = [
        ("authorization", f"Bearer {key}"),
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
    ]
    return [*headers, ("mcp-session-id", session)] if session else headers


def _listed(http: httpx.Client, key: str, session: str) -> Any:
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "list_memories", "arguments": {}},
    }
    answer = http.post("/mcp", content=json.dumps(call), headers=_headers(key, session))
    assert answer.status_code == 200, answer.text
    data = next(line[6:] for line in answer.text.splitlines() if line.startswith("data: "))
    return json.loads(data)["result"]["structuredContent"]["memories"]


def test_each_wrong_shape_is_an_invalid_request_naming_the_field(server: LiveServer) -> None:
    key = server.key("alice")
    with httpx.Client(base_url=server.url, timeout=60) as http:
        opened = http.post("/mcp", content=json.dumps(INIT), headers=_headers(key))
        session = opened.headers["mcp-session-id"]
        for message, field in SHAPES:
            answer = http.post("/mcp", content=json.dumps(message), headers=_headers(key, session))
            assert answer.status_code == 400, answer.text
            error = answer.json()["error"]
            assert error["code"] == INVALID_REQUEST, (message, error)
            assert field in error["message"], (message, error)
            assert "validation error" not in error["message"] and "secret" not in error["message"]
            assert answer.json()["id"] is None  # no request was read, so none is answered
        assert _listed(http, key, session) == []


@pytest.mark.parametrize(("message", "field"), SHAPES)
def test_stdio_names_the_same_field(message: Any, field: str) -> None:
    with pytest.raises(Refused) as refused:
        checked(json.dumps(message).encode())
    assert refused.value.code == INVALID_REQUEST
    assert field in str(refused.value)
    assert "validation error" not in str(refused.value)


def _said(http: httpx.Client, key: str, session: str, tool: str, arguments: dict[str, Any]) -> str:
    call = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    }
    answer = http.post("/mcp", content=json.dumps(call), headers=_headers(key, session))
    data = json.loads(next(line[6:] for line in answer.text.splitlines() if line.startswith("data: ")))
    assert data["result"]["isError"], data
    return str(data["result"]["content"][0]["text"])


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("export_memories", {"path": {"a": [1]}}),
        ("import_memories", {"path": ["a"]}),
        ("backup_restore", {"action": "backup", "path": 123}),
    ],
)
def test_a_path_of_the_wrong_type_is_named_as_the_argument(
    server: LiveServer, tool: str, arguments: dict[str, Any]
) -> None:
    key = server.key("alice")
    with httpx.Client(base_url=server.url, timeout=60) as http:
        session = http.post("/mcp", content=json.dumps(INIT), headers=_headers(key)).headers["mcp-session-id"]
        said = _said(http, key, session, tool, arguments)
    assert said.startswith("path: must be text, got "), said
    assert "more problem" not in said


PARAMS: list[tuple[dict[str, Any], str]] = [
    ({"method": "logging/setLevel", "params": {"level": "loud"}}, "params.level: must be 'debug'"),
    ({"method": "resources/read", "params": {"uri": {"a": 1}}}, "params.uri: must be text"),
    ({"method": "tools/list", "params": {"cursor": [1]}}, "params.cursor: must be text"),
    (
        {"method": "prompts/get", "params": {"name": "context", "arguments": [1]}},
        "params.arguments: must be an object",
    ),
    ({"method": "ping", "params": {"_meta": "x"}}, "params._meta: must be an object"),
]


def test_params_the_method_refuses_are_named(server: LiveServer) -> None:
    key = server.key("alice")
    with httpx.Client(base_url=server.url, timeout=60) as http:
        session = http.post("/mcp", content=json.dumps(INIT), headers=_headers(key)).headers["mcp-session-id"]
        for message, said in PARAMS:
            body = {"jsonrpc": "2.0", "id": 4, **message}
            answer = http.post("/mcp", content=json.dumps(body), headers=_headers(key, session))
            error = answer.json()["error"]
            assert error["code"] == INVALID_PARAMS and error["message"].startswith(said), (message, error)
            assert answer.json()["id"] == 4


@pytest.mark.parametrize(("message", "said"), PARAMS)
def test_stdio_names_the_same_params(message: dict[str, Any], said: str) -> None:
    with pytest.raises(Refused) as refused:
        checked(json.dumps({"jsonrpc": "2.0", "id": 4, **message}).encode())
    assert refused.value.code == INVALID_PARAMS and str(refused.value).startswith(said)
    assert refused.value.request_id == 4


def test_a_notification_of_bad_params_is_not_answered() -> None:
    line = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": [1]}}
    passed = checked(json.dumps(line).encode())
    assert json.loads(passed.text) == line  # handed on: the SDK drops it
    assert passed.awaited is None  # and no notification is answered, so none is waited for
