"""Fit the confidence calibrator: `python -m bench.confidence_fit [--collect] [--limit N]`.

Each hit's confidence (engram.recall.confidence) is a logistic regression over how the memory matches what was
asked (engram.recall.confidence.FEATURES), fitted here on the development splits of LoCoMo and LongMemEval_S
(../shared/data), never on the user-level questions:
- answerable: a question against its own conversation's (or haystack's) memories; each of the first ten hits of
  recall's ranked mode is a right answer when it holds the question's evidence;
- unanswerable: the same question against another conversation's memories (LoCoMo: the next conversation's;
  LongMemEval_S: the next question's haystack, when it holds none of the question's evidence sessions), and
  LongMemEval_S's abstention questions against their own haystack: no hit answers them.
Every question weighs the same (its hits share its weight) and the two datasets weigh the same. The bands:
medium is the probability under which MEDIUM_KEEPS of the unanswerable questions' best hits stay on each
dataset; high is the probability under which HIGH_KEEPS of them stay on each. Both bands are read from the questions nothing answers, as
the evidence of an answerable question is one turn of many, and other turns that also answer it count wrong. The coefficients and bands are written to engram/recall/calibrated.py and a
summary to bench/results/confidence.md. The hits are collected once (bench/.cache/confidence_hits.json);
`--collect` collects them again (after a ranking change).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from bench.datasets import load_locomo, load_longmemeval
from bench.embedcache import DiskCachedEmbedder
from bench.retrievers import _ENGRAM_SCOPE_ID as SCOPE
from bench.retrievers import EngramDatabases
from engram.embed.minilm import MiniLM
from engram.recall.confidence import features

ROOT = Path(__file__).resolve().parents[1]
HITS = ROOT / "bench" / ".cache" / "confidence_hits.json"
OUT = ROOT / "engram" / "recall" / "calibrated.py"
REPORT = ROOT / "bench" / "results" / "confidence.md"
TOP = 10  # hits read per question
MEDIUM_KEEPS = 0.9  # share of unanswerable questions whose best hit stays under medium
HIGH_KEEPS = 0.99  # share of unanswerable questions whose best hit stays under high
FOLDS = 5  # held-apart measures: the stores in five parts, each measured by a fit on the other four
# The signals fitted on: how the memory itself matches what was asked (engram.recall.confidence.features).
FEATURES = ("cosine", "coverage", "lead", "lexical")
# The components a row keeps: those fitted on, and others a signal tried (`--signals`) may read.
KEPT = ("cosine", "coverage", "lead", "neighbour", "lexical", "bm25", "vector", "score", "episode")


@dataclass(frozen=True)
class Asked:
    """One question against one store: its dataset, whether the store answers it, and its evidence units."""

    qid: str
    dataset: str
    text: str
    answerable: bool
    evidence: frozenset[str]
    time: Any


def _hits(databases: EngramDatabases, asked: Asked) -> list[dict[str, Any]]:
    memory = databases.memory
    assert memory is not None
    found = memory.recall(
        asked.text, limit=TOP, mode="ranked", scope="project", scope_id=SCOPE, now=asked.time, touch=False
    )
    rows = []
    for rank, hit in enumerate(found):
        units = databases.units_of.get(hit.record.parent_id or hit.record.id, [])
        right = asked.answerable and any(u in asked.evidence for u in units)
        c = hit.components
        rows.append({"rank": rank, "right": right, **{k: float(c[k]) for k in KEPT if k in c}})
    return rows


def _locomo(limit: int | None) -> Iterator[tuple[Sequence[Any], list[Asked]]]:
    conversations = load_locomo()
    for i, conv in enumerate(conversations):
        other = conversations[(i + 1) % len(conversations)]
        own = [q for q in conv.questions if q.category in (1, 2, 3, 4) and q.evidence][:limit]
        theirs = [q for q in other.questions if q.category in (1, 2, 3, 4) and q.evidence][:limit]
        asked = [
            Asked(f"{conv.sample_id}/{n}", "locomo", q.question, True, frozenset(q.evidence), conv.end)
            for n, q in enumerate(own)
        ] + [
            Asked(
                f"{other.sample_id}/{n}@{conv.sample_id}", "locomo", q.question, False, frozenset(), conv.end
            )
            for n, q in enumerate(theirs)
        ]
        yield conv.units, asked


def _longmemeval(limit: int | None) -> Iterator[tuple[Sequence[Any], list[Asked]]]:
    questions = load_longmemeval(scored_only=False)[:limit]
    scored = [q for q in questions if not q.question_id.endswith("_abs")]
    for i, q in enumerate(questions):
        sessions = {s.session_id for s in q.sessions}
        asked = []
        if q.question_id.endswith("_abs"):
            asked.append(Asked(q.question_id, "longmemeval", q.question, False, frozenset(), q.question_date))
        else:
            evidence = frozenset(q.turn_evidence())
            if evidence:
                asked.append(Asked(q.question_id, "longmemeval", q.question, True, evidence, q.question_date))
            nxt = scored[(scored.index(q) + 1) % len(scored)]
            if not sessions & set(nxt.answer_session_ids):
                asked.append(
                    Asked(
                        f"{nxt.question_id}@{q.question_id}",
                        "longmemeval",
                        nxt.question,
                        False,
                        frozenset(),
                        q.question_date,
                    )
                )
        if asked:
            yield q.turn_units(), asked
        del i


def collect(limit: int | None, path: Path) -> list[dict[str, Any]]:
    """Every question's first hits, written to `path` after each store (a long run keeps what it did)."""
    embedder = DiskCachedEmbedder(MiniLM())
    databases = EngramDatabases(embedder)
    out: list[dict[str, Any]] = []
    try:
        for source in (_locomo(limit), _longmemeval(limit)):
            for units, asked in source:
                databases.open(units)
                out += [
                    {
                        "qid": a.qid,
                        "dataset": a.dataset,
                        "answerable": a.answerable,
                        "hits": _hits(databases, a),
                    }
                    for a in asked
                ]
                path.write_text(json.dumps(out))
                print(f"{len(out)} questions", flush=True)
    finally:
        databases.shutdown()
        embedder.close()
    return out


