"""An embedder with a persistent on-disk cache, so benchmark runs never embed the same text twice.

Vectors are kept in `bench/.cache/embeddings-<model>.sqlite`, keyed by `content_hash(text)`, as little-endian
float32 blobs. Misses are embedded in batches (with a progress bar when there are many) and written after each
batch, so an interrupted run keeps what it paid for.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from engram.embed.embedder import Embedder
from engram.model.vectors import Matrix, content_hash, decode_vector, encode_vector

CACHE_DIR = Path(__file__).resolve().parent / ".cache"
_SQL_VARIABLES = 500  # keys per SELECT ... IN (...), well under SQLite's limit


def cache_path(model_name: str, directory: Path = CACHE_DIR) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", model_name)
    return directory / f"embeddings-{safe}.sqlite"


class DiskCachedEmbedder:
    """Wraps an `Embedder`; same name, dim and token offsets, vectors looked up on disk before computing."""

    def __init__(
        self,
        inner: Embedder,
        path: Path | None = None,
        *,
        batch_size: int = 256,
        progress_from: int = 200,
        console: Console | None = None,
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.path = path or cache_path(inner.name)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._batch_size = batch_size
        self._progress_from = progress_from
        self._console = console or Console(stderr=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL)")
        self.hits = 0
        self.misses = 0

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        return self.inner.token_offsets(text)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __len__(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT count(*) FROM vectors").fetchone()
        return int(row[0])

    def _lookup(self, keys: Sequence[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        with self._lock:
            for start in range(0, len(keys), _SQL_VARIABLES):
                part = keys[start : start + _SQL_VARIABLES]
                marks = ",".join("?" * len(part))
                rows = self._db.execute(f"SELECT key, vector FROM vectors WHERE key IN ({marks})", part)
                found.update((key, blob) for key, blob in rows if len(blob) == 4 * self.dim)
        return found

    def _store(self, keys: Sequence[str], vectors: Matrix) -> None:
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany(
                "INSERT OR REPLACE INTO vectors (key, vector) VALUES (?, ?)",
                [(key, encode_vector(vector)) for key, vector in zip(keys, vectors, strict=True)],
            )
            self._db.execute("COMMIT")

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        keys = [content_hash(text) for text in texts]
        unique = list(dict.fromkeys(keys))
        found = self._lookup(unique)
        rows: dict[str, list[int]] = {}
        for i, key in enumerate(keys):
            rows.setdefault(key, []).append(i)
        for key, blob in found.items():
            out[rows[key]] = decode_vector(blob)
        missing = [key for key in unique if key not in found]
        self.hits += len(unique) - len(missing)
        self.misses += len(missing)
        if missing:
            self._compute(missing, rows, texts, out)
        return out

    def _compute(
        self, missing: list[str], rows: dict[str, list[int]], texts: Sequence[str], out: Matrix
    ) -> None:
        batches = [missing[i : i + self._batch_size] for i in range(0, len(missing), self._batch_size)]
        if len(missing) < self._progress_from:
            for batch in batches:
                self._embed_and_store(batch, rows, texts, out)
            return
        columns = (
            TextColumn(f"embedding with {self.name}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
        )
        with Progress(*columns, console=self._console, transient=True) as progress:
            task = progress.add_task("embed", total=len(missing))
            for batch in batches:
                self._embed_and_store(batch, rows, texts, out)
                progress.advance(task, len(batch))

    def _embed_and_store(
        self, batch: list[str], rows: dict[str, list[int]], texts: Sequence[str], out: Matrix
    ) -> None:
        vectors = self.inner.embed_batch([texts[rows[key][0]] for key in batch])
        for key, vector in zip(batch, vectors, strict=True):
            out[rows[key]] = vector
        self._store(batch, vectors)
