"""An explicit forget leaves no trace of the text: not in the rows, the full-text index, the audit log, an operation's
before-images, the conversation sources, learned prototypes, the tag registry, free pages or the write-ahead log.
What stays is that a forget happened (the memory's id and when, without its text)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.config import split_schema
from engram.errors import InvalidInput
from engram.model.record import Status
from engram.store.values import Filter

# Unusual enough to be found only where the text went; a stem the porter stemmer leaves as it is.
MARK = "qzvjkwpx4417"
OTHER = "plmnbvtr2290"


def traces(mem: Memory, location: str | Path, needle: str) -> list[str]:
    """Where the needle is still stored: the database's files, byte by byte, on SQLite (the full-text index
    writes a term's tail after a prefix it shares with the previous term, so the tail is looked for too); every
    row of every table on PostgreSQL."""
    if isinstance(location, Path):
        found = []
        for file in sorted(location.parent.glob(location.name + "*")):
            data = file.read_bytes()
            if needle.encode() in data or needle[4:].encode() in data:
                found.append(file.name)
        return found
    import psycopg

    schema = mem.store.schema  # type: ignore[attr-defined]
    with psycopg.connect(split_schema(location)[0], autocommit=True) as db:
        tables = [
            r[0]
            for r in db.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s "
                "AND table_type = 'BASE TABLE'",
                (schema,),
            )
        ]
        return [
            t
            for t in tables
            if db.execute(
                f'SELECT count(*) FROM "{schema}"."{t}" r WHERE lower(r::text) LIKE %s'.encode(),
                (f"%{needle[4:]}%",),
            ).fetchone()[0]  # type: ignore[index]
        ]


def test_a_forgotten_text_is_found_nowhere(db_location: str | Path, settings: Settings) -> None:
    with Memory(db_location, embedder=FakeEmbedder(), settings=settings) as mem:
        for i in range(30):  # other memories around it, sharing its pages and index segments
            mem.remember(f"note {i} about the garden, the kitchen and the {OTHER} project")
        first = mem.remember(f"the vault code is {MARK} for the north door", importance=0.8)
        # A near duplicate merges into it: the audit entry keeps the wording it replaced.
        again = mem.remember(f"The vault code is {MARK} for the north door!", importance=0.3)
        assert again.merged_into == first.id
        assert "old_content" in mem.audit_log(first.id)[0]["detail"]
        words = " ".join(f"word{i}" for i in range(400))
        long = mem.remember(f"{words} and somewhere in the middle {MARK} then {words}")
        assert mem.store.children(long.id), "long enough to be cut into chunks"
        # Merged into another memory: the merged one's text is in its audit entry and before-image.
        keeper = mem.remember("the north door has a keypad")
        merged = mem.remember(f"the keypad at the north door takes {MARK}")
        operation = mem.merge_memories([keeper.id, merged.id], into=keeper.id)["operation_id"]
        mem.ingest([{"role": "user", "content": f"I prefer the {MARK} theme for my editor."}])
        assert traces(mem, db_location, MARK)

        every = Filter(statuses=tuple(Status), include_expired=True)
        holding = [r.id for r in mem.store.select(every, limit=1000) if MARK in r.content]
        assert {first.id, long.id, merged.id} <= set(holding)
        for memory_id in holding:
            mem.forget(memory_id)

        assert traces(mem, db_location, MARK) == []
        assert MARK not in json.dumps(mem.audit_log(limit=10_000))
        assert traces(mem, db_location, OTHER), "the other memories are still there"
        assert sum(OTHER in r.content for r in mem.store.select(every, limit=1000)) == 30
        assert mem.recall(f"note 7 about the {OTHER} project", limit=1, touch=False)[
            0
        ].record.content.startswith("note 7 ")
        forgotten = [e for e in mem.audit_log(limit=10_000) if e["action"] == "forget"]
        assert {e["memory_id"] for e in forgotten} == set(holding)
        assert all(set(e["detail"]) == {"kind"} and e["at"] for e in forgotten)
        # Rolling back the merge cannot bring the forgotten memory back.
        with pytest.raises(InvalidInput, match=r"forgotten|changed after"):
            mem.rollback(operation)
        assert traces(mem, db_location, MARK) == []
        assert mem.store.integrity() == []
