"""The REST routes the web UI's management pages call (engram/interfaces/http/manage.py), over HTTP against a real
server with API keys: bulk review, tags with counts, export as a download, import from an upload, rendered text.
Each key acts for its own tenant: its export holds only its memories, and no scratch file stays behind."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.live import LiveServer as Running


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    server = Running(tmp_path_factory.mktemp("manage"), require_key=True)
    yield server
    server.stop()


def _client(running: Running, tenant: str) -> httpx.Client:
    headers = {"Authorization": f"Bearer {running.key(tenant)}"}
    return httpx.Client(timeout=60, base_url=running.url, headers=headers)


@pytest.fixture(scope="module")
def alice(running: Running) -> Iterator[httpx.Client]:
    with _client(running, "alice") as c:
        yield c


@pytest.fixture(scope="module")
def bob(running: Running) -> Iterator[httpx.Client]:
    with _client(running, "bob") as c:
        yield c


def _store(client: httpx.Client, content: str, **context: Any) -> str:
    body: dict[str, Any] = {"content": content} | ({"context": context} if context else {})
    answer = client.post("/v1/store", json=body)
    answer.raise_for_status()
    return str(answer.json()["memory_id"])


def test_bulk_review_decides_on_the_ids_given(alice: httpx.Client) -> None:
    ids = [_store(alice, f"Pending note {i}: the shed key is under pot {i}") for i in range(3)]
    for memory_id in ids:
        alice.patch(f"/v1/memories/{memory_id}", json={"status": "pending"}).raise_for_status()
    answer = alice.post("/v1/review", json={"action": "approve", "ids": ids[:2]})
    assert answer.status_code == 200
    assert answer.json() == {"action": "approve", "reviewed": 2, "ids": ids[:2]}
    statuses = [alice.get(f"/v1/memories/{i}").json()["status"] for i in ids]
    assert statuses == ["approved", "approved", "pending"]
    refused = alice.post("/v1/review", json={"action": "edit", "ids": ids[2:]})
    assert refused.status_code == 400 and refused.json()["field"] == "action"
    missing = alice.post("/v1/review", json={"action": "reject", "ids": [ids[2], "no-such-id"]})
    assert missing.status_code == 404
    assert alice.get(f"/v1/memories/{ids[2]}").json()["status"] == "pending"  # nothing half-done


def test_tags_come_with_their_counts_most_used_first(bob: httpx.Client) -> None:
    _store(bob, "Water the fern on Sundays", additional_tags=["plants", "weekly"])
    _store(bob, "Repot the cactus in spring", additional_tags=["plants"])
    tags = bob.get("/v1/tags").json()["tags"]
    counts = {t["name"]: t["count"] for t in tags}
    assert counts["plants"] == 2 and counts["weekly"] == 1
    assert [t["count"] for t in tags] == sorted((t["count"] for t in tags), reverse=True)


def test_export_is_a_download_of_the_callers_memories_only(
    running: Running, alice: httpx.Client, bob: httpx.Client
) -> None:
    mine = _store(alice, "Alice's bike is the green one")
    _store(bob, "Bob's bike is the red one")
    answer = alice.get("/v1/export")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/x-ndjson")
    assert answer.headers["content-disposition"].startswith('attachment; filename="engram-export-')
    lines = [json.loads(line) for line in answer.text.splitlines()]
    assert lines[0]["format"] == "shodh-memory+jsonl" and lines[0]["model"] is None  # no embeddings asked
    contents = {r["content"] for r in lines[1:]}
    assert "Alice's bike is the green one" in contents and "Bob's bike is the red one" not in contents
    assert mine in {r["id"] for r in lines[1:]}
    assert "embedding" not in lines[1] or lines[1]["embedding"] is None
    with_vectors = alice.get("/v1/export", params={"with_embeddings": "true"})
    assert json.loads(with_vectors.text.splitlines()[0])["dim"] == 64
    files = running.settings.home / "files" / "alice"
    assert list(files.iterdir()) == []  # the scratch file is gone


def test_import_takes_an_upload_as_one_operation(running: Running, alice: httpx.Client) -> None:
    source = _store(alice, "The spare fuse is in the kitchen drawer")
    exported = alice.get("/v1/export").text
    with _client(running, "carol") as carol:
        answer = carol.post("/v1/import", content=exported, headers={"Content-Type": "application/x-ndjson"})
        assert answer.status_code == 200, answer.text
        report = answer.json()
        assert report["imported"] == len(exported.splitlines()) - 1 and report["skipped"] == 0
        assert (
            carol.get(f"/v1/memories/{source}").json()["content"] == "The spare fuse is in the kitchen drawer"
        )
        again = carol.post("/v1/import", content=exported).json()
        assert again["imported"] == 0 and again["skipped"] == report["imported"]
        undone = carol.post(
            "/v1/tools/rollback", json={"arguments": {"operation_id": report["operation_id"]}}
        )
        assert undone.status_code == 200
        assert carol.get(f"/v1/memories/{source}").status_code == 404
        empty = carol.post("/v1/import", content=b"  \n")
        assert empty.status_code == 400 and empty.json()["field"] == "file"
        bad = carol.post("/v1/import", content=b'{"format": "shodh-memory+jsonl"}\nnot json\n')
        assert bad.status_code == 400 and bad.json()["field"] == "line 2"
        assert carol.get("/v1/stats").json()["memories"] == 0
        assert list((running.settings.home / "files" / "carol").iterdir()) == []


def test_rendered_text_escapes_html_and_script_links(bob: httpx.Client) -> None:
    doc = _store(bob, "# Notes\n\n<script>alert(1)</script> [x](javascript:alert(1)) **bold**")
    html = bob.get(f"/v1/memories/{doc}/rendered").json()["html"]
    assert "<h1>Notes</h1>" in html and "<strong>bold</strong>" in html
    assert "<script>" not in html and "&lt;script&gt;" in html and 'href="javascript' not in html
    assert bob.get("/v1/memories/no-such-id/rendered").status_code == 404
