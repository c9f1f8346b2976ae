"""The tools an agent uses to look after its memories (browse, edit, forget by tag, review, read a conversation)
and the session context as prompt and resource, through the MCP SDK's client over both real transports: stdio
(`engram mcp` in its own process, with the real model) and streamable HTTP (`engram serve`'s app on uvicorn).
Refused arguments come back as one sentence naming the field."""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from engram import FakeEmbedder, Settings
from engram.agent.registry import TOOLS
from engram.interfaces.http.serve import build_app

# Words of the engine's inside that mean nothing to an agent reading a tool's description.
INTERNAL = ("SHODH", "MMR", "Seed", "seed 0", "paperbot", "prototype", "RRF", "BM25", "FTS")
NEW_TOOLS = {
    "session_context",
    "list_memories",
    "update_memory",
    "forget_by_tag",
    "review_memories",
    "ingest_conversation",
}


def _unique(prefix: str) -> str:
    """A name no other test of the module uses, in letters: a long run of digits reads as a card number, which
    the store redacts."""
    n, letters = time.monotonic_ns(), ""
    while n:
        n, digit = divmod(n, 26)
        letters += chr(ord("a") + digit)
    return f"{prefix}-{letters}"


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def http_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`engram serve --local`'s app, on a free loopback port, with the fake embedder."""
    home = tmp_path_factory.mktemp("serve")
    app = build_app(Settings(home=home), db=home / "local.db", embedder=FakeEmbedder(), require_key=False)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=_free_port(), log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{server.config.port}"
    server.should_exit = True
    thread.join(10)


@asynccontextmanager
async def _client(transport: str, tmp_path: Path, http_url: str | None) -> AsyncIterator[Any]:
    from mcp import Client

    if transport == "stdio":
        from mcp.client.stdio import StdioServerParameters

        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "engram", "--db", str(tmp_path / "stdio.db"), "mcp"],
            env={"ENGRAM_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"},
        )
        async with Client(params) as client:
            yield client
        return
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    async with (
        httpx2.AsyncClient(timeout=120) as http,
        Client(streamable_http_client(f"{http_url}/mcp", http_client=http)) as client,
    ):
        yield client


@pytest.fixture(scope="module", params=["stdio", "http"])
async def agent(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Any]:
    """One client per transport for the module (a stdio server loads the model once); each test keeps to its own
    tags and conversations."""
    url = request.getfixturevalue("http_url") if request.param == "http" else None
    async with _client(request.param, tmp_path_factory.mktemp("stdio"), url) as client:
        yield client


