"""The PostgreSQL schema as ordered migrations, recorded in the `migrations` table when applied.

`memories` uses native types (timestamptz, jsonb, boolean, pgvector's `vector`); the tables beside it keep the
SQLite backend's plain columns, so that whole stores copy between the two backends row for row.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import cast

from psycopg import Connection, sql

from engram.lang.text import UNSPACED_LETTERS
from engram.store.postgres import text as pg_text
from engram.store.rows import CHUNK_SHARED

Migration = Callable[[Connection[tuple[object, ...]]], None]
MIGRATIONS: list[tuple[str, Migration]] = []


def migration(func: Migration) -> Migration:
    MIGRATIONS.append((func.__name__, func))
    return func


@migration
def m001_memories(db: Connection[tuple[object, ...]]) -> None:
    db.execute(
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE memories (
            rid BIGSERIAL PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            parent_id TEXT REFERENCES memories(id) ON DELETE CASCADE,
            chunk_index INTEGER,
            searchable BOOLEAN NOT NULL DEFAULT TRUE,
            content TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            kind TEXT NOT NULL,
            scope TEXT NOT NULL,
            scope_id TEXT,
            type TEXT NOT NULL,
            tags JSONB NOT NULL DEFAULT '[]',
            importance DOUBLE PRECISION NOT NULL,
            token_count INTEGER NOT NULL DEFAULT 0,
            access_count INTEGER NOT NULL DEFAULT 0,
            last_accessed_at TIMESTAMPTZ,
            validity_score DOUBLE PRECISION NOT NULL DEFAULT 1,
            is_negative BOOLEAN NOT NULL DEFAULT FALSE,
            source_type TEXT NOT NULL DEFAULT 'user',
            credibility DOUBLE PRECISION NOT NULL DEFAULT 1,
            emotion TEXT,
            emotional_valence DOUBLE PRECISION,
            emotional_arousal DOUBLE PRECISION,
            episode_id TEXT,
            sequence_number INTEGER,
            quality_score DOUBLE PRECISION,
            created_at TIMESTAMPTZ NOT NULL,
            updated_at TIMESTAMPTZ NOT NULL,
            expires_at TIMESTAMPTZ,
            status TEXT NOT NULL DEFAULT 'approved',
            tier TEXT NOT NULL DEFAULT 'mid',
            user_marked_important BOOLEAN NOT NULL DEFAULT FALSE,
            metadata JSONB NOT NULL DEFAULT '{}',
            kind_confidence DOUBLE PRECISION,
            kind_method TEXT NOT NULL DEFAULT 'auto',
            kind_scores JSONB NOT NULL DEFAULT '{}',
            category TEXT,
            category_confidence DOUBLE PRECISION,
            category_method TEXT NOT NULL DEFAULT 'auto',
            base_relevance DOUBLE PRECISION NOT NULL DEFAULT 1.0,
            cluster_size INTEGER NOT NULL DEFAULT 0,
            priority DOUBLE PRECISION,
            user_id TEXT,
            workspace_id TEXT,
            embedding vector,
            -- Porter stems of the content (weight A) and tags (weight B), written by the store: the same
            -- stemmer as the SQLite backend's FTS5 tokenizer and the ranking's term weights.
            tsv tsvector
        );
        CREATE INDEX memories_hash ON memories(content_hash, scope, scope_id);
        CREATE INDEX memories_scope ON memories(scope, scope_id, kind);
        CREATE INDEX memories_parent ON memories(parent_id, chunk_index);
        CREATE INDEX memories_created ON memories(created_at);
        CREATE INDEX memories_episode ON memories(episode_id, sequence_number) WHERE episode_id IS NOT NULL;
        CREATE INDEX memories_category ON memories(category) WHERE category IS NOT NULL;
        CREATE INDEX memories_tier ON memories(scope, scope_id, tier) WHERE parent_id IS NULL;
        CREATE INDEX memories_owner ON memories(user_id, workspace_id) WHERE user_id IS NOT NULL;
        CREATE INDEX memories_tsv ON memories USING gin(tsv) WHERE searchable;

        -- Document frequency per stem and the corpus size and length, for BM25, kept by a trigger.
        CREATE TABLE lexicon (term TEXT PRIMARY KEY, df INTEGER NOT NULL);
        CREATE TABLE corpus (one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), docs BIGINT NOT NULL,
                             total_len BIGINT NOT NULL);
        INSERT INTO corpus VALUES (TRUE, 0, 0);
        CREATE FUNCTION engram_lexicon() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP <> 'INSERT' AND OLD.searchable AND OLD.tsv IS NOT NULL THEN
                UPDATE lexicon SET df = df - 1 WHERE term = ANY(tsvector_to_array(OLD.tsv));
                UPDATE corpus SET docs = docs - 1, total_len = total_len - length(OLD.tsv);
            END IF;
            IF TG_OP <> 'DELETE' AND NEW.searchable AND NEW.tsv IS NOT NULL THEN
                INSERT INTO lexicon(term, df) SELECT t, 1 FROM unnest(tsvector_to_array(NEW.tsv)) t ORDER BY t
                ON CONFLICT (term) DO UPDATE SET df = lexicon.df + 1;
                UPDATE corpus SET docs = docs + 1, total_len = total_len + length(NEW.tsv);
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER memories_lexicon_id AFTER INSERT OR DELETE ON memories
            FOR EACH ROW EXECUTE FUNCTION engram_lexicon();
        CREATE TRIGGER memories_lexicon_u AFTER UPDATE OF tsv, searchable ON memories FOR EACH ROW
            WHEN (OLD.tsv IS DISTINCT FROM NEW.tsv OR OLD.searchable IS DISTINCT FROM NEW.searchable)
            EXECUTE FUNCTION engram_lexicon();

        CREATE TABLE prototypes (
            id BIGSERIAL PRIMARY KEY,
            taxonomy TEXT NOT NULL,
            label TEXT NOT NULL,
            source TEXT NOT NULL,
            text TEXT,
            memory_id TEXT,
            embedding BYTEA NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE INDEX prototypes_label ON prototypes(taxonomy, label, source);

        CREATE TABLE audit_log (
            id BIGSERIAL PRIMARY KEY,
            at TEXT NOT NULL,
            memory_id TEXT,
            action TEXT NOT NULL,
            detail TEXT NOT NULL DEFAULT '{}',
            operation_id TEXT
        );
        CREATE INDEX audit_memory ON audit_log(memory_id);
        CREATE INDEX audit_operation ON audit_log(operation_id) WHERE operation_id IS NOT NULL;

        CREATE TABLE tags (
            tag TEXT PRIMARY KEY,
            usage_count INTEGER NOT NULL DEFAULT 0,
            first_used_at TEXT NOT NULL,
            last_used_at TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active',
            merged_into TEXT,
            embedding BYTEA
        );
        CREATE TABLE operations (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            status TEXT NOT NULL,
            summary TEXT NOT NULL DEFAULT '{}'
        );
        CREATE TABLE operation_changes (
            seq BIGSERIAL PRIMARY KEY,
            operation_id TEXT NOT NULL REFERENCES operations(id),
            entity TEXT NOT NULL,
            key TEXT NOT NULL,
            before TEXT,
            before_embedding BYTEA
        );
        CREATE INDEX operation_changes_op ON operation_changes(operation_id, seq);

        CREATE TABLE sources (
            seq BIGSERIAL PRIMARY KEY,
            platform TEXT NOT NULL DEFAULT '',
            conversation_id TEXT NOT NULL DEFAULT '',
            message_id TEXT NOT NULL,
            role TEXT NOT NULL,
            content TEXT NOT NULL,
            ts TEXT,
            metadata TEXT NOT NULL DEFAULT '{}',
            UNIQUE (platform, conversation_id, message_id)
        );
        CREATE INDEX sources_conversation ON sources(conversation_id, seq);
        """
    )


