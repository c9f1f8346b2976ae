"""Footprint: the resident memory of a process serving a 10k store, and where it goes.

    python -m bench.footprint [--size 10000] [--seconds 60] [--compare OTHER_CHECKOUT]

1. Build: `size` unique LongMemEval_S sentences bulk-loaded (as bench.backends, vectors from the on-disk
   benchmark cache), then one write through the write path, as any store that has been written to has had.
2. Serve: a real `engram serve --local` process on that store, driven for `--seconds` over REST (search, store,
   a page of the list, the web UI's page) and MCP over streamable HTTP (search_memory, store_memory), then one
   maintenance pass (`serve` runs one every 10 minutes). Its VmRSS is sampled from /proc every 0.2 s; its
   VmHWM (peak) is read before it stops, and once when it first answers (what loading the store took). Also:
   seconds from start to the first answer, and the first search's and first store's latency (what lazily loaded
   parts cost a user); the server's processor time per request during the traffic, and its threads and SQLite
   connections to the store at the end.
3. Library: a process that opens the store with `Memory`, recalls, searches and remembers; VmRSS after each
   step and VmHWM at the end. Then a new, empty store's first write (which sets up the classifiers).
4. Breakdown: VmRSS added by each import (in the order `engram` loads them), by the embedding model, by the
   spaCy pipeline (a library's tagger), by the tagger run on numpy (a server's) and by the server's libraries,
   each measured in a fresh process.
Results: bench/results/footprint.json and footprint.md.

`--routes` serves copies of one built store once per route (REST search, store, list, the web UI's page; MCP
search_memory, store_memory), each driven alone for `--seconds`: what each route adds to RSS after the first store,
and its peak (VmHWM reset after the first store). Writes footprint_routes.md.

`--compare DIR` serves copies of one built store with the code in DIR (another checkout) and with this one,
alternating (DIR, this, this, DIR) on the shared machine, and writes footprint_compare.md instead.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import ctypes.util
import functools
import gc
import json
import os
import platform
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
TARGET_MB = 300


HEAVY = ("spacy", "sklearn", "yake", "fastapi", "uvicorn", "mcp", "pandas", "torch")


def status_mb(pid: int | str = "self") -> dict[str, float]:
    """VmRSS and VmHWM of a process, in MB, and VmRSS split into anonymous memory and mapped files (the
    model's and the SQLite database's pages, which the kernel can drop and read again)."""
    out: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
            out[name] = round(int(value.split()[0]) / 1024, 1)
    return out


def pss_mb(pid: int) -> float:
    """Proportional set size in MB: each resident page counted once however many times the process maps it
    (SQLite's per-connection maps of one database file) and shared ones split among the processes sharing them."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def mapped_mb(pid: int, path: Path) -> tuple[int, float]:
    """How many times a process maps `path` (SQLite maps the database once per connection) and the resident MB
    of those mappings together, which RSS counts once per mapping."""
    count, kb, inside = 0, 0, False
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        head = line.split(maxsplit=5)
        if head and "-" in head[0] and len(head) >= 5 and ":" not in head[0]:
            inside = len(head) == 6 and head[5] == str(path)
            count += inside
        elif inside and head and head[0] == "Rss:":
            kb += int(head[1])
    return count, round(kb / 1024, 1)


def cpu_s(pid: int) -> float:
    """Processor time a process has used (user and system), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def connections(pid: int, path: Path) -> int:
    """How many SQLite connections a process holds to the database at `path` (each opens the file once)."""
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            count += os.readlink(fd) == str(path)
    return count


def _child(stage: str, *args: str) -> dict[str, Any]:
    """Run one stage of this module in a fresh process; its last stdout line is its JSON result."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.footprint", "--stage", stage, *args],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# -- stages that run in their own process ---------------------------------------------------------------------


