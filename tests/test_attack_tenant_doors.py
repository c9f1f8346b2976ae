"""No cross-tenant read through any door, on SQLite and PostgreSQL.

Tenants whose names collide once spelt as a file or a schema (`team-x`, `team__x`, `team_-x`, names of 63
letters) write through the Python API, REST and MCP over HTTP in an order hypothesis chooses, and each then reads
through every door (listing, search, recall, export, MCP's search and list tools): each sees its own texts and
nothing else. Beside them: names built to pass for another (look-alike letters, case, separators, NUL, reserved
words spelt differently, very long names) name no tenant at any door, and an MCP session opened by one tenant can
be neither used nor ended with another's key."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engram import FakeEmbedder, InvalidInput, Settings
from engram.config import split_schema, with_schema
from engram.interfaces.http.serve import build_app
from engram.interfaces.tenants import RESERVED, Keys, Tenants, check_tenant, schema_of
from tests.live import MCP_INIT
from tests.test_tenants_hostile import file_tools_stay_in_folder

CONFUSABLE = ["team-x", "team__x", "team_-x", "team-_x", "team--x", "a" * 63, "a" * 62 + "b"]
ACCEPT = {"Accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def door(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One server per backend for the whole module, with a key for every confusable tenant."""
    home = tmp_path_factory.mktemp(f"doors-{request.param}")
    db: str | Path = home / "local.db"
    if request.param == "postgres":
        db = with_schema(request.getfixturevalue("pg_server"), f"l_{uuid.uuid4().hex[:12]}")
    keys = Keys(home / "keys.db")
    secrets = {t: keys.create(t)[1] for t in CONFUSABLE}
    keys.close()
    app = build_app(
        Settings(home=home, maintain_every_minutes=0), db=db, embedder=FakeEmbedder(), require_key=True
    )
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        yield client, secrets, app.state.tenants
    if isinstance(db, str):
        import psycopg

        with psycopg.connect(split_schema(db)[0], autocommit=True) as pg:
            for schema in [split_schema(db)[1], *(schema_of(t) for t in CONFUSABLE)]:
                pg.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'.encode())


def _rpc(answer: Any) -> dict[str, Any]:
    """The JSON-RPC message of an MCP answer, sent as JSON or as one server-sent event."""
    assert answer.status_code == 200, (answer.status_code, answer.text[:300])
    text = answer.text
    if answer.headers["content-type"].startswith("text/event-stream"):
        text = next(line[5:] for line in text.splitlines() if line.startswith("data:"))
    message: dict[str, Any] = json.loads(text)
    return message


def _session(client: TestClient, key: str) -> dict[str, str]:
    opened = client.post("/mcp", json=MCP_INIT, headers={**ACCEPT, "X-API-Key": key})
    _rpc(opened)
    headers = {**ACCEPT, "X-API-Key": key, "mcp-session-id": opened.headers["mcp-session-id"]}
    client.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    return headers


