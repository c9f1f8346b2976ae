"""Serving: the REST API, web UI and MCP over HTTP (`engram serve`), and MCP over stdio (`engram mcp`)."""

from __future__ import annotations

import errno
import logging
import os
import socket
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
from engram.interfaces.tenants import LOCAL


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
    if problem := _unavailable(host, port):
        error(err, problem)
        raise typer.Exit(1)
    settings = Settings()
    db = _state["db"] or settings.db_path
    _log_requests()
    out.print(f"Engram on http://{host}:{port}/  (API docs /docs, MCP /mcp, database {shown(db)})")
    if local:
        out.print("[yellow]local mode: no API keys; only this machine can connect[/yellow]")
    else:
        out.print(
            "API keys required: create one with `engram keys create <tenant>`, or serve yourself alone on this "
            "machine with `engram serve --local`"
        )
    run(settings, db=db, host=host, port=port, local=local)


def _unavailable(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port (another program holds the port, the address is not this
    machine's), found before anything is printed: else the URL was shown and then the bind failed."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        return f"--host {host}: not an address this machine can listen on ({exc.strerror})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: a closed port is free
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"port {port} on {host} is in use by another program: stop it or choose another with --port"
            return f"cannot listen on {host}:{port} ({exc.strerror})"
    return None


def _log_requests() -> None:
    """Each request on stderr, one line: time, method, path, status, duration (no bodies, no query strings)."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%Y-%m-%d %H:%M:%S"))
    log = logging.getLogger("engram.requests")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False


@app.command()
def mcp() -> None:
    """Serve the MCP tools over stdio (for Claude Desktop, Claude Code, Cursor). The agent's file tools (export,
    import, backup) read and write only in $ENGRAM_HOME/files/local/.

    Example: engram --db ~/notes.db mcp
    """
    client = os.getppid()  # before the store opens: a client that dies meanwhile is still the one watched
    try:
        from engram.interfaces.http.heap import limit_arenas
        from engram.interfaces.mcp.server import stdio
        from engram.model.standins import spacy_for_tagging_only, tag_without_spacy
    except ModuleNotFoundError:
        error(err, MissingExtra("engram mcp", "server"))
        raise typer.Exit(1) from None
    limit_arenas()  # a serving process, as `engram serve` (engram.interfaces.http.heap)
    spacy_for_tagging_only()  # nothing an agent calls builds spaCy's parser, entities or classifiers
    tag_without_spacy()  # the same tags from numpy, without spaCy's framework in the process
    # An agent names the paths of the file tools (export, import, backup): they reach only the local tenant's
    # folder, as over `engram serve --local`, not every file the user's account can write or read.
    with opened(files=Settings().home / "files" / LOCAL) as memory:
        stdio(memory, client)
