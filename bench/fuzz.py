"""Hostile input at volume: REST requests, MCP calls (streamable HTTP and stdio) and Python API tool calls, counting
server errors.

    python -m bench.fuzz [--rest 100000] [--mcp 10000] [--stdio 500] [--python 5000] [--seconds 480] [--seed 0]
                         [--workers 1] [--out fuzz]

A local-mode server (no keys: every route open, the Host allow-list and Origin check on) in-process, the fake
embedder (robustness does not depend on the model), a fresh store. Requests are drawn from a seeded generator:
every route of the OpenAPI document, bodies nested up to 100,000 deep, lone surrogates, NUL, 5,000-digit numbers,
NaN, booleans where numbers go, strings of 50,000 characters, bytes that are no JSON, foreign Host and Origin
headers, hostile paths for the file tools, query parameters mostly of the route's own names. A blank stdio line
is no message (nothing answers it), so none is sent. Targets: 0 server errors (5xx, or anything but problem+json on an
error) over REST; every MCP request answered (a JSON-RPC result or error) within 1 s; the Python API raising only
Engram's own errors. Each part stops at its count or when the time budget is spent, whichever comes first.
With --workers N, N processes share the counts, each with its own server, store and seed (seed + i); their
reports are summed (the MCP p50 is the highest of the workers' medians). Results: bench/results/fuzz.json and
fuzz.md (`--out NAME`: NAME.json and NAME.md), with the stdio answers' median and slowest wait.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import random
import re
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from engram import EngramError, FakeEmbedder, Memory, Settings
from engram.agent.registry import TOOLS
from engram.interfaces.http.serve import build_app

RESULTS = Path(__file__).resolve().parent / "results"
FIELDS = [
    "content", "query", "context", "options", "arguments", "metadata", "tags", "limit", "mode", "scope",
    "scope_id", "user_id", "workspace_id", "touch", "helpful", "type", "memory_type", "auto_ingest",
    "quality_weight", "quality_boost", "max_results", "time_horizon", "path", "action", "ids", "importance",
    "user_marked_important", "kind", "status", "credibility", "sequence_number", "memory_types", "profile", "id",
    "granularity", "dry_run", "operation_id", "with_embeddings", "top", "into", "source",
]  # fmt: skip
TEXTS = [
    "\ud800", "a\udfffb", "\x00", "../../etc/passwd", "/etc/passwd", "../bob/x.db", "x.jsonl", "mine.db",
    "<script>alert(1)</script>", "'; DROP TABLE memories;--", "\u202e", "NaN", "true", "0", "-1", "1e999", "",
    " ", "global", "session", "project", "fact", "Fact", "backup", "restore", "daily", "accurate", "x" * 50_000,
    "remember the deploy on Friday", "tenant_a", "%00", "é", "日本語のテキスト",
    "what happened 5000 years ago", "in 9999", "the last 99999999999 days", "on 31 December 9999",
    "9999-12-31T23:59:59-12:00", "0001-01-01T00:00:00+14:00",
    "te\u200bam", "\u2066team\u2069", "de\u00adploy", "\ufeffx", "a\u2028b", "\u0440\u0430yment", "pr\u043eject",
]  # fmt: skip


class Hostile:
    """A seeded source of hostile values, bodies and requests."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self._deep: dict[tuple[int, str], Any] = {}

    def text(self) -> str:
        r = self.rng
        if r.random() < 0.6:
            return r.choice(TEXTS)
        return "".join(
            chr(r.choice([r.randint(32, 126), r.randint(0, 0x10FFFF)])) for _ in range(r.randint(0, 30))
        )

    def scalar(self) -> Any:
        r = self.rng
        return r.choice(
            [
                None,
                r.random() < 0.5,
                r.randint(-(2**70), 2**70),
                r.choice([float("nan"), float("inf"), -0.0, 1e308, r.random()]),
                10 ** r.randint(300, 5000),
                self.text(),
                self.text(),
            ]
        )

    def value(self, depth: int = 0) -> Any:
        r = self.rng
        roll = r.random()
        if roll < 0.03:
            return self.deep(r.choice([33, 65, 129, 300, 1000, 5000, 100_000]))
        if depth > 3 or roll < 0.55:
            return self.scalar()
        if roll < 0.75:
            return [self.value(depth + 1) for _ in range(r.randint(0, 4))]
        return {self.key(): self.value(depth + 1) for _ in range(r.randint(0, 4))}

    def key(self) -> str:
        return self.rng.choice(FIELDS) if self.rng.random() < 0.8 else self.text()

    def deep(self, levels: int) -> Any:
        """A value nested `levels` deep: lists, objects or both in turn (built once per shape: building a
        100,000-deep value for each request took most of the fuzzer's time)."""
        shape = self.rng.choice(["list", "dict", "mixed"])
        if (levels, shape) not in self._deep:
            value: Any = 1
            for i in range(levels):
                as_list = shape == "list" or (shape == "mixed" and i % 2 == 0)
                value = [value] if as_list else {"k": value}
            self._deep[(levels, shape)] = value
        return self._deep[(levels, shape)]

    def fields(self, own: list[str] | None = None) -> dict[str, Any]:
        """A body's fields: mostly the route's own (`own`), with hostile or plausible values."""
        r = self.rng
        out: dict[str, Any] = {}
        for _ in range(r.randint(0, 6)):
            key = r.choice(own) if own and r.random() < 0.85 else self.key()
            out[key] = (
                self.value() if r.random() < 0.5 else r.choice([*TEXTS[6:], True, 5, 0.5, ["a", "b"], {}])
            )
        return out

    def body(self, own: list[str] | None = None, *, tool: bool = False) -> bytes:
        r = self.rng
        roll = r.random()
        if roll < 0.05:
            return r.choice(
                [b"", b"{", b'{"content": "\xff\xfe"}', b"[" * 200_000, b'{"a":' * 100_000, b"\x00"]
            )
        if roll < 0.1:
            return r.randbytes(r.randint(1, 300))
        value = self.fields(own) if roll < 0.9 else self.value()
        if tool and roll < 0.85:
            value = {"arguments": value}
        try:
            return json.dumps(value).encode()  # a lone surrogate travels as \\ud800, NaN as NaN
        except (ValueError, RecursionError):
            return b"[" * 5000


