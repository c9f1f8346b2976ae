"""Kind classification on the labelled set (bench/data/kinds_labelled.jsonl, written apart from the prototypes).

    python -m bench.classification

For the prototype score as seed 000 defines it (best cosine, top=1), as a mean of the 3 and 5 best, and as the
default reads it (mean of the 5 best, fused with the same score between the texts' opening words, centred on
the seeds' mean opening):
- the temperature calibrated on the prototypes alone (leave-one-out), as Engram does;
- prototype-only: argmax accuracy, mean confidence, expected calibration error, share above 0.75 and its accuracy;
- write path: every statement remembered, in a fixed shuffled order, into a fresh store (neighbour votes and
  self-learning take part): accuracy of the stored kind, fallback share, accuracy of the non-fallback decisions.
"""

from __future__ import annotations

import json
import random
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from engram import Memory, Settings
from engram.classify.prototypes import (
    PrototypeSet,
    Rules,
    calibrate_temperature,
    classify,
    expected_calibration_error,
    opening,
)
from engram.classify.taxonomy import load_taxonomy as load
from engram.embed.minilm import default_embedder
from engram.store.values import Prototype

ROOT = Path(__file__).resolve().parent
LABELLED = ROOT / "data" / "kinds_labelled.jsonl"
RESULTS = ROOT / "results"
console = Console()


def labelled() -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in LABELLED.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(r["text"], r["kind"]) for r in rows]


def evaluate(top: int, opening_weight: float) -> dict[str, Any]:
    embedder = default_embedder()
    taxonomy = load("kinds", fallback="knowledge")
    seeds = [(k, t) for k in taxonomy.learnable for t in taxonomy.prototypes[k]]
    words = Settings().kind_opening_words
    proto_vectors = embedder.embed_batch([t for _, t in seeds])
    proto_openings = embedder.embed_batch([opening(t, words) for _, t in seeds])
    temperature = calibrate_temperature(
        proto_vectors, [k for k, _ in seeds], top=top, openings=proto_openings, weight=opening_weight
    )
    protos = PrototypeSet(
        [
            Prototype(k, "seed", v, opening=o)
            for (k, _), v, o in zip(seeds, proto_vectors, proto_openings, strict=True)
        ],
        384,
    )
    rules = Rules(temperature=temperature, prototype_top=top, opening_weight=opening_weight)
    data = labelled()
    vectors = embedder.embed_batch([t for t, _ in data])
    openings = embedder.embed_batch([opening(t, words) for t, _ in data])
    decisions = [classify(v, protos, [], taxonomy, rules, o) for v, o in zip(vectors, openings, strict=True)]
    winners = [max(d.probabilities, key=lambda k: d.probabilities[k]) for d in decisions]
    correct = np.array([w == kind for w, (_, kind) in zip(winners, data, strict=True)])
    confidence = np.array([d.confidence for d in decisions])
    confident = confidence >= 0.75
    per_kind = {
        kind: round(float(np.mean([c for c, (_, k) in zip(correct, data, strict=True) if k == kind])), 3)
        for kind in taxonomy.learnable
    }

    order = list(range(len(data)))
    random.Random(7).shuffle(order)
    settings = Settings(kind_prototype_top=top, kind_opening_weight=opening_weight)
    with (
        tempfile.TemporaryDirectory() as tmp,
        Memory(Path(tmp) / "c.db", embedder=embedder, settings=settings) as m,
    ):
        stored = {i: m.get(m.remember(data[i][0]).id) for i in order}
    kinds = [stored[i].kind.value for i in range(len(data))]
    fallback = np.array([stored[i].kind_method == "fallback" for i in range(len(data))])
    path_correct = np.array([k == kind for k, (_, kind) in zip(kinds, data, strict=True)])
    return {
        "top": top,
        "opening_weight": opening_weight,
        "temperature": temperature,
        "statements": len(data),
        "prototype_only": {
            "accuracy": round(float(correct.mean()), 3),
            "per_kind": per_kind,
            "mean_confidence": round(float(confidence.mean()), 3),
            "ece": round(expected_calibration_error(confidence, correct), 3),
            "share_confident": round(float(confident.mean()), 3),
            "accuracy_confident": round(float(correct[confident].mean()), 3) if confident.any() else None,
        },
        "write_path": {
            "accuracy": round(float(path_correct.mean()), 3),
            "fallback_share": round(float(fallback.mean()), 3),
            "accuracy_decided": round(float(path_correct[~fallback].mean()), 3)
            if (~fallback).any()
            else None,
        },
    }


