"""The server as clients meet it: REST (/v1 and the SHODH /api), keys and tenants, MCP over HTTP and stdio.

One real uvicorn server per module on a free loopback port, the fake embedder, a temporary home."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engram import FORGET_NOTE, FakeEmbedder, Settings
from engram.interfaces.http.serve import build_app
from engram.interfaces.tenants import Keys
from tests.live import LiveServer, free_port

SPEC = Path(__file__).resolve().parents[1].parent / "shared" / "specs" / "shodh-openapi.yaml"


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("serve"), require_key=True)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def alice(running: LiveServer) -> Iterator[httpx.Client]:
    # A long timeout: the first store on a busy 2-core machine fits the fake embedder's read-outs, which has
    # taken more than 30 s under load.
    headers = {"Authorization": f"Bearer {running.key('alice')}"}
    with httpx.Client(timeout=120, base_url=running.url, headers=headers) as c:
        yield c


@pytest.fixture(scope="module")
def bob(running: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(timeout=120, base_url=running.url, headers={"X-API-Key": running.key("bob")}) as c:
        yield c


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    if not SPEC.exists():
        pytest.skip(f"{SPEC} is not present")
    data: dict[str, Any] = yaml.safe_load(SPEC.read_text())
    return data


def check(spec: dict[str, Any], schema: dict[str, Any], value: Any) -> None:
    """Validate `value` against a schema of the SHODH spec, its $refs inlined."""
    jsonschema.Draft202012Validator(_inline(spec, schema)).validate(value)


def _inline(spec: dict[str, Any], node: Any) -> Any:
    """Replace local #/components refs by their targets (OpenAPI's `nullable` becomes a null type)."""
    if isinstance(node, dict):
        if "$ref" in node:
            target: Any = spec
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            return _inline(spec, target)
        out = {k: _inline(spec, v) for k, v in node.items() if k not in ("example", "examples")}
        if out.pop("nullable", False):
            out = {"anyOf": [out, {"type": "null"}]}
        return out
    if isinstance(node, list):
        return [_inline(spec, v) for v in node]
    return node


def response_schema(spec: dict[str, Any], path: str, method: str, status: str) -> dict[str, Any]:
    schema: dict[str, Any] = spec["paths"][path][method]["responses"][status]["content"]["application/json"][
        "schema"
    ]
    return schema


# ---- keys -----------------------------------------------------------------------------------------------
def test_requests_without_a_valid_key_are_refused(running: LiveServer) -> None:
    with httpx.Client(timeout=30, base_url=running.url) as anon:
        assert anon.get("/api/health").status_code == 200  # health needs no key (SHODH spec)
        for headers in ({}, {"Authorization": "Bearer engram_not-a-key"}, {"X-API-Key": "nope"}):
            r = anon.post("/v1/store", json={"content": "x"}, headers=headers)
            assert r.status_code == 401, headers
            assert r.headers["content-type"].startswith("application/problem+json")
        assert anon.post("/mcp", json={}).status_code == 401


def test_revoked_key_stops_working(running: LiveServer) -> None:
    keys = Keys(running.settings.home / "keys.db")
    key, secret = keys.create("carol")
    with httpx.Client(timeout=30, base_url=running.url, headers={"Authorization": f"Bearer {secret}"}) as c:
        assert c.get("/v1/stats").status_code == 200
        keys.revoke(key.id)
        assert c.get("/v1/stats").status_code == 401
    keys.close()


