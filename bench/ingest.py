"""Conversation ingestion (seed 001): extraction quality and throughput.

    python -m bench.ingest [--conversations 4]

1. Extraction on bench/data/extraction_labelled.jsonl (user messages in English and Chinese, each with the
   candidates a reader expects: kind and a phrase the candidate must contain; chit-chat expects none):
   precision and recall per kind. A candidate is right when its kind matches an expected one whose phrase it
   contains; an expected item is found when such a candidate exists.
   Then on two chat sets written apart from the rules, bench/data/extraction_chat_fresh.jsonl (218 messages,
   each expecting one kind or nothing) and bench/data/extraction_chat_second.jsonl (238 messages from five
   personas, typed as people type; a message may expect two kinds): precision, recall, and every message read
   otherwise.
2. Throughput: the LoCoMo dev conversations (both speakers are users) through `Memory.ingest` into a fresh
   file database with the real model: messages/s, candidates, approved / pending shares.
Results: bench/results/ingest.json and ingest.md.

    python -m bench.ingest --bulk [--sizes 10000 100000] [--before COMMIT] [--rounds 2] [--call 256]

3. Bulk writes (`--bulk`): the write path's batch API against the raw embedder, on a store of N memories (unique
   LongMemEval_S sentences with their cached MiniLM vectors, loaded through the store's bulk insert), as the
   scale bench measures it: LoCoMo turns, 256 at a time (`--call`), the bare model embedding a slice and then
   `remember_many` (real model) writing it; the ratio is the bare model's seconds over the write path's, in wall
   and in processor time. Each round runs the `--before` commit and this one (HEAD), alternating, each in a
   process of its own on its own copy of the store, so both see the same machine. Results: bench/results/ingest_bulk.json and .md.
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console

from engram import Memory
from engram.embed.minilm import default_embedder
from engram.review.extract import KINDS, Message
from engram.review.messages import read_messages

ROOT = Path(__file__).resolve().parent
LABELLED = ROOT / "data" / "extraction_labelled.jsonl"
CHATS = {
    "fresh": ROOT / "data" / "extraction_chat_fresh.jsonl",
    "second": ROOT / "data" / "extraction_chat_second.jsonl",
}
LOCOMO = ROOT.parent.parent / "shared" / "data" / "locomo_dev.json.gz"
RESULTS = ROOT / "results"
console = Console()


def extraction() -> dict[str, Any]:
    rows = [json.loads(line) for line in LABELLED.read_text(encoding="utf-8").splitlines() if line.strip()]
    predicted: Counter[str] = Counter()
    right: Counter[str] = Counter()
    expected: Counter[str] = Counter()
    found: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "x.db", embedder=default_embedder()) as mem:
        for row in rows:
            got = mem._ingestor.candidates(Message(role="user", content=row["text"], message_id=row["id"]))
            gold = row["expected"]
            for c in got:
                predicted[c.kind] += 1
                right[c.kind] += any(g["kind"] == c.kind and g["contains"] in c.content for g in gold)
            for g in gold:
                expected[g["kind"]] += 1
                found[g["kind"]] += any(g["kind"] == c.kind and g["contains"] in c.content for c in got)
    per_kind = {
        k: {
            "precision": round(right[k] / predicted[k], 3) if predicted[k] else None,
            "recall": round(found[k] / expected[k], 3) if expected[k] else None,
            "predicted": predicted[k],
            "expected": expected[k],
        }
        for k in KINDS
    }
    return {
        "messages": len(rows),
        "precision": round(sum(right.values()) / max(1, sum(predicted.values())), 3),
        "recall": round(sum(found.values()) / max(1, sum(expected.values())), 3),
        "per_kind": per_kind,
    }


def chat_set(path: Path) -> dict[str, Any]:
    """A chat set: each message expects one extracted kind, a list of kinds, or nothing (chit-chat, questions).
    A candidate is right when its kind is one its message expects; an expected kind is found when a candidate
    of that kind is drawn from its message. Also: candidates from chit-chat."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    predicted = right = expected = found = from_chat = 0
    wrong: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "x.db", embedder=default_embedder()) as mem:
        for row in rows:
            got = mem._ingestor.candidates(Message(role="user", content=row["text"], message_id=row["id"]))
            gold = row["expected"]
            kinds = [] if gold is None else [gold] if isinstance(gold, str) else list(gold)
            predicted += len(got)
            right += sum(c.kind in kinds for c in got)
            from_chat += len(got) if not kinds else 0
            expected += len(kinds)
            found += sum(any(c.kind == k for c in got) for k in kinds)
            if sorted(c.kind for c in got) != sorted(kinds):
                wrong.append(
                    {"text": row["text"], "expected": gold, "got": [(c.kind, c.confidence) for c in got]}
                )
    return {
        "messages": len(rows),
        "precision": round(right / max(1, predicted), 3),
        "recall": round(found / max(1, expected), 3),
        "candidates_from_chit_chat": from_chat,
        "wrong": wrong,
    }


