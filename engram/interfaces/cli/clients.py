"""Where each MCP client keeps its server list, in which format, and how Engram's entry is merged into it.

Every client is a JSON file except Codex (TOML). A file is merged, never replaced: Engram's entry is spliced into
the text, so the other servers, every other key and the comments and trailing commas of Zed's and VS Code's
settings (JSON with comments) stay as they were; a copy of the old file is kept beside it
(NAME.engram-backup-TIMESTAMP) before the first change, and a file that does not parse is left alone with an error
that says how to add the entry by hand.
"""

from __future__ import annotations

import json
import os
import shlex
import stat
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from engram.errors import InvalidInput

NAME = "engram"  # the server's name in every client's list


@dataclass(frozen=True, slots=True)
class Client:
    label: str
    where: Callable[[Path, Path], Path]  # (home, working directory) -> the file
    key: str  # the table of servers in that file
    entry: Callable[[list[str]], dict[str, Any]]  # the server's entry, from the command that starts it
    settings: tuple[str, ...] = ()  # where the servers are when --config names the client's settings.json

    def key_in(self, path: Path) -> list[str]:
        """The keys leading to the table of servers in this file."""
        return list(self.settings) if self.settings and path.name == "settings.json" else [self.key]


def _plain(command: list[str]) -> dict[str, Any]:
    return {"command": command[0], "args": command[1:]}


def _typed(command: list[str]) -> dict[str, Any]:
    return {"type": "stdio", "command": command[0], "args": command[1:]}


def _zed(command: list[str]) -> dict[str, Any]:
    return {"source": "custom", "command": command[0], "args": command[1:], "env": {}}


def _app_data(home: Path, app: str) -> Path:
    """A desktop app's settings folder: macOS Application Support, Windows %APPDATA%, else XDG's ~/.config."""
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / app
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", home / "AppData" / "Roaming")) / app
    return Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config") / app


def _codex_home(home: Path) -> Path:
    return Path(os.environ["CODEX_HOME"]) if os.environ.get("CODEX_HOME") else home / ".codex"


CLIENTS: dict[str, Client] = {
    "claude-desktop": Client(
        "Claude Desktop",
        lambda home, _: _app_data(home, "Claude") / "claude_desktop_config.json",
        "mcpServers",
        _plain,
    ),
    # Claude Code keeps user-scope servers in ~/.claude.json and its hooks in ~/.claude/settings.json.
    "claude-code": Client("Claude Code", lambda home, _: home / ".claude.json", "mcpServers", _typed),
    "cursor": Client("Cursor", lambda home, _: home / ".cursor" / "mcp.json", "mcpServers", _plain),
    # VS Code reads a workspace's servers from .vscode/mcp.json, under "servers" (user settings.json: "mcp").
    "vscode": Client(
        "VS Code", lambda _, cwd: cwd / ".vscode" / "mcp.json", "servers", _typed, ("mcp", "servers")
    ),
    "windsurf": Client(
        "Windsurf", lambda home, _: home / ".codeium" / "windsurf" / "mcp_config.json", "mcpServers", _plain
    ),
    "zed": Client(
        "Zed",
        lambda home, _: (
            (_app_data(home, "Zed") if sys.platform == "win32" else home / ".config" / "zed")
            / "settings.json"
        ),
        "context_servers",
        _zed,
    ),
    "codex": Client("Codex", lambda home, _: _codex_home(home) / "config.toml", "mcp_servers", _plain),
}


def claude_settings(home: Path) -> Path:
    """Claude Code's user settings, where its hooks live."""
    return home / ".claude" / "settings.json"


@dataclass(frozen=True, slots=True)
class Change:
    """One file `engram setup` writes: its new text, and what happened to it."""

    path: Path
    text: str
    action: str  # created | updated | unchanged
    backup: Path | None = None


def _problem(path: Path, what: str, snippet: str) -> InvalidInput:
    return InvalidInput(
        "config", f"{path} {what}; it was left as it is. Fix it, or add this to it by hand:\n{snippet}"
    )


def read_json(path: Path, snippet: str) -> dict[str, Any]:
    """The file's object ({} when it does not exist or is empty); an error when it is not plain JSON."""
    if not path.exists():
        return {}
    text = path.read_text(encoding="utf-8")
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        hint = " (comments or trailing commas are not rewritten)" if "//" in text or "/*" in text else ""
        raise _problem(path, f"is not valid JSON: {exc.msg} at line {exc.lineno}{hint}", snippet) from None
    if not isinstance(data, dict):
        raise _problem(path, f"holds a JSON {type(data).__name__}, not an object", snippet)
    return data


def table_in(data: dict[str, Any], key: str, path: Path, snippet: str) -> dict[str, Any]:
    """The object under `key`, made when missing; an error when the key holds something else."""
    found = data.setdefault(key, {})
    if not isinstance(found, dict):
        raise _problem(path, f'holds "{key}" as a {type(found).__name__}, not an object', snippet)
    return found


