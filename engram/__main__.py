"""`python -m engram` runs the `engram` command."""

import os
import sys

# `python -m` puts the current folder first on the import path, so a user's own script there named like a library
# Engram imports (an "mcp.py" beside a client being tried out) was imported, and run, in its place. The `engram`
# command never looks in the current folder; neither does this.
if sys.path and os.path.abspath(sys.path[0] or os.curdir) == os.getcwd():
    del sys.path[0]

from engram.interfaces.cli.app import app

app(prog_name="engram")
