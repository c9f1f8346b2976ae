"""The PostgreSQL store's upkeep: the HNSW index's checks and rebuild, integrity, the text index and tag counts
rebuilt from the rows, backups to an SQLite file and verified restores, counts by time and by tag, and the vacuum
of the rows writes keep rewriting."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, cast

from psycopg import errors, sql

from engram.errors import StoreError
from engram.model.record import utcnow
from engram.store.copy import copy_store, verify_copy
from engram.store.postgres import text as pg_text
from engram.store.postgres.connection import Conn, Connections
from engram.store.postgres.filter import where_sql
from engram.store.postgres.schema import vector_index_name
from engram.store.roles import Store
from engram.store.rows import ts
from engram.store.sqlite.integrity import verify_file
from engram.store.sqlite.store import SQLiteStore
from engram.store.values import Filter, Prototype

_log = logging.getLogger(__name__)
UNSETTLED = "unrewritten_forget"  # a meta key: a forgotten text may still be in a table's dead rows
_REWRITE_WAIT = "500ms"


class Upkeeping:
    # Given by PostgresStore and SideTables; declared, not defined, so that the method resolution order finds theirs.
    _all: Callable[..., list[tuple[Any, ...]]]
    _one: Callable[..., tuple[Any, ...] | None]
    atomic: Callable[[], AbstractContextManager[Conn]]
    model: Callable[[], tuple[str, int] | None]
    _vector_indexes: Callable[[], dict[str, bool]]
    _ensure_vector_index: Callable[..., bool]
    _db: Connections

    # The write path replaces learned prototypes as it learns (the oldest of a label go past its `keep`), each
    # replaced row leaving two dead 1.5 kB vectors; autovacuum came too seldom to reuse their room, so the table
    # grew to nearly twice its rows. Vacuumed after this many learned prototypes, with the lexicon and the corpus
    # row, whose counts every write rewrites.
    _VACUUM_AFTER = 64
    _learned_unvacuumed = 0

    def add_learned_prototypes(self, taxonomy: str, items: Sequence[Prototype], keep: int) -> None:
        super().add_learned_prototypes(taxonomy, items, keep)  # type: ignore[misc]
        self._learned_unvacuumed += len(items)
        if self._learned_unvacuumed >= self._VACUUM_AFTER:
            self._learned_unvacuumed = 0
            self._db.after_commit(_vacuum_churned)

    def _erased(self) -> None:
        # The lexicon keeps a row per stem ever indexed; a forgotten text's stems no memory holds go with it.
        # The mark, committed with the forget, has whichever process forgets next rewrite if this one cannot.
        with self.atomic() as db:
            db.execute(b"DELETE FROM lexicon WHERE df <= 0")
            db.execute(
                b"INSERT INTO meta(key, value) VALUES (%s, '1') ON CONFLICT (key) DO NOTHING", (UNSETTLED,)
            )

    def settle(self) -> None:
        """A deleted or replaced row stays in its table's and indexes' pages until they are rewritten: a plain
        VACUUM frees the room but leaves the bytes. After a forget every table of the store is rewritten."""
        if self._one("SELECT 1 FROM meta WHERE key = %s", (UNSETTLED,)) is not None:
            self._db.after_commit(_rewrite_tables)

    def whole(self) -> Store:
        """This store in every role (a backup copies all of it)."""
        return cast(Store, self)

    def check_index(self) -> dict[str, int]:
        """How many vectors the HNSW index covers (all searchable embeddings when it is present and valid)."""
        row = self._one("SELECT count(*) FROM memories WHERE embedding IS NOT NULL AND searchable")
        embedded = int(row[0]) if row else 0
        model = self.model()
        valid = model is not None and self._vector_indexes().get(vector_index_name(model[1]), False)
        return {"indexed": embedded if valid else 0, "embedded": embedded}

    def rebuild_index(self) -> int:
        model = self.model()
        if model is None:
            return 0
        if not self._ensure_vector_index(model[1], rebuild=True):
            raise StoreError(f"stored vectors are not all {model[1]}-d; run `engram reembed`")
        return self.check_index()["indexed"]

    def integrity(self) -> list[dict[str, Any]]:
        issues: list[dict[str, Any]] = []

        def report(check: str, problem: str, count: int, repair: str) -> None:
            if count:
                issues.append({"check": check, "problem": problem, "count": count, "repair": repair})

        def number(query: str, params: Sequence[Any] = ()) -> int:
            row = self._one(query, params)
            return int(row[0]) if row and row[0] is not None else 0

        report(
            "fts",
            "searchable memories missing from the full-text index",
            number("SELECT count(*) FROM memories WHERE searchable AND tsv IS NULL"),
            "rebuild_fts",
        )
        drift = number(
            "SELECT count(*) FROM (SELECT t, count(*) AS n FROM memories, unnest(tsvector_to_array(tsv)) t "
            "WHERE searchable GROUP BY t) real FULL JOIN (SELECT term, df FROM lexicon WHERE df <> 0) kept "
            "ON kept.term = real.t WHERE kept.df IS DISTINCT FROM real.n"
        )
        report("fts", "full-text term statistics that disagree with the memories", drift, "rebuild_fts")
        model = self.model()
        if model is not None:
            wrong = number(
                "SELECT count(*) FROM memories WHERE embedding IS NOT NULL AND vector_dims(embedding) <> %s",
                (model[1],),
            )
            report("embeddings", f"embeddings not {model[1]}-d ({model[0]})", wrong, "reembed")
        missing = number("SELECT count(*) FROM memories WHERE embedding IS NULL AND searchable")
        report("embeddings", "searchable memories without an embedding", missing, "reembed")
        index = self.check_index()
        report(
            "vectors",
            f"vector index holds {index['indexed']} of {index['embedded']} embeddings",
            abs(index["indexed"] - index["embedded"]),
            "rebuild_vectors",
        )
        orphans = number(
            "SELECT count(*) FROM memories c WHERE c.parent_id IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM memories p WHERE p.id = c.parent_id)"
        )
        report("chunks", "chunks whose parent memory is missing", orphans, "none: restore the parent")
        unregistered = number(
            "SELECT count(DISTINCT j) FROM memories m, jsonb_array_elements_text(m.tags) j "
            "WHERE m.parent_id IS NULL AND NOT EXISTS (SELECT 1 FROM tags t WHERE t.tag = j)"
        )
        report("tags", "tags on memories missing from the tag registry", unregistered, "recount_tags")
        unused = number(  # the tags memories carry, read once (as in SQLite)
            "SELECT count(*) FROM (SELECT tag FROM tags WHERE status = 'active' "
            "EXCEPT SELECT jsonb_array_elements_text(tags) FROM memories WHERE parent_id IS NULL) unused"
        )
        report("tags", "active tags no memory carries (orphan tags)", unused, "recount_tags")
        miscounted = number(
            "SELECT count(*) FROM tags t JOIN (SELECT j AS tag, count(*) AS n FROM memories m, "
            "jsonb_array_elements_text(m.tags) j WHERE m.parent_id IS NULL GROUP BY j) c ON c.tag = t.tag "
            "WHERE t.status = 'active' AND t.usage_count <> c.n"
        )
        report(
            "tags",
            "active tags whose usage count is not the number of memories carrying them",
            miscounted,
            "recount_tags",
        )
        return issues

    def rebuild_fts(self) -> None:
        """Recompute every searchable memory's stems, then the term statistics from them."""
        with self.atomic() as db:
            rows = db.execute(
                b"SELECT rid, content, coalesce(tags, '[]') FROM memories WHERE searchable"
            ).fetchall()
            with db.cursor() as cur:
                cur.executemany(
                    b"UPDATE memories SET tsv = %s::tsvector WHERE rid = %s",
                    [(pg_text.tsvector(content, tags), rid) for rid, content, tags in rows],
                )
            db.execute(b"UPDATE memories SET tsv = NULL WHERE NOT searchable AND tsv IS NOT NULL")
            db.execute(b"DELETE FROM lexicon")
            db.execute(
                b"INSERT INTO lexicon(term, df) SELECT t, count(*) FROM memories, unnest(tsvector_to_array(tsv)) t "
                b"WHERE searchable GROUP BY t"
            )
            db.execute(
                b"UPDATE corpus SET docs = s.docs, total_len = s.len FROM (SELECT count(*) AS docs, "
                b"coalesce(sum(length(tsv)), 0) AS len FROM memories WHERE searchable AND tsv IS NOT NULL) s"
            )

    def recount_tags(self) -> int:
        now = ts(utcnow())
        with self.atomic() as db:
            counts = db.execute(
                b"SELECT j, count(*) FROM memories m, jsonb_array_elements_text(m.tags) j "
                b"WHERE m.parent_id IS NULL GROUP BY j"
            ).fetchall()
            with db.cursor() as cur:
                cur.executemany(
                    b"INSERT INTO tags(tag, usage_count, first_used_at, last_used_at) VALUES (%s, %s, %s, %s) "
                    b"ON CONFLICT(tag) DO UPDATE SET usage_count = excluded.usage_count, status = 'active'",
                    [(t, n, now, now) for t, n in counts],
                )
            db.execute(
                b"UPDATE tags SET usage_count = 0, status = 'archived' WHERE status = 'active' AND tag NOT IN "
                b"(SELECT jsonb_array_elements_text(tags) FROM memories WHERE parent_id IS NULL)"
            )
        return len(counts)

    def backup(self, target: Path) -> dict[str, Any]:
        """A consistent copy as an embedded (SQLite) database file, checked by reading it back."""
        if target.exists():
            raise StoreError(f"{target} exists; choose a new backup file")
        dest = SQLiteStore(target)
        try:
            # One moment of the store, copied and then checked: read as it went, a write between two batches
            # made a copy of no moment, or a backup refused as differing from a source that had moved on.
            with self.whole().snapshot():
                copy_store(self.whole(), dest)
                checked = verify_copy(self.whole(), dest)
        finally:
            dest.close()
        return {"integrity": "ok", "memories": checked["memories"]}

    def restore(self, source: Path) -> dict[str, Any]:
        """Replace this store's contents with a backup file's (as written by `backup`), after checking it."""
        verify_file(source)
        src = SQLiteStore(source)
        try:
            with self.atomic() as db:
                db.execute(
                    b"TRUNCATE memories, prototypes, audit_log, tags, operation_changes, operations, sources, "
                    b"lexicon, meta RESTART IDENTITY"
                )
                db.execute(b"UPDATE corpus SET docs = 0, total_len = 0")
                copy_store(src, self.whole())
            checked = verify_copy(src, self.whole())
        finally:
            src.close()
        return {"integrity": "ok", "memories": checked["memories"]}

    def histogram(self, column: str, width: int, where: Filter) -> dict[str, int]:
        if column not in {"created_at", "updated_at", "last_accessed_at"}:
            raise ValueError(f"no timestamp column {column!r}")
        clause, params = where_sql(where, searchable=False)
        # The same buckets as the text timestamps of the SQLite backend: a prefix of the UTC ISO form.
        rows = self._all(
            f"SELECT substr(to_char(m.{column}, 'YYYY-MM-DD\"T\"HH24:MI:SS.US'), 1, %s) AS bucket, count(*) "
            f"FROM memories m WHERE {clause} AND m.{column} IS NOT NULL GROUP BY bucket ORDER BY bucket",
            (width, *params),
        )
        return {str(bucket): int(n) for bucket, n in rows}

    def tag_counts(self) -> dict[str, int]:
        rows = self._all(
            "SELECT j, count(*) FROM memories m, jsonb_array_elements_text(m.tags) j WHERE m.parent_id IS NULL "
            "GROUP BY 1"
        )
        return {str(tag): int(n) for tag, n in rows}


