"""Tenants under attack: hostile names and hostile file paths, on SQLite and PostgreSQL; never a cross-tenant read.

Properties (hypothesis) over names built to collide (team-x / team__x, long names, reserved words) and paths
built to escape (`..`, absolute paths, links, NUL, another tenant's folder)."""

from __future__ import annotations

import contextlib
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from engram import FakeEmbedder, InvalidInput, Settings, StoreError
from engram.config import split_schema, with_schema
from engram.interfaces.cli.app import app
from engram.interfaces.tenants import RESERVED, Keys, Tenants, check_tenant, schema_of

VALID = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")
# Letters that make names collide once spelt as a schema: '-' and '_' side by side, repeated.
names = st.text(alphabet="ab-_1", min_size=1, max_size=70).filter(
    lambda n: VALID.fullmatch(n) is not None and n not in RESERVED and not n.startswith("pg_")
)
anything = st.text(alphabet=string.printable + "\x00\u00e9\u0131\u212a\ud7ff", max_size=80)


@settings(max_examples=3000, deadline=None)
@given(st.lists(names, min_size=2, max_size=8, unique=True))
def test_every_tenant_has_a_schema_of_its_own(tenants: list[str]) -> None:
    schemas = [schema_of(t) for t in tenants]
    assert len(set(schemas)) == len(schemas), dict(zip(tenants, schemas, strict=True))
    for schema in schemas:  # each is a schema name the store accepts
        assert split_schema(with_schema("postgresql://h/db", schema))[1] == schema


def test_the_schemas_of_old_names_do_not_move() -> None:
    """A name that never collided keeps its schema: a server upgraded in place still finds its memories."""
    assert schema_of("acme") == "tenant_acme"
    assert schema_of("globex-corp") == "tenant_globex__corp"
    assert schema_of("a_b") == "tenant_a_b"
    assert schema_of("team-x") != schema_of("team__x")


@settings(max_examples=500, deadline=None)
@given(anything)
def test_a_hostile_name_names_no_tenant(name: str) -> None:
    ok = VALID.fullmatch(name) is not None and name not in RESERVED and not name.startswith("pg_")
    if ok:
        assert check_tenant(name) == name
    else:
        with pytest.raises(InvalidInput) as caught:
            check_tenant(name)
        assert caught.value.field == "tenant"


@pytest.mark.parametrize(
    "name", ["local", "default", "admin", "public", "postgres", "pg_catalog", "information_schema"]
)
def test_reserved_names_are_refused_by_keys_create(name: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["keys", "create", name])
    assert result.exit_code == 2, result.output
    assert "reserved" in result.output
    keys = Keys(Settings().home / "keys.db")
    try:
        assert keys.list() == []
    finally:
        keys.close()


def test_other_hostile_names_are_refused_by_keys_create() -> None:
    for name in ("Alice", "../bob", "-x", "_x", "a" * 64, "bob\x00", "bob/../../x", "x y", ""):
        result = CliRunner().invoke(app, ["keys", "create", name])
        assert result.exit_code == 2, (name, result.output)


# ---- no cross-tenant read, on both backends ---------------------------------------------------------------
@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str | Path]:
    if request.param == "sqlite":
        yield tmp_path / "local.db"
        return
    url: str = request.getfixturevalue("pg_url")
    yield url
    import psycopg

    conninfo, _ = split_schema(url)
    with psycopg.connect(conninfo, autocommit=True) as db:
        for name in CONFUSABLE:  # the tenants' schemas this test made
            db.execute(f'DROP SCHEMA IF EXISTS "{schema_of(name)}" CASCADE'.encode())


