"""Embedders: text -> unit-length float32 vectors (engram.model.vectors). `FakeEmbedder` is fast and deterministic,
for tests where the model does not matter; `CachedEmbedder` keeps recent vectors by content hash. The default
model is in engram.embed.minilm."""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from engram.model.vectors import Matrix, Vector, content_hash


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length vectors; `name` and `dim` identify the vector space."""

    name: str
    dim: int

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        """One row per text, L2-normalised float32."""
        ...

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        """Character spans of the model's tokens in `text` (no special tokens), for counting and chunking."""
        ...


@runtime_checkable
class EmbedsAlone(Protocol):
    """An embedder that can also run a batch on the calling thread alone (the same vectors)."""

    def embed_alone(self, texts: Sequence[str]) -> Matrix:
        """`embed_batch`, computed on the calling thread only: for a batch that runs beside another one, which
        holds the embedder's helper threads."""
        ...


def embed_alone(embedder: Embedder, texts: Sequence[str]) -> Matrix:
    """`texts` embedded on the calling thread alone when `embedder` can, else as it embeds any batch."""
    if isinstance(embedder, EmbedsAlone):
        return embedder.embed_alone(texts)
    return embedder.embed_batch(texts)


def normalised(matrix: npt.NDArray[Any]) -> Matrix:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: Matrix = (matrix / norms).astype(np.float32)
    return out


_WORD = re.compile(r"\w+", re.UNICODE)


class FakeEmbedder:
    """Deterministic and fast, for tests where the model does not matter: hashed words and character trigrams.

    Texts that share words get similar vectors, so dedup and ranking behave plausibly; it knows no synonyms.
    """

    def __init__(self, dim: int = 64, name: str = "fake-hash") -> None:
        self.dim = dim
        self.name = name

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        return [m.span() for m in _WORD.finditer(text)]

    def _bucket(self, feature: str) -> tuple[int, float]:
        digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        return value % self.dim, 1.0 if (value >> 63) & 1 else -1.0

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = [w.lower() for w in _WORD.findall(text)]
            for word in words:
                col, sign = self._bucket("w:" + word)
                out[row, col] += 2.0 * sign
                padded = f"#{word}#"
                for i in range(len(padded) - 2):
                    col, sign = self._bucket("t:" + padded[i : i + 3])
                    out[row, col] += 0.5 * sign
            if not words:
                out[row, self._bucket("empty")[0]] = 1.0
        return normalised(out)


class CachedEmbedder:
    """An LRU cache keyed by content hash in front of another embedder."""

    def __init__(self, inner: Embedder, capacity: int = 4096) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self._capacity = capacity
        self._cache: OrderedDict[str, Vector] = OrderedDict()
        self._lock = threading.Lock()

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        return self.inner.token_offsets(text)

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        return self._embedded(texts, self.inner.embed_batch)

    def embed_alone(self, texts: Sequence[str]) -> Matrix:
        return self._embedded(texts, lambda missing: embed_alone(self.inner, missing))

    def _embedded(self, texts: Sequence[str], embed: Callable[[Sequence[str]], Matrix]) -> Matrix:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        have = self.known(texts)
        missing = [t for t in dict.fromkeys(texts) if t not in have]
        if missing:
            have |= dict(zip(missing, self.keep(missing, embed(missing)), strict=True))
        for i, text in enumerate(texts):
            out[i] = have[text]
        return out

    def known(self, texts: Sequence[str]) -> dict[str, Vector]:
        """The cached vectors among `texts`, embedding none: a caller can then embed the rest in a batch of
        its own with other texts."""
        found: dict[str, Vector] = {}
        with self._lock:
            for text in texts:
                key = content_hash(text)
                hit = self._cache.get(key)
                if hit is not None:
                    self._cache.move_to_end(key)
                    found[text] = hit
        return found

    def keep(self, texts: Sequence[str], vectors: Matrix) -> Matrix:
        """Cache `vectors` (one row per text) and return them. Each row is kept as a copy: a row of a batch is
        a view that would keep the whole batch alive (the opening words' cache held seven times its rows)."""
        with self._lock:
            for text, vector in zip(texts, vectors, strict=True):
                self._cache[content_hash(text)] = vector.copy()
                if len(self._cache) > self._capacity:
                    self._cache.popitem(last=False)
        return vectors
