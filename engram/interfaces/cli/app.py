"""The `engram` command: parses arguments, calls one Memory method, prints the result."""

from __future__ import annotations

from engram.interfaces.cli import agent, conversations, memories, server  # noqa: F401  (their commands register)
from engram.interfaces.cli.base import app
from engram.interfaces.cli.keys import keys_app
from engram.interfaces.cli.migrate import migrate

app.add_typer(keys_app, name="keys")
app.command()(migrate)

__all__ = ["app"]

if __name__ == "__main__":
    app()