def throughput(conversations: int) -> dict[str, Any]:
    messages = read_messages(LOCOMO)
    ids = list(dict.fromkeys(m.conversation_id for m in messages))[:conversations]
    chosen = [m for m in messages if m.conversation_id in ids]
    embedder = default_embedder()
    with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "ingest.db", embedder=embedder) as mem:
        mem.remember("warm up the model and the classifiers")
        mem.ingest(
            [Message(role="user", content="I like warm starts.", conversation_id="warm", message_id="w")]
        )
        start = time.perf_counter()
        report = mem.ingest(chosen)
        elapsed = time.perf_counter() - start
    created = report.get("approved", 0) + report.get("pending", 0)
    return {
        "conversations": len(ids),
        "messages": len(chosen),
        "seconds": round(elapsed, 1),
        "messages_per_s": round(len(chosen) / elapsed, 1),
        "candidates": report.get("candidates", 0),
        "created": created,
        "approved_share": round(report.get("approved", 0) / created, 3) if created else None,
        "by_kind": report.get("by_kind", {}),
    }


def render(result: dict[str, Any]) -> list[str]:
    e, t = result["extraction"], result["throughput"]
    lines = [
        "# Conversation ingestion",
        "",
        f"Generated by `python -m bench.ingest` on {result['date']} ({result['machine']}). One run on a shared, noisy "
        "machine.",
        "",
        f"## Extraction ({e['messages']} labelled user messages, English and Chinese)",
        "",
        f"Overall precision {e['precision']}, recall {e['recall']}.",
        "",
        "| kind | precision | recall | predicted | expected |",
        "|---|---|---|---|---|",
    ]
    for kind, r in e["per_kind"].items():
        lines.append(f"| {kind} | {r['precision']} | {r['recall']} | {r['predicted']} | {r['expected']} |")
    for name, c in result["chats"].items():
        lines += [
            "",
            f"## Extraction on the {name} chat set ({c['messages']} user messages, "
            f"bench/data/extraction_chat_{name}.jsonl)",
            "",
            "Written before the rules were run on it (they were then fixed against its misses, so it is apart no",
            "longer): each message expects one extracted kind (the second set: one or two), or nothing (chit-chat,",
            "questions). A candidate is right when its kind is one its message expects.",
            "",
            f"Precision {c['precision']}, recall {c['recall']}; candidates drawn from chit-chat: "
            f"{c['candidates_from_chit_chat']}.",
            "",
            "| message | expected | candidates (kind, confidence) |",
            "|---|---|---|",
            *(f"| {w['text']} | {w['expected']} | {w['got']} |" for w in c["wrong"]),
        ]
    lines += [
        "",
        f"## Throughput (LoCoMo dev, {t['conversations']} conversations, real model)",
        "",
        "| messages | seconds | messages/s | candidates | memories created | approved share |",
        "|---|---|---|---|---|---|",
        f"| {t['messages']} | {t['seconds']} | {t['messages_per_s']} | {t['candidates']} | {t['created']} | "
        f"{t['approved_share']} |",
        "",
    ]
    return lines


