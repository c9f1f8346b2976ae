"""Embedders compared on the dev sets: `python -m bench.embedders [options]`.

For each model: LoCoMo turn recall and LongMemEval_S session/turn recall with the dense-only retriever and the
engram-default profile (the same runners as bench.retrieval, with this model in place of MiniLM), and its cost:
load time, resident memory after load, and the p50 time to embed one query on one thread (each model in a
fresh process, so thread settings and memory do not leak between models).

Results go to bench/results/embedders.json (keyed by model, then dataset; a run limited with --limit-questions
is stored under "<dataset>@<n>" so it is compared only with runs of the same questions) and embedders.md.

    python -m bench.embedders --speed
    python -m bench.embedders --model e5-small --dataset locomo
    python -m bench.embedders --model minilm,e5-small --dataset longmemeval --limit-questions 16
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console

from bench.embedcache import DiskCachedEmbedder
from bench.retrieval import RUNNERS, make_retrievers
from bench.retrievers import EngramRetriever
from engram.embed.embedder import Embedder

RESULTS_DIR = Path(__file__).resolve().parent / "results"
RETRIEVERS = ("dense", "engram-default")
QUERIES = (
    "what did we decide about auth",
    "gift ideas for my father",
    "when does the nightly reconciliation job run",
    "which database are we moving the billing system to?",
    "anything about my health",
    "what is my e-mail?",
    "where did Caroline go hiking last summer",
    "how many days did I spend in Japan in total",
)


def _minilm(threads: int) -> Embedder:
    from engram.embed.minilm import MiniLM

    return MiniLM(threads=threads)


def _e5_small(threads: int) -> Embedder:
    from engram.embed.e5small import E5Small

    return E5Small(threads=threads)


MODELS: dict[str, Callable[[int], Embedder]] = {"minilm": _minilm, "e5-small": _e5_small}


def quality(model: str, datasets: Sequence[str], limit: int | None, console: Console) -> dict[str, Any]:
    """Dense and engram-default on each dataset with `model`; embeddings come from the per-model disk cache."""
    embedder = DiskCachedEmbedder(MODELS[model](2))
    out: dict[str, Any] = {}
    try:
        for dataset in datasets:
            retrievers = make_retrievers(RETRIEVERS, embedder)
            started = time.perf_counter()
            try:
                parts = RUNNERS[dataset](retrievers, limit, console)
            finally:
                for retriever in retrievers:
                    if isinstance(retriever, EngramRetriever):
                        retriever.close()
            key = dataset if limit is None else f"{dataset}@{limit}"
            out[key] = parts | {"elapsed_s": round(time.perf_counter() - started, 1)}
            console.print(f"{model} {key}: {time.perf_counter() - started:.0f} s")
    finally:
        embedder.close()
    return out


def speed(model: str, repeats: int = 15) -> dict[str, float]:
    """Load time, RSS and single-query p50 on one thread, measured in a fresh interpreter."""
    code = (
        "import json,sys;from bench.embedders import _speed_here;"
        f"json.dump(_speed_here({model!r},{repeats}),sys.stdout)"
    )
    env = {"OMP_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def _speed_here(model: str, repeats: int) -> dict[str, float]:
    started = time.perf_counter()
    embedder = MODELS[model](1)
    embedder.embed_batch(["warm up"])
    load_s = time.perf_counter() - started
    times: list[float] = []
    for round_ in range(repeats):
        for query in QUERIES:
            t = time.perf_counter()
            embedder.embed_batch([f"{query} {round_}"])  # a new text each time: no cache anywhere helps
            times.append(time.perf_counter() - t)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "load_s": round(load_s, 2),
        "query_p50_ms": round(statistics.median(times) * 1000, 2),
        "query_p90_ms": round(statistics.quantiles(times, n=10)[-1] * 1000, 2),
        "peak_rss_mb": round(rss_mb, 1),
    }


# --- results ----------------------------------------------------------------------------------------------


def _headline(part: dict[str, Any], dataset: str) -> dict[str, float]:
    if dataset.startswith("locomo"):
        return {"LoCoMo R@10": part["overall"]["recall@10"]}
    return {
        "LME session R_all@5": part["session"]["overall"]["recall_all@5"],
        "LME turn R_all@10": part["turn"]["overall"]["recall_all@10"],
    }


def markdown(results: dict[str, Any]) -> str:
    lines = ["# Embedders on the dev sets", "", "Generated by `python -m bench.embedders`.", ""]
    lines += ["## Cost (one query on one thread, fresh process)", ""]
    lines += ["| model | load s | query p50 ms | query p90 ms | peak RSS MB |", "|---|---|---|---|---|"]
    for model, entry in results.items():
        if "speed" in entry:
            s = entry["speed"]
            row = f"| {model} | {s['load_s']} | {s['query_p50_ms']} | {s['query_p90_ms']} | {s['peak_rss_mb']} |"
            lines.append(row)
    lines += ["", "## Quality", ""]
    datasets = sorted({d for entry in results.values() for d in entry.get("quality", {})})
    for dataset in datasets:
        lines += [
            f"### {dataset}",
            "",
            "| model | retriever | metric | value | questions |",
            "|---|---|---|---|---|",
        ]
        for model, entry in results.items():
            part = entry.get("quality", {}).get(dataset)
            if part is None:
                continue
            for retriever in RETRIEVERS:
                if retriever not in part:
                    continue
                body = part[retriever]
                count = (
                    body["overall"]["questions"]
                    if "overall" in body
                    else body["session"]["overall"]["questions"]
                )
                for metric, value in _headline(body, dataset).items():
                    lines.append(f"| {model} | {retriever} | {metric} | {value:.4f} | {count} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.embedders", description=__doc__.split("\n")[0])
    parser.add_argument("--model", default=",".join(MODELS), help=f"comma-separated: {', '.join(MODELS)}")
    parser.add_argument("--dataset", choices=[*RUNNERS, "all", "none"], default="all")
    parser.add_argument("--limit-questions", type=int, default=None, metavar="N")
    parser.add_argument("--speed", action="store_true", help="measure load time, RSS and query p50 too")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR)
    args = parser.parse_args(argv)
    models = [m.strip() for m in args.model.split(",")]
    for model in models:
        if model not in MODELS:
            parser.error(f"unknown model {model!r}")
    datasets = {"all": list(RUNNERS), "none": []}.get(args.dataset, [args.dataset])
    console = Console() if Console().is_terminal else Console(width=160)
    path = args.out / "embedders.json"
    results: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    for model in models:
        entry = results.setdefault(model, {})
        if args.speed:
            entry["speed"] = speed(model)
            console.print(model, entry["speed"])
        if datasets:
            found = quality(model, datasets, args.limit_questions, console)
            entry.setdefault("quality", {}).update(found)
        entry["date"] = datetime.now().isoformat(timespec="seconds")
        # re-read before writing: other runs of this module (other models) may have saved meanwhile
        merged: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
        old = merged.get(model, {})
        merged[model] = old | entry | {"quality": old.get("quality", {}) | entry.get("quality", {})}
        results = merged
        args.out.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(results, indent=1) + "\n")
        (args.out / "embedders.md").write_text(markdown(results))
    console.print(markdown(results))


if __name__ == "__main__":
    main()
