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
import os
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
from engram.embed.embedder import Embedder, normalised
from engram.model.vectors import Matrix

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


class Centred:
    """An embedder's vectors minus their mean over Engram's own classifier prototype sentences, renormalised.

    E5's cosines crowd into 0.7-0.9 for related and unrelated texts alike, while Engram's fusion weights and
    floors are set on MiniLM's scale; removing the shared direction spreads them back out. The mean comes from
    Engram's prototype sentences, never from benchmark data."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name + "-centred"
        self.dim = inner.dim
        self._mean = inner.embed_batch(_prototypes()).mean(axis=0)

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        return self.inner.token_offsets(text)

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        vectors = self.inner.embed_batch(texts)
        return normalised(vectors - self._mean) if len(texts) else vectors


def _prototypes() -> list[str]:
    root = Path(__file__).resolve().parent.parent / "engram" / "classify" / "data"
    out: list[str] = []
    for name in ("kinds.json", "categories.json"):
        for label in json.loads((root / name).read_text())["labels"].values():
            out += label.get("prototypes", [])
    return out


def _e5_small_centred(threads: int) -> Embedder:
    return Centred(DiskCachedEmbedder(_e5_small(threads)))


MODELS: dict[str, Callable[[int], Embedder]] = {
    "minilm": _minilm,
    "e5-small": _e5_small,
    "e5-small-centred": _e5_small_centred,
}


def quality(
    model: str, datasets: Sequence[str], limit: int | None, console: Console, threads: int = 2
) -> dict[str, Any]:
    """Dense and engram-default on each dataset with `model`; embeddings come from the per-model disk cache."""
    embedder = DiskCachedEmbedder(MODELS[model](threads))
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


def userlevel(model: str, threads: int = 2) -> dict[str, Any]:
    """The user-level benchmark's dev questions on a store embedded with `model` (bench.userlevel's own run
    uses the default model and keeps its results apart)."""
    import tempfile

    from bench.userlevel import SURFACES, Bench, load_memories, load_questions, run_split
    from engram import Memory

    embedder = DiskCachedEmbedder(MODELS[model](threads))
    try:
        with (
            tempfile.TemporaryDirectory() as folder,
            Memory(Path(folder) / "u.db", embedder=embedder) as memory,
        ):
            bench = Bench(memory, load_memories())
            part = run_split(bench, load_questions("dev"), misses=False)
    finally:
        embedder.close()
    keep = ("hit@1", "hit@3", "empty_when_answerable", "results_when_unanswerable")
    return {surface: {k: v for k, v in part[surface].items() if k in keep} for surface in SURFACES}


def speed(model: str, repeats: int = 15) -> dict[str, float]:
    """Load time, RSS and single-query p50 on one thread, measured in a fresh interpreter."""
    code = (
        "import json,sys;from bench.embedders import _speed_here;"
        f"json.dump(_speed_here({model!r},{repeats}),sys.stdout)"
    )
    env = os.environ | {"OMP_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def alternated(models: Sequence[str], rounds: int) -> dict[str, dict[str, float]]:
    """`speed` of each model `rounds` times, the models taking turns so a change in the machine's load falls on
    all of them alike; each figure is the median over the rounds."""
    runs: dict[str, list[dict[str, float]]] = {model: [] for model in models}
    for _ in range(rounds):
        for model in models:
            runs[model].append(speed(model))
    return {
        model: {key: round(statistics.median(run[key] for run in found), 2) for key in found[0]}
        | {"rounds": rounds}
        for model, found in runs.items()
    }


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
            for surface in ("recall", "search_memory"):
                if dataset.startswith("userlevel") and surface in part:
                    for metric, value in part[surface].items():
                        lines.append(f"| {model} | {surface} | {metric} | {value} | dev |")
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
    parser.add_argument(
        "--rounds", type=int, default=3, help="speed runs per model, alternated between models"
    )
    parser.add_argument(
        "--userlevel", action="store_true", help="the user-level benchmark's dev questions too"
    )
    parser.add_argument("--threads", type=int, default=2, help="model threads for the quality runs")
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
    costs = alternated(models, args.rounds) if args.speed else {}
    for model in models:
        entry = results.setdefault(model, {})
        if model in costs:
            entry["speed"] = costs[model]
            console.print(model, entry["speed"])
        if args.userlevel:
            entry.setdefault("quality", {})["userlevel-dev"] = userlevel(model, args.threads)
        if datasets:
            found = quality(model, datasets, args.limit_questions, console, args.threads)
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
