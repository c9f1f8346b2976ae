"""Quick check of the memory-kind prototypes among themselves, before any labelled set is looked at.

    python -m bench.kind_prototype_check [--misses]

Embeds the prototype sentences of `engram/classify/data/kinds.json` with the default model and reports, read as
the engine reads them (the mean of the 5 closest prototypes, fused with the same score between the centred
opening words, the defaults of `Settings`):

* leave-one-out accuracy of the prototype score, each sentence scored by all the others: overall, per kind,
  for the English, German (as engram.tags.german reads it) and other sentences apart, and the confusion matrix (rows: true, columns: predicted);
* the same for the prototype score fused with the linear read-out (engram/classify/readout.py), each sentence
  scored by a read-out fitted without it (five folds) and prototypes without it, as the engine fits it;
* with `--misses`, the sentences each measure gets wrong;
* hygiene: near-duplicate prototypes within a kind, and prototypes sharing five consecutive words with a
  statement of an evaluation set (bench/data/kinds_labelled.jsonl, kinds_fresh.jsonl, everyday_*user.jsonl):
  the seeds are written from the kinds' definitions, never from those sets.
"""

from __future__ import annotations

import argparse
import json
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engram import Settings
from engram.classify import readout as linear
from engram.classify.prototypes import left_out_scores, opening, opening_mean
from engram.classify.taxonomy import load_taxonomy
from engram.embed.minilm import default_embedder
from engram.tags.german import is_german

