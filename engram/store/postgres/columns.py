"""How a record becomes a PostgreSQL row of `memories` and back, beyond the SQL backends' shared mapping
(engram.store.rows): what a row can leave out because it is known without it."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from engram.model.record import MemoryRecord
from engram.store import scores
from engram.store.rows import COLUMNS, record_from_row, record_to_row

_SCORES, _HASH, _CONTENT, _TAGS, _METADATA = (
    COLUMNS.index(c) for c in ("kind_scores", "content_hash", "content", "tags", "metadata")
)


def sha256(content: str) -> str:
    return hashlib.sha256(content.encode()).hexdigest()


def to_row(record: MemoryRecord) -> tuple[Any, ...]:
    """The row's values in COLUMNS order; the classifier's scores as the SQLite backend's blob (a tenth of their
    JSON), or JSON's UTF-8 bytes where the blob cannot hold them exactly (engram.store.scores). NULL for what is
    known without it: the content hash where it is the SHA-256 of the content as stored (schema.HASH derives it
    again), no tags, no metadata (5 bytes each as JSONB)."""
    row = list(record_to_row(record, native=True))
    stored = scores.encode(dict(record.kind_scores))
    row[_SCORES] = stored if isinstance(stored, bytes) else stored.encode()
    if row[_HASH] == sha256(record.content):
        row[_HASH] = None
    if not record.tags:
        row[_TAGS] = None
    if not record.metadata:
        row[_METADATA] = None
    return tuple(row)


def from_row(row: Sequence[Any]) -> MemoryRecord:
    values = list(row)
    stored = bytes(values[_SCORES])
    values[_SCORES] = json.loads(stored) if stored[:1] == b"{" else scores.decode(stored)
    if values[_HASH] is None:
        values[_HASH] = sha256(values[_CONTENT])
    if values[_TAGS] is None:
        values[_TAGS] = []
    if values[_METADATA] is None:
        values[_METADATA] = {}
    return record_from_row(values, native=True)
