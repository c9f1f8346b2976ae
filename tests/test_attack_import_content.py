"""The text of a record in another store's export, given as no text: a number, true, a list or an object was
stored as Python prints it ("{'a': 1}", "True"), a memory no one wrote; a lone surrogate (the escape "\\ud800")
failed the whole import with a UnicodeEncodeError naming nothing. Each such record is skipped with a reason
naming `content`, and the others are stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engram import Memory

BAD: list[tuple[Any, str]] = [
    ({"a": 1}, "must be text, not an object"),
    (["x", "y"], "must be text, not a list"),
    (12345, "must be text, not a number"),
    (True, "must be text, not true or false"),
    ("the roof \ud800 was fixed", "lone surrogate"),
]


@pytest.mark.parametrize(("bad", "reason"), BAD, ids=[r for _, r in BAD])
@pytest.mark.parametrize("source", ["shodh-json", "mem0"])
def test_content_that_is_no_text_skips_its_record(
    mem: Memory, tmp_path: Path, source: str, bad: Any, reason: str
) -> None:
    mem.remember("the boiler was serviced in May")
    field = "content" if source == "shodh-json" else "memory"
    records = [{"id": "bad", field: bad}, {"id": "good", field: "the gate code is 4411"}]
    path = tmp_path / "records.json"
    path.write_text(json.dumps({"memories" if source == "shodh-json" else "results": records}))
    answer = mem.import_from(source, path)
    assert answer["created"] == 1 and answer["skipped"] == 1, answer
    skipped = answer["skipped_items"][0]
    assert skipped["source_id"] == "bad" and skipped["reason"].startswith("content: "), skipped
    assert reason in skipped["reason"], skipped
    assert sorted(r.content for r in mem.list()) == [
        "the boiler was serviced in May",
        "the gate code is 4411",
    ]