def _trim() -> None:
    """Hand the C heap's free pages back (glibc; elsewhere nothing), without importing engram."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)


def _steps() -> tuple[dict[str, float], Callable[[str, Callable[[], Any]], None]]:
    steps: dict[str, float] = {"python": status_mb()["VmRSS"]}

    def step(name: str, fn: Callable[[], Any]) -> None:
        _trim()  # what an earlier step freed is not this one's
        before = status_mb()["VmRSS"]
        t0 = time.perf_counter()
        fn()
        steps[name] = round(status_mb()["VmRSS"] - before, 1)
        steps[f"{name} s"] = round(time.perf_counter() - t0, 2)

    return steps, step


def stage_breakdown() -> dict[str, Any]:
    """The RSS each part adds, in the order a serving process loads them."""
    steps, step = _steps()
    for name in ("numpy", "onnxruntime", "faiss", "spacy", "lemminflect", "engram"):
        step(f"import {name}", functools.partial(__import__, name))
    from engram.lang import analysis

    step("import yake (as engram loads it)", analysis._extractor)
    step("import server (fastapi, uvicorn, mcp)", lambda: __import__("engram.interfaces.http.serve"))
    step("import sklearn.linear_model", lambda: __import__("sklearn.linear_model"))
    from engram.embed.minilm import MiniLM

    model: list[Any] = []
    step("MiniLM loaded", lambda: model.append(MiniLM()))
    step("MiniLM first query", lambda: model[0].embed_batch(["what did I say about the garden?"]))
    step(
        "MiniLM batch of 256",
        lambda: model[0].embed_batch([f"sentence number {i} of a batch" for i in range(256)]),
    )
    from engram.tags import phrases, postag

    step(  # what a serving process holds to tag (spaCy above is imported for the library's tagger only)
        "tagger on numpy loaded and a first text tagged (serving processes)",
        lambda: postag.load(phrases.MODEL)("The garden needs new tomato plants."),
    )
    step("spaCy pipeline loaded", lambda: phrases.phrases("The garden needs new tomato plants."))
    steps["VmHWM"] = status_mb()["VmHWM"]
    return steps


def stage_library(db: str, home: str) -> dict[str, Any]:
    """A library process on an existing store: open, recall, search, remember."""
    steps, step = _steps()
    step("import engram", lambda: __import__("engram"))
    from engram import Memory, Settings

    mem: list[Any] = []
    step("Memory opened", lambda: mem.append(Memory(db, settings=Settings(home=Path(home)))))
    m = mem[0]
    step("first recall (model loads)", lambda: m.recall("what do I know about cooking?"))
    step("20 recalls", lambda: [m.recall(f"question {i} about travel plans") for i in range(20)])
    step("20 search_memory", lambda: [m.search_memory(f"what happened last week {i}") for i in range(20)])
    step("first remember", lambda: m.remember("The footprint bench wrote this memory first."))
    step(
        "20 remember", lambda: [m.remember(f"Note {i}: the garden needs water on Sunday.") for i in range(20)]
    )
    m.close()
    loaded = " ".join(m for m in HEAVY if m in sys.modules) or "none"
    return {**steps, **status_mb(), "loaded": loaded}


def stage_new_store(home: str) -> dict[str, Any]:
    """A new store's first write: the classifiers' seeds embedded and their read-outs set up."""
    from engram import Memory, Settings

    with Memory(Path(home) / "new.db", settings=Settings(home=Path(home))) as mem:
        mem.recall("load the model first")
        before = status_mb()["VmRSS"]
        t0 = time.perf_counter()
        mem.remember("The first write of a new store sets its classifiers up.")
        first = time.perf_counter() - t0
        t0 = time.perf_counter()
        mem.remember("The second write of a new store is an ordinary write.")
        second = time.perf_counter() - t0
    return {
        "first write s": round(first, 2),
        "second write s": round(second, 3),
        "first write MB": round(status_mb()["VmRSS"] - before, 1),
        "sklearn imported": "sklearn" in sys.modules,
        "loaded": " ".join(m for m in HEAVY if m in sys.modules) or "none",
        "VmHWM": status_mb()["VmHWM"],
    }


# -- the serving process ----------------------------------------------------------------------------------


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _mcp_calls(url: str, queries: list[str], texts: list[str], stop_at: float) -> int:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    calls = 0
    async with (
        httpx2.AsyncClient(timeout=60) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client,
    ):
        while time.monotonic() < stop_at:
            if calls % 4 == 3:
                await client.call_tool("store_memory", {"content": texts[calls % len(texts)]})
            else:
                await client.call_tool("search_memory", {"query": queries[calls % len(queries)]})
            calls += 1
    return calls


def serve(
    db: Path, home: Path, queries: list[str], texts: list[str], seconds: float, code: Path | None = None
) -> dict[str, Any]:
    """One `engram serve --local` on `db`, with the engram of `code` (a checkout; None: this one)."""
    import httpx

    port = _port()
    url = f"http://127.0.0.1:{port}"
    env = os.environ | {"ENGRAM_HOME": str(home)}
    started = time.perf_counter()
    server = subprocess.Popen(
        [sys.executable, "-m", "engram", "--db", str(db), "serve", "--local", "--port", str(port)],
        env=env,
        cwd=code,
        stdout=subprocess.DEVNULL,
        stderr=(home / "serve.log").open("wb"),
    )
    samples: list[tuple[float, float]] = []
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.wait(0.2):
            try:
                samples.append((round(time.perf_counter() - started, 1), status_mb(server.pid)["VmRSS"]))
            except (FileNotFoundError, KeyError):
                return

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        with httpx.Client(base_url=url, timeout=120) as http:
            while True:
                try:
                    if http.get("/api/health").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if server.poll() is not None or time.perf_counter() - started > 120:
                    raise RuntimeError(
                        f"engram serve did not start: {(home / 'serve.log').read_text()[-2000:]}"
                    )
                time.sleep(0.1)
            ready_s = time.perf_counter() - started
            at_ready = status_mb(server.pid)
            idle = at_ready["VmRSS"]
            t0 = time.perf_counter()
            http.post("/v1/search", json={"query": queries[0]}).raise_for_status()
            first_search_ms = (time.perf_counter() - t0) * 1000
            after_search = status_mb(server.pid)["VmRSS"]
            t0 = time.perf_counter()
            http.post("/v1/store", json={"content": texts[0]}).raise_for_status()
            first_store_ms = (time.perf_counter() - t0) * 1000
            after_store = status_mb(server.pid)["VmRSS"]

            stop_at = time.monotonic() + seconds
            cpu_before = cpu_s(server.pid)
            mcp: dict[str, int] = {}
            worker = threading.Thread(
                target=lambda: mcp.update(calls=asyncio.run(_mcp_calls(url, queries, texts[1::2], stop_at)))
            )
            worker.start()
            rest, search_ms, store_ms = 0, [], []
            while time.monotonic() < stop_at:
                t0 = time.perf_counter()
                match rest % 8:
                    case 5:
                        http.post(
                            "/v1/store", json={"content": texts[2 + rest % (len(texts) - 2)]}
                        ).raise_for_status()
                        store_ms.append((time.perf_counter() - t0) * 1000)
                    case 6:
                        http.get("/v1/memories", params={"limit": 50}).raise_for_status()
                    case 7:
                        http.get("/").raise_for_status()
                    case _:
                        http.post(
                            "/v1/search", json={"query": queries[rest % len(queries)]}
                        ).raise_for_status()
                        search_ms.append((time.perf_counter() - t0) * 1000)
                rest += 1
            worker.join()
            traffic_cpu = cpu_s(server.pid) - cpu_before
            after_traffic = status_mb(server.pid)
            t0 = time.perf_counter()
            http.post("/v1/maintain", json={}).raise_for_status()
            maintain_s = time.perf_counter() - t0
            final = status_mb(server.pid)
            maps, mapped = mapped_mb(server.pid, db.resolve())
            pss = pss_mb(server.pid)
            threads = len(os.listdir(f"/proc/{server.pid}/task"))
            held = connections(server.pid, db.resolve())
    finally:
        sampling.set()
        server.terminate()
        server.wait(60)
    return {
        "ready_s": round(ready_s, 2),
        "first_search_ms": round(first_search_ms, 1),
        "first_store_ms": round(first_store_ms, 1),
        "rest_requests": rest,
        "mcp_calls": mcp.get("calls", 0),
        "server_cpu_ms_per_request": round(1000 * traffic_cpu / max(1, rest + mcp.get("calls", 0)), 2),
        "search_p50_ms": round(statistics.median(search_ms), 1),
        "store_p50_ms": round(statistics.median(store_ms), 1),
        "maintain_s": round(maintain_s, 2),
        "rss_idle_mb": idle,
        "hwm_at_ready_mb": at_ready["VmHWM"],
        "rss_after_first_search_mb": after_search,
        "rss_after_first_store_mb": after_store,
        "rss_after_traffic_mb": after_traffic["VmRSS"],
        "hwm_after_traffic_mb": after_traffic["VmHWM"],
        "rss_final_mb": final["VmRSS"],
        "rss_final_anon_mb": final["RssAnon"],
        "rss_final_file_mb": final["RssFile"],
        "database_mappings": maps,
        "database_mapped_mb": mapped,
        "pss_final_mb": pss,
        "threads_final": threads,
        "database_connections_final": held,
        "peak_rss_mb": final["VmHWM"],
        "samples": samples[:: max(1, len(samples) // 120)],
    }


def build(db: Path, home: Path, size: int) -> list[str]:
    """The store, and the texts the run writes later (not in the store)."""
    from bench.backends import bulk_load
    from bench.embedcache import DiskCachedEmbedder
    from bench.speed import corpus
    from engram import Memory, MiniLM, Settings

    texts = corpus(size + 2000)
    cache = DiskCachedEmbedder(MiniLM())
    with Memory(db, embedder=cache, settings=Settings(home=home)) as mem:
        bulk_load(mem, texts[:size], cache)
        mem.remember("A first write sets the store's classifiers up, as any store that was written to has.")
    cache.close()
    # Reader connections of other threads stay open until collected, and with them the write-ahead log: a copy of
    # the database file alone would miss the last writes (a server then redid them on its first store).
    gc.collect()
    return texts[size:]


def copy_store(source: Path, target: Path) -> None:
    """A whole copy of a store (SQLite's backup: the write-ahead log's pages too)."""
    with (
        contextlib.closing(sqlite3.connect(source)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)


def render(result: dict[str, Any]) -> list[str]:
    s, lib, new, parts = result["serve"], result["library"], result["new_store"], result["breakdown"]
    verdict = "meets" if s["peak_rss_mb"] <= TARGET_MB else "misses"
    lines = [
        "# Footprint: resident memory of a process serving a 10k store",
        "",
        f"Generated by `python -m bench.footprint` on {result['date']} ({result['machine']}): {result['size']} "
        f"memories, {result['seconds']} s of traffic. One run on a shared machine; RSS read from /proc.",
        "",
        "## `engram serve --local`",
        "",
        f"Peak RSS (VmHWM) **{s['peak_rss_mb']} MB**, which {verdict} the {TARGET_MB} MB target.",
        "",
        "| measure | value |",
        "|---|---|",
    ]
    lines += [f"| {k} | {v} |" for k, v in s.items() if k != "samples"]
    lines += ["", "## Library process (`Memory` on the same store)", "", "| step | MB (s) |", "|---|---|"]
    lines += [f"| {k} | {v} ({lib.get(k + ' s', '')}) |" for k, v in lib.items() if not k.endswith(" s")]
    lines += ["", "## A new store's first write", "", "| measure | value |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in new.items()]
    lines += [
        "",
        "## Breakdown (RSS added by each step, fresh process)",
        "",
        "| step | MB | s |",
        "|---|---|---|",
    ]
    lines += [f"| {k} | {v} | {parts.get(k + ' s', '')} |" for k, v in parts.items() if not k.endswith(" s")]
    return [*lines, ""]


COMPARED = (
    "peak_rss_mb",
    "rss_idle_mb",
    "hwm_at_ready_mb",
    "rss_after_first_search_mb",
    "rss_after_first_store_mb",
    "rss_after_traffic_mb",
    "rss_final_mb",
    "rss_final_anon_mb",
    "pss_final_mb",
    "rest_requests",
    "mcp_calls",
    "server_cpu_ms_per_request",
    "threads_final",
    "database_connections_final",
)


def compare(other: Path, size: int, seconds: float) -> list[str]:
    """Serve copies of one store with `other`'s code and this code, alternating, and the table of both."""
    from bench.speed import queries

    this = Path(__file__).resolve().parents[1]
    runs: list[tuple[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        built = Path(tmp) / "built"
        built.mkdir()
        texts = build(built / "footprint.db", built, size)
        for label, code in [("other", other), ("this", this), ("this", this), ("other", other)]:
            home = Path(tmp) / f"run{len(runs)}"
            home.mkdir()
            copy_store(built / "footprint.db", home / "footprint.db")
            runs.append((label, serve(home / "footprint.db", home, queries(200), texts, seconds, code)))
            print(label, json.dumps({k: runs[-1][1][k] for k in COMPARED}), flush=True)
    head = f"| measure | {' | '.join(f'{label} ({i + 1})' for i, (label, _) in enumerate(runs))} |"
    return [
        f"# Footprint: `engram serve` on a {size} store, {other} (other) and this code, alternating",
        "",
        f"{seconds} s of traffic each, on copies of one store; {datetime.now(UTC).isoformat(timespec='seconds')}.",
        "",
        head,
        "|---" * (len(runs) + 1) + "|",
        *(f"| {k} | {' | '.join(str(r[k]) for _, r in runs)} |" for k in COMPARED),
        "",
    ]


ROUTES = ("search", "store", "list", "ui", "mcp-search", "mcp-store")


async def _one_tool(url: str, tool: str, args: Callable[[int], dict[str, str]], stop_at: float) -> int:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    calls = 0
    async with (
        httpx2.AsyncClient(timeout=60) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client,
    ):
        while time.monotonic() < stop_at:
            await client.call_tool(tool, args(calls))
            calls += 1
    return calls


def route_alone(
    db: Path, home: Path, route: str, queries: list[str], texts: list[str], seconds: float
) -> dict[str, Any]:
    """One `engram serve --local` on `db` after a first search and store, driven by `route` alone."""
    import httpx

    port = _port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "engram", "--db", str(db), "serve", "--local", "--port", str(port)],
        env=os.environ | {"ENGRAM_HOME": str(home)},
        stdout=subprocess.DEVNULL,
        stderr=(home / "serve.log").open("wb"),
    )
    try:
        with httpx.Client(base_url=url, timeout=120) as http:
            started = time.monotonic()
            while True:
                with contextlib.suppress(httpx.TransportError):
                    if http.get("/api/health").status_code == 200:
                        break
                if server.poll() is not None or time.monotonic() - started > 120:
                    raise RuntimeError(
                        f"engram serve did not start: {(home / 'serve.log').read_text()[-2000:]}"
                    )
                time.sleep(0.1)
            http.post("/v1/search", json={"query": queries[0]}).raise_for_status()
            http.post("/v1/store", json={"content": texts[0]}).raise_for_status()
            before = status_mb(server.pid)
            Path(f"/proc/{server.pid}/clear_refs").write_text("5")  # VmHWM from here on
            stop_at = time.monotonic() + seconds
            text = lambda i: texts[1 + i % (len(texts) - 1)]  # noqa: E731
            if route == "mcp-search":
                calls = asyncio.run(
                    _one_tool(url, "search_memory", lambda i: {"query": queries[i % len(queries)]}, stop_at)
                )
            elif route == "mcp-store":
                calls = asyncio.run(_one_tool(url, "store_memory", lambda i: {"content": text(i)}, stop_at))
            else:
                calls = 0
                while time.monotonic() < stop_at:
                    match route:
                        case "search":
                            http.post("/v1/search", json={"query": queries[calls % len(queries)]})
                        case "store":
                            http.post("/v1/store", json={"content": text(calls)})
                        case "list":
                            http.get("/v1/memories", params={"limit": 50})
                        case _:
                            http.get("/")
                    calls += 1
            after = status_mb(server.pid)
    finally:
        server.terminate()
        server.wait(60)
    return {
        "route": route,
        "calls": calls,
        "rss_after_first_store_mb": before["VmRSS"],
        "rss_after_route_mb": after["VmRSS"],
        "added_mb": round(after["VmRSS"] - before["VmRSS"], 1),
        "added_anon_mb": round(after["RssAnon"] - before["RssAnon"], 1),
        "peak_during_route_mb": after["VmHWM"],
    }


