"""What a new user met through the REST API and found wrong or confusing, each kept as a check: a refused
request is answered in the sentence MCP gives (the field, what it must be, what was given), not the validator's
wording; a tool's argument sent outside "arguments", or a search option outside "options", says where it goes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engram import FakeEmbedder, Settings


def _refused(response: Any) -> tuple[str, str]:
    assert response.status_code == 400, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    return body["field"], body["detail"]


@pytest.mark.parametrize(
    ("path", "body", "field", "says"),
    [
        (
            "/v1/search",
            {"query": "x", "options": {"limit": 500}},
            "options.limit",
            "must be at most 100, got 500",
        ),
        ("/v1/recall", {"query": "x", "limit": 5000}, "limit", "must be at most 1000, got 5000"),
        ("/v1/recall", {"query": "x", "limit": "5"}, "limit", 'must be a whole number, got "5"'),
        ("/v1/recall", {"query": "x", "mode": "fast"}, "mode", "must be 'accurate', 'related' or 'ranked'"),
        ("/v1/recall", {}, "query", "is required"),
        ("/v1/search", {"query": 5}, "query", "must be text, got 5"),
        (
            "/v1/store",
            {"content": "x", "context": {"force_importance": 9}},
            "context.force_importance",
            "at most 5",
        ),
        ("/v1/review", {"action": "delete", "ids": []}, "action", "must be 'approve' or 'reject'"),
    ],
)
def test_a_refused_body_reads_as_the_mcp_sentence(
    api: TestClient, path: str, body: dict[str, Any], field: str, says: str
) -> None:
    got_field, detail = _refused(api.post(path, json=body))
    assert got_field == field
    assert says in detail
    assert "Input should" not in detail and "Extra inputs" not in detail


def test_a_search_option_at_the_top_says_it_goes_in_options(api: TestClient) -> None:
    field, detail = _refused(api.post("/v1/search", json={"query": "x", "limit": 5}))
    assert field == "limit"
    assert "options.limit" in detail


def test_a_tool_argument_outside_arguments_says_where_it_goes(api: TestClient) -> None:
    field, detail = _refused(api.post("/v1/tools/recall", json={"query": "x"}))
    assert field == "query"
    assert '"arguments"' in detail


def test_an_unknown_body_field_is_named_as_not_one_of_the_route(api: TestClient) -> None:
    field, detail = _refused(api.post("/v1/store", json={"content": "x", "importance": 9}))
    assert field == "importance"
    assert "is not a field" in detail


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_mcp_search_with_limit_beside_the_query_says_it_goes_in_options(
    tmp_path: Path, settings: Settings
) -> None:
    from mcp import Client

    from engram import Memory
    from engram.interfaces.mcp.server import build

    with Memory(tmp_path / "mcp.db", embedder=FakeEmbedder(), settings=settings) as mem:
        async with Client(build(lambda ctx: mem)) as client:
            answer = await client.call_tool("search_memory", {"query": "who is my boss", "limit": 3})
    assert answer.is_error
    text = str(getattr(answer.content[0], "text", ""))
    assert text.startswith("limit: is not an argument this tool takes")
    assert "options.limit" in text


@pytest.mark.parametrize("content", [b"", b"  \n\n"])
def test_importing_an_empty_file_says_it_is_empty(tmp_path: Path, content: bytes) -> None:
    """`engram import empty.jsonl` printed "imported 0" as if it had worked (the web import says "is empty")."""
    from typer.testing import CliRunner

    from engram.interfaces.cli.app import app

    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(content)
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "cli.db"), "import", str(empty)])
    assert result.exit_code != 0
    assert "is empty" in result.output
    assert "imported" not in result.output


@pytest.mark.parametrize(
    ("path", "query", "field"),
    [
        ("/v1/memories", {"category": "reminders"}, "category"),
        ("/v1/memories", {"kind": "task", "q": "dentist"}, "q"),
        ("/v1/audit", {"memory": "x"}, "memory"),
        ("/v1/export", {"embeddings": "true"}, "embeddings"),
    ],
)
def test_a_filter_a_list_does_not_take_is_refused_not_ignored(
    api: TestClient, path: str, query: dict[str, str], field: str
) -> None:
    """`GET /v1/memories?category=reminders` listed every memory, as if filtered."""
    api.post("/v1/store", json={"content": "Dentist appointment on Tuesday"})
    got_field, detail = _refused(api.get(path, params=query))
    assert got_field == field
    assert "is not a parameter" in detail


def test_the_filters_a_list_takes_still_work(api: TestClient) -> None:
    api.post("/v1/store", json={"content": "Dentist appointment on Tuesday"})
    page = api.get("/v1/memories", params={"limit": 5, "status": "approved", "kind": "task", "tag": ""})
    assert page.status_code == 200, page.text
    assert api.get("/v1/export", params={"with_embeddings": "false"}).status_code == 200
