"""The tables beside `memories`: meta, classifier prototypes, the tag registry, bulk operations with their
before-images, the audit log and conversation sources.

Both backends keep them as plain text, numbers and blobs with the same SQL, so the queries live here once; a
backend supplies how a statement runs (`_read`, `_run`, `_run_many`, written with `?` placeholders) and its
write transaction (`atomic`). Rows of these tables also move between backends as they are (`dump` / `load`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from engram.model.record import utcnow
from engram.model.vectors import Vector, decode_vector, encode_vector
from engram.store import entries
from engram.store.rows import ts
from engram.store.values import Change, Prototype, TagRow

# The columns a copy between backends carries (each table's own keys are renumbered).
AUX_TABLES: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "prototypes": ("taxonomy", "label", "source", "text", "memory_id", "embedding", "created_at", "opening"),
    "tags": ("tag", "usage_count", "first_used_at", "last_used_at", "status", "merged_into", "embedding"),
    "operations": ("id", "name", "started_at", "finished_at", "status", "summary"),
    "operation_changes": ("operation_id", "entity", "key", "before", "before_embedding"),
    "audit_log": ("at", "memory_id", "action", "detail", "operation_id"),
    "sources": ("platform", "conversation_id", "message_id", "role", "content", "ts", "metadata"),
}
# The order rows are dumped in: insertion order where the table has one.
_ORDER: dict[str, str] = {
    "meta": "key",
    "prototypes": "id",
    "tags": "tag",
    "operations": "started_at, id",
    "operation_changes": "seq",
    "audit_log": "id",
    "sources": "seq",
}
# Tables whose rows are replaced by a load, by their key: the others only grow.
_UPSERT: dict[str, str] = {"meta": "key", "tags": "tag"}

_TAG = "SELECT tag, usage_count, first_used_at, last_used_at, status, merged_into, embedding FROM tags"


class SideTables:
    _BYTE_ORDER = ""  # the collation that sorts text by bytes (SQLite's default)

    def atomic(self) -> AbstractContextManager[object]:
        raise NotImplementedError

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement in a write transaction; how many rows it changed."""
        raise NotImplementedError

    def _run_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise NotImplementedError

    # ---- meta: the embedding model recorded once per database, and settings the classifiers keep ----------
    def model(self) -> tuple[str, int] | None:
        rows = dict(self._read("SELECT key, value FROM meta WHERE key IN ('model', 'dim')"))
        return (str(rows["model"]), int(rows["dim"])) if "model" in rows else None

    def get_meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self._set_meta([(key, value)])

    def _set_meta(self, items: Sequence[tuple[str, str]]) -> None:
        self._run_many(
            "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            items,
        )

    # ---- prototypes -------------------------------------------------------------------------------------
    def prototypes(self, taxonomy: str) -> list[Prototype]:
        rows = self._read(
            "SELECT label, source, embedding, text, memory_id, opening FROM prototypes WHERE taxonomy = ? "
            "ORDER BY id",
            (taxonomy,),
        )
        return [
            Prototype(
                label, source, decode_vector(blob), text, mid, None if start is None else decode_vector(start)
            )
            for label, source, blob, text, mid, start in rows
        ]

    def replace_seed_prototypes(self, taxonomy: str, items: Sequence[Prototype]) -> None:
        now = ts(utcnow())
        with self.atomic():
            self._run("DELETE FROM prototypes WHERE taxonomy = ? AND source = 'seed'", (taxonomy,))
            self._run_many(
                "INSERT INTO prototypes(taxonomy, label, source, text, memory_id, embedding, opening, created_at) "
                "VALUES (?, ?, 'seed', ?, NULL, ?, ?, ?)",
                [(taxonomy, p.label, p.text, encode_vector(p.vector), _blob(p.opening), now) for p in items],
            )

    def add_learned_prototypes(self, taxonomy: str, items: Sequence[Prototype], keep: int) -> None:
        if not items:
            return
        now = ts(utcnow())
        with self.atomic():
            self._run_many(
                "INSERT INTO prototypes(taxonomy, label, source, text, memory_id, embedding, opening, created_at) "
                "VALUES (?, ?, 'learned', ?, ?, ?, ?, ?)",
                [
                    (taxonomy, i.label, i.text, i.memory_id, encode_vector(i.vector), _blob(i.opening), now)
                    for i in items
                ],
            )
            # Oldest learned prototypes go first once a label holds more than `keep`.
            # The newest row past `keep` bounds the delete: nothing when the label holds `keep` or fewer, and no
            # scan of all its rows to find the survivors.
            for label in dict.fromkeys(i.label for i in items):
                self._run(
                    "DELETE FROM prototypes WHERE taxonomy = ? AND label = ? AND source = 'learned' AND id <= "
                    "(SELECT id FROM prototypes WHERE taxonomy = ? AND label = ? AND source = 'learned' "
                    "ORDER BY id DESC LIMIT 1 OFFSET ?)",
                    (taxonomy, label, taxonomy, label, keep),
                )

    def clear_learned_prototypes(self, taxonomy: str) -> None:
        self._run("DELETE FROM prototypes WHERE taxonomy = ? AND source = 'learned'", (taxonomy,))

    # ---- tags -------------------------------------------------------------------------------------------
    def tags(self, statuses: Sequence[str] = ("active",)) -> list[TagRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = self._read(f"{_TAG} WHERE status IN ({marks}) ORDER BY tag {self._BYTE_ORDER}", list(statuses))
        return [_tag_row(r) for r in rows]

    def tag(self, tag: str) -> TagRow | None:
        rows = self._read(f"{_TAG} WHERE tag = ?", (tag,))
        return _tag_row(rows[0]) if rows else None

    def use_tags(self, tags: Sequence[str], at: datetime, vectors: dict[str, Vector]) -> None:
        self._run_many(
            "INSERT INTO tags(tag, usage_count, first_used_at, last_used_at, embedding) VALUES (?, 1, ?, ?, ?) "
            "ON CONFLICT(tag) DO UPDATE SET usage_count = tags.usage_count + 1, last_used_at = excluded.last_used_at, "
            "embedding = coalesce(tags.embedding, excluded.embedding), "
            "status = CASE WHEN tags.status = 'archived' THEN 'active' ELSE tags.status END",
            [(t, ts(at), ts(at), None if t not in vectors else encode_vector(vectors[t])) for t in tags],
        )

    def drop_tag_uses(self, tags: Sequence[str]) -> None:
        # Every SET reads the row as it was: a tag whose last use goes is archived, never deleted.
        self._run_many(
            "UPDATE tags SET usage_count = CASE WHEN usage_count > 0 THEN usage_count - 1 ELSE 0 END, "
            "status = CASE WHEN usage_count <= 1 AND status = 'active' THEN 'archived' ELSE status END WHERE tag = ?",
            [(t,) for t in tags],
        )

    def put_tag(self, row: TagRow) -> None:
        self._run_many(
            self._load_sql("tags"),
            [
                (
                    row.tag,
                    row.usage_count,
                    ts(row.first_used_at),
                    ts(row.last_used_at),
                    row.status,
                    row.merged_into,
                    None if row.vector is None else encode_vector(row.vector),
                ),
            ],
        )

    def delete_tag(self, tag: str) -> None:
        self._run("DELETE FROM tags WHERE tag = ?", (tag,))

    # ---- operations -------------------------------------------------------------------------------------
    def begin_operation(self, operation_id: str, name: str) -> None:
        self._run(
            "INSERT INTO operations(id, name, started_at, status) VALUES (?, ?, ?, 'running')",
            (operation_id, name, ts(utcnow())),
        )

    def finish_operation(self, operation_id: str, status: str, summary: dict[str, Any]) -> None:
        self._run(
            "UPDATE operations SET status = ?, finished_at = ?, summary = ? WHERE id = ?",
            (status, ts(utcnow()), json.dumps(summary, default=str), operation_id),
        )

    def record_change(self, operation_id: str, change: Change) -> None:
        self._run(
            "INSERT INTO operation_changes(operation_id, entity, key, before, before_embedding) VALUES (?, ?, ?, ?, ?)",
            (
                operation_id,
                change.entity,
                change.key,
                None if change.before is None else json.dumps(change.before, default=str),
                None if change.before_vector is None else encode_vector(change.before_vector),
            ),
        )

    def changes(self, operation_id: str) -> list[Change]:
        rows = self._read(
            "SELECT entity, key, before, before_embedding FROM operation_changes WHERE operation_id = ? ORDER BY seq",
            (operation_id,),
        )
        return [
            Change(
                entity,
                key,
                None if before is None else json.loads(before),
                None if blob is None else decode_vector(blob),
            )
            for entity, key, before, blob in rows
        ]

    def operations(self, limit: int = 50) -> list[dict[str, Any]]:
        rows = self._read(
            "SELECT o.id, o.name, o.started_at, o.finished_at, o.status, o.summary, "
            "(SELECT count(*) FROM operation_changes c WHERE c.operation_id = o.id) "
            "FROM operations o ORDER BY o.started_at DESC LIMIT ?",
            (limit,),
        )
        return [
            {
                "id": i,
                "name": name,
                "started_at": start,
                "finished_at": end,
                "status": status,
                "summary": json.loads(summary),
                "changes": int(n),
            }
            for i, name, start, end, status, summary, n in rows
        ]

    # ---- conversation sources ---------------------------------------------------------------------------
    def add_sources(self, rows: Sequence[dict[str, Any]]) -> list[bool]:
        with self.atomic():
            return [
                self._run(
                    "INSERT INTO sources(platform, conversation_id, message_id, role, content, ts, metadata) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (
                        r["platform"],
                        r["conversation_id"],
                        r["message_id"],
                        r["role"],
                        r["content"],
                        None if r.get("ts") is None else ts(r["ts"]),
                        json.dumps(r.get("metadata") or {}),
                    ),
                )
                == 1
                for r in rows
            ]

    def kept_sources(self, keys: Sequence[tuple[str, str, str]]) -> set[tuple[str, str, str]]:
        """Which of these (platform, conversation_id, message_id) are stored, looked up by the unique key: an
        ingest reads what it is about to add, not every message of the conversation (a million rows)."""
        found: set[tuple[str, str, str]] = set()
        groups: dict[tuple[str, str], list[str]] = {}
        for platform, conversation, message in dict.fromkeys(keys):
            groups.setdefault((platform, conversation), []).append(message)
        for (platform, conversation), ids in groups.items():
            for start in range(0, len(ids), 500):
                part = ids[start : start + 500]
                rows = self._read(
                    "SELECT message_id FROM sources WHERE platform = ? AND conversation_id = ? "
                    f"AND message_id IN ({', '.join('?' * len(part))})",
                    [platform, conversation, *part],
                )
                found.update((platform, conversation, r[0]) for r in rows)
        return found

    def sources(self, conversation_id: str | None = None, limit: int = 1000) -> list[dict[str, Any]]:
        sql = "SELECT platform, conversation_id, message_id, role, content, ts, metadata FROM sources"
        params: list[Any] = []
        if conversation_id is not None:
            sql += " WHERE conversation_id = ?"
            params.append(conversation_id)
        rows = self._read(sql + " ORDER BY seq LIMIT ?", [*params, limit])
        names = ("platform", "conversation_id", "message_id", "role", "content", "ts")
        return [dict(zip(names, r[:6], strict=True)) | {"metadata": json.loads(r[6])} for r in rows]

    # ---- audit ------------------------------------------------------------------------------------------
    def audit(
        self, action: str, memory_id: str | None, detail: dict[str, Any], operation_id: str | None = None
    ) -> None:
        self._run(
            "INSERT INTO audit_log(at, memory_id, action, detail, operation_id) VALUES (?, ?, ?, ?, ?)",
            (ts(utcnow()), memory_id, action, entries.encode(action, detail), operation_id),
        )

    def audit_many(self, action: str, audits: Sequence[tuple[str | None, dict[str, Any]]]) -> None:
        """`audit(action, memory_id, detail)` of each (memory_id, detail), in order, as one statement."""
        if audits:
            self._run_many(
                "INSERT INTO audit_log(at, memory_id, action, detail, operation_id) VALUES (?, ?, ?, ?, NULL)",
                [(ts(utcnow()), i, action, entries.encode(action, d)) for i, d in audits],
            )

    def audit_log(
        self, memory_id: str | None = None, limit: int = 100, operation_id: str | None = None
    ) -> list[dict[str, Any]]:
        clauses: list[str] = []
        params: list[Any] = []
        for column, value in (("memory_id", memory_id), ("operation_id", operation_id)):
            if value is not None:
                clauses.append(f"{column} = ?")
                params.append(value)
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        rows = self._read(
            f"SELECT id, at, memory_id, action, detail, operation_id FROM audit_log{where} ORDER BY id DESC LIMIT ?",
            (*params, limit),
        )
        return [
            {
                "id": int(i),
                "at": at,
                "memory_id": mid,
                "action": action,
                "detail": entries.decode(action, detail),
                "operation_id": op,
            }
            for i, at, mid, action, detail, op in rows
        ]

    # ---- copies between backends ------------------------------------------------------------------------
    def dump(self, table: str, batch: int = 2048) -> Iterator[list[tuple[Any, ...]]]:
        rows = self._read(f"SELECT {', '.join(aux_columns(table))} FROM {table} ORDER BY {_ORDER[table]}")
        for start in range(0, len(rows), batch):
            yield rows[start : start + batch]

    def load(self, table: str, rows: Sequence[tuple[Any, ...]]) -> None:
        self._run_many(self._load_sql(table), rows)

    @staticmethod
    def _load_sql(table: str) -> str:
        columns = aux_columns(table)
        sql = f"INSERT INTO {table}({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})"
        if key := _UPSERT.get(table):
            updates = ", ".join(f"{c} = excluded.{c}" for c in columns if c != key)
            sql += f" ON CONFLICT({key}) DO UPDATE SET {updates}"
        return sql


def aux_columns(table: str) -> tuple[str, ...]:
    if table not in AUX_TABLES:
        raise ValueError(f"no table {table!r}; one of {sorted(AUX_TABLES)}")
    return AUX_TABLES[table]


def _blob(vector: Vector | None) -> bytes | None:
    return None if vector is None else encode_vector(vector)


def _tag_row(row: Sequence[Any]) -> TagRow:
    tag, count, first, last, status, into, blob = row
    return TagRow(
        tag,
        int(count),
        datetime.fromisoformat(first),
        datetime.fromisoformat(last),
        status,
        into,
        None if blob is None else decode_vector(blob),
    )
