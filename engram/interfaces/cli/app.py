"""The `engram` command: parses arguments, calls one Memory method, prints the result."""

from __future__ import annotations

from engram.interfaces.cli import agent, conversations, files, memories, server, setup  # noqa: F401  (they register)
from engram.interfaces.cli.base import app
from engram.interfaces.cli.keys import keys_app
from engram.interfaces.cli.migrate import migrate

app.add_typer(keys_app, name="keys")
app.command()(migrate)

# The order `engram --help` lists them in: the everyday commands first.
ORDER = [
    "remember",
    "add",
    "store",
    "search",
    "tools",
    "export",
    "recall",
    "show",
    "list",
    "invalidate",
    "forget",
]
ORDER += [
    "stats",
    "reembed",
    "demo",
    "ingest",
    "review",
    "maintain",
    "serve",
    "mcp",
    "setup",
    "context",
    "migrate",
]


def _place(name: str) -> int:
    return ORDER.index(name) if name in ORDER else len(ORDER)


app.registered_commands.sort(key=lambda c: _place(c.name or (c.callback.__name__ if c.callback else "")))

__all__ = ["app"]

if __name__ == "__main__":
    app()
