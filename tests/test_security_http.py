"""The server as an attacker meets it: hostile JSON (deep, huge, invalid Unicode, wrong types), other hosts and
other sites in local mode, another tenant's MCP session, unexpected errors, the web UI's headers.

A real uvicorn server per module (one behind keys, one in local mode) on a free loopback port, the fake embedder."""

from __future__ import annotations

import json
import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from engram import FakeEmbedder, InvalidInput, Memory, Settings
from engram.interfaces.http.serve import build_app
from engram.interfaces.tenants import LOCAL, Keys
from tests.live import MCP_INIT, LiveServer


def _deep(levels: int, leaf: Any = "x") -> Any:
    value = leaf
    for _ in range(levels):
        value = {"k": value}
    return value


def _deep_text(levels: int) -> str:
    return '{"k":' * levels + "1" + "}" * levels


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("keyed"), require_key=True, log_level="critical")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("local"), require_key=False, log_level="critical")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def mallory(keyed: LiveServer) -> Iterator[httpx.Client]:
    with keyed.client("mallory") as c:
        yield c


def _problem(r: httpx.Response, status: int | None = None, field: str | None = None) -> dict[str, Any]:
    assert r.headers["content-type"].startswith("application/problem+json"), (r.status_code, r.text[:300])
    body: dict[str, Any] = r.json()
    if status is not None:
        assert r.status_code == status, r.text[:300]
    if field is not None:
        assert body.get("field") == field, body
    return body


# ---- bounded JSON ------------------------------------------------------------------------------------------
def test_deep_metadata_is_refused_naming_the_field_and_the_tenant_stays_up(mallory: httpx.Client) -> None:
    for levels in (33, 100, 300, 500):
        r = mallory.post("/api/remember", json={"content": f"deep {levels}", "metadata": _deep(levels)})
        assert r.status_code == 400, (levels, r.text[:200])
        assert "nested deeper than" in _problem(r)["detail"]
    r = mallory.post("/api/remember", json={"content": "fine", "metadata": _deep(30)})
    assert r.status_code == 201, r.text
    assert _problem(
        mallory.post("/api/remember", json={"content": "d", "metadata": _deep(40)}), 400, "metadata"
    )
    assert mallory.get("/v1/memories").status_code == 200
    assert mallory.post("/v1/recall", json={"query": "deep"}).status_code == 200


def test_deep_patches_and_tool_arguments_are_refused(mallory: httpx.Client) -> None:
    memory_id = mallory.post("/v1/store", json={"content": "the patch target"}).json()["memory_id"]
    r = mallory.patch(f"/v1/memories/{memory_id}", json={"metadata": _deep(100)})
    assert "nested deeper than 32 levels" in _problem(r, 400, "metadata")["detail"]
    _problem(mallory.patch(f"/api/memories/{memory_id}", json={"metadata": _deep(50)}), 400, "metadata")
    r = mallory.post("/v1/tools/remember", json={"arguments": {"content": "x", "metadata": _deep(45)}})
    _problem(r, 400, "metadata")
    r = mallory.post("/v1/tools/merge_memories", json={"arguments": {"ids": [_deep(40)]}})
    _problem(r, 400, "ids")
    assert mallory.get(f"/v1/memories/{memory_id}").status_code == 200


@pytest.mark.parametrize("path", ["/v1/store", "/api/remember", "/v1/tools/remember", "/v1/recall", "/mcp"])
def test_a_body_nested_1500_deep_is_a_4xx_on_a_connection_that_stays_open(
    keyed: LiveServer, path: str
) -> None:
    key = keyed.key("deepbody")
    deep = _deep_text(900)  # parses; a validator recursing through it would not
    inside = {
        "/v1/store": '{"content": "x", "context": {"additional_tags": ' + deep + "}}",
        "/api/remember": '{"content": "x", "metadata": ' + deep + "}",
        "/v1/tools/remember": '{"arguments": {"content": "x", "metadata": ' + deep + "}}",
        "/v1/recall": '{"query": "x", "scope_id": ' + deep + "}",
        "/mcp": '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ' + deep + "}",
    }[path]
    with socket.create_connection(("127.0.0.1", keyed.port), timeout=30) as s:
        for body in (_deep_text(1500), inside, "[" * 400_000 + "]" * 400_000):
            first = _exchange(s, "POST", path, key, body.encode())
            assert 400 <= first[0] < 500, first
            if path == "/mcp":  # an MCP client reads JSON-RPC errors
                assert b'"jsonrpc":"2.0"' in first[2] and b'"error"' in first[2], first
            else:
                assert b"problem+json" in first[1].lower(), first
        second = _exchange(s, "GET", "/v1/stats", key, b"")  # the same connection answers again
    assert second[0] == 200


