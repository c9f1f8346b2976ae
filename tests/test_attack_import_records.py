"""SHODH records crafted against the importer: a `type` that is no text (a list, a mapping, a number) crashed the
whole import with an AttributeError (a 500 over REST), and a record of 200,000 tags was counted into the tag
registry tag by tag for seconds before the write refused it, and the import of every other record with it. Each
such record is now skipped with a reason naming the field, before anything is counted; the others are stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engram import Memory


def _imported(mem: Memory, tmp_path: Path, records: list[dict[str, object]]) -> dict[str, object]:
    path = tmp_path / "records.json"
    path.write_text(json.dumps({"memories": records}))
    return mem.import_from("shodh-json", path)


@pytest.mark.parametrize("bad", [["Decision"], {"name": "Decision"}, 5, True], ids=repr)
def test_a_type_that_is_no_text_skips_its_record(mem: Memory, tmp_path: Path, bad: object) -> None:
    answer = _imported(
        mem,
        tmp_path,
        [
            {"id": "r1", "content": "the boiler was serviced in May", "type": "Decision"},
            {"id": "r2", "content": "the roof was fixed in June", "type": bad},
        ],
    )
    assert answer["created"] == 1 and answer["skipped"] == 1, answer
    reason = answer["skipped_items"][0]  # type: ignore[index]
    assert reason["source_id"] == "r2" and reason["reason"].startswith("type: must be text"), reason
    assert [r.content for r in mem.list()] == ["the boiler was serviced in May"]


def test_a_record_of_too_many_tags_is_skipped_before_any_is_counted(mem: Memory, tmp_path: Path) -> None:
    mem.remember("the gate code is 4411", tags=["gate"])
    counts = mem.tag_counts()
    answer = _imported(
        mem,
        tmp_path,
        [
            {"id": "many", "content": "a note of many tags", "tags": [f"t{i}" for i in range(200_000)]},
            {"id": "fine", "content": "the boiler was serviced in May", "tags": ["boiler"]},
        ],
    )
    assert answer["created"] == 1 and answer["skipped"] == 1, answer
    reason = answer["skipped_items"][0]  # type: ignore[index]
    assert reason["source_id"] == "many" and reason["reason"].startswith("tags: holds more than"), reason
    assert mem.tag_counts() == counts | {"boiler": 1}
    assert {r.content for r in mem.list()} == {"the gate code is 4411", "the boiler was serviced in May"}
