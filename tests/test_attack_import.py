"""Fields of an import record the SHODH schema does not name. The schema's rule for a field an implementation does
not support is to keep it in `metadata`: a foreign record's own fields are kept there, not dropped unseen. One of
Engram's own fields written at the top level (scope_id, kind, importance ...) is refused naming it, since its place
is `metadata.engram` and taking it at the top would guess what it meant."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engram import FakeEmbedder, Memory, Status
from engram.errors import InvalidInput
from engram.store.values import Filter
from tests.records import shodh_record

EVERYTHING = Filter(statuses=tuple(Status), include_expired=True)


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_foreign_records_own_fields_are_kept_in_its_metadata(mem: Memory, tmp_path: Path) -> None:
    row = shodh_record(
        "Use JWT tokens with 24h expiry",
        project="mobile-app",
        reviewer={"team": "security"},
        metadata={"a": 1},
    )
    report = mem.import_memories(_write(tmp_path / "in.jsonl", [row]))
    assert report["imported"] == 1
    stored = mem.get(row["id"])
    assert stored.metadata == {"a": 1, "project": "mobile-app", "reviewer": {"team": "security"}}
    # And they travel on: exported and imported elsewhere, the record is the same.
    mem.export_memories(tmp_path / "out.jsonl")
    with Memory(tmp_path / "again.db", embedder=FakeEmbedder()) as again:
        again.import_memories(tmp_path / "out.jsonl")
        assert again.get(row["id"]).metadata == stored.metadata


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("scope_id", "project-x"),
        ("kind", "task"),
        ("importance", 0.9),
        ("status", "pending"),
        ("engram", {"scope_id": "project-x"}),
    ],
)
def test_an_engram_field_at_the_top_level_is_refused_naming_where_it_goes(
    mem: Memory, tmp_path: Path, field: str, value: Any
) -> None:
    rows = [
        shodh_record("Sailing boats need a keel"),
        shodh_record("Apples grow in the orchard", **{field: value}),
    ]
    with pytest.raises(InvalidInput) as caught:
        mem.import_memories(_write(tmp_path / "in.jsonl", rows))
    assert caught.value.field == f"line 2.{field}" and "metadata.engram" in caught.value.problem
    assert mem.store.count(EVERYTHING) == 0


def test_a_kept_field_that_metadata_holds_otherwise_is_refused(mem: Memory, tmp_path: Path) -> None:
    row = shodh_record("Sailing boats need a keel", project="boat", metadata={"project": "orchard"})
    with pytest.raises(InvalidInput) as caught:
        mem.import_memories(_write(tmp_path / "in.jsonl", [row]))
    assert caught.value.field == "line 1.project" and "metadata" in caught.value.problem
    same = shodh_record("Sailing boats need a keel", project="boat", metadata={"project": "boat"})
    assert mem.import_memories(_write(tmp_path / "same.jsonl", [same]))["imported"] == 1


def test_a_kept_field_is_bounded_as_metadata_is(mem: Memory, tmp_path: Path) -> None:
    deep: Any = "bottom"
    for _ in range(100):
        deep = {"d": deep}
    with pytest.raises(InvalidInput) as caught:
        mem.import_memories(
            _write(tmp_path / "in.jsonl", [shodh_record("Sailing boats need a keel", extra=deep)])
        )
    assert caught.value.field == "line 1.extra" and "nested deeper" in caught.value.problem
    assert mem.store.count(EVERYTHING) == 0


def test_a_server_refuses_a_file_of_more_records_than_it_holds_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every record is checked in memory before any is stored, at about 25 times its line: an upload of tiny
    records within the upload limit took gigabytes. A server counts them first; the CLI, where the database is,
    imports any file."""
    from engram.interop import transfer

    monkeypatch.setattr(transfer, "MAX_SERVER_RECORDS", 50)
    rows = [{"format": "shodh-memory+jsonl", "model": None, "dim": None}]
    rows += [shodh_record(f"note number {i} about the garden") for i in range(51)]
    files = tmp_path / "files"
    files.mkdir()
    _write(files / "many.jsonl", rows)
    _write(files / "enough.jsonl", rows[:51])
    with Memory(tmp_path / "server.db", embedder=FakeEmbedder(), files=files) as server:
        with pytest.raises(InvalidInput) as caught:
            server.import_memories("many.jsonl")
        assert caught.value.field == "file" and "engram import" in caught.value.problem
        assert server.store.count(EVERYTHING) == 0
        assert server.import_memories("enough.jsonl")["imported"] == 50
    with Memory(tmp_path / "local.db", embedder=FakeEmbedder()) as local:
        assert local.import_memories(files / "many.jsonl")["imported"] == 51