ROOT = Path(__file__).resolve().parent
EVALUATION_SETS = (
    ROOT / "data" / "kinds_labelled.jsonl",
    ROOT / "data" / "kinds_fresh.jsonl",
    ROOT / "data" / "everyday_user.jsonl",
    ROOT / "data" / "everyday_second_user.jsonl",
    ROOT / "data" / "everyday_third_user.jsonl",
    *(
        ROOT / "data" / f"everyday_{n}_user.jsonl"
        for n in ("fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
    ),
)
NEAR_DUPLICATE = 0.92
SHARED_NGRAM = 5

Labels = npt.NDArray[np.int64]


def evaluation_texts() -> list[str]:
    """The statements of every evaluation set (their field is "text" or "content")."""
    texts = []
    for path in EVALUATION_SETS:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row: dict[str, Any] = json.loads(line)
                texts.append(str(row.get("text") or row.get("content")))
    return texts


def fused_held_out(
    vectors: npt.NDArray[np.float32],
    openings: npt.NDArray[np.float32],
    target: Labels,
    prototype: npt.NDArray[np.float64],
    fitted: linear.LinearReadout,
) -> npt.NDArray[np.float64]:
    """Each sentence's fused distribution, the read-out (at its fitted C and T) fitted without it (five folds,
    as `readout.fit` chooses them) and `prototype` its left-out prototype softmax."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    x = linear.features(vectors, openings, fitted.opening_mean, fitted.opening_weight)
    folds = StratifiedKFold(linear.FOLDS, shuffle=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        logits = cross_val_predict(
            LogisticRegression(C=fitted.regularisation, max_iter=5000),
            x,
            target,
            cv=folds,
            method="decision_function",
        )
    read = linear.softmax_rows(logits / fitted.temperature)
    return linear.pool(read, prototype, fitted.weight)


def report(
    title: str, kinds: list[str], texts: list[str], target: Labels, predicted: Labels, misses: bool
) -> None:
    right = predicted == target
    german = np.array([is_german(t) for t in texts])
    other = np.array(
        [not g and not t.isascii() and not is_latin(t) for g, t in zip(german, texts, strict=True)]
    )
    english = ~german & ~other
    print(f"\n== {title}: {int(right.sum())}/{len(right)} = {right.mean():.3f}")
    for language, mask in (("English", english), ("German", german), ("other languages", other)):
        if mask.any():
            print(
                f"  {language:<16} {int(right[mask].sum()):>4}/{int(mask.sum()):<4} = {right[mask].mean():.3f}"
            )
    matrix = np.zeros((len(kinds), len(kinds)), dtype=np.int64)
    for t, p in zip(target, predicted, strict=True):
        matrix[t, p] += 1
    print("  per kind, and confusion (rows: true, columns: predicted)")
    print("  " + " " * 22 + "".join(f"{kind[:9]:>10}" for kind in kinds))
    for k, kind in enumerate(kinds):
        n = int(matrix[k].sum())
        share = f"{int(matrix[k, k]):>3}/{n:<3} = {matrix[k, k] / max(n, 1):.3f}"
        print(f"  {kind:<10}{share}" + "".join(f"{int(v):>10}" for v in matrix[k]))
    if misses:
        for text, t, p in zip(texts, target, predicted, strict=True):
            if t != p:
                print(f"    [{kinds[t]} -> {kinds[p]}] {text}")


def is_latin(text: str) -> bool:
    """Written in Latin letters (accents allowed), as English, German and most European languages are."""
    return all(not c.isalpha() or c < "\u0250" for c in text)


def ngrams(text: str, n: int = SHARED_NGRAM) -> set[tuple[str, ...]]:
    words = re.findall(r"\w+", text.lower())
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--misses", action="store_true", help="list the sentences each measure gets wrong")
    args = parser.parse_args()

    settings = Settings()
    top, weight, words = (
        settings.kind_prototype_top,
        settings.kind_opening_weight,
        settings.kind_opening_words,
    )
    taxonomy = load_taxonomy("kinds", fallback="knowledge")
    kinds = sorted(taxonomy.learnable)
    seeds = [(kind, text) for kind in kinds for text in taxonomy.prototypes[kind]]
    texts = [text for _, text in seeds]
    target = np.array([kinds.index(kind) for kind, _ in seeds], dtype=np.int64)
    counts = ", ".join(
        f"{k}={len(taxonomy.prototypes[k])} ({sum(is_german(t) for t in taxonomy.prototypes[k])} German)"
        for k in kinds
    )
    print(f"prototypes: {len(seeds)}: {counts}")

    embedder = default_embedder()
    vectors = embedder.embed_batch(texts)
    openings = embedder.embed_batch([opening(text, words) for text in texts])

    scores = left_out_scores(vectors, target, len(kinds), top, openings, weight)
    title = f"prototype score (mean of the {top} best, {weight} from the opening), leave-one-out"
    report(title, kinds, texts, target, scores.argmax(axis=1), args.misses)

    from engram.classify.prototypes import calibrate_temperature

    temperature = calibrate_temperature(vectors, [k for k, _ in seeds], top, openings=openings, weight=weight)
    prototype = linear.softmax_rows(scores / temperature)
    mean = opening_mean(openings, vectors.shape[1])
    fitted = linear.fit(vectors, openings, [k for k, _ in seeds], mean, weight, prototype)
    print(
        f"\ntemperature {temperature}; read-out C={fitted.regularisation}, T={fitted.temperature}, "
        f"weight {fitted.weight}, held-out accuracy {fitted.held_out_accuracy}"
    )
    fused = fused_held_out(vectors, openings, target, prototype, fitted)
    report("fused with the read-out, held out", kinds, texts, target, fused.argmax(axis=1), args.misses)

    sims = vectors @ vectors.T
    np.fill_diagonal(sims, -np.inf)
    same = target[:, None] == target[None, :]
    pairs = np.argwhere(np.triu(same & (sims >= NEAR_DUPLICATE), k=1))
    print(f"\nnear-duplicate prototype pairs (cosine >= {NEAR_DUPLICATE}): {len(pairs)}")
    for i, j in pairs:
        print(f"  {sims[i, j]:.3f}  {texts[i]!r} ~ {texts[j]!r}")
    evaluated = [(text, ngrams(text)) for text in evaluation_texts()]
    shared = [(proto, text) for proto in texts for text, grams in evaluated if ngrams(proto) & grams]
    print(f"prototypes sharing {SHARED_NGRAM}+ consecutive words with an evaluation statement: {len(shared)}")
    for proto, text in shared:
        print(f"  {proto!r} ~ {text!r}")


if __name__ == "__main__":
    main()
