"""`engram setup CLIENT` against each client's real configuration format (fixtures in tests/fixtures/clients,
from the clients' documentation, each with another server that must survive), and the Claude Code hooks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import json5
import pytest
from typer.testing import CliRunner

from engram.interfaces.cli.app import app

FIXTURES = Path(__file__).parent / "fixtures" / "clients"
runner = CliRunner()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home of the test's own: setup never touches the real one."""
    home = tmp_path / "user"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.chdir(tmp_path)
    return home


def setup(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["setup", *args])
    return result.exit_code, result.output


def backups(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.engram-backup-*"))


# (client, fixture, the key its servers live under, the other server in the fixture, what the entry must hold)
CASES: list[tuple[str, str, str, str, dict[str, Any]]] = [
    ("claude-desktop", "claude_desktop_config.json", "mcpServers", "filesystem", {}),
    ("claude-code", "claude_code.json", "mcpServers", "airtable", {"type": "stdio"}),
    ("cursor", "cursor_mcp.json", "mcpServers", "server-name", {}),
    ("vscode", "vscode_mcp.json", "servers", "Perplexity", {"type": "stdio"}),
    ("windsurf", "windsurf_mcp_config.json", "mcpServers", "github", {}),
    ("zed", "zed_settings.json", "context_servers", "some-context-server", {"source": "custom", "env": {}}),
]


@pytest.mark.parametrize(("client", "fixture", "key", "other", "extra"), CASES)
def test_merges_into_an_existing_config_keeping_the_other_servers(
    home: Path, tmp_path: Path, client: str, fixture: str, key: str, other: str, extra: dict[str, Any]
) -> None:
    config = tmp_path / fixture
    shutil.copy(FIXTURES / fixture, config)
    before = json.loads(config.read_text())
    db = tmp_path / "notes.db"
    code, out = setup(client, "--config", str(config), "--db", str(db), "--no-hooks")
    assert code == 0, out
    after = json.loads(config.read_text())
    assert after[key][other] == before[key][other]  # the other server survives, as it was
    assert {k: v for k, v in after.items() if k != key} == {k: v for k, v in before.items() if k != key}
    entry = after[key]["engram"]
    assert entry["args"] == ["--db", str(db), "mcp"] and Path(entry["command"]).name.startswith(
        ("engram", "python")
    )
    assert all(entry[k] == v for k, v in extra.items())
    assert [json.loads(b.read_text()) for b in backups(config)] == [before]  # the old file, kept whole
    assert "updated" in out and "backup" in out
    code, out = setup(client, "--config", str(config), "--db", str(db), "--no-hooks")  # again: nothing to do
    assert code == 0 and "unchanged" in out and len(backups(config)) == 1


@pytest.mark.parametrize(
    ("client", "where"),
    [
        ("claude-code", ".claude.json"),
        ("cursor", ".cursor/mcp.json"),
        ("windsurf", ".codeium/windsurf/mcp_config.json"),
        ("zed", ".config/zed/settings.json"),
        ("codex", ".codex/config.toml"),
    ],
)
def test_writes_where_the_client_looks(home: Path, client: str, where: str) -> None:
    code, out = setup(client, "--no-hooks")
    assert code == 0, out
    assert (home / where).is_file() and "created" in out
    assert not backups(home / where)  # nothing was there to keep


def test_vscode_writes_the_workspace_file_and_claude_desktop_its_app_folder(
    home: Path, tmp_path: Path
) -> None:
    assert setup("vscode")[0] == 0
    assert "engram" in json.loads((tmp_path / ".vscode" / "mcp.json").read_text())["servers"]
    assert setup("claude-desktop")[0] == 0
    folder = home / "Library/Application Support" if sys.platform == "darwin" else home / ".config"
    assert (
        "engram" in json.loads((folder / "Claude" / "claude_desktop_config.json").read_text())["mcpServers"]
    )


def test_codex_toml_keeps_comments_other_servers_and_tables(home: Path, tmp_path: Path) -> None:
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    shutil.copy(FIXTURES / "codex_config.toml", config)
    original = config.read_text()
    code, out = setup("codex", "--db", str(tmp_path / "m.db"))
    assert code == 0, out
    text = config.read_text()
    assert text.startswith(original.split("[profiles.fast]")[0])  # comments and order kept
    data = tomllib.loads(text)
    assert data["mcp_servers"]["context7"]["env"] == {"MY_ENV_VAR": "MY_ENV_VALUE"}
    assert data["profiles"]["fast"] == {"model": "gpt-5-mini"} and data["model"] == "gpt-5-codex"
    assert data["mcp_servers"]["engram"]["args"] == ["--db", str(tmp_path / "m.db"), "mcp"]
    assert "[mcp_servers.engram]" in text
    assert backups(config)[0].read_text() == original


def test_dry_run_prints_and_writes_nothing(home: Path, tmp_path: Path) -> None:
    config = tmp_path / "cursor.json"
    shutil.copy(FIXTURES / "cursor_mcp.json", config)
    before = config.read_text()
    code, out = setup("cursor", "--config", str(config), "--dry-run")
    assert code == 0 and "server-name" in out and '"engram"' in out and "nothing was written" in out
    assert config.read_text() == before and not backups(config)
    code, out = setup("codex", "--dry-run")
    assert code == 0 and "[mcp_servers.engram]" in out and not (home / ".codex").exists()
    code, out = setup("claude-code", "--dry-run", "--json")
    said = json.loads(out)
    assert said["dry_run"] is True and [f["action"] for f in said["files"]] == ["created", "created"]
    assert not (home / ".claude.json").exists() and not (home / ".claude").exists()


# (client, fixture, the keys to its servers, the other server): JSON with comments and trailing commas, as Zed's
# settings.json and VS Code's mcp.json and settings.json are written (from their documentation)
COMMENTED: list[tuple[str, str, list[str], str | None]] = [
    ("zed", "zed_settings_with_comments.json", ["context_servers"], "some-context-server"),
    ("zed", "zed_settings_initial.json", ["context_servers"], None),
    ("vscode", "vscode_mcp_with_comments.json", ["servers"], "Perplexity"),
    ("vscode", "vscode_settings_with_comments.json", ["mcp", "servers"], "my-mcp-server"),
]


def _at(data: Any, keys: list[str]) -> Any:
    for key in keys:
        data = data[key]
    return data


@pytest.mark.parametrize(("client", "fixture", "keys", "other"), COMMENTED)
def test_merges_into_settings_with_comments_keeping_every_comment_and_line(
    home: Path, tmp_path: Path, client: str, fixture: str, keys: list[str], other: str | None
) -> None:
    config = tmp_path / ("settings.json" if "settings" in fixture else "mcp.json")
    shutil.copy(FIXTURES / fixture, config)
    original = config.read_text(encoding="utf-8")
    before = json5.loads(original)
    db = tmp_path / "notes.db"
    code, out = setup(client, "--config", str(config), "--db", str(db))
    assert code == 0 and "updated" in out, out
    text = config.read_text(encoding="utf-8")
    after = json5.loads(text)
    entry = _at(after, keys).pop("engram")
    assert entry["args"] == ["--db", str(db), "mcp"]
    if other is None:  # the file had no servers: their table was made for ours
        assert after.pop(keys[0]) == {}
    else:
        assert other in _at(after, keys)
    assert after == before  # the other servers and settings, as they were
    # every line of the file is still there, in order, comments included (the member before ours gains a comma)
    lines = iter(text.splitlines())
    for line in original.splitlines():
        assert any(new in (line, line + ",") for new in lines), line
    assert [b.read_text(encoding="utf-8") for b in backups(config)] == [original]
    code, out = setup(client, "--config", str(config), "--db", str(db))  # again: nothing to do
    assert code == 0 and "unchanged" in out and config.read_text(encoding="utf-8") == text


def test_a_file_it_cannot_parse_is_left_alone_with_a_clear_error(home: Path, tmp_path: Path) -> None:
    config = tmp_path / "settings.json"
    config.write_text('// mine\n{\n  "theme": "One Dark",\n  "context_servers": {\n}\n')  # a brace short
    before = config.read_text()
    code, out = setup("zed", "--config", str(config))
    assert code == 2 and str(config) in out and "not valid JSON" in out and "line" in out
    assert '"context_servers"' in out  # what to add by hand
    assert config.read_text() == before and not backups(config)
    (tmp_path / "list.json").write_text("[1, 2]")
    code, out = setup("cursor", "--config", str(tmp_path / "list.json"))
    assert code == 2 and "not an object" in out
    (tmp_path / "odd.json").write_text('{"mcpServers": ["x"]}')
    code, out = setup("cursor", "--config", str(tmp_path / "odd.json"))
    assert code == 2 and '"mcpServers" as a list' in out
    (tmp_path / "bad.toml").write_text("model = \n")
    code, out = setup("codex", "--config", str(tmp_path / "bad.toml"))
    assert code == 2 and "not valid TOML" in out and (tmp_path / "bad.toml").read_text() == "model = \n"


def test_claude_code_hooks_merge_with_the_users_hooks(home: Path, tmp_path: Path) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    shutil.copy(FIXTURES / "claude_code_settings.json", settings)
    before = json.loads(settings.read_text())
    db = str(tmp_path / "m.db")
    assert setup("claude-code", "--db", db)[0] == 0
    assert setup("claude-code", "--db", db)[0] == 0  # twice: Engram's hooks once, not twice
    after = json.loads(settings.read_text())
    assert after["permissions"] == before["permissions"]
    assert after["hooks"]["PreToolUse"] == before["hooks"]["PreToolUse"]
    start = after["hooks"]["SessionStart"]
    assert start[0] == before["hooks"]["SessionStart"][0] and len(start) == 2  # the user's, then Engram's
    assert start[1]["hooks"][0]["command"].endswith(f"--db {db} hook session-start")
    (end,) = after["hooks"]["SessionEnd"]
    assert end["hooks"][0]["type"] == "command" and end["hooks"][0]["command"].endswith("hook session-end")


def test_session_hooks_keep_what_a_session_decided_and_give_it_back(tmp_path: Path) -> None:
    db = str(tmp_path / "hooks.db")
    hook = {"session_id": "9f1c", "cwd": "/src/billing", "hook_event_name": "SessionStart"}
    result = runner.invoke(app, ["--db", db, "hook", "session-start"], input=json.dumps(hook))
    assert result.exit_code == 0 and result.output == "" and not Path(db).exists()  # no store yet: no context
    transcript = tmp_path / "t.jsonl"
    shutil.copy(FIXTURES / "claude_code_transcript.jsonl", transcript)
    end = hook | {"hook_event_name": "SessionEnd", "transcript_path": str(transcript), "reason": "exit"}
    result = runner.invoke(app, ["--db", db, "hook", "session-end"], input=json.dumps(end))
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["--db", db, "list", "--json", "--status", "approved"])
    kept = {r["content"]: r for r in json.loads(result.output)}
    assert any("PostgreSQL for the billing service" in c for c in kept), kept
    assert all(r["scope_id"] == "billing" for r in kept.values())
    assert not any(
        "file written" in c or "/clear" in c for c in kept
    )  # tool output and commands are not memories
    result = runner.invoke(app, ["--db", db, "hook", "session-end"], input=json.dumps(end))
    assert result.exit_code == 0
    assert len(json.loads(runner.invoke(app, ["--db", db, "list", "--json"]).output)) == len(kept)  # once
    result = runner.invoke(app, ["--db", db, "hook", "session-start"], input=json.dumps(hook))
    assert result.exit_code == 0 and "PostgreSQL" in result.output
    result = runner.invoke(app, ["--db", db, "hook", "session-end"], input="{}")
    assert result.exit_code == 0 and "no transcript" in result.output  # never fails the session