async def _call(agent: Any, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await agent.call_tool(tool, arguments)
    assert not result.is_error, f"{tool}: {result.content[0].text}"
    answer: dict[str, Any] = result.structured_content
    return answer


async def _refused(agent: Any, tool: str, **arguments: Any) -> str:
    result = await agent.call_tool(tool, arguments)
    assert result.is_error, f"{tool} accepted {arguments}"
    text: str = result.content[0].text
    return text


@pytest.mark.anyio
async def test_the_tools_are_described_in_plain_words(agent: Any) -> None:
    tools = {t.name: t for t in (await agent.list_tools()).tools}
    assert set(tools) == {t.name for t in TOOLS} and set(tools) >= NEW_TOOLS
    for tool in tools.values():
        words = json.dumps([tool.description, tool.input_schema])
        assert not [w for w in INTERNAL if w.lower() in words.lower()], tool.name
    assert tools["forget_by_tag"].annotations.destructive_hint is True
    assert tools["list_memories"].annotations.read_only_hint is True
    assert tools["session_context"].annotations.read_only_hint is True
    message = tools["ingest_conversation"].input_schema["$defs"]["ChatMessage"]["properties"]
    assert {"role", "content", "timestamp"} <= set(message) and all(
        p["description"] for p in message.values()
    )


@pytest.mark.anyio
async def test_an_agent_browses_edits_and_forgets_by_tag(agent: Any) -> None:
    tag = _unique("trip")  # one HTTP server serves the module: this test's own memories
    ids = []
    for text in (
        "Book the train to Porto",
        "The hotel in Porto is near the river",
        "Porto trip budget is 600 EUR",
    ):
        ids.append((await _call(agent, "remember", content=text, tags=[tag]))["id"])
    long = "The itinerary for the Porto trip: " + " ".join(
        f"stop {i} at the old town square;" for i in range(60)
    )
    ids.append((await _call(agent, "remember", content=long, tags=[tag]))["id"])
    # Newest first, a page at a time, the long one shortened.
    seen, cursor, pages = [], None, 0
    while True:
        page = await _call(agent, "list_memories", tag=tag, limit=3, **({"cursor": cursor} if cursor else {}))
        seen += page["memories"]
        pages += 1
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert [m["id"] for m in seen] == ids[::-1] and pages == 2
    assert seen[0]["shortened"] and len(seen[0]["content"]) <= 280 and not seen[1]["shortened"]
    assert (await _call(agent, "list_memories", tag=tag.upper(), kind="task", limit=100))["count"] <= 4

    # Edit: the new text is what recall finds; the old words no longer find it.
    edited = await _call(
        agent, "update_memory", id=ids[1], content="The hotel in Porto is in Ribeira", importance=0.9
    )
    assert edited["reembedded"] and set(edited["changed"]) == {"content", "importance"}
    assert edited["memory"]["content"] == "The hotel in Porto is in Ribeira"
    found = await _call(agent, "recall", query="hotel Ribeira", mode="ranked", limit=3)
    assert found["results"][0]["id"] == ids[1]
    assert "no memory with id" in await _refused(agent, "update_memory", id="nope", importance=0.2)
    assert "give new content or a field" in await _refused(agent, "update_memory", id=ids[1])

    # Forget by tag: refused without confirm (naming how many), then every one is gone.
    refusal = await _refused(agent, "forget_by_tag", tag=tag)
    assert refusal.startswith("confirm: must be true") and "4 memories" in refusal
    gone = await _call(agent, "forget_by_tag", tag=tag, confirm=True)
    assert gone["deleted"] == 4 and set(gone["ids"]) == set(ids)
    assert (await _call(agent, "list_memories", tag=tag))["memories"] == []


@pytest.mark.anyio
async def test_an_agent_reads_a_conversation_and_decides_on_what_waits(
    agent: Any, request: pytest.FixtureRequest
) -> None:
    chat = _unique("chat")
    messages = [
        {"role": "user", "content": "I moved to Lisbon in May and I work as a data engineer."},
        {"role": "assistant", "content": "Nice, Lisbon is lovely."},
        {
            "role": "user",
            "content": "Maybe I should learn Rust someday, not sure.",
            "timestamp": "2026-11-20T10:00:00Z",
        },
    ]
    read = await _call(agent, "ingest_conversation", messages=messages, conversation_id=chat)
    assert read["messages"] == 3 and read["approved"] >= 1 and read["pending"] >= 1
    again = await _call(agent, "ingest_conversation", messages=messages, conversation_id=chat)
    assert again["already_ingested"] == 3 and again["candidates"] == 0

    queue = (await _call(agent, "review_memories"))["pending"]
    rust = next(m for m in queue if "Rust" in m["content"])
    assert "confidence" in rust["why"] and rust["status"] == "pending"
    assert rust["id"] not in {m["id"] for m in (await _call(agent, "list_memories", limit=100))["memories"]}
    decided = await _call(agent, "review_memories", action="approve", ids=[rust["id"]])
    assert decided["reviewed"] == [rust["id"]] and decided["count"] == 1
    assert rust["id"] not in {m["id"] for m in (await _call(agent, "review_memories"))["pending"]}
    assert rust["id"] in {m["id"] for m in (await _call(agent, "list_memories", limit=100))["memories"]}

    # A session scope names the MCP session; stateless HTTP has none, so the agent must name one.
    own = {"messages": messages[:1], "conversation_id": f"{chat}-s", "scope": "session"}
    if request.node.callspec.params["agent"] == "http":
        refused = await _refused(agent, "ingest_conversation", **own)
        assert refused.startswith("scope_id: this connection has no MCP session")
    else:
        assert (await _call(agent, "ingest_conversation", **own))["messages"] == 1

    too_many = [{"role": "user", "content": "hi"}] * 501
    assert (await _refused(agent, "ingest_conversation", messages=too_many)).startswith(
        "messages: must hold at most 500 item(s), got"
    )
    assert await _refused(agent, "ingest_conversation", messages=[{"role": "user"}]) == (
        "messages[0].content: is required"
    )


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("tool", "arguments", "says"),
    [
        ("recall", {"query": "x", "limit": 5000}, "limit: must be at most 1000, got 5000"),
        ("list_memories", {"limit": "5"}, 'limit: must be a whole number, got "5"'),
        (
            "list_memories",
            {"status": "gone"},
            "status: must be 'approved', 'pending', 'rejected', 'superseded' or ",
        ),
        (
            "memory_timeline",
            {"granularity": "fortnight"},
            "granularity: must be 'day', 'month' or 'year', got",
        ),
        ("list_memories", {"bogus": 1}, "bogus: is not an argument this tool takes"),
        (
            "update_memory",
            {"memory_id": "x", "content": "y"},
            "memory_id: is not an argument this tool takes; id: is required",
        ),  # a misnamed argument: both names, not "id is required" alone
        (
            "update_memory",
            {"id": "x", "expires_at": "soon"},
            "expires_at: must be an ISO date or date and time",
        ),
        ("list_memories", {"cursor": "%%%"}, "cursor: is not a cursor list_memories returned"),
        ("session_context", {"max_tokens": 10}, "max_tokens: must be at least 50, got 10"),
    ],
)
async def test_a_refused_argument_is_one_sentence_naming_it(
    agent: Any, tool: str, arguments: dict[str, Any], says: str
) -> None:
    text = await _refused(agent, tool, **arguments)
    assert text.startswith(says), text
    assert (
        "\n" not in text and "pydantic" not in text and "http" not in text and "Error executing" not in text
    )