# ---- /v1 ------------------------------------------------------------------------------------------------
def test_store_search_recall_and_crud(alice: httpx.Client) -> None:
    stored = alice.post(
        "/v1/store", json={"content": "The billing service moved to PostgreSQL 16 last sprint."}
    )
    assert stored.status_code == 200, stored.text
    body = stored.json()
    assert body["success"] is True and set(body["analysis"]) >= {"detected_category", "generated_tags"}
    mid = body["memory_id"]

    found = alice.post(
        "/v1/search", json={"query": "billing PostgreSQL", "options": {"min_relevance": 0}}
    ).json()
    assert mid in [r["id"] for r in found["results"]]
    assert set(found["query_analysis"]) >= {"extracted_concepts", "search_scope", "semantic_expansions"}

    used = alice.get(f"/v1/memories/{mid}").json()["access_count"]
    looked = alice.post("/v1/recall", json={"query": "billing PostgreSQL", "mode": "ranked", "touch": False})
    assert looked.json()["results"][0]["memory"]["id"] == mid
    assert alice.get(f"/v1/memories/{mid}").json()["access_count"] == used  # a look is no use
    hits = alice.post("/v1/recall", json={"query": "billing PostgreSQL", "mode": "ranked"}).json()["results"]
    assert hits[0]["memory"]["id"] == mid
    assert {"vector", "lexical", "importance", "recency"} <= set(hits[0]["components"])
    assert alice.get(f"/v1/memories/{mid}").json()["access_count"] == used + 1

    patched = alice.patch(
        f"/v1/memories/{mid}", json={"tags": ["billing", "db"], "user_marked_important": True}
    )
    assert patched.status_code == 200 and patched.json()["tags"] == ["billing", "db"]
    assert alice.get(f"/v1/memories/{mid}").json()["user_marked_important"] is True

    gone = alice.delete(f"/v1/memories/{mid}").json()
    assert gone == {"deleted": True, "id": mid, "archived": [], "note": FORGET_NOTE}
    missing = alice.get(f"/v1/memories/{mid}")
    assert missing.status_code == 404 and mid in missing.json()["detail"]


def test_listing_pages_with_a_cursor(alice: httpx.Client) -> None:
    for i in range(5):
        assert (
            alice.post("/v1/store", json={"content": f"Paging note number {i} about kayaks"}).status_code
            == 200
        )
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 2, "tag": "kayaks"}
        if cursor:
            params["cursor"] = cursor
        page = alice.get("/v1/memories", params=params).json()
        seen += [m["id"] for m in page["memories"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert len(seen) == len(set(seen)) == 5
    bad = alice.get("/v1/memories", params={"cursor": "garbage!"})
    assert bad.status_code == 400 and bad.json()["field"] == "cursor"


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/store", {"content": "   "}, "content"),
        ("/v1/store", {"content": "x", "context": {"force_importance": 9}}, "context.force_importance"),
        ("/v1/search", {"query": "x", "options": {"colour": "red"}}, "options.colour"),
        ("/v1/recall", {"query": "x", "limit": 0}, "limit"),
        ("/v1/store", {"text": "wrong field name"}, "content"),
        ("/v1/tools/drop_everything", {}, "tool"),
        ("/api/recall", {"query": "x", "limit": 101}, "limit"),
        ("/api/remember", {"content": "x", "credibility": 2}, "credibility"),
    ],
)
def test_bad_input_is_a_4xx_naming_the_field(
    alice: httpx.Client, path: str, body: dict[str, Any], field: str
) -> None:
    r = alice.post(path, json=body)
    assert r.status_code == 400, r.text
    assert r.json()["field"] == field


def test_oversized_body_is_refused(alice: httpx.Client) -> None:
    r = alice.post("/v1/store", json={"content": "x" * 1_100_000})
    assert r.status_code == 413


def test_feedback_and_maintenance_endpoints(alice: httpx.Client) -> None:
    mid = alice.post("/v1/store", json={"content": "Lunch orders go in before 11"}).json()["memory_id"]
    assert alice.post(f"/v1/memories/{mid}/feedback", json={"helpful": False}).json()["quality_score"] == 0.9
    report = alice.post("/v1/maintain").json()
    assert report["processed"] >= 1 and report["mode"] == "store"
    assert alice.get(f"/v1/memories/{mid}").json()["priority"] is not None


