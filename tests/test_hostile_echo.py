"""An answer never echoes a huge input: a 60,000-character id, path or tag comes back cut short in the error, over
REST and MCP, whichever layer named it. (The messages quote what was given, which is right for a short value.)"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

HUGE = "a" * 60_000
LONGEST = 600  # characters of an answer's text: room for a sentence and a quoted value cut short


@pytest.fixture
def api(api: TestClient) -> TestClient:
    """The shared local REST client, over a store holding one memory."""
    api.post("/v1/store", json={"content": "a first memory"})
    return api


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", f"/v1/memories/{HUGE}", None),
        ("DELETE", f"/v1/memories/{HUGE}", None),
        ("POST", "/v1/tools/export_memories", {"arguments": {"path": "a/" * 30_000 + "x.jsonl"}}),
        ("POST", "/v1/tools/import_memories", {"arguments": {"path": HUGE}}),
        ("POST", "/v1/tools/merge_memories", {"arguments": {"ids": [HUGE, HUGE + "b"]}}),
        ("POST", "/v1/review", {"action": "approve", "ids": [HUGE]}),
        ("POST", "/v1/tools/rollback", {"arguments": {"operation_id": HUGE}}),
    ],
)
def test_a_rest_error_never_echoes_a_huge_input(
    api: TestClient, method: str, path: str, body: dict[str, Any] | None
) -> None:
    response = api.request(method, path, json=body)
    assert 400 <= response.status_code < 500, response.text[:200]
    problem = response.json()
    assert len(problem["detail"]) <= LONGEST, problem["detail"][:120]
    assert len(problem["error"]) <= LONGEST + 80
    assert "a" * 200 not in response.text


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("forget", {"id": HUGE}),
        ("export_memories", {"path": "a/" * 30_000 + "x.jsonl"}),
        ("rollback", {"operation_id": HUGE}),
        ("merge_memories", {"ids": [HUGE, HUGE + "b"]}),
    ],
)
async def test_an_mcp_error_never_echoes_a_huge_input(
    client: Any, tool: str, arguments: dict[str, Any]
) -> None:
    answer = await client.call_tool(tool, arguments)
    assert answer.is_error
    text = answer.content[0].text
    assert len(text) <= LONGEST, text[:120]
    assert "a" * 200 not in text


def test_a_refused_value_holding_a_lone_surrogate_is_answered_not_a_server_error(api: TestClient) -> None:
    """A body that is a bare JSON string holding a lone surrogate (the guard reads only objects and arrays): the
    answer quoting the refused value could not be encoded, and the server answered 500."""
    for path in ("/v1/recall", "/api/context", "/v1/tools/recall"):
        response = api.post(path, content=b'"\\ud800"', headers={"content-type": "application/json"})
        assert response.status_code == 400, response.text[:200]
        assert response.headers["content-type"].startswith("application/problem+json")