def _rewrite_tables(db: Conn) -> None:
    """VACUUM FULL of the schema's tables, one at a time: each waits at most `_REWRITE_WAIT` for a reader or
    writer of its table (every other client waits behind it meanwhile). The mark goes first, so that a forget
    committed during the rewrite marks again; it comes back when a table could not be rewritten."""
    db.execute(b"DELETE FROM meta WHERE key = %s", (UNSETTLED,))
    tables = [
        r[0] for r in db.execute(b"SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
    ]
    db.execute(f"SET lock_timeout = '{_REWRITE_WAIT}'".encode())
    missed = []
    try:
        for table in sorted(tables):
            try:
                db.execute(sql.SQL("VACUUM FULL {}").format(sql.Identifier(table)))
            except errors.LockNotAvailable:
                missed.append(table)
    finally:
        db.execute(b"RESET lock_timeout")
    if missed:
        _log.warning("after a forget, tables in use were not rewritten: %s", ", ".join(missed))
        db.execute(
            b"INSERT INTO meta(key, value) VALUES (%s, '1') ON CONFLICT (key) DO NOTHING", (UNSETTLED,)
        )


def _vacuum_churned(db: Conn) -> None:
    # SKIP_LOCKED: another process vacuuming the same tables does it for both. TRUNCATE false: giving back the
    # empty pages at the end takes an exclusive lock, waited for up to seconds behind readers, for room the next
    # writes take again.
    db.execute(b"VACUUM (SKIP_LOCKED, TRUNCATE false) prototypes, lexicon, corpus")
