"""Reviewing many memories at once, and the reason each memory waits."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.errors import InvalidInput, NotFound
from engram.model.record import Status
from engram.review.queue import why_waiting


@pytest.fixture
def lite(tmp_path: Path, settings: Settings) -> Iterator[Memory]:
    with Memory(tmp_path / "bulk.db", embedder=FakeEmbedder(), settings=settings) as memory:
        yield memory


def _queued(memory: Memory) -> dict[str, str]:
    """Pending memories of three extracted kinds and confidences, by content."""
    for kind, confidence, text in (
        ("hypothesis", 0.50, "I think the old projector is broken."),
        ("hypothesis", 0.55, "Maybe the lab printer needs toner."),
        ("fact", 0.45, "The fridge in room 4 is ours."),
        ("todo", 0.58, "Order lab goggles for the new students."),
    ):
        memory.remember(
            text,
            kind="knowledge" if kind != "todo" else "task",
            status="pending",
            metadata={"candidate": {"kind": kind, "confidence": confidence}},
        )
    return {r.content: r.id for r in memory.pending()}


def test_approve_by_ids_reject_by_filter_each_audited(mem: Memory) -> None:
    ids = _queued(mem)
    chosen = [ids["Order lab goggles for the new students."], ids["The fridge in room 4 is ours."]]
    approved = mem.review_many("approve", ids=chosen)
    assert sorted(r.id for r in approved) == sorted(chosen)
    assert all(mem.get(i).status == Status.APPROVED for i in chosen)
    # The hypotheses left: rejected by filter, and nothing else is touched.
    rejected = mem.review_many("reject", kind="hypothesis")
    assert {r.content for r in rejected} == {
        "I think the old projector is broken.",
        "Maybe the lab printer needs toner.",
    }
    assert mem.pending() == []
    assert all(mem.get(i).status == Status.APPROVED for i in chosen)
    reviews = [e for e in mem.store.audit_log(limit=100) if e["action"] == "review"]
    assert len(reviews) == 4 and {e["detail"]["from"] for e in reviews} == {"pending"}


def test_filters_combine_and_limit_caps(lite: Memory) -> None:
    ids = _queued(lite)
    low = lite.review_many("reject", below_confidence=0.52)
    assert {r.content for r in low} == {
        "I think the old projector is broken.",
        "The fridge in room 4 is ours.",
    }
    # a record kind matches the memories of that kind whatever was extracted
    one = lite.review_many("approve", kind="knowledge", limit=1)
    assert [r.content for r in one] == ["Maybe the lab printer needs toner."]
    # ids and a filter: the ids the filter keeps
    todo = ids["Order lab goggles for the new students."]
    assert lite.review_many("approve", ids=[todo], kind="hypothesis") == []
    assert lite.get(todo).status == Status.PENDING
    assert [r.id for r in lite.review_many("approve", ids=[todo], kind="todo")] == [todo]


def test_bad_bulk_requests_name_the_field_and_change_nothing(lite: Memory) -> None:
    ids = _queued(lite)
    with pytest.raises(InvalidInput, match="ids: give memory ids, or a filter"):
        lite.review_many("approve")
    with pytest.raises(InvalidInput, match="action: must be approve or reject"):
        lite.review_many("edit", kind="todo")
    with pytest.raises(InvalidInput, match="kind: must be a memory kind"):
        lite.review_many("approve", kind="chore")
    with pytest.raises(InvalidInput, match="below_confidence"):
        lite.review_many("approve", below_confidence=1.5)
    with pytest.raises(InvalidInput, match="limit"):
        lite.review_many("approve", kind="todo", limit=0)
    with pytest.raises(InvalidInput, match="ids: must be a list"):
        lite.review_many("approve", ids="abc")
    # One unknown id among good ones: refused before any memory changes.
    with pytest.raises(NotFound):
        lite.review_many("approve", ids=[*ids.values(), "no-such-memory"])
    superseded = lite.remember("Tomas lives in Lisbon").id
    lite.supersede(superseded, "Tomas moved to Porto")
    with pytest.raises(InvalidInput, match=r"ids\[1\]: is superseded"):
        lite.review_many("approve", ids=[next(iter(ids.values())), superseded])
    assert len(lite.pending()) == 4


def test_ingest_writes_why_each_memory_waits(lite: Memory) -> None:
    lite.ingest(
        [
            {"role": "user", "content": "I think the old projector is broken."},
            {"role": "user", "content": "My email is tomas.lima@example.pt, write any time."},
            {"role": "user", "content": "My name is Tomas Lima."},
        ]
    )
    reasons = {r.content: r.metadata.get("review_reason") for r in lite.pending()}
    assert reasons["I think the old projector is broken."] == (
        "extracted with confidence 0.50, below the 0.60 approval line"
    )
    email = next(reason for content, reason in reasons.items() if "@" in content)
    assert email == "holds personal data: email address"
    # an approved memory carries no reason to wait
    name = next(r for r in lite.list() if r.content == "My name is Tomas Lima.")
    assert name.status == Status.APPROVED and "review_reason" not in name.metadata
    assert all(why_waiting(r) == r.metadata["review_reason"] for r in lite.pending())


def test_why_waiting_reads_older_records(lite: Memory) -> None:
    low = lite.remember(
        "Maybe the lab printer needs toner.",
        status="pending",
        metadata={"candidate": {"kind": "hypothesis", "confidence": 0.5}},
    )
    private = lite.remember(
        "Call Tomas on +49 151 23456789 about the order.",
        status="pending",
        metadata={"candidate": {"kind": "todo", "confidence": 0.7}, "pii": {"risk": 2, "kinds": ["phone"]}},
    )
    plain = lite.remember("Check the backup logs.", status="pending")
    assert why_waiting(lite.get(low.id)) == "extracted with confidence 0.50, below the 0.60 approval line"
    assert why_waiting(lite.get(private.id)) == "holds personal data: phone number"
    assert why_waiting(lite.get(plain.id)) == "stored as pending by the writer, to be reviewed"