@migration
def m002_prototype_openings(db: Connection[tuple[object, ...]]) -> None:
    """Each prototype keeps the embedding of its opening words (see the SQLite schema's m011)."""
    db.execute(b"ALTER TABLE prototypes ADD COLUMN opening BYTEA")


@migration
def m003_unspaced_pairs(db: Connection[tuple[object, ...]]) -> None:
    """Chinese and Japanese are indexed as character pairs (see the SQLite schema's m012): the stems of the
    memories holding any are computed again (the lexicon follows by trigger)."""
    # The stems are computed in Python, as on every write.
    rows = db.execute(
        b"SELECT rid, content, tags FROM memories WHERE searchable AND (content ~ %s OR tags::text ~ %s)",
        (UNSPACED_LETTERS, UNSPACED_LETTERS),
    ).fetchall()
    with db.cursor() as cur:
        cur.executemany(
            b"UPDATE memories SET tsv = %s::tsvector WHERE rid = %s",
            [(pg_text.tsvector(str(content), cast(list[str], tags)), rid) for rid, content, tags in rows],
        )


@migration
def m004_chunks_follow_their_memory(db: Connection[tuple[object, ...]]) -> None:
    """A chunk shares its memory's status, scope, owner and scores (see the SQLite schema's m013)."""
    shared = ", ".join(f"{c} = p.{c}" for c in CHUNK_SHARED)
    db.execute(f"UPDATE memories c SET {shared} FROM memories p WHERE c.parent_id = p.id".encode())