def _rows(
    questions: Sequence[dict[str, Any]], names: Sequence[str] = FEATURES
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each hit's features and whether it is right, and its weight: a question weighs 1 / its dataset's
    questions, shared by its hits."""
    per_set: dict[str, int] = {}
    for q in questions:
        per_set[q["dataset"]] = per_set.get(q["dataset"], 0) + 1
    x, y, w = [], [], []
    for q in questions:
        for hit in q["hits"]:
            x.append(features(hit, names))
            y.append(bool(hit["right"]))
            w.append(1.0 / (per_set[q["dataset"]] * len(q["hits"])))
    return np.array(x), np.array(y), np.array(w) / sum(w) * len(w)


def _best(
    questions: Sequence[dict[str, Any]],
    weights: np.ndarray,
    intercept: float,
    names: Sequence[str] = FEATURES,
) -> np.ndarray:
    """Each question's best hit's probability (0 with no hit)."""
    out = []
    for q in questions:
        x = np.array([features(h, names) for h in q["hits"]]) if q["hits"] else np.zeros((0, len(names)))
        out.append(float((1 / (1 + np.exp(-(x @ weights + intercept)))).max()) if len(x) else 0.0)
    return np.array(out)


@dataclass(frozen=True)
class Fit:
    weights: np.ndarray
    intercept: float
    medium: float
    high: float


def fit(questions: Sequence[dict[str, Any]], names: Sequence[str] = FEATURES) -> Fit:
    """The logistic regression and its two bands (see the module's docstring)."""
    x, y, w = _rows(questions, names)
    model = LogisticRegression(C=1.0, max_iter=1000).fit(x, y, sample_weight=w)
    weights, intercept = model.coef_[0], float(model.intercept_[0])
    best = _best(questions, weights, intercept, names)
    unanswerable = {
        name: best[[i for i, q in enumerate(questions) if q["dataset"] == name and not q["answerable"]]]
        for name in sorted({q["dataset"] for q in questions})
    }
    # Each band holds on every dataset: the strictest of their quantiles, which itself stays under the band.
    medium, high = (
        float(
            np.nextafter(
                max(np.quantile(b, keep, method="higher") for b in unanswerable.values() if len(b)), 1
            )
        )
        for keep in (MEDIUM_KEEPS, HIGH_KEEPS)
    )
    return Fit(weights, intercept, medium, max(high, medium))


def _share(flags: np.ndarray) -> float:
    return round(float(flags.mean()), 3) if len(flags) else float("nan")


def measured(questions: Sequence[dict[str, Any]], f: Fit) -> dict[str, dict[str, float]]:
    """Per dataset: the share of unanswerable questions with a hit above low, of answerable ones whose first
        hit is right (and of those, above low), of those whose first hit is wrong above low, and of first hits at high
    that are right."""
    out: dict[str, dict[str, float]] = {}
    for name in sorted({q["dataset"] for q in questions}):
        part = [q for q in questions if q["dataset"] == name]
        best = _best(part, f.weights, f.intercept)
        first = _best([{**q, "hits": q["hits"][:1]} for q in part], f.weights, f.intercept)
        ans = np.array([q["answerable"] for q in part])
        right = np.array([bool(q["hits"] and q["hits"][0]["right"]) for q in part])
        out[name] = {
            "unanswerable": int((~ans).sum()),
            "unanswerable_above_low": _share(best[~ans] >= f.medium),
            "answerable": int(ans.sum()),
            "first_right": _share(right[ans]),
            "first_right_above_low": _share(first[ans & right] >= f.medium),
            "first_wrong_above_low": _share(first[ans & ~right] >= f.medium),
            "high_precision": _share(right[ans & (first >= f.high)]),
        }
    return out


def _store(question: dict[str, Any]) -> str:
    """The store a question was asked of (its conversation or haystack): a held-apart part holds whole stores."""
    qid = str(question["qid"])
    if "@" in qid:
        return qid.split("@")[1]
    return qid.split("/")[0] if question["dataset"] == "locomo" else qid.removesuffix("_abs")


def held_apart(
    questions: Sequence[dict[str, Any]], folds: int = FOLDS, names: Sequence[str] = FEATURES
) -> dict[str, dict[str, float]]:
    """How well the fit separates answers from guesses on stores it was not fitted on: the stores are split in
    `folds` parts (in a fixed shuffled order), each part measured by the fit and bands of the others. Per
    dataset: the area under the ROC curve of the first hit's probability of answerable questions whose first
    hit is right against the best hit's of unanswerable ones (1: every answer above every guess), and the
    shares `measured` gives, at the held-apart bands."""
    stores = sorted({_store(q) for q in questions})
    np.random.default_rng(0).shuffle(stores)
    part = {s: i % folds for i, s in enumerate(stores)}
    best, first, medium = (np.zeros(len(questions)) for _ in range(3))
    for k in range(folds):
        f = fit([q for q in questions if part[_store(q)] != k], names)
        at = [i for i, q in enumerate(questions) if part[_store(q)] == k]
        held = [questions[i] for i in at]
        best[at] = _best(held, f.weights, f.intercept, names)
        first[at] = _best([{**q, "hits": q["hits"][:1]} for q in held], f.weights, f.intercept, names)
        medium[at] = f.medium
    ans = np.array([q["answerable"] for q in questions])
    right = np.array([bool(q["hits"] and q["hits"][0]["right"]) for q in questions])
    out: dict[str, dict[str, float]] = {}
    for name in sorted({q["dataset"] for q in questions}):
        ours = np.array([q["dataset"] == name for q in questions])
        answers, guesses = ours & ans & right, ours & ~ans
        scores = np.concatenate([first[answers], best[guesses]])
        labels = np.concatenate([np.ones(answers.sum()), np.zeros(guesses.sum())])
        wrong = ours & ans & ~right
        out[name] = {
            "auc": round(float(roc_auc_score(labels, scores)), 3)
            if 0 < labels.sum() < len(labels)
            else float("nan"),
            "unanswerable_above_low": _share(best[guesses] >= medium[guesses]),
            "first_right_above_low": _share(first[answers] >= medium[answers]),
            "first_wrong_above_low": _share(first[wrong] >= medium[wrong]),
        }
    return out


def write(f: Fit, questions: Sequence[dict[str, Any]]) -> None:
    weights = ", ".join(f"{v:.4f}" for v in f.weights)
    names = ", ".join(f'"{n}"' for n in FEATURES)
    OUT.write_text(
        '"""The confidence calibrator\'s fitted weights and bands (engram.recall.confidence). Written by\n'
        '`python -m bench.confidence_fit` from the development splits of LoCoMo and LongMemEval_S: do not edit."""\n\n'
        f"FEATURES = ({names})\n"
        f"WEIGHTS = ({weights})\n"
        f"INTERCEPT = {f.intercept:.4f}\n"
        f"MEDIUM = {f.medium:.4f}\n"
        f"HIGH = {f.high:.4f}\n"
    )
    counts = {
        n: sum(1 for q in questions if q["dataset"] == n) for n in sorted({q["dataset"] for q in questions})
    }
    lines = [
        "# Confidence calibrator",
        "",
        f"Fitted by `python -m bench.confidence_fit` on {counts} questions (answerable and unanswerable).",
        "",
        "| feature | weight |",
        "|---|---|",
        *(f"| {n} | {v:.3f} |" for n, v in zip(FEATURES, f.weights, strict=True)),
        f"| intercept | {f.intercept:.3f} |",
        "",
        f"Bands: medium at probability {f.medium:.3f}, high at {f.high:.3f}.",
        "",
        "| dataset | unanswerable | above low | answerable | first right | first right above low "
        "| first wrong above low | high precision |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, m in measured(questions, f).items():
        lines.append(f"| {name} | " + " | ".join(str(v) for v in m.values()) + " |")
    lines += [
        "",
        f"Held apart (`held_apart`: the stores in {FOLDS} parts, each measured by a fit on the others):",
        "",
        "| dataset | separation (ROC AUC) | unanswerable above low | first right above low | first wrong above low |",
        "|---|---|---|---|---|",
    ]
    for name, m in held_apart(questions).items():
        lines.append(f"| {name} | " + " | ".join(str(v) for v in m.values()) + " |")
    REPORT.write_text("\n".join(lines) + "\n")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collect", action="store_true", help="collect the hits again")
    parser.add_argument("--limit", type=int, default=None, help="questions per conversation or haystacks")
    parser.add_argument(
        "--signals",
        help="comma-separated components to measure held apart beside the fitted ones (KEPT), writing nothing",
    )
    args = parser.parse_args(argv)
    if args.collect or not HITS.exists():
        collect(args.limit, HITS)
    questions = json.loads(HITS.read_text())
    if args.signals:
        for names in (FEATURES, tuple(args.signals.split(","))):
            print(", ".join(names), json.dumps(held_apart(questions, names=names)))
        return
    f = fit(questions)
    write(f, questions)
    print(REPORT.read_text())


if __name__ == "__main__":
    main()
