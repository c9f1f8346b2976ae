"""Where a recall's time goes above embedding the query, stage by stage, for two versions of the code side by side.

A fixed store (the LongMemEval sentences of bench/speed.py, bulk-loaded as bench/backends.py does, vectors from
the on-disk embedding cache) and a fixed list of questions. Two worker processes open copies of the same store:
one imports `engram` from a baseline tree (`--base`, a checkout of an earlier commit), the other from this one.
The driver sends them the questions one at a time, alternating, so both see the same moments of a shared
machine; each answers with its ranked ids, scores and confidences (accurate and ranked recall) and the
milliseconds of each stage of the accurate recall (the vector search with its hits' facts on the caller's thread,
the text search on a reader's). The stage times are compared by median. Where the ids or scores differ (a change
of which candidates are found), what the results are worth is compared too: for each LongMemEval question with a
sentence of an answer turn (`has_answer`) in the store, whether the ten results hold one (accurate and ranked).

With `--model`, recall embeds each question with the real model inside the call, as the scale bench serves it
(bench/peers/engram.py), and each question is first embedded alone by the same bare model: `recall_minus_embed` is
then the recall less that embedding, question by question (with `--clock wall`, the latency above the model;
with `--clock cpu`, the processor time of every thread above the model's).

    git -C . worktree add --detach /tmp/engram-base <commit>
    .venv/bin/python -m bench.recall_profile --base /tmp/engram-base --size 20000 --queries 200

`--store` copies an existing store for each side instead (the scale bench's 1M one, say); the answers' check is
then left out, and `--size` only names it. `--after-store` gives the after side a store of its own (the same
store after an upkeep step, say), with the code of either tree.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NOW = datetime(2026, 1, 1, tzinfo=UTC)  # fixed, so recency scores the same in both workers
STAGES = (
    "read",
    "vector_search",
    "text_search",
    "weights",
    "score",
    "overlaps",
    "mmr",
    "full",
    "main_thread",
    "recall_minus_embed",
)


def build(path: Path, size: int) -> None:
    from bench.backends import bulk_load
    from bench.embedcache import DiskCachedEmbedder
    from bench.speed import corpus
    from engram import Memory, MiniLM

    cache = DiskCachedEmbedder(MiniLM())
    with Memory(path, embedder=cache) as mem:
        bulk_load(mem, corpus(size), cache)


# Wall time, or with --cpu the processor time of the thread a stage runs on (and of the whole process for the
# recall): on a crowded machine the wall time is mostly waiting for a core, the processor time is the work.
CLOCKS = {"wall": (time.perf_counter, time.perf_counter), "cpu": (time.thread_time, time.process_time)}


def _timed(owner: Any, name: str, stage: str, spent: dict[str, float], clock: Callable[[], float]) -> None:
    """Wrap `owner.name` so each call adds its milliseconds to `spent[stage]`."""
    inner: Callable[..., Any] = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0 = clock()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[stage] += (clock() - t0) * 1000

    setattr(owner, name, wrapper)


def worker(db: Path, questions: list[str], clocks: str, model: bool = False) -> None:
    """Answer question numbers from stdin, one JSON line each, with the results and the time of each stage."""
    import engram.memory
    import engram.recall.candidates as candidates
    import engram.recall.retriever as retriever
    import engram.recall.scoring as scoring
    from bench.embedcache import DiskCachedEmbedder
    from engram import Memory, MiniLM, RecallMode, Settings

    spent: dict[str, float] = defaultdict(float)
    stage_clock, total_clock = CLOCKS[clocks]
    bare = MiniLM()
    cache = DiskCachedEmbedder(bare)
    if not model:
        cache.embed_batch(
            questions
        )  # every question's vector cached before timing: the model is not measured
    with Memory(db, embedder=bare if model else cache, settings=Settings()) as mem:
        store_type = type(mem.store)
        _timed(engram.memory, "read_query", "read", spent, stage_clock)
        _timed(store_type, "text_search", "text_search", spent, stage_clock)
        if hasattr(store_type, "vector_facts"):  # the vector search with its hits' facts
            _timed(store_type, "vector_facts", "vector_search", spent, stage_clock)
        if hasattr(store_type, "text_facts"):  # the text search with its hits' facts, where a store has it
            _timed(store_type, "text_facts", "text_search", spent, stage_clock)
        _timed(candidates.Candidates, "_term_weights", "weights", spent, stage_clock)
        _timed(candidates, "score", "score", spent, stage_clock)
        _timed(scoring, "overlaps", "overlaps", spent, stage_clock)
        _timed(retriever, "mmr", "mmr", spent, stage_clock)
        _timed(retriever.Retriever, "_full", "full", spent, stage_clock)
        _timed(DiskCachedEmbedder, "embed_batch", "embed", spent, stage_clock)
        mem.recall("warm up the index", touch=False)
        print(json.dumps({"engram": engram.memory.__file__}), flush=True)
        for line in sys.stdin:
            q = questions[int(line)]
            spent.clear()
            t0 = total_clock()
            if model:
                bare.embed_batch([q])
            t1, own = total_clock(), time.thread_time()
            hits = mem.recall(q, limit=10, mode=RecallMode.ACCURATE, touch=False, now=NOW)
            total = (total_clock() - t1) * 1000
            own = (time.thread_time() - own) * 1000
            stages = dict(spent)  # the accurate recall's stages alone
            ranked = mem.recall(q, limit=10, mode=RecallMode.RANKED, touch=False, now=NOW)
            # the accurate recall's processor time on the calling thread: the path the caller waits on (in
            # --model, with the model's share of it)
            stages["main_thread"] = own
            if model:  # the query embedded alone by the bare model, just before
                stages["recall_minus_embed"] = total - (t1 - t0) * 1000
            else:  # embedded from the cache
                stages["recall_minus_embed"] = total - stages.get("embed", 0.0)
            out = {
                # each hit's confidence too: a change may keep the order and move a hit across a band
                "accurate": [[h.record.id, h.score, h.confidence] for h in hits],
                "ranked": [[h.record.id, h.score, h.confidence] for h in ranked],
                "texts": [[h.record.content for h in hits], [h.record.content for h in ranked]],
                "stages": stages,
            }
            print(json.dumps(out), flush=True)


def evidence(questions: list[str], stored: set[str]) -> dict[str, set[str]]:
    """For each LongMemEval question among `questions`, the sentences of its answer turns that are stored."""
    from bench.datasets import load_longmemeval
    from bench.speed import _SENTENCE

    asked = set(questions)
    out: dict[str, set[str]] = {}
    for q in load_longmemeval(scored_only=False):
        if q.question in asked:
            said = {
                part.strip()
                for session in q.sessions
                for turn in session.turns
                if turn.has_answer
                for part in _SENTENCE.split(turn.content)
            }
            if found := said & stored:
                out[q.question] = found
    return out


def _start(tree: Path, db: Path, size: int, count: int, clocks: str, model: bool) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(db), "--size", str(size)]
    cmd += ["--queries", str(count), "--clock", clocks] + (["--model"] if model else [])
    proc = subprocess.Popen(cmd, cwd=tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    print(f"{tree.name}: {json.loads(proc.stdout.readline())['engram']}", file=sys.stderr)
    return proc


def _ask(proc: subprocess.Popen[str], i: int) -> dict[str, Any]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{i}\n")
    proc.stdin.flush()
    answer: dict[str, Any] = json.loads(proc.stdout.readline())
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", type=Path, help="a checkout of the code to compare against")
    parser.add_argument("--after", type=Path, default=ROOT, help="the code compared (this tree by default)")
    parser.add_argument("--size", type=int, default=20000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="wall", help="what a stage's time is")
    parser.add_argument("--model", action="store_true", help="recall embeds with the real model (see above)")
    parser.add_argument(
        "--store",
        type=Path,
        help="an existing store (its database file) to copy for each side, e.g. the scale bench's",
    )
    parser.add_argument(
        "--after-store",
        type=Path,
        help="a store (its database file) for the after side alone (default: --store's)",
    )
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    from bench.speed import corpus, queries

    questions = queries(args.queries)
    if args.worker:
        worker(args.worker, questions, args.clock, args.model)
        return
    stored = args.store or ROOT / "bench" / ".cache" / f"recall-profile-{args.size}.db"
    if not stored.exists():
        build(stored, args.size)
    with tempfile.TemporaryDirectory() as tmp:
        sides = {"before": args.base or args.after, "after": args.after}
        procs = {}
        for side, tree in sides.items():
            db = Path(tmp) / f"{side}.db"
            source = args.after_store if side == "after" and args.after_store else stored
            for part in source.parent.glob(f"{source.name}*"):  # the database and the files beside it
                shutil.copy(part, Path(tmp) / part.name.replace(source.name, db.name))
            procs[side] = _start(Path(tree), db, args.size, args.queries, args.clock, args.model)
        times: dict[str, dict[str, list[float]]] = {s: defaultdict(list) for s in sides}
        answers_in = {} if args.store else evidence(questions, set(corpus(args.size)))
        found: dict[str, list[int]] = {s: [0, 0] for s in sides}
        differ = 0
        for i in range(len(questions)):
            answers = {side: _ask(procs[side], i) for side in (sides if i % 2 else reversed(sides))}
            for side, answer in answers.items():
                for stage in STAGES:
                    times[side][stage].append(answer["stages"].get(stage, 0.0))
                for way, texts in enumerate(answer["texts"]):
                    found[side][way] += bool(answers_in.get(questions[i], set()) & set(texts))
            a, b = answers["before"], answers["after"]
            if (a["accurate"], a["ranked"]) != (b["accurate"], b["ranked"]):
                differ += 1
                print(f"differs: {questions[i]!r}", file=sys.stderr)
        for proc in procs.values():
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait()
    print(f"{len(questions)} questions over {args.size} memories; results differ for {differ}")
    print(
        f"{len(answers_in)} questions with an answer's sentence stored; results holding one (accurate, ranked):"
    )
    print(", ".join(f"{side} {a}, {r}" for side, (a, r) in found.items()))
    print(f"{args.clock} milliseconds")
    # The ratio question by question (after / before, each question's pair asked at the same moment), then its
    # median: steadier on a shared machine than the ratio of the two medians.
    print("| stage | before p50 | after p50 | before p95 | after p95 | after / before, per question p50 |")
    print("|---|---|---|---|---|---|")
    for stage in STAGES:
        p50 = [statistics.median(times[side][stage]) for side in sides]
        p95 = [statistics.quantiles(times[side][stage], n=20)[-1] for side in sides]
        pairs = zip(times["before"][stage], times["after"][stage], strict=True)
        ratios = [a / b for b, a in pairs if b > 0]
        ratio = f"{statistics.median(ratios):.3f}" if ratios else ""
        print(f"| {stage} | {p50[0]:.2f} | {p50[1]:.2f} | {p95[0]:.2f} | {p95[1]:.2f} | {ratio} |")


if __name__ == "__main__":
    main()