@migration
def m005_chunks_carry_their_memory_tags(db: Connection[tuple[object, ...]]) -> None:
    """A chunk carries its memory's tags (see the SQLite schema's m014), its text index computed again."""
    rows = db.execute(
        b"SELECT c.rid, c.content, p.tags FROM memories c JOIN memories p ON p.id = c.parent_id WHERE c.tags <> p.tags"
    ).fetchall()
    with db.cursor() as cur:
        cur.executemany(
            b"UPDATE memories SET tags = %s::jsonb, tsv = CASE WHEN searchable THEN %s::tsvector END WHERE rid = %s",
            [
                (json.dumps(tags), pg_text.tsvector(str(content), cast(list[str], tags)), rid)
                for rid, content, tags in rows
            ],
        )


@migration
def m006_stored_at(db: Connection[tuple[object, ...]]) -> None:
    """When Engram stored each memory (see the SQLite schema's m015); new rows take the time of their insert."""
    db.execute(b"ALTER TABLE memories ADD COLUMN stored_at TIMESTAMPTZ NOT NULL DEFAULT now()")
    db.execute(
        b"UPDATE memories m SET stored_at = a.at::timestamptz FROM (SELECT memory_id, min(at) AS at FROM audit_log "
        b"WHERE action = 'create' GROUP BY memory_id) a WHERE a.memory_id = coalesce(m.parent_id, m.id)"
    )


