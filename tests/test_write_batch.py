"""The write path's batch API decides as one write after another would: the same texts stored by one
`remember_many` call and one at a time give the same memories (kinds, categories, tags, duplicates,
merges, chunks, neighbours)."""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.classify import forms
from engram.classify.prototypes import opening
from engram.classify.taxonomy import split_prefix
from engram.model.record import Kind
from engram.model.results import RememberResult
from engram.model.vectors import Matrix
from engram.write import writer

SUBJECTS = [
    "the bank meeting",
    "my dentist appointment",
    "the team review",
    "our trip to Lisbon",
    "the launch",
]
TIMES = ["on 3 March", "on 4 March", "tomorrow morning", "on Friday evening", "next week"]
STATEMENTS = [
    "I prefer green tea over coffee in the morning",
    "I am allergic to peanuts",
    "We decided to use PostgreSQL for the billing service",
    "Remember to renew the passport before the trip",
    "The deploy failed because the certificate expired",
    "I think the new design is easier to read",
    "The user likes short answers with examples",
    "Alice moved to the data team last month",
    "Always run the migrations before the tests",
    "I never drink coffee after noon",
    # marks of form the kinds read, read for the whole batch while the model embeds it
    "Send the signed lease back to the landlord by Friday 4 December",
    "The landlord can be reached on +49 170 5550192",
    "Good article on Postgres index types: https://example.com/blog/pg",
    "Choir rehearsals are on Wednesdays in the church hall",
]


def _items() -> list[dict[str, Any]]:
    """Texts that meet each other inside one batch: exact repeats, near copies (merged), close wordings naming
    other particulars (kept apart), kind prefixes, a long text in chunks, other scopes and owners, tags."""
    rng = random.Random(38)
    items: list[dict[str, Any]] = []
    for i in range(150):
        roll = rng.random()
        if roll < 0.35:
            text = f"{rng.choice(SUBJECTS).capitalize()} is {rng.choice(TIMES)}"
        elif roll < 0.7:
            text = rng.choice(STATEMENTS)
        elif roll < 0.8:
            text = f"task: {rng.choice(STATEMENTS).lower()}"
        else:
            text = f"Note {i}: {rng.choice(STATEMENTS)} and {rng.choice(SUBJECTS)} is {rng.choice(TIMES)}"
        text += rng.choice(["", "", ".", "!"])  # the same words: a near copy, merged
        item: dict[str, Any] = {"content": text}
        if rng.random() < 0.2:
            item["tags"] = rng.sample(["work", "health", "travel", "food"], 2)
        if rng.random() < 0.15:
            item |= {"scope": "project", "scope_id": rng.choice(["p1", "p2"])}
        if rng.random() < 0.1:
            item["user_id"] = "ann"
        items.append(item)
    long_text = " ".join(f"{rng.choice(STATEMENTS)} ({n})." for n in range(40))  # past one chunk
    items[40:40] = [{"content": long_text}, {"content": long_text}]
    return items


def _stored(mem: Memory, results: list[RememberResult]) -> list[dict[str, Any]]:
    """Each write's outcome and the memory it ended in, with ids named by the write that made them."""
    names: dict[str, Any] = {r.id: i for i, r in enumerate(results) if r.created}
    for r in results:
        names |= {c.id: (names.get(r.id), c.chunk_index) for c in mem.store.children(r.id)}
    rows = []
    for r in results:
        record = mem.get(r.id)
        assert record is not None
        rows.append(
            {
                "outcome": r.outcome,
                "memory": names.get(r.id),
                "neighbours": [(names.get(i, i), round(s, 4)) for i, s in r.neighbours],
                "content": record.content,
                "kind": record.kind,
                "kind_method": record.kind_method,
                "kind_confidence": record.kind_confidence,
                "category": record.category,
                "category_method": record.category_method,
                "category_confidence": record.category_confidence,
                "tags": sorted(record.tags),
                "importance": round(record.importance, 6),
                "chunks": len(mem.store.children(record.id)),
                "scope": (record.scope, record.scope_id, record.user_id),
            }
        )
    return rows