def merge_server(client: Client, path: Path, command: list[str]) -> Change:
    """The client's file with Engram's server entry set, everything else kept."""
    entry = client.entry(command)
    if path.suffix == ".toml":
        return _merge_toml(path, client.key, entry)
    keys = client.key_in(path)
    snippet = json.dumps(_nest([*keys, NAME], entry), indent=2)
    try:
        from engram.interfaces.cli import jsonc  # its parser is read only when a JSON file is merged
    except (
        ImportError
    ):  # json-five's `json5` overwritten by another package of that name: plain JSON still merges
        data = table = read_json(path, snippet)
        for key in keys:
            table = table_in(table, key, path, snippet)
        table[NAME] = entry
        return change(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    try:
        return change(path, jsonc.set_member(text, [*keys, NAME], entry))
    except jsonc.NotAnObject as exc:
        what = f'holds "{exc.where}" as a {exc.kind}' if exc.where else f"holds a JSON {exc.kind}"
        raise _problem(path, f"{what}, not an object", snippet) from None
    except ValueError as exc:
        raise _problem(path, f"is not valid JSON: {exc}", snippet) from None


def _nest(keys: list[str], value: Any) -> dict[str, Any]:
    for key in reversed(keys[1:]):
        value = {key: value}
    return {keys[0]: value}


def _merge_toml(path: Path, key: str, entry: dict[str, Any]) -> Change:
    import tomlkit  # read only when a TOML file is merged, not by every command and server
    from tomlkit.exceptions import TOMLKitError

    new = tomlkit.document()
    new.add(key, tomlkit.table(is_super_table=True))
    new[key][NAME] = entry
    snippet = tomlkit.dumps(new)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    try:
        doc = tomlkit.parse(text)
    except TOMLKitError as exc:
        raise _problem(path, f"is not valid TOML: {exc}", snippet) from None
    servers = doc.get(key)
    if servers is None:
        doc.add(key, tomlkit.table(is_super_table=True))
        servers = doc[key]
    if not isinstance(servers, dict):
        raise _problem(path, f"holds {key} as a {type(servers).__name__}, not a table", snippet)
    table = tomlkit.table()
    table.update(entry)
    table.add(tomlkit.nl())  # a blank line before whatever table follows
    servers[NAME] = table
    return change(path, tomlkit.dumps(doc))


def merge_hooks(path: Path, hooks: dict[str, str]) -> Change:
    """Claude Code's settings with one command hook for each event, replacing Engram's earlier ones only."""
    ours = {
        event: [{"hooks": [{"type": "command", "command": command, "timeout": 60}]}]
        for event, command in hooks.items()
    }
    snippet = json.dumps({"hooks": ours}, indent=2)
    data = read_json(path, snippet)
    table = table_in(data, "hooks", path, snippet)
    for event, groups in ours.items():
        kept = table.get(event, [])
        if not isinstance(kept, list):
            raise _problem(path, f'holds hooks "{event}" as a {type(kept).__name__}, not a list', snippet)
        table[event] = [g for g in kept if not _engram_group(g)] + groups
    return change(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _engram_group(group: Any) -> bool:
    """A hook group this command wrote before (its command runs `engram hook`)."""
    if not isinstance(group, dict):
        return False
    return any(
        isinstance(h, dict)
        and " hook session-" in str(h.get("command", ""))
        and NAME in str(h.get("command"))
        for h in group.get("hooks", [])
    )


def change(path: Path, text: str) -> Change:
    if not path.exists():
        return Change(path, text, "created")
    return Change(path, text, "unchanged" if path.read_text(encoding="utf-8") == text else "updated")


def write(item: Change) -> Change:
    """Write the file, keeping the old one as NAME.engram-backup-TIMESTAMP first; the new text replaces the old
    in one rename, so a crash leaves one or the other, whole. Both keep the old file's mode: a client's file may
    hold its tokens (0600), and rewritten with the system's default it was readable by every account. A file
    that is a link (a dotfiles folder) stays a link and its target is written; the new text is staged in a file
    of a fresh random name, so a link planted under a name known ahead is never followed."""
    if item.action == "unchanged":
        return item
    target = item.path.resolve() if item.path.is_symlink() else item.path
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else 0o600
    backup = None
    if target.exists():
        backup = item.path.with_name(f"{item.path.name}.engram-backup-{datetime.now():%Y%m%d-%H%M%S}")
        _new_file(backup, target.read_bytes(), mode)
    handle, staged = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".engram-new", dir=target.parent)
    with os.fdopen(handle, "wb") as out:  # mkstemp makes it 0600: no moment wider than the old file
        out.write(item.text.encode("utf-8"))
    os.chmod(staged, mode)
    os.replace(staged, target)
    return Change(item.path, item.text, item.action, backup)


def _new_file(path: Path, data: bytes, mode: int) -> None:
    """`data` in a new file at `path` (never one already there, nor a link's target) with exactly `mode`."""
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode & 0o600), "wb") as out:
        out.write(data)
    os.chmod(path, mode)  # the umask may have narrowed it; never wider than the original


def server_command(db: str) -> list[str]:
    """How a client starts Engram's MCP server: this installation's `engram` by its full path (a desktop app
    does not see the shell's PATH or virtual environment), on this database."""
    script = Path(sys.executable).parent / ("engram.exe" if sys.platform == "win32" else "engram")
    start = [str(script)] if script.is_file() else [sys.executable, "-m", "engram"]
    return [*start, "--db", db, "mcp"]


def hook_command(db: str, event: str) -> str:
    """The shell command a Claude Code hook runs: `engram hook session-start|session-end`."""
    return shlex.join([*server_command(db)[:-1], "hook", event])


__all__ = [
    "CLIENTS",
    "NAME",
    "Change",
    "Client",
    "claude_settings",
    "hook_command",
    "merge_hooks",
    "merge_server",
    "server_command",
    "write",
]