def _exchange(s: socket.socket, method: str, path: str, key: str, body: bytes) -> tuple[int, bytes, bytes]:
    """One HTTP/1.1 request on an open socket: (status, headers, body)."""
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{s.getpeername()[1]}\r\nAuthorization: Bearer {key}\r\n"
        f"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    s.sendall(head.encode() + body)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        assert chunk, "the server closed the connection"
        data += chunk
    headers, rest = data.split(b"\r\n\r\n", 1)
    length = next(
        int(line.split(b":", 1)[1])
        for line in headers.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(rest) < length:
        chunk = s.recv(65536)
        assert chunk, "the server closed the connection"
        rest += chunk
    return int(headers.split(b" ", 2)[1]), headers, rest[:length]


def test_a_store_holding_deep_metadata_from_an_older_version_still_reads(
    tmp_path: Path, settings: Settings
) -> None:
    db = tmp_path / "old.db"
    with Memory(db, embedder=FakeEmbedder(), settings=settings) as mem:
        memory_id = mem.remember("written by an older version").id
    with sqlite3.connect(db) as raw:  # what an older version let in: metadata 300 levels deep
        raw.execute(
            "UPDATE memories SET metadata = ? WHERE id = ?", (json.dumps(_deep(300, "leaf")), memory_id)
        )
    with Memory(db, embedder=FakeEmbedder(), settings=settings) as mem:
        record = mem.get(memory_id)
        assert "leaf" in json.dumps(record.metadata)  # kept, the part past the bound shown as its JSON text
        assert [r.id for r in mem.list()] == [memory_id]
        assert mem.recall("older version")[0].record.id == memory_id
        record.model_dump_json()  # what the API sends
        assert mem.export_memories(tmp_path / "out.jsonl")["exported"] == 1
        mem.update(memory_id, importance=0.9)  # an edit writes it back within the bounds
        assert mem.get(memory_id).importance == 0.9


def test_the_python_api_refuses_deep_json_before_storing(mem: Memory) -> None:
    with pytest.raises(InvalidInput, match="nested deeper than 32 levels") as caught:
        mem.remember("deep", metadata=_deep(33))
    assert caught.value.field == "metadata"
    with pytest.raises(InvalidInput) as caught:
        mem.run_tool("store_memory", content="deep", context=_deep(200))
    assert caught.value.field == "context"
    with pytest.raises(InvalidInput, match="larger than"):
        mem.remember("big", metadata={f"k{i}": "v" * 90_000 for i in range(20)})
    assert mem.count() == 0


# ---- bad text and wrong types --------------------------------------------------------------------------------
@pytest.mark.parametrize("field", ["scope_id", "user_id", "workspace_id", "query"])
def test_a_lone_surrogate_names_its_field(mallory: httpx.Client, field: str) -> None:
    body = {"query": "anything"} | {field: "a\ud800b"}
    r = mallory.post("/v1/recall", content=json.dumps(body), headers={"content-type": "application/json"})
    _problem(r, 400, field)


def test_a_lone_surrogate_anywhere_is_refused(mallory: httpx.Client) -> None:
    raw = json.dumps({"content": "ok", "metadata": {"a": ["fine", "\udfff"]}})
    r = mallory.post("/api/remember", content=raw, headers={"content-type": "application/json"})
    _problem(r, 400, "metadata.a[1]")


def test_a_nul_in_a_backup_path_is_refused(mallory: httpx.Client) -> None:
    r = mallory.post(
        "/v1/tools/backup_restore", json={"arguments": {"action": "restore", "path": "a\x00b.db"}}
    )
    assert "NUL" in _problem(r, 400, "path")["detail"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/context", {"context": "hello", "auto_ingest": 0}, "auto_ingest"),
        ("/api/recall", {"query": "x", "quality_weight": False}, "quality_weight"),
        ("/api/recall", {"query": "x", "quality_boost": "true"}, "quality_boost"),
        ("/api/recall", {"query": "x", "limit": "5"}, "limit"),
        ("/v1/recall", {"query": "x", "touch": 1}, "touch"),
        ("/v1/recall", {"query": "x", "limit": 2.0}, "limit"),
        ("/api/remember", {"content": "x", "credibility": True}, "credibility"),
    ],
)
def test_booleans_and_numbers_are_strict(
    mallory: httpx.Client, path: str, body: dict[str, Any], field: str
) -> None:
    _problem(mallory.post(path, json=body), 400, field)


