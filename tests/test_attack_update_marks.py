"""The marks store_memory sets when a newer memory says an older one changed (`updated_by` on the older, `updates`
on the newer), attacked: a forget of either leaves no trace of its text and no mark naming it on the other, and
a memory of another owner or scope is never marked."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings
from tests.test_forget_trace import traces

MARK = "qzvjkwpx4417"


@pytest.fixture
def marked(db_location: str | Path, settings: Settings) -> Memory:
    mem = Memory(db_location, embedder=FakeEmbedder(), settings=settings)
    for i in range(30):  # other memories sharing its pages and index segments
        mem.remember(f"note {i} about the garden and the kitchen shed")
    return mem


def _pair(mem: Memory, older: str, newer: str) -> tuple[str, str]:
    old = mem.store_memory(older)["memory_id"]
    new = mem.store_memory(newer)
    assert new["recommendations"]["suggested_updates"] == [old]
    assert mem.get(old).metadata["updated_by"] == new["memory_id"]
    return old, new["memory_id"]


def test_forgetting_the_older_memory_leaves_no_mark_or_text_on_the_newer(
    marked: Memory, db_location: str | Path
) -> None:
    with marked as mem:
        old, new = _pair(mem, f"My address is 12 {MARK} Road", "My address is now 4 Elm Street")
        mem.forget(old)
        assert "updates" not in mem.get(new).metadata
        assert traces(mem, db_location, MARK) == []
        assert all(h.get("updated_by") != old for h in mem.search_memory("what is my address")["results"])


def test_forgetting_the_newer_memory_leaves_no_mark_or_text_on_the_older(
    marked: Memory, db_location: str | Path
) -> None:
    with marked as mem:
        old, new = _pair(mem, "My address is 12 Oak Road", f"My address is now 4 {MARK} Street")
        mem.forget(new)
        assert "updated_by" not in mem.get(old).metadata
        assert traces(mem, db_location, MARK) == []


def test_a_newer_memory_that_updates_several_keeps_the_others(tmp_path: Path, settings: Settings) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=settings) as mem:
        first = mem.remember("My manager is Sofia Ruiz").id
        second = mem.remember("My address is 12 Oak Road").id
        newer = mem.get(mem.remember("My manager is now Priya Nair", metadata={"note": "kept"}).id)
        # Marked as store_memory marks an update; two at once as an importer may bring them.
        for old in (first, second):
            mem.store.update(mem.get(old).model_copy(update={"metadata": {"updated_by": newer.id}}))
        mem.store.update(newer.model_copy(update={"metadata": newer.metadata | {"updates": [first, second]}}))
        mem.forget(first)
        assert mem.get(newer.id).metadata["updates"] == [second]
        assert mem.get(newer.id).metadata["note"] == "kept"
        assert mem.get(second).metadata["updated_by"] == newer.id


def test_a_memory_of_another_owner_or_scope_is_never_marked(tmp_path: Path, settings: Settings) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=settings) as mem:
        alice = mem.remember("My address is 12 Oak Road", user_id="alice").id
        project = mem.remember("My address is 9 Birch Lane", scope="project", scope_id="p1").id
        stored = mem.store_memory("My address is now 4 Elm Street")
        assert stored["recommendations"]["suggested_updates"] == []
        assert "updated_by" not in mem.get(alice).metadata
        assert "updated_by" not in mem.get(project).metadata