def test_serve_runs_maintenance_on_a_timer(tmp_path: Path) -> None:
    server = LiveServer(tmp_path, require_key=False, maintain_every_minutes=0.01)
    try:
        with httpx.Client(timeout=30, base_url=server.url) as c:
            mid = c.post("/v1/store", json={"content": "Timer-driven upkeep check"}).json()["memory_id"]
            deadline = time.monotonic() + 15
            while c.get(f"/v1/memories/{mid}").json()["priority"] is None:
                assert time.monotonic() < deadline, "no maintenance ran"
                time.sleep(0.2)
            assert any(e["action"] == "maintain" for e in c.get("/v1/audit").json()["entries"])
    finally:
        server.stop()


def test_tools_run_through_the_api(alice: httpx.Client) -> None:
    listed = alice.get("/v1/tools").json()
    assert "maintenance" in listed["advanced_tools"]
    timeline = alice.post("/v1/tools/memory_timeline", json={"arguments": {"granularity": "day"}})
    assert timeline.status_code == 200 and "periods" in timeline.json()
    assert alice.post("/v1/tools/memory_timeline", json={"arguments": {"nonsense": 1}}).status_code == 400
    assert "by_kind" in alice.post("/v1/tools/memory_stats").json()  # no body: the tool's defaults


# ---- SHODH /api -----------------------------------------------------------------------------------------
def test_shodh_remember_recall_and_duplicates_match_the_spec(
    alice: httpx.Client, spec: dict[str, Any]
) -> None:
    body = {
        "content": "Use JWT tokens with 24h expiry for authentication",
        "type": "Decision",
        "tags": ["auth", "security"],
        "emotion": "relief",
        "emotional_valence": 0.8,
    }
    check(
        spec,
        spec["paths"]["/api/remember"]["post"]["requestBody"]["content"]["application/json"]["schema"],
        body,
    )
    created = alice.post("/api/remember", json=body)
    assert created.status_code == 201, created.text
    check(spec, response_schema(spec, "/api/remember", "post", "201"), created.json())
    again = alice.post("/api/remember", json=body)
    assert again.status_code == 409
    assert again.json()["existing_id"] == created.json()["id"]
    check(spec, response_schema(spec, "/api/remember", "post", "409"), again.json())

    recall_body = {"query": "authentication tokens", "memory_types": ["Decision"]}
    check(
        spec,
        spec["paths"]["/api/recall"]["post"]["requestBody"]["content"]["application/json"]["schema"],
        recall_body,
    )
    recalled = alice.post("/api/recall", json=recall_body)
    check(spec, response_schema(spec, "/api/recall", "post", "200"), recalled.json())
    memories = recalled.json()["memories"]
    assert memories and all(m["type"] == "Decision" for m in memories)
    assert (
        alice.post("/api/recall", json={"query": "authentication", "memory_types": ["Error"]}).json()["count"]
        == 0
    )

    boosted = alice.post("/api/recall", json={"query": "authentication", "quality_boost": True}).json()
    assert all(0 <= m["relevance_score"] <= 1 for m in boosted["memories"])

    by_tags = alice.post("/api/recall/by-tags", json={"tags": ["security", "nothing-like-this"]}).json()
    assert created.json()["id"] in [m["id"] for m in by_tags["memories"]]
    check(spec, response_schema(spec, "/api/recall/by-tags", "post", "200"), by_tags)


