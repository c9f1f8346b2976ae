"""A memory whose text holds a line or paragraph separator (U+2028, U+2029, or NEL, U+0085: pasted text has them)
answered over MCP's streamable HTTP: the SSE event carried it raw, and the line reader Python's MCP client uses
(httpx's) ends a line there, so the event's JSON came in two pieces and the agent never got its answer. Every
search that found the memory went unanswered."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from httpx._decoders import LineDecoder

from tests.clients import api  # noqa: F401 (a fixture)

ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"},
    },
}


def _events(body: str) -> list[object]:
    """The JSON of each SSE event, read line by line as httpx reads a stream."""
    decoder = LineDecoder()
    lines = [*decoder.decode(body), *decoder.flush()]
    return [json.loads(line[5:].strip()) for line in lines if line.startswith("data:")]


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_a_memory_with_a_line_separator_is_answered_over_mcp_http(api: TestClient, separator: str) -> None:  # noqa: F811
    stored = api.post("/v1/store", json={"content": f"the deploy runs on Fridays{separator}at nine"})
    assert stored.status_code == 200, stored.text
    opened = api.post("/mcp", json=INITIALIZE, headers=ACCEPT)
    headers = ACCEPT | {"mcp-session-id": opened.headers["mcp-session-id"]}
    api.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    call = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "recall", "arguments": {"query": "deploy Fridays"}},
    }
    answer = api.post("/mcp", json=call, headers=headers)
    assert answer.status_code == 200
    (event,) = _events(answer.text)
    assert event["id"] == 7  # type: ignore[index]
    text = event["result"]["content"][0]["text"]  # type: ignore[index]
    assert f"Fridays{separator}at nine" in text  # the text as stored, escaped on the wire only