# Term statistics per statement, not per row: a row trigger rewrote the corpus row and every stem's lexicon row
# for each memory (a bulk load of 10k rows left the one-row corpus table 434 kB of dead versions and the lexicon
# 449 bytes a term), and an insert of many rows now counts them in one pass. Transition tables cannot serve
# more than one event, hence three triggers over one function.
_LEXICON_PER_STATEMENT = """
DROP TRIGGER memories_lexicon_id ON memories;
DROP TRIGGER memories_lexicon_u ON memories;
DROP FUNCTION engram_lexicon();
CREATE FUNCTION engram_lexicon() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    tsvs tsvector[];
    signs integer[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(tsv), array_agg(1) INTO tsvs, signs FROM new_rows WHERE searchable AND tsv IS NOT NULL;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(tsv), array_agg(-1) INTO tsvs, signs FROM old_rows WHERE searchable AND tsv IS NOT NULL;
    ELSE
        SELECT array_agg(c.tsv), array_agg(c.n) INTO tsvs, signs FROM (
            SELECT o.tsv, -1 AS n, o.searchable AS counted FROM old_rows o JOIN new_rows w ON w.rid = o.rid
            WHERE o.tsv IS DISTINCT FROM w.tsv OR o.searchable <> w.searchable
            UNION ALL
            SELECT w.tsv, 1, w.searchable FROM old_rows o JOIN new_rows w ON w.rid = o.rid
            WHERE o.tsv IS DISTINCT FROM w.tsv OR o.searchable <> w.searchable
        ) c WHERE c.counted AND c.tsv IS NOT NULL;
    END IF;
    IF tsvs IS NULL THEN
        RETURN NULL;
    END IF;
    WITH d AS (
        SELECT t, sum(x.n)::integer AS n FROM unnest(tsvs, signs) AS x(tsv, n), unnest(tsvector_to_array(x.tsv)) t
        GROUP BY t HAVING sum(x.n) <> 0
    ), kept AS (
        UPDATE lexicon l SET df = l.df + d.n FROM d WHERE l.term = d.t RETURNING l.term
    )
    INSERT INTO lexicon(term, df) SELECT d.t, d.n FROM d WHERE d.n > 0 AND d.t NOT IN (SELECT term FROM kept)
    ORDER BY d.t;
    UPDATE corpus c SET docs = c.docs + s.d, total_len = c.total_len + s.len
        FROM (SELECT sum(x.n) AS d, sum(x.n * length(x.tsv)) AS len FROM unnest(tsvs, signs) AS x(tsv, n)) s
        WHERE s.d <> 0 OR s.len <> 0;
    RETURN NULL;
END $$;
CREATE TRIGGER memories_lexicon_i AFTER INSERT ON memories REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION engram_lexicon();
CREATE TRIGGER memories_lexicon_d AFTER DELETE ON memories REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION engram_lexicon();
CREATE TRIGGER memories_lexicon_u AFTER UPDATE ON memories REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION engram_lexicon();
"""


@migration
def m007_compact_indexes(db: Connection[tuple[object, ...]]) -> None:
    """Smaller indexes, checked against the queries that read them (docs/design/storage.md, PostgreSQL): the
    duplicate lookup's hash alone in a hash index (a B-tree held the 64-character text, scope and scope id);
    chunks' (parent, position) only for chunks; the scope without the kind; no tier index (no query filters on
    it); the full-text index's pending list flushed at 64 kB (a large one left the index 4-5x its size); the
    vector index over half-precision copies of the vectors (rebuilt by `PostgresStore`), and term statistics
    kept per statement."""
    db.execute(
        b"""
        DROP INDEX memories_hash;
        CREATE INDEX memories_hash ON memories USING hash (content_hash);
        DROP INDEX memories_parent;
        CREATE INDEX memories_parent ON memories(parent_id, chunk_index) WHERE parent_id IS NOT NULL;
        DROP INDEX memories_scope;
        CREATE INDEX memories_scope ON memories(scope, scope_id);
        DROP INDEX memories_tier;
        ALTER INDEX memories_tsv SET (gin_pending_list_limit = 64);
        """
    )
    db.execute(_LEXICON_PER_STATEMENT.encode())
    # The vector index over half-precision copies: built from the rows here, as `PostgresStore` builds it.
    names = db.execute(
        b"SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname ~ '^memories_hnsw_[0-9]+$'"
    ).fetchall()
    for (name,) in names:
        db.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(str(name))))
        db.execute(vector_index(int(str(name).rsplit("_", 1)[1])))


@migration
def m008_scores_as_bytes(db: Connection[tuple[object, ...]]) -> None:
    """The classifier's scores as bytes: the SQLite backend's blob for new rows (about 70 bytes where JSONB kept
    about 380 compressed), the JSON text of the rows before (read as before)."""
    db.execute(
        b"ALTER TABLE memories ALTER COLUMN kind_scores DROP DEFAULT, "
        b"ALTER COLUMN kind_scores TYPE bytea USING convert_to(kind_scores::text, 'UTF8'), "
        b"ALTER COLUMN kind_scores SET DEFAULT convert_to('{}', 'UTF8')"
    )


