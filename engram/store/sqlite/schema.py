"""The SQLite schema as ordered migrations, each recorded in the `migrations` table when applied."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from engram.model.record import utcnow
from engram.store.rows import CHUNK_SHARED, ts

Migration = Callable[[sqlite3.Connection], None]
MIGRATIONS: list[tuple[str, Migration]] = []
MIGRATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, "
    "applied_at TEXT NOT NULL)"
)


def migration(func: Migration) -> Migration:
    MIGRATIONS.append((func.__name__, func))
    return func


def run_script(db: sqlite3.Connection, script: str) -> None:
    """Execute statement by statement: `executescript` would commit the migration's open transaction."""
    statement = ""
    for line in script.splitlines(keepends=True):
        if not statement and line.strip().startswith("--"):
            continue
        statement += line
        if sqlite3.complete_statement(statement):
            db.execute(statement)
            statement = ""
    if statement.strip():
        raise ValueError(f"incomplete SQL statement in migration: {statement[:80]!r}")


@migration
def m001_memories(db: sqlite3.Connection) -> None:
    run_script(
        db,
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE memories (
            rid INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            parent_id TEXT REFERENCES memories(id) ON DELETE CASCADE,
            chunk_index INTEGER,
            searchable INTEGER NOT NULL DEFAULT 1,
            content TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            kind TEXT NOT NULL,
            scope TEXT NOT NULL,
            scope_id TEXT,
            type TEXT NOT NULL,
            tags TEXT NOT NULL DEFAULT '[]',
            importance REAL NOT NULL,
            token_count INTEGER NOT NULL DEFAULT 0,
            access_count INTEGER NOT NULL DEFAULT 0,
            last_accessed_at TEXT,
            validity_score REAL NOT NULL DEFAULT 1,
            is_negative INTEGER NOT NULL DEFAULT 0,
            source_type TEXT NOT NULL DEFAULT 'user',
            credibility REAL NOT NULL DEFAULT 1,
            emotion TEXT,
            emotional_valence REAL,
            emotional_arousal REAL,
            episode_id TEXT,
            sequence_number INTEGER,
            quality_score REAL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            expires_at TEXT,
            status TEXT NOT NULL DEFAULT 'approved',
            tier TEXT NOT NULL DEFAULT 'mid',
            user_marked_important INTEGER NOT NULL DEFAULT 0,
            metadata TEXT NOT NULL DEFAULT '{}',
            kind_confidence REAL,
            kind_method TEXT NOT NULL DEFAULT 'auto',
            kind_scores TEXT NOT NULL DEFAULT '{}',
            embedding BLOB
        );
        CREATE INDEX memories_hash ON memories(content_hash, scope, scope_id);
        CREATE INDEX memories_scope ON memories(scope, scope_id, kind);
        CREATE INDEX memories_parent ON memories(parent_id, chunk_index);
        CREATE INDEX memories_created ON memories(created_at);

        -- Lexical index: external content, only rows that are searched (a chunked memory's parent is not).
        CREATE VIRTUAL TABLE memories_fts USING fts5(
            content, tags, content='memories', content_rowid='rid',
            tokenize='porter unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER memories_fts_ai AFTER INSERT ON memories WHEN new.searchable = 1 BEGIN
            INSERT INTO memories_fts(rowid, content, tags) VALUES (new.rid, new.content, new.tags);
        END;
        CREATE TRIGGER memories_fts_ad AFTER DELETE ON memories WHEN old.searchable = 1 BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, content, tags)
            VALUES ('delete', old.rid, old.content, old.tags);
        END;
        CREATE TRIGGER memories_fts_au AFTER UPDATE OF content, tags ON memories WHEN old.searchable = 1 BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, content, tags)
            VALUES ('delete', old.rid, old.content, old.tags);
            INSERT INTO memories_fts(rowid, content, tags) VALUES (new.rid, new.content, new.tags);
        END;

        -- Every change of a stored vector, so that a vector index (of this or another process) can catch up.
        CREATE TABLE vector_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, rid INTEGER NOT NULL);
        CREATE TRIGGER memories_vec_ai AFTER INSERT ON memories WHEN new.embedding IS NOT NULL BEGIN
            INSERT INTO vector_changes(rid) VALUES (new.rid);
        END;
        CREATE TRIGGER memories_vec_au AFTER UPDATE OF embedding ON memories BEGIN
            INSERT INTO vector_changes(rid) VALUES (new.rid);
        END;
        CREATE TRIGGER memories_vec_ad AFTER DELETE ON memories WHEN old.embedding IS NOT NULL BEGIN
            INSERT INTO vector_changes(rid) VALUES (old.rid);
        END;

        CREATE TABLE prototypes (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            taxonomy TEXT NOT NULL,
            label TEXT NOT NULL,
            source TEXT NOT NULL,          -- 'seed' (from the taxonomy file) or 'learned'
            text TEXT,
            memory_id TEXT,
            embedding BLOB NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE INDEX prototypes_label ON prototypes(taxonomy, label, source);

        CREATE TABLE audit_log (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            at TEXT NOT NULL,
            memory_id TEXT,
            action TEXT NOT NULL,
            detail TEXT NOT NULL DEFAULT '{}'
        );
        CREATE INDEX audit_memory ON audit_log(memory_id);
        """,
    )


@migration
def m002_fts_rank(db: sqlite3.Connection) -> None:
    """Make `ORDER BY rank` mean bm25 with content weighted 1 and tags 0.5. The text search now calls bm25() with
    these weights itself (SQLite's top-k sort is faster than FTS5's); the setting stays for direct queries."""
    db.execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('rank', 'bm25(1.0, 0.5)')")


@migration
def m003_fts_vocab(db: sqlite3.Connection) -> None:
    """Document frequency per indexed (porter-stemmed) term, for IDF-weighted term overlap."""
    db.execute("CREATE VIRTUAL TABLE memories_vocab USING fts5vocab(memories_fts, 'row')")


@migration
def m004_episode_order(db: sqlite3.Connection) -> None:
    """Find a memory's neighbours in its episode (the turns around it) by index."""
    db.execute(
        "CREATE INDEX memories_episode ON memories(episode_id, sequence_number) WHERE episode_id IS NOT NULL"
    )


@migration
def m005_category(db: sqlite3.Connection) -> None:
    """The category beside the kind, with the classifier's confidence and how it was decided."""
    run_script(
        db,
        """
        ALTER TABLE memories ADD COLUMN category TEXT;
        ALTER TABLE memories ADD COLUMN category_confidence REAL;
        ALTER TABLE memories ADD COLUMN category_method TEXT NOT NULL DEFAULT 'auto';
        CREATE INDEX memories_category ON memories(category) WHERE category IS NOT NULL;
        """,
    )


@migration
def m006_tags_and_operations(db: sqlite3.Connection) -> None:
    """The tag registry (usage statistics, an embedding to map concepts onto, archived not deleted)
    and bulk operations with the before-image of everything they change, so each can be rolled back."""
    run_script(
        db,
        """
        CREATE TABLE tags (
            tag TEXT PRIMARY KEY,
            usage_count INTEGER NOT NULL DEFAULT 0,
            first_used_at TEXT NOT NULL,
            last_used_at TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active',   -- active | archived | merged
            merged_into TEXT,
            embedding BLOB
        );
        CREATE TABLE operations (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            status TEXT NOT NULL,                    -- running | done | failed | rolled_back
            summary TEXT NOT NULL DEFAULT '{}'
        );
        CREATE TABLE operation_changes (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            operation_id TEXT NOT NULL REFERENCES operations(id),
            entity TEXT NOT NULL,                    -- memory | tag
            key TEXT NOT NULL,
            before TEXT,                             -- JSON; NULL: it did not exist
            before_embedding BLOB
        );
        CREATE INDEX operation_changes_op ON operation_changes(operation_id, seq);
        ALTER TABLE audit_log ADD COLUMN operation_id TEXT;
        CREATE INDEX audit_operation ON audit_log(operation_id) WHERE operation_id IS NOT NULL;
        """,
    )


@migration
def m007_lifecycle(db: sqlite3.Connection) -> None:
    """The access-based lifecycle: existing memories start at base relevance 1.0, no cluster, no
    priority until the first maintenance (nothing else changes)."""
    run_script(
        db,
        """
        ALTER TABLE memories ADD COLUMN base_relevance REAL NOT NULL DEFAULT 1.0;
        ALTER TABLE memories ADD COLUMN cluster_size INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE memories ADD COLUMN priority REAL;
        CREATE INDEX memories_tier ON memories(scope, scope_id, tier) WHERE parent_id IS NULL;
        """,
    )


@migration
def m008_sources(db: sqlite3.Connection) -> None:
    """Raw conversation is input, not memory. Normalised messages are kept as the evidence that
    memories were extracted from; one row per (platform, conversation, message id)."""
    run_script(
        db,
        """
        CREATE TABLE sources (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
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
        """,
    )


@migration
def m009_owners(db: sqlite3.Connection) -> None:
    """Isolation: a memory may belong to a user and a workspace (NULL: shared by everyone)."""
    run_script(
        db,
        """
        ALTER TABLE memories ADD COLUMN user_id TEXT;
        ALTER TABLE memories ADD COLUMN workspace_id TEXT;
        CREATE INDEX memories_owner ON memories(user_id, workspace_id) WHERE user_id IS NOT NULL;
        """,
    )


@migration
def m010_memory_count(db: sqlite3.Connection) -> None:
    """The number of memories, kept by triggers: count(*) scans the table, and every recall's term weights
    need it again after any write, an access bump included."""
    run_script(
        db,
        """
        CREATE TABLE counts (name TEXT PRIMARY KEY, n INTEGER NOT NULL);
        INSERT INTO counts (name, n) SELECT 'memories', count(*) FROM memories;
        CREATE TRIGGER memories_count_ai AFTER INSERT ON memories BEGIN
            UPDATE counts SET n = n + 1 WHERE name = 'memories';
        END;
        CREATE TRIGGER memories_count_ad AFTER DELETE ON memories BEGIN
            UPDATE counts SET n = n - 1 WHERE name = 'memories';
        END;
        """,
    )


@migration
def m011_prototype_openings(db: sqlite3.Connection) -> None:
    """Classification reads a text's opening words beside the whole text: each prototype keeps the embedding
    of its opening (NULL for those learned before: the classifier embeds theirs from their text)."""
    run_script(db, "ALTER TABLE prototypes ADD COLUMN opening BLOB;")


@migration
def m012_unspaced_pairs(db: sqlite3.Connection) -> None:
    """Chinese and Japanese are indexed as character pairs (engram.lang.text.unspaced_pairs, a function each
    connection registers), so that a word of them can be searched; rows already indexed whole are indexed
    again (any other text reads the same either way)."""
    run_script(
        db,
        """
        DROP TRIGGER memories_fts_ai;
        DROP TRIGGER memories_fts_ad;
        DROP TRIGGER memories_fts_au;
        CREATE TRIGGER memories_fts_ai AFTER INSERT ON memories WHEN new.searchable = 1 BEGIN
            INSERT INTO memories_fts(rowid, content, tags)
            VALUES (new.rid, unspaced_pairs(new.content), unspaced_pairs(new.tags));
        END;
        CREATE TRIGGER memories_fts_ad AFTER DELETE ON memories WHEN old.searchable = 1 BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, content, tags)
            VALUES ('delete', old.rid, unspaced_pairs(old.content), unspaced_pairs(old.tags));
        END;
        CREATE TRIGGER memories_fts_au AFTER UPDATE OF content, tags ON memories WHEN old.searchable = 1 BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, content, tags)
            VALUES ('delete', old.rid, unspaced_pairs(old.content), unspaced_pairs(old.tags));
            INSERT INTO memories_fts(rowid, content, tags)
            VALUES (new.rid, unspaced_pairs(new.content), unspaced_pairs(new.tags));
        END;
        """,
    )
    rows = db.execute(
        "SELECT rid, content, tags FROM memories WHERE searchable = 1 "
        "AND (unspaced_pairs(content) != content OR unspaced_pairs(tags) != tags)"
    ).fetchall()
    for rid, content, tags in rows:
        db.execute(
            "INSERT INTO memories_fts(memories_fts, rowid, content, tags) VALUES ('delete', ?, ?, ?)",
            (rid, content, tags),
        )
        db.execute(
            "INSERT INTO memories_fts(rowid, content, tags) VALUES (?, unspaced_pairs(?), unspaced_pairs(?))",
            (rid, content, tags),
        )


@migration
def m013_chunks_follow_their_memory(db: sqlite3.Connection) -> None:
    """A chunk shares its memory's status, scope, owner and scores (engram.store.rows.CHUNK_SHARED); before,
    an update did not reach the chunks, and a rejected or archived long memory was still found through them."""
    shared = ", ".join(
        f"{c} = (SELECT p.{c} FROM memories p WHERE p.id = memories.parent_id)" for c in CHUNK_SHARED
    )
    db.execute(f"UPDATE memories SET {shared} WHERE parent_id IS NOT NULL")


@migration
def m014_chunks_carry_their_memory_tags(db: sqlite3.Connection) -> None:
    """A chunk carries its memory's tags (engram.store.rows); before, an edit of a long memory's tags left its
    chunks found by the old ones. The full-text index follows by trigger."""
    db.execute(
        "UPDATE memories SET tags = (SELECT p.tags FROM memories p WHERE p.id = memories.parent_id) "
        "WHERE parent_id IS NOT NULL AND tags <> (SELECT p.tags FROM memories p WHERE p.id = memories.parent_id)"
    )


@migration
def m015_stored_at(db: sqlite3.Connection) -> None:
    """When Engram stored each memory, beside the time the memory is about (`created_at`, a conversation's own
    date for an ingested history): the lifecycle counts idleness from it. A memory stored before this column
    takes its audited creation, else now (idle from the upgrade on, never from its own date)."""
    db.execute("ALTER TABLE memories ADD COLUMN stored_at TEXT")
    db.execute(
        "UPDATE memories SET stored_at = coalesce((SELECT min(a.at) FROM audit_log a WHERE a.action = 'create' "
        "AND a.memory_id = coalesce(memories.parent_id, memories.id)), ?)",
        (ts(utcnow()),),
    )


@migration
def m016_smaller_indexes(db: sqlite3.Connection) -> None:
    """Fewer index bytes a memory (docs/design/storage.md, *Disk*): the hash index holds the hash alone (a hash
    names one text: the scope never narrowed it); the chunk index holds chunks alone (a memory without any had an
    entry of NULLs there, and listings walked it for `parent_id IS NULL` rather than the table); one scope index
    on (scope, scope_id) replaces the one with the kind and the tier index of top-level memories (no query filters
    on tier, and with the kind after the scope a scope's rows were read kind by kind, out of order)."""
    run_script(
        db,
        """
        DROP INDEX memories_hash;
        CREATE INDEX memories_hash ON memories(content_hash);
        DROP INDEX memories_parent;
        CREATE INDEX memories_parent ON memories(parent_id, chunk_index) WHERE parent_id IS NOT NULL;
        DROP INDEX memories_tier;
        DROP INDEX memories_scope;
        CREATE INDEX memories_scope ON memories(scope, scope_id);
        """,
    )