def _routes(app: Any) -> list[tuple[str, str]]:
    """Every (method, path) the OpenAPI document lists."""
    return sorted((m.upper(), path) for path, item in app.openapi()["paths"].items() for m in item)


def fuzz_rest(client: TestClient, gen: Hostile, count: int, deadline: float, port: int) -> dict[str, Any]:
    """`count` generated requests over every route; a 5xx, or an error that is no problem+json, is a failure."""
    routes = _routes(client.app)
    fields = route_fields(client.app)
    app: Any = client.app
    queries = {
        (m.upper(), path): [p["name"] for p in op.get("parameters", []) if p.get("in") == "query"]
        for path, item in app.openapi()["paths"].items()
        for m, op in item.items()
    }
    ids = [m["id"] for m in client.get("/v1/memories", params={"limit": 20}).json()["memories"]]
    statuses: Counter[int] = Counter()
    failures: list[dict[str, Any]] = []
    done = 0
    started = time.perf_counter()
    while done < count and time.monotonic() < deadline:
        r = gen.rng
        method, path = r.choice(routes)
        concrete = path
        for name in ("memory_id", "name"):
            part = r.choice(["x", "%00", "..%2f..", "a" * 300, "%ED%A0%80", "recall", *ids])
            concrete = concrete.replace("{" + name + "}", part)
        headers = {"content-type": "application/json"}
        if r.random() < 0.05:
            headers["host"] = r.choice(["attacker.example", f"127.0.0.1:{port}", "localhost", "[::1]:1", ""])
        if r.random() < 0.05:
            headers["origin"] = r.choice(["http://attacker.example", "null", f"http://127.0.0.1:{port}"])
        # Mostly the route's own query parameters (an unknown one is refused before the route runs), some others.
        taken = queries.get((method, path), [])
        query = {
            _sendable(r.choice(taken) if taken and r.random() < 0.85 else gen.key()): _sendable(gen.text())
            for _ in range(r.randint(0, 2))
        }
        own = fields.get((method, path), [])
        tool = path.startswith("/v1/tools/") and path != "/v1/tools/{name}"
        body = gen.body(own, tool=tool) if method in ("POST", "PATCH", "PUT") else b""
        try:
            response = client.request(method, concrete, params=query, content=body, headers=headers)
        except (
            Exception
        ) as exc:  # the client cannot even send it (a URL too long): not the server's to answer
            if "URL" not in type(exc).__name__:
                raise
            statuses[0] += 1
            continue
        done += 1
        statuses[response.status_code] += 1
        shodh_duplicate = response.status_code == 409 and path == "/api/remember"  # JSON by SHODH's spec
        bad_type = (
            response.status_code >= 400
            and not shodh_duplicate
            and not response.headers.get("content-type", "").startswith("application/problem+json")
        )
        if response.status_code >= 500 or bad_type:
            failures.append(
                {
                    "method": method,
                    "path": path,
                    "status": response.status_code,
                    "body": body[:200].decode("latin-1"),
                }
            )
    return {
        "requests": done,
        "seconds": round(time.perf_counter() - started, 1),
        "server_errors": sum(n for s, n in statuses.items() if s >= 500),
        "failures": len(failures),
        "failure_samples": failures[:20],
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
    }


