"""One MCP session reviewing another's: the review tool showed every pending memory, another session's session
memories among them (their text: a search or a list from that session leaves them out), and approved or
rejected them by id or by a filter. It now takes the session asking, as the searches do: another session's
session memories are not listed, an id of one is not found, and a filter passes them by; nothing of theirs
changes."""

from __future__ import annotations

import pytest

from engram import Memory, NotFound
from engram.model.record import Status


@pytest.fixture
def queue(mem: Memory) -> tuple[Memory, str, str]:
    theirs = mem.remember(
        "chat A's plan: launch on the 9th", scope="session", scope_id="chat-a", status="pending", kind="task"
    ).id
    shared = mem.remember("renew the parking permit", status="pending", kind="task").id
    return mem, theirs, shared


def test_another_sessions_pending_memory_is_not_listed(queue: tuple[Memory, str, str]) -> None:
    mem, theirs, shared = queue
    listed = mem.run_tool("review_memories", action="list", session="chat-b")
    assert [m["id"] for m in listed["pending"]] == [shared]
    own = mem.run_tool("review_memories", action="list", session="chat-a")
    assert {m["id"] for m in own["pending"]} == {theirs, shared}


@pytest.mark.parametrize("action", ["approve", "reject"])
def test_another_sessions_pending_memory_is_not_decided(queue: tuple[Memory, str, str], action: str) -> None:
    mem, theirs, shared = queue
    with pytest.raises(NotFound):
        mem.run_tool("review_memories", action=action, ids=[shared, theirs], session="chat-b")
    assert mem.get(shared).status == mem.get(theirs).status == Status.PENDING  # the batch is all or nothing
    decided = mem.run_tool("review_memories", action=action, kind="task", session="chat-b")
    assert decided["reviewed"] == [shared]
    assert mem.get(theirs).status == Status.PENDING
    assert mem.run_tool("review_memories", action=action, ids=[theirs], session="chat-a")["reviewed"] == [
        theirs
    ]
