"""Browsing memories as an agent does: newest first, filtered by kind, tag, status and scope, a page at a time
with a cursor, each memory's content shortened to a few lines (the full text is one `get` away)."""

from __future__ import annotations

import base64
import binascii
from datetime import datetime

from engram.errors import InvalidInput
from engram.model.agent_answers import ListMemoriesAnswer, MemorySummary
from engram.model.record import Kind, MemoryRecord, Scope, Status, as_utc, tag_form
from engram.store.roles import Rows
from engram.store.values import Filter, Position

SHOWN_CHARS = 280  # of a memory's content in a list: a few lines, enough to tell memories apart
MAX_PAGE = 100


def bounded(*, limit: int, offset: int) -> None:
    """A listing's limit (from 1) and offset (from 0) as whole numbers the database counts: past them a number was
    an OverflowError from SQLite, and a negative or boolean limit listed nothing, silently."""
    for name, value, least in (("limit", limit, 1), ("offset", offset, 0)):
        if type(value) is not int or not least <= value < 2**63:
            raise InvalidInput(name, f"must be a whole number from {least} to {2**63 - 1}, got {value!r}")


def shorten(text: str, width: int) -> tuple[str, bool]:
    """`text` on one line, cut at a word before `width` characters with an ellipsis; and whether it was cut."""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat, False
    cut = flat[: width - 1]
    if " " in cut[width // 2 :]:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:.") + "…", True


def summary(record: MemoryRecord, width: int = SHOWN_CHARS) -> MemorySummary:
    content, cut = shorten(record.content, width)
    return {
        "id": record.id,
        "content": content,
        "shortened": cut,
        "kind": record.kind.value,
        "category": None if record.category is None else record.category.value,
        "scope": record.scope.value,
        "scope_id": record.scope_id,
        "status": record.status.value,
        "tags": list(record.tags),
        "importance": record.importance,
        "created_at": record.created_at.isoformat(),
        "updated_at": record.updated_at.isoformat(),
    }


def cursor_of(record: MemoryRecord) -> str:
    """An opaque cursor: the listed memory's place in listing order (created_at, id)."""
    raw = f"{record.created_at.isoformat()}|{record.id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def position_of(cursor: str) -> Position:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        created, memory_id = raw.split("|", 1)
        return as_utc(datetime.fromisoformat(created)), memory_id
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InvalidInput(
            "cursor", "is not a cursor list_memories returned (pass its next_cursor)"
        ) from None


def _member(cls: type[Kind] | type[Scope] | type[Status], value: str | None, field: str) -> tuple[str, ...]:
    if value is None:
        return ()
    try:
        return (cls(value).value,)
    except ValueError:
        raise InvalidInput(
            field, f"must be one of {', '.join(m.value for m in cls)}, got {value!r}"
        ) from None


class Browse:
    def __init__(self, store: Rows) -> None:
        self._store = store

    def list_memories(
        self,
        *,
        kind: str | None,
        tag: str | None,
        status: str,
        scope: str | None,
        scope_id: str | None,
        limit: int,
        cursor: str | None,
        offset: int,
        session: str | None,
    ) -> ListMemoriesAnswer:
        """One page of memories, newest first; `cursor` (a next_cursor) or `offset` says where it starts."""
        if cursor is not None and offset:
            raise InvalidInput("offset", "give a cursor or an offset, not both")
        kinds = _member(Kind, kind, "kind")
        scopes = _member(Scope, scope, "scope")
        statuses = _member(Status, status, "status")
        wanted = tag_form(tag) if tag is not None else None
        if tag is not None and not wanted:
            raise InvalidInput("tag", "must not be empty")
        where = Filter(
            scope=Scope(scopes[0]) if scopes else None,
            scope_id=scope_id,
            session=session if scope_id is None else None,
            kinds=tuple(Kind(k) for k in kinds),
            statuses=tuple(Status(s) for s in statuses),
            include_expired=True,
            tags=() if wanted is None else (wanted,),
        )
        after = None if cursor is None else position_of(cursor)
        # One more than asked: whether a next page exists, without a count of everything.
        rows = self._store.select(where, limit=limit + 1, offset=offset, after=after)
        page, more = rows[:limit], len(rows) > limit
        return {
            "memories": [summary(r) for r in page],
            "count": len(page),
            "next_cursor": cursor_of(page[-1]) if more and page else None,
        }