def route_fields(app: Any) -> dict[tuple[str, str], list[str]]:
    """The body fields each route takes, from its OpenAPI schema; a tool route's are its arguments."""
    doc = app.openapi()
    schemas = doc["components"]["schemas"]
    tools = {t.name: list(t.arguments.model_fields) for t in TOOLS}
    out: dict[tuple[str, str], list[str]] = {}
    for path, item in doc["paths"].items():
        for method, op in item.items():
            text = json.dumps(op.get("requestBody") or {})
            refs = set(re.findall(r"#/components/schemas/(\w+)", text))
            names = [n for ref in refs for n in schemas[ref].get("properties", {})]
            tool = path.rsplit("/", 1)[1]
            if path.startswith("/v1/tools/") and tool in tools:
                names = tools[tool]
            out[(method.upper(), path)] = names
    return out


def _sendable(text: str) -> str:
    """Text a URL can carry (a lone surrogate cannot even be sent)."""
    return text.encode("utf-8", "replace").decode()[:2000]  # and that fits in a URL


# The MCP handshake both the HTTP and the stdio fuzzers open with.
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "fuzz", "version": "1"},
    },
}


def _mcp_session(client: TestClient) -> dict[str, str]:
    accept = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    r = client.post("/mcp", json=INITIALIZE, headers=accept)
    headers = accept | {"mcp-session-id": r.headers["mcp-session-id"]}
    client.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    return headers


def _answered(response: Any, request_id: int) -> bool:
    """Whether an MCP response carries a JSON-RPC result or error for `request_id` (JSON or one SSE event)."""
    text = response.text
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        text = "\n".join(line[5:].strip() for line in text.splitlines() if line.startswith("data:"))
    try:
        message = json.loads(text)
    except ValueError:
        return bool(response.status_code < 500) and response.headers.get("content-type", "").startswith(
            "application/problem+json"
        )
    if isinstance(message, dict) and ("result" in message or "error" in message):
        return message.get("id") in (request_id, None)
    return isinstance(message, dict) and message.get("status", 500) < 500


