"""A forget of a memory that had replaced others (a supersede's newer version, a merge's kept memory) archives
what it replaced (test_attack_forget_successor); its answer said only the id deleted, so a user could not tell
that other memories had left the answers, nor which. Every door's answer names them, and they are kept."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from engram import Memory, Settings, Status
from engram.embed.embedder import CachedEmbedder
from engram.interfaces.cli.app import app
from tests.clients import api  # noqa: F401 (a fixture)


def _replaced(mem: Memory) -> tuple[str, str, str]:
    """A memory merged into another, and an older version superseded by it: ids (folded, older, newer)."""
    folded = mem.remember("The boiler service engineer is called Mirela Vantongeren").id
    older = mem.remember("Our padel court booking is on Wednesdays at Quinta Verde").id
    newer = mem.supersede(older, "Our padel court booking moved to Fridays at Quinta Verde").id
    mem.run_tool("merge_memories", ids=[newer, folded], into=newer)
    assert mem.get(folded).status is Status.SUPERSEDED and mem.get(older).status is Status.SUPERSEDED
    return folded, older, newer


def test_the_tool_answer_names_the_memories_a_forget_archived(mem: Memory) -> None:
    folded, older, newer = _replaced(mem)
    answer = mem.run_tool("forget", id=newer)
    assert answer["deleted"] is True and answer["id"] == newer
    assert sorted(answer["archived"]) == sorted([folded, older])
    assert {mem.get(i).status for i in (folded, older)} == {Status.ARCHIVED}
    lone = mem.remember("a note that replaced nothing").id
    assert mem.forget(lone)["archived"] == []


def test_forget_by_tag_names_what_it_archived_and_not_what_it_deleted(mem: Memory) -> None:
    folded, older, newer = _replaced(mem)
    mem.update(newer, tags=["padel"])
    answer = mem.forget_by_tag("padel", confirm=True)
    assert answer["ids"] == [newer] and sorted(answer["archived"]) == sorted([folded, older])


def test_the_rest_and_shodh_answers_name_them(api: TestClient) -> None:  # noqa: F811
    def merged(kept_text: str, folded_text: str) -> tuple[str, str]:
        ids = [
            api.post("/v1/store", json={"content": t}).json()["memory_id"] for t in (kept_text, folded_text)
        ]
        answer = api.post("/v1/tools/merge_memories", json={"arguments": {"ids": ids, "into": ids[0]}})
        assert answer.status_code == 200, answer.text
        return ids[0], ids[1]

    kept, folded = merged(
        "Plumbing contact: call Hostetler Heating", "The boiler engineer is Mirela Vantongeren"
    )
    deleted = api.delete(f"/v1/memories/{kept}")
    assert deleted.status_code == 200 and deleted.json()["archived"] == [folded], deleted.text
    kept, folded = merged("Padel is on Fridays at Quinta Verde", "Padel was on Wednesdays at Quinta Verde")
    shodh = api.delete(f"/api/forget/{kept}")
    assert shodh.status_code == 200 and shodh.json()["archived"] == [folded], shodh.text
    assert api.get(f"/v1/memories/{folded}").json()["status"] == "archived"


def test_the_cli_says_which_it_archived(tmp_path: Path, model: CachedEmbedder) -> None:
    db = tmp_path / "cli.db"
    with Memory(db, embedder=model, settings=Settings(home=tmp_path / "home")) as mem:
        folded, older, newer = _replaced(mem)
    runner = CliRunner()
    shown = runner.invoke(app, ["--db", str(db), "forget", newer, "--yes", "--json"])
    assert shown.exit_code == 0, shown.output
    assert sorted(json.loads(shown.output)["archived"]) == sorted([folded, older])
    with Memory(db, embedder=model, settings=Settings(home=tmp_path / "home")) as mem:
        folded, older, newer = _replaced(mem)
    said = runner.invoke(app, ["--db", str(db), "forget", newer, "--yes"])
    assert folded in said.output and older in said.output, said.output