def _tool(client: TestClient, headers: dict[str, str], name: str, arguments: dict[str, Any]) -> str:
    call = {
        "jsonrpc": "2.0",
        "id": 9,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    result = _rpc(client.post("/mcp", json=call, headers=headers))["result"]
    assert not result.get("isError"), result
    return json.dumps(result)


def _write(client: TestClient, secrets: dict[str, str], tenants: Tenants, tenant: str, via: str) -> str:
    text = f"the private plan {uuid.uuid4().hex[:10]} of tenant {tenant}"
    if via == "python":
        tenants.memory(tenant).remember(text)
    elif via == "rest":
        answer = client.post("/v1/store", json={"content": text}, headers={"X-API-Key": secrets[tenant]})
        assert answer.status_code < 300, answer.text
    else:
        _tool(client, _session(client, secrets[tenant]), "store_memory", {"content": text})
    return text


def _everything_seen(client: TestClient, secrets: dict[str, str], tenants: Tenants, tenant: str) -> str:
    """All a tenant is shown by every door, as one text."""
    key = {"X-API-Key": secrets[tenant]}
    mem = tenants.memory(tenant)
    seen = [r.content for r in mem.list(limit=1000)]
    seen += [h.record.content for h in mem.recall("private plan of tenant", limit=100)]
    for answer in (
        client.get("/v1/memories", params={"limit": 100}, headers=key),
        client.post("/v1/search", json={"query": "private plan", "options": {"limit": 100}}, headers=key),
        client.post("/v1/recall", json={"query": "private plan of tenant", "limit": 100}, headers=key),
        client.get("/v1/export", headers=key),
        client.get("/api/memories", headers=key),
    ):
        assert answer.status_code == 200, (answer.request.url, answer.text[:300])
        seen.append(answer.text)
    mcp = _session(client, secrets[tenant])
    seen.append(
        _tool(client, mcp, "search_memory", {"query": "private plan of tenant", "options": {"limit": 50}})
    )
    seen.append(_tool(client, mcp, "list_memories", {"limit": 100}))
    return "\n".join(seen)


writes = st.lists(
    st.tuples(st.sampled_from(CONFUSABLE), st.sampled_from(["python", "rest", "mcp"])), min_size=2, max_size=5
)


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(writes)
def test_no_door_shows_a_tenant_another_tenants_memories(door: Any, plan: list[tuple[str, str]]) -> None:
    client, secrets, tenants = door
    written: dict[str, list[str]] = {}
    for tenant, via in plan:
        written.setdefault(tenant, []).append(_write(client, secrets, tenants, tenant, via))
    for tenant in CONFUSABLE:
        seen = _everything_seen(client, secrets, tenants, tenant)
        for text in written.get(tenant, []):
            assert text in seen, (tenant, text)
        for other, texts in written.items():
            if other != tenant:
                assert not any(t in seen for t in texts), (tenant, "sees", other)


def test_an_mcp_session_serves_only_the_tenant_that_opened_it(door: Any) -> None:
    client, secrets, _ = door
    owner, intruder = CONFUSABLE[0], CONFUSABLE[1]  # team-x and team__x: one schema once
    opened = _session(client, secrets[owner])
    text = _write(client, secrets, door[2], owner, "rest")
    stolen = {**opened, "X-API-Key": secrets[intruder]}
    call = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "search_memory", "arguments": {"query": "private plan"}},
    }
    for answer in (client.post("/mcp", json=call, headers=stolen), client.delete("/mcp", headers=stolen)):
        assert answer.status_code == 404 and text not in answer.text, answer.text
    assert text in _tool(
        client, opened, "search_memory", {"query": "private plan of tenant", "options": {"limit": 50}}
    )
    assert client.delete("/mcp", headers=opened).status_code < 300
    assert client.post("/mcp", json=call, headers=opened).status_code == 404  # ended by its owner alone


# ---- names that pass for another ----------------------------------------------------------------------------
LOOK_ALIKES = {
    "a": ["\u0430", "\uff41", "\u00e0", "a\u0301"],  # Cyrillic a, full-width a, a grave, a + combining acute
    "e": ["\u0435", "\u00e9"],
    "o": ["\u043e", "\u03bf", "0"],  # Cyrillic and Greek o; a zero is a plain (other) name
    "i": ["\u0131", "\u0456", "1"],  # dotless i, Ukrainian i
    "k": ["\u212a", "K"],  # Kelvin sign, capital K
    "l": ["\u04cf", "1", "L"],
    "s": ["\u017f", "S"],  # long s (upper-cases to S)
    "-": ["_", "__", "\u2010", "\u2011", "\u2212", "/", "\\", "\x00", ".", " "],
    "_": ["-", "--", "\uff3f"],
}
BASES = ["local", "admin", "public", "postgres", "default", "team-x", "team_x", "alice", "pg_x"]


