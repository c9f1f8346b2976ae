"""An export read while others write: it read the store a batch at a time, each batch as the store stood then, so
a forget, a merge or a new memory landing between two batches gave a file that was the store at no moment (a
memory missing that was there when the export began, a merged memory beside the memories it replaced). An export
is now one read of one moment (one read transaction on SQLite, REPEATABLE READ on PostgreSQL) that writers do not
wait for, and a forget that committed before the export began is nowhere in its file."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.interop import transfer
from engram.model.record import Kind, MemoryRecord, utcnow
from engram.model.vectors import content_hash

BATCH = 512  # what the store hands an export at a time (Rows.iter_all)


def _filled(mem: Memory, texts: list[str]) -> list[str]:
    """`texts` stored as plain notes straight into the store, in order (the write path's reading of each text is
    no part of what is tested, and takes a minute on a busy machine); their ids."""
    now = utcnow()
    records = [
        MemoryRecord(
            id=str(uuid.uuid4()),
            content=text,
            content_hash=content_hash(text),
            kind=Kind.NOTE,
            created_at=now,
            updated_at=now,
        )
        for text in texts
    ]
    mem.store.insert(records, list(FakeEmbedder().embed_batch(texts)))
    return [r.id for r in records]


def _lines(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines[1:]]


def _stored(mem: Memory) -> dict[str, str]:
    """Every record of the store now (memories and chunks, every status): id -> content."""
    return {r.id: r.content for batch in mem.store.iter_all() for r in batch}


@pytest.fixture
def paused(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Callable[[], None]], None]]:
    """Run a write in another thread once the export has written its first record (so, after it read its first
    batch and before its next), and wait for the write to finish: a writer the export held off would hang here."""
    armed: list[Callable[[], None]] = []
    original = transfer.to_shodh

    def hooked(record: Any, vector: Any) -> Any:
        if armed:
            write = armed.pop()
            errors: list[BaseException] = []

            def run() -> None:
                try:
                    write()
                except BaseException as exc:  # re-raised in the exporting thread
                    errors.append(exc)

            writer = threading.Thread(target=run)
            writer.start()
            writer.join(60)
            assert not writer.is_alive(), "the export kept a writer waiting"
            if errors:
                raise errors[0]
        return original(record, vector)

    monkeypatch.setattr(transfer, "to_shodh", hooked)
    yield armed.append


def test_an_export_is_the_store_at_the_moment_it_began(
    mem: Memory, tmp_path: Path, paused: Callable[[Callable[[], None]], None]
) -> None:
    ids = _filled(mem, [f"note number {i} about the harbour" for i in range(BATCH + 40)])
    merged = ids[-4:-2]  # both in the export's second batch
    before = _stored(mem)
    fresh: list[str] = []

    def meanwhile() -> None:
        mem.forget(ids[-1])  # read by the second batch: it was there when the export began
        fresh.extend(_filled(mem, ["a memory stored while the export ran"]))
        mem.merge_memories(merged)

    paused(meanwhile)
    out = tmp_path / "export.jsonl"
    answer = mem.export_memories(out)
    exported = {line["id"]: line["content"] for line in _lines(out)}
    assert exported == before
    assert answer["exported"] == len(before)
    # the writes did land, and the next export sees them
    after = _stored(mem)
    assert ids[-1] not in after and fresh[0] in after
    again = tmp_path / "again.jsonl"
    mem.export_memories(again)
    assert {line["id"]: line["content"] for line in _lines(again)} == after


def test_a_forget_committed_before_the_export_is_not_in_it(
    mem: Memory, tmp_path: Path, paused: Callable[[Callable[[], None]], None]
) -> None:
    secret = "the alarm code for the back door is 4471"
    ids = _filled(mem, [f"filler note {i}" for i in range(BATCH + 8)])
    kept = _filled(mem, [secret])[0]
    mem.forget(kept)
    # and a writer during the export that brings the same text back under a new id is not read either
    paused(lambda: _filled(mem, [secret]))
    out = tmp_path / "export.jsonl"
    mem.export_memories(out)
    assert secret not in out.read_text(encoding="utf-8")
    assert {line["id"] for line in _lines(out)} == set(ids)


def test_an_export_racing_writers_and_forgets_keeps_every_pair_whole(
    tmp_path: Path, settings: Settings
) -> None:
    """Writers move memories (store the new one, then forget the old) while exports run. At any one moment at
    most one move is half done, so a file that is the store at one moment holds, of every pair, the old memory
    or the new one, and both for one pair at most."""
    path = tmp_path / "shared.db"
    with (
        Memory(path, embedder=FakeEmbedder(), settings=settings) as reading,
        Memory(path, embedder=FakeEmbedder(), settings=settings) as writing,
    ):
        pairs = 2 * BATCH
        olds = _filled(writing, [f"pair {k} first wording" for k in range(pairs)])
        done = threading.Event()
        errors: list[BaseException] = []

        def mover() -> None:
            try:
                for k in range(pairs):
                    if done.is_set():
                        return
                    _filled(writing, [f"pair {k} second wording"])
                    writing.forget(olds[k])
            except BaseException as exc:
                errors.append(exc)

        thread = threading.Thread(target=mover)
        thread.start()
        try:
            for n in range(6):
                out = tmp_path / f"export-{n}.jsonl"
                reading.export_memories(out, with_embeddings=True)
                seen: dict[int, set[str]] = {}
                for line in _lines(out):
                    k, _, wording = line["content"].removeprefix("pair ").partition(" ")
                    seen.setdefault(int(k), set()).add(wording)
                assert sorted(seen) == list(range(pairs)), "a pair has neither wording"
                assert sum(len(w) == 2 for w in seen.values()) <= 1, "more than one move half done"
        finally:
            done.set()
            thread.join()
        assert not errors


def test_a_rest_export_is_sent_as_it_is_read_not_held_whole(tmp_path: Path) -> None:
    """GET /v1/export read the whole file into the server's memory before sending a byte: a store's every memory
    with its embedding, held at once per request. It is now sent a block at a time from the open file."""
    import tracemalloc

    from tests.live import LiveServer

    live = LiveServer(tmp_path / "home", require_key=False)
    try:
        with Memory(live.settings.home / "local.db", embedder=FakeEmbedder(), settings=live.settings) as mem:
            _filled(mem, [f"memory {i} of a large store, " + "with some words " * 20 for i in range(12000)])
        scratch = live.settings.home / "files" / "local"
        with live.client() as http:  # the tenant's store opened, its readers loaded: not what is measured
            assert http.get("/v1/export").status_code == 200
        tracemalloc.start()
        try:
            sent = 0
            with (
                live.client() as http,
                http.stream("GET", "/v1/export", params={"with_embeddings": "true"}) as answer,
            ):
                assert answer.status_code == 200
                for block in answer.iter_raw():
                    sent += len(block)
                    assert not [p for p in scratch.iterdir() if p.name.startswith(".web-")]
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert int(answer.headers["content-length"]) == sent
        assert sent > 10 * 2**20
        assert peak < sent / 3, f"{peak:,} bytes held to send {sent:,}"
    finally:
        live.stop()


def test_a_postgres_backup_taken_while_written_is_one_moment(
    pg_url: str, tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PostgreSQL backup (an SQLite file) copied the store a batch at a time and then compared it with the store
    as it was by then: a forget between two batches made the backup fail as differing from its source, or a copy
    of no moment. It is now copied and checked from one moment, and the write goes on beside it."""
    from engram.store.sqlite.store import SQLiteStore

    with Memory(pg_url, embedder=FakeEmbedder(), settings=settings) as mem:
        ids = _filled(mem, [f"a note on the reading list, number {i}" for i in range(BATCH + 30)])
        before = _stored(mem)
        original = SQLiteStore.insert
        armed = [lambda: (mem.forget(ids[-1]), _filled(mem, ["written during the backup"]))]

        def insert(self: SQLiteStore, records: Any, vectors: Any) -> None:
            original(self, records, vectors)
            if armed and any(r.parent_id is None for r in records):
                writer = threading.Thread(target=armed.pop())
                writer.start()
                writer.join(60)
                assert not writer.is_alive(), "the backup kept a writer waiting"

        monkeypatch.setattr(SQLiteStore, "insert", insert)
        target = tmp_path / "backup.db"
        answer = mem.store.backup(target)
        monkeypatch.setattr(SQLiteStore, "insert", original)
        assert not armed and answer["memories"] == len(before)
        copy = SQLiteStore(target)
        try:
            assert {r.id: r.content for batch in copy.iter_all() for r in batch} == before
        finally:
            copy.close()
        assert ids[-1] not in _stored(mem)


def test_an_export_cut_short_leaves_no_file_that_reads_as_whole(
    mem: Memory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A disk that fills, or an interrupt, half-way through an export left the lines written so far: a header and
    some records, which import as a whole export of fewer memories. The file is removed when the export fails."""
    _filled(mem, [f"a note on the boat, number {i}" for i in range(BATCH + 20)])
    original = transfer.to_shodh
    written: list[int] = []

    def full_disk(record: Any, vector: Any) -> Any:
        written.append(1)
        if len(written) > BATCH:
            raise OSError(28, "No space left on device")
        return original(record, vector)

    monkeypatch.setattr(transfer, "to_shodh", full_disk)
    out = tmp_path / "export.jsonl"
    with pytest.raises(OSError, match="No space"):
        mem.export_memories(out)
    assert not out.exists()
    monkeypatch.setattr(transfer, "to_shodh", original)
    mem.export_memories(out)  # the name is free for the next try
    assert len(_lines(out)) == BATCH + 20
