"""Quick check of the memory-kind prototypes against the labelled evaluation set.

Embeds the prototypes in `engram/classify/data/kinds.json` and the statements in `bench/data/kinds_labelled.jsonl`
with MiniLM, then reports:

* per-kind and overall accuracy of "argmax over kinds of the best cosine to that kind's prototypes",
* the confusion matrix (rows: true kind, columns: predicted kind),
* the misclassified statements,
* for comparison, the accuracy of top-k mean and centroid scoring,
* leave-one-out accuracy of the prototypes against each other,
* near-duplicate prototypes within a kind and word 5-grams shared between prototypes and the labelled set.

Run with `.venv/bin/python -m bench.kind_prototype_check`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.embed.minilm import MiniLM

ROOT = Path(__file__).resolve().parent.parent
KINDS_FILE = ROOT / "engram" / "data" / "kinds.json"
LABELLED_FILE = ROOT / "bench" / "data" / "kinds_labelled.jsonl"
NEAR_DUPLICATE = 0.92
SHARED_NGRAM = 5

Matrix = npt.NDArray[np.float32]


def load_prototypes(path: Path = KINDS_FILE) -> dict[str, list[str]]:
    """Kind -> prototype sentences, for the kinds that have prototypes."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    labels: dict[str, Any] = data["labels"]
    return {kind: list(entry["prototypes"]) for kind, entry in labels.items() if entry["prototypes"]}


