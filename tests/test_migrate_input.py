"""`engram migrate` refuses a source that is not there, an unsupported URL and a file that is no database
before it opens anything: opening a store creates it, so a mistyped source was copied as an empty store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg
import pytest
from rich.console import Console
from typer.testing import CliRunner
from typer.testing import Result as CliResult

from engram import FakeEmbedder, Memory
from engram.interfaces.cli import migrate as cli_migrate
from engram.interfaces.cli.app import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def _one_line_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    """Long temporary paths are not wrapped at 80 columns: each message is one line to match."""
    monkeypatch.setattr(cli_migrate, "err", Console(stderr=True, width=1000))


def _migrate(source: str, target: str) -> CliResult:
    return runner.invoke(app, ["migrate", "--from", source, "--to", target])


def _store(path: Path) -> Path:
    with Memory(path, embedder=FakeEmbedder()) as mem:
        mem.remember("The spare key is under the blue pot")
    return path


def _files(root: Path) -> set[Path]:
    return set(root.rglob("*"))


def test_a_source_that_does_not_exist_is_refused_and_nothing_is_created(tmp_path: Path) -> None:
    missing, target = tmp_path / "x" / "nonexist.db", tmp_path / "x" / "out.db"
    result = _migrate(f"sqlite://{missing}", f"sqlite://{target}")
    assert result.exit_code != 0 and "error: --from: " in result.output and "does not exist" in result.output
    assert "migrated" not in result.output
    assert _files(tmp_path) == set()  # neither the source, the target nor their directory
    result = _migrate(str(missing), str(target))  # a plain path is the same file
    assert result.exit_code != 0 and "does not exist" in result.output and _files(tmp_path) == set()


@pytest.mark.parametrize("scheme", ["mysql", "file", "sqlite3", "SQLITE", "http"])
def test_an_unsupported_scheme_is_refused_naming_the_supported_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scheme: str
) -> None:
    monkeypatch.chdir(tmp_path)
    source = _store(tmp_path / "source.db")
    before = _files(tmp_path)
    result = _migrate(f"{scheme}://x/y", str(tmp_path / "out.db"))
    assert result.exit_code != 0 and "migrated" not in result.output
    assert f"error: --from: unsupported scheme {scheme}://" in result.output
    assert "sqlite:///path" in result.output and "postgresql://" in result.output
    result = _migrate(str(source), f"{scheme}://x/y")
    assert result.exit_code != 0 and f"error: --to: unsupported scheme {scheme}://" in result.output
    assert _files(tmp_path) == before  # no ./mysql:/x/y directory, no out.db


def test_a_directory_a_text_file_or_another_programs_database_is_refused(tmp_path: Path) -> None:
    source = _store(tmp_path / "source.db")
    (tmp_path / "notes.txt").write_text("not a database\n")
    (tmp_path / "dir").mkdir()
    other = tmp_path / "other.db"
    db = sqlite3.connect(other)  # another program's tables
    db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY)")
    db.commit()
    db.close()
    before = {p: p.read_bytes() for p in _files(tmp_path) if p.is_file()}
    cases = [
        ("--from", str(tmp_path / "notes.txt"), str(tmp_path / "a.db"), "is not an SQLite database"),
        ("--from", str(tmp_path / "dir"), str(tmp_path / "b.db"), "is a directory"),
        ("--from", str(other), str(tmp_path / "c.db"), "is not an Engram store"),
        ("--from", ":memory:", str(tmp_path / "d.db"), ":memory: keeps nothing"),
        ("--to", str(source), str(tmp_path / "notes.txt"), "is not an SQLite database"),
        ("--to", str(source), str(tmp_path / "dir"), "is a directory"),
        ("--to", str(source), str(other), "another program's SQLite database"),
    ]
    for option, src, dst, problem in cases:
        result = _migrate(src, dst)
        assert result.exit_code == 2, (src, dst, result.output)
        assert f"error: {option}: " in result.output and problem in result.output
    assert {p: p.read_bytes() for p in _files(tmp_path) if p.is_file()} == before  # nothing written


def test_an_existing_store_is_still_copied(tmp_path: Path) -> None:
    source = _store(tmp_path / "source.db")
    result = _migrate(f"sqlite://{source}", f"sqlite://{tmp_path / 'new' / 'copy.db'}")
    assert result.exit_code == 0, result.output
    assert "migrated" in result.output and "MISMATCH" not in result.output
    with Memory(tmp_path / "new" / "copy.db", embedder=FakeEmbedder()) as mem:
        assert [r.content for r in mem.list()] == ["The spare key is under the blue pot"]


def test_a_postgres_schema_without_a_store_is_refused_and_not_created(
    pg_url: str, pg_server: str, tmp_path: Path
) -> None:
    schema = pg_url.rsplit("schema=", 1)[1]
    result = _migrate(pg_url, str(tmp_path / "out.db"))
    assert result.exit_code == 2 and "error: --from: " in result.output and "does not exist" in result.output
    assert _files(tmp_path) == set()
    with psycopg.connect(pg_server) as db:
        assert db.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone() is None
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        mem.remember("The spare key is under the blue pot")
    result = _migrate(pg_url, str(tmp_path / "out.db"))
    assert result.exit_code == 0, result.output
    with Memory(tmp_path / "out.db", embedder=FakeEmbedder()) as mem:
        assert [r.content for r in mem.list()] == ["The spare key is under the blue pot"]


def test_an_unreachable_postgres_source_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    result = _migrate("postgresql://nobody@127.0.0.1:1/engram", str(tmp_path / "out.db"))
    assert result.exit_code == 1 and "error: cannot reach PostgreSQL" in result.output
    assert _files(tmp_path) == set()
