"""A SHODH file brings what no write gives a memory: classifier scores of 1e308 (which failed the store's write
with an OverflowError, a server error), NaN or infinity, confidences and a priority past their ranges, a method
name of thousands of characters, five thousand tags (each embedded in turn). Each is refused naming its line and
field, and nothing is imported; what was stored stays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.clients import api  # noqa: F401 (a fixture)


def _exported_record(api: TestClient, tmp_path: Path) -> tuple[Path, str, dict[str, Any]]:  # noqa: F811
    """A stored memory exported, and its record made into another memory's (new id and text, no vector) to
    craft: the tenant's file folder, the export's header line and the record."""
    assert api.post("/v1/store", json={"content": "the deploy runs on Fridays"}).status_code == 200
    exported = api.post("/v1/tools/export_memories", json={"arguments": {"path": "out.jsonl"}})
    assert exported.status_code == 200, exported.text
    files = tmp_path / "files" / "local"
    header, record = (files / "out.jsonl").read_text().splitlines()[:2]
    crafted = json.loads(record)
    crafted["id"], crafted["content"], crafted["embedding"] = (
        "crafted-1",
        "the refund is sent on Mondays",
        None,
    )
    return files, header, crafted


def _engram(name: str, value: Any) -> Any:
    def change(record: dict[str, Any]) -> None:
        record["metadata"]["engram"][name] = value

    return change


def _tags(count: int) -> Any:
    def change(record: dict[str, Any]) -> None:
        record["tags"] = [f"tag-{i}" for i in range(count)]

    return change


@pytest.mark.parametrize(
    ("field", "change"),
    [
        ("kind_scores.probability.task", _engram("kind_scores", {"probability.task": 1e308})),
        ("kind_scores.probability.task", _engram("kind_scores", {"probability.task": -7.5})),
        ("kind_scores", _engram("kind_scores", {f"probability.label-{i}": 0.5 for i in range(1_001)})),
        ("kind_scores", _engram("kind_scores", {"probability." + "x" * 5_000: 0.5})),
        ("kind_confidence", _engram("kind_confidence", 1e308)),
        ("category_confidence", _engram("category_confidence", -3.0)),
        ("kind_method", _engram("kind_method", "m" * 5_000)),
        ("priority", _engram("priority", 1e308)),
        ("tags", _tags(5_000)),
    ],
)
def test_an_import_bringing_values_no_write_gives_is_refused_naming_them(
    api: TestClient,  # noqa: F811
    tmp_path: Path,
    field: str,
    change: Any,
) -> None:
    files, header, crafted = _exported_record(api, tmp_path)
    change(crafted)
    (files / "crafted.jsonl").write_text(header + "\n" + json.dumps(crafted) + "\n")

    answer = api.post("/v1/tools/import_memories", json={"arguments": {"path": "crafted.jsonl"}})

    assert answer.status_code == 400, answer.text
    assert answer.json()["field"] == f"line 2.{field}", answer.json()
    listed = api.get("/v1/memories").json()["memories"]
    assert [m["content"] for m in listed] == ["the deploy runs on Fridays"]


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_an_import_of_scores_that_are_no_number_is_refused(
    api: TestClient,  # noqa: F811
    tmp_path: Path,
    number: str,
) -> None:
    """Python's JSON reader takes NaN and Infinity, which no JSON writer gives."""
    files, header, crafted = _exported_record(api, tmp_path)
    crafted["metadata"]["engram"]["kind_scores"] = {"probability.task": "PLACE"}
    line = json.dumps(crafted).replace('"PLACE"', number)
    (files / "crafted.jsonl").write_text(header + "\n" + line + "\n")

    answer = api.post("/v1/tools/import_memories", json={"arguments": {"path": "crafted.jsonl"}})

    assert answer.status_code == 400, answer.text
    assert answer.json()["field"].startswith("line 2."), answer.json()
    assert "kind_scores" in answer.json()["field"] + answer.json()["detail"], answer.json()
    assert len(api.get("/v1/memories").json()["memories"]) == 1


def test_an_export_with_a_memory_of_many_tags_and_its_scores_imports_back(
    api: TestClient,  # noqa: F811
    tmp_path: Path,
) -> None:
    """The bounds are those of memories Engram writes: its own export of one given the most tags a write takes,
    with the classifier's scores, comes back whole."""
    tags = [f"label-{i}" for i in range(100)]
    stored = api.post("/api/remember", json={"content": "the deploy runs on Fridays", "tags": tags})
    assert stored.status_code == 201, stored.text
    assert api.post("/v1/tools/export_memories", json={"arguments": {"path": "out.jsonl"}}).status_code == 200
    files = tmp_path / "files" / "local"
    header, record = (files / "out.jsonl").read_text().splitlines()[:2]
    crafted = json.loads(record)
    assert len(crafted["tags"]) >= 100 and crafted["metadata"]["engram"]["kind_scores"]
    crafted["id"], crafted["content"], crafted["embedding"] = (
        "crafted-1",
        "the refund is sent on Mondays",
        None,
    )
    (files / "again.jsonl").write_text(header + "\n" + json.dumps(crafted) + "\n")
    answer = api.post("/v1/tools/import_memories", json={"arguments": {"path": "again.jsonl"}})
    assert answer.status_code == 200 and answer.json()["imported"] == 1, answer.text
    back = api.get("/v1/memories/crafted-1").json()
    assert len(back["tags"]) == len(crafted["tags"])
