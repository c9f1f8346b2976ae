"""Interface overhead: the same calls through Python, REST and MCP (streamable HTTP), and REST under load.

    python -m bench.server [--memories 2000] [--calls 200] [--clients 8] [--seconds 20]

A real `engram serve` process (loopback, API key required) on a store of `--memories` LongMemEval_S
sentences, the
real embedder behind its LRU cache, queries warmed once so every path pays the same (cached) embedding:
1. round trip p50/p95 of search_memory and store_memory: the Python call, POST /v1/search and /v1/store, and
   the MCP tools over streamable HTTP (one session); overhead = interface p50 - Python p50.
2. throughput: `--clients` threads, each with its own HTTP connection, issuing /v1/search (4 of 5) and
   /v1/store (1 of 5) for `--seconds` or `--calls` x clients requests, whichever ends first; requests/s, p50/p95
   and errors (any non-2xx).
Results: bench/results/server.json and server.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console

from bench.speed import corpus, pct
from bench.speed import queries as questions
from engram import Memory, Settings
from engram.embed.minilm import default_embedder
from engram.interfaces.tenants import Keys

RESULTS = Path(__file__).resolve().parent / "results"
console = Console()


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(url: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(url, timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("engram serve did not start")
        time.sleep(0.2)


def _stats(ms: list[float]) -> dict[str, float]:
    return {"p50_ms": round(statistics.median(ms), 2), "p95_ms": round(pct(ms, 0.95), 2)}


def _timed(fn: Any, items: list[Any]) -> list[float]:
    out = []
    for item in items:
        t0 = time.perf_counter()
        fn(item)
        out.append((time.perf_counter() - t0) * 1000)
    return out


async def _mcp_times(
    url: str, key: str, queries: list[str], texts: list[str]
) -> tuple[list[float], list[float]]:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    search, store = [], []
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client,  # type: ignore[arg-type]
    ):
        for q in queries:
            t0 = time.perf_counter()
            await client.call_tool("search_memory", {"query": q})
            search.append((time.perf_counter() - t0) * 1000)
        for t in texts:
            t0 = time.perf_counter()
            await client.call_tool("store_memory", {"content": t})
            store.append((time.perf_counter() - t0) * 1000)
    return search, store


def run(memories: int, calls: int, clients: int, seconds: float) -> dict[str, Any]:
    texts = corpus(memories + 3 * calls + 2000)
    base, fresh, load_texts = (
        texts[:memories],
        texts[memories : memories + 3 * calls],
        texts[memories + 3 * calls :],
    )
    queries = questions(calls)
    embedder = default_embedder()
    embedder.embed_batch(queries)  # every path below gets the same cache hits for the query itself
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        settings = Settings(home=home)
        db = home / "keyed.db"
        keys = Keys(home / "keys.db")
        key = keys.create("bench")[1]
        keys.close()
        tenant_db = home / "tenants" / "bench.db"
        tenant_db.parent.mkdir(parents=True)
        with Memory(tenant_db, embedder=embedder, settings=settings) as mem:
            for i in range(0, len(base), 256):
                mem.remember_many([{"content": t} for t in base[i : i + 256]])
            python_search = _timed(mem.search_memory, queries)  # touches its hits, as the API does
            python_store = _timed(mem.store_memory, fresh[:calls])

        # The server runs in its own process, as `engram serve` does: client and server must not share a GIL.
        port = _port()
        env = os.environ | {"ENGRAM_HOME": str(home), "ENGRAM_MAINTAIN_EVERY_MINUTES": "0"}
        server = subprocess.Popen(
            [sys.executable, "-m", "engram", "--db", str(db), "serve", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        _wait(f"http://127.0.0.1:{port}/api/health", server)
        url = f"http://127.0.0.1:{port}"
        headers = {"Authorization": f"Bearer {key}"}
        with httpx.Client(base_url=url, headers=headers, timeout=60) as http:
            for q in queries:  # the server's embedding cache gets the queries the Python path had cached
                http.post("/v1/search", json={"query": q}).raise_for_status()
            rest_search = _timed(
                lambda q: http.post("/v1/search", json={"query": q}).raise_for_status(), queries
            )
            rest_store = _timed(
                lambda t: http.post("/v1/store", json={"content": t}).raise_for_status(),
                fresh[calls : 2 * calls],
            )
        mcp_search, mcp_store = asyncio.run(_mcp_times(url, key, queries, fresh[2 * calls : 3 * calls]))

        latencies: list[float] = []
        errors = 0
        failures: list[str] = []
        lock = threading.Lock()
        stop_at = time.monotonic() + seconds

        def client(n: int) -> None:
            nonlocal errors
            with httpx.Client(base_url=url, headers=headers, timeout=60) as c:
                for i in range(calls):
                    if time.monotonic() > stop_at:
                        return
                    t0 = time.perf_counter()
                    if i % 5 == 4:
                        r = c.post(
                            "/v1/store", json={"content": load_texts[(n * calls + i) % len(load_texts)]}
                        )
                    else:
                        r = c.post("/v1/search", json={"query": queries[(n * 31 + i) % len(queries)]})
                    ms = (time.perf_counter() - t0) * 1000
                    with lock:
                        latencies.append(ms)
                        if not r.is_success:
                            errors += 1
                            failures.append(f"{r.status_code} {r.text[:200]}")

        started = time.perf_counter()
        workers = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        elapsed = time.perf_counter() - started
        server.send_signal(signal.SIGTERM)
        server.wait(60)

    def row(python: list[float], rest: list[float], mcp: list[float]) -> dict[str, Any]:
        p = statistics.median(python)
        return {
            "python": _stats(python),
            "rest": _stats(rest) | {"overhead_p50_ms": round(statistics.median(rest) - p, 2)},
            "mcp": _stats(mcp) | {"overhead_p50_ms": round(statistics.median(mcp) - p, 2)},
        }

    return {
        "memories": memories,
        "calls": calls,
        "search_memory": row(python_search, rest_search, mcp_search),
        "store_memory": row(python_store, rest_store, mcp_store),
        "load": {
            "clients": clients,
            "requests": len(latencies),
            "seconds": round(elapsed, 1),
            "requests_per_s": round(len(latencies) / elapsed, 1),
            "errors": errors,
            "failures": failures[:5],
        }
        | _stats(latencies),
    }


def render(result: dict[str, Any]) -> list[str]:
    lines = [
        "# Interfaces: REST and MCP against the Python call",
        "",
        f"Generated by `python -m bench.server` on {result['date']} ({result['machine']}), {result['memories']} "
        f"memories, {result['calls']} calls per path. One run on a shared, noisy machine.",
        "",
        "| call | path | p50 ms | p95 ms | overhead p50 ms |",
        "|---|---|---|---|---|",
    ]
    for call in ("search_memory", "store_memory"):
        for path in ("python", "rest", "mcp"):
            r = result[call][path]
            lines.append(
                f"| {call} | {path} | {r['p50_ms']} | {r['p95_ms']} | {r.get('overhead_p50_ms', '')} |"
            )
    load = result["load"]
    lines += [
        "",
        f"Load: {load['clients']} concurrent REST clients (4 searches : 1 store), {load['requests']} requests in "
        f"{load['seconds']} s: {load['requests_per_s']} requests/s, p50 {load['p50_ms']} ms, p95 {load['p95_ms']} "
        f"ms, {load['errors']} errors.",
        "",
    ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    result = run(args.memories, args.calls, args.clients, args.seconds)
    result["date"] = datetime.now(UTC).isoformat(timespec="seconds")
    result["machine"] = f"{platform.machine()}, {len(__import__('os').sched_getaffinity(0))} cpus"
    lines = render(result)
    console.print("\n".join(lines))
    if not args.no_write:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "server.json").write_text(json.dumps(result, indent=2) + "\n")
        (RESULTS / "server.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