BULK_TEXTS = 1024


def paired(mem: Memory, model: Any, texts: list[str], call: int) -> dict[str, float]:
    """As bench.peers.data.alternating (the bare model on `call` texts, then `remember_many` on them, in turn),
    in `call` texts a call, timing processor seconds (every thread of the process) beside wall seconds, and the
    write's own: the caller's thread, which runs everything of `remember_many` but the passages' model call."""
    from engram import NewMemory

    raw = [0.0, 0.0]
    write = [0.0, 0.0]
    caller = 0.0
    for i in range(0, len(texts), call):
        part = texts[i : i + call]
        t0, c0 = time.perf_counter(), time.process_time()
        model.embed_batch(part)
        t1, c1, h1 = time.perf_counter(), time.process_time(), time.thread_time()
        mem.remember_many([NewMemory(content=t) for t in part])
        t2, c2, h2 = time.perf_counter(), time.process_time(), time.thread_time()
        caller += h2 - h1
        raw[0], raw[1] = raw[0] + t1 - t0, raw[1] + c1 - c0
        write[0], write[1] = write[0] + t2 - t1, write[1] + c2 - c1
    return {
        "raw_s": raw[0],
        "write_s": write[0],
        "raw_cpu_s": raw[1],
        "write_cpu_s": write[1],
        "caller_cpu_s": caller,
    }


def bulk_worker(db: Path, out: Path, call: int) -> None:
    """One process: the ratio on `db` with whichever engram is first on the path (old and new take this)."""
    from bench.datasets import load_locomo
    from bench.peers.data import WARM_UP
    from engram import MiniLM, NewMemory

    turns = [u.text for c in load_locomo() for u in c.units]
    texts, warm = turns[:BULK_TEXTS], turns[BULK_TEXTS : BULK_TEXTS + WARM_UP]
    model = MiniLM()
    model.embed_batch(texts[-WARM_UP:])
    with Memory(db, embedder=model) as mem:
        # Warm as bench.scale's writer is (it has built the store in the same process): a process's first
        # writes load the readers of dates and word forms, seconds that the texts timed here would carry. The
        # date reader builds its patterns on its first date, which a turn of chat may never name.
        mem.remember("warm up the model and the classifiers")
        mem.remember("We moved the review, so send the slides by Friday 4 December or call +1 415 555 0100.")
        mem.remember_many([NewMemory(content=t) for t in warm])
        # A process measures once what each kind says of each category (about 0.15 s), at the first category
        # its prototypes leave undecided: bench.scale's writer met one building its store, a few warm-up texts
        # may not.
        mem._classifiers.kind_evidence()
    # and then opened again, as bench.scale's writer opens the store it built: the first write loads the
    # vector index and the classifiers' prototypes, and the cache of openings starts empty
    with Memory(db, embedder=model) as mem:
        figures = paired(mem, model, texts, call)
        stored = mem.stats()["memories"]
    out.write_text(json.dumps(figures | {"memories": stored}))


def bulk_store(size: int, db: Path) -> None:
    from bench.backends import bulk_records
    from bench.embedcache import DiskCachedEmbedder
    from bench.speed import corpus
    from engram import MiniLM

    texts = corpus(size)
    cache = DiskCachedEmbedder(MiniLM())
    vectors = cache.embed_batch(texts)
    cache.close()
    with Memory(db, embedder=default_embedder()) as mem:
        for i in range(0, size, 5000):
            mem.store.insert(bulk_records(texts[i : i + 5000], i), list(vectors[i : i + 5000]))
        mem.recall("the vector index catches up", touch=False)


