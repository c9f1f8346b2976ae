"""An MCP call carrying a huge argument name or value (50,000 characters) is refused with a short answer that does
not echo it, and nothing logs it: the SDK logged every refused argument's name at INFO, and formatting a 50,000-
character name for the terminal took longer than any bad request may wait."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.interfaces.mcp.server import build

HUGE = "x" * 50_000


def _text(result: Any) -> str:
    assert result.is_error
    return str(result.content[0].text)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("tool", "arguments", "says"),
    [
        ("operations", {"touch": "é", HUGE: 1}, "an argument name of 50,000 characters"),
        ("recall", {"query": "x", HUGE: HUGE}, "an argument name of 50,000 characters"),
        ("search_memory", {"query": "x", "options": {HUGE: 1}}, "options: a field name of 50,000"),
        ("memory_timeline", {"granularity": HUGE}, "granularity: must be"),
        ("rename_tag", {"old": "a", "new": "b", "extra": HUGE}, "extra: is not an argument"),
    ],
)
async def test_a_huge_argument_is_refused_in_a_short_answer_that_does_not_echo_it(
    client: Any, tool: str, arguments: dict[str, Any], says: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    text = _text(await client.call_tool(tool, arguments))
    assert says in text
    assert len(text) < 400, text[:200]
    assert "x" * 100 not in text
    logged = [r.getMessage() for r in caplog.records]
    assert all("x" * 100 not in line for line in logged), max(logged, key=len)[:200]


@pytest.mark.anyio
async def test_a_call_after_a_refused_huge_one_is_served(client: Any) -> None:
    await client.call_tool("remember", {"content": "the deploy is on Friday", HUGE: 1})
    answer = await client.call_tool("remember", {"content": "the deploy is on Friday"})
    assert not answer.is_error


@pytest.mark.anyio
async def test_a_huge_tool_name_is_refused_in_a_short_answer(client: Any) -> None:
    text = _text(await client.call_tool(HUGE, {}))
    assert "50,000 characters" in text and len(text) < 200


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("name", "arguments"),
    [(HUGE, {}), ("session_context", {HUGE: "1"})],
)
async def test_a_huge_prompt_name_or_argument_name_is_refused_in_a_short_error(
    client: Any, name: str, arguments: dict[str, str]
) -> None:
    from mcp.shared.exceptions import MCPError

    with pytest.raises(MCPError) as refused:
        await client.get_prompt(name, arguments)
    assert "50,000 characters" in str(refused.value) and len(str(refused.value)) < 200


@pytest.mark.anyio
async def test_a_huge_resource_address_is_refused_in_a_short_error(client: Any) -> None:
    from mcp.shared.exceptions import MCPError

    with pytest.raises(MCPError) as refused:
        await client.read_resource("engram://" + HUGE)
    assert len(str(refused.value)) < 200 and len(repr(refused.value.error)) < 400


@pytest.mark.anyio
async def test_a_max_tokens_of_thousands_of_digits_is_named_not_an_internal_error(client: Any) -> None:
    from mcp.shared.exceptions import MCPError

    with pytest.raises(MCPError) as refused:
        await client.read_resource("engram://context?max_tokens=" + "9" * 4000)
    assert str(refused.value).startswith("max_tokens: must be at most")
    assert len(str(refused.value)) < 200


def test_the_server_logs_plain_lines_cut_short(tmp_path: Path) -> None:
    """The SDK installs a rich terminal handler that wraps a long message into a narrow column: writing one
    50,000-character name took most of a minute. Building the server replaces it with plain, bounded lines."""
    with Memory(tmp_path / "log.db", embedder=FakeEmbedder()) as mem:
        build(lambda ctx: mem)
    handlers = logging.getLogger().handlers
    assert not [h for h in handlers if type(h).__name__ == "RichHandler"]
    ours = [h for h in handlers if getattr(h, "engram_plain", False)]
    assert ours
    record = logging.LogRecord("mcp", logging.ERROR, __file__, 1, "Unknown prompt: %s", (HUGE,), None)
    assert len(ours[0].format(record)) < 2_200


@pytest.mark.parametrize(
    "message",
    [
        {"jsonrpc": "2.0", "id": 5, "method": HUGE, "params": {}},
        {"jsonrpc": "2.0", "id": HUGE, "method": "ping"},
    ],
    ids=["method", "id"],
)
def test_over_http_a_huge_method_or_id_is_refused_without_echoing_it(
    tmp_path: Path, message: dict[str, Any]
) -> None:
    import json

    from fastapi.testclient import TestClient

    from engram.interfaces.http.serve import build_app

    app = build_app(
        Settings(home=tmp_path, maintain_every_minutes=0),
        db=tmp_path / "l.db",
        embedder=FakeEmbedder(),
        require_key=False,
    )
    accept = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        answer = client.post("/mcp", content=json.dumps(message).encode(), headers=accept)
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == -32600
    assert len(answer.content) < 300