def test_context_prints_the_session_context(tmp_path: Path) -> None:
    db = str(tmp_path / "ctx.db")
    runner.invoke(app, ["--db", db, "remember", "I prefer dark mode in every editor"])
    result = runner.invoke(app, ["--db", db, "context", "--max-tokens", "200"])
    assert result.exit_code == 0 and "dark mode" in result.output
    answer = json.loads(runner.invoke(app, ["--db", db, "context", "--json"]).output)
    assert "dark mode" in answer["text"] and answer["max_tokens"] == 1500 and answer["ids"]


def test_setup_says_when_the_server_extra_is_missing(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "mcp" else found(name, *a)
    )
    code, out = setup("cursor")
    assert code == 0 and "needs the server extra: pip install 'engram-memory[server]'" in out
    assert (home / ".cursor" / "mcp.json").is_file()  # written all the same: the extra can come after


def test_setup_as_a_real_command(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CONFIG_HOME", "CODEX_HOME")} | {
        "HOME": str(home)
    }
    command = [sys.executable, "-m", "engram", "setup", "cursor", "--db", str(tmp_path / "x.db")]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    entry = json.loads((home / ".cursor" / "mcp.json").read_text())["mcpServers"]["engram"]
    assert entry["args"][-1] == "mcp" and Path(entry["command"]).is_file()
    assert not (tmp_path / "x.db").exists()  # setting up creates no database