def test_shodh_memories_patch_forget_and_maintenance(alice: httpx.Client, spec: dict[str, Any]) -> None:
    mid = alice.post(
        "/api/remember", json={"content": "Deploys go out on Thursdays", "tags": ["ops"]}
    ).json()["id"]
    listed = alice.get("/api/memories", params={"limit": 100}).json()
    check(spec, response_schema(spec, "/api/memories", "get", "200"), listed)
    assert mid in [m["id"] for m in listed["memories"]] and listed["total"] >= listed["count"]

    patched = alice.patch(
        f"/api/memories/{mid}",
        json={"tags": ["ops", "release"], "memory_type": "Pattern", "metadata": {"team": "platform"}},
    )
    assert patched.status_code == 200
    check(spec, response_schema(spec, "/api/memories/{id}", "patch", "200"), patched.json())
    got = alice.get(f"/api/memories/{mid}").json()
    assert (
        got["type"] == "Pattern"
        and got["tags"] == ["ops", "release"]
        and got["metadata"]["team"] == "platform"
    )
    assert got["content"] == "Deploys go out on Thursdays"

    context = alice.post("/api/context", json={"context": "When do deploys happen?", "max_results": 3}).json()
    assert (
        context["ingested"] is False and context["ingested_id"] is None
    )  # a question is no memory unless asked
    check(spec, response_schema(spec, "/api/context", "post", "200"), context)
    asked = {"context": "We agreed to deploy on Thursdays", "auto_ingest": True}
    kept = alice.post("/api/context", json=asked).json()
    assert kept["ingested"] is True and alice.get(f"/api/memories/{kept['ingested_id']}").status_code == 200
    check(spec, response_schema(spec, "/api/context", "post", "200"), kept)

    for path, method in (("/api/stats", "get"), ("/api/tags", "get"), ("/api/health", "get")):
        r = alice.request(method.upper(), path)
        assert r.status_code == 200
        check(spec, response_schema(spec, path, method, "200"), r.json())
    assert "release" in alice.get("/api/tags").json()["tags"]

    consolidated = alice.post("/api/consolidate", json={"time_horizon": "weekly"})
    check(spec, response_schema(spec, "/api/consolidate", "post", "200"), consolidated.json())
    assert alice.get(f"/api/memories/{mid}").status_code == 200  # consolidation never deletes

    forgot = alice.delete(f"/api/forget/{mid}")
    check(spec, response_schema(spec, "/api/forget/{id}", "delete", "200"), forgot.json())
    assert alice.delete(f"/api/forget/{mid}").status_code == 404
    alice.post("/api/remember", json={"content": "Temporary note one", "tags": ["scratch"]})
    alice.post("/api/remember", json={"content": "Temporary note two", "tags": ["scratch"]})
    assert alice.post("/api/forget/by-tags", json={"tags": ["scratch"]}).json()["deleted_count"] == 2


# ---- tenants ----------------------------------------------------------------------------------------------
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    words=st.lists(
        st.sampled_from(["otter", "violin", "quasar", "mango", "glacier", "sonnet"]), min_size=1, max_size=3
    ),
    secret=st.integers(0, 10**9),
)
def test_no_tenant_sees_another_tenants_memory(
    alice: httpx.Client, bob: httpx.Client, words: list[str], secret: int
) -> None:
    content = f"{' '.join(words)} private note {secret}"
    mid = alice.post("/v1/store", json={"content": content}).json()["memory_id"]
    shodh_id = alice.post("/api/remember", json={"content": content + " shodh"}).json().get("id")
    query = " ".join(words)
    seen = [
        *[
            r["id"]
            for r in bob.post("/v1/search", json={"query": query, "options": {"min_relevance": 0}}).json()[
                "results"
            ]
        ],
        *[
            h["memory"]["id"]
            for h in bob.post("/v1/recall", json={"query": query, "mode": "ranked"}).json()["results"]
        ],
        *[m["id"] for m in bob.get("/v1/memories", params={"limit": 100}).json()["memories"]],
        *[m["id"] for m in bob.post("/api/recall", json={"query": query, "limit": 100}).json()["memories"]],
        *[m["id"] for m in bob.get("/api/memories", params={"limit": 100}).json()["memories"]],
        *[m["id"] for m in bob.post("/api/recall/by-tags", json={"tags": words}).json()["memories"]],
    ]
    assert mid not in seen and shodh_id not in seen
    for other in (mid, shodh_id):
        assert bob.get(f"/v1/memories/{other}").status_code == 404
        assert bob.patch(f"/v1/memories/{other}", json={"tags": ["x"]}).status_code == 404
        assert bob.delete(f"/api/forget/{other}").status_code == 404
    timeline = bob.post(
        "/v1/tools/memory_timeline", json={"arguments": {"granularity": "day", "examples": 50}}
    )
    assert mid not in timeline.text
    assert alice.get(f"/v1/memories/{mid}").status_code == 200


