"""A filter longer than the field it filters can hold can match nothing: `GET /v1/memories?tag=<50,000 chars>`
answered 200 with an empty page, as did a scope, user or workspace id of that length on /v1/recall, an audit
memory id, and the same arguments of the list_memories, recall, forget_by_tag and session_context tools. An
empty answer tells a caller with a bug that nothing is filed there. Each is now refused, naming the parameter,
as problem+json on REST and as a tool error over MCP; what is stored is untouched and still listed."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.clients import client  # noqa: F401

LONG = "a" * 50_000

QUERY_FILTERS = [
    ("/v1/memories", "tag"),
    ("/v1/memories", "scope_id"),
    ("/v1/memories", "kind"),
    ("/v1/memories", "scope"),
    ("/v1/memories", "status"),
    ("/v1/audit", "memory_id"),
]
RECALL_FILTERS = ["scope_id", "user_id", "workspace_id", "kind", "scope", "profile"]
TOOL_FILTERS = [
    ("list_memories", {"tag": LONG}, "tag"),
    ("list_memories", {"scope_id": LONG}, "scope_id"),
    ("recall", {"query": "tea", "scope_id": LONG}, "scope_id"),
    ("forget_by_tag", {"tag": LONG, "confirm": True}, "tag"),
    ("session_context", {"scope_id": LONG}, "scope_id"),
    ("review_memories", {"kind": LONG}, "kind"),
]


def _refused(answer: Any, field: str) -> None:
    assert answer.status_code == 400, answer.text[:300]
    assert answer.headers["content-type"].startswith("application/problem+json")
    body = answer.json()
    assert body["field"] == field
    assert len(body["detail"]) < 400  # the value is not echoed back whole


def _still_there(api: TestClient) -> None:
    page = api.get("/v1/memories", params={"tag": "tea"}).json()["memories"]
    assert [m["content"] for m in page] == ["green tea in the morning"]


@pytest.fixture
def stocked(api: TestClient) -> TestClient:
    stored = api.post(
        "/v1/store", json={"content": "green tea in the morning", "context": {"additional_tags": ["tea"]}}
    )
    assert stored.status_code == 200, stored.text
    return api


@pytest.mark.parametrize(("path", "name"), QUERY_FILTERS)
def test_an_overlong_query_filter_is_refused_naming_it(stocked: TestClient, path: str, name: str) -> None:
    _refused(stocked.get(path, params={name: LONG}), name)
    _still_there(stocked)


@pytest.mark.parametrize("name", RECALL_FILTERS)
def test_an_overlong_recall_filter_is_refused_naming_it(stocked: TestClient, name: str) -> None:
    _refused(stocked.post("/v1/recall", json={"query": "tea", name: LONG}), name)
    _still_there(stocked)


@pytest.mark.parametrize("route", ["/api/recall/by-tags", "/api/forget/by-tags"])
def test_an_overlong_tag_in_a_tag_list_is_refused(stocked: TestClient, route: str) -> None:
    answer = stocked.post(route, json={"tags": ["tea", LONG]})
    assert answer.status_code == 400, answer.text[:300]
    assert answer.json()["field"].startswith("tags")
    _still_there(stocked)


@pytest.mark.parametrize(("tool", "arguments", "name"), TOOL_FILTERS)
def test_an_overlong_tool_filter_is_refused_naming_it(
    stocked: TestClient, tool: str, arguments: dict[str, Any], name: str
) -> None:
    _refused(stocked.post(f"/v1/tools/{tool}", json={"arguments": arguments}), name)
    _still_there(stocked)


def test_filters_at_their_limit_still_answer(stocked: TestClient) -> None:
    assert stocked.get("/v1/memories", params={"tag": "t" * 64}).json()["memories"] == []
    assert stocked.get("/v1/memories", params={"scope_id": "s" * 256}).json()["memories"] == []
    assert stocked.post("/v1/recall", json={"query": "tea", "user_id": "u" * 256}).status_code == 200


@pytest.mark.anyio
@pytest.mark.parametrize(("tool", "arguments", "name"), TOOL_FILTERS)
async def test_over_mcp_too(client: Any, tool: str, arguments: dict[str, Any], name: str) -> None:  # noqa: F811
    answer = await client.call_tool(tool, arguments)
    assert answer.is_error and name in answer.content[0].text
