"""Whole-store copies between backends (`engram migrate`, PostgreSQL backups), verified by counts and hashes.
`copy_database` checks both locations before opening either (opening a store creates it), copies into an empty
store and verifies the copy."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from engram.config import Settings, is_url, locate, shown, split_schema
from engram.errors import InvalidInput, MissingExtra, StoreError, StoreUnavailable
from engram.store.opening import open_store
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


SUPPORTED = "sqlite:///path, a file path, or postgresql://user@host/db (postgres:// too)"
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def copy_database(
    source: str, target: str, settings: Settings, progress: Callable[[int, int], None] | None = None
) -> dict[str, int]:
    """Copy a whole store (memories, embeddings, tags, audit log, sources, operations) from `source` to
    `target`, an empty store, then verify row counts and content hashes of every table; the rows of each table.
    `progress` is told (copied, total) memories. Both locations are checked before either is opened: a refused
    target leaves the source untouched too."""
    src_at, dst_at = _where(source, "--from", source=True), _where(target, "--to", source=False)
    src = open_store(src_at, settings)
    try:
        dst = open_store(dst_at, settings)
        try:
            if not is_empty(dst):
                raise InvalidInput(
                    "--to", f"{shown(target)} is not empty; migrate copies into an empty store"
                )
            total = src.stats().memories + src.stats().chunks
            done = 0

            def advanced(n: int) -> None:
                nonlocal done
                done += n
                if progress:
                    progress(done, total)

            with src.snapshot():  # the source at one moment, copied and checked, while it may be written
                copy_store(src, dst, advanced)
                return verify_copy(src, dst)
        finally:
            dst.close()
    finally:
        src.close()


def _where(value: str, option: str, *, source: bool) -> str | Path:
    """Where `--from` / `--to` points, checked before anything is opened: opening a store creates it (an
    SQLite file, its directories, a PostgreSQL schema), so a mistyped source became an empty copy."""
    scheme = _SCHEME.match(value)
    if scheme and not is_url(value) and scheme.group(1) != "sqlite":
        raise InvalidInput(option, f"unsupported scheme {scheme.group(1)}://; use {SUPPORTED}")
    location = locate(value)
    if isinstance(location, str):
        if source and not _pg_store_exists(location):
            raise InvalidInput(option, f"{shown(value)} does not exist (no Engram store in that schema)")
        return location
    if str(location) == ":memory:":
        raise InvalidInput(option, ":memory: keeps nothing; name a database file")
    if location.is_dir():
        raise InvalidInput(option, f"{value} is a directory, not a database file")
    if not location.exists():
        if source:
            raise InvalidInput(option, f"{value} does not exist")
        return location
    tables = _sqlite_tables(location, option, value)
    if source and "migrations" not in tables:
        raise InvalidInput(option, f"{value} is not an Engram store")
    if not source and tables and "migrations" not in tables:
        # Opening it would add Engram's tables beside another program's.
        raise InvalidInput(option, f"{value} is another program's SQLite database, not an Engram store")
    return location


def _sqlite_tables(path: Path, option: str, value: str) -> set[str]:
    """The tables of an existing SQLite file, only read. (A read-only connection to a WAL database leaves its
    -wal and -shm files behind; the last plain connection to close removes them.)"""
    try:
        db = sqlite3.connect(path)
        try:
            return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:  # a text file, a damaged database, no permission
        raise InvalidInput(option, f"{value} is not an SQLite database ({exc})") from None


def _pg_store_exists(url: str) -> bool:
    """Whether the URL's schema holds an Engram store, asked without creating the schema."""
    try:
        import psycopg  # loads only when PostgreSQL is used
    except ModuleNotFoundError:
        raise MissingExtra("a postgresql:// database", "postgres") from None

    conninfo, schema = split_schema(url)
    try:
        with psycopg.connect(conninfo, autocommit=True) as db:
            # The schema name is checked by split_schema: lowercase letters, digits and _ only.
            row = db.execute("SELECT to_regclass(%s)", (f'"{schema}".migrations',)).fetchone()
    except psycopg.Error as exc:
        raise StoreUnavailable(f"cannot reach PostgreSQL at {shown(url)}: {exc}".strip()) from None
    return row is not None and row[0] is not None
