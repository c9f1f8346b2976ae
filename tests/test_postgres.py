"""What only the PostgreSQL backend has: its migrations, its HNSW index, schemas per tenant, and copies between
backends (`engram migrate`). The rest of the store suite runs on both backends through the `mem` fixture."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest
from typer.testing import CliRunner

from engram import FakeEmbedder, Memory, Settings, StoreError, StoreUnavailable
from engram.config import locate, shown, with_schema
from engram.embed.embedder import CachedEmbedder
from engram.interfaces.cli.app import app
from engram.interfaces.tenants import Tenants
from engram.store.copy import copy_store, fingerprint, verify_copy
from engram.store.postgres.schema import MIGRATIONS
from engram.store.postgres.store import PostgresStore
from engram.store.sqlite.store import SQLiteStore
from engram.store.values import Filter

runner = CliRunner()


def _fill(mem: Memory) -> list[str]:
    """A store with a bit of everything a copy must carry: chunks, tags, an operation, sources, the audit log."""
    ids = [
        mem.store_memory(f"Project {name} ships on Friday; deadline is firm")["memory_id"]
        for name in ("apollo", "gemini", "mercury")
    ]
    ids.append(mem.remember("long " * 600 + "text about the archive format", kind="reference").id)
    mem.optimize_tags()
    mem.store.add_sources(
        [
            {
                "platform": "chat",
                "conversation_id": "c1",
                "message_id": "m1",
                "role": "user",
                "content": "hello",
                "ts": None,
                "metadata": {"lang": "en"},
            }
        ]
    )
    mem.recall("apollo deadline")
    return ids


def _word(n: int) -> str:
    """Distinct letters-only words: far apart for the fake embedder, which pays digits little heed."""
    return "".join("abcdefghij"[int(d)] for d in str(n))


def test_migrations_are_recorded_once_and_unknown_ones_refused(pg_url: str) -> None:
    PostgresStore(pg_url).close()
    store = PostgresStore(pg_url)
    assert store.migrations() == [name for name, _ in MIGRATIONS]
    with store.atomic() as db:
        db.execute(b"INSERT INTO migrations(name, applied_at) VALUES ('m999_future', 'x')")
    store.close()
    with pytest.raises(StoreError, match="m999_future"):
        PostgresStore(pg_url)


def test_hnsw_index_is_built_per_dimension_and_rebuilt(pg_url: str) -> None:
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        for i in range(30):
            mem.remember(f"note {_word(i * 7919)} about gardening topic {_word(i * 104729 + 17)}")
        assert mem.stats()["index"] == {"indexed": 30, "embedded": 30}
        store = mem.store
        assert isinstance(store, PostgresStore)
        with store.atomic() as db:
            db.execute(b"DROP INDEX memories_hnsw_half_64")
        assert any(i["check"] == "vectors" for i in mem.validate_storage()["issues"])
        assert mem.repair_index()["issues_after"] == []
        with store.atomic() as db:  # the planner can use the index for a filtered nearest-neighbour query
            db.execute(b"SET LOCAL enable_seqscan = off")
            plan = " ".join(
                r[0]
                for r in db.execute(
                    b"EXPLAIN SELECT id FROM memories WHERE searchable ORDER BY embedding::halfvec(64) <=> %s::halfvec(64) LIMIT 5",
                    (mem.embedder.embed_batch(["gardening"])[0],),
                ).fetchall()
            )
        assert "memories_hnsw_half_64" in plan
    # another model (another dimension): the old index goes, a new one is built after re-embedding
    with Memory(pg_url, embedder=FakeEmbedder(dim=32, name="fake-32"), allow_model_change=True) as mem:
        assert mem.reembed() == 30
        assert mem.stats()["index"] == {"indexed": 30, "embedded": 30}
        wanted = f"note {_word(3 * 7919)} about gardening topic {_word(3 * 104729 + 17)}"
        assert mem.recall(wanted, mode="ranked", limit=1, touch=False)[0].record.content == wanted


def test_text_search_ranks_by_bm25_over_stems(pg_url: str) -> None:
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        for i in range(6):
            mem.remember(f"the weekly meeting number {i}")
        target = mem.remember("weekly meetings discussed kubernetes clusters", tags=["infra"]).id
        tagged = mem.remember("an unrelated memory", tags=["kubernetes"]).id
        hits = mem.store.text_search(["meeting", "kubernetes"], 10, Filter())
        assert hits[0][0] == target  # the rare stem weighs more; "meetings" matches "meeting"
        assert tagged in [i for i, _ in hits]  # tags are searched too, at a lower weight
        assert dict(hits)[tagged] < hits[0][1]
        total, df = mem.store.document_frequencies(["meet", "kubernet"])
        assert total == 8 and df == {"meet": 7, "kubernet": 2}
        mem.forget(target)
        assert mem.store.document_frequencies(["kubernet"])[1] == {"kubernet": 1}


def test_any_text_can_be_indexed_and_searched(pg_url: str) -> None:
    texts = [
        "item(s) for the order",
        "O'Brien said \\o/ 'quoted' \"double\"",
        "naïve café — 東京 🚀",
        "x" * 3000,
        "s s s",
    ]
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        ids = [mem.remember(t).id for t in texts]
        assert mem.store.text_search(["O'Brien"], 5, Filter())[0][0] == ids[1]
        assert mem.store.text_search(["café"], 5, Filter())[0][0] == ids[2]
        assert mem.store.text_search(["items", "s"], 5, Filter())[0][0] == ids[0]
        assert mem.validate_storage()["issues"] == []


def test_tenants_get_their_own_schema(pg_url: str, tmp_path: Path) -> None:
    tenants = Tenants(Settings(home=tmp_path / "home"), embedder=FakeEmbedder(), db=pg_url)
    try:
        tenants.memory("acme").remember("acme's secret roadmap")
        tenants.memory("globex-corp").remember("globex's launch plan")
        assert [r.content for r in tenants.memory("acme").list()] == ["acme's secret roadmap"]
        assert [r.content for r in tenants.memory("globex-corp").list()] == ["globex's launch plan"]
        assert tenants.path("globex-corp") == with_schema(pg_url, "tenant_globex__corp")
    finally:
        tenants.close()


def test_copy_between_backends_is_verified(pg_url: str, tmp_path: Path) -> None:
    with Memory(tmp_path / "src.db", embedder=FakeEmbedder()) as mem:
        ids = _fill(mem)
        source = fingerprint(mem.store)
    src = SQLiteStore(tmp_path / "src.db")
    pg = PostgresStore(pg_url)
    try:
        copied = copy_store(src, pg)
        assert copied["memories"] == source["memories"]["count"] and copied["sources"] == 1
        assert verify_copy(src, pg)["audit_log"] == source["audit_log"]["count"] > 0
        assert fingerprint(pg) == source  # every field and every embedding, byte for byte
        back = SQLiteStore(tmp_path / "back.db")
        copy_store(pg, back)
        assert fingerprint(back) == source
        back.close()
        with pg.atomic() as db:  # a changed row is caught even when the counts agree
            db.execute(b"UPDATE memories SET importance = 0.123 WHERE id = %s", (ids[0],))
        with pytest.raises(StoreError, match=r"memories: .* different content"):
            verify_copy(src, pg)
    finally:
        src.close()
        pg.close()
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:  # the copy is a working store
        assert mem.recall("gemini ships friday", limit=1, touch=False)[0].record.id == ids[1]
        assert len(mem.store.children(ids[3])) > 1


@pytest.mark.model
def test_cli_on_postgres_and_migrate(
    pg_url: str, pg_server: str, tmp_path: Path, model: CachedEmbedder
) -> None:
    """The real model through the CLI on PostgreSQL, then `engram migrate` to a file and back to PostgreSQL."""
    sqlite_db = tmp_path / "m.db"
    for text in (
        "I like minimalistic user interfaces",
        "Renew the TLS certificate before March",
        "My sister Ana lives in Lisbon",
    ):
        result = runner.invoke(app, ["--db", pg_url, "remember", text])
        assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["--db", pg_url, "recall", "where does my sister live", "--json"])
    assert json.loads(result.output)[0]["content"] == "My sister Ana lives in Lisbon"
    result = runner.invoke(app, ["migrate", "--from", pg_url, "--to", f"sqlite://{sqlite_db}"])
    assert result.exit_code == 0, result.output
    assert "count + sha256" in result.output and "MISMATCH" not in result.output
    again = with_schema(pg_server, pg_url.rsplit("schema=", 1)[1] + "_b")
    result = runner.invoke(app, ["migrate", "--from", f"sqlite://{sqlite_db}", "--to", again])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["migrate", "--from", f"sqlite://{sqlite_db}", "--to", again])
    assert result.exit_code == 2 and "not empty" in result.output
    result = runner.invoke(app, ["--db", again, "recall", "TLS certificate", "--json"])
    assert json.loads(result.output)[0]["content"] == "Renew the TLS certificate before March"
    with psycopg.connect(pg_server, autocommit=True) as db:
        db.execute(f"DROP SCHEMA {again.rsplit('schema=', 1)[1]} CASCADE".encode())


def test_locations_and_their_display() -> None:
    assert locate("sqlite:///var/lib/engram/m.db") == Path("/var/lib/engram/m.db")
    assert locate("postgresql://u:secret@db/engram") == "postgresql://u:secret@db/engram"
    assert shown("postgresql://u:secret@db/engram") == "postgresql://u:***@db/engram"
    with pytest.raises(StoreError, match="schema name"):
        with_schema("postgresql://db/engram", "Robert'); DROP")


@pytest.mark.model
def test_two_servers_share_one_database(pg_url: str, tmp_path: Path) -> None:
    """Two real `engram serve` processes on one PostgreSQL database: writes through either are found through
    the other, and the same memory stored through both at once is kept once."""
    import os
    import socket
    import subprocess
    import sys
    import time
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    def free_port() -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return int(s.getsockname()[1])

    env = os.environ | {"ENGRAM_HOME": str(tmp_path / "home"), "ENGRAM_MAINTAIN_EVERY_MINUTES": "0"}
    ports = [free_port(), free_port()]
    servers = [
        subprocess.Popen(
            [sys.executable, "-m", "engram", "--db", pg_url, "serve", "--local", "--port", str(p)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p in ports
    ]
    clients = [httpx.Client(base_url=f"http://127.0.0.1:{p}", timeout=30) for p in ports]
    try:
        deadline = time.monotonic() + 90
        for client, server in zip(clients, servers, strict=True):
            while True:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                try:
                    if client.get("/api/health").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline, "server did not start"
                time.sleep(0.2)
        shared = "The quarterly board meeting moved to the Lisbon office"

        def store(i: int) -> str:
            body = {"content": shared if i % 2 == 0 else f"Server {i % 2} wrote note {_word(i * 7919)}"}
            response = clients[i % 2].post("/v1/store", json=body)
            assert response.status_code == 200, response.text
            return str(response.json()["memory_id"])

        with ThreadPoolExecutor(4) as pool:
            ids = list(pool.map(store, range(12)))
        assert len({ids[i] for i in range(0, 12, 2)}) == 1  # six stores of one text, one memory
        found = clients[1].post("/v1/search", json={"query": "where is the board meeting"}).json()["results"]
        assert found[0]["id"] == ids[0]
        listed = clients[0].get("/v1/memories", params={"limit": 50}).json()
        assert len(listed["memories"]) == 7
    finally:
        for client in clients:
            client.close()
        for server in servers:
            server.terminate()
            server.wait(30)
            if server.stderr:
                server.stderr.close()


def test_an_unreachable_server_is_a_clear_error(tmp_path: Path) -> None:
    url = f"postgresql://engram:secret@/engram?host={tmp_path}"  # no server listens on this socket directory
    with pytest.raises(
        StoreUnavailable, match=r"cannot reach PostgreSQL at postgresql://engram:\*\*\*@"
    ) as info:
        PostgresStore(url)
    assert "secret" not in str(info.value)
