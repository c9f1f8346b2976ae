"""SHODH's bulk delete, `POST /api/forget/by-tags`, forgot only the approved memories carrying a tag that had not
expired: one waiting for review, set aside as archived, rejected, merged into another or past its expiry kept its
text, though the answer said the memories carrying the tag were deleted. The forget_by_tag tool (REST, MCP,
Python) always took every status. The route now forgets as the tool does, each tag in turn, and counts them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient


def _stored(api: TestClient, content: str) -> str:
    answer = api.post("/api/remember", json={"content": content, "tags": ["scratch"]})
    assert answer.status_code == 201, answer.text
    memory_id: str = answer.json()["id"]
    return memory_id


def test_forget_by_tags_forgets_every_memory_carrying_the_tag_in_any_status(api: TestClient) -> None:
    approved = _stored(api, "The scratch disk password is fennel-otter-92")
    waiting = _stored(api, "The scratch build key is marble-heron-17")
    archived = _stored(api, "The scratch bucket token is amber-pike-44")
    rejected = _stored(api, "The scratch VM root password is cedar-lynx-08")
    merged = _stored(api, "The scratch share is mounted at /mnt/quartz-wren")
    yesterday = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    expired = _stored(api, "The scratch wifi password is basil-crane-63")
    kept = api.post("/api/remember", json={"content": "Lunch is at noon", "tags": ["lunch"]}).json()["id"]
    changes = [(waiting, {"status": "pending"}), (archived, {"status": "archived"})]
    changes += [(rejected, {"status": "rejected"}), (expired, {"expires_at": yesterday})]
    for memory_id, fields in changes:
        changed = api.patch(f"/v1/memories/{memory_id}", json=fields)
        assert changed.status_code == 200, changed.text
    folded = api.post("/v1/tools/merge_memories", json={"arguments": {"ids": [approved, merged]}})
    assert folded.status_code == 200, folded.text
    tagged = [approved, waiting, archived, rejected, merged, expired]
    assert all(api.get(f"/v1/memories/{i}").status_code == 200 for i in tagged)

    answer = api.post("/api/forget/by-tags", json={"tags": ["scratch"]})

    assert answer.status_code == 200, answer.text
    assert answer.json()["deleted_count"] == len(tagged)
    left = {i: api.get(f"/v1/memories/{i}").json().get("status") for i in tagged}
    assert all(api.get(f"/v1/memories/{i}").status_code == 404 for i in tagged), left
    assert api.get(f"/v1/memories/{kept}").status_code == 200
