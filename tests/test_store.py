from __future__ import annotations

import queue
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from engram import FakeEmbedder, InvalidInput, Memory, Scope, Status, StoreError
from engram.lang.text import terms
from engram.store import vectors
from engram.store.sqlite.schema import MIGRATIONS
from engram.store.sqlite.store import SQLiteStore
from engram.store.values import Filter


def test_migrations_are_recorded_once(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    SQLiteStore(path).close()
    store = SQLiteStore(path)
    rows = store._reader().execute("SELECT name FROM migrations").fetchall()
    store.close()
    assert rows == [(name,) for name, _ in MIGRATIONS]
    assert rows[:4] == [("m001_memories",), ("m002_fts_rank",), ("m003_fts_vocab",), ("m004_episode_order",)]


def test_unknown_migration_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    store = SQLiteStore(path)
    with store.atomic() as db:
        db.execute("INSERT INTO migrations(name, applied_at) VALUES ('m999_future', 'x')")
    store.close()
    with pytest.raises(StoreError, match="m999_future"):
        SQLiteStore(path)


def test_a_database_from_before_chunks_followed_their_memory_is_brought_in_line(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with Memory(path, embedder=FakeEmbedder()) as mem:
        parent = mem.remember(" ".join(f"Paragraph {i} tells of harbour crane {i}." for i in range(300))).id
        with mem.store.atomic() as db:  # type: ignore[attr-defined]
            # as an update left it before: the memory rejected, its chunks approved
            db.execute("UPDATE memories SET status = 'rejected' WHERE id = ?", (parent,))
            db.execute("UPDATE memories SET status = 'approved' WHERE parent_id = ?", (parent,))
            db.execute("DELETE FROM migrations WHERE name = 'm013_chunks_follow_their_memory'")
    with Memory(path, embedder=FakeEmbedder()) as mem:
        assert {c.status for c in mem.store.children(parent)} == {Status.REJECTED}
        assert mem.recall("harbour crane", mode="ranked", touch=False) == []


def test_a_database_whose_chunks_kept_old_tags_is_brought_in_line(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with Memory(path, embedder=FakeEmbedder()) as mem:
        parent = mem.remember(
            " ".join(f"Paragraph {i} tells of harbour crane {i}." for i in range(300)), tags=["new"]
        ).id
        with mem.store.atomic() as db:  # type: ignore[attr-defined]
            # as a tags edit left it before: the memory's tags changed, its chunks' not
            db.execute("UPDATE memories SET tags = '[\"old\"]' WHERE parent_id = ?", (parent,))
            db.execute("DELETE FROM migrations WHERE name = 'm014_chunks_carry_their_memory_tags'")
    with Memory(path, embedder=FakeEmbedder()) as mem:
        assert {c.tags for c in mem.store.children(parent)} == {("new",)}
        assert mem.store.text_search(["old"], 10, Filter()) == [] and mem.validate_storage()["ok"]


def test_wal_mode(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "w.db")
    try:
        assert store._writer.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        store.close()


@pytest.mark.parametrize(
    "query",
    ['"unbalanced', "NEAR(a b)", "a AND OR NOT", "col:value", "*", "x^2 - (y)", "'; DROP TABLE memories;--"],
)
def test_user_text_is_never_fts_syntax(mem: Memory, query: str) -> None:
    mem.remember("a value for col and y squared")
    mem.recall(query, mode="ranked", touch=False)  # must not raise
    assert mem.stats()["memories"] == 1


def test_fts_follows_updates_and_deletes(mem: Memory) -> None:
    rid = mem.remember("the spare key is under the blue pot").id
    where = Filter()
    assert [i for i, _ in mem.store.text_search(["blue"], 5, where)] == [rid]
    mem.update(rid, content="the spare key is under the red pot")
    assert mem.store.text_search(["blue"], 5, where) == []
    assert [i for i, _ in mem.store.text_search(["red"], 5, where)] == [rid]
    mem.forget(rid)
    assert mem.store.text_search(["red"], 5, where) == []


def test_chinese_and_japanese_words_are_found_inside_their_sentences(mem: Memory) -> None:
    meeting = mem.remember("我们明天上午在北京开会。").id
    database = mem.remember("我们决定用PostgreSQL代替MongoDB", tags=["数据库"]).id
    tokyo = mem.remember("来週東京で会いましょう").id
    mem.remember("The meeting in Beijing is tomorrow morning.")

    def found(query: str) -> list[str]:
        return [i for i, _ in mem.store.text_search(terms(query), 5, Filter())]

    assert found("北京") == [meeting]
    assert found("北京的会议") == [meeting]  # 北京 matches; 会议 is written 开会 there
    assert found("mongodb") == [database]  # a Latin word against Chinese, with no space between
    assert found("数据库") == [database]  # a tag in Chinese
    assert found("東京") == [tokyo]
    assert found("北") == []  # one character is no word of a longer run
    mem.update(meeting, content="我们明天上午在上海开会。")
    assert found("北京") == [] and found("上海") == [meeting]
    mem.forget(meeting)
    assert found("上海") == []


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_store_indexed_before_character_pairs_is_indexed_again(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    import engram.store.postgres.store as pg_module
    import engram.store.sqlite.store as sqlite_module

    location: str | Path
    if backend == "postgres":
        location, module = request.getfixturevalue("pg_url"), pg_module
    else:
        location, module = tmp_path / "old.db", sqlite_module
    with monkeypatch.context() as old:
        before = [m for m in module.MIGRATIONS if m[0] not in ("m012_unspaced_pairs", "m003_unspaced_pairs")]
        old.setattr(module, "MIGRATIONS", before)  # the store as it was before character pairs
        with Memory(location, embedder=FakeEmbedder()) as mem:
            # a tag of its own: the tags of its text (北京) would be found by the old index too
            rid = mem.remember("我们明天上午在北京开会。", tags=["meeting"]).id
            if backend == "postgres":  # stems were computed in Python: write those of the old words
                with mem.store.atomic() as db:  # type: ignore[attr-defined]
                    db.execute(
                        b"UPDATE memories SET tsv = %s::tsvector WHERE id = %s",
                        ("'我们明天上午在北京开会':1A", rid),
                    )
            assert mem.store.text_search(["北京"], 5, Filter()) == []
    with Memory(location, embedder=FakeEmbedder()) as mem:
        assert [i for i, _ in mem.store.text_search(["北京"], 5, Filter())] == [rid]
        assert mem.validate_storage()["issues"] == []


def test_bm25_prefers_rarer_terms(mem: Memory) -> None:
    for i in range(5):
        mem.remember(f"the weekly report number {i}")
    target = mem.remember("the weekly report mentions kubernetes").id
    hits = mem.store.text_search(["weekly", "kubernetes"], 10, Filter())
    assert hits[0][0] == target and hits[0][1] > hits[1][1] > 0


def test_bm25_weighs_tags_half_and_a_narrow_filter_keeps_the_same_scores(mem: Memory) -> None:
    in_content = mem.remember("notes on kubernetes upgrades", scope="project", scope_id="p").id
    in_tags = mem.remember("notes on cluster upgrades", tags=["kubernetes"]).id
    for i in range(30):  # hits outside the project scope fill the first, unfiltered read
        mem.remember(f"kubernetes pod number {i} restarted", tags=["kubernetes"])
    hits = dict(mem.store.text_search(["kubernetes"], 40, Filter()))
    assert hits[in_content] > hits[in_tags] > 0  # one occurrence: content weight 1, tags 0.5
    narrow = mem.store.text_search(["kubernetes"], 1, Filter(scope=Scope.PROJECT, scope_id="p"))
    assert narrow == [(in_content, pytest.approx(hits[in_content]))]


def test_vector_index_is_rebuilt_when_missing_or_corrupt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a graph is written to its file (a small index, rows the database holds, writes none)
    monkeypatch.setattr(vectors, "EXACT_MAX", 10)
    path = tmp_path / "v.db"
    with Memory(path, embedder=FakeEmbedder()) as mem:
        ids = [mem.remember(f"memory about topic {i} and thing {i * 3}").id for i in range(20)]
        mem.recall("topic 3", mode="ranked", touch=False)
    index_file = path.with_name(path.name + ".vectors")
    assert index_file.exists()
    index_file.write_bytes(b"garbage")
    with Memory(path, embedder=FakeEmbedder()) as mem:
        assert mem.stats()["index"] == {"indexed": 20, "embedded": 20}
        assert mem.recall("topic 3 thing 9", mode="ranked", limit=1, touch=False)[0].record.id == ids[3]
    index_file.unlink()
    with Memory(path, embedder=FakeEmbedder()) as mem:
        assert mem.stats()["index"] == {"indexed": 20, "embedded": 20}


def test_index_catches_up_with_writes_it_did_not_see(tmp_path: Path) -> None:
    """A stale index file (as after a crash, or another process's writes) is brought up to date on use."""
    path = tmp_path / "v.db"
    emb = FakeEmbedder()
    first = Memory(path, embedder=emb)
    first.remember("alpha memory")
    first.recall("alpha", mode="ranked", touch=False)  # index built and in use
    with Memory(path, embedder=emb) as second:
        late = second.remember("zebra crossing near the school").id
        gone = second.remember("alpha memory that will be forgotten").id
        second.forget(gone)
    hits = first.recall("zebra crossing school", mode="ranked", limit=5, touch=False)
    assert hits[0].record.id == late and all(h.record.id != gone for h in hits)
    assert first.stats()["index"] == {"indexed": 2, "embedded": 2}
    first.close()


def test_vector_search_filters_small_scopes_exactly(mem: Memory) -> None:
    mem.remember_many([{"content": f"common words shared by many memories {i}"} for i in range(300)])
    rid = mem.remember("a rare project note", scope="project", scope_id="p1").id
    qv = mem.embedder.embed_batch(["common words shared by many memories"])[0]
    hits = mem.store.vector_search(qv, 10, Filter(scope=mem.get(rid).scope, scope_id="p1"))
    assert [i for i, _ in hits] == [rid]
    assert np.isclose(hits[0][1], float(mem.store.vectors([rid])[rid] @ qv), atol=1e-4)


def test_labelled_search_reads_each_hits_classification_with_it(mem: Memory) -> None:
    """The write path's neighbour votes: a hit's kind, how it was decided, whether it is a chunk, its category."""
    task = mem.remember("renew the passport before june", kind="task", category="reminders").id
    note = mem.remember("the passport office opens at nine").id
    qv = mem.embedder.embed_batch(["renew the passport"])[0]
    hits = mem.store.labelled_search(qv, 5, Filter(scope=None))
    assert [(i, s) for i, s, _ in hits] == mem.store.vector_search(qv, 5, Filter(scope=None))
    labels = {i: label for i, _, label in hits}
    assert (labels[task].kind, labels[task].method, labels[task].category) == (
        "task",
        "explicit",
        "reminders",
    )
    assert not labels[task].is_chunk
    stored = mem.get(note)
    assert (labels[note].kind, labels[note].method) == (stored.kind.value, stored.kind_method)
    with mem.store.atomic():  # inside a write: the transaction's own memories carry labels too
        fresh = mem.remember("renew the passport online", kind="note").id
        inside = {i: label for i, _, label in mem.store.labelled_search(qv, 5, Filter(scope=None))}
    assert inside[fresh].kind == "note" and inside[task].kind == "task"


WRITER = textwrap.dedent(
    """
    import sys
    from engram import FakeEmbedder, Memory
    path, name = sys.argv[1], sys.argv[2]
    word = lambda n: "".join("abcdefghij"[int(d)] for d in str(n))  # distinct words, far apart as vectors
    with Memory(path, embedder=FakeEmbedder()) as mem:
        print("open", flush=True)
        for i in range(40):
            mem.remember(f"{name} wrote entry {i} with detail {i * 13}")
            # the same text from both: whichever writes second must find the first one's
            mem.remember(f"both wrote shared note {word(i * 7919)} {word(i * 104729 + 17)}")
            print(i, flush=True)
    """
)
# A writer is failed when it goes this long without a step (its start, a pair of writes): a stall, a lock never
# given up. Not a limit on the whole run, which took over 120 s with a twentieth of a core on a loaded machine.
STALL_S = 300


def _finish(procs: list[subprocess.Popen[str]]) -> None:
    """Wait for every writer, each failed on a stall; none is left running, whatever fails."""
    steps: queue.Queue[bool] = queue.Queue()  # True for a step, False when a writer's output ends
    errors: list[list[str]] = [[] for _ in procs]

    def follow(proc: subprocess.Popen[str], error: list[str]) -> None:
        assert proc.stdout is not None
        for _ in proc.stdout:
            steps.put(True)
        steps.put(False)

    def keep_errors(proc: subprocess.Popen[str], error: list[str]) -> None:
        assert proc.stderr is not None  # read as it comes: a full pipe would stop the writer
        error.extend(proc.stderr)

    readers = [
        threading.Thread(target=target, args=(p, e), daemon=True)
        for p, e in zip(procs, errors, strict=True)
        for target in (follow, keep_errors)
    ]
    # Counted by the ends of their output, not by whether they still run: a writer's output ends a moment before
    # it can be waited for, and a loop on the latter waited for a step that would never come.
    running = len(procs)
    for reader in readers:
        reader.start()
    try:
        while running:
            try:
                running -= not steps.get(timeout=STALL_S)
            except queue.Empty:
                pytest.fail(f"a writer made no step in {STALL_S} s")
    finally:
        for proc in procs:
            if proc.poll() is None and running:
                proc.kill()
            proc.wait()
        for reader in readers:
            reader.join()
        for proc in procs:  # read by the threads, closed here: left to the collector they warn
            for pipe in (proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
    for proc, error in zip(procs, errors, strict=True):
        assert proc.returncode == 0, "".join(error)


def test_two_processes_writing_at_once_both_succeed(db_location: str | Path) -> None:
    with Memory(db_location, embedder=FakeEmbedder()) as mem:
        mem.remember("a database in use")  # its classifiers loaded once, as in any store but a new one
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db_location), name],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("left", "right")
    ]
    _finish(procs)
    with Memory(db_location, embedder=FakeEmbedder()) as mem:
        assert mem.stats()["memories"] == 121  # 40 + 40 own entries, 40 shared ones stored once, the first
        assert mem.stats()["index"] == {"indexed": 121, "embedded": 121}
        assert mem.recall("right wrote entry 7 with detail 91", mode="ranked", limit=1, touch=False)[
            0
        ].record.content == ("right wrote entry 7 with detail 91")


def test_a_first_write_loads_the_classifiers_before_it_takes_the_write_lock(tmp_path: Path) -> None:
    """Loading them fits their read-out (seconds; a minute on a busy machine): inside the write transaction,
    another process's writer waited past its busy timeout ("database is locked")."""
    with Memory(tmp_path / "new.db", embedder=FakeEmbedder()) as mem:
        store = mem.store
        real = store.atomic
        loaded_when_taken: list[bool] = []

        @contextmanager
        def atomic() -> Iterator[object]:
            if not store._depth:  # type: ignore[attr-defined]
                loaded_when_taken.append(store.get_meta("readout:kinds") is not None)
            with real() as db:
                yield db

        store.atomic = atomic  # type: ignore[method-assign]
        mem.remember("the first memory of a new database")
        assert loaded_when_taken[-1], "the write transaction began before the read-out was fitted"


def test_every_field_round_trips(mem: Memory) -> None:
    from datetime import UTC, datetime

    fields = dict(
        kind="reference",
        scope="project",
        scope_id="p",
        type="Decision",
        tags=["auth", "mobile"],
        importance=0.7,
        validity_score=0.9,
        is_negative=True,
        source_type="web",
        credibility=0.95,
        emotion="satisfaction",
        emotional_valence=0.7,
        emotional_arousal=0.4,
        episode_id="auth-2024",
        sequence_number=3,
        quality_score=0.85,
        expires_at=datetime(2030, 1, 1, tzinfo=UTC),
        status="pending",
        tier="long",
        user_marked_important=True,
        metadata={"project": "mobile-app", "n": [1, 2]},
        created_at=datetime(2024, 12, 30, 10, tzinfo=UTC),
    )
    record = mem.get(mem.remember("Use JWT tokens with 24h expiry", **fields).id)
    dumped = record.model_dump(mode="json")
    for key, value in fields.items():
        expected = list(value) if isinstance(value, list) else value
        got = dumped[key]
        if isinstance(value, datetime):
            expected = value.isoformat().replace("+00:00", "Z")
        assert got == expected, key
    assert record.content_hash and record.token_count > 0 and record.updated_at == record.created_at


def test_document_frequencies_follow_the_index(mem: Memory) -> None:
    mem.remember_many(
        [{"content": f"running club meets on day {i}"} for i in range(4)] + [{"content": "chess"}]
    )
    total, df = mem.store.document_frequencies(["run", "chess", "absent"])
    assert total == 5 and df == {"run": 4, "chess": 1}


def test_memory_count_follows_writes_and_deletes(tmp_path: Path) -> None:
    with Memory(tmp_path / "c.db", embedder=FakeEmbedder()) as mem:
        ids = [r.id for r in mem.remember_many([{"content": f"note number {i}"} for i in range(5)])]
        mem.forget(ids[0])
        assert mem.store.document_frequencies(["note"]) == (4, {"note": 4})
        with mem.store.atomic() as db:
            db.execute("UPDATE counts SET n = 99")
        report = mem.validate_storage()
        assert any("memory count kept as 99, actually 4" in i["problem"] for i in report["issues"])
        assert mem.repair_index()["issues_after"] == []
        assert mem.store.document_frequencies(["note"])[0] == 4


def test_episode_neighbours_are_the_turns_around_a_memory_in_scope(mem: Memory) -> None:
    turns = ["we met at the lake", "which lake was it", "the one by the old mill", "it was cold"]
    ids = [
        r.id
        for r in mem.remember_many(
            [
                {
                    "content": t,
                    "episode_id": "trip",
                    "sequence_number": i,
                    "scope": "project",
                    "scope_id": "p",
                }
                for i, t in enumerate(turns)
            ]
        )
    ]
    other = mem.remember("which lake was it again", episode_id="quiz", sequence_number=2).id
    loose = mem.remember("a lake with no episode").id
    where = Filter(scope=None)
    near = mem.store.episode_neighbours([ids[1], other, loose], where)
    assert sorted(near[ids[1]]) == sorted([ids[0], ids[2]])
    assert other not in near and loose not in near  # alone in its episode; no episode at all
    assert mem.store.episode_neighbours([ids[3]], where) == {ids[3]: [ids[2]]}
    assert mem.store.episode_neighbours([ids[1]], Filter(scope=Scope.PROJECT, scope_id="elsewhere")) == {}
    assert mem.store.episode_neighbours([ids[1]], Filter(scope=None, statuses=(Status.PENDING,))) == {}
    # Recall looks for the neighbours of placed memories only.
    assert {f.id: f.placed for f in mem.store.facts([ids[0], other, loose])} == {
        ids[0]: True,
        other: True,
        loose: False,
    }
    # Their episode, which the episode score groups candidates by.
    assert {f.id: f.episode for f in mem.store.facts([ids[0], other, loose])} == {
        ids[0]: "trip",
        other: "quiz",
        loose: None,
    }


def test_one_batch_sees_its_own_earlier_writes(mem: Memory) -> None:
    """remember_many commits a slice of writes at once; each write still finds the ones before it."""
    first, second, other = mem.remember_many(
        [
            {"content": "the staging server restarts every night at two"},
            {"content": "The staging server restarts every night at two!"},
            {"content": "lunch is at noon on fridays"},
        ]
    )
    assert second.merged_into == first.id and other.created
    assert mem.stats()["memories"] == 2


def test_a_failing_write_rolls_back_its_batch_slice_and_nothing_stored_before(mem: Memory) -> None:
    kept = mem.remember("the boiler was serviced in march")
    with pytest.raises(InvalidInput, match="already exists"):
        mem.remember_many(
            [{"content": "the gate code is 4512"}, {"content": "lunch is at noon", "id": kept.id}]
        )
    assert mem.stats()["memories"] == 1 and mem.get(kept.id).content == "the boiler was serviced in march"
    assert all(h.record.content != "the gate code is 4512" for h in mem.recall("gate code", mode="related"))
    assert mem.remember("the gate code is 4512").created  # the classifiers still work after the rollback


def test_vector_facts_are_the_vector_search_with_each_hits_facts(mem: Memory) -> None:
    """Recall reads its vector hits' facts with the search itself, on either backend, inside a write too."""
    mem.remember_many([{"content": f"the garden note {i} about roses and soil"} for i in range(30)])
    mem.remember("a project note about roses", scope="project", scope_id="p1")
    qv = mem.embedder.embed_batch(["roses in the garden"])[0]

    def same(where: Filter) -> None:
        hits = mem.store.vector_search(qv, 8, where)
        found = mem.store.vector_facts(qv, 8, where)
        assert [(f.id, pytest.approx(s, abs=1e-5)) for f, s in found] == hits
        expected = {f.id: f for f in mem.store.facts([i for i, _ in hits])}
        for f, _ in found:
            e = expected[f.id]
            assert (f.content, f.importance, f.created_at, f.updated_at, f.access_count, f.episode) == (
                e.content,
                e.importance,
                e.created_at,
                e.updated_at,
                e.access_count,
                e.episode,
            )
            assert f.vector is not None and e.vector is not None and np.allclose(f.vector, e.vector)

    same(Filter(scope=None))
    same(Filter(scope=Scope.PROJECT, scope_id="p1"))
    with mem.store.atomic():
        mem.remember("roses in the garden, written inside the transaction")
        same(Filter(scope=None))


def test_a_vector_search_inside_a_write_sees_that_write_only(mem: Memory) -> None:
    """Uncommitted vectors are found by the transaction that wrote them, and gone when it rolls back."""
    vector = mem.embedder.embed_batch(["the boiler was serviced in march"])[0]
    with pytest.raises(RuntimeError), mem.store.atomic():
        written = mem.remember("the boiler was serviced in march")
        assert mem.store.vector_search(vector, 3, Filter())[0] == (written.id, pytest.approx(1.0, abs=1e-5))
        raise RuntimeError("roll back")
    assert mem.store.vector_search(vector, 3, Filter()) == []
    assert mem.stats()["memories"] == 0


def test_a_search_inside_a_write_equals_a_scan_of_what_that_write_sees(tmp_path: Path) -> None:
    """Inside a transaction that added, re-embedded and deleted memories, a vector search (the merged fast
    path, and the complete one when the filter leaves too few) ranks exactly as a scan of the current rows."""
    with Memory(tmp_path / "fresh.db", embedder=FakeEmbedder()) as mem:

        def put(n: int, scope_id: str) -> list[str]:
            texts = [f"note {scope_id} {i} about topic {i % 7} and item {i * 31 % 101}" for i in range(n)]
            return [
                r.id
                for r in mem.remember_many(
                    [{"content": t, "scope": Scope.PROJECT, "scope_id": scope_id} for t in texts]
                )
            ]

        committed = put(60, "a") + put(12, "b")
        queries = mem.embedder.embed_batch([f"topic {i} item {i * 13}" for i in range(6)])
        with mem.store.atomic() as db:
            put(25, "c")
            put(4, "b")
            mem.store.update(mem.get(committed[3]), queries[0])  # now the closest to the first query
            mem.store.delete(committed[62])
            rows = db.execute("SELECT id, scope_id, embedding FROM memories WHERE searchable = 1").fetchall()
            for scope_id in (None, "a", "b"):
                allowed = [
                    (i, np.frombuffer(e, dtype=np.float32)) for i, s, e in rows if scope_id in (None, s)
                ]
                where = Filter(scope=None if scope_id is None else Scope.PROJECT, scope_id=scope_id)
                for q in queries:
                    cosine = {i: float(v @ q / np.linalg.norm(v) / np.linalg.norm(q)) for i, v in allowed}
                    best = sorted(cosine.values(), reverse=True)
                    for k in (1, 5, 20):  # ties among equal cosines may come in any order
                        found = mem.store.vector_search(q, k, where)
                        labelled = mem.store.labelled_search(q, k, where)  # the write path's: same hits
                        assert [(i, s) for i, s, _ in labelled] == found
                        assert [s for _, s in found] == pytest.approx(best[:k], abs=1e-5)
                        assert all(cosine[i] == pytest.approx(s, abs=1e-5) for i, s in found)
            assert mem.store.vector_search(queries[0], 1, Filter())[0][0] == committed[3]
            assert committed[62] not in {i for i, _ in mem.store.vector_search(queries[0], 200, Filter())}


def test_an_in_memory_store_sees_its_earlier_writes_when_writing() -> None:
    """Near-duplicate checks and neighbour votes search what was stored before, on ':memory:' too."""
    with Memory(":memory:", embedder=FakeEmbedder()) as mem:
        first, second = mem.remember_many(
            [
                {"content": "the staging server restarts every night at two"},
                {"content": "The staging server restarts every night at two!"},
            ]
        )
        assert second.merged_into == first.id
        assert mem.stats()["index"] == {"indexed": 1, "embedded": 1}


def test_ids_starting_finds_the_ids_a_prefix_begins(mem: Memory) -> None:
    for suffix in ("a", "b", "c"):
        mem.remember(f"memory {suffix} about gardens", id=f"abcd-000{suffix}")
    mem.remember("another one about kettles", id="abce-0000")
    assert mem.store.ids_starting("abcd", 10) == ["abcd-000a", "abcd-000b", "abcd-000c"]
    assert mem.store.ids_starting("abcd", 2) == ["abcd-000a", "abcd-000b"]
    assert mem.store.ids_starting("abce", 10) == ["abce-0000"]
    assert mem.store.ids_starting("abc%", 10) == [] and mem.store.ids_starting("zz", 10) == []
