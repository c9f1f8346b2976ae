"""Two tenants of one PostgreSQL database (a schema each), over REST with their own keys: bob, holding alice's
memory ids, her operation ids, her list cursor and the names of her export and backup files, reaches none of
them. Each attempt answers as for an id bob never had (404, or a refusal naming the field), and alice's store
is what she left it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engram import FakeEmbedder, Settings
from engram.config import split_schema
from engram.interfaces.http.serve import build_app
from engram.interfaces.tenants import Keys, schema_of

SECRET = "alice's vault code is 4417"


@pytest.fixture
def server(pg_server: str, tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, dict[str, str]]]]:
    import psycopg

    from engram.config import with_schema

    local = with_schema(pg_server, f"local_{tmp_path.name[-12:].replace('-', '_').lower()}")
    settings = Settings(home=tmp_path, maintain_every_minutes=0)
    keys = Keys(tmp_path / "keys.db")
    names = ("alice-pg", "bob-pg")
    headers = {name: {"X-API-Key": keys.create(name)[1]} for name in names}
    app = build_app(settings, db=local, embedder=FakeEmbedder(), require_key=True)
    try:
        with TestClient(app, base_url="http://127.0.0.1:8765") as client:
            yield client, headers
    finally:
        with psycopg.connect(split_schema(local)[0], autocommit=True) as db:
            for schema in [split_schema(local)[1], *(schema_of(n) for n in names)]:
                db.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'.encode())


def _ok(answer: Any) -> Any:
    assert answer.status_code < 300, answer.text
    return answer.json()


def test_bob_reaches_nothing_of_alices_with_her_ids_cursors_and_files(
    server: tuple[TestClient, dict[str, dict[str, str]]],
) -> None:
    client, keys = server
    alice, bob = keys["alice-pg"], keys["bob-pg"]
    ids = [
        _ok(client.post("/v1/store", json={"content": f"{SECRET} ({i})"}, headers=alice))["memory_id"]
        for i in range(3)
    ]
    _ok(
        client.post(
            "/v1/tools/store_memory", json={"arguments": {"content": "renew the permit"}}, headers=alice
        )
    )
    merge = _ok(
        client.post(
            "/v1/tools/merge_memories", json={"arguments": {"ids": ids[:2], "into": ids[0]}}, headers=alice
        )
    )
    cursor = _ok(client.get("/v1/memories", params={"limit": 1}, headers=alice))["next_cursor"]
    _ok(client.post("/v1/tools/export_memories", json={"arguments": {"path": "alice.jsonl"}}, headers=alice))
    _ok(
        client.post(
            "/v1/tools/backup_restore",
            json={"arguments": {"action": "backup", "path": "alice.db"}},
            headers=alice,
        )
    )
    _ok(client.post("/v1/store", json={"content": "bob's own note"}, headers=bob))
    before = _ok(client.get("/v1/memories", params={"limit": 100}, headers=alice))

    target = ids[2]
    attempts = [
        client.get(f"/v1/memories/{target}", headers=bob),
        client.get(f"/v1/memories/{target}/rendered", headers=bob),
        client.patch(f"/v1/memories/{target}", json={"importance": 0.1}, headers=bob),
        client.post(f"/v1/memories/{target}/feedback", json={"helpful": False}, headers=bob),
        client.delete(f"/v1/memories/{target}", headers=bob),
        client.post("/v1/review", json={"action": "reject", "ids": [target]}, headers=bob),
        client.post("/v1/tools/forget", json={"arguments": {"id": target}}, headers=bob),
        client.post(
            "/v1/tools/update_memory", json={"arguments": {"id": target, "tags": ["x"]}}, headers=bob
        ),
        client.post(
            "/v1/tools/merge_memories",
            json={"arguments": {"ids": [target, target], "into": target}},
            headers=bob,
        ),
        client.post(
            "/v1/tools/rollback", json={"arguments": {"operation_id": merge["operation_id"]}}, headers=bob
        ),
        client.post(
            "/v1/tools/backup_restore",
            json={"arguments": {"action": "restore", "path": "../alice-pg/alice.db"}},
            headers=bob,
        ),
        client.post(
            "/v1/tools/backup_restore",
            json={"arguments": {"action": "restore", "path": "alice.db"}},
            headers=bob,
        ),
        client.post("/v1/tools/import_memories", json={"arguments": {"path": "alice.jsonl"}}, headers=bob),
        client.delete(f"/api/forget/{target}", headers=bob),
        client.get(f"/api/memories/{target}", headers=bob),
    ]
    for answer in attempts:
        assert 400 <= answer.status_code < 500, (answer.request.url, answer.status_code, answer.text)
        assert answer.headers["content-type"].startswith("application/problem+json"), answer.text
        assert "4417" not in answer.text
    # Her cursor, her audit entries and her id in bob's queries show bob his own memories alone.
    seen = [
        client.get("/v1/memories", params={"cursor": cursor}, headers=bob),
        client.get("/v1/audit", params={"memory_id": target}, headers=bob),
        client.get("/v1/tools/operations", headers=bob),
        client.post("/v1/tools/operations", json={"arguments": {}}, headers=bob),
        client.post("/v1/search", json={"query": SECRET}, headers=bob),
        client.post("/v1/recall", json={"query": SECRET}, headers=bob),
        client.get("/v1/export", headers=bob),
    ]
    for answer in seen:
        assert "4417" not in answer.text and merge["operation_id"] not in answer.text, answer.request.url
    assert _ok(client.get("/v1/memories", params={"limit": 100}, headers=alice)) == before
