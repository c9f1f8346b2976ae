"""`engram mcp` started as a desktop client starts it: a fresh home (nothing loaded or cached yet), requests
written and the input closed, the client killed. Every request read is answered before the server ends, and the
server never outlives the client that started it, even while something else holds its input open."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ENGRAM = shutil.which("engram", path=str(Path(sys.executable).parent)) or "engram"


def _env(home: Path) -> dict[str, str]:
    return {
        "HOME": str(home),
        "PATH": os.environ["PATH"],
        "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
    }


def _request(request_id: int, method: str, params: dict[str, object] | None = None) -> str:
    message: dict[str, object] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    return json.dumps(message | ({"params": params} if params is not None else {}))


HELLO = [
    _request(
        1,
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    ),
    json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
]


def test_requests_written_before_the_input_closes_are_all_answered(tmp_path: Path) -> None:
    lines = [
        *HELLO,
        # The first call loads the model and the classifiers: seconds, after the input has closed.
        _request(2, "tools/call", {"name": "store_memory", "arguments": {"content": "I like green tea"}}),
        _request(3, "tools/call", {"name": "no_such_tool", "arguments": {}}),
        _request(4, "tools/call", {"name": "search_memory", "arguments": {"query": "tea"}}),
        _request(5, "tools/list"),
    ]
    done = subprocess.run(
        [ENGRAM, "mcp"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        timeout=600,
    )
    answered = {json.loads(line)["id"] for line in done.stdout.splitlines() if line.strip()}
    # Before, the session closed with the input: the store and the search were never answered.
    assert answered == {1, 2, 3, 4, 5}, done.stderr[-2000:]


PARENT = r"""
import json, os, subprocess, sys, time
# The server's input is a pipe whose other end this process and a second child hold, as when a client's
# wrapper starts helpers: the client's death then closes nothing.
read_end, write_end = os.pipe()
server = subprocess.Popen([sys.argv[1], "mcp"], stdin=read_end, stdout=subprocess.PIPE)
holder = subprocess.Popen(["sleep", "600"], pass_fds=[write_end], start_new_session=True)
os.write(write_end, (sys.argv[2] + "\n").encode())
server.stdout.readline()  # initialized
print(server.pid, holder.pid, flush=True)
time.sleep(600)
"""


def test_the_server_ends_when_the_client_that_started_it_dies(tmp_path: Path) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, ENGRAM, HELLO[0]],
        stdout=subprocess.PIPE,
        text=True,
        env=_env(tmp_path),
    )
    assert parent.stdout is not None
    server, holder = (int(pid) for pid in parent.stdout.readline().split())
    try:
        parent.kill()  # the server answered and waits for its next line
        parent.wait(30)
        deadline = time.monotonic() + 30
        while _running(server) and time.monotonic() < deadline:
            time.sleep(0.2)
        # Before, it waited for a line that could never come, adopted by init, for as long as the holder lived.
        assert not _running(server)
    finally:
        parent.stdout.close()
        for pid in (server, holder):
            if _running(pid):
                os.kill(pid, signal.SIGKILL)


def _running(pid: int) -> bool:
    """Whether `pid` runs (a zombie, ended but not yet reaped by its new parent, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


FORKED = r"""
import json, os, select, sys, time
from mcp.server.mcpserver import MCPServer
from engram.interfaces.mcp import stdio  # imported here; the server runs in a child of this process

to_server, from_client = os.pipe()
to_client, from_server = os.pipe()
child = os.fork()
if child == 0:
    os.dup2(to_server, 0)
    os.dup2(from_server, 1)
    for fd in (to_server, from_client, to_client, from_server):
        os.close(fd)
    stdio.serve(MCPServer("forked"))
    os._exit(0)
os.close(to_server)
os.close(from_server)
answers = os.fdopen(to_client, "rb")

def ask(message):
    os.write(from_client, json.dumps(message).encode() + b"\n")
    ready, _, _ = select.select([answers], [], [], 60)
    return "id" in json.loads(answers.readline() or "{}") if ready else False

print(ask(json.loads(sys.argv[1])), flush=True)
time.sleep(4 * stdio.PARENT_CHECK_SECONDS)  # the client is looked for meanwhile
print(ask({"jsonrpc": "2.0", "id": 2, "method": "ping"}), flush=True)
os.close(from_client)
os.waitpid(child, 0)
"""


def test_the_client_watched_is_the_parent_when_serving_starts(tmp_path: Path) -> None:
    """A process that imports the module and serves in a child it forks: the child's client is that process."""
    done = subprocess.run(
        [sys.executable, "-c", FORKED, HELLO[0]],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        timeout=300,
    )
    # Before, the parent was read on import (this test's process): the child ended at its first look.
    assert done.stdout.split() == ["True", "True"], done.stderr[-2000:]
