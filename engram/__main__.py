"""`python -m engram` runs the `engram` command."""

from engram.interfaces.cli.app import app

app(prog_name="engram")
