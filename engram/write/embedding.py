"""The model calls of a bulk write, a unit of memories at a time, so that the next unit embeds while this one is
written.

What is embedded is decided once for the whole call, before anything is written: every passage neither already
in the store nor handed in by the caller (by content hash), each once, in the first unit that holds it, and each
opening the classifiers read that their cache does not hold yet, likewise. A unit's model call then runs on a
thread of its own (the model releases the interpreter while it computes) while the memories before it are
decided and written; nothing on that thread reads or writes the store. While the first unit's passages are
embedded there, the caller does what needs no vector (engram.write.meanwhile) and embeds that unit's openings:
a model call of one unit alone would otherwise leave them to run after it.

A unit is four write slices: a model call sorts its texts by length and pads each batch only to its longest, so
smaller calls pad more (a quarter of the texts per call cost more model time than the pipeline hides).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Protocol

import numpy as np

from engram.embed.embedder import CachedEmbedder, Embedder, embed_alone
from engram.model.vectors import Matrix, Vector, content_hash
from engram.store.roles import KnownHashes
from engram.write.pending import Pending


class VectorsByHash(Protocol):
    def vector_for_hash(self, digest: str) -> Vector | None: ...


_Job = tuple[list[str], list[str]]  # the passages and the openings of one unit's model call


def units(
    prepared: Sequence[Pending],
    size: int,
    embedder: Embedder,
    openings: CachedEmbedder,
    store: VectorsByHash,
    embedded: Mapping[str, Vector],
    meanwhile: Callable[[], None] | None = None,
) -> Iterator[Sequence[Pending]]:
    """`prepared`, `size` memories at a time, each unit's vectors and opening vectors set when it is yielded;
    the next unit's model call runs while the caller writes this one, and `meanwhile` (what the caller reads
    of the texts alone) while the first one runs."""
    known: dict[str, Vector] = {}
    opened = openings.known([p.opening for p in prepared if p.opening is not None])
    # Only the passages some stored row has are looked up one by one (the store unchanged until the first write).
    stored = _stored([content_hash(t) for p in prepared for t in p.pieces], store, embedded)
    parts = [prepared[i : i + size] for i in range(0, len(prepared), size)]
    jobs: list[_Job] = []
    seen: set[str] = set()
    claimed = set(opened)  # openings cached or embedded by an earlier unit
    for part in parts:
        head: list[str] = []
        for p in part:
            for text in p.pieces:
                digest = content_hash(text)
                if digest in seen:
                    continue
                seen.add(digest)
                vector = embedded.get(digest)
                if vector is None and (stored is None or digest in stored):
                    vector = store.vector_for_hash(digest)
                if vector is None:
                    head.append(text)
                else:
                    known[digest] = vector
        fresh = [o for o in dict.fromkeys(p.opening for p in part) if o is not None and o not in claimed]
        claimed.update(fresh)
        jobs.append((head, fresh))
    if not parts:
        return
    if len(prepared) == 1:
        # one memory: nothing to overlap
        if meanwhile is not None:
            meanwhile()
        vectors = _run(embedder, jobs[0], alone=True)
        _take(parts[0], jobs[0], vectors, known, opened, openings)
        yield parts[0]
        return
    with ThreadPoolExecutor(1, thread_name_prefix="engram-write-embed") as pool:
        head, fresh = jobs[0]
        running: Future[tuple[Matrix, Matrix]] = pool.submit(_run, embedder, (head, []))
        try:
            if meanwhile is not None:
                meanwhile()
            # The first unit's openings are embedded here while its passages are: after them, they added
            # their own time to the model's.
            early = _run(embedder, ([], fresh))[1]
            for n, part in enumerate(parts):
                vectors = running.result()
                if n == 0:
                    vectors = (vectors[0], early)
                if n + 1 < len(parts):
                    running = pool.submit(_run, embedder, jobs[n + 1])
                _take(part, jobs[n], vectors, known, opened, openings)
                yield part
        finally:
            running.cancel()  # a write failed: the next unit is not needed


def _stored(digests: list[str], store: VectorsByHash, embedded: Mapping[str, Vector]) -> set[str] | None:
    """Which of `digests` the store has, when it can say in one read (None: it cannot, look each up)."""
    if len(digests) < 2 or not isinstance(store, KnownHashes):
        return None
    return store.known_hashes([d for d in digests if d not in embedded])


def _run(embedder: Embedder, job: _Job, alone: bool = False) -> tuple[Matrix, Matrix]:
    """A unit's passages in one model call and its openings (a few tokens each) in another: mixed into the
    batches sorted by length they cost more of the ingest. One memory (`alone`) runs beside its opening, in one
    call."""
    head, fresh = job
    none = np.zeros((0, embedder.dim), dtype=np.float32)
    if alone:
        vectors = embedder.embed_batch(head + fresh) if head or fresh else none
        return vectors[: len(head)], vectors[len(head) :]
    # The openings on this thread alone: the first unit's embed beside the passages, which hold the model's
    # helper thread, and a few tokens a text gain nothing from a second thread.
    return embedder.embed_batch(head) if head else none, embed_alone(embedder, fresh) if fresh else none


def _take(
    part: Sequence[Pending],
    job: _Job,
    vectors: tuple[Matrix, Matrix],
    known: dict[str, Vector],
    opened: dict[str, Vector],
    openings: CachedEmbedder,
) -> None:
    head, fresh = job
    known.update(zip(map(content_hash, head), vectors[0], strict=True))
    opened |= dict(zip(fresh, openings.keep(fresh, vectors[1]), strict=True))
    for p in part:
        p.vectors = [known[content_hash(t)] for t in p.pieces]
        p.opening_vector = None if p.opening is None else opened[p.opening]
