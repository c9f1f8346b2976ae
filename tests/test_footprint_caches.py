"""The embedding caches keep each vector on its own: a cached row of a batch does not keep the batch alive, and a
hit answers the vector that was embedded."""

from __future__ import annotations

import gc
import weakref

import numpy as np

from engram import FakeEmbedder
from engram.embed.embedder import CachedEmbedder


def test_a_kept_row_does_not_hold_its_batch() -> None:
    cache = CachedEmbedder(FakeEmbedder(dim=32), capacity=8)
    texts = [f"text number {i}" for i in range(6)]
    batch = FakeEmbedder(dim=32).embed_batch(texts)
    expected = batch.copy()
    held = weakref.ref(batch)
    cache.keep(texts[:2], batch[:2])  # the opening words of a larger batch
    del batch
    gc.collect()
    assert held() is None
    found = cache.known(texts)
    assert list(found) == texts[:2]
    assert np.array_equal(np.stack([found[t] for t in texts[:2]]), expected[:2])


def test_cached_vectors_are_those_embedded() -> None:
    inner = FakeEmbedder(dim=32)
    cache = CachedEmbedder(inner, capacity=4)
    texts = ["garden tomatoes", "piano lessons", "garden tomatoes", "backup server"]
    first = cache.embed_batch(texts)
    again = cache.embed_batch(texts)
    assert np.array_equal(first, again)
    assert np.array_equal(first, inner.embed_batch(texts))
