"""Forged links and personal-data notes: an edit's metadata could name Engram's own keys, `updated_by` (search then
marked a memory as changed and put another before it), `superseded_by`, `merged_into`, `supersedes_id`,
`updates`, and drop `pii_found` (a memory holding an e-mail address then came back as a guess to any question).
They are Engram's: an edit may send them back as they are, as a client round-tripping metadata does, but not set,
change or remove them; supersede and merge still set them."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from engram import InvalidInput, Memory
from engram.model.record import Status

LINKS = {
    "updated_by": "store_memory",
    "updates": "store_memory",
    "superseded_by": "supersede_memory",
    "supersedes_id": "supersede_memory",
    "merged_into": "merge_memories",
}


def _forged(key: str, other: str) -> Any:
    return [other] if key == "updates" else other


@pytest.mark.parametrize("key", sorted(LINKS))
def test_the_python_api_refuses_a_link_naming_the_key_and_the_tool(mem: Memory, key: str) -> None:
    target = mem.remember("the staging database runs on port 5433").id
    other = mem.remember("the production database runs on port 5432").id
    before = mem.get(target).model_dump()
    with pytest.raises(InvalidInput) as caught:
        mem.update(target, metadata={key: _forged(key, other)}, importance=0.9)
    assert caught.value.field == f"metadata.{key}" and LINKS[key] in caught.value.problem
    assert mem.get(target).model_dump() == before  # nothing of the edit was written, importance neither


def test_a_kept_link_cannot_be_changed_or_removed_but_is_kept_when_sent_back_or_left_out(mem: Memory) -> None:
    older = mem.remember("the office is on floor three").id
    newer = mem.supersede(older, "the office moved to floor four").id
    elsewhere = mem.remember("the canteen is on floor one").id
    assert mem.get(older).metadata["superseded_by"] == newer  # supersede still sets both ends
    assert mem.get(newer).metadata["supersedes_id"] == older
    for value in (elsewhere, None):  # pointed elsewhere, or removed
        with pytest.raises(InvalidInput) as caught:
            mem.update(older, metadata={"superseded_by": value})
        assert caught.value.field == "metadata.superseded_by"
    assert mem.get(older).metadata["superseded_by"] == newer
    # Sent back with the rest of the metadata, or left out of it, it stays.
    sent_back = mem.update(newer, metadata=mem.get(newer).metadata | {"note": "confirmed by facilities"})
    assert (
        sent_back.metadata["supersedes_id"] == older
        and sent_back.metadata["note"] == "confirmed by facilities"
    )
    left_out = mem.update(older, metadata={"note": "old plan"})
    assert left_out.metadata["superseded_by"] == newer and left_out.status is Status.SUPERSEDED


def test_a_merge_still_sets_its_link(mem: Memory) -> None:
    kept = mem.store_memory("Deploys go out on Tuesdays after the standup.")["memory_id"]
    folded = mem.store_memory("We deploy every Tuesday once the standup is over.")["memory_id"]
    mem.merge_memories([kept, folded], into=kept)
    assert mem.get(folded).metadata["merged_into"] == kept and mem.get(folded).status is Status.SUPERSEDED
    with pytest.raises(InvalidInput) as caught:
        mem.update(folded, metadata={"merged_into": folded})
    assert caught.value.field == "metadata.merged_into" and "merge_memories" in caught.value.problem


def test_an_updated_by_mark_set_by_the_engine_survives_a_round_trip_and_refuses_a_move(mem: Memory) -> None:
    older = mem.remember("Clara lives in Lisbon").id
    newer = mem.remember("Clara moved to Porto").id
    # As store_memory links a changed fact (engram.agent.store): written on the row, not through an edit.
    record = mem.get(older)
    mem.store.update(record.model_copy(update={"metadata": record.metadata | {"updated_by": newer}}))
    third = mem.remember("Clara visits Madrid in May").id
    with pytest.raises(InvalidInput) as caught:
        mem.update(older, metadata=mem.get(older).metadata | {"updated_by": third})
    assert caught.value.field == "metadata.updated_by"
    again = mem.update(older, metadata=mem.get(older).metadata, tags=["clara"])
    assert again.metadata["updated_by"] == newer and "clara" in again.tags


def test_rest_patch_is_refused_naming_the_key_and_a_round_trip_succeeds(api: TestClient) -> None:
    target = api.post("/v1/store", json={"content": "the staging database runs on port 5433"}).json()
    other = api.post("/v1/store", json={"content": "the production database runs on port 5432"}).json()
    url = f"/v1/memories/{target['memory_id']}"
    before = api.get(url).json()
    refused = api.patch(url, json={"metadata": {"updated_by": other["memory_id"]}})
    assert refused.status_code == 400 and refused.json()["field"] == "metadata.updated_by"
    assert "store_memory" in refused.json()["detail"]
    assert api.get(url).json() == before
    # The compatible API's PATCH merges the given metadata into the stored one: refused the same way.
    shodh = api.patch(f"/api/memories/{target['memory_id']}", json={"metadata": {"superseded_by": "x"}})
    assert shodh.status_code == 400 and shodh.json()["field"] == "metadata.superseded_by"
    assert api.get(url).json() == before
    # A client sending back what it read, with its own key added, is an ordinary edit.
    sent = api.patch(url, json={"metadata": before["metadata"] | {"owner": "platform team"}})
    assert sent.status_code == 200, sent.text
    assert sent.json()["metadata"] == before["metadata"] | {"owner": "platform team"}


@pytest.mark.anyio
async def test_the_update_memory_tool_takes_no_metadata_and_changes_nothing(client: Any) -> None:
    stored = await client.call_tool("store_memory", {"content": "the staging database runs on port 5433"})
    target = stored.structured_content["memory_id"]
    other = (await client.call_tool("store_memory", {"content": "prod runs on 5432"})).structured_content
    forged = {"id": target, "importance": 0.9, "metadata": {"updated_by": other["memory_id"]}}
    refused = await client.call_tool("update_memory", forged)
    assert refused.is_error and "metadata" in refused.content[0].text
    found = await client.call_tool(
        "search_memory", {"query": "staging database port", "options": {"limit": 5}}
    )
    hits = found.structured_content["results"]
    assert all("updated_by" not in h for h in hits)
    assert next(h for h in hits if h["id"] == target)["importance"] != 0.9


def test_personal_data_notes_cannot_be_dropped_or_forged(mem: Memory) -> None:
    noted = mem.store_memory("Dana's e-mail is dana.kowalski@example.org")["memory_id"]
    plain = mem.store_memory("The team lunch is on Friday")["memory_id"]
    assert mem.get(noted).metadata["pii_found"]
    changes: list[dict[str, Any]] = [{"pii_found": []}, {"pii_found": None}]
    for change in changes:
        with pytest.raises(InvalidInput) as caught:
            mem.update(noted, metadata=change)
        assert caught.value.field == "metadata.pii_found"
    with pytest.raises(InvalidInput) as caught:
        mem.update(plain, metadata={"pii_found": ["email"]})
    assert caught.value.field == "metadata.pii_found"
    # Left out of an edit's metadata it stays, so the memory is still never offered as a guess.
    assert mem.update(noted, metadata={"note": "work contact"}).metadata["pii_found"]
    guesses = mem.search_memory("what colour is the sky on Mars")["results"]
    assert noted not in [h["id"] for h in guesses]
    # New content is read again: the note goes with the address.
    assert "pii_found" not in mem.update(noted, content="Dana prefers calls to e-mail").metadata


@pytest.mark.parametrize("key", sorted(LINKS))
def test_supersede_refuses_links_in_the_new_memorys_metadata(mem: Memory, key: str) -> None:
    older = mem.remember("the office is on floor three").id
    elsewhere = mem.remember("the canteen is on floor one").id
    count = mem.count()
    with pytest.raises(InvalidInput) as caught:
        mem.supersede(older, "the office moved to floor four", metadata={key: _forged(key, elsewhere)})
    assert caught.value.field == f"metadata.{key}" and LINKS[key] in caught.value.problem
    assert mem.count() == count and mem.get(older).status is Status.APPROVED
    newer = mem.supersede(older, "the office moved to floor four", metadata={"source": "facilities"})
    assert mem.get(newer.id).metadata["supersedes_id"] == older


@pytest.mark.parametrize("key", sorted(LINKS))
def test_a_new_memory_cannot_bring_a_link_of_its_own(mem: Memory, api: TestClient, key: str) -> None:
    """remember (Python, REST's /api/remember) with `updated_by` in its metadata pulled the named memory into search
    results beside it; only the tools that link memories set such keys."""
    other = mem.remember("the production database runs on port 5432").id
    with pytest.raises(InvalidInput) as caught:
        mem.remember("the staging database runs on port 5433", metadata={key: _forged(key, other)})
    assert caught.value.field == f"metadata.{key}"
    assert mem.stats()["memories"] == 1
    answer = api.post(
        "/api/remember", json={"content": "the backup database runs on 5434", "metadata": {key: "x"}}
    )
    assert answer.status_code == 400 and answer.json()["field"] == f"metadata.{key}", answer.text
    kept = mem.remember("the staging database runs on port 5433", metadata={"owner": "ops"})
    assert mem.get(kept.id).metadata["owner"] == "ops"  # other metadata is the caller's