def routes(size: int, seconds: float) -> list[str]:
    """Each route alone on a copy of one built store, and the table of what each adds."""
    from bench.speed import queries

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        built = Path(tmp) / "built"
        built.mkdir()
        texts = build(built / "footprint.db", built, size)
        for route in ROUTES:
            home = Path(tmp) / route
            home.mkdir()
            copy_store(built / "footprint.db", home / "footprint.db")
            rows.append(route_alone(home / "footprint.db", home, route, queries(200), texts, seconds))
            print(json.dumps(rows[-1]), flush=True)
    head = list(rows[0])
    return [
        f"# Footprint: what each route alone adds to `engram serve` on a {size} store",
        "",
        f"{seconds} s of one route each, after a first search and store, on copies of one store; "
        f"{datetime.now(UTC).isoformat(timespec='seconds')}.",
        "",
        f"| {' | '.join(head)} |",
        "|---" * len(head) + "|",
        *(f"| {' | '.join(str(r[k]) for k in head)} |" for r in rows),
        "",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--compare", type=Path, metavar="DIR", help="another checkout to serve alternately")
    parser.add_argument("--routes", action="store_true", help="drive each route alone (footprint_routes.md)")
    parser.add_argument("--stage", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stage:
        name, *rest = args.stage
        stages: dict[str, Callable[..., dict[str, Any]]] = {
            "breakdown": stage_breakdown,
            "library": stage_library,
            "new_store": stage_new_store,
        }
        print(json.dumps(stages[name](*rest)))
        return

    if args.routes:
        lines = routes(args.size, args.seconds)
        print("\n".join(lines))
        if not args.no_write:
            RESULTS.mkdir(exist_ok=True)
            (RESULTS / "footprint_routes.md").write_text("\n".join(lines))
        return

    if args.compare:
        lines = compare(args.compare.resolve(), args.size, args.seconds)
        print("\n".join(lines))
        if not args.no_write:
            RESULTS.mkdir(exist_ok=True)
            (RESULTS / "footprint_compare.md").write_text("\n".join(lines))
        return

    from bench.speed import queries

    result: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, {len(os.sched_getaffinity(0))} cpus",
        "size": args.size,
        "seconds": args.seconds,
    }
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        db = home / "footprint.db"
        texts = build(db, home, args.size)
        result["serve"] = serve(db, home, queries(200), texts, args.seconds)
        print(json.dumps({k: v for k, v in result["serve"].items() if k != "samples"}, indent=1))
        result["library"] = _child("library", str(db), str(home))
        result["new_store"] = _child("new_store", str(home))
    result["breakdown"] = _child("breakdown")
    lines = render(result)
    print("\n".join(lines))
    if not args.no_write:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "footprint.json").write_text(json.dumps(result, indent=2) + "\n")
        (RESULTS / "footprint.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
