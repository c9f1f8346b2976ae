"""Which backend a database location opens."""

from __future__ import annotations

from pathlib import Path

from engram.config import Settings, locate
from engram.errors import MissingExtra
from engram.store.roles import Store
from engram.store.sqlite.store import SQLiteStore


def open_store(db: str | Path, settings: Settings) -> Store:
    """A PostgreSQL URL opens the PostgreSQL backend; anything else is an SQLite file (or `:memory:`)."""
    location = locate(db)
    if isinstance(location, str):
        try:  # psycopg loads only when PostgreSQL is used
            from engram.store.postgres.store import PostgresStore
        except ModuleNotFoundError as exc:
            raise MissingExtra("a postgresql:// database", "postgres") from exc

        return PostgresStore(location, pool_size=settings.pg_pool_size)
    return SQLiteStore(location, busy_timeout_ms=settings.busy_timeout_ms)