# ---- MCP --------------------------------------------------------------------------------------------------
async def _mcp_round_trip(client: Any, *, stateless: bool) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert {
        "store_memory",
        "search_memory",
        "discover_memory_tools",
        "remember",
        "recall",
        "optimize_tags",
        "trace_search",
        "validate_storage",
    } <= set(tools)
    assert tools["search_memory"].annotations.read_only_hint is True
    assert tools["merge_memories"].annotations.destructive_hint is True
    assert all("Example" in (t.description or "") for t in tools.values())
    stored = await client.call_tool(
        "store_memory", {"content": "The cat's vet appointment is on Friday at 10."}
    )
    memory_id = stored.structured_content["memory_id"]
    found = await client.call_tool(
        "search_memory", {"query": "vet appointment", "options": {"min_relevance": 0}}
    )
    assert memory_id in [r["id"] for r in found.structured_content["results"]]
    unnamed = await client.call_tool("remember", {"content": "Only for this session", "scope": "session"})
    asked = {"query": "only for this session", "mode": "ranked"}
    if stateless:
        # Stateless HTTP has no MCP session: a session memory names its session, and only that id sees it.
        assert unnamed.is_error and "scope_id: this connection has no MCP session" in unnamed.content[0].text
        named = {"content": "Only for this session", "scope": "session", "scope_id": "chat-7"}
        assert (await client.call_tool("remember", named)).structured_content["outcome"] == "created"
        unseen = await client.call_tool("recall", asked)
        assert "Only for this session" not in [r["content"] for r in unseen.structured_content["results"]]
        asked |= {"scope_id": "chat-7"}
    else:  # stdio: the session is the server process's
        assert unnamed.structured_content["outcome"] == "created"
    recalled = await client.call_tool("recall", asked | {"scope": "session"})
    assert recalled.structured_content["count"] >= 1
    bad = await client.call_tool("memory_timeline", {"granularity": "fortnight"})
    assert bad.is_error


@pytest.mark.anyio
async def test_mcp_over_http_with_a_key(running: LiveServer) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {running.key('dave')}"}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        transport = streamable_http_client(f"{running.url}/mcp", http_client=http)
        async with Client(transport) as client:  # type: ignore[arg-type]
            await _mcp_round_trip(client, stateless=True)
    with httpx.Client(
        timeout=30, base_url=running.url, headers=headers
    ) as rest:  # the same tenant through REST
        assert rest.get("/v1/memories").json()["memories"]


@pytest.mark.anyio
async def test_mcp_over_stdio(tmp_path: Path) -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "engram", "--db", str(tmp_path / "stdio.db"), "mcp"],
        env={"ENGRAM_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"},
    )
    async with Client(params) as client:
        await _mcp_round_trip(client, stateless=False)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def test_serve_shuts_down_cleanly_on_sigterm_without_losing_writes(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess

    from engram import Memory

    port = free_port()
    env = os.environ | {"ENGRAM_HOME": str(tmp_path / "home")}
    db = tmp_path / "served.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "engram", "--db", str(db), "serve", "--local", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/api/health").status_code == 200:
                    break
            except httpx.TransportError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.2)
        # the first write embeds the classifiers' prototypes with the real model: allow it time
        ids = [
            httpx.post(f"{url}/api/remember", json={"content": f"note {i}"}, timeout=120).json()["id"]
            for i in range(5)
        ]
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stderr.decode()
    assert b"Traceback" not in stderr
    with Memory(db) as mem:
        assert [mem.get(i).content for i in ids] == [f"note {i}" for i in range(5)]


