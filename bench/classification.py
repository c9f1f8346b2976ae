"""Kind classification on the labelled set (bench/data/kinds_labelled.jsonl, written apart from the prototypes).

    python -m bench.classification

For the prototype score as seed 000 defines it (best cosine, top=1) and as a mean of the 3 and 5 best:
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
from engram.classify import PrototypeSet, Rules, calibrate_temperature, classify, expected_calibration_error
from engram.classify import load_taxonomy as load
from engram.embed import default_embedder
from engram.store.protocol import Prototype

ROOT = Path(__file__).resolve().parent
LABELLED = ROOT / "data" / "kinds_labelled.jsonl"
RESULTS = ROOT / "results"
console = Console()


def labelled() -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in LABELLED.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(r["text"], r["kind"]) for r in rows]


def evaluate(top: int) -> dict[str, Any]:
    embedder = default_embedder()
    taxonomy = load("kinds", fallback="knowledge")
    seeds = [(k, t) for k in taxonomy.learnable for t in taxonomy.prototypes[k]]
    proto_vectors = embedder.embed_batch([t for _, t in seeds])
    temperature = calibrate_temperature(proto_vectors, [k for k, _ in seeds], top=top)
    protos = PrototypeSet(
        [Prototype(k, "seed", v) for (k, _), v in zip(seeds, proto_vectors, strict=True)], 384
    )
    rules = Rules(temperature=temperature, prototype_top=top)
    data = labelled()
    vectors = embedder.embed_batch([t for t, _ in data])
    decisions = [classify(v, protos, [], taxonomy, rules) for v in vectors]
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
    settings = Settings(kind_prototype_top=top)
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
    results = [evaluate(top) for top in (1, 3, 5)]
    table = Table("prototype score", "T", "argmax acc", "mean conf", "ECE", ">=0.75 share", ">=0.75 acc",
                  "write-path acc", "fallback share", "decided acc")  # fmt: skip
    for r in results:
        p, w = r["prototype_only"], r["write_path"]
        table.add_row("best cosine" if r["top"] == 1 else f"mean of top {r['top']}", str(r["temperature"]),
                      str(p["accuracy"]), str(p["mean_confidence"]), str(p["ece"]), str(p["share_confident"]),
                      str(p["accuracy_confident"]), str(w["accuracy"]), str(w["fallback_share"]),
                      str(w["accuracy_decided"]))  # fmt: skip
    console.print(table)
    kinds_table = Table("prototype score", *results[0]["prototype_only"]["per_kind"])
    for r in results:
        kinds_table.add_row(str(r["top"]), *(str(v) for v in r["prototype_only"]["per_kind"].values()))
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
        name = "best cosine" if r["top"] == 1 else f"mean of top {r['top']}"
        name += " (default)" if r["top"] == Settings().kind_prototype_top else ""
        lines.append(
            f"| {name} | {r['temperature']} | {p['accuracy']} | {p['mean_confidence']} | {p['ece']} | "
            f"{p['share_confident']} | {p['accuracy_confident']} | {w['accuracy']} | {w['fallback_share']} | "
            f"{w['accuracy_decided']} |"
        )
    lines += ["", "Per-kind argmax accuracy (prototype-only):", "",
              "| prototype score | " + " | ".join(results[0]["prototype_only"]["per_kind"]) + " |",
              "|---" * (1 + len(results[0]["prototype_only"]["per_kind"])) + "|"]  # fmt: skip
    for r in results:
        lines.append(
            f"| top {r['top']} | "
            + " | ".join(str(v) for v in r["prototype_only"]["per_kind"].values())
            + " |"
        )
    (RESULTS / "classification.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
