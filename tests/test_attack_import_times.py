"""An import file whose record says it was made, changed or last recalled in the future, or recalled a billion
times: ranking counts a memory used in the future as used now forever (never aging, never archived) and the
lifecycle promoted one with a count no use could make. Each is refused naming its line and field, and nothing
already stored is lost."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from engram import InvalidInput, Memory
from tests.clients import api  # noqa: F401 (a fixture)
from tests.records import shodh_record

FUTURE = "9999-01-01T00:00:00Z"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("created_at", FUTURE),
        ("updated_at", FUTURE),
        ("last_accessed_at", FUTURE),
        ("last_accessed_at", "9999-12-31T23:00:00-14:00"),
        ("access_count", 10**9),
    ],
)
def test_an_upload_with_a_future_time_or_a_count_no_use_made_is_refused(
    api: TestClient,  # noqa: F811
    field: str,
    value: object,
) -> None:
    assert api.post("/v1/store", json={"content": "the deploy runs on Fridays"}).status_code == 200
    crafted = shodh_record("the refund is sent on Mondays", **{field: value})
    answer = api.post("/v1/import", content=json.dumps(crafted).encode())
    assert answer.status_code == 400, answer.text
    assert answer.json()["field"] == f"line 1.{field}", answer.json()
    listed = api.get("/v1/memories").json()["memories"]
    assert [m["content"] for m in listed] == ["the deploy runs on Fridays"]


def test_a_file_with_a_future_time_is_refused_and_a_past_one_imported(mem: Memory, tmp_path: Path) -> None:
    kept = mem.remember("a memory stored before the import")
    soon = (datetime.now(UTC) + timedelta(days=30)).isoformat()
    ahead = shodh_record("dated a month ahead", last_accessed_at=soon)
    (tmp_path / "ahead.jsonl").write_text(json.dumps(ahead) + "\n", encoding="utf-8")
    with pytest.raises(InvalidInput) as caught:
        mem.import_memories(tmp_path / "ahead.jsonl")
    assert caught.value.field == "line 1.last_accessed_at" and "future" in caught.value.problem
    assert [r.id for r in mem.list()] == [kept.id]
    # Within a day of the clock (clocks differ), and any past time, and a count a memory could have are taken.
    hour = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    past = shodh_record("recalled often", access_count=5000, last_accessed_at=hour)
    (tmp_path / "past.jsonl").write_text(json.dumps(past) + "\n", encoding="utf-8")
    assert mem.import_memories(tmp_path / "past.jsonl")["imported"] == 1
    assert mem.get(past["id"]).access_count == 5000


def test_a_mem0_export_dated_in_the_future_is_refused(mem: Memory, tmp_path: Path) -> None:
    rows = [{"id": "m1", "memory": "the office moves in May", "created_at": FUTURE}]
    (tmp_path / "mem0.json").write_text(json.dumps(rows), encoding="utf-8")
    with pytest.raises(InvalidInput) as caught:
        mem.import_from("mem0", tmp_path / "mem0.json")
    assert caught.value.field.endswith("created_at") and "future" in caught.value.problem
    assert mem.list() == []
