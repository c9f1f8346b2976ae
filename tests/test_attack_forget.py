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
    made = [runner.invoke(app, ["--db", db, "remember", f"note {i} holds {MARK}", "--json"]) for i in range(2)]
    first, second = (json.loads(m.output)["id"] for m in made)
    said = runner.invoke(app, ["--db", db, "forget", first, "--yes"])
    assert said.exit_code == 0 and "backups and exports" in " ".join(said.output.split())
    said = runner.invoke(app, ["--db", db, "forget", second, "--yes", "--json"])
    assert said.exit_code == 0 and "backups and exports" in json.loads(said.output)["note"]
