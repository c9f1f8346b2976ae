"""An import file whose counters no database integer holds (an access count of 2**70) or that no memory can have
(a negative count, a negative chunk position): each refused naming its line and field, and nothing imported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.clients import api  # noqa: F401 (a fixture)


@pytest.mark.parametrize(
    ("field", "value"),
    [("access_count", 2**70), ("access_count", -5), ("token_count", 2**64), ("token_count", -1)],
)
def test_an_import_with_a_count_no_store_holds_is_refused_naming_it(
    api: TestClient,  # noqa: F811
    tmp_path: Path,
    field: str,
    value: int,
) -> None:
    assert api.post("/v1/store", json={"content": "the deploy runs on Fridays"}).status_code == 200
    exported = api.post("/v1/tools/export_memories", json={"arguments": {"path": "out.jsonl"}})
    assert exported.status_code == 200, exported.text
    files = tmp_path / "files" / "local"
    path = files / "out.jsonl"
    header, record = path.read_text().splitlines()[:2]
    crafted = json.loads(record)
    crafted["id"], crafted["content"] = "crafted-1", "the refund is sent on Mondays"
    crafted[field] = value
    (files / "crafted.jsonl").write_text(header + "\n" + json.dumps(crafted) + "\n")
    answer = api.post("/v1/tools/import_memories", json={"arguments": {"path": "crafted.jsonl"}})
    assert answer.status_code == 400, answer.text
    assert answer.json()["field"] == f"line 2.{field}"
    listed = api.get("/v1/memories").json()["memories"]
    assert [m["content"] for m in listed] == ["the deploy runs on Fridays"]


def test_an_import_of_a_memory_superseded_by_nothing_is_refused_naming_it(
    api: TestClient,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Superseded by nothing, a memory is stranded: no edit nor review makes it live again (an edit refuses to
    make one so), and no search finds it."""
    assert api.post("/v1/store", json={"content": "the deploy runs on Fridays"}).status_code == 200
    assert api.post("/v1/tools/export_memories", json={"arguments": {"path": "out.jsonl"}}).status_code == 200
    files = tmp_path / "files" / "local"
    header, record = (files / "out.jsonl").read_text().splitlines()[:2]
    crafted = json.loads(record)
    crafted["id"], crafted["content"] = "crafted-1", "the refund is sent on Mondays"
    crafted["metadata"]["engram"]["status"] = "superseded"
    (files / "crafted.jsonl").write_text(header + "\n" + json.dumps(crafted) + "\n")
    answer = api.post("/v1/tools/import_memories", json={"arguments": {"path": "crafted.jsonl"}})
    assert answer.status_code == 400, answer.text
    assert answer.json()["field"] == "line 2.status" and "replaces it" in answer.json()["detail"]
    # One that names what replaced it, as an export of a superseded memory does, is imported.
    crafted["metadata"]["superseded_by"] = "crafted-2"
    (files / "named.jsonl").write_text(header + "\n" + json.dumps(crafted) + "\n")
    answer = api.post("/v1/tools/import_memories", json={"arguments": {"path": "named.jsonl"}})
    assert answer.status_code == 200 and answer.json()["imported"] == 1, answer.text