def bulk(sizes: list[int], before: str, rounds: int, paths: list[str], call: int) -> dict[str, Any]:
    import shutil
    import statistics
    import subprocess
    import sys

    from bench.datasets import data_dir
    from bench.peers.data import INGEST_SLICE
    from bench.scale import snapshot

    git = ["git", "-C", str(ROOT.parent)]
    base = subprocess.run([*git, "rev-parse", "--short", before], check=True, capture_output=True, text=True)
    result: dict[str, Any] = {"before": base.stdout.strip(), "texts": BULK_TEXTS, "sizes": {}}
    with tempfile.TemporaryDirectory(prefix="bulk-") as tmp:
        scratch = Path(tmp)
        after, head = snapshot(scratch / "after")
        old = scratch / "before"
        old.mkdir()
        # The whole tree of `before`, or HEAD's with only `paths` as they were at `before` (the change measured
        # alone, on the same store schema and everything else)
        archive = subprocess.run(
            [*git, "archive", result["before"] if not paths else head], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        for path in paths:
            shutil.rmtree(old / path) if (old / path).is_dir() else (old / path).unlink(missing_ok=True)
        if paths:
            listed = subprocess.run(
                [*git, "ls-tree", "-r", "--name-only", result["before"], "--", *paths],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.split()
            archive = subprocess.run(
                [*git, "archive", result["before"], *listed], check=True, capture_output=True
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        result["paths"] = paths
        result["after"] = head
        trees = {"before": old, "after": after}
        for size in sizes:
            store = scratch / f"store-{size}" / "memories.db"
            store.parent.mkdir()
            bulk_store(size, store)
            runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
            for round_ in range(rounds):
                for name in ("before", "after") if round_ % 2 == 0 else ("after", "before"):
                    copy = scratch / f"{name}-{size}-{round_}"
                    shutil.copytree(store.parent, copy)
                    out = copy / "figures.json"
                    # this file, run with the other tree's engram first on the path
                    env = {
                        **__import__("os").environ,
                        "PYTHONPATH": str(trees[name]),
                        "ENGRAM_BENCH_DATA": str(data_dir()),
                    }
                    command = [
                        sys.executable,
                        str(Path(__file__).resolve()),
                        "--call",
                        str(call),
                        "--bulk-worker",
                    ]
                    subprocess.run([*command, str(copy / "memories.db"), str(out)], env=env, check=True)
                    runs[name].append(json.loads(out.read_text()))
                    shutil.rmtree(copy)
                    console.print(f"{size} {name} round {round_ + 1}: {runs[name][-1]}")
            key = str(size) if call == INGEST_SLICE else f"{size}x{call}"
            result["sizes"][key] = {
                "date": datetime.now(UTC).isoformat(timespec="seconds"),
                "call": call,
                "commits": {"before": result["before"], "after": head},
                "before_paths": paths,
                "load": round(__import__("os").getloadavg()[0], 1),
            } | {
                name: {
                    "ratio": round(statistics.median(r["raw_s"] / r["write_s"] for r in rs), 3),
                    "ratios": [round(r["raw_s"] / r["write_s"], 3) for r in rs],
                    "cpu_ratio": round(statistics.median(r["raw_cpu_s"] / r["write_cpu_s"] for r in rs), 3),
                    "cpu_ratios": [round(r["raw_cpu_s"] / r["write_cpu_s"], 3) for r in rs],
                    "raw_texts_per_s": round(statistics.median(BULK_TEXTS / r["raw_s"] for r in rs), 1),
                    "write_texts_per_s": round(statistics.median(BULK_TEXTS / r["write_s"] for r in rs), 1),
                    "caller_ms_per_text": round(
                        statistics.median(1000 * r["caller_cpu_s"] / BULK_TEXTS for r in rs), 2
                    ),
                }
                for name, rs in runs.items()
            }
    return result


def _order(key: str) -> tuple[int, int]:
    """A result's store size and texts a call, from its key ("100000", or "100000x1024" for another call size)."""
    size, _, call = key.partition("x")
    return int(size), int(call or 256)


def _code(run: dict[str, Any], name: str) -> str:
    paths = run.get("before_paths") if name == "before" else None
    if paths:
        return f"before: {', '.join(paths)} as at {run['commits']['before']}, the rest as after"
    return f"{name} ({run['commits'][name]})"


def render_bulk(result: dict[str, Any]) -> list[str]:
    lines = [
        "# Bulk writes against the raw embedder",
        "",
        f"Generated by `python -m bench.ingest --bulk` ({result['machine']}), one run per size on a shared, noisy",
        "machine. Per size: a store of that many memories (LongMemEval_S sentences, cached vectors, the store's bulk",
        f"insert); {result['texts']} LoCoMo turns written a call at a time (256 texts, as bench.scale writes, unless",
        "said) through `remember_many` with the real model, each call's texts first embedded by the bare model;",
        "write / raw = the bare model's seconds over the write path's (median of the rounds), in wall time and in",
        "processor time (every thread of the process). The code before and after alternate within a run, each",
        "round in processes of their own. Machine load: the 1-minute load average as the run ended (2 cores).",
        "The write's own ms a text: processor time of the caller's thread in `remember_many` (all of the write",
        "but the passages' model call, which runs on a thread of its own), over the texts.",
        "",
        "| memories in the store | texts a call | code | write / raw | each round | write / raw, processor time "
        "| each round | raw texts/s | write path texts/s | the write's own ms a text | run | load |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for _, run in sorted(result["sizes"].items(), key=lambda item: _order(item[0])):
        size, call = _order(_)
        for name in ("before", "after"):
            r = run[name]
            lines.append(
                f"| {size:,} | {call} | {_code(run, name)} | {r['ratio']} | {r['ratios']} | "
                f"{r.get('cpu_ratio', '')} | {r.get('cpu_ratios', '')} | "
                f"{r['raw_texts_per_s']} | {r['write_texts_per_s']} | {r.get('caller_ms_per_text', '')} | "
                f"{run['date'][:16]} | {run['load']} |"
            )
    return [*lines, ""]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--conversations", type=int, default=4)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--bulk", action="store_true", help="only the bulk write ratio, before and after")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--before", default="HEAD~1", help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--paths", nargs="*", default=[], help="only these paths as they were at --before")
    parser.add_argument("--call", type=int, default=256, help="texts a `remember_many` call (--bulk)")
    parser.add_argument("--bulk-worker", nargs=2, type=Path, metavar=("DB", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bulk_worker:
        db, out = args.bulk_worker
        bulk_worker(db, out, args.call)
        return
    if args.bulk:
        stamp = {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "machine": f"{platform.machine()}, {len(__import__('os').sched_getaffinity(0))} cpus",
        }
        figures = stamp | bulk(args.sizes, args.before, args.rounds, args.paths, args.call)
        kept = RESULTS / "ingest_bulk.json"
        if kept.exists():  # the sizes not run this time keep their last figures
            figures["sizes"] = json.loads(kept.read_text())["sizes"] | figures["sizes"]
        lines = render_bulk(figures)
        console.print("\n".join(lines))
        if not args.no_write:
            (RESULTS / "ingest_bulk.json").write_text(json.dumps(figures, indent=2) + "\n")
            (RESULTS / "ingest_bulk.md").write_text("\n".join(lines))
        return
    result: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, {len(__import__('os').sched_getaffinity(0))} cpus",
        "extraction": extraction(),
        "chats": {name: chat_set(path) for name, path in CHATS.items()},
        "throughput": throughput(args.conversations),
    }
    lines = render(result)
    console.print("\n".join(lines))
    if not args.no_write:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "ingest.json").write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
        (RESULTS / "ingest.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