@pytest.mark.anyio
async def test_the_session_context_as_tool_prompt_and_resource(agent: Any) -> None:
    from mcp.shared.exceptions import MCPError

    name = _unique("Ines")
    await _call(
        agent, "remember", content=f"My name is {name} and I maintain the billing service", kind="identity"
    )
    await _call(agent, "remember", content="Submit the quarterly tax report by tomorrow", kind="task")
    told = await _call(agent, "session_context", max_tokens=400)
    assert name in told["text"] and "tax report" in told["text"] and told["tokens"] <= 400
    prompts = {p.name: p for p in (await agent.list_prompts()).prompts}
    assert {a.name for a in prompts["session_context"].arguments} == {"max_tokens", "query", "scope_id"}
    prompt = await agent.get_prompt("session_context", {"max_tokens": "400"})
    assert name in prompt.messages[0].content.text
    assert "engram://context" in {str(r.uri) for r in (await agent.list_resources()).resources}
    read = await agent.read_resource("engram://context")
    assert name in read.contents[0].text and read.contents[0].mime_type == "text/markdown"
    asked = await agent.read_resource("engram://context?max_tokens=60&query=billing")
    assert len(asked.contents[0].text.split()) <= 60  # tokens are at least words
    with pytest.raises(MCPError, match=r'max_tokens: must be a whole number, got "lots"'):
        await agent.get_prompt("session_context", {"max_tokens": "lots"})


def test_the_new_tools_run_over_rest_too(http_url: str) -> None:
    """The registry gives every tool a REST route: the same arguments, the same answers, the same refusals."""
    import httpx

    with httpx.Client(
        base_url=http_url, timeout=120
    ) as rest:  # a busy machine: the first write loads the classifiers
        tag = _unique("rest")
        made = rest.post(
            "/v1/tools/remember", json={"arguments": {"content": "Lunch is at noon", "tags": [tag]}}
        )
        assert made.status_code == 200, made.text
        listed = rest.post("/v1/tools/list_memories", json={"arguments": {"tag": tag}}).json()
        assert [m["id"] for m in listed["memories"]] == [made.json()["id"]]
        context = rest.post("/v1/tools/session_context", json={"arguments": {"max_tokens": 200}}).json()
        assert context["tokens"] <= 200 and context["max_tokens"] == 200
        refused = rest.post("/v1/tools/forget_by_tag", json={"arguments": {"tag": tag}})
        assert refused.status_code == 400 and refused.json()["field"] == "confirm"