def test_a_patch_takes_strict_booleans_too(mallory: httpx.Client) -> None:
    memory_id = mallory.post("/v1/store", json={"content": "strictly patched"}).json()["memory_id"]
    _problem(
        mallory.patch(f"/v1/memories/{memory_id}", json={"user_marked_important": 0}),
        400,
        "user_marked_important",
    )
    _problem(mallory.patch(f"/v1/memories/{memory_id}", json={"importance": True}), 400, "importance")
    _problem(mallory.post(f"/v1/memories/{memory_id}/feedback", json={"helpful": 1}), 400, "helpful")
    assert mallory.patch(f"/v1/memories/{memory_id}", json={"user_marked_important": True}).status_code == 200


# ---- unexpected errors -----------------------------------------------------------------------------------------
def test_an_unexpected_error_is_a_generic_problem_on_an_open_connection(
    keyed: LiveServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    key = keyed.key("crashy")
    mem = keyed.app.state.tenants.memory("crashy")

    def boom(*_: Any, **__: Any) -> Any:
        raise RuntimeError("private detail: maria.jones@example.org")

    monkeypatch.setattr(mem, "stats", boom)
    with socket.create_connection(("127.0.0.1", keyed.port), timeout=30) as s:
        status, headers, body = _exchange(s, "GET", "/v1/stats", key, b"")
        again = _exchange(s, "GET", "/v1/memories", key, b"")
    assert status == 500 and b"application/problem+json" in headers
    answer = json.loads(body)
    assert answer["status"] == 500 and "maria" not in body.decode() and "Traceback" not in body.decode()
    assert again[0] == 200
    assert "RuntimeError" in caplog.text and "maria" not in caplog.text  # the log says where, not what


def test_a_number_of_days_too_large_for_a_date_is_refused(mallory: httpx.Client) -> None:
    """Found by bench/fuzz.py: a date 10^12 days back overflowed (a 500)."""
    r = mallory.post("/v1/tools/optimize_tags", json={"arguments": {"archive_after_days": 10**12}})
    _problem(r, 400, "archive_after_days")


# ---- local mode: hosts and origins ------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/v1/stats", "/api/memories", "/", "/docs", "/v1/memories"])
def test_local_mode_answers_only_its_own_host_names(local: LiveServer, path: str) -> None:
    with httpx.Client(base_url=local.url, timeout=30) as c:
        foreign = c.get(path, headers={"Host": f"attacker.example:{local.port}"})
        assert foreign.status_code == 421
        _problem(foreign, 421, "host")
        for host in (f"127.0.0.1:{local.port}", f"localhost:{local.port}", "[::1]"):
            assert c.get(path, headers={"Host": host}).status_code == 200, host


def test_local_mode_refuses_cross_site_changes_even_without_a_body(local: LiveServer) -> None:
    with httpx.Client(base_url=local.url, timeout=30) as c:
        for headers in (
            {"Origin": "http://attacker.example"},
            {"Origin": "null"},
            {"Origin": f"http://127.0.0.1:{local.port + 1}"},  # another site on this machine
            {"Sec-Fetch-Site": "cross-site"},
        ):
            for method, path in (
                ("POST", "/v1/maintain"),
                ("POST", "/v1/tools/optimize_tags"),
                ("DELETE", "/v1/memories/x"),
            ):
                r = c.request(method, path, headers=headers)
                _problem(r, 403, "origin")
        same = c.post("/v1/maintain", headers={"Origin": f"http://127.0.0.1:{local.port}"})
        assert same.status_code == 200, same.text
        assert c.post("/v1/maintain").status_code == 200  # a client that is no browser sends no Origin


def test_extra_host_names_can_be_allowed(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    app = build_app(
        Settings(home=tmp_path),
        db=tmp_path / "x.db",
        embedder=FakeEmbedder(),
        require_key=False,
        hosts=["memory.lan"],
    )
    with TestClient(app, base_url="http://memory.lan:8765") as c:
        assert c.get("/v1/stats").status_code == 200
        assert c.post("/v1/maintain", headers={"Origin": "http://memory.lan:8765"}).status_code == 200
        assert c.get("/v1/stats", headers={"Host": "other.lan"}).status_code == 421


# ---- tenants' files and MCP sessions ---------------------------------------------------------------------------
def test_a_tenant_cannot_probe_or_reach_files_outside_its_folder(
    keyed: LiveServer, mallory: httpx.Client, tmp_path: Path
) -> None:
    victim = keyed.client("victim")
    victim.post("/v1/store", json={"content": "the victim's secret"})
    exists = str(keyed.settings.home / "tenants" / "victim.db")
    missing = str(keyed.settings.home / "tenants" / "nobody.db")
    answers = set()
    for path in (
        exists,
        missing,
        "../../tenants/victim.db",
        "/etc/passwd",
        "/etc/nothing-here",
        "../victim/x",
    ):
        for action in ("restore",):
            r = mallory.post("/v1/tools/backup_restore", json={"arguments": {"action": action, "path": path}})
            answers.add(_problem(r, 400, "path")["detail"])
        r = mallory.post("/v1/tools/import_memories", json={"arguments": {"path": path}})
        answers.add(_problem(r, 400, "path")["detail"])
        r = mallory.post("/v1/tools/export_memories", json={"arguments": {"path": path}})
        answers.add(_problem(r, 400, "path")["detail"])
    assert len(answers) == 1, answers  # one answer: nothing tells an existing file from a missing one
    assert "the victim's secret" not in json.dumps(
        mallory.post("/v1/recall", json={"query": "secret"}).json()
    )
    victim.close()


def test_the_local_tenant_is_confined_too(local: LiveServer) -> None:
    with httpx.Client(base_url=local.url, timeout=30) as c:
        c.post("/v1/store", json={"content": "local note"})
        outside = local.settings.home / "outside.jsonl"
        r = c.post("/v1/tools/export_memories", json={"arguments": {"path": str(outside)}})
        _problem(r, 400, "path")
        assert not outside.exists()
        r = c.post("/v1/tools/export_memories", json={"arguments": {"path": "mine.jsonl"}})
        assert r.status_code == 200, r.text
        assert (local.settings.home / "files" / LOCAL / "mine.jsonl").is_file()


def test_a_key_for_a_reserved_name_acts_for_nobody(keyed: LiveServer) -> None:
    keys = Keys(keyed.settings.home / "keys.db")
    with pytest.raises(InvalidInput, match="reserved"):
        keys.create("local")
    # A key an older version let someone create for "local" reaches neither the local store nor anything else.
    keys._db.execute(
        "INSERT INTO api_keys(id, hash, tenant, name, created_at) VALUES ('old', ?, 'local', '', '2025-01-01')",
        (__import__("hashlib").sha256(b"engram_old-local-key").hexdigest(),),
    )
    keys.close()
    with httpx.Client(base_url=keyed.url, headers={"X-API-Key": "engram_old-local-key"}, timeout=30) as c:
        _problem(c.get("/v1/stats"), 401)
        assert c.post("/mcp", json={}).status_code == 401


def _mcp_init(client: httpx.Client) -> str:
    r = client.post(
        "/mcp",
        json=MCP_INIT,
        headers={"Accept": "application/json, text/event-stream"},
    )
    assert r.status_code == 200, r.text
    return r.headers["mcp-session-id"]


def test_an_mcp_session_cannot_be_used_or_ended_with_another_tenants_key(
    keyed: LiveServer, mallory: httpx.Client
) -> None:
    with keyed.client("owner") as owner:
        session = _mcp_init(owner)
        accept = {"Accept": "application/json, text/event-stream", "mcp-session-id": session}
        ended = mallory.delete("/mcp", headers=accept)
        assert ended.status_code == 404 and ended.json()["error"]["message"] == "Session not found"
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        assert mallory.post("/mcp", json=listing, headers=accept).status_code == 404
        owner.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=accept)
        assert owner.post("/mcp", json=listing, headers=accept).status_code == 200  # still the owner's
        assert owner.delete("/mcp", headers=accept).status_code < 300


# ---- the web UI's headers --------------------------------------------------------------------------------------
def test_pages_cannot_be_framed_or_sniffed_and_run_only_their_own_scripts(local: LiveServer) -> None:
    with httpx.Client(base_url=local.url, timeout=30) as c:
        for path in ("/", "/index.html", "/app.js", "/v1/stats", "/nowhere"):
            r = c.get(path)
            assert r.headers["x-frame-options"] == "DENY", path
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["referrer-policy"] == "no-referrer"
        csp = c.get("/").headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "default-src 'self'" in csp


def test_an_import_refuses_deep_records_before_storing(mem: Memory, tmp_path: Path) -> None:
    deep = tmp_path / "deep.jsonl"
    deep.write_text(json.dumps({"content": "imported", "metadata": _deep(100)}) + "\n")
    with pytest.raises(InvalidInput, match="nested deeper than 32 levels") as caught:
        mem.import_memories(deep)
    assert caught.value.field == "line 1.metadata"
    deeper = tmp_path / "deeper.jsonl"
    deeper.write_text(_deep_text(100_000) + "\n")
    with pytest.raises(InvalidInput) as caught:
        mem.import_memories(deeper)
    assert caught.value.field == "line 1"
    assert mem.count() == 0