@st.composite
def disguised(draw: st.DrawFn) -> str:
    name = list(draw(st.sampled_from(BASES)))
    for i in draw(st.lists(st.integers(0, len(name) - 1), max_size=3)):
        name[i] = draw(st.sampled_from(LOOK_ALIKES.get(name[i], [name[i].upper()])))
    text = "".join(name)
    match draw(st.integers(0, 6)):
        case 0:
            text = text.upper()
        case 1:
            text = text + draw(st.sampled_from(["\x00", "\n", "/", "/..", ".db", " ", "\u200b"]))
        case 2:
            text = draw(st.sampled_from(["../", "/", "./", "\\", "\u202e"])) + text
        case 3:
            text = text * draw(st.integers(8, 200))  # past 63 characters
        case _:
            pass
    return text


@settings(max_examples=400, deadline=None)
@given(disguised())
def test_a_disguised_name_is_either_a_plain_other_name_or_no_name(name: str) -> None:
    plain = name.isascii() and name == name.lower() and len(name) <= 63 and name not in RESERVED
    try:
        checked = check_tenant(name)
    except InvalidInput as refused:
        assert refused.field == "tenant"
        return
    assert plain and checked == name and not name.startswith(("pg_", "-", "_")), name
    assert all(c.isalnum() or c in "-_" for c in name), name


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(disguised())
def test_a_disguised_name_opens_no_store_and_no_key_acts_for_it(tmp_path: Path, name: str) -> None:
    try:
        check_tenant(name)
        return  # a plain name of its own: the collision properties above hold for it
    except InvalidInput:
        pass
    home = tmp_path / uuid.uuid4().hex
    keys = Keys(home / "keys.db")
    try:
        with pytest.raises(InvalidInput):
            keys.create(name)
        # A row an older version (or a hand) wrote for the name: its key acts for nobody.
        keys._db.execute(
            "INSERT INTO api_keys(id, hash, tenant, name, created_at) VALUES ('k', ?, ?, '', '2025-01-01')",
            (__import__("hashlib").sha256(b"engram_disguised").hexdigest(), name),
        )
        assert keys.tenant_of("engram_disguised") is None
    finally:
        keys.close()
    tenants = Tenants(Settings(home=home), embedder=FakeEmbedder(), db=home / "local.db")
    for look in (tenants.path, tenants.files, tenants.memory):
        if name == "local":
            continue  # the keyless tenant itself, reached only without a key in local mode
        with pytest.raises(InvalidInput):
            look(name)
    tenants.close()
    assert sorted(p.name for p in home.iterdir()) == ["keys.db"]  # no store, no folder made for it


# ---- file paths, on PostgreSQL too ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pg_pair(pg_server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Tenants, Path]]:
    """Alice and bob as two schemas of one PostgreSQL database; bob has exported and backed up his store, and a
    link in alice's folder leads into bob's."""
    home = tmp_path_factory.mktemp("pg-files")
    db = with_schema(pg_server, f"l_{uuid.uuid4().hex[:12]}")
    server = Tenants(Settings(home=home, maintain_every_minutes=0), embedder=FakeEmbedder(), db=db)
    bob = server.memory("bob-files")
    bob.remember("bob's secret")
    assert bob.export_memories("bob.jsonl")["exported"] == 1
    bob.run_tool("backup_restore", action="backup", path="bob.db")
    mine = server.files("alice-files")
    mine.mkdir(parents=True, exist_ok=True)
    (mine / "link").symlink_to(server.files("bob-files"))
    yield server, home
    server.close()
    import psycopg

    with psycopg.connect(split_schema(db)[0], autocommit=True) as pg:
        for schema in (split_schema(db)[1], schema_of("bob-files"), schema_of("alice-files")):
            pg.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'.encode())


pg_paths = st.one_of(
    st.lists(
        st.sampled_from(
            ["..", ".", "", "/", "bob-files", "files", "tenants", "bob.db", "bob.jsonl", "link", "\x00"]
        ),
        min_size=1,
        max_size=5,
    ).map("/".join),
    st.text(alphabet="./\\~%2e\x00\u00e9bo-", max_size=30),
)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=pg_paths)
def test_a_postgres_tenants_file_tools_stay_in_its_folder(pg_pair: tuple[Tenants, Path], path: str) -> None:
    server, home = pg_pair
    file_tools_stay_in_folder(server, home, path, ("alice-files", "bob-files"))
