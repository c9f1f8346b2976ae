"""The embedded store keeps a memory's classifier scores as a small blob, and reads back exactly what was written,
whichever form a row holds (rows written before the blob hold JSON)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory
from engram.store import scores
from engram.store.rows import COLUMNS, record_from_row, record_to_row

# As the classifier writes them: part.label -> a value rounded to 4 decimals, some negative (cosines).
WRITTEN = {
    f"{part}.{label}": round(((i * 7 + j * 13) % 200 - 40) / 197, 4)
    for i, part in enumerate(("opening", "probability", "prototype", "readout", "whole"))
    for j, label in enumerate(("identity", "knowledge", "note", "reference", "task"))
}


def test_classifier_scores_are_a_small_blob_that_reads_back_exactly() -> None:
    stored = scores.encode(WRITTEN)
    assert isinstance(stored, bytes) and len(stored) < 80 < 600 < len(json.dumps(WRITTEN))
    back = scores.decode(stored)
    assert back == WRITTEN and list(back) == sorted(WRITTEN)
    assert all(repr(back[k]) == repr(v) for k, v in WRITTEN.items())  # the same floats, not near ones


@pytest.mark.parametrize(
    "odd",
    [
        {"opening.task": 0.12345},  # more decimals than ten-thousandths
        {"opening.task": 4.0},  # past what 16 bits of ten-thousandths hold
        {"opening.task": 1e308},  # scaled, infinity: no integer at all
        {"opening.task": 1},  # an integer reads back as an integer
        {"opening.task": -0.0},
        {"opening.task": float("nan")},
        {"task": 0.5},  # no part
        {"a-part-named-at-length." + "x" * 300: 0.5},
    ],
)
def test_scores_a_blob_cannot_hold_exactly_stay_json(odd: dict[str, float]) -> None:
    stored = scores.encode({**WRITTEN, **odd})
    assert isinstance(stored, str)
    assert json.dumps(scores.decode(stored), sort_keys=True) == json.dumps({**WRITTEN, **odd}, sort_keys=True)


def test_a_sparse_grid_and_names_outside_the_vocabulary_read_back() -> None:
    written = {"opening.task": 0.25, "readout.café": -1.5, "mine.note": 0.0001}
    stored = scores.encode(written)
    assert isinstance(stored, bytes) and scores.decode(stored) == written
    with pytest.raises(ValueError, match="kind_scores"):
        scores.decode(b"\x09" + stored[1:])


def test_a_store_keeps_written_scores_as_a_blob_and_reads_rows_of_json_as_before(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder=FakeEmbedder()) as mem:
        first = mem.remember("The boiler is serviced every October.").id
        second = mem.remember("Ada's phone number changed last week.").id
        record = mem.get(first)
        mem.store.update(record.model_copy(update={"kind_scores": WRITTEN}))
        old = mem.get(second).model_copy(update={"kind_scores": WRITTEN})
        mem.store.update(old)
    db = sqlite3.connect(path)
    # a row as an earlier version wrote it: the same scores as JSON text
    db.execute(
        "UPDATE memories SET kind_scores = ? WHERE id = ?", (json.dumps(WRITTEN, sort_keys=True), second)
    )
    db.commit()
    kinds = dict(db.execute("SELECT id, typeof(kind_scores) FROM memories").fetchall())
    db.close()
    assert kinds == {first: "blob", second: "text"}
    with Memory(path, embedder=FakeEmbedder()) as mem:
        assert mem.get(first).kind_scores == WRITTEN == mem.get(second).kind_scores
        assert mem.get(first).model_dump() == mem.get(first).model_copy().model_dump()


def test_rows_for_postgresql_keep_json(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        record = mem.get(mem.remember("Tea, not coffee, after six.").id).model_copy(
            update={"kind_scores": WRITTEN}
        )
    native = dict(zip(COLUMNS, record_to_row(record, native=True), strict=True))
    assert json.loads(native["kind_scores"]) == WRITTEN
    assert isinstance(dict(zip(COLUMNS, record_to_row(record), strict=True))["kind_scores"], bytes)
    assert record_from_row(record_to_row(record)).kind_scores == WRITTEN
