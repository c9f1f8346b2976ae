"""An MCP client over stateless HTTP has no session: the server asks the store for that session's memories with
a session id no memory can hold, so none of another session's show. The id was a NUL, which PostgreSQL refuses
in any query: on a PostgreSQL store every tool that shows session memories (recall, search_memory, list_memories,
session_context, memory_timeline, usage_patterns) failed for every stateless client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.interfaces.mcp.server import NO_SESSION

TOOLS: list[tuple[str, dict[str, Any]]] = [
    ("recall", {"query": "the blue pot", "mode": "ranked"}),
    ("search_memory", {"query": "the blue pot", "options": {"min_relevance": 0}}),
    ("list_memories", {}),
    ("session_context", {"query": "the blue pot"}),
    ("memory_timeline", {"granularity": "day", "examples": 50}),
    ("usage_patterns", {}),
]


@pytest.mark.parametrize(("tool", "arguments"), TOOLS, ids=[t for t, _ in TOOLS])
def test_a_stateless_client_is_answered_and_sees_no_sessions_memories(
    db_location: str | Path, settings: Settings, tool: str, arguments: dict[str, Any]
) -> None:
    with Memory(db_location, embedder=FakeEmbedder(), settings=settings) as mem:
        mem.remember("the spare key is under the blue pot")
        mem.remember("the blue pot of chat 7 holds the gate code", scope="session", scope_id="chat-7")
        answer = str(mem.run_tool(tool, session=NO_SESSION, **arguments))
        assert "gate code" not in answer
        if tool in ("recall", "search_memory", "list_memories"):
            assert "the spare key is under the blue pot" in answer
