"""Ten thousand tags given to one memory in one request (a 100 KB body): each new tag is embedded and registered,
so the request held a core for seconds (14 s of processor time with the real model) and the memory carried
them all from then on. A request now gives a memory at most GIVEN_TAGS tags, on every door that takes them
(REST, SHODH's REST, the tools, MCP): more are refused naming `tags`, and nothing is stored or changed."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from engram import InvalidInput, Memory
from engram.model.record import GIVEN_TAGS
from tests.clients import anyio_backend, api, client  # noqa: F401 (fixtures)

MANY = [f"tag{i}" for i in range(GIVEN_TAGS + 1)]
ENOUGH = MANY[:GIVEN_TAGS]


def _refused(answer: Any) -> None:
    assert answer.status_code == 400, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["field"].endswith("tags"), answer.text


def test_rest_refuses_too_many_tags_and_changes_nothing(api: TestClient) -> None:  # noqa: F811
    memory = api.post("/v1/store", json={"content": "the spare key is under the blue pot"}).json()[
        "memory_id"
    ]
    tags = api.get(f"/v1/memories/{memory}").json()["tags"]
    _refused(api.post("/api/remember", json={"content": "the gate code is 4417", "tags": MANY}))
    _refused(api.patch(f"/v1/memories/{memory}", json={"tags": MANY}))
    _refused(api.patch(f"/api/memories/{memory}", json={"tags": MANY}))
    _refused(api.post("/v1/tools/update_memory", json={"arguments": {"id": memory, "tags": MANY}}))
    _refused(api.post("/v1/tools/remember", json={"arguments": {"content": "the gate code", "tags": MANY}}))
    listed = api.get("/v1/memories", params={"limit": 100}).json()["memories"]
    assert [(m["id"], m["tags"]) for m in listed] == [(memory, tags)]
    assert (
        api.post("/api/remember", json={"content": "the gate code is 4417", "tags": ENOUGH}).status_code
        == 201
    )
    assert api.patch(f"/v1/memories/{memory}", json={"tags": ENOUGH}).json()["tags"] == ENOUGH


def test_the_tools_refuse_them_naming_tags(mem: Memory) -> None:
    memory = mem.remember("the spare key is under the blue pot").id
    for tool, arguments in (
        ("remember", {"content": "the gate code is 4417", "tags": MANY}),
        ("update_memory", {"id": memory, "tags": MANY}),
    ):
        with pytest.raises(InvalidInput) as caught:
            mem.run_tool(tool, **arguments)
        assert caught.value.field == "tags"
    assert [r.content for r in mem.list()] == ["the spare key is under the blue pot"]


@pytest.mark.anyio
async def test_over_mcp_too(client: Any) -> None:  # noqa: F811
    answer = await client.call_tool("remember", {"content": "the gate code is 4417", "tags": MANY})
    assert answer.is_error and "tags" in answer.content[0].text
    listed = await client.call_tool("list_memories", {})
    assert "4417" not in str(listed.content)
