"""`engram setup CLIENT`: Engram's MCP server in a client's configuration; `engram context` and the Claude Code
session hooks (`engram hook session-start | session-end`)."""

from __future__ import annotations

import importlib.util
import json
import sys
import unicodedata
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from engram import EngramError, MissingExtra, Scope
from engram.config import locate
from engram.interfaces.cli.base import JsonOption, app, err, opened, out, print_json, where
from engram.interfaces.cli.clients import (
    CLIENTS,
    Change,
    claude_settings,
    hook_command,
    merge_hooks,
    merge_server,
    server_command,
    write,
)
from engram.interfaces.cli.terminal import error, plain

ClientName = Literal["claude-desktop", "claude-code", "cursor", "vscode", "windsurf", "zed", "codex"]


@app.command()
def setup(
    client: Annotated[ClientName, typer.Argument(help="the MCP client to set up")],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="print what would be written; write nothing")
    ] = False,
    db: Annotated[
        str | None,
        typer.Option("--db", help="the database the client uses (default: engram's --db or default)"),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option("--config", help="the client's file to merge into (default: where it looks)"),
    ] = None,
    hooks: Annotated[
        bool,
        typer.Option(
            help="Claude Code: also the hooks that load context at a session's start and keep what it decided"
        ),
    ] = True,
    as_json: JsonOption = False,
) -> None:
    """Add Engram's MCP server to a client's configuration, keeping its other servers and settings (the old
    file is kept as NAME.engram-backup-TIMESTAMP). Clients: claude-desktop, claude-code, cursor, vscode (this
    folder's .vscode/mcp.json), windsurf, zed, codex.

    Example: engram setup claude-code --dry-run
    """
    chosen = CLIENTS[client]
    location = where(db)
    database = str(location if not isinstance(locate(location), Path) else Path(locate(location)).resolve())
    command = server_command(database)
    try:
        changes = [merge_server(chosen, config or chosen.where(Path.home(), Path.cwd()), command)]
        if client == "claude-code" and hooks:
            events = {"SessionStart": "session-start", "SessionEnd": "session-end"}
            hooked = {event: hook_command(database, name) for event, name in events.items()}
            changes.append(merge_hooks(claude_settings(Path.home()), hooked))
        if not dry_run:
            changes = [write(c) for c in changes]
    except (EngramError, OSError) as exc:
        error(err, exc)
        raise typer.Exit(2 if isinstance(exc, ValueError) else 1) from None
    if as_json:
        print_json(
            {"client": client, "dry_run": dry_run, "database": database, "files": [_said(c) for c in changes]}
        )
        return
    for c in changes:
        if dry_run:
            from rich.syntax import Syntax  # pygments: only to show a file that would be written

            out.print(plain(f"{c.path} ({'new file' if c.action == 'created' else c.action}) would hold:"))
            out.print(
                Syntax(c.text, "toml" if c.path.suffix == ".toml" else "json", background_color="default")
            )
        else:
            kept = f"; the old file is kept as {c.backup.name}" if c.backup else ""
            out.print(plain(f"{c.action} {c.path}{kept}"))
    if importlib.util.find_spec("mcp") is None:  # the client would start `engram mcp` and see it fail
        error(err, MissingExtra(f"{chosen.label} (engram mcp)", "server"))
    if dry_run:
        out.print("(dry run: nothing was written)")
    elif any(c.action != "unchanged" for c in changes):
        out.print(plain(f"restart {chosen.label} to load Engram (database {database})"))


def _said(c: Change) -> dict[str, Any]:
    return {
        "path": str(c.path),
        "action": c.action,
        "backup": str(c.backup) if c.backup else None,
        "text": c.text,
    }


