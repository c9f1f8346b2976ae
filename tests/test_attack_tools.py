"""Attacks on the newest tools and on time words, as an agent or a page could send them: a question naming a
date past what Python holds, a timestamp UTC cannot hold, a lone surrogate where a tag goes, LIKE wildcards as a
tag. Each must answer or be refused with Engram's own error naming the field; none may crash or reach past what
was asked (a wildcard tag deleting every memory)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from engram import FakeEmbedder, InvalidInput, Memory, Settings
from engram.interfaces.http.serve import build_app

# Each names a time past year 9999 or before year 1, or a span longer than a timedelta holds.
FAR_TIMES = [
    "what happened 5000 years ago",
    "what happened 99999999 weeks ago",
    "what happened 99999999999 years ago",
    "memories from the last 9999999999 days",
    "what happened in 9999",
    "what happened after 9999",
    "what did I do on 31 December 9999",
    "what happened on December 31st 9999 at 11pm",
]


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory(
        tmp_path / "a.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path), files=tmp_path / "f"
    ) as memory:
        yield memory


@pytest.mark.parametrize("query", FAR_TIMES)
def test_a_question_naming_a_time_past_the_calendar_is_searched_without_it(mem: Memory, query: str) -> None:
    mem.remember("the deploy happened on a Friday")
    found = mem.run_tool("search_memory", query=query)
    assert found["query_analysis"]["time_range"] is None  # no period Engram can hold: no time filter
    assert isinstance(mem.run_tool("recall", query=query)["results"], list)


def test_a_far_time_in_a_question_over_rest_is_answered_not_a_server_error(tmp_path: Path) -> None:
    app = build_app(
        Settings(home=tmp_path, maintain_every_minutes=0),
        db=tmp_path / "local.db",
        embedder=FakeEmbedder(),
        require_key=False,
    )
    with TestClient(app, base_url="http://127.0.0.1:8765", raise_server_exceptions=False) as client:
        client.post("/v1/store", json={"content": "the deploy happened on a Friday"})
        for query in FAR_TIMES[:4]:
            answer = client.post("/v1/recall", json={"query": query})
            assert answer.status_code == 200, (query, answer.text)
            answer = client.post("/v1/tools/search_memory", json={"arguments": {"query": query}})
            assert answer.status_code == 200, (query, answer.text)


@pytest.mark.parametrize("stamp", ["9999-12-31T23:59:59-12:00", "0001-01-01T00:00:00+14:00"])
def test_a_message_time_utc_cannot_hold_is_refused_naming_it(mem: Memory, stamp: str) -> None:
    message = {"role": "user", "content": "I live in Rome", "timestamp": stamp}
    with pytest.raises(InvalidInput) as caught:
        mem.run_tool("ingest_conversation", messages=[message])
    assert caught.value.field == "messages[0].timestamp" and "UTC" in str(caught.value)
    assert mem.stats()["memories"] == 0


def test_an_expiry_utc_cannot_hold_is_refused_and_the_memory_kept(mem: Memory) -> None:
    memory = mem.remember("the office is on the third floor").id
    with pytest.raises(InvalidInput) as caught:
        mem.run_tool("update_memory", id=memory, expires_at="9999-12-31T23:59:59-12:00")
    assert caught.value.field == "expires_at"
    assert mem.get(memory).expires_at is None
    # The last moment UTC holds is accepted.
    mem.run_tool("update_memory", id=memory, expires_at="9999-12-31T23:59:59+00:00")
    assert mem.get(memory).expires_at is not None and mem.get(memory).expires_at.year == 9999  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("list_memories", {"tag": "\ud800"}),
        ("list_memories", {"scope_id": "a\udfffb"}),
        ("forget_by_tag", {"tag": "\ud800", "confirm": True}),
        ("review_memories", {"action": "list", "kind": "\udc00"}),
        ("session_context", {"scope_id": "\ud800"}),
        ("rename_tag", {"old": "deploy", "new": "\ud800"}),
    ],
)
def test_a_lone_surrogate_in_a_tool_argument_is_refused_naming_it(
    mem: Memory, tool: str, arguments: dict[str, object]
) -> None:
    mem.remember("note about deploys", tags=["deploy"])
    with pytest.raises(InvalidInput) as caught:
        mem.run_tool(tool, **arguments)
    assert caught.value.field in arguments
    assert mem.stats()["memories"] == 1 and mem.tag_counts() == {"deploy": 1}


@pytest.mark.parametrize("tag", ["%", "_", "t_", "*", "deploy%", "[a-z]*"])
def test_a_wildcard_tag_matches_only_itself(mem: Memory, tag: str) -> None:
    keep = [mem.remember(f"note {i} about deploys", tags=["deploy", "ta"]).id for i in range(3)]
    assert mem.run_tool("list_memories", tag=tag)["memories"] == []
    assert mem.run_tool("forget_by_tag", tag=tag, confirm=True)["deleted"] == 0
    assert all(mem.get(i) for i in keep) and mem.stats()["memories"] == 3


def test_forget_by_tag_deletes_only_that_tag_and_needs_confirm(mem: Memory) -> None:
    gone = [mem.remember(f"old project note {i}", tags=["old-project"]).id for i in range(3)]
    kept = mem.remember("current project note", tags=["old-project-2", "current"]).id
    with pytest.raises(InvalidInput) as caught:
        mem.run_tool("forget_by_tag", tag="old-project", confirm="true")  # a string is not confirmation
    assert caught.value.field == "confirm" and mem.stats()["memories"] == 4
    answer = mem.run_tool("forget_by_tag", tag="OLD-PROJECT", confirm=True)
    assert sorted(answer["ids"]) == sorted(gone)
    assert mem.get(kept).content == "current project note" and mem.stats()["memories"] == 1


@pytest.mark.parametrize(
    "cursor",
    ["", "AAAA", "x" * 100_000, "eyJhIjoxfQ==", "bnVsbA==", "WzEsMl0=", "2024-01-01T00:00:00|x", "%00"],
)
def test_a_forged_cursor_is_refused_naming_it(mem: Memory, cursor: str) -> None:
    mem.remember("a memory to list")
    with pytest.raises(InvalidInput) as caught:
        mem.run_tool("list_memories", cursor=cursor)
    assert caught.value.field == "cursor"


def test_a_cursor_cannot_page_into_another_stores_memories(tmp_path: Path) -> None:
    """A cursor names a place in the order, not a memory to show: one from store A pages store B by B's own."""
    with (
        Memory(tmp_path / "a.db", embedder=FakeEmbedder()) as a,
        Memory(tmp_path / "b.db", embedder=FakeEmbedder()) as b,
    ):
        for i in range(3):
            a.remember(f"alpha secret {i}")
            b.remember(f"bravo note {i}")
        cursor = a.run_tool("list_memories", limit=1)["next_cursor"]
        try:
            page = b.run_tool("list_memories", cursor=cursor)
        except InvalidInput as refused:
            assert refused.field == "cursor"
        else:
            assert all(m["content"].startswith("bravo") for m in page["memories"])


def test_review_by_hostile_filters_decides_nothing_it_was_not_asked(mem: Memory) -> None:
    kept = mem.remember("a fact already approved").id
    for kind in ("%", "*", "task' OR '1'='1"):
        with pytest.raises(InvalidInput) as caught:
            mem.run_tool("review_memories", action="reject", kind=kind)
        assert caught.value.field == "kind"
    with pytest.raises(InvalidInput):
        mem.run_tool("review_memories", action="reject", below_confidence=float("nan"))
    assert mem.get(kept).status.value == "approved"
