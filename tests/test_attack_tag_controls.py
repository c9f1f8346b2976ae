"""A tag with a control character in it (a bell, an escape, a delete, a C1 control): a page and a terminal show
none of them, yet each made a tag of its own, so a memory tagged "dep<BEL>loy" escaped the listing and the
forget_by_tag of "deploy" it shows as, through every door that takes tags and through an import of another
store's file. Invisible formatting characters were already dropped from a tag; controls are now dropped as well
(a line break or a tab still joins words with a hyphen, as any space does)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from engram import Memory

CONTROLS = ["dep\x07loy", "deploy\x1b", "\x7fdeploy", "de\x9bploy", "dep\x08loy", "\x01deploy\x1f"]


@pytest.mark.parametrize("hidden", CONTROLS)
def test_a_tag_with_a_control_character_is_the_tag_it_shows_as(mem: Memory, hidden: str) -> None:
    plain = mem.remember("the deploy runs on Fridays", tags=["deploy"]).id
    spoofed = mem.remember("the rollback runs on Mondays", tags=[hidden]).id
    assert all(t.isprintable() for t in mem.get(spoofed).tags), mem.get(spoofed).tags
    listed = {m["id"] for m in mem.run_tool("list_memories", tag="deploy")["memories"]}
    assert spoofed in listed
    assert sorted(mem.run_tool("forget_by_tag", tag="deploy", confirm=True)["ids"]) == sorted(
        [plain, spoofed]
    )
    assert mem.stats()["memories"] == 0


def test_a_line_break_in_a_tag_still_joins_its_words(mem: Memory) -> None:
    memory = mem.remember("a note", tags=["two\nwords", "tab\there"]).id
    assert mem.get(memory).tags == ("two-words", "tab-here")


def test_an_imported_tag_with_an_escape_sequence_is_stored_without_it(
    api: TestClient, tmp_path: Path
) -> None:
    content = "the rollback runs on Mondays"
    record = {
        "id": "imported-1",
        "content": content,
        "content_hash": hashlib.sha256(content.encode()).hexdigest(),
        "type": "Observation",
        "tags": ["deploy\x1b[8m", "dep\x07loy"],
        "created_at": "2026-01-05T10:00:00Z",
    }
    header = {"format": "shodh-memory+jsonl"}
    body = f"{json.dumps(header)}\n{json.dumps(record)}\n".encode()
    answer = api.post("/v1/import", content=body, headers={"Content-Type": "application/x-ndjson"})
    assert answer.status_code == 200, answer.text
    tags = api.get("/v1/memories/imported-1").json()["tags"]
    assert all(t.isprintable() for t in tags), tags
    assert "deploy" in tags
    listed = api.get("/v1/memories", params={"tag": "deploy"}).json()["memories"]
    assert [m["id"] for m in listed] == ["imported-1"]