def main() -> None:
    default = Settings()
    results = [evaluate(top, 0.0) for top in (1, 3, 5)]
    results.append(evaluate(default.kind_prototype_top, default.kind_opening_weight))
    table = Table(
        "prototype score",
        "T",
        "argmax acc",
        "mean conf",
        "ECE",
        ">=0.75 share",
        ">=0.75 acc",
        "write-path acc",
        "fallback share",
        "decided acc",
    )
    for r in results:
        p, w = r["prototype_only"], r["write_path"]
        table.add_row(
            _name(r),
            str(r["temperature"]),
            str(p["accuracy"]),
            str(p["mean_confidence"]),
            str(p["ece"]),
            str(p["share_confident"]),
            str(p["accuracy_confident"]),
            str(w["accuracy"]),
            str(w["fallback_share"]),
            str(w["accuracy_decided"]),
        )
    console.print(table)
    kinds_table = Table("prototype score", *results[0]["prototype_only"]["per_kind"])
    for r in results:
        kinds_table.add_row(_name(r), *(str(v) for v in r["prototype_only"]["per_kind"].values()))
    console.print(kinds_table)
    RESULTS.mkdir(exist_ok=True)
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    (RESULTS / "classification.json").write_text(
        json.dumps({"date": stamp, "results": results}, indent=2) + "\n"
    )
    lines = [
        "# Kind classification",
        "",
        f"Generated by `python -m bench.classification` on {stamp}: {results[0]['statements']} labelled statements",
        "(bench/data/kinds_labelled.jsonl), none of them a prototype. T is the softmax temperature calibrated on",
        "the prototypes alone (leave-one-out). Prototype-only: no neighbours. Write path: each statement remembered",
        "into one fresh store in a fixed shuffled order, so neighbour votes and learned prototypes take part;",
        "statements under 0.75 confidence fall back to knowledge.",
        "",
        "| prototype score | T | argmax acc | mean conf | ECE | share >= 0.75 | acc >= 0.75 | write-path acc "
        "| fallback share | acc of decided |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        p, w = r["prototype_only"], r["write_path"]
        lines.append(
            f"| {_name(r)} | {r['temperature']} | {p['accuracy']} | {p['mean_confidence']} | {p['ece']} | "
            f"{p['share_confident']} | {p['accuracy_confident']} | {w['accuracy']} | {w['fallback_share']} | "
            f"{w['accuracy_decided']} |"
        )
    lines += [
        "",
        "Per-kind argmax accuracy (prototype-only):",
        "",
        "| prototype score | " + " | ".join(results[0]["prototype_only"]["per_kind"]) + " |",
        "|---" * (1 + len(results[0]["prototype_only"]["per_kind"])) + "|",
    ]
    for r in results:
        lines.append(
            f"| {_name(r)} | " + " | ".join(str(v) for v in r["prototype_only"]["per_kind"].values()) + " |"
        )
    (RESULTS / "classification.md").write_text("\n".join(lines) + "\n")


def _name(result: dict[str, Any]) -> str:
    name = "best cosine" if result["top"] == 1 else f"mean of top {result['top']}"
    if result["opening_weight"]:
        name += f", {result['opening_weight']} from the opening words"
    default = Settings()
    if (result["top"], result["opening_weight"]) == (default.kind_prototype_top, default.kind_opening_weight):
        name += " (default)"
    return name


if __name__ == "__main__":
    main()
