"""After an explicit forget over REST the text is found nowhere a tenant or an attacker can look afterwards: the
database's files byte by byte on SQLite (the vector graph's file: test_attack_forget_graph_file.py) and every
row of every table on PostgreSQL, and everything made or shown after the forget: an export through the
tool and `GET /v1/export`, a backup (its bytes), the web UI's history (the operations tool), the review queue,
the audit log, listings, searches, tags, timeline and concept network. Copies made before the forget may hold
it (and the forget's answer says so)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engram import FakeEmbedder, Settings
from engram.interfaces.http.serve import build_app
from engram.interfaces.tenants import LOCAL
from tests.test_forget_trace import traces

MARK = "qzvjkwpx4417"


@pytest.fixture
def served(db_location: str | Path, tmp_path: Path) -> Iterator[tuple[TestClient, Any, Path]]:
    home = tmp_path / "home"
    app = build_app(
        Settings(home=home, maintain_every_minutes=0),
        db=db_location,
        embedder=FakeEmbedder(),
        require_key=False,
    )
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        yield client, app.state.tenants.memory(LOCAL), home / "files" / LOCAL


def _ok(answer: Any) -> Any:
    assert answer.status_code < 300, (answer.request.url, answer.text[:300])
    return answer.json() if answer.headers["content-type"].startswith("application/json") else answer.text


def _tool(client: TestClient, name: str, **arguments: Any) -> Any:
    return _ok(client.post(f"/v1/tools/{name}", json={"arguments": arguments}))


def test_nothing_made_or_shown_after_a_forget_holds_the_text(
    served: tuple[TestClient, Any, Path], db_location: str | Path
) -> None:
    client, mem, files = served
    for i in range(60):
        _ok(client.post("/v1/store", json={"content": f"note {i} about the garden and the kitchen shed"}))
    stored = _tool(client, "remember", content=f"the alarm code is {MARK} at the back", tags=[f"code-{MARK}"])
    secret = stored.get("memory_id") or stored["id"]
    _ok(
        client.patch(f"/v1/memories/{secret}", json={"content": f"the alarm code is {MARK} at the back door"})
    )
    waiting = mem.remember(f"ask the landlord about {MARK}", status="pending").id
    _tool(client, "rename_tag", old=f"code-{MARK}", new=f"alarm-{MARK}")
    _tool(client, "export_memories", path="before.jsonl")  # a copy made before: it may keep the text
    _tool(client, "backup_restore", action="backup", path="before.db")
    assert traces(mem, db_location, MARK)

    for memory_id in (secret, waiting):
        answer = _ok(client.delete(f"/v1/memories/{memory_id}"))
        assert "backup" in json.dumps(answer) or "export" in json.dumps(answer), answer  # copies made before

    _tool(client, "export_memories", path="after.jsonl")
    _tool(client, "export_memories", path="after-vectors.jsonl", with_embeddings=True)
    _tool(client, "backup_restore", action="backup", path="after.db")
    made = [p for p in files.iterdir() if p.name.startswith("after")]
    assert len(made) >= 3, made
    for copy in made:
        assert MARK.encode() not in copy.read_bytes() and MARK[4:].encode() not in copy.read_bytes(), (
            copy.name
        )
    shown = [
        client.get("/v1/export", params={"with_embeddings": True}).text,
        json.dumps(_tool(client, "operations", limit=50)),  # the web UI's history
        json.dumps(_tool(client, "review_memories", action="list")),  # the review queue
        json.dumps(_ok(client.get("/v1/memories", params={"limit": 100, "status": "pending"}))),
        json.dumps(_ok(client.get("/v1/audit", params={"limit": 500}))),
        json.dumps(_ok(client.get("/v1/memories", params={"limit": 100}))),
        json.dumps(_ok(client.get("/v1/tags"))),
        json.dumps(_ok(client.post("/v1/search", json={"query": "alarm code at the back door"}))),
        json.dumps(_ok(client.post("/v1/recall", json={"query": "alarm code at the back door"}))),
        json.dumps(_tool(client, "memory_timeline", granularity="day")),
        json.dumps(_tool(client, "concept_network")),
        json.dumps(_ok(client.get("/v1/stats"))),
    ]
    for i, text in enumerate(shown):
        assert MARK[4:] not in text, (i, text[text.find(MARK[4:]) - 200 :][:400])
    # The database itself: every file beside it on SQLite, every table on PostgreSQL.
    assert traces(mem, db_location, MARK) == []
    assert mem.store.integrity() == []
    # The copies made before are what the forget's answer warned of: they still hold it.
    assert MARK.encode() in (files / "before.jsonl").read_bytes()
