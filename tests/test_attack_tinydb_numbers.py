"""An old TinyDB store handed to import_tinydb with a tag used more times than a database integer holds (the
write failed with the driver's own overflow), or a memory or tag dated in the future (it stayed recent and was
never archived): each is refused naming the file, the document and the field, and nothing is imported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engram import InvalidInput, Memory
from tests.records import tinydb_folder


@pytest.mark.parametrize(
    ("memories", "tags", "field"),
    [
        (
            {"1": {"content": "the boiler is serviced in March"}},
            {"1": {"tag": "home", "usage_count": 2**70, "created_at": "2023-01-01"}},
            "tinydb_tags.json[1].usage_count",
        ),
        (
            {"1": {"content": "the boiler is serviced in March"}},
            {"1": {"tag": "home", "usage_count": 2**31, "created_at": "2023-01-01"}},
            "tinydb_tags.json[1].usage_count",
        ),
        (
            {"1": {"content": "the boiler is serviced in March", "created_at": "9999-01-01T00:00:00"}},
            None,
            "tinydb_memories.json[1].created_at",
        ),
        (
            {"1": {"content": "the boiler is serviced in March"}},
            {
                "1": {
                    "tag": "home",
                    "usage_count": 3,
                    "created_at": "2023-01-01",
                    "last_used_at": "9999-01-01",
                }
            },
            "tinydb_tags.json[1].last_used_at",
        ),
    ],
)
def test_a_count_no_store_holds_or_a_future_time_is_refused(
    mem: Memory, tmp_path: Path, memories: Any, tags: Any, field: str
) -> None:
    kept = mem.remember("a memory stored before the import")
    with pytest.raises(InvalidInput) as caught:
        mem.import_tinydb(tinydb_folder(tmp_path / "old", memories, tags))
    assert caught.value.field == field, caught.value
    assert [r.id for r in mem.list()] == [kept.id]
