"""How a MemoryRecord maps to a row of the `memories` table (shared by the SQL backends)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from engram.model.limits import readable
from engram.model.record import Category, Kind, MemoryRecord, MemoryType, Scope, SourceType, Status, Tier
from engram.model.vectors import decode_vectors
from engram.store import scores
from engram.store.values import Facts

COLUMNS: tuple[str, ...] = (
    "id",
    "parent_id",
    "chunk_index",
    "content",
    "content_hash",
    "kind",
    "scope",
    "scope_id",
    "type",
    "tags",
    "importance",
    "token_count",
    "access_count",
    "last_accessed_at",
    "validity_score",
    "is_negative",
    "source_type",
    "credibility",
    "emotion",
    "emotional_valence",
    "emotional_arousal",
    "episode_id",
    "sequence_number",
    "quality_score",
    "created_at",
    "updated_at",
    "expires_at",
    "status",
    "tier",
    "user_marked_important",
    "metadata",
    "kind_confidence",
    "kind_method",
    "kind_scores",
    "category",
    "category_confidence",
    "category_method",
    "base_relevance",
    "cluster_size",
    "priority",
    "user_id",
    "workspace_id",
)

# What a chunk shares with its memory and follows when the memory changes: whether it is seen at all (status,
# tier, expiry, scope, owner) and how it scores (kind, importance, validity, quality). A rejected or archived long memory
# was still found through its chunks. Its tags follow too (the stores write them with each chunk's text index);
# content and usage stay the chunk's.
CHUNK_SHARED: tuple[str, ...] = (
    "kind",
    "scope",
    "scope_id",
    "type",
    "importance",
    "validity_score",
    "is_negative",
    "quality_score",
    "updated_at",
    "expires_at",
    "status",
    "tier",
    "user_marked_important",
    "category",
    "user_id",
    "workspace_id",
)

_JSON = {"tags", "metadata", "kind_scores"}
_TIMES = {"last_accessed_at", "created_at", "updated_at", "expires_at"}
_BOOLS = {"is_negative", "user_marked_important"}
_ENUMS: dict[str, Any] = {
    "kind": Kind,
    "scope": Scope,
    "type": MemoryType,
    "source_type": SourceType,
    "status": Status,
    "tier": Tier,
    "category": Category,
}


_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")


def stored_hash(digest: str) -> str | bytes:
    """How SQLite keeps a content hash: a SHA-256 hex digest as its 32 bytes (half its row's and index's bytes),
    any other hash (an imported one, a test's) as its text. Rows written as text before stay text."""
    return bytes.fromhex(digest) if _HEX_DIGEST.fullmatch(digest) else digest


def read_hash(stored: str | bytes) -> str:
    return stored.hex() if isinstance(stored, bytes) else stored


def ts(value: datetime) -> str:
    """Timestamps are stored as fixed-width UTC ISO text, so they sort as strings."""
    return value.isoformat(timespec="microseconds")


JSON_COLUMNS = frozenset(_JSON)


def record_to_row(record: MemoryRecord, *, native: bool = False) -> tuple[Any, ...]:
    """The row's values in COLUMNS order. SQLite keeps times as ISO text and booleans as integers; a `native`
    backend (PostgreSQL) takes datetimes and booleans as they are. JSON columns are JSON text either way, but
    SQLite's kind_scores, a small blob where it can be (`engram.store.scores`); SQLite's content hash is bytes."""
    out: list[Any] = []
    for column in COLUMNS:
        value = getattr(record, column)
        if column == "kind_scores" and not native:
            value = scores.encode(value)
        elif column == "content_hash" and not native:
            value = stored_hash(value)
        elif column in _JSON:
            value = json.dumps(list(value) if column == "tags" else value, ensure_ascii=False, sort_keys=True)
        elif column in _TIMES:
            value = value if value is None or native else ts(value)
        elif column in _BOOLS:
            value = value if native else int(value)
        elif column in _ENUMS:
            value = None if value is None else value.value
        out.append(value)
    return tuple(out)


def _enum(kind: Any) -> Callable[[Any], Any]:
    members = kind._value2member_map_

    def read(value: Any) -> Any:
        # The member by its value without the call's lookup machinery; a value it does not map goes through
        # the call (and its error).
        if value is None:
            return None
        member = members.get(value)
        return member if member is not None else kind(value)

    return read


def _time(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _readers(native: bool) -> tuple[Callable[[Any], Any] | None, ...]:
    """How each column of a row (COLUMNS order) becomes the record's field; None: as it is."""
    out: list[Callable[[Any], Any] | None] = []
    for column in COLUMNS:
        read: Callable[[Any], Any] | None = None
        if column == "kind_scores":
            read = None if native else scores.decode
        elif column == "content_hash":
            read = None if native else read_hash
        elif column == "tags":
            read = tuple if native else lambda v: tuple(json.loads(v))
        elif column == "metadata":  # deeper than writes now allow: shown
            read = readable if native else lambda v: readable(json.loads(v))
        elif column in _TIMES:
            read = None if native else _time
        elif column in _BOOLS:
            read = bool
        elif column in _ENUMS:
            read = _enum(_ENUMS[column])
        out.append(read)
    return tuple(out)


# One function per column, chosen once: the tests of each column against every kind of column were a third of
# building a record, and recall builds one for each hit it returns.
_READERS = {False: _readers(False), True: _readers(True)}


def record_from_row(row: Sequence[Any], *, native: bool = False) -> MemoryRecord:
    """A record from a row in COLUMNS order; `native`: JSON already decoded and times already datetimes."""
    data = {
        column: value if read is None else read(value)
        for column, read, value in zip(COLUMNS, _READERS[native], row, strict=True)
    }
    # Rows were validated when written; constructing without re-validation keeps reads fast.
    return MemoryRecord.model_construct(**data)


# What recall scores a candidate by, in the order `facts_from_rows` reads them (the SQLite row format).
FACT_COLUMNS = (
    "m.id, m.content, m.importance, m.created_at, m.updated_at, m.last_accessed_at, m.access_count, "
    "m.validity_score, m.is_negative, coalesce(m.episode_id, m.parent_id), m.parent_id, m.embedding"
)


def facts_from_rows(rows: Sequence[Sequence[Any]]) -> list[Facts]:
    """`Facts` from SQLite rows in FACT_COLUMNS order (ISO times, embeddings as blobs, decoded in one array)."""
    vectors = decode_vectors([r[-1] for r in rows])
    return [
        Facts(
            i,
            content,
            imp,
            datetime.fromisoformat(made),
            datetime.fromisoformat(upd),
            None if acc is None else datetime.fromisoformat(acc),
            count,
            validity,
            bool(neg),
            vector,
            episode,
            parent,
        )
        for (i, content, imp, made, upd, acc, count, validity, neg, episode, parent, _), vector in zip(
            rows, vectors, strict=True
        )
    ]
