"""The scale bench's Engram worker: one phase on one store, in a process of its own (bench/scale.py runs it).

    python -m bench.peers.engram build|serve --db PATH_OR_URL --data DIR --out FILE

build: the data set's memories through the write path's batch API (`Memory.remember_many`, 1000 a call), each
       with the vector given for it (`embedded`, by content hash), so the build measures the engine, not the
       model; the openings the classifiers read come from the on-disk benchmark cache. Then the ingest texts
       through the same API with the real model embedding them, slice by slice beside the bare model
       embedding the same slice: the write path's throughput against the raw embedder's, at this size.
       With --loader store (for sizes the write path cannot build in the bench's time on this machine), the
       memories go through the store's bulk insert instead (`Store.insert`: rows, full-text and vector index,
       no classification or audit), and only the ingest texts take the write path.
serve: a fresh process opens the existing store and answers a first search (cold start: the parent times it
       from the process's start), then each query is embedded alone by a bare MiniLM and searched (accurate,
       limit 10, the query embedded inside the call).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.peers.data import (
    INGEST,
    QUERIES,
    WARM_UP,
    alternating,
    batches,
    count,
    ingest_figures,
    memory_kb,
    progress,
    read_lines,
    report,
    search_figures,
)

if TYPE_CHECKING:
    from engram import MiniLM


def build(db: str, data: Path, loader: str = "write") -> dict[str, Any]:
    from bench.backends import bulk_records
    from bench.embedcache import DiskCachedEmbedder
    from engram import Memory, MiniLM, NewMemory
    from engram.model.vectors import content_hash

    total = count(data)
    model = MiniLM()  # one model per process: each instance holds a few hundred MB
    cache = DiskCachedEmbedder(model)
    with Memory(db, embedder=cache) as mem:
        t0 = time.perf_counter()
        mem.remember("A first write of a new store fits the classifiers once: timed apart.")
        first_write_s = time.perf_counter() - t0
        started, done, step = time.perf_counter(), 0, max(total // 20, 1)
        for texts, vectors in batches(data):
            if loader == "store":
                mem.store.insert(bulk_records(texts, done), list(vectors))
            else:
                embedded = {content_hash(t): v for t, v in zip(texts, vectors, strict=True)}
                mem.remember_many([NewMemory(content=t) for t in texts], embedded=embedded)
            done += len(texts)
            if done // step != (done - len(texts)) // step:
                progress("build", done, total, started)
        mem.recall("the vector index catches up before the first search", touch=False)
        build_s = time.perf_counter() - started
        stored = mem.stats()["memories"] - 1
    cache.close()
    loaded_peak_mb = round(memory_kb()["VmHWM"] / 1024, 1)  # before the ingest opens the store again
    return {
        "loaded": total,
        "loader": loader,
        "memories": stored,
        "first_write_s": round(first_write_s, 2),
        "build_s": round(build_s, 1),
        "build_memories_per_s": round(total / build_s, 1),
        "load_peak_rss_mb": loaded_peak_mb,
        **ingest(db, read_lines(data / INGEST), model),
    }


def ingest(db: str, texts: list[str], model: MiniLM) -> dict[str, Any]:
    """The write path with `model` embedding, beside `model` called bare on the same texts."""
    from engram import Memory

    model.embed_batch(texts[-WARM_UP:])  # warmed up before timing; it keeps no cache
    with Memory(db, embedder=model) as mem:
        raw_s, write_s = alternating(mem, model, texts)
    return ingest_figures(len(texts), raw_s, write_s)


def serve(db: str, data: Path) -> dict[str, Any]:
    from engram import Memory, MiniLM, RecallMode

    qs = read_lines(data / QUERIES)
    model = MiniLM()
    with Memory(db, embedder=model) as mem:
        hits = mem.recall(qs[0], limit=10, mode=RecallMode.ACCURATE, touch=False)
        first_answer_at = time.time()
        from bench.speed import paired_times  # after the first answer: the bench's imports are not Engram's

        embed_ms, search_ms = paired_times(mem, model, qs[1:])
    return {
        "first_answer_at": first_answer_at,
        "first_hits": len(hits),
        **search_figures(embed_ms, search_ms),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("phase", choices=("build", "serve"))
    parser.add_argument("--db", required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--loader", choices=("write", "store"), default="write")
    args = parser.parse_args()
    report(
        args.out,
        build(args.db, args.data, args.loader) if args.phase == "build" else serve(args.db, args.data),
    )


if __name__ == "__main__":
    main()
