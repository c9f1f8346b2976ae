"""Consistency checks of an SQLite store: rows against the full-text index, the vector index, the embedding model
and the tag registry (validate_storage), and the check a backup file must pass before it is trusted."""

from __future__ import annotations

import sqlite3
from functools import cache
from pathlib import Path
from typing import Any

from engram.errors import StoreError
from engram.store.sqlite.connection import connect
from engram.store.sqlite.schema import MIGRATIONS, MIGRATIONS_TABLE


def integrity_issues(
    db: sqlite3.Connection, model: tuple[str, int] | None, index: dict[str, int]
) -> list[dict[str, Any]]:
    """Each inconsistency as {check, problem, count, repair}; `index` is the vector index's own count."""
    issues: list[dict[str, Any]] = []

    def report(check: str, problem: str, count: int, repair: str) -> None:
        if count:
            issues.append({"check": check, "problem": problem, "count": count, "repair": repair})

    def count(sql: str, *params: Any) -> int:
        return int(db.execute(sql, params).fetchone()[0])

    # Only searchable rows are indexed (a chunked memory is found through its chunks), so FTS5's own
    # integrity-check, which expects every row of the content table, does not apply.
    unindexed = count(
        "SELECT count(*) FROM memories m WHERE m.searchable = 1 "
        "AND NOT EXISTS (SELECT 1 FROM memories_fts_docsize d WHERE d.id = m.rid)"
    )
    report("fts", "searchable memories missing from the full-text index", unindexed, "rebuild_fts")
    stale = count(
        "SELECT count(*) FROM memories_fts_docsize d WHERE NOT EXISTS "
        "(SELECT 1 FROM memories m WHERE m.rid = d.id AND m.searchable = 1)"
    )
    report("fts", "full-text entries for no searchable memory", stale, "rebuild_fts")
    kept, actual = db.execute(
        "SELECT (SELECT n FROM counts WHERE name = 'memories'), (SELECT count(*) FROM memories)"
    ).fetchone()
    report(
        "fts", f"memory count kept as {kept}, actually {actual}", abs(int(kept) - int(actual)), "rebuild_fts"
    )
    if model is not None:
        wrong = count(
            "SELECT count(*) FROM memories WHERE embedding IS NOT NULL AND length(embedding) != ?",
            4 * model[1],
        )
        report("embeddings", f"embeddings not {model[1]}-d ({model[0]})", wrong, "reembed")
    missing = count("SELECT count(*) FROM memories WHERE embedding IS NULL AND searchable = 1")
    report("embeddings", "searchable memories without an embedding", missing, "reembed")
    report(
        "vectors",
        f"vector index holds {index['indexed']} of {index['embedded']} embeddings",
        abs(index["indexed"] - index["embedded"]),
        "rebuild_vectors",
    )
    orphans = count(
        "SELECT count(*) FROM memories c WHERE c.parent_id IS NOT NULL "
        "AND NOT EXISTS (SELECT 1 FROM memories p WHERE p.id = c.parent_id)"
    )
    report("chunks", "chunks whose parent memory is missing", orphans, "none: restore the parent")
    unregistered = count(
        "SELECT count(DISTINCT j.value) FROM memories m, json_each(m.tags) j "
        "WHERE m.parent_id IS NULL AND NOT EXISTS (SELECT 1 FROM tags t WHERE t.tag = j.value)"
    )
    report("tags", "tags on memories missing from the tag registry", unregistered, "recount_tags")
    # The tags memories carry, read once: a search of every memory's tags per registered tag grows with
    # memories times tags.
    unused = count(
        "SELECT count(*) FROM (SELECT tag FROM tags WHERE status = 'active' "
        "EXCEPT SELECT j.value FROM memories m, json_each(m.tags) j WHERE m.parent_id IS NULL)"
    )
    report("tags", "active tags no memory carries (orphan tags)", unused, "recount_tags")
    miscounted = count(
        "SELECT count(*) FROM tags t JOIN (SELECT j.value AS tag, count(*) AS n FROM memories m, json_each(m.tags) j "
        "WHERE m.parent_id IS NULL GROUP BY j.value) c ON c.tag = t.tag "
        "WHERE t.status = 'active' AND t.usage_count <> c.n"
    )
    report(
        "tags",
        "active tags whose usage count is not the number of memories carrying them",
        miscounted,
        "recount_tags",
    )
    return issues


