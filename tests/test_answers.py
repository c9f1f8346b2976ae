"""Every tool answers exactly the typed result the registry names (the shape MCP clients and the OpenAPI document
are told), field for field: a field added or dropped without its type fails here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from engram import InvalidInput, MaintainAnswer, Memory, StatsAnswer
from engram.agent.registry import TOOLS, tool


def _answer_of(name: str, answer: Any) -> None:
    spec = tool(name)
    assert spec is not None
    try:
        TypeAdapter(spec.answer).validate_python(answer)
    except ValidationError as exc:  # pragma: no cover - the message is the point
        pytest.fail(f"{name} answered a shape its type does not describe: {exc}")


def _arguments(mem: Memory, tmp_path: Path) -> dict[str, dict[str, Any]]:
    """Arguments that make each tool do real work on a small store."""
    first = mem.store_memory("Deploys go out on Thursdays after the standup")["memory_id"]
    second = mem.store_memory("The deploy window is Thursday afternoon")["memory_id"]
    third = mem.store_memory("Renew the TLS certificate before 3 March", {"force_category": "reminders"})
    mem.search_memory("deploy")  # usage to report
    mem.remember("The release checklist lives in the wiki", tags=["release-checklist"])
    export = tmp_path / "export.jsonl"
    return {
        "store_memory": {"content": "I prefer tea in the evening", "context": {"additional_tags": ["tea"]}},
        "search_memory": {"query": "when do deploys go out", "options": {"min_relevance": 0}},
        "discover_memory_tools": {},
        "remember": {
            "content": "The staging database runs PostgreSQL 16",
            "scope": "project",
            "scope_id": "web",
        },
        "recall": {"query": "deploy", "mode": "related"},
        "memory_stats": {},
        "optimize_tags": {"dry_run": True},
        "rename_tag": {"old": "release-checklist", "new": "checklists"},
        "merge_memories": {"ids": [first, second]},
        "memory_timeline": {"granularity": "day"},
        "concept_network": {},
        "usage_patterns": {"top": 3},
        "export_memories": {"path": str(export)},
        "import_memories": {"path": str(export)},
        "backup_restore": {"action": "backup", "path": str(tmp_path / "backup.db")},
        "trace_search": {"query": "deploy schedule"},
        "validate_storage": {},
        "repair_index": {},
        "operations": {"limit": 5},
        "session_context": {"query": "deploy", "max_tokens": 300},
        "list_memories": {"limit": 2},
        "update_memory": {"id": third["memory_id"], "content": "Renew the TLS certificate before 4 March"},
        "review_memories": {},
        "ingest_conversation": {"messages": [{"role": "user", "content": "I moved to Lisbon in May"}]},
    }


def test_every_tool_answers_its_typed_result(mem: Memory, tmp_path: Path) -> None:
    arguments = _arguments(mem, tmp_path)
    answered: dict[str, Any] = {}
    for name, given in arguments.items():
        spec = tool(name)
        session = {"session": "s1"} if spec is not None and spec.session else {}
        answered[name] = mem.run_tool(name, **session, **given)
        _answer_of(name, answered[name])
    done = answered["merge_memories"]["operation_id"]
    _answer_of("rollback", mem.run_tool("rollback", operation_id=done))
    forgotten = mem.remember("A memory to forget").id
    _answer_of("forget", mem.run_tool("forget", id=forgotten))
    mem.remember("A memory to forget by its tag", tags=["scratch"])
    _answer_of("forget_by_tag", mem.run_tool("forget_by_tag", tag="scratch", confirm=True))
    assert {t.name for t in TOOLS} == {*arguments, "rollback", "forget", "forget_by_tag"}, (
        "a tool without a case here"
    )


def test_library_results_are_the_typed_ones(mem: Memory) -> None:
    mem.remember("Water the plants on Sunday")
    TypeAdapter(StatsAnswer).validate_python(mem.stats())
    TypeAdapter(MaintainAnswer).validate_python(mem.maintain())


def test_run_tool_names_what_is_wrong_as_the_method_would(mem: Memory) -> None:
    """Arguments inside an argument (search_memory's options) are checked by the method they go to, naming the
    field inside; a tool that does not show session memories takes no session."""
    with pytest.raises(InvalidInput) as err:
        mem.run_tool("trace_search", query="x", options={"bogus": 1})
    assert err.value.field == "options.bogus" and "is not a search option" in err.value.problem
    with pytest.raises(InvalidInput) as err:
        mem.run_tool("rollback")
    assert err.value.field == "operation_id" and err.value.problem == "Missing required argument"
    with pytest.raises(InvalidInput) as err:
        mem.run_tool("memory_stats", session="s1")
    assert err.value.field == "session"
