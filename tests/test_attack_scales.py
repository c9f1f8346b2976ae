"""Importance has two scales: a memory's own (0 to 1: remember, update_memory, PATCH, the CLI) and store_memory's
and search_memory's (1 to 5). A value on the wrong one is refused on every door with the field named, the range it
takes, and the other scale said, so a caller who mixed them up sees why."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from engram import InvalidInput, Memory


@pytest.mark.parametrize("value", [3, 5, -1, 1.5])
def test_a_memorys_importance_off_its_scale_names_both_scales(mem: Memory, value: float) -> None:
    memory = mem.remember("the deploy happened on a Friday").id
    for refused in (
        lambda: mem.update(memory, importance=value),
        lambda: mem.run_tool("update_memory", id=memory, importance=value),
        lambda: mem.remember("another note", importance=value),
    ):
        with pytest.raises(InvalidInput) as caught:
            refused()
        assert caught.value.field == "importance"
        assert "0 (trivial) to 1 (critical)" in caught.value.problem and "1 to 5" in caught.value.problem
    assert mem.get(memory).importance == 0.5 and mem.stats()["memories"] == 1


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        (
            "store_memory",
            {"content": "a note", "context": {"force_importance": 0.5}},
            "context.force_importance",
        ),
        (
            "store_memory",
            {"content": "a note", "context": {"force_importance": 9}},
            "context.force_importance",
        ),
        ("search_memory", {"query": "a note", "options": {"importance_min": 0.5}}, "options.importance_min"),
    ],
)
def test_the_one_to_five_scale_off_its_range_names_both_scales(
    mem: Memory, tool: str, arguments: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        mem.run_tool(tool, **arguments)
    assert caught.value.field == field
    assert "1 (trivial) to 5 (critical)" in caught.value.problem and "0 to 1" in caught.value.problem
    assert mem.stats()["memories"] == 0


def test_rest_says_the_scale_on_patch_and_store(api: TestClient) -> None:
    memory = api.post("/v1/store", json={"content": "the deploy happened on a Friday"}).json()["memory_id"]
    patched = api.patch(f"/v1/memories/{memory}", json={"importance": 4})
    assert patched.status_code == 400 and patched.json()["field"] == "importance"
    assert "0 (trivial) to 1 (critical)" in patched.json()["detail"]
    stored = api.post("/v1/store", json={"content": "a note", "context": {"force_importance": 0.8}})
    assert stored.status_code == 400 and stored.json()["field"] == "context.force_importance"
    assert "1 (trivial) to 5 (critical)" in stored.json()["detail"]
    assert api.get(f"/v1/memories/{memory}").json()["importance"] == 0.5
