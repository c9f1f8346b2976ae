"""`python -m engram` run in a folder holding a script named like a library Engram imports (a user's "mcp.py",
written to try the MCP server out) imports the library, not the script: the script ran in its place, and as it
started `python -m engram ... mcp` itself, each copy started the next and none answered."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import engram
from tests.live import MCP_INIT


def test_a_script_named_mcp_in_the_current_folder_is_not_imported(tmp_path: Path) -> None:
    marker = tmp_path / "ran.txt"
    (tmp_path / "mcp.py").write_text(f"open({str(marker)!r}, 'w').write('imported')\n")
    # the engram under test by its full path: a relative PYTHONPATH would name the current folder itself
    root = str(Path(engram.__file__).resolve().parents[1])
    env = os.environ | {"ENGRAM_HOME": str(tmp_path / "home"), "PYTHONPATH": root}
    env.pop("PYTHONSAFEPATH", None)
    done = subprocess.run(
        [sys.executable, "-m", "engram", "--db", str(tmp_path / "m.db"), "mcp"],
        input=json.dumps(MCP_INIT) + "\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
    )
    assert not marker.exists()
    answer = json.loads(done.stdout.splitlines()[0])
    assert answer["id"] == 1 and "serverInfo" in answer["result"]