def test_zed_with_comments_as_a_real_command(tmp_path: Path) -> None:
    """Zed's own first settings file, where Zed keeps it, merged by a real `engram setup zed`."""
    home = tmp_path / "home"
    settings = home / ".config" / "zed" / "settings.json"
    settings.parent.mkdir(parents=True)
    shutil.copy(FIXTURES / "zed_settings_initial.json", settings)
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CONFIG_HOME", "CODEX_HOME")} | {
        "HOME": str(home)
    }
    command = [sys.executable, "-m", "engram", "setup", "zed", "--db", str(tmp_path / "x.db")]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "updated" in done.stdout, done.stderr
    text = settings.read_text(encoding="utf-8")
    assert text.startswith("// Zed settings\n//\n// For information on how to configure Zed")
    assert json5.loads(text)["context_servers"]["engram"]["args"][-1] == "mcp"
    assert json5.loads(text)["theme"]["dark"] == "One Dark"


@pytest.mark.parametrize(
    ("platform", "client", "where"),
    [  # where each client's documentation puts the file on macOS and Windows
        ("darwin", "claude-desktop", "Library/Application Support/Claude/claude_desktop_config.json"),
        ("win32", "claude-desktop", "AppData/Roaming/Claude/claude_desktop_config.json"),
        ("darwin", "zed", ".config/zed/settings.json"),
        ("win32", "zed", "AppData/Roaming/Zed/settings.json"),
        ("win32", "claude-code", ".claude.json"),
        ("darwin", "cursor", ".cursor/mcp.json"),
        ("win32", "windsurf", ".codeium/windsurf/mcp_config.json"),
        ("darwin", "codex", ".codex/config.toml"),
    ],
)
def test_the_file_each_client_reads_on_macos_and_windows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, platform: str, client: str, where: str
) -> None:
    from engram.interfaces.cli import clients

    monkeypatch.setattr(clients.sys, "platform", platform)
    monkeypatch.delenv("APPDATA", raising=False)  # Windows sets it to the home's AppData/Roaming
    monkeypatch.delenv("CODEX_HOME", raising=False)
    home = tmp_path / "home"
    assert clients.CLIENTS[client].where(home, tmp_path) == home / where


def test_plain_json_still_merges_without_the_comment_keeping_parser(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """json-five installs as `json5`, a name another package also uses: with it overwritten, a plain JSON file
    is still merged (and a file with comments refused, untouched, with the entry to add by hand)."""
    import engram.interfaces.cli

    monkeypatch.setitem(sys.modules, "engram.interfaces.cli.jsonc", None)  # importing it now fails
    monkeypatch.delattr(engram.interfaces.cli, "jsonc", raising=False)
    config = tmp_path / "mcp.json"
    shutil.copy(FIXTURES / "cursor_mcp.json", config)
    before = json.loads(config.read_text())
    code, out = setup("cursor", "--config", str(config))
    after = json.loads(config.read_text())
    assert code == 0 and after["mcpServers"].pop("engram")["args"][-1] == "mcp" and after == before
    commented = tmp_path / "settings.json"
    shutil.copy(FIXTURES / "zed_settings_initial.json", commented)
    code, out = setup("zed", "--config", str(commented))
    assert code == 2 and '"context_servers"' in out
    assert commented.read_text() == (FIXTURES / "zed_settings_initial.json").read_text()
