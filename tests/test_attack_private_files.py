"""Another account on the same machine: the files Engram writes hold every memory (an export, a backup, the store
and its folder) or say who may call it (the key registry). Written with the system's default (umask 022: 0644
files, 0755 folders), each was readable by every account. They are created their owner's alone, from the start."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from engram import FakeEmbedder, InvalidInput, Memory, Settings
from engram.interfaces.cli.base import opened
from engram.interfaces.http.serve import build_app
from engram.interfaces.tenants import Keys, Tenants


@pytest.fixture(autouse=True)
def _usual_umask() -> Iterator[None]:
    before = os.umask(0o022)  # the common default, whatever the test runner's is
    yield
    os.umask(before)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_an_export_is_its_owners_alone(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        mem.remember("The cabin's Wi-Fi password is bluefinch42")
        mem.export_memories(tmp_path / "out.jsonl")
    assert _mode(tmp_path / "out.jsonl") == 0o600
    assert "bluefinch42" in (tmp_path / "out.jsonl").read_text()


def test_a_backup_is_its_owners_alone_whole_and_restores(mem: Memory, tmp_path: Path) -> None:
    # On both backends: PostgreSQL's backup is an SQLite file written through the store.
    written = [mem.remember(f"Note {i}: the cabin's Wi-Fi password is bluefinch{i}").id for i in range(30)]
    kept = mem.remember("The cabin's Wi-Fi password is bluefinch42").id
    mem.backup_restore("backup", tmp_path / "b.db")
    assert _mode(tmp_path / "b.db") == 0o600
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".engram")) == []
    with pytest.raises(InvalidInput) as again:  # never over a file that is there
        mem.backup_restore("backup", tmp_path / "b.db")
    assert again.value.field == "path"
    for gone in [kept, *written]:
        mem.forget(gone)
    mem.backup_restore("restore", tmp_path / "b.db")
    assert mem.get(kept).content == "The cabin's Wi-Fi password is bluefinch42"
    assert all(mem.get(i) is not None for i in written)


def test_the_key_registry_and_a_tenants_folders_are_the_servers_alone(tmp_path: Path) -> None:
    home = tmp_path / "home"
    keys = Keys(home / "keys.db")
    keys.create("alice")
    keys.close()
    assert _mode(home) == 0o700 and _mode(home / "keys.db") == 0o600
    tenants = Tenants(Settings(home=home), embedder=FakeEmbedder())
    try:
        mem = tenants.memory("alice")
        mem.remember("Alice's locker code is 4471")
        mem.export_memories("alice.jsonl")
    finally:
        tenants.close()
    assert _mode(home / "tenants") == 0o700
    assert _mode(home / "files" / "alice") == 0o700
    assert _mode(home / "files" / "alice" / "alice.jsonl") == 0o600


def test_the_web_exports_scratch_folder_is_the_servers_alone(tmp_path: Path) -> None:
    app = build_app(
        Settings(home=tmp_path, maintain_every_minutes=0),
        db=tmp_path / "local.db",
        embedder=FakeEmbedder(),
        require_key=False,
    )
    with TestClient(app, base_url="http://127.0.0.1:8765") as api:
        api.post("/v1/store", json={"content": "The cabin's Wi-Fi password is bluefinch42"})
        assert "bluefinch42" in api.get("/v1/export").text
    assert _mode(tmp_path / "files" / "local") == 0o700


def test_a_new_home_made_by_the_cli_is_its_users_alone(tmp_path: Path) -> None:
    with opened(tmp_path / "engram" / "memories.db", embedder=FakeEmbedder()) as mem:
        mem.remember("The cabin's Wi-Fi password is bluefinch42")
    assert _mode(tmp_path / "engram") == 0o700
    mine = tmp_path / "chosen"
    mine.mkdir(mode=0o755)
    with opened(mine / "memories.db", embedder=FakeEmbedder()):
        pass
    assert _mode(mine) == 0o755  # a folder the user made keeps the mode they gave it


def test_a_new_database_and_its_log_files_are_their_owners_alone(tmp_path: Path) -> None:
    """The folder may be old and open (an existing home made 0755): the database file itself, and the -wal and
    -shm files SQLite makes beside it with the database's mode, are still readable by their owner only."""
    tmp_path.chmod(0o755)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        mem.remember("The cabin's Wi-Fi password is bluefinch42")
        logs = [p for p in (tmp_path / "m.db-wal", tmp_path / "m.db-shm") if p.exists()]
        assert logs, "a WAL store has its log files while open"
        assert {_mode(p) for p in logs} == {0o600}
    assert _mode(tmp_path / "m.db") == 0o600


def test_an_existing_database_keeps_the_mode_its_owner_gave_it(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        mem.remember("first")
    (tmp_path / "m.db").chmod(0o640)  # shared with a backup group on purpose
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        assert mem.stats()["memories"] == 1
    assert _mode(tmp_path / "m.db") == 0o640
