"""What a recall costs a PostgreSQL store in round trips to the server, counted on its connections (a statement
sent alone is one, statements sent together in a pipeline are one), so that the count cannot grow back unseen;
and the reads merged to save them answer as the reads they replaced: the text search's term statistics read in
its own statement give the very scores of BM25 over the same counts."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest

from bench.backends import bulk_records
from engram import FakeEmbedder, Memory, RecallMode
from engram.lang.text import stems
from engram.recall.candidates import read_together
from engram.recall.spelling import corrections
from engram.store.postgres import text as pg_text
from engram.store.postgres.store import PostgresStore
from engram.store.sqlite import search as sqlite_search
from engram.store.values import Facts, Filter

NOTES = [
    "The garden party is on Saturday at the lake house.",
    "Priya booked the dentist for Tuesday morning.",
    "The garden needs water every second day in July.",
    "Tomasz plays the cello in the city orchestra.",
    "The lake house has a blue door and a red roof.",
    "Saturday is the day for the market and the garden.",
]


class Sent:
    """Each round trip a store's connections make: the statement sent alone, or "pipeline" for statements sent
    together."""

    def __init__(self) -> None:
        self.trips: list[str] = []

    def clear(self) -> None:
        self.trips.clear()

    def reading(self, part: str) -> int:
        return sum(part in trip for trip in self.trips)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Sent:
    out = Sent()
    piped: set[int] = set()
    execute, pipeline = psycopg.Cursor.execute, psycopg.Connection.pipeline

    def counted_execute(self: Any, query: Any, params: Any = None, **kwargs: Any) -> Any:
        if id(self.connection) not in piped:
            out.trips.append(query.decode() if isinstance(query, bytes) else str(query))
        return execute(self, query, params, **kwargs)

    @contextmanager
    def counted_pipeline(self: Any) -> Iterator[Any]:
        piped.add(id(self))
        try:
            with pipeline(self) as p:
                yield p
        finally:
            piped.discard(id(self))
        out.trips.append("pipeline")

    monkeypatch.setattr(psycopg.Cursor, "execute", counted_execute)
    monkeypatch.setattr(psycopg.Connection, "pipeline", counted_pipeline)
    return out


def _stored(mem: Memory) -> None:
    store: Any = mem.store
    store.insert(bulk_records(NOTES), list(FakeEmbedder().embed_batch(NOTES)))


def test_a_recall_of_held_words_is_one_read_beside_the_vector_search(pg_url: str, sent: Sent) -> None:
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        _stored(mem)
        mem.recall("when is the garden party at the lake house?", touch=False)  # the pool's connections open
        sent.clear()
        hits = mem.recall("when is the garden party at the lake house?", touch=False)
        assert hits
        # the term weights and the text search, together; the vector search; the returned memories read in full
        assert sent.trips.count("pipeline") == 1
        assert sent.reading("<=>") == 1
        assert len(sent.trips) == 3
        # every word is one of the dictionary's: no word is looked up as a possible typo
        assert sent.reading("lexicon") == 0


def test_a_word_the_dictionary_lacks_is_looked_up_with_the_store_size_in_one_read(
    pg_url: str, sent: Sent
) -> None:
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        _stored(mem)
        mem.recall("who plays the cello?", touch=False)
        sent.clear()
        mem.recall("what does Tomasz play?", mode=RecallMode.RANKED, touch=False)
        # "tomasz": held, so no typo; the store's size came with it (not a read of its own)
        assert sent.reading("lexicon") == 1 and sent.reading("corpus") == 1
        assert sent.trips.count("pipeline") == 1 and len(sent.trips) == 4
        sent.clear()
        ranked = mem.recall("what does Tomazs play?", mode=RecallMode.RANKED, touch=False)
        # a typo: the words held with the store's size, then the variants' counts, before the searches
        assert sent.reading("lexicon") == 2 and len(sent.trips) == 5
        assert "Tomasz" in ranked[0].record.content


def test_the_weights_read_with_the_searches_are_those_read_alone(pg_url: str, sent: Sent) -> None:
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        _stored(mem)
        store = mem.store
        assert isinstance(store, PostgresStore)
        weighed = ["garden", "lake", "saturdai", "zeppelin"]
        searches = [["garden", "party", "zeppelin"], ["lake", "roof"], ["zeppelin"], []]
        sent.clear()
        statistics, found = read_together(store, weighed, searches, 4, Filter())
        assert sent.trips == ["pipeline"]
        assert statistics == store.document_frequencies(weighed)
        assert [_plain(hits) for hits in found] == [
            _plain(store.text_facts(terms, 4, Filter())) for terms in searches
        ]
        assert [len(hits) for hits in found] == [3, 2, 0, 0]  # a word no memory holds finds nothing


def _plain(hits: list[tuple[Facts, float]]) -> list[tuple[str, str, float, list[float]]]:
    return [(f.id, f.content, score, [] if f.vector is None else f.vector.tolist()) for f, score in hits]


def _bm25(texts: Sequence[str], asked: Sequence[str], budget: int) -> dict[int, float]:
    """BM25 as the store computed it in Python before (content only, no tags), an independent oracle: each
    memory's score by its index in `texts`."""
    held = [{s for s in stems(t) if pg_text.indexable(s)} for t in texts]
    docs, total = len(texts), sum(len(h) for h in held)
    frequencies = {s: n for s in pg_text.query_stems(asked) if (n := sum(s in h for h in held))}
    kept: list[str] = []
    for s in sorted(frequencies, key=lambda s: frequencies[s]):
        if kept and sum(frequencies[k] for k in kept) + frequencies[s] > budget:
            break
        kept.append(s)
    average = max(1.0, total / max(1, docs))
    out = {}
    for i, h in enumerate(held):
        found = [s for s in sorted(kept) if s in h]
        if found:
            weight = sum(math.log((docs - frequencies[s] + 0.5) / (frequencies[s] + 0.5) + 1) for s in found)
            out[i] = weight * 2.2 / (1.0 + 1.2 * (1.0 - 0.75 + 0.75 * len(h) / average))
    return out


@pytest.mark.parametrize("budget", [2000, 3])
def test_the_text_search_scores_exactly_as_bm25_over_the_counts(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, budget: int
) -> None:
    monkeypatch.setattr(sqlite_search, "ROWS_SCORED", budget)
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        _stored(mem)
        ids = [r.id for r in mem.list(limit=100)]
        by_text = {mem.get(i).content: i for i in ids}  # type: ignore[union-attr]
        for asked in (["garden", "saturday"], ["lake", "house", "roof", "zeppelin"], ["the", "cello"]):
            expected = {by_text[NOTES[i]]: s for i, s in _bm25(NOTES, asked, budget).items()}
            assert dict(mem.store.text_search(asked, 10, Filter())) == expected


def test_the_dictionary_is_read_before_the_store_is_asked() -> None:
    class Asked:
        def __init__(self) -> None:
            self.words: list[str] = []

        def words_held(self, words: Sequence[str]) -> set[str]:
            self.words += words
            return set(words)

        def document_frequencies(self, stems: Sequence[str]) -> tuple[int, dict[str, int]]:
            raise AssertionError("no count is read when every word is held")

    store = Asked()
    assert corrections(["garden", "dentsit", "tuesday"], store) == {}  # type: ignore[arg-type]
    assert store.words == ["dentsit"]
