"""Serving: the REST API, web UI and MCP over HTTP (`engram serve`), and MCP over stdio (`engram mcp`)."""

from __future__ import annotations

from typing import Annotated

import typer

from engram import Settings
from engram.config import shown
from engram.errors import MissingExtra
from engram.interfaces.cli.base import (
    _state,
    app,
    err,
    opened,
    out,
)
from engram.interfaces.cli.terminal import error


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to bind")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port")] = 8765,
    local: Annotated[
        bool, typer.Option("--local", help="no API keys: loopback only, for one user on this machine")
    ] = False,
) -> None:
    """Serve the REST API (/v1, /api, /docs), MCP over streamable HTTP (/mcp) and the web UI (/).

    Example: engram serve --local --port 8765
    """
    try:
        from engram.interfaces.http.serve import is_loopback
        from engram.interfaces.http.serve import serve as run
    except ModuleNotFoundError:
        error(err, MissingExtra("engram serve", "server"))
        raise typer.Exit(1) from None
    if local and not is_loopback(host):
        error(err, f"--local (no API keys) only binds to loopback, not {host}")
        raise typer.Exit(2)
    settings = Settings()
    db = _state["db"] or settings.db_path
    out.print(f"Engram on http://{host}:{port}/  (API docs /docs, MCP /mcp, database {shown(db)})")
    if local:
        out.print("[yellow]local mode: no API keys; only this machine can connect[/yellow]")
    else:
        out.print("API keys required: create one with `engram keys create <tenant>`")
    run(settings, db=db, host=host, port=port, local=local)


@app.command()
def mcp() -> None:
    """Serve the MCP tools over stdio (for Claude Desktop, Claude Code, Cursor).

    Example: engram --db ~/notes.db mcp
    """
    try:
        from engram.interfaces.mcp.server import stdio
    except ModuleNotFoundError:
        error(err, MissingExtra("engram mcp", "server"))
        raise typer.Exit(1) from None
    with opened() as memory:
        stdio(memory)
