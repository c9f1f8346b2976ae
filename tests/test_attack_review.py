"""A review decision is a person's: once a memory was approved in review, a reject from a stale page or a second
tab does not undo it (nor an approve a reject), on any door; the same decision again changes nothing. A memory
approved by ingest on its own, which no person has decided on, can still be rejected."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from engram import InvalidInput, Memory
from engram.model.record import Status


def _waiting(mem: Memory, text: str) -> str:
    return mem.remember(
        text, status="pending", metadata={"candidate": {"kind": "fact", "confidence": 0.5}}
    ).id


def test_a_reject_does_not_follow_an_approval(mem: Memory) -> None:
    memory = _waiting(mem, "The fridge in room 4 is ours.")
    assert mem.review(memory, "approve").status == Status.APPROVED
    for decide in (lambda: mem.review(memory, "reject"), lambda: mem.review_many("reject", ids=[memory])):
        with pytest.raises(InvalidInput) as caught:
            decide()
        assert caught.value.field in ("id", "ids[0]") and "approved in review" in caught.value.problem
    with pytest.raises(InvalidInput, match="approved in review"):
        mem.run_tool("review_memories", action="reject", ids=[memory])
    assert mem.get(memory).status == Status.APPROVED


def test_an_approval_does_not_follow_a_reject_and_nothing_in_a_batch_changes(mem: Memory) -> None:
    gone = _waiting(mem, "Maybe the lab printer needs toner.")
    other = _waiting(mem, "I think the old projector is broken.")
    mem.review(gone, "reject")
    for action in ("approve", "edit"):
        with pytest.raises(InvalidInput, match="rejected in review"):
            mem.review(gone, action, "The lab printer needs toner." if action == "edit" else None)
    with pytest.raises(InvalidInput) as caught:
        mem.review_many("approve", ids=[other, gone])
    assert caught.value.field == "ids[1]"
    assert mem.get(gone).status == Status.REJECTED and mem.get(other).status == Status.PENDING


def test_the_same_decision_again_changes_nothing(mem: Memory) -> None:
    memory = _waiting(mem, "The fridge in room 4 is ours.")
    mem.review(memory, "approve")
    reviews = [e for e in mem.audit_log(memory) if e["action"] == "review"]
    again = mem.review_many("approve", ids=[memory])
    assert [r.status for r in again] == [Status.APPROVED]
    assert [e for e in mem.audit_log(memory) if e["action"] == "review"] == reviews


def test_a_memory_no_person_decided_on_can_still_be_rejected(mem: Memory) -> None:
    memory = mem.remember("Order lab goggles before Friday.").id  # approved as written, never reviewed
    assert mem.review(memory, "reject").status == Status.REJECTED


def test_a_stale_page_cannot_reject_over_rest_what_was_approved(api: TestClient) -> None:
    stored = api.post("/v1/store", json={"content": "The fridge in room 4 is ours."}).json()["memory_id"]
    api.patch(f"/v1/memories/{stored}", json={"status": "pending"})
    assert api.post("/v1/review", json={"action": "approve", "ids": [stored]}).status_code == 200
    refused = api.post("/v1/review", json={"action": "reject", "ids": [stored]})
    assert refused.status_code == 400 and refused.json()["field"] == "ids[0]"
    assert api.get(f"/v1/memories/{stored}").json()["status"] == "approved"
