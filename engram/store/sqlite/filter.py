"""A recall or listing `Filter` as an SQLite WHERE clause over `memories m`, with its parameters; and long id
lists in slices that fit one statement's parameters."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from enum import StrEnum
from typing import Any, TypeVar

from engram.model.record import utcnow
from engram.store.rows import ts
from engram.store.values import Filter

K = TypeVar("K", str, int)


def in_slices(keys: Sequence[K], size: int = 500) -> Iterator[tuple[Sequence[K], str]]:
    """`keys` in slices of `size`, each with its `?, ?, ...` placeholders for an IN (...) list."""
    for start in range(0, len(keys), size):
        part = keys[start : start + size]
        yield part, ", ".join("?" for _ in part)


def where_sql(where: Filter, *, searchable: bool) -> tuple[str, list[Any]]:
    """Searchable rows (chunks and unchunked memories) for searches, top-level memories otherwise."""
    clauses = ["m.searchable = 1"] if searchable else ["m.parent_id IS NULL"]
    params: list[Any] = []

    def one_of(column: str, values: Sequence[StrEnum]) -> None:
        if values:
            clauses.append(f"m.{column} IN ({', '.join('?' for _ in values)})")
            params.extend(v.value for v in values)

    if where.scope is not None:
        clauses.append("m.scope = ?")
        params.append(where.scope.value)
    if where.scope_id is not None:  # alone too: the memories of that project or session, whichever scope
        clauses.append("m.scope_id = ?")
        params.append(where.scope_id)
    if where.session is not None:
        clauses.append("(m.scope <> 'session' OR m.scope_id = ?)")
        params.append(where.session)
    for column, value in (("user_id", where.user_id), ("workspace_id", where.workspace_id)):
        if where.owner_exact:
            clauses.append(f"m.{column} IS ?")
            params.append(value)
        elif value is not None:  # the owner's memories and the shared ones
            clauses.append(f"(m.{column} = ? OR m.{column} IS NULL)")
            params.append(value)
    one_of("kind", where.kinds)
    one_of("status", where.statuses)
    if not where.include_expired:
        clauses.append("(m.expires_at IS NULL OR m.expires_at > ?)")
        params.append(ts(where.now or utcnow()))
    if where.created_after is not None:
        clauses.append("m.created_at >= ?")
        params.append(ts(where.created_after))
    if where.created_before is not None:
        clauses.append("m.created_at < ?")
        params.append(ts(where.created_before))
    for tag in where.tags:
        clauses.append("EXISTS (SELECT 1 FROM json_each(m.tags) WHERE json_each.value = ?)")
        params.append(tag)
    one_of("category", where.categories)
    one_of("type", where.types)
    if where.uncategorised:
        clauses.append("m.category IS NULL")
    if where.importance_min is not None:
        clauses.append("m.importance >= ?")
        params.append(where.importance_min)
    return " AND ".join(clauses), params