def verify(db: sqlite3.Connection) -> dict[str, Any]:
    try:
        check = db.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"not an engram database: {exc}") from None
    if check != "ok":
        raise StoreError(f"backup failed its integrity check: {check}")
    try:
        memories = int(db.execute("SELECT count(*) FROM memories").fetchone()[0])
        done = {str(name) for (name,) in db.execute("SELECT name FROM migrations")}
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"not an engram database: {exc}") from None
    # Another program's file may have a `memories` table too (mcp-memory-service's has): checked here, before
    # it replaces anything, as a restore cannot be undone.
    known = [name for name, _ in MIGRATIONS]
    if known[0] not in done:
        raise StoreError("not an engram database: it has no record of Engram's schema")
    if unknown := done - set(known):
        raise StoreError(f"made by a newer Engram: migrations this version does not know: {sorted(unknown)}")
    # A file that passes SQLite's check may still not be what a backup writes (a table dropped, a trigger
    # added or one of Engram's rewritten to delete or copy rows): restored, it would run on every later write, so
    # its schema must be the one its migrations make, statement by statement.
    found, expected = _schema(db), _expected(frozenset(done))
    if found != expected:
        raise StoreError(f"not a backup Engram wrote: its schema differs ({_differences(found, expected)})")
    return {"integrity": check, "memories": memories}


def _schema(db: sqlite3.Connection) -> dict[tuple[str, str], str]:
    """Its tables, indexes, triggers and views by name, each with its statement, spaces collapsed."""
    rows = db.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    ).fetchall()
    return {(str(t), str(n)): " ".join(str(sql).split()) for t, n, sql in rows}


def _differences(found: dict[tuple[str, str], str], expected: dict[tuple[str, str], str]) -> str:
    missing = sorted(name for kind, name in expected.keys() - found.keys())
    extra = sorted(name for kind, name in found.keys() - expected.keys())
    changed = sorted(
        name for kind, name in found.keys() & expected.keys() if found[kind, name] != expected[kind, name]
    )
    return f"missing: {missing or 'none'}; not Engram's: {extra or 'none'}; changed: {changed or 'none'}"


@cache
def _expected(done: frozenset[str]) -> dict[tuple[str, str], str]:
    """The schema of an empty database with the migrations `done` applied, in their order."""
    db = connect(":memory:", 0, on_disk=False, writer=True)
    try:
        db.execute(MIGRATIONS_TABLE)
        for name, apply in MIGRATIONS:
            if name in done:
                apply(db)
        return _schema(db)
    finally:
        db.close()


def verify_file(path: Path) -> dict[str, Any]:
    """Check that a file is an intact Engram SQLite database (read-only)."""
    if not path.is_file():
        raise StoreError(f"no backup file at {path}")
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)  # a name may hold # or ?
    try:
        return verify(db)
    finally:
        db.close()


def refuse_foreign(path: Path | None) -> None:
    """Refuse an SQLite file that holds tables but is not an Engram database, read-only: opening it as a store
    would switch it to WAL and add Engram's tables to another program's data."""
    if path is None or not path.is_file() or path.stat().st_size == 0:
        return  # a new database
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = {str(n) for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            return
        done = set()
        if "migrations" in tables:
            done = {str(n) for (n,) in db.execute("SELECT name FROM migrations")}
    finally:
        db.close()
    if MIGRATIONS[0][0] not in done:
        shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
        raise StoreError(
            f"{path} is another program's SQLite database (tables: {shown}), not Engram's; left as it was"
        )
