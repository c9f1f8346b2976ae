"""A `Filter` as PostgreSQL's WHERE clause (the SQLite twin is sqlite_filter)."""

from __future__ import annotations

import json
from typing import Any

from engram.model.record import utcnow
from engram.store.values import Filter


def where_sql(where: Filter, *, searchable: bool) -> tuple[str, list[Any]]:
    """The WHERE clause of a filter over `memories m` and its parameters: searchable rows (chunks and short
    memories) or top-level ones."""
    clauses = ["m.searchable"] if searchable else ["m.parent_id IS NULL"]
    params: list[Any] = []
    if where.scope is not None:
        clauses.append("m.scope = %s")
        params.append(where.scope.value)
    if where.scope_id is not None:  # alone too: the memories of that project or session, whichever scope
        clauses.append("m.scope_id = %s")
        params.append(where.scope_id)
    if where.session is not None:
        clauses.append("(m.scope <> 'session' OR m.scope_id = %s)")
        params.append(where.session)
    for column, value in (("user_id", where.user_id), ("workspace_id", where.workspace_id)):
        if where.owner_exact and value is None:
            # not IS NOT DISTINCT FROM NULL: the planner guesses that matches one row, and would then
            # scan every vector instead of walking the HNSW index
            clauses.append(f"m.{column} IS NULL")
        elif where.owner_exact:
            clauses.append(f"m.{column} = %s")
            params.append(value)
        elif value is not None:  # the owner's memories and the shared ones
            clauses.append(f"(m.{column} = %s OR m.{column} IS NULL)")
            params.append(value)
    for column, values in (
        ("kind", where.kinds),
        ("status", where.statuses),
        ("category", where.categories),
        ("type", where.types),
    ):
        if values:
            clauses.append(f"m.{column} = ANY(%s)")
            params.append([v.value for v in values])
    if not where.include_expired:
        clauses.append("(m.expires_at IS NULL OR m.expires_at > %s)")
        params.append(where.now or utcnow())
    if where.created_after is not None:
        clauses.append("m.created_at >= %s")
        params.append(where.created_after)
    if where.created_before is not None:
        clauses.append("m.created_at < %s")
        params.append(where.created_before)
    for tag in where.tags:
        clauses.append("m.tags @> %s::jsonb")
        params.append(json.dumps([tag]))
    if where.uncategorised:
        clauses.append("m.category IS NULL")
    if where.importance_min is not None:
        clauses.append("m.importance >= %s")
        params.append(where.importance_min)
    return " AND ".join(clauses), params


__all__ = ["where_sql"]
