"""Conversation ingestion (seed 001): extraction quality and throughput.

    python -m bench.ingest [--conversations 4]

1. Extraction on bench/data/extraction_labelled.jsonl (user messages in English and Chinese, each with the
   candidates a reader expects: kind and a phrase the candidate must contain; chit-chat expects none):
   precision and recall per kind. A candidate is right when its kind matches an expected one whose phrase it
   contains; an expected item is found when such a candidate exists.
   Then on bench/data/extraction_chat_fresh.jsonl (218 messages written apart from the rules, each expecting one
   kind or nothing): precision, recall, and every message read otherwise.
2. Throughput: the LoCoMo dev conversations (both speakers are users) through `Memory.ingest` into a fresh
   file database with the real model: messages/s, candidates, approved / pending shares.
Results: bench/results/ingest.json and ingest.md.
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
CHAT = ROOT / "data" / "extraction_chat_fresh.jsonl"
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


def chat_set() -> dict[str, Any]:
    """The fresh chat set: each message expects one extracted kind, or nothing (chit-chat, questions). A
    candidate is right when its kind is the one its message expects; a message is found when a candidate of
    its kind is drawn from it. Also: candidates from chit-chat, and contact details taken for a to-do."""
    rows = [json.loads(line) for line in CHAT.read_text(encoding="utf-8").splitlines() if line.strip()]
    predicted = right = expected = found = from_chat = 0
    wrong: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "x.db", embedder=default_embedder()) as mem:
        for row in rows:
            got = mem._ingestor.candidates(Message(role="user", content=row["text"], message_id=row["id"]))
            gold = row["expected"]
            predicted += len(got)
            right += sum(c.kind == gold for c in got)
            from_chat += len(got) if gold is None else 0
            if gold is not None:
                expected += 1
                found += any(c.kind == gold for c in got)
            if [c.kind for c in got] != ([] if gold is None else [gold]):
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
    e, t, c = result["extraction"], result["throughput"], result["chat"]
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
    lines += [
        "",
        f"## Extraction on a fresh chat set ({c['messages']} user messages, bench/data/extraction_chat_fresh.jsonl)",
        "",
        "Written apart from the rules: each message expects one extracted kind, or nothing (chit-chat, questions). A",
        "candidate is right when its kind is the one its message expects.",
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


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--conversations", type=int, default=4)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    result: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, {len(__import__('os').sched_getaffinity(0))} cpus",
        "extraction": extraction(),
        "chat": chat_set(),
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
