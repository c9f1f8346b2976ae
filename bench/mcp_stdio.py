"""Pipelined MCP calls over stdio: how long a real `engram mcp` process takes to answer requests written at once.

    python -m bench.mcp_stdio [--requests 1500] [--runs 5] [--calls mixed|list] [--source DIR ...]

Each run starts `engram mcp` (the real model) on a fresh home and store, opens the session and makes one
store_memory and one search_memory call (the model and the classifiers load: not timed), then writes
`--requests` requests without waiting for any answer, and times from the first line written to the last answer
read, in wall time and in the server process's processor time (user and system, from /proc: less swayed than
wall time by what else runs on a shared machine). `--calls mixed`: in turn store_memory of a new note,
search_memory and tools/list (the largest answer an agent gets: every tool's schema); `--calls list`: tools/list
alone (the cost of writing answers, not of the tools). Every answer must carry the id of a request written and
be a result, or the run fails. Each `--source` (the root of a checkout; default this one) serves one run in
turn, run after run, so a busy machine weighs on each alike. Reported per source: the medians and each run's
seconds. Results: bench/results/mcp_stdio_<calls>.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
START_S = 600  # the first answers wait for the model and the classifiers to load (slow on a busy machine)
ANSWERS_S = 600  # all the pipelined answers


def _call(request_id: int, name: str, arguments: dict[str, Any]) -> bytes:
    params = {"name": name, "arguments": arguments}
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}).encode()


def pipelined(count: int, first_id: int, calls: str) -> list[bytes]:
    """`count` requests: a new note stored, a search, the tool list, in turn (`calls` "mixed"), or the tool list."""
    lines = []
    for i in range(count):
        request_id = first_id + i
        if calls == "list" or i % 3 == 2:
            lines.append(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/list"}).encode())
        elif i % 3 == 0:
            note = f"note {i}: the review of project {i % 37} moved to room {i % 11} on day {i % 28 + 1}"
            lines.append(_call(request_id, "store_memory", {"content": note}))
        else:
            lines.append(
                _call(request_id, "search_memory", {"query": f"where is the review of project {i % 37}"})
            )
    return lines


class Session:
    """`engram mcp` of the checkout at `source`, on a store of its own under `home`."""

    def __init__(self, source: Path, home: Path) -> None:
        env = os.environ | {"ENGRAM_HOME": str(home), "PYTHONPATH": str(source)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "engram", "--db", str(home / "stdio.db"), "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=source,
            env=env,
        )
        self.answers: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.answers.put(line)
        self.answers.put(b"")

    def write(self, lines: list[bytes]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"".join(line + b"\n" for line in lines))
        self.proc.stdin.flush()

    def answer(self, timeout: float) -> dict[str, Any]:
        line = self.answers.get(timeout=timeout)
        if not line:
            raise RuntimeError(f"engram mcp ended (exit {self.proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def cpu_seconds(pid: int) -> float:
    """The processor time (user and system) the process `pid` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run(source: Path, count: int, calls: str) -> tuple[float, float]:
    """Wall and server processor seconds from the first of `count` pipelined requests written to the last answer
    read."""
    with tempfile.TemporaryDirectory(prefix="engram-bench-stdio-") as tmp:
        session = Session(source, Path(tmp))
        try:
            init = {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "b", "version": "1"},
            }
            session.write(
                [json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}).encode()]
            )
            session.answer(START_S)
            session.write([json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode()])
            warm = [
                _call(1, "store_memory", {"content": "the first note"}),
                _call(2, "search_memory", {"query": "x"}),
            ]
            for line in warm:  # one at a time: the first write loads the classifiers
                session.write([line])
                session.answer(START_S)
            lines = pipelined(count, 10, calls)
            waiting = {json.loads(line)["id"] for line in lines}
            start, cpu = time.perf_counter(), cpu_seconds(session.proc.pid)
            threading.Thread(target=session.write, args=(lines,), daemon=True).start()
            while waiting:
                answer = session.answer(ANSWERS_S)
                if (
                    "result" not in answer
                    or answer["result"].get("isError")
                    or answer.get("id") not in waiting
                ):
                    raise RuntimeError(f"not a result of a request waiting: {json.dumps(answer)[:300]}")
                waiting.discard(answer["id"])
            return time.perf_counter() - start, cpu_seconds(session.proc.pid) - cpu
        finally:
            session.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=1500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--calls", choices=["mixed", "list"], default="mixed")
    parser.add_argument("--source", type=Path, action="append", help="a checkout's root (repeatable)")
    parser.add_argument("--no-save", action="store_true", help="print only; leave bench/results as they are")
    args = parser.parse_args()
    sources = [s.resolve() for s in args.source or [ROOT]]
    wall: dict[str, list[float]] = {str(s): [] for s in sources}
    cpu: dict[str, list[float]] = {str(s): [] for s in sources}
    for run in range(args.runs):
        for source in sources:
            took, used = one_run(source, args.requests, args.calls)
            wall[str(source)].append(round(took, 3))
            cpu[str(source)].append(round(used, 2))
            print(f"run {run + 1}, {source}: {took:.2f} s, server processor {used:.2f} s", flush=True)
    report = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the end",
        "requests": args.requests,
        "calls": args.calls,
        "runs": args.runs,
        "sources": {
            s: {
                "median_s": round(statistics.median(wall[s]), 3),
                "seconds": wall[s],
                "median_cpu_s": round(statistics.median(cpu[s]), 2),
                "cpu_seconds": cpu[s],
            }
            for s in wall
        },
    }
    print(json.dumps(report, indent=2))
    if not args.no_save:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / f"mcp_stdio_{args.calls}.json").write_text(json.dumps(report, indent=2) + "\n")
        (RESULTS / f"mcp_stdio_{args.calls}.md").write_text(render(report))


def render(report: dict[str, Any]) -> str:
    lines = [
        "# Pipelined MCP calls over stdio",
        "",
        f"{report['date']}, {report['machine']}. `python -m bench.mcp_stdio` (see its docstring): "
        f"{report['requests']:,} requests ({report['calls']}) written at once to `engram mcp`, "
        f"{report['runs']} runs per checkout.",
        "",
        "| checkout | median wall s | each run, wall s | median server processor s | each run, processor s |",
        "|---|---:|---|---:|---|",
    ]
    for source, found in report["sources"].items():
        each = ", ".join(f"{s:.2f}" for s in found["seconds"])
        used = ", ".join(f"{s:.2f}" for s in found["cpu_seconds"])
        lines.append(
            f"| {Path(source).name} | {found['median_s']:.2f} | {each} | {found['median_cpu_s']:.2f} | {used} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