# The names most likely to share a store: spelt alike as a schema, or as a file.
CONFUSABLE = ["team-x", "team__x", "team_-x", "team-_x", "team--x", "team___x", "a" * 63, "a" * 62 + "b"]
confusable = st.sampled_from(CONFUSABLE)


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(confusable, min_size=2, max_size=4, unique=True))
def test_no_tenant_reads_another_tenants_memories(
    backend: str | Path, tmp_path: Path, tenants: list[str]
) -> None:
    home = tmp_path / f"home-{abs(hash(tuple(tenants)))}"
    server = Tenants(Settings(home=home), embedder=FakeEmbedder(), db=backend)
    try:
        for t in tenants:
            mem = server.memory(t)
            if mem.count() == 0:
                mem.remember(f"the private plan of tenant {t}")
        for t in tenants:
            mem = server.memory(t)
            seen = [r.content for r in mem.list(limit=100)]
            seen += [h.record.content for h in mem.recall("private plan of tenant", limit=50)]
            assert seen and all(text == f"the private plan of tenant {t}" for text in seen), (t, seen)
    finally:
        server.close()


# ---- file paths -----------------------------------------------------------------------------------------------
segments = st.sampled_from(
    [
        "..",
        ".",
        "",
        "/",
        "~",
        "bob",
        "alice",
        "files",
        "tenants",
        "bob.db",
        "x.jsonl",
        "\x00",
        "%2e%2e",
        "link",
        "é",
    ]
)
paths = st.one_of(
    st.lists(segments, min_size=1, max_size=6).map("/".join),
    anything,
)


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[Tenants, Path]]:
    home = tmp_path / "home"
    server = Tenants(Settings(home=home), embedder=FakeEmbedder(), db=tmp_path / "local.db")
    server.memory("bob").remember("bob's secret")
    assert server.memory("bob").export_memories("bob.jsonl")["exported"] == 1
    mine = server.files("alice")
    mine.mkdir(parents=True, exist_ok=True)
    (mine / "link").symlink_to(server.files("bob"))  # a link out of alice's folder, into bob's
    yield server, home
    server.close()


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=paths)
def test_a_tenants_file_tools_stay_in_its_folder(pair: tuple[Tenants, Path], path: str) -> None:
    server, home = pair
    file_tools_stay_in_folder(server, home, path, ("alice", "bob"), str(home / "tenants" / "bob.db"))


def file_tools_stay_in_folder(
    server: Tenants, home: Path, path: str, names: tuple[str, str], *more: str
) -> None:
    """The first tenant's file tools, given `path`, make files only in its folder, and its imports (also of
    `../<second>/path`, through a link in its folder, and of the `more` paths) read nothing of the second's."""
    alice, bob = (server.memory(name) for name in names)
    folder = server.files(names[0]).resolve()
    before = {p for p in home.rglob("*")}
    for tool, arguments in (
        ("import_memories", {"path": path}),
        ("backup_restore", {"action": "restore", "path": path}),
        ("export_memories", {"path": path}),
        ("backup_restore", {"action": "backup", "path": path}),
    ):
        try:
            alice.run_tool(tool, **arguments)
        except InvalidInput as exc:
            assert exc.field == "path" or exc.field.startswith(("line", "file")), (tool, exc)
            continue
        except StoreError:  # a file of its own that is no database, restored: refused, nothing replaced
            continue
        if tool in ("export_memories", "backup_restore") and arguments.get("action") != "restore":
            made = {p for p in home.rglob("*")} - before
            assert all(p.resolve().is_relative_to(folder) for p in made if p.is_file()), (tool, path, made)
    for foreign in ("shodh-json", "mem0", "mcp-memory-service"):
        for attempt in (path, f"../{names[1]}/{path}", f"link/{path}", *more):
            with contextlib.suppress(InvalidInput, StoreError):
                alice.import_from(foreign, attempt)
    assert all("bob's secret" not in r.content for r in alice.list(limit=1000)), path
    assert [r.content for r in bob.list(limit=1000)] == ["bob's secret"]


def test_keys_list_says_which_old_keys_act_for_nobody() -> None:
    keys = Keys(Settings().home / "keys.db")
    try:
        keys.create("alice")
        keys._db.execute(  # what an older version let `engram keys create local` write
            "INSERT INTO api_keys(id, hash, tenant, name, created_at) VALUES ('old', 'h', 'local', '', '2025-01-01')"
        )
    finally:
        keys.close()
    result = CliRunner().invoke(app, ["keys", "list"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any("local" in line and "refused" in line for line in lines), result.output
    assert not any("alice" in line and "refused" in line for line in lines)
