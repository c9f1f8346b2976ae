"""`engram migrate`: copy a whole store to another backend and verify the copy."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from engram.config import Settings, is_url, locate, shown
from engram.errors import EngramError, InvalidInput, StoreUnavailable
from engram.interfaces.cli.terminal import error
from engram.memory import open_store
from engram.store.copy import copy_store, is_empty, verify_copy

out = Console()
err = Console(stderr=True)

SUPPORTED = "sqlite:///path, a file path, or postgresql://user@host/db (postgres:// too)"
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


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
    import psycopg  # loads only when PostgreSQL is used

    from engram.store.postgres.connection import _split

    conninfo, schema = _split(url)
    try:
        with psycopg.connect(conninfo, autocommit=True) as db:
            # The schema name is checked by _split: lowercase letters, digits and _ only.
            row = db.execute("SELECT to_regclass(%s)", (f'"{schema}".migrations',)).fetchone()
    except psycopg.Error as exc:
        raise StoreUnavailable(f"cannot reach PostgreSQL at {shown(url)}: {exc}".strip()) from None
    return row is not None and row[0] is not None


def migrate(
    source: Annotated[str, typer.Option("--from", help="the store to copy: sqlite:///path, a path or a URL")],
    target: Annotated[str, typer.Option("--to", help="an empty store: postgresql://... or sqlite:///path")],
) -> None:
    """Copy a whole store (memories, embeddings, tags, audit log, sources, operations) to another backend,
    then verify row counts and content hashes of every table. The target must be empty.

    Example: engram migrate --from sqlite:///home/me/.local/share/engram/memories.db --to postgresql://engram@db/engram
    """
    settings = Settings()
    try:
        # Both are checked before either is opened: a refused target leaves the source untouched too.
        src_at, dst_at = _where(source, "--from", source=True), _where(target, "--to", source=False)
        src = open_store(src_at, settings)
        try:
            dst = open_store(dst_at, settings)
            try:
                if not is_empty(dst):
                    error(err, f"{shown(target)} is not empty; migrate copies into an empty store")
                    raise typer.Exit(2)
                total = src.stats().memories + src.stats().chunks
                with Progress(console=err, transient=True) as bar:
                    task = bar.add_task("copying memories", total=total)
                    copied = copy_store(src, dst, lambda n: bar.advance(task, n))
                checked = verify_copy(src, dst)
            finally:
                dst.close()
        finally:
            src.close()
    except EngramError as exc:
        error(err, exc)
        raise typer.Exit(2 if isinstance(exc, ValueError) else 1) from None
    table = Table("table", "rows copied", "verified")
    for name, n in copied.items():
        table.add_row(name, str(n), "count + sha256" if checked.get(name) == n else "MISMATCH")
    out.print(table)
    out.print(f"migrated {shown(source)} -> {shown(target)}")
