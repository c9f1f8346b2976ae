"""A NUL character (U+0000) or a lone surrogate in any text given to a public method of Memory: an id, a tag, a
query, a filter, a tenant's scope or owner name, a file path, a message, a key of metadata. PostgreSQL refused
a NUL with its own DataError (REST and MCP already refused it naming the field), SQLite could not encode a lone
surrogate, and a path with a NUL failed in the operating system. Every method now raises InvalidInput naming the
argument and the place in it, on both backends, and nothing stored changes."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.errors import InvalidInput

BAD = {"nul": "\x00", "surrogate": "\ud800"}
NO_TEXT = {"close", "maintain", "optimize_tags", "operations", "pending", "reembed"}


def _calls(mem: Memory, known: str, waiting: str, files: Path) -> list[tuple[str, dict[str, Any]]]:
    """Each public method called with a sensible value in every text it takes (as a keyword)."""
    when = datetime(2026, 1, 1, tzinfo=UTC)
    message = {"role": "user", "content": "I moved to Oslo last spring"}
    owners = {"scope_id": "proj", "user_id": "ana", "workspace_id": "home"}
    options = {"scope_id": "proj", "tags": ["keys"], "kind": "fact"}
    return [
        ("add_file", {"path": str(files / "notes.md"), "scope_id": "proj", "tags": ["keys"]}),
        ("audit_log", {"memory_id": known}),
        ("backup_restore", {"action": "backup", "path": str(files / "copy.db")}),
        ("chunks", {"memory_id": known}),
        ("concept_network", {"session": "s1"}),
        ("count", {"types": ["Observation"]}),
        ("export_memories", {"path": str(files / "out.json")}),
        ("feedback", {"memory_id": known, "helpful": True}),
        ("find_id", {"given": known}),
        ("forget", {"memory_id": known}),
        ("forget_by_tag", {"tag": "keys", "confirm": True, "session": "s1"}),
        ("get", {"memory_id": known}),
        ("import_from", {"source": "shodh", "path": str(files / "in.json")}),
        ("import_memories", {"path": str(files / "in.json")}),
        ("import_tinydb", {"directory": str(files)}),
        ("ingest", {"messages": [message], "scope": "project", **owners}),
        (
            "ingest_conversation",
            {
                "messages": [message],
                "conversation_id": "c1",
                "scope": "project",
                "scope_id": "proj",
                "session": "s1",
            },
        ),
        ("invalidate", {"memory_id": known}),
        (
            "list",
            {
                "kind": "fact",
                "scope": "project",
                "status": "approved",
                "tag": "keys",
                "after": (when, known),
                "types": ["Observation"],
                **owners,
            },
        ),
        (
            "list_memories",
            {
                "kind": "fact",
                "tag": "keys",
                "status": "approved",
                "scope": "project",
                "scope_id": "proj",
                "cursor": "abcd",
                "session": "s1",
            },
        ),
        ("memory_timeline", {"granularity": "month", "session": "s1"}),
        ("merge_memories", {"ids": [known, waiting], "into": known}),
        ("pii_summary", {"content": "call me on 555 0100"}),
        ("rank", {"query": "the spare key", "profile": "default", "types": ["Observation"]}),
        (
            "recall",
            {
                "query": "the spare key",
                "mode": "accurate",
                "kind": "fact",
                "scope": "project",
                "profile": "default",
                "session": "s1",
                **owners,
            },
        ),
        (
            "remember",
            {"content": "the boat is blue", "tags": ["boat"], "metadata": {"note": "seen"}, **owners},
        ),
        (
            "remember_many",
            {"items": [{"content": "the car is red", "tags": ["car"], "metadata": {"n": "x"}}]},
        ),
        ("rename_tag", {"old": "keys", "new": "doors"}),
        ("review", {"memory_id": waiting, "action": "edit", "content": "I moved to Bergen"}),
        ("review_many", {"action": "approve", "ids": [waiting], "kind": "todo"}),
        ("review_memories", {"action": "approve", "ids": [waiting], "kind": "todo", "session": "s1"}),
        ("rollback", {"operation_id": "op1"}),
        ("run_tool", {"name": "search_memory", "session": "s1", "query": "keys", "options": options}),
        ("search_memory", {"query": "the spare key", "options": options, "session": "s1"}),
        ("session_context", {"scope_id": "proj", "query": "keys", "session": "s1"}),
        ("store_memory", {"content": "the bike is green", "context": {"tags": ["bike"], "scope_id": "proj"}}),
        ("supersede", {"memory_id": known, "content": "the key is in the drawer", "tags": ["keys"]}),
        ("trace_search", {"query": "the spare key", "options": options, "session": "s1"}),
        ("update", {"memory_id": known, "content": "the key is in the shed", "tags": ["keys"], **owners}),
        (
            "update_memory",
            {
                "id": known,
                "content": "the key is in the car",
                "kind": "fact",
                "category": "general",
                "tags": ["keys"],
                "scope": "project",
                "scope_id": "proj",
            },
        ),
        ("usage_patterns", {"session": "s1"}),
    ]


def _texts(value: Any, where: str) -> Iterator[tuple[str, list[Any]]]:
    """Every text in `value` (a key of a mapping too), with where the facade should say it is."""
    if isinstance(value, str):
        yield where, []
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from ((w, [key, *p]) for w, p in _texts(item, f"{where}.{key}"))
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from ((w, [i, *p]) for w, p in _texts(item, f"{where}[{i}]"))


def _spoiled(value: Any, steps: list[Any], bad: str) -> Any:
    if not steps:
        return value[:1] + bad + value[1:]
    step, rest = steps[0], steps[1:]
    if isinstance(value, dict):
        return {**value, step: _spoiled(value[step], rest, bad)}
    items = list(value)
    items[step] = _spoiled(items[step], rest, bad)
    return type(value)(items)


def _held(mem: Memory) -> list[tuple[str, str, tuple[str, ...], str]]:
    every = [r for status in ("approved", "pending", "archived") for r in mem.list(status=status, limit=500)]
    return sorted((r.id, r.content, tuple(r.tags), str(r.status)) for r in every)


@pytest.fixture
def store(db_location: str | Path, settings: Settings, tmp_path: Path) -> Iterator[tuple[Memory, str, str]]:
    with Memory(db_location, embedder=FakeEmbedder(), settings=settings) as mem:
        known = mem.remember("the spare key is under the blue pot", tags=["keys"], scope_id="proj").id
        waiting = mem.ingest([{"role": "user", "content": "Remind me to call the plumber tomorrow"}])
        pending = [r.id for r in mem.pending()]
        (tmp_path / "notes.md").write_text("# Notes\n\nThe gate code is on the fridge.\n")
        yield mem, known, pending[0] if pending else str(waiting)


@pytest.mark.parametrize("bad", BAD, ids=list(BAD))
def test_every_method_refuses_unfit_text_naming_it(
    store: tuple[Memory, str, str], tmp_path: Path, bad: str
) -> None:
    mem, known, waiting = store
    calls = _calls(mem, known, waiting, tmp_path)
    takes_text = {
        name
        for name, method in inspect.getmembers(Memory, inspect.isfunction)
        if not name.startswith("_") and len(inspect.signature(method).parameters) > 1
    }
    assert takes_text - NO_TEXT == {name for name, _ in calls}  # a method added later is added here too
    before = _held(mem)
    tried = 0
    for name, arguments in calls:
        for where, steps in _texts(arguments, ""):
            field = where.removeprefix(".")
            spoiled = _spoiled(arguments, steps, BAD[bad])
            with pytest.raises(InvalidInput) as refused:
                getattr(mem, name)(**spoiled)
            assert refused.value.field == field, (name, field, refused.value)
            assert ("NUL" if bad == "nul" else "surrogate") in refused.value.problem
            tried += 1
    assert tried > 100
    assert _held(mem) == before
    assert mem.recall("the spare key")[0].record.id == known  # on PostgreSQL, no transaction left broken


def test_positional_and_keyword_arguments_are_named_alike(store: tuple[Memory, str, str]) -> None:
    mem, known, _ = store
    for call, field in (
        (lambda: mem.get("a\x00b"), "memory_id"),
        (lambda: mem.remember("a\x00b"), "content"),
        (lambda: mem.rename_tag("keys", "do\x00ors"), "new"),
        (lambda: mem.review_many("approve", ids=[known, "x\x00"]), "ids[1]"),
        (lambda: mem.remember("ok", metadata={"n\x00": 1}), "metadata"),
    ):
        with pytest.raises(InvalidInput) as refused:
            call()
        assert refused.value.field == field
    assert mem.get(known).content == "the spare key is under the blue pot"