def fuzz_mcp(client: TestClient, gen: Hostile, count: int, deadline: float) -> dict[str, Any]:
    """`count` tool calls over /mcp: known and unknown tools, hostile arguments, and malformed JSON-RPC."""
    headers = _mcp_session(client)
    names = [t.name for t in TOOLS] + ["no_such_tool", ""]
    unanswered: list[dict[str, Any]] = []
    slow: list[dict[str, Any]] = []
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    done = 0
    while done < count and time.monotonic() < deadline:
        r = gen.rng
        done += 1
        if r.random() < 0.15:  # not even a tool call
            raw = gen.body()
        else:
            arguments = gen.fields() if r.random() < 0.9 else gen.value()
            call = {
                "jsonrpc": "2.0",
                "id": done,
                "method": "tools/call",
                "params": {"name": r.choice(names), "arguments": arguments},
            }
            try:
                raw = json.dumps(call).encode()
            except (ValueError, RecursionError):
                raw = b"[" * 5000
        started = time.perf_counter()
        response = client.post("/mcp", content=raw, headers=headers)
        latencies.append(time.perf_counter() - started)
        if latencies[-1] > 1.0:  # which calls were slow, to find why
            slow.append({"ms": round(1000 * latencies[-1], 1), "request": raw[:200].decode("latin-1")})
        statuses[response.status_code] += 1
        if response.status_code >= 500 or not _answered(response, done):
            unanswered.append(
                {
                    "status": response.status_code,
                    "request": raw[:200].decode("latin-1"),
                    "answer": response.text[:200],
                }
            )
    latencies.sort()
    return {
        "calls": done,
        "server_errors": sum(n for s, n in statuses.items() if s >= 500),
        "unanswered": len(unanswered),
        "unanswered_samples": unanswered[:20],
        "over_1s": sum(1 for t in latencies if t > 1.0),
        "slow_samples": slow[:20],
        "p50_ms": round(1000 * latencies[len(latencies) // 2], 2) if latencies else None,
        "max_ms": round(1000 * latencies[-1], 2) if latencies else None,
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
    }


def fuzz_stdio(home: Path, gen: Hostile, count: int, deadline: float) -> dict[str, Any]:
    """`count` lines to `engram mcp` over stdio (bad lines included); each must be answered within 1 s."""
    env = os.environ | {"ENGRAM_HOME": str(home / "stdio")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "engram", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    slow: list[str] = []
    waits: list[float] = []  # from writing each line to reading its answer (at most 1 s counted)
    done = 0
    try:
        proc.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
        proc.stdin.flush()
        if not _line(proc, 120):
            return {"lines": 0, "error": "engram mcp did not answer initialize"}
        deadline = max(deadline, time.monotonic() + 10)  # loading the model is not the calls' time
        proc.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        while done < count and time.monotonic() < deadline:
            done += 1
            r = gen.rng
            if r.random() < 0.3:
                line = gen.body().replace(b"\n", b" ")
                if not line.strip():  # a blank line is no message: nothing answers it
                    line = b"{"
            else:
                call = {
                    "jsonrpc": "2.0",
                    # now and then an id no request may carry: read as a notification, it went unanswered
                    "id": done
                    if r.random() < 0.95
                    else r.choice([1.5, None, True, {"a": done}, [done], str(done)]),
                    "method": "tools/call",
                    "params": {"name": r.choice([t.name for t in TOOLS]), "arguments": gen.fields()},
                }
                try:
                    line = json.dumps(call).encode()
                except (ValueError, RecursionError):
                    line = b"[" * 5000
            sent = time.perf_counter()
            proc.stdin.write(line + b"\n")
            proc.stdin.flush()
            answer = _line(proc, 1.0)
            waits.append(time.perf_counter() - sent)
            if not answer:
                slow.append(line[:200].decode("latin-1"))
                if proc.poll() is not None:
                    break
                _line(proc, 10)  # let a late answer through before the next line
    finally:
        proc.kill()
    return {
        "lines": done,
        "unanswered_within_1s": len(slow),
        "p50_ms": round(1000 * statistics.median(waits), 2) if waits else None,
        "max_ms": round(1000 * max(waits), 2) if waits else None,
        "samples": slow[:20],
        "exited": proc.poll() not in (None, -9),
    }


def _line(proc: subprocess.Popen[bytes], timeout: float) -> bytes:
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    return proc.stdout.readline() if ready else b""


def fuzz_python(home: Path, gen: Hostile, count: int, deadline: float) -> dict[str, Any]:
    """`count` Memory.run_tool calls with hostile arguments: only Engram's own errors may come out."""
    crashes: Counter[str] = Counter()
    samples: list[dict[str, Any]] = []
    done = 0
    with Memory(
        home / "python.db", embedder=FakeEmbedder(), settings=Settings(home=home), files=home / "files"
    ) as mem:
        while done < count and time.monotonic() < deadline:
            done += 1
            name = gen.rng.choice([t.name for t in TOOLS])
            arguments = gen.fields()
            try:
                mem.run_tool(name, **arguments)
            except EngramError:
                pass
            except Exception as exc:  # what the target counts
                crashes[type(exc).__name__] += 1
                if len(samples) < 20:
                    samples.append(
                        {"tool": name, "error": type(exc).__name__, "arguments": _repr(arguments)[:200]}
                    )
    return {"calls": done, "crashes": sum(crashes.values()), "by_type": dict(crashes), "samples": samples}


def _repr(value: Any) -> str:
    """A value as Python writes it, or what it is when Python will not (an integer of 5,000 digits)."""
    try:
        return repr(value)
    except ValueError:
        return f"<{type(value).__name__} holding an integer too long to write>"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rest", type=int, default=100_000)
    parser.add_argument("--mcp", type=int, default=10_000)
    parser.add_argument("--stdio", type=int, default=500)
    parser.add_argument("--python", type=int, default=5_000)
    parser.add_argument("--seconds", type=float, default=480, help="time budget for all parts")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1, help="processes sharing the counts")
    parser.add_argument("--out", default="fuzz", help="results file name, without extension")
    parser.add_argument(
        "--report-to", type=Path, default=None, help=argparse.SUPPRESS
    )  # a worker's own report
    args = parser.parse_args()
    started = time.monotonic()
    report = run_workers(args) if args.workers > 1 else run_one(args)
    if args.report_to:
        args.report_to.write_text(json.dumps(report))
        return
    report["date"] = datetime.now(UTC).isoformat(timespec="seconds")
    report["machine"] = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    report["asked"] = {"rest": args.rest, "mcp": args.mcp, "stdio": args.stdio, "python": args.python}
    report["budget_seconds"] = args.seconds
    report["workers"] = args.workers
    report["seed"] = args.seed
    report["seconds"] = round(time.monotonic() - started, 1)
    report["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]  # a shared machine weighs on waits
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.out}.json").write_text(json.dumps(report, indent=2, ensure_ascii=True) + "\n")
    (RESULTS / f"{args.out}.md").write_text(render(report))


def run_workers(args: argparse.Namespace) -> dict[str, Any]:
    """Run `args.workers` fuzzing processes at once, each with a share of the counts, and sum their reports."""
    n = args.workers
    with tempfile.TemporaryDirectory(prefix="engram-fuzz-workers-") as tmp:
        procs = []
        for i in range(n):
            share = {k: -(-getattr(args, k) // n) for k in ("rest", "mcp", "stdio", "python")}
            command = [sys.executable, "-m", "bench.fuzz", "--seconds", str(args.seconds)]
            command += ["--seed", str(args.seed + i), "--report-to", f"{tmp}/{i}.json"]
            command += [x for k, v in share.items() for x in (f"--{k}", str(v))]
            procs.append(subprocess.Popen(command))
        for proc in procs:
            proc.wait()
        reports = [json.loads(Path(f"{tmp}/{i}.json").read_text()) for i in range(n)]
    return merge(reports)


def merge(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """The workers' reports as one: counts summed, samples pooled, the worst latency kept, a stdio server that
    exited of itself in any worker said."""

    def total(part: str, key: str) -> int:
        return sum((r[part] or {}).get(key, 0) for r in reports)

    def statuses(part: str) -> dict[str, int]:
        counts: Counter[str] = Counter()
        for r in reports:
            counts.update(r[part]["statuses"])
        return dict(sorted(counts.items(), key=lambda kv: int(kv[0])))

    def pooled(part: str, key: str) -> list[Any]:
        return [s for r in reports for s in (r[part] or {}).get(key, [])][:20]

    rest: dict[str, Any] = {k: total("rest", k) for k in ("requests", "server_errors", "failures")}
    rest |= {"seconds": max(r["rest"]["seconds"] for r in reports), "statuses": statuses("rest")}
    rest["failure_samples"] = pooled("rest", "failure_samples")
    mcp: dict[str, Any] = {
        k: total("mcp_http", k) for k in ("calls", "server_errors", "unanswered", "over_1s")
    }
    medians = [r["mcp_http"]["p50_ms"] for r in reports if r["mcp_http"]["p50_ms"] is not None]
    maxima = [r["mcp_http"]["max_ms"] for r in reports if r["mcp_http"]["max_ms"] is not None]
    mcp |= {"p50_ms": max(medians, default=None), "max_ms": max(maxima, default=None)}
    mcp |= {"statuses": statuses("mcp_http"), "unanswered_samples": pooled("mcp_http", "unanswered_samples")}
    mcp["slow_samples"] = pooled("mcp_http", "slow_samples")
    stdio: dict[str, Any] | None = None
    if any(r["mcp_stdio"] for r in reports):
        stdio = {k: total("mcp_stdio", k) for k in ("lines", "unanswered_within_1s")}
        stdio |= {"samples": pooled("mcp_stdio", "samples")}
        for key in ("p50_ms", "max_ms"):  # the highest of the workers' medians, the worst wait
            found = [r["mcp_stdio"][key] for r in reports if (r["mcp_stdio"] or {}).get(key) is not None]
            stdio[key] = max(found, default=None)
        stdio["exited"] = any((r["mcp_stdio"] or {}).get("exited", False) for r in reports)
        errors = [
            r["mcp_stdio"].get("error") for r in reports if r["mcp_stdio"] and r["mcp_stdio"].get("error")
        ]
        if errors:
            stdio["error"] = "; ".join(errors)
    by_type: Counter[str] = Counter()
    for r in reports:
        by_type.update(r["python"]["by_type"])
    python = {
        "calls": total("python", "calls"),
        "crashes": total("python", "crashes"),
        "by_type": dict(by_type),
    }
    python["samples"] = pooled("python", "samples")
    return {"rest": rest, "mcp_http": mcp, "mcp_stdio": stdio, "python": python}


def run_one(args: argparse.Namespace) -> dict[str, Any]:
    """One process's fuzzing: REST, then MCP over HTTP, stdio, and the Python API, each in its share of the time."""
    logging.disable(logging.WARNING)  # the MCP SDK and httpx log every request; the hostile ones as warnings
    # Shares of the budget: REST first (the target's volume), then MCP, stdio and the Python API.
    budget = {"rest": 0.70, "mcp": 0.12, "stdio": 0.08, "python": 0.10}
    report: dict[str, Any] = {}
    gen = Hostile(args.seed)
    with tempfile.TemporaryDirectory(prefix="engram-fuzz-") as tmp:
        home = Path(tmp)
        port = 8765
        app = build_app(
            Settings(home=home, maintain_every_minutes=0),
            db=home / "local.db",
            embedder=FakeEmbedder(),
            require_key=False,
        )
        with TestClient(app, base_url=f"http://127.0.0.1:{port}", raise_server_exceptions=False) as client:
            client.post("/v1/store", json={"content": "a first memory"})
            end = (
                time.monotonic() + args.seconds * budget["rest"]
            )  # from here: the warm-up is not the fuzzing
            report["rest"] = fuzz_rest(client, gen, args.rest, end, port)
            print("rest", {k: v for k, v in report["rest"].items() if k != "failure_samples"}, flush=True)
            end = time.monotonic() + args.seconds * budget["mcp"]
            report["mcp_http"] = fuzz_mcp(client, gen, args.mcp, end)
            print(
                "mcp",
                {k: v for k, v in report["mcp_http"].items() if not k.endswith("_samples")},
                flush=True,
            )
        end = time.monotonic() + args.seconds * budget["stdio"]
        report["mcp_stdio"] = fuzz_stdio(home, gen, args.stdio, end) if args.stdio else None
        print(
            "stdio",
            report["mcp_stdio"] and {k: v for k, v in report["mcp_stdio"].items() if k != "samples"},
            flush=True,
        )
        end = time.monotonic() + args.seconds * budget["python"]
        report["python"] = fuzz_python(home, gen, args.python, end)
        print("python", {k: v for k, v in report["python"].items() if k != "samples"}, flush=True)
    return report


def render(report: dict[str, Any]) -> str:
    rest, mcp, stdio, python = report["rest"], report["mcp_http"], report["mcp_stdio"], report["python"]
    lines = [
        "# Fuzzing: hostile input at volume",
        "",
        f"{report['date']}, {report['machine']}, seed {report['seed']}, {report['seconds']} s in all "
        f"(budget {report['budget_seconds']:.0f} s), {report.get('workers', 1)} worker(s), load average "
        f"{report.get('load_average_at_end', ['?'])[0]} at the end. `python -m bench.fuzz` (see its docstring for what is generated).",
        "",
        "| surface | asked | done | server errors (5xx) | other failures | note |",
        "|---|---:|---:|---:|---:|---|",
        f"| REST (every route, local mode) | {report['asked']['rest']:,} | {rest['requests']:,} | "
        f"{rest['server_errors']} | {rest['failures'] - rest['server_errors']} | errors not problem+json count as failures |",
        f"| MCP over streamable HTTP | {report['asked']['mcp']:,} | {mcp['calls']:,} | {mcp['server_errors']} | "
        f"{mcp['unanswered']} unanswered | p50 {mcp['p50_ms']} ms, max {mcp['max_ms']} ms, {mcp['over_1s']} over 1 s |",
    ]
    if stdio:
        lines.append(
            f"| MCP over stdio | {report['asked']['stdio']:,} | {stdio.get('lines', 0):,} | - | "
            f"{stdio.get('unanswered_within_1s', '?')} not answered within 1 s | "
            f"p50 {stdio.get('p50_ms', '-')} ms, max {stdio.get('max_ms', '-')} ms (1 s at most counted)"
            f"{'; '.join(['', *filter(None, [stdio.get('error', ''), 'the server exited' if stdio.get('exited') else ''])])} |"
        )
    lines += [
        f"| Python API (Memory.run_tool) | {report['asked']['python']:,} | {python['calls']:,} | - | "
        f"{python['crashes']} errors not Engram's own | {python['by_type'] or ''} |",
        "",
    ]
    for part, counts in (("REST", rest["statuses"]), ("MCP", mcp["statuses"])):
        if counts:  # none when the part was not asked for (a stdio-only run)
            lines += [f"{part} statuses: " + ", ".join(f"{k}: {v:,}" for k, v in counts.items()), ""]
    slow = [f"{s['ms']} ms `{s['request'][:100]}`" for s in mcp.get("slow_samples", [])]
    late = [f"`{s[:100]}`" for s in (stdio or {}).get("samples", [])]
    if slow:
        lines += ["MCP over HTTP, calls over 1 s: " + "; ".join(slow), ""]
    if late:
        lines += ["MCP over stdio, lines not answered within 1 s: " + "; ".join(late), ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
