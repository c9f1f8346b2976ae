"""What every scale worker reads and reports, whichever engine it drives: the data set of one size as files, read
back in batches (so the data never sits in the worker's memory whole and its peak RSS is the engine's), and the
figures a worker measures. Only the standard library and numpy, as the peer engines run in their own
environments."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

DIM = 384
BATCH = 1000  # memories per call of each engine's batch API
INGEST_SLICE = 256  # texts per slice when the write path alternates with the bare model
WARM_UP = 64  # texts each model embeds before it is timed
TEXTS, VECTORS, INGEST, QUERIES = "texts.jsonl", "vectors.f32", "ingest.jsonl", "queries.jsonl"


def write_lines(path: Path, texts: list[str]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for text in texts:
            out.write(json.dumps(text) + "\n")


def read_lines(path: Path) -> list[str]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def batches(data: Path, size: int = BATCH) -> Iterator[tuple[list[str], npt.NDArray[np.float32]]]:
    """The memories of a data set, `size` at a time: their texts and the vectors given for them."""
    with (data / TEXTS).open(encoding="utf-8") as lines, (data / VECTORS).open("rb") as vectors:
        texts: list[str] = []
        for line in lines:
            texts.append(json.loads(line))
            if len(texts) == size:
                yield texts, _vectors(vectors, len(texts))
                texts = []
        if texts:
            yield texts, _vectors(vectors, len(texts))


def _vectors(source: Any, count: int) -> npt.NDArray[np.float32]:
    raw = source.read(count * DIM * 4)
    return np.frombuffer(raw, dtype="<f4").reshape(count, DIM).copy()


def count(data: Path) -> int:
    return (data / VECTORS).stat().st_size // (DIM * 4)


def memory_kb() -> dict[str, int]:
    """This process's peak (VmHWM) and current (VmRSS) resident memory, in kB."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmHWM", "VmRSS"):
            fields[key] = int(value.split()[0])
    return fields


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def search_figures(embed_ms: list[float], search_ms: list[float]) -> dict[str, float]:
    embed, search = statistics.median(embed_ms), statistics.median(search_ms)
    return {
        "queries": len(search_ms),
        "embed_p50_ms": round(embed, 2),
        "search_p50_ms": round(search, 2),
        "search_p95_ms": round(pct(search_ms, 0.95), 2),
        "search_minus_embed_p50_ms": round(search - embed, 2),
    }


def alternating(mem: Any, model: Any, texts: list[str]) -> tuple[float, float]:
    """Seconds of the bare model and of `mem`'s write path over `texts`, slice by slice in turn, so that both see
    the same machine moments."""
    from engram import NewMemory

    raw_s = write_s = 0.0
    for i in range(0, len(texts), INGEST_SLICE):
        part = texts[i : i + INGEST_SLICE]
        t0 = time.perf_counter()
        model.embed_batch(part)
        t1 = time.perf_counter()
        mem.remember_many([NewMemory(content=t) for t in part])
        raw_s, write_s = raw_s + t1 - t0, write_s + time.perf_counter() - t1
    return raw_s, write_s


def ingest_figures(texts: int, raw_s: float, write_s: float) -> dict[str, float]:
    if not texts:  # `--ingest 0`: a build measured without the write path's comparison
        return {"ingest_texts": 0}
    return {
        "ingest_texts": texts,
        "raw_embed_texts_per_s": round(texts / raw_s, 1),
        "ingest_texts_per_s": round(texts / write_s, 1),
        "ingest_ratio": round(raw_s / write_s, 3),
    }


def progress(label: str, done: int, total: int, started: float) -> None:
    elapsed = time.perf_counter() - started
    kb = memory_kb()
    print(
        f"{label}: {done}/{total} in {elapsed:.0f} s ({done / elapsed:.0f}/s), "
        f"RSS {kb['VmRSS'] // 1024} MB, peak {kb['VmHWM'] // 1024} MB",
        flush=True,
    )


def report(out: Path, figures: dict[str, Any]) -> None:
    kb = memory_kb()
    figures = figures | {"peak_rss_mb": round(kb["VmHWM"] / 1024, 1), "rss_mb": round(kb["VmRSS"] / 1024, 1)}
    out.write_text(json.dumps(figures, indent=2) + "\n")
