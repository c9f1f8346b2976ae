"""What a forget cannot reach: a backup or an export made before it still holds the text, and restoring or
importing one brings the memory back. Every door that forgets says so in its answer, so that a person who asked
for the text to be gone knows where else it is."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from engram import FakeEmbedder, Memory, Settings
from engram.interfaces.cli.app import app

MARK = "qzvjkwpx4417"


def test_a_forget_says_that_earlier_backups_and_exports_still_hold_the_text(
    tmp_path: Path, settings: Settings
) -> None:
    files = tmp_path / "files"
    with Memory(tmp_path / "a.db", embedder=FakeEmbedder(), settings=settings, files=files) as mem:
        memory = mem.remember(f"the vault code is {MARK}", tags=["vault"]).id
        mem.backup_restore("backup", "before.db")
        mem.export_memories("before.jsonl")
        answer = mem.run_tool("forget", id=memory)
        assert answer["deleted"] is True and "backups and exports" in answer["note"]
        by_tag = mem.run_tool("forget_by_tag", tag="vault", confirm=True)
        assert "backups and exports" in by_tag["note"]
        # What the note says is so: the copies hold the text and give the memory back.
        assert MARK.encode() in (files / "before.jsonl").read_bytes()
        mem.import_memories("before.jsonl")
        assert MARK in mem.get(memory).content


def test_rest_and_the_cli_say_it_too(api: TestClient, tmp_path: Path) -> None:
    memory = api.post("/v1/store", json={"content": f"the vault code is {MARK}"}).json()["memory_id"]
    deleted = api.delete(f"/v1/memories/{memory}").json()
    assert deleted["deleted"] is True and "backups and exports" in deleted["note"]
    memory = api.post("/v1/store", json={"content": f"the safe code is {MARK}"}).json()["memory_id"]
    tool = api.post("/v1/tools/forget", json={"arguments": {"id": memory}}).json()
    assert "backups and exports" in tool["note"]

    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    made = [
        runner.invoke(app, ["--db", db, "remember", f"note {i} holds {MARK}", "--json"]) for i in range(2)
    ]
    first, second = (json.loads(m.output)["id"] for m in made)
    said = runner.invoke(app, ["--db", db, "forget", first, "--yes"])
    assert said.exit_code == 0 and "backups and exports" in " ".join(said.output.split())
    said = runner.invoke(app, ["--db", db, "forget", second, "--yes", "--json"])
    assert said.exit_code == 0 and "backups and exports" in json.loads(said.output)["note"]


def test_a_tag_only_the_forgotten_memory_carried_is_gone_from_tag_history_too(
    db_location: str | Path, settings: Settings
) -> None:
    """A tag is read from the text (a keyphrase of it) or given with it; renamed or folded by optimize_tags, its
    name stayed in the operation's summary and in the old name's pointer to it after the memory was forgotten."""
    from tests.test_forget_trace import traces

    with Memory(db_location, embedder=FakeEmbedder(), settings=settings) as mem:
        mem.remember("note about the garden and the kitchen", tags=["garden"])
        memory = mem.remember(f"the vault code is {MARK}", tags=["vault"]).id
        mem.run_tool("rename_tag", old="vault", new=f"vault-{MARK}")
        mem.run_tool("rename_tag", old="garden", new="the-garden")
        assert traces(mem, db_location, MARK)
        mem.forget(memory)
        assert traces(mem, db_location, MARK) == []
        # The history of other tags stays as it was.
        renames = [o for o in mem.store.operations(50) if o["name"] == "rename_tag"]
        assert any("the-garden" in json.dumps(o) for o in renames)
        assert mem.tag_counts() == {"the-garden": 1}
