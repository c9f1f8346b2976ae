"""Whole-store copies between backends (`engram migrate`, PostgreSQL backups), verified by counts and hashes."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import numpy as np

from engram.errors import StoreError
from engram.store.roles import Store
from engram.store.side_tables import AUX_TABLES

Progress = Callable[[int], None]


def is_empty(store: Store) -> bool:
    stats = store.stats()
    return stats.memories == 0 and stats.chunks == 0 and not store.audit_log(limit=1)


def copy_store(source: Store, target: Store, progress: Progress | None = None) -> dict[str, int]:
    """Copy every memory (with its embedding) and every row of the tables beside it, in one transaction of the
    target; returns how many rows of each were copied. The target's vector index is rebuilt afterwards."""
    copied: dict[str, int] = {}
    with target.atomic():
        for table in AUX_TABLES:
            copied[table] = 0
            for rows in source.dump(table):
                target.load(table, rows)
                copied[table] += len(rows)
        copied["memories"] = 0
        for records in source.iter_all(512):
            vectors = source.vectors([r.id for r in records])
            target.insert(records, [vectors.get(r.id) for r in records])
            copied["memories"] += len(records)
            if progress:
                progress(len(records))
    model = source.model()
    if model is not None:
        target.set_model(*model)
    target.rebuild_index()
    return copied


def fingerprint(store: Store) -> dict[str, dict[str, Any]]:
    """Per table: the row count and a SHA-256 over its rows (memories: every field of the record and the
    embedding's float32 bytes, in id order), independent of the backend that holds them."""
    out: dict[str, dict[str, Any]] = {}
    for table in AUX_TABLES:
        digest, n = hashlib.sha256(), 0
        rows = sorted(json.dumps([_plain(v) for v in row]) for batch in store.dump(table) for row in batch)
        for line in rows:
            digest.update(line.encode())
            n += 1
        out[table] = {"count": n, "sha256": digest.hexdigest()}
    lines: list[tuple[str, str]] = []
    for records in store.iter_all(512):
        vectors = store.vectors([r.id for r in records])
        for r in records:
            vector = vectors.get(r.id)
            blob = "" if vector is None else hashlib.sha256(np.asarray(vector, "<f4").tobytes()).hexdigest()
            lines.append((r.id, json.dumps(r.model_dump(mode="json"), sort_keys=True) + blob))
    digest = hashlib.sha256()
    for _, line in sorted(lines):
        digest.update(line.encode())
    out["memories"] = {"count": len(lines), "sha256": digest.hexdigest()}
    return out


def verify_copy(source: Store, target: Store) -> dict[str, int]:
    """Raise StoreError naming each table whose count or hash differs; else the count per table."""
    want, got = fingerprint(source), fingerprint(target)
    wrong = [
        f"{table}: {want[table]['count']} rows -> {got[table]['count']}"
        + ("" if want[table]["count"] != got[table]["count"] else " (same count, different content)")
        for table in want
        if want[table] != got[table]
    ]
    if wrong:
        raise StoreError("the copy differs from its source: " + "; ".join(wrong))
    return {table: int(v["count"]) for table, v in want.items()}


def _plain(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.hex()
    return value
