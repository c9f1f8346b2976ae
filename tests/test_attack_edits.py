"""Edits that strand a memory: `superseded` set by an edit, with no memory replacing it, hid the memory for good
(an edit back to approved was refused as "superseded by a newer memory", review refused it too), so one PATCH from
a confused agent lost a memory as surely as a forget, without saying so. Only supersede and merge, which name the
memory that replaces it, set that status."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from engram import InvalidInput, Memory
from engram.model.record import Status


def test_an_edit_cannot_mark_a_memory_superseded_by_nothing(mem: Memory) -> None:
    memory = mem.remember("the office is on floor three").id
    with pytest.raises(InvalidInput) as caught:
        mem.update(memory, status="superseded")
    assert caught.value.field == "status" and "supersede" in caught.value.problem
    assert mem.get(memory).status == Status.APPROVED
    # Supersede still does, naming the newer memory; and the older one stays out of reach of an edit.
    newer = mem.supersede(memory, "the office moved to floor four").id
    assert mem.get(memory).status == Status.SUPERSEDED and mem.get(memory).metadata["superseded_by"] == newer
    with pytest.raises(InvalidInput, match="superseded by"):
        mem.update(memory, status="approved")


def test_rest_refuses_it_too_and_the_memory_stays_found(api: TestClient) -> None:
    memory = api.post("/v1/store", json={"content": "the office is on floor three"}).json()["memory_id"]
    refused = api.patch(f"/v1/memories/{memory}", json={"status": "superseded"})
    assert refused.status_code == 400 and refused.json()["field"] == "status"
    found = api.post("/v1/recall", json={"query": "office floor three"}).json()["results"]
    assert memory in [hit["memory"]["id"] for hit in found]
