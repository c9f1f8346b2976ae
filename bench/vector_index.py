"""Vector index benchmark: sqlite-vec, usearch, faiss and exact numpy on clustered 384-d vectors.

    .venv/bin/python -m bench.vector_index                  # 100k and 1M (30-45 minutes on 2 cores)
    .venv/bin/python -m bench.vector_index --sizes 10000    # quick check

Every engine runs in its own process (fair peak RSS, no OpenMP runtime clashes) on the same
cached data set. Recall@k is measured against exact brute force; filtered searches allow a random
1% or 10% of the keys, as scope filters do, and are measured against exact search over that subset.
Needs the `bench` extra: pip install -e '.[bench]'.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "bench" / ".cache" / "vector_index"
RESULTS = ROOT / "bench" / "results"
DIM = 384
K = 50
N_CENTROIDS = 2048
FRACTIONS = (0.001, 0.01, 0.10)
ENGINES = ("numpy", "usearch", "faiss-hnsw", "faiss-flat", "sqlite-vec", "engram", "engram-served")
M, EF_ADD = 32, 64  # HNSW connectivity and build expansion, the same for usearch and faiss
EF_SEARCH = (64, 128, 256, 512)
OVERSAMPLE = (2.0, 4.0)
THREADS = 2
CURVE = (500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000)


# ---------------------------------------------------------------- data set


def _normalise(x: F32) -> F32:
    out: F32 = x / np.linalg.norm(x, axis=1, keepdims=True)
    return out


def make_vectors(n: int, seed: int) -> F32:
    """Clustered like sentence embeddings: topics of uneven size, a shared direction (unrelated texts
    still have cosine ~0.1), neighbours at cosine ~0.5-0.8 within a topic."""
    crng = np.random.default_rng(7)  # the same topics for every size and for the queries
    shared = _normalise(crng.standard_normal((1, DIM), dtype=np.float32))
    centroids = _normalise(
        crng.standard_normal((N_CENTROIDS, DIM), dtype=np.float32) / math.sqrt(DIM) + 0.35 * shared
    )
    weights = crng.lognormal(0.0, 1.0, N_CENTROIDS)
    weights /= weights.sum()
    rng = np.random.default_rng(seed)
    out = np.empty((n, DIM), dtype=np.float32)
    for lo in range(0, n, 100_000):
        hi = min(n, lo + 100_000)
        labels = rng.choice(N_CENTROIDS, hi - lo, p=weights)
        scale = rng.uniform(0.5, 1.1, (hi - lo, 1)).astype(np.float32) / math.sqrt(DIM)
        noise = rng.standard_normal((hi - lo, DIM), dtype=np.float32) * scale
        out[lo:hi] = _normalise(centroids[labels] + noise)
    return out


def exact_topk(queries: F32, base: F32, k: int) -> I64:
    """Row indices of the k best inner products per query, best first (blocked to bound memory)."""
    best_s = np.full((len(queries), 0), -np.inf, dtype=np.float32)
    best_i = np.zeros((len(queries), 0), dtype=np.int64)
    for lo in range(0, len(base), 131_072):
        scores = queries @ base[lo : lo + 131_072].T
        kk = min(k, scores.shape[1])
        part = np.argpartition(-scores, kk - 1, axis=1)[:, :kk]
        best_s = np.concatenate([best_s, np.take_along_axis(scores, part, 1)], axis=1)
        best_i = np.concatenate([best_i, part + lo], axis=1)
        keep = np.argsort(-best_s, axis=1, kind="stable")[:, :k]
        best_s, best_i = np.take_along_axis(best_s, keep, 1), np.take_along_axis(best_i, keep, 1)
    return best_i


def prepare(n: int, n_queries: int) -> None:
    """Write base vectors, queries, subsets and exact answers to the cache (keys are row + 1)."""
    d = CACHE / str(n)
    if (d / "done").exists():
        return
    d.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    base = make_vectors(n, seed=n)
    queries = make_vectors(n_queries, seed=1)
    np.save(d / "base.npy", base)
    np.save(d / "queries.npy", queries)
    np.save(d / "truth.npy", exact_topk(queries, base, K) + 1)
    rng = np.random.default_rng(3)
    for frac in FRACTIONS:
        rows = np.sort(rng.choice(n, max(K, int(n * frac)), replace=False))
        np.save(d / f"subset_{frac}.npy", rows + 1)
        np.save(d / f"truth_{frac}.npy", rows[exact_topk(queries, base[rows], K)] + 1)
    (d / "done").touch()
    print(f"  data set {n:,} x {DIM} prepared in {time.perf_counter() - t:.1f}s", flush=True)


# ---------------------------------------------------------------- measuring


def rss_mib(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def timed(
    queries: F32, search: Callable[[F32], I64], budget_s: float, limit: int
) -> tuple[list[float], list[I64]]:
    """Latencies (ms) and answers, one query at a time, until `limit` queries or the time budget."""
    for q in queries[:3]:  # warm caches and lazily built structures
        search(q)
    lat: list[float] = []
    answers: list[I64] = []
    start = time.perf_counter()
    for q in queries[:limit]:
        t = time.perf_counter()
        answers.append(search(q))
        lat.append((time.perf_counter() - t) * 1000)
        if time.perf_counter() - start > budget_s and len(lat) >= 10:
            break
    return lat, answers


def recall(answers: list[I64], truth: I64) -> float:
    return float(np.mean([len(np.intersect1d(a, t)) / len(t) for a, t in zip(answers, truth, strict=False)]))


def row(label: str, lat: list[float], answers: list[I64], truth: I64, **extra: Any) -> dict[str, Any]:
    return {
        "method": label,
        "queries": len(lat),
        "p50_ms": float(np.percentile(lat, 50)),
        "p95_ms": float(np.percentile(lat, 95)),
        "recall": recall(answers, truth),
        **extra,
    }


def exact_keys(vectors: F32, keys: I64, q: F32, k: int) -> I64:
    scores = vectors @ q
    kk = min(k, len(scores))
    part = np.argpartition(-scores, kk - 1)[:kk]
    return keys[part[np.argsort(-scores[part])]]


# ---------------------------------------------------------------- engines (each in its own process)


def run_engine(engine: str, n: int, args: argparse.Namespace) -> dict[str, Any]:
    d = CACHE / str(n)
    # a served index never sees the data set: only the file its build wrote (the `engram` engine's)
    base: F32 = np.load(d / "base.npy", mmap_mode="r" if engine == "engram-served" else None)
    queries: F32 = np.load(d / "queries.npy")
    truth: I64 = np.load(d / "truth.npy")
    subsets = {f: (np.load(d / f"subset_{f}.npy"), np.load(d / f"truth_{f}.npy")) for f in FRACTIONS}
    keys = np.arange(1, n + 1, dtype=np.int64)
    data_rss = rss_mib("VmRSS")
    work = d / f"index-{engine}"
    budget, nq, nf = args.budget, args.queries, args.filtered_queries
    res: dict[str, Any] = {"engine": engine, "n": n, "search": [], "filtered": [], "curve": []}

    def note(build_s: float, size_path: Path, load_s: float | None = None) -> None:
        res.update(build_s=build_s, size_mib=size_path.stat().st_size / 2**20, load_s=load_s)

    if engine == "numpy":
        res.update(build_s=0.0, size_mib=base.nbytes / 2**20, load_s=None)
        lat, ans = timed(queries, lambda q: exact_keys(base, keys, q, K), budget, nq)
        res["search"].append(row("numpy matmul (exact)", lat, ans, truth))
        for f, (sub, t) in subsets.items():
            rows = sub - 1
            lat, ans = timed(queries, lambda q, r=rows, s=sub: exact_keys(base[r], s, q, K), budget, nf)
            res["filtered"].append(row("numpy gather + matmul (exact)", lat, ans, t, frac=f))

    elif engine == "usearch":
        from usearch.index import Index

        ix = Index(ndim=DIM, metric="cos", dtype="f32", connectivity=M, expansion_add=EF_ADD)
        t0 = time.perf_counter()
        ix.add(keys.view(np.uint64), base, threads=THREADS)
        build = time.perf_counter() - t0
        path = work.with_suffix(".usearch")
        ix.save(os.fspath(path))
        t0 = time.perf_counter()
        ix = Index.restore(os.fspath(path))
        assert ix is not None
        note(build, path, time.perf_counter() - t0)
        path.unlink()
        for ef in EF_SEARCH:
            ix.expansion_search = ef
            lat, ans = timed(queries, lambda q: ix.search(q, K, threads=1).keys.view(np.int64), budget, nq)
            res["search"].append(row(f"usearch HNSW M={M} ef={ef}", lat, ans, truth))
        ix.expansion_search = EF_SEARCH[2]

        def via_get(q: F32, s: I64) -> I64:
            return exact_keys(np.vstack(ix.get(s.view(np.uint64), dtype=np.float32)), s, q, K)

        for f, (sub, t) in subsets.items():
            lat, ans = timed(queries, lambda q, s=sub: via_get(q, s), budget, nf)
            res["filtered"].append(row("usearch get + matmul (exact)", lat, ans, t, frac=f))
            for over in OVERSAMPLE:
                fell: list[bool] = []
                count = math.ceil(over * K * n / len(sub))
                if count > n // 2:  # a graph walk over most of the index is never worth it
                    continue

                def post(q: F32, s: I64 = sub, c: int = count, fb: list[bool] = fell) -> I64:
                    found = ix.search(q, c, threads=1).keys.view(np.int64)
                    kept = found[np.isin(found, s, assume_unique=True)][:K]
                    fb.append(len(kept) < K)
                    return via_get(q, s) if len(kept) < K else kept

                lat, ans = timed(queries, post, budget, nf)
                res["filtered"].append(
                    row(
                        f"usearch HNSW x{over:g} + post-filter",
                        lat,
                        ans,
                        t,
                        frac=f,
                        candidates=count,
                        fallback=float(np.mean(fell[-len(lat) :])),
                    )
                )

        # the two costs a filtered search trades: a wider graph walk against fetching and scanning vectors
        rng = np.random.default_rng(5)
        for c in CURVE:
            if c <= n // 2:
                lat, _ = timed(queries, lambda q, c=c: ix.search(q, c, threads=1).keys, budget / 4, 100)
                res["curve"].append({"what": "hnsw_candidates", "x": c, "p50_ms": float(np.median(lat))})
            if c <= n:
                some = np.sort(rng.choice(n, c, replace=False) + 1)
                lat, _ = timed(queries, lambda q, s=some: via_get(q, s), budget / 4, 100)
                res["curve"].append({"what": "get_matmul_keys", "x": c, "p50_ms": float(np.median(lat))})

    elif engine in ("faiss-hnsw", "faiss-flat"):
        import faiss

        faiss.omp_set_num_threads(THREADS)
        if engine == "faiss-hnsw":
            fx = faiss.IndexHNSWFlat(DIM, M, faiss.METRIC_INNER_PRODUCT)
            fx.hnsw.efConstruction = EF_ADD
        else:
            fx = faiss.IndexFlatIP(DIM)
        t0 = time.perf_counter()
        fx.add(base)
        build = time.perf_counter() - t0
        path = work.with_suffix(".faiss")
        faiss.write_index(fx, os.fspath(path))
        t0 = time.perf_counter()
        fx = faiss.read_index(os.fspath(path))
        note(build, path, time.perf_counter() - t0)
        path.unlink()

        def fsearch(q: F32, k: int = K, params: Any = None) -> I64:
            _, ids = fx.search(q[None, :], k, params=params)
            found: I64 = ids[0][ids[0] >= 0] + 1
            return found

        efs = EF_SEARCH if engine == "faiss-hnsw" else (0,)
        for ef in efs:
            params = faiss.SearchParametersHNSW(efSearch=ef) if ef else None
            label = f"faiss HNSWFlat M={M} ef={ef}" if ef else "faiss IndexFlatIP (exact)"
            lat, ans = timed(queries, lambda q, p=params: fsearch(q, params=p), budget, nq)
            res["search"].append(row(label, lat, ans, truth))
        for f, (sub, t) in subsets.items():
            sel = faiss.IDSelectorBatch(sub - 1)
            if engine == "faiss-hnsw":
                params = faiss.SearchParametersHNSW(sel=sel, efSearch=EF_SEARCH[2])
                label = f"faiss HNSW ef={EF_SEARCH[2]} + IDSelector"
            else:
                params, label = faiss.SearchParameters(sel=sel), "faiss flat + IDSelector (exact)"
            lat, ans = timed(queries, lambda q, p=params: fsearch(q, params=p), budget, nf)
            res["filtered"].append(row(label, lat, ans, t, frac=f))

    elif engine in ("engram", "engram-served"):
        from engram.store.vectors import EXPANSION_SEARCH, VectorIndex

        path = work.parent / "index-engram.vectors"
        label = f"Engram VectorIndex (faiss HNSW, 8-bit codes) M={M} ef={EXPANSION_SEARCH}"
        build = 0.0
        if engine == "engram":  # built in batches, as the store catches up, then saved for `engram-served`
            t0 = time.perf_counter()
            vx = VectorIndex(DIM)
            for lo in range(0, n, 65_536):
                vx.upsert(keys[lo : lo + 65_536].tolist(), base[lo : lo + 65_536])
            build = time.perf_counter() - t0
            vx.save(path)
            del vx
        t0 = time.perf_counter()
        vx = VectorIndex.load(path, DIM)
        note(build, path, time.perf_counter() - t0)

        def esearch(q: F32, allowed: I64 | None = None) -> I64:
            return np.array([k for k, _ in vx.search(q, K, allowed=allowed)], dtype=np.int64)

        lat, ans = timed(queries, esearch, budget, nq)
        res["search"].append(
            row(label + (" loaded alone" if engine == "engram-served" else ""), lat, ans, truth)
        )
        if engine == "engram-served":
            for f, (sub, t) in subsets.items():
                lat, ans = timed(queries, lambda q, s=sub: esearch(q, s), budget, nf)
                res["filtered"].append(row("Engram VectorIndex, allowed keys", lat, ans, t, frac=f))
            path.unlink()

    elif engine == "sqlite-vec":
        import apsw
        import sqlite_vec

        path = work.with_suffix(".db")
        path.unlink(missing_ok=True)
        con = apsw.Connection(os.fspath(path))
        con.enable_load_extension(True)
        con.load_extension(sqlite_vec.loadable_path())
        t0 = time.perf_counter()
        con.execute(f"CREATE VIRTUAL TABLE vec USING vec0(embedding float[{DIM}] distance_metric=cosine)")
        with con:
            con.executemany(
                "INSERT INTO vec(rowid, embedding) VALUES (?, ?)",
                ((int(i), base[i - 1].tobytes()) for i in keys),
            )
        note(time.perf_counter() - t0, path)
        knn = "SELECT rowid FROM vec WHERE embedding MATCH ? AND k = ?"

        def vsearch(q: F32, extra: str = "", bind: tuple[Any, ...] = ()) -> I64:
            return np.array([r[0] for r in con.execute(knn + extra, (q.tobytes(), K, *bind))], dtype=np.int64)

        lat, ans = timed(queries, vsearch, budget, nq)
        res["search"].append(row("sqlite-vec vec0 KNN (exact)", lat, ans, truth))
        for f, (sub, t) in subsets.items():
            arr = apsw.carray(np.ascontiguousarray(sub))
            lat, ans = timed(
                queries, lambda q, a=arr: vsearch(q, " AND rowid IN carray(?)", (a,)), budget, nf
            )
            res["filtered"].append(row("sqlite-vec KNN + rowid IN carray (exact)", lat, ans, t, frac=f))
        con.close()
        path.unlink()

    for r in res["filtered"]:
        r["allowed"] = len(subsets[r["frac"]][0])
    res["peak_rss_mib"] = rss_mib("VmHWM")
    res["data_rss_mib"] = data_rss
    return res


# ---------------------------------------------------------------- report


def fmt(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:,.{digits}f}"


def markdown(results: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    out = [
        "# Vector index benchmark",
        "",
        f"{meta['machine']}; {DIM}-d float32, {N_CENTROIDS} clustered topics, top-{K}, "
        f"one query at a time, {THREADS} threads. HNSW: M={M}, ef_construction={EF_ADD}. "
        f"Recall@{K} against exact brute force. "
        "Peak RSS is the engine's process, including the data set it was handed (the `data` column).",
        "",
        f"Versions: {meta['versions']}. Machine load (5-minute average) before and after the run: "
        f"{meta['load_average_5min'][0]} and {meta['load_average_5min'][1]}.",
        "",
    ]
    for n in sorted({r["n"] for r in results}):
        rs = [r for r in results if r["n"] == n]
        out += [
            f"## {n:,} vectors",
            "",
            "| engine | method | build s | size MiB | load s | p50 ms | p95 ms "
            "| recall@50 | peak RSS MiB (data) |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in rs:
            for s in r["search"]:
                out.append(
                    f"| {r['engine']} | {s['method']} | {fmt(r['build_s'])} | {fmt(r['size_mib'])} | "
                    f"{fmt(r['load_s'], 2)} | {fmt(s['p50_ms'], 2)} | {fmt(s['p95_ms'], 2)} | "
                    f"{s['recall']:.3f} | {fmt(r['peak_rss_mib'], 0)} ({fmt(r['data_rss_mib'], 0)}) |"
                )
        out += [
            "",
            f"Filtered search ({n:,} vectors; a random subset of the keys is allowed):",
            "",
            "| allowed | method | p50 ms | p95 ms | recall@50 | candidates | exact fallback |",
            "|---:|---|---:|---:|---:|---:|---:|",
        ]
        for f in FRACTIONS:
            for r in rs:
                for s in r["filtered"]:
                    if s["frac"] == f:
                        fb = f"{s['fallback']:.0%}" if "fallback" in s else "-"
                        out.append(
                            f"| {f:.1%} ({s['allowed']:,}) | {s['method']} | {fmt(s['p50_ms'], 2)} | "
                            f"{fmt(s['p95_ms'], 2)} | {s['recall']:.3f} | {s.get('candidates', '-')} "
                            f"| {fb} |"
                        )
        curve = {(c["what"], c["x"]): c["p50_ms"] for r in rs for c in r["curve"]}
        if curve:
            out += [
                "",
                f"usearch cost curve ({n:,} vectors, p50 ms): an HNSW search asking for x candidates, "
                "against fetching x vectors with `get` and scanning them.",
                "",
                "| x | HNSW search, x candidates | get + matmul, x keys |",
                "|---:|---:|---:|",
            ]
            for x in CURVE:
                hn, gm = curve.get(("hnsw_candidates", x)), curve.get(("get_matmul_keys", x))
                if hn is not None or gm is not None:
                    out.append(f"| {x:,} | {fmt(hn, 2)} | {fmt(gm, 2)} |")
        out.append("")
    return "\n".join(out)


def versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for pkg in ("numpy", "usearch", "faiss-cpu", "apsw", "sqlite-vec"):
        try:
            found.append(f"{pkg} {version(pkg)}")
        except PackageNotFoundError:
            found.append(f"{pkg} (missing)")
    return ", ".join(found)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    p.add_argument("--engines", nargs="+", choices=ENGINES, default=list(ENGINES))
    p.add_argument("--queries", type=int, default=500, help="queries per unfiltered measurement")
    p.add_argument("--filtered-queries", type=int, default=200, help="queries per filtered measurement")
    p.add_argument("--budget", type=float, default=15.0, help="seconds per measurement before stopping early")
    p.add_argument("--out", type=Path, default=RESULTS, help="where vector_index.md/.json go ('-' = nowhere)")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        print(json.dumps(run_engine(args.worker, args.sizes[0], args)))
        return

    results: list[dict[str, Any]] = []
    load_before = os.getloadavg()[1]
    for n in args.sizes:
        print(f"== {n:,} vectors", flush=True)
        prepare(n, max(args.queries, args.filtered_queries))
        for engine in args.engines:
            t = time.perf_counter()
            cmd = [
                sys.executable,
                "-m",
                "bench.vector_index",
                "--worker",
                engine,
                "--sizes",
                str(n),
                "--queries",
                str(args.queries),
                "--filtered-queries",
                str(args.filtered_queries),
                "--budget",
                str(args.budget),
            ]
            proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
            if proc.returncode != 0:
                print(f"  {engine}: failed\n{proc.stderr}", flush=True)
                continue
            r = json.loads(proc.stdout.strip().splitlines()[-1])
            results.append(r)
            best = max(r["search"], key=lambda s: s["recall"])
            print(
                f"  {engine:<11} {time.perf_counter() - t:6.1f}s  build {r['build_s']:.1f}s  "
                f"{best['method']}: p50 {best['p50_ms']:.2f} ms recall {best['recall']:.3f}",
                flush=True,
            )

    meta = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "versions": versions(),
        "dim": DIM,
        "k": K,
        "centroids": N_CENTROIDS,
        "hnsw_m": M,
        "hnsw_ef_construction": EF_ADD,
        "threads": THREADS,
        "load_average_5min": [round(load_before, 2), round(os.getloadavg()[1], 2)],
    }
    report = markdown(results, meta)
    print("\n" + report)
    if str(args.out) != "-":
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "vector_index.md").write_text(report)
        blob = json.dumps({"meta": meta, "results": results}, indent=1)
        (args.out / "vector_index.json").write_text(blob + "\n")


if __name__ == "__main__":
    main()
