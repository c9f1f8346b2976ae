"""What the tools that browse, edit, review and feed memories answer, and the session context, as typed
dictionaries (the other tools' answers are in answers.py): the same values reach a Python caller, the MCP client
and the REST client."""

from __future__ import annotations

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

# Each answer is exactly these fields: a field a tool adds without saying so here fails its tests.
_EXACT = ConfigDict(extra="forbid")


@with_config(_EXACT)
class MemorySummary(TypedDict):
    """A memory as a list shows it: its content shortened to a few lines (`shortened` says so)."""

    id: str
    content: str
    shortened: bool
    kind: str
    category: str | None
    scope: str
    scope_id: str | None
    status: str
    tags: list[str]
    importance: float
    created_at: str
    updated_at: str


@with_config(_EXACT)
class ListMemoriesAnswer(TypedDict):
    memories: list[MemorySummary]
    count: int
    next_cursor: str | None  # pass it back as `cursor` for the next page; None: this was the last


@with_config(_EXACT)
class UpdateMemoryAnswer(TypedDict):
    id: str
    changed: list[str]
    reembedded: bool
    memory: MemorySummary


@with_config(_EXACT)
class ForgetByTagAnswer(TypedDict):
    tag: str
    deleted: int
    ids: list[str]
    archived: list[str]  # memories the deleted ones had replaced, archived, not deleted (ForgetAnswer)
    note: str  # what a forget cannot reach (answers.FORGET_NOTE)


@with_config(_EXACT)
class PendingMemory(MemorySummary):
    why: str
    confidence: float | None


@with_config(_EXACT)
class ReviewMemoriesAnswer(TypedDict):
    action: str
    pending: list[PendingMemory]  # action "list": the queue, newest first
    reviewed: list[str]  # approve / reject: the ids decided
    count: int


@with_config(_EXACT)
class IngestConversationAnswer(TypedDict):
    messages: int
    already_ingested: int
    candidates: int
    approved: int
    pending: int
    by_kind: dict[str, int]
    outcomes: dict[str, int]


@with_config(_EXACT)
class SessionContextAnswer(TypedDict):
    text: str
    ids: list[str]
    sections: dict[str, list[str]]  # section title -> the ids shown under it
    tokens: int
    max_tokens: int
