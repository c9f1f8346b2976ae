"""A list's cursor is opaque to the caller but comes back from it, so it is input like any other: a cursor
naming a time past the calendar once in UTC (year 9999 at -14:00, year 1 at +14:00) or an id no store can hold
(a lone surrogate) answered 500 on /v1/memories and through the list_memories tool. Each is refused naming
`cursor`, and the listing still works afterwards."""

from __future__ import annotations

import base64
import json

import pytest
from fastapi.testclient import TestClient

from engram import FakeEmbedder, Memory, Settings
from engram.errors import InvalidInput

OUT_OF_RANGE = ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00"]


def _rest_cursor(created: str, memory_id: str) -> str:
    return base64.urlsafe_b64encode(json.dumps([created, memory_id]).encode()).decode()


@pytest.mark.parametrize(
    ("created", "memory_id"),
    [*((at, "x") for at in OUT_OF_RANGE), ("2024-01-01T00:00:00+00:00", "\ud800")],
)
def test_a_forged_rest_cursor_is_refused_naming_it(api: TestClient, created: str, memory_id: str) -> None:
    for i in range(3):
        assert api.post("/v1/store", json={"content": f"note {i} about tea"}).status_code == 200
    r = api.get("/v1/memories", params={"cursor": _rest_cursor(created, memory_id)})
    assert r.status_code == 400, r.text
    assert r.json()["field"] == "cursor"
    first = api.get("/v1/memories", params={"limit": 2}).json()
    rest = api.get("/v1/memories", params={"cursor": first["next_cursor"]}).json()
    assert len(first["memories"]) == 2 and len(rest["memories"]) == 1


@pytest.mark.parametrize("created", OUT_OF_RANGE)
def test_a_forged_tool_cursor_is_refused_naming_it(
    tmp_path: object, settings: Settings, created: str
) -> None:
    cursor = base64.urlsafe_b64encode(f"{created}|x".encode()).decode()
    with Memory(settings.home / "t.db", embedder=FakeEmbedder(), settings=settings) as mem:
        mem.remember("a note about the garden")
        with pytest.raises(InvalidInput) as caught:
            mem.run_tool("list_memories", cursor=cursor)
        assert caught.value.field == "cursor"
        assert len(mem.run_tool("list_memories")["memories"]) == 1