# A memory's content hash as its queries read it: the column holds it only where it is not the SHA-256 of the
# content as stored (an imported hash, a text not stripped); the hash index is on this expression.
HASH = "coalesce(m.content_hash, engram_hash(m.content))"


@migration
def m009_compact_rows(db: Connection[tuple[object, ...]]) -> None:
    """A short memory in fewer bytes (docs/design/storage.md, PostgreSQL): the content hash only where it is not
    the content's own SHA-256 (65 bytes a row), no tags and no metadata as NULL (5 bytes each), the stems of the
    content alone without a position (4-5 bytes a stem, engram.store.postgres.text), the vector index at M = 12 (8 elements a page where M = 16 fit 7), the
    hash index's buckets filled before they split (a third smaller; a lookup still reads one bucket). The table
    is rewritten once, which also keeps beside their row the vectors that now fit there."""
    graphs = db.execute(
        b"SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname ~ '^memories_hnsw_'"
    ).fetchall()
    db.execute(b"SET LOCAL maintenance_work_mem = '512MB'")  # the rewrite builds every index again
    for (name,) in graphs:  # built again below, after the rewrite rather than during it
        db.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(str(name))))
    db.execute(
        b"""
        CREATE FUNCTION engram_hash(content text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
            AS $$ SELECT encode(sha256(convert_to(content, 'UTF8')), 'hex') $$;
        CREATE FUNCTION pg_temp.engram_unplaced(t tsvector) RETURNS tsvector LANGUAGE sql IMMUTABLE AS $$
            SELECT ts_delete(t, coalesce(x.alone, '{}')) || strip(ts_delete(t, coalesce(x.other, '{}')))
            FROM (SELECT array_agg(lexeme) FILTER (WHERE weights = '{A}') AS alone,
                         array_agg(lexeme) FILTER (WHERE weights IS DISTINCT FROM '{A}') AS other
                  FROM unnest(t)) x $$;
        DROP INDEX memories_hash;
        ALTER TABLE memories ALTER COLUMN content_hash DROP NOT NULL,
            ALTER COLUMN content_hash TYPE text USING nullif(content_hash, engram_hash(content)),
            ALTER COLUMN tags DROP NOT NULL, ALTER COLUMN tags DROP DEFAULT,
            ALTER COLUMN tags TYPE jsonb USING nullif(tags, '[]'),
            ALTER COLUMN metadata DROP NOT NULL, ALTER COLUMN metadata DROP DEFAULT,
            ALTER COLUMN metadata TYPE jsonb USING nullif(metadata, '{}'),
            ALTER COLUMN tsv TYPE tsvector USING pg_temp.engram_unplaced(tsv);
        CREATE INDEX memories_hash ON memories USING hash ((coalesce(content_hash, engram_hash(content))))
            WITH (fillfactor = 100);
        DROP FUNCTION pg_temp.engram_unplaced(tsvector);
        """
    )
    dims = {
        int(m[1]) for (name,) in graphs if (m := re.fullmatch(r"memories_hnsw_(?:half_)?([0-9]+)", str(name)))
    }
    for dim in sorted(dims):
        db.execute(vector_index(dim))


def vector_index_name(dim: int) -> str:
    return f"memories_hnsw_half_{dim}"


def vector_index(dim: int) -> sql.Composed:
    """The HNSW index (cosine) of `dim`-d vectors, over their half-precision copies: half the bytes of float32 (2
    kB a memory at 10k memories -> 1.2 kB), its order off by about 1e-3 in cosine, so a search takes more hits
    than it returns and ranks them by the stored float32 vectors (engram.store.postgres.search). M = 12 links
    a node to 24 others on the bottom layer (M = 16: 32): 1,048 bytes a vector at 100k rather than 1,170, and
    with the search's walk of 128 (connection) as near the exact neighbours as M = 16 with 100."""
    return sql.SQL(
        "CREATE INDEX {} ON memories USING hnsw ((embedding::halfvec({})) halfvec_cosine_ops) WITH (m = 12) "
        "WHERE searchable"
    ).format(sql.Identifier(vector_index_name(dim)), sql.Literal(dim))
