"""A NUL character (U+0000) where a tenant of a PostgreSQL store names a tag, an id or an operation: PostgreSQL
refuses a NUL in any query, so a tag filter, an audit or review by id, a merge, a rename or a forget by tag
answered 500. No stored text, id, tag or name holds one (the record refuses it), so the server now refuses it
before any store sees it, naming the field (a body's path, the query parameter, or the path), as problem+json
over REST and as a JSON-RPC error or a tool error over MCP; nothing stored changes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engram import FakeEmbedder, Memory, Settings
from engram.interfaces.http.serve import build_app
from engram.interfaces.mcp.server import build

NUL = "a\x00b"


@pytest.fixture
def pg_api(pg_url: str, tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(home=tmp_path, maintain_every_minutes=0)
    app = build_app(settings, db=pg_url, embedder=FakeEmbedder(), require_key=False)
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        yield client


def _refused(answer: Any, field: str) -> None:
    assert answer.status_code == 400, (answer.request.url, answer.text)
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["field"] == field, answer.text


def test_rest_refuses_a_nul_naming_the_field(pg_api: TestClient) -> None:
    memory = pg_api.post("/v1/store", json={"content": "the spare key is under the blue pot"}).json()[
        "memory_id"
    ]
    before = pg_api.get("/v1/memories").json()

    def post(url: str, body: dict[str, Any]) -> Any:
        return pg_api.post(url, content=json.dumps(body), headers={"content-type": "application/json"})

    _refused(pg_api.get("/v1/memories", params={"tag": NUL}), "tag")
    _refused(pg_api.get("/v1/audit", params={"memory_id": NUL}), "memory_id")
    _refused(pg_api.get("/v1/memories/a%00b"), "path")
    _refused(post("/api/recall/by-tags", {"tags": ["x", NUL]}), "tags[1]")
    _refused(post("/v1/tools/forget_by_tag", {"arguments": {"tag": NUL, "confirm": True}}), "tag")
    _refused(post("/v1/tools/rename_tag", {"arguments": {"old": NUL, "new": "x"}}), "old")
    merge = {"arguments": {"ids": [memory, NUL], "into": memory}}
    _refused(post("/v1/tools/merge_memories", merge), "ids[1]")
    _refused(post("/v1/review", {"action": "approve", "ids": [NUL]}), "ids[0]")
    assert pg_api.get("/v1/memories").json() == before
    mcp = post(
        "/mcp",
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "x", "arguments": {"tag": NUL}},
        },
    )
    assert mcp.status_code == 400 and mcp.json()["error"]["code"] < 0, mcp.text


@pytest.mark.anyio
async def test_mcp_tools_refuse_a_nul_naming_the_argument(pg_url: str, settings: Settings) -> None:
    from mcp import Client

    with Memory(pg_url, embedder=FakeEmbedder(), settings=settings) as mem:
        mem.remember("the spare key is under the blue pot")
        async with Client(build(lambda ctx: mem)) as client:
            for tool, arguments, field in (
                ("forget_by_tag", {"tag": NUL, "confirm": True}, "tag"),
                ("rename_tag", {"old": NUL, "new": "x"}, "old"),
                ("list_memories", {"tags": [NUL]}, "tags"),
            ):
                answer = await client.call_tool(tool, arguments)
                assert answer.is_error and field in answer.content[0].text, answer.content[0].text
                assert "Error executing tool" not in answer.content[0].text
        assert mem.count() == 1


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
