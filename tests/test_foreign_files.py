"""Files that are not what Engram expects: another program's SQLite database is refused without a byte of it
changed, and a small gzip file that expands to gigabytes fails at a bounded size with a clear error."""

from __future__ import annotations

import gzip
import hashlib
import sqlite3
import tracemalloc
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.errors import InvalidInput, StoreError
from engram.review.messages import expanded, read_messages


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_another_programs_sqlite_file_is_refused_unchanged(tmp_path: Path, settings: Settings) -> None:
    foreign = tmp_path / "contacts.db"
    with sqlite3.connect(foreign) as db:  # rollback-journal mode, as most programs leave their files
        db.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
        db.execute("INSERT INTO contacts VALUES ('Ada', '555-0100')")
    db.close()
    before = digest(foreign)
    with pytest.raises(StoreError, match="another program's SQLite database"):
        Memory(foreign, embedder=FakeEmbedder(), settings=settings)
    assert digest(foreign) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("contacts")) == ["contacts.db"]
    with sqlite3.connect(foreign) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert db.execute("SELECT name FROM sqlite_master").fetchall() == [("contacts",)]
    db.close()


def test_a_text_file_is_refused_unchanged(tmp_path: Path, settings: Settings) -> None:
    notes = tmp_path / "notes.db"
    notes.write_text("not a database\n" * 100)
    before = digest(notes)
    with pytest.raises(StoreError):
        Memory(notes, embedder=FakeEmbedder(), settings=settings)
    assert digest(notes) == before


def test_an_engram_database_and_a_new_file_still_open(tmp_path: Path, settings: Settings) -> None:
    path = tmp_path / "mine.db"
    with Memory(path, embedder=FakeEmbedder(), settings=settings) as mem:
        mem.remember("the first memory")
    with Memory(path, embedder=FakeEmbedder(), settings=settings) as mem:
        assert mem.stats()["memories"] == 1
    empty = tmp_path / "empty.db"
    empty.touch()
    with Memory(empty, embedder=FakeEmbedder(), settings=settings) as mem:
        assert mem.stats()["memories"] == 0


@pytest.fixture
def bomb(tmp_path: Path) -> Path:
    """A gzip file of a few hundred kilobytes that expands to 200 MB."""
    path = tmp_path / "chat.jsonl.gz"
    zeros = bytes(2**20)
    with gzip.open(path, "wb", compresslevel=9) as out:
        for _ in range(200):
            out.write(zeros)
    assert path.stat().st_size < 1_000_000
    return path


def test_a_gzip_bomb_fails_at_the_cap_holding_no_more_than_it(bomb: Path) -> None:
    cap = 8 * 2**20
    tracemalloc.start()
    try:
        with pytest.raises(InvalidInput, match="expands past 8 MiB") as caught:
            expanded(bomb, cap=cap)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert caught.value.field == "file"
    assert peak < 2 * cap  # the cap, its growth and a piece being read: not the 200 MB it expands to


def test_reading_a_gzipped_conversation_bomb_is_refused_with_the_file_named(
    bomb: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("engram.review.messages.MAX_EXPANDED", 8 * 2**20)
    with pytest.raises(InvalidInput, match="expands past") as caught:
        read_messages(bomb)
    assert caught.value.field == "file"


def test_a_small_gzip_file_reads_whole(tmp_path: Path) -> None:
    path = tmp_path / "ok.jsonl.gz"
    path.write_bytes(gzip.compress(b'{"role": "user", "content": "hello"}\n'))
    assert expanded(path) == b'{"role": "user", "content": "hello"}\n'
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(b"\x1f\x8b not really gzip")
    with pytest.raises(InvalidInput, match="not a readable gzip file"):
        expanded(broken)