@app.command()
def context(
    max_tokens: Annotated[
        int, typer.Option(min=50, max=20000, help="longest context, in model tokens")
    ] = 1500,
    scope_id: Annotated[str | None, typer.Option(help="the project (default: every project)")] = None,
    query: Annotated[
        str | None, typer.Option(help="what the session is about: adds the memories most related")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """What matters at a session's start: who the user is, preferences, open tasks due soon, recent decisions.

    Example: engram context --scope-id billing --max-tokens 800
    """
    with opened(read=True) as memory:
        answer = memory.session_context(max_tokens=max_tokens, scope_id=scope_id, query=query)
    if as_json:
        print_json(answer)
        return
    out.print(plain(answer["text"] or "no memories yet"), soft_wrap=True)


hook_app = typer.Typer(help="What Claude Code's session hooks run (engram setup claude-code writes them).")
app.add_typer(hook_app, name="hook")


def _hook_input() -> dict[str, Any]:
    """The JSON Claude Code passes a hook on stdin (session_id, transcript_path, cwd, ...); {} when none."""
    if sys.stdin is None or sys.stdin.isatty():
        return {}
    try:
        data = json.loads(sys.stdin.read() or "{}")
    except (ValueError, RecursionError):  # not JSON, a 5,000-digit number, nested past the parser's stack
        return {}
    return data if isinstance(data, dict) else {}


def _project(data: dict[str, Any]) -> str | None:
    """The project a session works in: its folder's name (memories stored at its end are found at the next
    session's start in the same folder), composed (NFC): macOS gives a folder's name decomposed ("Cafe" and a
    combining accent), which shows as "Café" typed and is another scope id, so a search scoped by the name as
    typed found none of the project's memories."""
    cwd = data.get("cwd")
    name = Path(cwd).name if isinstance(cwd, str) and cwd else ""
    return unicodedata.normalize("NFC", name) or None


@hook_app.command("session-start")
def session_start(
    max_tokens: Annotated[
        int, typer.Option(min=50, max=20000, help="longest context, in model tokens")
    ] = 1500,
) -> None:
    """Print the session's context for Claude Code to read (its SessionStart hook); nothing when there is no
    database yet.

    Example: engram hook session-start < hook-input.json   (Claude Code sends {"cwd": ...} on stdin)
    """
    data = _hook_input()
    path = locate(where())
    if isinstance(path, Path) and not path.is_file():
        return  # no memories yet: an empty context, not an error at every session start
    with opened() as memory:
        answer = memory.session_context(max_tokens=max_tokens, scope_id=_project(data))
    if answer["text"]:
        out.print(plain(answer["text"]), soft_wrap=True)


@hook_app.command("session-end")
def session_end() -> None:
    """Keep what the session decided (Claude Code's SessionEnd hook): the user's messages of its transcript are
    ingested as the project's conversation, so its decisions, preferences and tasks become memories (unsure
    ones wait for `engram review`). A message ingested before is skipped.

    Example: engram hook session-end < hook-input.json   (Claude Code sends {"transcript_path": ...} on stdin)
    """
    data = _hook_input()
    transcript = data.get("transcript_path")
    if not isinstance(transcript, str) or not Path(transcript).is_file():
        error(err, "transcript_path: the hook's input names no transcript file; nothing was stored")
        raise typer.Exit(0)  # a hook must not fail the session it ends
    session = data.get("session_id")
    messages = transcript_messages(
        Path(transcript), session if isinstance(session, str) and session else Path(transcript).stem
    )
    if not messages:
        return
    with opened() as memory:
        report = memory.ingest(messages, scope=Scope.PROJECT, scope_id=_project(data))
    err.print(f"engram: {report.get('approved', 0)} memories kept, {report.get('pending', 0)} for review")


def _when(value: Any) -> str | None:
    """A message's time as ISO text, or None (the time it is read) when it is none: one malformed time made
    ingest refuse the whole session, and a hook that stores nothing loses every decision in it."""
    if not isinstance(value, str):
        return None
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return value


def transcript_messages(path: Path, session: str) -> list[dict[str, Any]]:
    """The user's own words in a Claude Code transcript (JSON Lines): text they typed, not tool results or
    the commands and reminders the client inserts."""
    messages = []
    # Cut at line feeds alone: Node's JSON leaves U+2028, U+2029 and NEL unescaped in a string, where
    # `splitlines` cut the line and the message was dropped as unreadable.
    for line in path.read_text(encoding="utf-8", errors="replace").split("\n"):
        try:
            row = json.loads(line)
        except (
            ValueError,
            RecursionError,
        ):  # one unreadable line (nested too deep, a huge number) is skipped
            continue
        if not isinstance(row, dict) or row.get("type") != "user" or row.get("isMeta"):
            continue
        body = row.get("message", {})
        content = body.get("content") if isinstance(body, dict) else None
        if isinstance(content, list):
            content = "\n".join(
                b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"
            )
        if not isinstance(content, str) or not content.strip() or content.lstrip().startswith("<"):
            continue
        messages.append(
            {
                "role": "user",
                "content": content,
                "ts": _when(row.get("timestamp")),
                "platform": "claude-code",
                "conversation_id": session,
                "message_id": uuid if isinstance(uuid := row.get("uuid"), str) else "",
            }
        )
    return messages