def test_raw_pii_never_reaches_the_logs(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    from fastapi.testclient import TestClient

    caplog.set_level(logging.DEBUG)
    app = build_app(
        Settings(home=tmp_path), db=tmp_path / "pii.db", embedder=FakeEmbedder(), require_key=False
    )
    secret = "maria.jones@example.org"
    with TestClient(app, base_url="http://localhost") as client:  # local mode answers loopback names only
        assert client.post("/v1/store", json={"content": f"Reach Maria at {secret}"}).status_code == 200
        assert (
            client.post(
                "/v1/store", json={"content": f"{secret}", "context": {"force_importance": 9}}
            ).status_code
            == 400
        )
        assert client.post("/v1/search", json={"query": secret}).status_code == 200
    assert secret not in caplog.text


# ---- paging, errors and docs (QA's REST defects) ----------------------------------------------------------
def _page(client: httpx.Client, tag: str, cursor: str | None) -> tuple[list[str], str | None]:
    params: dict[str, Any] = {"limit": 2, "tag": tag}
    if cursor:
        params["cursor"] = cursor
    page = client.get("/v1/memories", params=params)
    assert page.status_code == 200, page.text
    return [m["id"] for m in page.json()["memories"]], page.json()["next_cursor"]


def test_cursor_paging_holds_still_while_memories_come_and_go(alice: httpx.Client) -> None:
    """A keyset cursor: what is added or deleted between pages neither repeats nor skips an older memory."""
    # The tag is given: the fake embedder's cosines could file a generated one under an unrelated tag.
    tagged = {"additional_tags": ["sailplanes"]}
    stored = [
        alice.post(
            "/v1/store", json={"content": f"Glider log {i} about sailplanes", "context": tagged}
        ).json()["memory_id"]
        for i in range(6)
    ]
    newest_first = stored[::-1]
    first, cursor = _page(alice, "sailplanes", None)
    assert first == newest_first[:2]
    alice.delete(f"/v1/memories/{first[0]}")  # an offset cursor would now skip newest_first[2]
    second, cursor = _page(alice, "sailplanes", cursor)
    assert second == newest_first[2:4]
    for late in ("late", "later"):  # an offset cursor would now repeat the second page
        alice.post(
            "/v1/store", json={"content": f"Glider log {late} entry about sailplanes", "context": tagged}
        )
    third, cursor = _page(alice, "sailplanes", cursor)
    assert third == newest_first[4:6] and cursor is None


@pytest.mark.parametrize("cursor", ["garbage!", "bzo0MA==", "WyJub3QgYSB0aW1lIiwgIngiXQ==", "WzEsMl0="])
def test_a_cursor_the_api_did_not_return_is_a_400(alice: httpx.Client, cursor: str) -> None:
    bad = alice.get("/v1/memories", params={"cursor": cursor})  # old offset, bad time, wrong types
    assert bad.status_code == 400 and bad.json()["field"] == "cursor"
    assert bad.headers["content-type"].startswith("application/problem+json")


def test_keyset_listing_on_both_backends(mem: Any) -> None:
    """Memory.list's `after`: strictly past a listed memory's (created_at, id), on SQLite and PostgreSQL."""
    from datetime import UTC, datetime

    from engram.model.record import Scope

    same = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)  # ties on created_at are ordered by id
    for i in range(5):
        mem.remember(
            f"Keyset note {i} on tide tables",
            created_at=same if i < 3 else datetime(2024, 5, i, tzinfo=UTC),
            scope=Scope.GLOBAL,
        )
    everything = mem.list(limit=100)
    assert [(r.created_at, r.id) for r in everything] == sorted(
        ((r.created_at, r.id) for r in everything), reverse=True
    )
    pages, after = [], None
    while rows := mem.list(limit=2, after=after):
        pages += [r.id for r in rows]
        after = (rows[-1].created_at, rows[-1].id)
    assert pages == [r.id for r in everything]
    assert mem.list(limit=2, offset=1) == everything[1:3]  # the CLI's offset still works


