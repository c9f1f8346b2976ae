"""The MCP server as an agent sees it (in-process client, the SDK's own transport): errors are one sentence that
names the field and the problem, schemas say what each tool takes, an argument a tool does not take is an error,
and what a tool does can be undone or deleted through MCP itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engram import FORGET_NOTE, FakeEmbedder, Memory, Settings
from engram.interfaces.mcp.server import NO_SESSION, build, session_id


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("tool", "arguments", "says"),
    [
        ("store_memory", {"content": "   "}, "content: must not be empty"),
        (
            "store_memory",
            {"content": "x", "context": {"force_importance": 9}},
            "context.force_importance: must be at most 5, got 9",
        ),
        (
            "search_memory",
            {"query": "db", "options": {"bogus": 1}},
            "options.bogus: is not a field of options",
        ),
        (
            "search_memory",
            {"query": "db", "limit": 1},
            "limit: is not an argument this tool takes",
        ),  # options.limit
        (
            "recall",
            {"query": "db", "limit": 0},
            "limit: must be at least 1, got 0",
        ),  # the schema says the range
        ("remember", {"content": "x", "importance": 4}, "importance: must be at most 1.0, got 4"),
        ("merge_memories", {"ids": ["a", "b"]}, "no memory with id a"),
        (
            "memory_timeline",
            {"granularity": "fortnight"},
            "granularity: must be 'day', 'month' or 'year', got \"fortnight\"",
        ),
        ("usage_patterns", {"top": -3}, "top: must be at least 1, got -3"),
        ("usage_patterns", {"top": "5"}, 'top: must be a whole number, got "5"'),  # numbers as JSON has them
        ("recall", {"query": "db", "limit": "5"}, 'limit: must be a whole number, got "5"'),
        ("rollback", {"operation_id": "op_nope"}, "no operation with id op_nope"),
        ("forget", {"id": "nope"}, "no memory with id nope"),
        ("forget", {"id": " "}, "id: must be a memory's id, not empty"),
        (
            "recall",
            {"query": "db", "kind": "gossip"},
            "kind: must be 'identity', 'task', 'knowledge', 'reference'",
        ),
        (
            "search_memory",
            {"query": "db", "options": {"time_range": {"after": "2026-05-01", "before": "2026-01-01"}}},
            "options.time_range: after must be earlier than before",
        ),
    ],
)
async def test_errors_reach_the_agent_with_the_field_and_the_problem(
    client: Any, tool: str, arguments: dict[str, Any], says: str
) -> None:
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    # One sentence, the field first: not the SDK's "Error executing tool" nor the validator's report with links.
    assert result.content[0].text.startswith(says) and "\n" not in result.content[0].text
    assert (await client.call_tool("memory_stats", {})).is_error is False  # and the server goes on


@pytest.mark.anyio
async def test_schemas_list_the_options_and_ranges_and_refuse_other_arguments(client: Any) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    store = tools["store_memory"].input_schema
    context = store["$defs"]["StoreContext"]
    assert {"force_category", "force_importance", "expires_at", "additional_tags"} <= set(
        context["properties"]
    )
    assert context["additionalProperties"] is False and store["additionalProperties"] is False
    assert "SearchOptions" in tools["search_memory"].input_schema["$defs"]
    top = tools["usage_patterns"].input_schema["properties"]["top"]
    assert top["minimum"] == 1
    assert tools["forget"].annotations.destructive_hint is True
    assert tools["rollback"].annotations.destructive_hint is True
    assert tools["operations"].annotations.read_only_hint is True
    assert tools["export_memories"].annotations.read_only_hint is False  # it writes a file


@pytest.mark.anyio
async def test_an_agent_can_undo_a_merge_and_forget_a_memory(client: Any) -> None:
    ids = [
        (await client.call_tool("store_memory", {"content": text})).structured_content["memory_id"]
        for text in ("Deploys go out on Thursdays", "The deploy window is Thursday afternoon")
    ]
    merged = (await client.call_tool("merge_memories", {"ids": ids})).structured_content
    listed = (await client.call_tool("operations", {"limit": 5})).structured_content["operations"]
    assert merged["operation_id"] in [o["id"] for o in listed]
    undone = await client.call_tool("rollback", {"operation_id": merged["operation_id"]})
    assert not undone.is_error
    found = await client.call_tool("search_memory", {"query": "deploy", "options": {"min_relevance": 0}})
    assert set(ids) <= {r["id"] for r in found.structured_content["results"]}
    gone = (await client.call_tool("forget", {"id": ids[0]})).structured_content
    assert gone == {"deleted": True, "id": ids[0], "archived": [], "note": FORGET_NOTE}
    found = await client.call_tool("search_memory", {"query": "deploy", "options": {"min_relevance": 0}})
    assert ids[0] not in {r["id"] for r in found.structured_content["results"]}


@pytest.mark.anyio
async def test_trace_search_leaves_usage_as_it_was(client: Any) -> None:
    stored = await client.call_tool("store_memory", {"content": "The staging database runs Postgres 16"})
    memory_id = stored.structured_content["memory_id"]
    for _ in range(2):
        traced = (await client.call_tool("trace_search", {"query": "staging database"})).structured_content
        assert memory_id in [r["id"] for r in traced["results"]]
    stats = (await client.call_tool("usage_patterns", {"top": 5})).structured_content
    assert memory_id in [m["id"] for m in stats["never_recalled"]["oldest"]]


@pytest.mark.anyio
async def test_a_session_scoped_memory_stays_in_its_session(tmp_path: Path, settings: Settings) -> None:
    from mcp import Client

    with Memory(tmp_path / "sessions.db", embedder=FakeEmbedder(), settings=settings) as mem:
        # Two agents, each with its own stdio server process, on one memory store.
        servers = [build(lambda ctx: mem) for _ in range(2)]
        async with Client(servers[0]) as mine, Client(servers[1]) as theirs:
            said = {
                "content": "The scratch branch for this session is wip-parser",
                "scope": "session",
                "tags": ["scratch-branch"],
            }
            own = (await mine.call_tool("remember", said)).structured_content["id"]
            shared = await mine.call_tool("remember", {"content": "The parser lives on the wip branch"})
            assert shared.structured_content["pii"] == {"risk": 0, "kinds": [], "redacted": False}
            mailed = await mine.call_tool("remember", {"content": "The parser's owner is ann@example.com"})
            assert mailed.structured_content["pii"]["kinds"] == [
                "email"
            ]  # reported, as store_memory reports it
            query = {"query": "wip parser branch", "options": {"min_relevance": 0}}
            for client, sees_own in ((mine, True), (theirs, False)):
                searched = await client.call_tool("search_memory", query)
                found = {r["id"] for r in searched.structured_content["results"]}
                recalled = await client.call_tool("recall", {"query": "wip parser branch", "mode": "ranked"})
                hits = {r["id"] for r in recalled.structured_content["results"]}
                assert shared.structured_content["id"] in found and shared.structured_content["id"] in hits
                assert (own in found, own in hits) == (sees_own, sees_own)
                # Nor do the advanced tools that show memories show it to another session.
                # "before the scratch branch" names an event: found among this session's memories only.
                asked = {
                    "trace_search": {"query": "wip parser branch"},
                    "usage_patterns": {},
                    "memory_timeline": {"granularity": "day"},
                    "search_memory": {"query": "what did we change before the scratch branch"},
                }
                shown = [
                    json.dumps((await client.call_tool(n, a)).structured_content) for n, a in asked.items()
                ]
                assert [own in text for text in shown] == [sees_own] * 4
                network = (await client.call_tool("concept_network", {})).structured_content
                assert (
                    "scratch-branch" in {n["id"] for n in network["nodes"]}
                ) == sees_own  # its tag neither
            tools = {t.name: t for t in (await theirs.list_tools()).tools}
            assert (
                "session" not in tools["trace_search"].input_schema["properties"]
            )  # the connection's, not asked
            # Named, another session's memories are seen: the scope_id is the caller's choice.
            record = mem.get(own)
            named = {
                "query": "wip parser branch",
                "mode": "ranked",
                "scope": "session",
                "scope_id": record.scope_id,
            }
            assert own in {
                r["id"] for r in (await theirs.call_tool("recall", named)).structured_content["results"]
            }


def test_the_session_is_the_clients_mcp_session_id_where_it_keeps_one() -> None:
    class Asked:
        def __init__(self, headers: dict[str, str] | None) -> None:
            self.headers = headers

    assert session_id(Asked({"mcp-session-id": "3f2a"}), "local-1") == "3f2a"  # type: ignore[arg-type]
    # A stateless HTTP request (protocol 2026-07-28) belongs to no session: each such client had shared the
    # server's one. Without headers (stdio: one client per process) the session is the server's.
    assert session_id(Asked({"authorization": "Bearer k"}), "local-1") == NO_SESSION  # type: ignore[arg-type]
    assert session_id(Asked(None), "local-1") == "local-1"  # type: ignore[arg-type]
