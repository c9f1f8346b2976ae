"""`engram setup` rewrites a client's own file (~/.claude.json holds Claude Code's account and tokens, 0600). It
rewrote it, and wrote its backup copy, with the system's default mode: 0644, readable by every account on the
machine. A file kept as a link into a dotfiles folder became a plain file, the link lost; and the new text went
through a file of a fixed name beside it, so a link planted under that name was followed."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engram.interfaces.cli.app import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def _usual_umask() -> Iterator[None]:
    before = os.umask(0o022)
    yield
    os.umask(before)


def _setup(config: Path, db: Path) -> None:
    result = runner.invoke(
        app, ["setup", "claude-code", "--config", str(config), "--db", str(db), "--no-hooks"]
    )
    assert result.exit_code == 0, result.output


def test_a_private_config_and_its_backup_stay_private(tmp_path: Path) -> None:
    config = tmp_path / ".claude.json"
    config.write_text(json.dumps({"oauthAccount": {"token": "sk-private"}, "mcpServers": {}}))
    config.chmod(0o600)
    _setup(config, tmp_path / "m.db")
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert json.loads(config.read_text())["oauthAccount"] == {"token": "sk-private"}
    assert "engram" in json.loads(config.read_text())["mcpServers"]
    (backup,) = tmp_path.glob(".claude.json.engram-backup-*")
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600 and "sk-private" in backup.read_text()
    assert [p.name for p in tmp_path.iterdir() if "engram-new" in p.name] == []


def test_a_config_kept_as_a_link_stays_a_link(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "claude.json").write_text(json.dumps({"mcpServers": {"other": {"command": "x"}}}))
    config = tmp_path / ".claude.json"
    config.symlink_to(dotfiles / "claude.json")
    _setup(config, tmp_path / "m.db")
    assert config.is_symlink()
    assert set(json.loads((dotfiles / "claude.json").read_text())["mcpServers"]) == {"other", "engram"}


def test_a_link_planted_at_the_old_staging_name_is_not_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    project = tmp_path / "project"
    project.mkdir()
    config = project / ".claude.json"
    config.write_text(json.dumps({"mcpServers": {}}))
    (project / f".{config.name}.engram-new").symlink_to(victim)  # the old fixed name
    _setup(config, tmp_path / "m.db")
    assert victim.read_text() == "keep me"
    assert "engram" in json.loads(config.read_text())["mcpServers"]
