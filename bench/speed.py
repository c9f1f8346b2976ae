"""Speed: ingest throughput against the raw embedder in the same run, and search latency at scale.

    python -m bench.speed [--ingest 1000] [--sizes 10000 100000] [--queries 200]

1. Ingest: the first N LoCoMo turns in slices of 256, each embedded by a bare MiniLM (no cache) and then written
   through `Memory.remember_many` (write path: tokenise, dedup, near-duplicate check, classification, insert) with
   another bare MiniLM -> texts/s of each, and the ratio. The database's first write, which embeds the
   classifiers' seed prototypes once, is timed apart (first write s).
2. Scale: stores of 10k and 100k memories (unique sentences of the LongMemEval_S haystacks; their vectors come from
   the on-disk benchmark cache, so building the store measures the engine, not the model), then recall p50/p95 for
   real questions with the query embedded by a bare MiniLM inside the call, each beside the same query embedded
   alone just before it.
Peak RSS is the process's high-water mark after each phase. Disk is the database, its WAL and the vector index
file after the build; "beyond the vector" takes away the float32 vector each memory keeps in the database.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import resource
import sqlite3
import statistics
import tempfile
import time
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.datasets import load_locomo, load_longmemeval
from bench.embedcache import DiskCachedEmbedder
from engram import Memory, MiniLM, NewMemory, RecallMode, Settings

RESULTS = Path(__file__).resolve().parent / "results"
console = Console()
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ingest(n: int) -> dict[str, Any]:
    texts = [u.text for conv in load_locomo() for u in conv.units][:n]
    raw = MiniLM()
    raw.embed_batch(texts[:32])  # warm up the session
    with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "ingest.db", embedder=MiniLM()) as mem:
        mem.embedder.embed_batch(texts[:32])
        start = time.perf_counter()
        mem.remember("The first write of a new database embeds the classifiers' seed prototypes.")
        setup_s = time.perf_counter() - start
        raw_s = ingest_s = 0.0
        # Slices alternate between the bare model and the write path, so that both see the same moments of a
        # shared, noisy machine.
        for i in range(0, len(texts), 256):
            batch = texts[i : i + 256]
            start = time.perf_counter()
            raw.embed_batch(batch)
            middle = time.perf_counter()
            mem.remember_many([NewMemory(content=t) for t in batch])
            raw_s, ingest_s = raw_s + middle - start, ingest_s + time.perf_counter() - middle
        stored = mem.stats()["memories"] - 1
    return {
        "texts": len(texts),
        "stored": stored,
        "first_write_s": round(setup_s, 2),
        "raw_embed_texts_per_s": round(len(texts) / raw_s, 1),
        "ingest_texts_per_s": round(len(texts) / ingest_s, 1),
        "ratio": round(raw_s / ingest_s, 3),
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }


def corpus(size: int) -> list[str]:
    seen: dict[str, None] = {}
    for question in load_longmemeval(scored_only=False):
        for session in question.sessions:
            for turn in session.turns:
                for sentence in _SENTENCE.split(turn.content):
                    sentence = sentence.strip()
                    if 30 <= len(sentence) <= 400:
                        seen.setdefault(sentence, None)
                        if len(seen) >= size:
                            return list(seen)
    return list(seen)


def queries(count: int) -> list[str]:
    out = [q.question for q in load_longmemeval()] + [q.question for c in load_locomo() for q in c.questions]
    return out[:count]


def paired_times(mem: Memory, model: MiniLM, qs: list[str]) -> tuple[list[float], list[float]]:
    """Milliseconds per query to embed it alone with the bare model, and then to recall it (accurate, limit 10,
    nothing touched; the query embedded inside the call). Paired query by query, so both series see the same
    moments of a shared machine: measured apart, a busy minute lands in one of them only."""
    model.embed_batch(["warm up"])
    mem.recall("warm up the index", touch=False)
    embed, recall = [], []
    for q in qs:
        t0 = time.perf_counter()
        model.embed_batch([q])
        t1 = time.perf_counter()
        mem.recall(q, limit=10, mode=RecallMode.ACCURATE, touch=False)
        t2 = time.perf_counter()
        embed.append((t1 - t0) * 1000)
        recall.append((t2 - t1) * 1000)
    return embed, recall


def scale(size: int, n_queries: int, cache: DiskCachedEmbedder) -> dict[str, Any]:
    texts = corpus(size)
    cache.embed_batch(texts)  # fill the on-disk cache first: the model's time is not the engine's
    qs = queries(n_queries)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"scale-{size}.db"
        with Memory(path, embedder=cache) as mem:
            start = time.perf_counter()
            for i in range(0, len(texts), 1000):
                mem.remember_many([NewMemory(content=t) for t in texts[i : i + 1000]])
            build_s = time.perf_counter() - start
            stored = mem.stats()["memories"]
        disk = sum(p.stat().st_size for p in Path(tmp).iterdir() if p.name.startswith(path.name))
        with closing(sqlite3.connect(path)) as db:
            vector_bytes = int(
                db.execute("SELECT coalesce(sum(length(embedding)), 0) FROM memories").fetchone()[0]
            )
        model = MiniLM()
        with Memory(path, embedder=model, settings=Settings()) as mem:
            embed_ms, search_ms = paired_times(mem, model, qs)
    return {
        "memories": stored,
        "build_s": round(build_s, 1),
        "build_memories_per_s": round(len(texts) / build_s, 1),
        "queries": len(qs),
        "embed_p50_ms": round(statistics.median(embed_ms), 2),
        "search_p50_ms": round(statistics.median(search_ms), 2),
        "search_p95_ms": round(pct(search_ms, 0.95), 2),
        "search_minus_embed_p50_ms": round(statistics.median(search_ms) - statistics.median(embed_ms), 2),
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "disk_mb": round(disk / 1e6, 1),
        "disk_beyond_vector_kb_per_memory": round((disk - vector_bytes) / stored / 1000, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--ingest", type=int, default=3000, help="texts for the ingest comparison")
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()

    result: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, {len(__import__('os').sched_getaffinity(0))} cpus",
    }
    result["ingest"] = ingest(args.ingest)
    cache = DiskCachedEmbedder(MiniLM())
    # A size not asked for this time keeps its row from the last run that measured it (dated), as the
    # 100k build alone takes half an hour.
    last = json.loads((RESULTS / "speed.json").read_text()) if (RESULTS / "speed.json").exists() else {}
    earlier = {k: {"date": last["date"]} | row for k, row in last.get("scale", {}).items()}
    fresh = {str(size): scale(size, args.queries, cache) | {"date": result["date"]} for size in args.sizes}
    result["scale"] = {k: fresh.get(k) or earlier[k] for k in sorted({*earlier, *fresh}, key=int)}
    cache.close()

    ing = result["ingest"]
    table = Table(
        "ingest", "texts", "raw embed texts/s", "ingest texts/s", "ratio", "first write s", "peak RSS MB"
    )
    table.add_row(
        "write path",
        str(ing["texts"]),
        str(ing["raw_embed_texts_per_s"]),
        str(ing["ingest_texts_per_s"]),
        f"{ing['ratio']:.0%}",
        str(ing["first_write_s"]),
        str(ing["peak_rss_mb"]),
    )
    console.print(table)
    table = Table(
        "memories",
        "build s",
        "query embed p50 ms",
        "search p50 ms",
        "search p95 ms",
        "search - embed p50 ms",
        "peak RSS MB",
    )
    for row in result["scale"].values():
        table.add_row(
            *(
                str(row[k])
                for k in (
                    "memories",
                    "build_s",
                    "embed_p50_ms",
                    "search_p50_ms",
                    "search_p95_ms",
                    "search_minus_embed_p50_ms",
                    "peak_rss_mb",
                )
            )
        )
    console.print(table)
    if not args.no_write:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "speed.json").write_text(json.dumps(result, indent=2) + "\n")
        lines = [
            "# Speed",
            "",
            f"Generated by `python -m bench.speed` on {result['date']} ({result['machine']}). One run on a shared,",
            "noisy machine: compare ratios within the run, not absolute numbers across runs.",
            "",
            "| ingest texts | raw embed texts/s | write path texts/s | ratio | first write s | peak RSS MB |",
            "|---|---|---|---|---|---|",
            f"| {ing['texts']} | {ing['raw_embed_texts_per_s']} | {ing['ingest_texts_per_s']} | "
            f"{ing['ratio']:.0%} | {ing['first_write_s']} | {ing['peak_rss_mb']} |",
            "",
            "| memories | build s | query embed p50 ms | search p50 ms | search p95 ms | search - embed p50 ms "
            "| peak RSS MB | disk MB | disk beyond the vector KB/memory | run |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for row in result["scale"].values():
            lines.append(
                f"| {row['memories']} | {row['build_s']} | {row['embed_p50_ms']} | {row['search_p50_ms']} | "
                f"{row['search_p95_ms']} | {row['search_minus_embed_p50_ms']} | {row['peak_rss_mb']} | "
                f"{row.get('disk_mb', '-')} | {row.get('disk_beyond_vector_kb_per_memory', '-')} | {row['date']} |"
            )
        (RESULTS / "speed.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
