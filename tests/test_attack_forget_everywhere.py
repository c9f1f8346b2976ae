"""A forget leaves no trace of the text in any PostgreSQL table, whatever the memory went through first: an edit
of its text (the audit's old wording, the operation's before-image, the full-text lexicon's terms), a review that
edited it, a supersede, a tag made from it and renamed, a link to it from another memory, feedback and an
import. Every row of every table of the tenant's schema is read after the forget (on SQLite, the database's
files byte by byte). A tag renamed after it was read from the text kept its old name, the text, in the tag
registry, the rename's audit entry, its operation summary and its before-image."""

from __future__ import annotations

from pathlib import Path

from engram import FakeEmbedder, Memory, Settings
from engram.model.record import Status
from engram.store.values import Filter
from tests.test_forget_trace import traces

MARK = "qzvjkwpx4417"
EDIT = "brtnqvzl9035"


def test_every_table_is_clean_after_forgetting_a_memory_that_went_everywhere(
    db_location: str | Path, settings: Settings, tmp_path: Path
) -> None:
    with Memory(db_location, embedder=FakeEmbedder(), settings=settings, files=tmp_path / "files") as mem:
        for i in range(10):
            mem.remember(f"note {i} about the garden and the kitchen")
        first = mem.remember(f"the vault code is {MARK} for the north door", tags=[f"vault-{MARK}"]).id
        mem.update(first, content=f"the vault code is {MARK} {EDIT} for the north door")
        mem.run_tool("rename_tag", old=f"vault-{MARK}", new=f"safe-{EDIT}")
        mem.feedback(first, helpful=True)
        newer = mem.supersede(first, f"the vault code changed from {MARK} to {EDIT}").id
        linked = mem.remember("the north door's keypad", metadata={"links": [newer], "about": MARK}).id
        mem.ingest([{"role": "user", "content": f"Remind me to change the code {MARK} by Friday."}])
        mem.remember(f"Change the code {MARK} by Friday.", status="pending")
        waiting = [r.id for r in mem.pending()]
        for memory_id in waiting:
            mem.review(memory_id, "edit", f"change the code {MARK} {EDIT} by Friday")
        mem.import_memories(_export(mem, tmp_path))["operation_id"]
        assert waiting and traces(mem, db_location, MARK) and traces(mem, db_location, EDIT)

        every = Filter(statuses=tuple(Status), include_expired=True)
        holding = [
            r.id
            for r in mem.store.select(every, limit=1000)
            if r.parent_id is None and (MARK in r.content + str(r.metadata) or EDIT in r.content)
        ]
        assert {first, newer, linked} <= set(holding)
        for memory_id in holding:
            mem.forget(memory_id)

        assert traces(mem, db_location, MARK) == []
        assert traces(mem, db_location, EDIT) == []
        assert mem.count() == 10  # the other memories kept


def _export(mem: Memory, tmp_path: Path) -> str:
    """An export imported back: an import is an operation with before-images of its own."""
    mem.export_memories("all.jsonl")
    text = (tmp_path / "files" / "all.jsonl").read_text()
    (tmp_path / "files" / "again.jsonl").write_text(text.replace("the north door's keypad", "the keypad"))
    return "again.jsonl"