def test_a_body_field_named_query_is_named(alice: httpx.Client) -> None:
    for path in ("/v1/search", "/v1/recall", "/api/recall"):
        r = alice.post(path, json={"query": 5})
        assert r.status_code == 400 and r.json()["field"] == "query", (path, r.text)
    assert alice.get("/v1/memories", params={"limit": 0}).json()["field"] == "limit"


def test_invalid_json_is_a_400_naming_the_body(alice: httpx.Client) -> None:
    r = alice.post("/v1/store", content=b'{"content": ', headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["field"] == "body" and "not valid JSON" in r.json()["detail"]


def test_unknown_routes_and_methods_are_problem_json(alice: httpx.Client) -> None:
    for method, path, status in (
        ("GET", "/v1/nothing-here", 404),
        ("DELETE", "/v1/stats", 405),
        ("PUT", "/api/health", 405),
    ):
        r = alice.request(method, path)
        assert r.status_code == status, (method, path, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["status"] == status and r.json()["detail"]


def test_unknown_routes_are_problem_json_without_the_web_ui(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from engram.interfaces.http.api import create_app
    from engram.interfaces.tenants import Tenants

    tenants = Tenants(Settings(home=tmp_path), FakeEmbedder(), tmp_path / "t.db")
    app = create_app(tenants, None, require_key=False)
    with TestClient(app, base_url="http://localhost") as client:  # local mode answers loopback names only
        for r, status in ((client.get("/nowhere"), 404), (client.delete("/v1/stats"), 405)):
            assert r.status_code == status
            assert r.headers["content-type"].startswith("application/problem+json")
        assert "GET" in client.delete("/v1/stats").headers["allow"]


def test_a_chunked_body_over_the_limit_is_a_413(alice: httpx.Client) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"content": "'
        for _ in range(12):
            yield b"x" * 100_000
        yield b'"}'

    r = alice.post("/v1/store", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413, r.text
    assert r.headers["content-type"].startswith("application/problem+json") and r.json()["field"] == "body"


def test_openapi_documents_problem_errors_not_422(alice: httpx.Client) -> None:
    doc = alice.get("/openapi.json").json()
    assert "HTTPValidationError" not in doc["components"]["schemas"]
    assert set(doc["components"]["schemas"]["Problem"]["required"]) >= {"title", "status", "detail"}
    problem_ref = {"$ref": "#/components/schemas/Problem"}
    for path, item in doc["paths"].items():
        for method, op in item.items():
            responses = op["responses"]
            assert "422" not in responses, (method, path)
            documented = {
                s
                for s in responses
                if responses[s].get("content", {}).get("application/problem+json", {}).get("schema")
                == problem_ref
            }
            if path != "/api/health":
                assert "401" in documented, (method, path)
            if op.get("parameters") or op.get("requestBody"):
                assert "400" in documented, (method, path)
            if op.get("requestBody"):
                assert "413" in documented, (method, path)
    assert "404" in doc["paths"]["/v1/memories/{memory_id}"]["get"]["responses"]
    assert "404" not in doc["paths"]["/v1/memories"]["get"]["responses"]


def test_docs_need_no_network(alice: httpx.Client) -> None:
    import re

    for page in ("/docs", "/redoc"):
        html = alice.get(page)
        assert html.status_code == 200
        urls = re.findall(r"""(?:src|href)=["']([^"']+)""", html.text)
        assert urls and not [u for u in urls if "://" in u], urls  # every asset is served here
        for url in urls:
            asset = alice.get(url)
            assert asset.status_code == 200 and asset.content, url
    assert "cdn.jsdelivr.net" not in alice.get("/docs").text