class _Threads(FakeEmbedder):
    """The fake embedder, noting which threads called the model, a call at a time."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[str] = []
        self.texts: list[list[str]] = []

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        self.threads.append(threading.current_thread().name)
        self.texts.append(list(texts))
        return super().embed_batch(texts)


@pytest.mark.parametrize("unit", [None, 48])
@pytest.mark.parametrize("mode", ["store", "persona"])
def test_one_batch_stores_what_one_write_at_a_time_stores(
    tmp_path: Path, mode: str, unit: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`unit`: memories per model call, so that the next unit embeds on a thread of its own while one is
    written (engram.write.embedding); None: the default, one call for these 152 texts."""
    items = _items()
    # Not one of the STATEMENTS, which the filled-store test writes too: past the exact scan, a text written one at
    # a time meets its slice's earlier texts in the graph, whose walk may miss one a bulk write's held rows show.
    items.insert(75, {"content": "Call with the landlord: the boiler is fixed after the holidays"})  # meeting
    settings = Settings(home=tmp_path / "home", tag_on_topic=-1, lifecycle_mode=mode)
    embedder = _Threads()
    if unit is not None:
        monkeypatch.setattr(writer, "EMBED_UNIT", unit)
    with Memory(tmp_path / "batch.db", embedder=embedder, settings=settings) as mem:
        batch = _stored(mem, mem.remember_many(items))
        audit = [(e["action"], e["detail"].get("kind")) for e in mem.store.audit_log(limit=1000)]
    # The model runs on the write's own thread, a call for the passages and one for the openings of each unit,
    # but the first unit's openings embed on the caller's while its passages do (so do the classifiers'
    # seeds, loading first).
    on_thread = [name for name in embedder.threads if name.startswith("engram-write-embed")]
    assert len(on_thread) == (1 if unit is None else 2 * -(-len(items) // unit) - 1)
    words = settings.kind_opening_words
    first = unit or len(items)
    openings = {opening(split_prefix(i["content"], [k.value for k in Kind])[1], words) for i in items[:first]}
    caller = threading.current_thread().name
    mine = [t for name, t in zip(embedder.threads, embedder.texts, strict=True) if name == caller]
    assert any(t and set(t) <= openings for t in mine)
    with Memory(tmp_path / "single.db", embedder=FakeEmbedder(), settings=settings) as mem:
        # one call, one write: `remember` would also tag a text given no tags
        single = _stored(mem, [mem.remember_many([item])[0] for item in items])
        audit_single = [(e["action"], e["detail"].get("kind")) for e in mem.store.audit_log(limit=1000)]
    outcomes = {row["outcome"] for row in batch}
    assert outcomes == {"created", "duplicate", "merged"}  # the batch met each case
    assert any(row["chunks"] for row in batch)
    assert any(row["kind_method"] == "prefix" for row in batch)
    read = {frozenset(forms.read(row["content"])) for row in batch if row["kind_method"] == "auto"}
    assert {m for found in read for m in found} == set(forms.FORMS)  # each mark was read in the batch
    for i, (got, expected) in enumerate(zip(batch, single, strict=True)):
        assert got == expected, f"write {i}: {items[i]['content']!r}"
    assert audit == audit_single


class _FailsAfter(FakeEmbedder):
    """The fake embedder, failing from its `ok + 1`-th call on."""

    def __init__(self, ok: int) -> None:
        super().__init__()
        self.ok = ok

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        self.ok -= 1
        if self.ok < 0:
            raise RuntimeError("the model is gone")
        return super().embed_batch(texts)


def test_a_unit_whose_model_call_fails_stops_the_write_after_the_units_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer, "EMBED_UNIT", 10)
    texts = [f"{subject} is {when}" for subject in SUBJECTS for when in TIMES]
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        mem.remember("warm up: the classifiers load before the model is counted")
    embedder = _FailsAfter(ok=2)  # the first unit's passages and its openings
    with Memory(tmp_path / "m.db", embedder=embedder) as mem:
        with pytest.raises(RuntimeError, match="the model is gone"):
            mem.remember_many([{"content": t} for t in texts])
        stored = {r.content for r in mem.list(limit=100)}
    assert set(texts[:10]) <= stored
    assert not stored & set(texts[10:])


class _Alone(_Threads):
    """The fake embedder, noting also which texts were embedded alone on the calling thread."""

    def __init__(self) -> None:
        super().__init__()
        self.alone: list[tuple[str, list[str]]] = []

    def embed_alone(self, texts: Sequence[str]) -> Matrix:
        self.alone.append((threading.current_thread().name, list(texts)))
        return FakeEmbedder.embed_batch(self, texts)


def test_a_bulk_write_embeds_its_openings_alone_and_its_passages_on_the_model_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The openings are a few tokens each: the first unit's embed on the caller's thread alone while the
    passages hold the model's threads, the later units' after their passages, on the write's own thread."""
    monkeypatch.setattr(writer, "EMBED_UNIT", 20)
    texts = [f"{subject} is {when}" for subject in SUBJECTS for when in TIMES] + STATEMENTS
    embedder = _Alone()
    with Memory(tmp_path / "m.db", embedder=embedder) as mem:
        mem.remember("warm up: the classifiers load before the model is counted")
        embedder.alone.clear()
        embedder.texts.clear()
        mem.remember_many([{"content": t} for t in texts])
    words = Settings().kind_opening_words
    openings = {opening(t, words) for t in texts}
    alone = [t for _, run in embedder.alone for t in run]
    assert set(alone) == openings - {opening("warm up: the classifiers", words)}
    assert len(alone) == len(set(alone))  # each opening once
    assert embedder.alone[0][0] == threading.current_thread().name
    assert {name for name, _ in embedder.alone[1:]} == {"engram-write-embed_0"}
    assert {t for run in embedder.texts for t in run} == set(texts)  # the passages, by the model's own call