def load_labelled(path: Path = LABELLED_FILE) -> list[tuple[str, str]]:
    """(text, kind) pairs, in file order."""
    rows: list[tuple[str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            rows.append((str(row["text"]), str(row["kind"])))
    return rows


def kind_scores(
    vectors: Matrix, proto_vectors: Matrix, proto_kind: npt.NDArray[np.int64], n_kinds: int
) -> Matrix:
    """Best cosine of each row to each kind's prototypes: shape (rows, kinds)."""
    sims = vectors @ proto_vectors.T
    scores = np.full((vectors.shape[0], n_kinds), -np.inf, dtype=np.float32)
    for k in range(n_kinds):
        cols = proto_kind == k
        if cols.any():
            scores[:, k] = sims[:, cols].max(axis=1)
    return scores


def confusion(truth: list[int], predicted: list[int], n_kinds: int) -> npt.NDArray[np.int64]:
    matrix = np.zeros((n_kinds, n_kinds), dtype=np.int64)
    for t, p in zip(truth, predicted, strict=True):
        matrix[t, p] += 1
    return matrix


def print_report(title: str, kinds: list[str], matrix: npt.NDArray[np.int64]) -> None:
    total = int(matrix.sum())
    correct = int(np.trace(matrix))
    print(f"\n== {title}: {correct}/{total} = {correct / max(total, 1):.3f}")
    for k, kind in enumerate(kinds):
        n = int(matrix[k].sum())
        print(f"  {kind:<10} {int(matrix[k, k]):>3}/{n:<3} = {matrix[k, k] / max(n, 1):.3f}")
    width = max(len(kind) for kind in kinds) + 1
    print("  confusion (rows: true, columns: predicted)")
    print("  " + " " * width + "".join(f"{kind[:9]:>10}" for kind in kinds))
    for k, kind in enumerate(kinds):
        print(f"  {kind:<{width}}" + "".join(f"{int(v):>10}" for v in matrix[k]))


def print_summary(title: str, kinds: list[str], truth: list[int], scores: Matrix) -> None:
    """One line: overall and per-kind accuracy of the argmax of `scores`."""
    predicted = scores.argmax(axis=1)
    labels = np.array(truth)
    per_kind = ", ".join(
        f"{kind}={float((predicted[labels == k] == k).mean()):.3f}" for k, kind in enumerate(kinds)
    )
    print(f"\n-- {title}: {float((predicted == labels).mean()):.3f} ({per_kind})")


def ngrams(text: str, n: int = SHARED_NGRAM) -> set[tuple[str, ...]]:
    words = re.findall(r"[\w']+", text.lower())
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def main() -> None:
    prototypes = load_prototypes()
    labelled = load_labelled()
    kinds = list(prototypes)
    index = {kind: k for k, kind in enumerate(kinds)}
    unknown = sorted({kind for _, kind in labelled if kind not in index})
    if unknown:
        raise SystemExit(f"labelled kinds without prototypes: {unknown}")

    proto_texts = [text for kind in kinds for text in prototypes[kind]]
    proto_kind = np.array([index[kind] for kind in kinds for _ in prototypes[kind]], dtype=np.int64)
    print(f"prototypes: {len(proto_texts)} ({', '.join(f'{k}={len(prototypes[k])}' for k in kinds)})")
    counts: dict[str, int] = {}
    for _, kind in labelled:
        counts[kind] = counts.get(kind, 0) + 1
    print(f"labelled:   {len(labelled)} ({', '.join(f'{k}={counts.get(k, 0)}' for k in kinds)})")

    embedder = MiniLM()
    proto_vectors = embedder.embed_batch(proto_texts)
    label_vectors = embedder.embed_batch([text for text, _ in labelled])

    # Labelled set: argmax over kinds of the best cosine to each kind's prototypes.
    scores = kind_scores(label_vectors, proto_vectors, proto_kind, len(kinds))
    predicted = [int(p) for p in scores.argmax(axis=1)]
    truth = [index[kind] for _, kind in labelled]
    print_report(
        "labelled set, argmax of best prototype cosine", kinds, confusion(truth, predicted, len(kinds))
    )
    misses = [
        (text, kinds[t], kinds[p])
        for (text, _), t, p in zip(labelled, truth, predicted, strict=True)
        if t != p
    ]
    if misses:
        print("  misclassified:")
        for text, true_kind, pred_kind in misses:
            print(f"    [{true_kind} -> {pred_kind}] {text}")

    # For comparison only: other ways of turning prototype cosines into a kind score.
    sims_all = label_vectors @ proto_vectors.T
    for top in (3, 5):
        top_mean = np.stack(
            [np.sort(sims_all[:, proto_kind == k], axis=1)[:, -top:].mean(axis=1) for k in range(len(kinds))],
            axis=1,
        )
        print_summary(f"labelled set, mean of top-{top} cosines per kind", kinds, truth, top_mean)
    centroids = np.stack([proto_vectors[proto_kind == k].mean(axis=0) for k in range(len(kinds))])
    centroids /= np.linalg.norm(centroids, axis=1, keepdims=True)
    print_summary("labelled set, cosine to the kind centroid", kinds, truth, label_vectors @ centroids.T)

    # Leave-one-out: each prototype against all the others.
    sims = proto_vectors @ proto_vectors.T
    np.fill_diagonal(sims, -np.inf)
    loo_scores = np.full((len(proto_texts), len(kinds)), -np.inf, dtype=np.float32)
    for k in range(len(kinds)):
        loo_scores[:, k] = sims[:, proto_kind == k].max(axis=1)
    loo_predicted = [int(p) for p in loo_scores.argmax(axis=1)]
    loo_truth = [int(k) for k in proto_kind]
    print_report("prototypes, leave-one-out", kinds, confusion(loo_truth, loo_predicted, len(kinds)))

    # Hygiene: near-duplicates within a kind, 5-grams shared with the labelled set.
    same_kind = proto_kind[:, None] == proto_kind[None, :]
    pairs = np.argwhere(np.triu(same_kind & (sims >= NEAR_DUPLICATE), k=1))
    print(f"\nnear-duplicate prototype pairs (cosine >= {NEAR_DUPLICATE}): {len(pairs)}")
    for i, j in pairs:
        print(f"  {sims[i, j]:.3f}  {proto_texts[i]!r} ~ {proto_texts[j]!r}")
    label_grams = [ngrams(text) for text, _ in labelled]
    shared = [
        (proto, text)
        for proto in proto_texts
        for (text, _), grams in zip(labelled, label_grams, strict=True)
        if ngrams(proto) & grams
    ]
    print(f"prototype/labelled pairs sharing {SHARED_NGRAM}+ consecutive words: {len(shared)}")
    for proto, text in shared:
        print(f"  {proto!r} ~ {text!r}")


if __name__ == "__main__":
    main()
