from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bench.embedcache import DiskCachedEmbedder, cache_path
from engram.embed.embedder import Embedder, FakeEmbedder
from engram.model.vectors import Matrix


class Counting(FakeEmbedder):
    def __init__(self) -> None:
        super().__init__(dim=16, name="fake/16")
        self.seen: list[str] = []

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        self.seen.extend(texts)
        return super().embed_batch(texts)


def test_vectors_persist_across_instances_and_misses_are_embedded_once(tmp_path: Path) -> None:
    inner = Counting()
    path = cache_path(inner.name, tmp_path)
    assert path.name == "embeddings-fake_16.sqlite"
    first = DiskCachedEmbedder(inner, path, batch_size=2)
    assert isinstance(first, Embedder)
    texts = ["alpha beta", "gamma", "alpha beta", "delta", "epsilon"]
    out = first.embed_batch(texts)
    assert sorted(inner.seen) == ["alpha beta", "delta", "epsilon", "gamma"]
    np.testing.assert_allclose(out, FakeEmbedder(dim=16).embed_batch(texts), rtol=1e-6)
    first.close()

    inner.seen.clear()
    second = DiskCachedEmbedder(inner, path)
    again = second.embed_batch(["gamma", " alpha beta ", "zeta"])  # content_hash strips the text
    assert inner.seen == ["zeta"]
    np.testing.assert_array_equal(again[0], out[1])
    np.testing.assert_array_equal(again[1], out[0])
    assert (second.hits, second.misses) == (2, 1)
    assert len(second) == 5
    assert second.embed_batch([]).shape == (0, 16)
    assert second.token_offsets("a b") == inner.token_offsets("a b")
    assert (second.name, second.dim) == ("fake/16", 16)
    second.close()
