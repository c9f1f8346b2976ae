"""How the rule for a memory the question clearly means was set: `python -m bench.meant_fit [--splits N]`.

engram.recall.confidence's `meant` lifts a memory standing alone to medium confidence when its cosine to the query
as asked, less SHARED x its coverage of the question's words, is at least MEANT and it leads every other memory's
cosine by MEANT_LEAD. This reads the user-level development questions once (recall's ranked hits with their
components, as `bench.userlevel` builds the store), then replays the rule for a grid of its three settings: on
all the questions (answerable questions whose first sure answer becomes right, questions nothing answers that get
a sure answer), and cross-validated on random halves (settings chosen on one half as the most answers gained with
no unanswerable question lifted, measured on the other). Results: bench/results/meant_fit.json and .md.

`--across` chooses the settings on every user-level set but one (the development split and the other users'
sets, never the held-out split) and measures them on that one, the sets written to be scored apart measured with
the setting chosen on all the others; and reports how well each signal at hand (the match's own, the fused
score's margin over the second hit, the lexical and semantic rankings agreeing) tells an answer left low from a
near miss. Results: bench/results/meant_fit_sets.json and .md.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import time_machine
from sklearn.metrics import roc_auc_score

from bench.userlevel import DATA, NOW, RESULTS_DIR, Bench, load_jsonl, load_memories, load_questions
from engram import Memory
from engram.lang.text import unspaced
from engram.recall.confidence import LEVELS, MEANT, MEANT_LEAD, SHARED, confidence_of

SHAREDS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)
FLOORS = tuple(round(0.36 + 0.02 * i, 2) for i in range(9))
LEADS = (0.05, 0.08, 0.1, 0.12, 0.15)
KEPT = 8  # accurate recall keeps at most this many hits

Setting = tuple[float, float, float]


def collect(
    memories: Sequence[dict[str, Any]] | None = None, questions: Sequence[dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """Each question (by default the development ones) with its ranked hits: key, the components `meant` reads,
    the confidence without it (low when a rule of what is asked lowered the hit) and whether the rule may apply."""
    out = []
    with tempfile.TemporaryDirectory() as folder, Memory(Path(folder) / "user.db") as memory:
        bench = Bench(memory, load_memories() if memories is None else memories)
        for q in load_questions("dev") if questions is None else questions:
            with time_machine.travel(NOW, tick=False):
                hits = memory.recall(q["q"], mode="ranked", now=NOW, touch=False)
            rows = []
            for h in hits:
                alone = h.record.episode_id is None and h.record.parent_id is None and not unspaced(q["q"])
                judged = confidence_of(h.components, by_meaning=alone)
                lowered = h.confidence == "low" and judged != "low"
                base = "low" if lowered else confidence_of(h.components)
                rows.append(
                    {
                        "key": bench.key(h.record.id),
                        "cosine": h.components["cosine"],
                        "coverage": h.components["coverage"],
                        "lead": h.components["lead"],
                        "lexical": h.components["lexical"],
                        "score": h.score,
                        "first_by_words": h.components["bm25"] >= max(x.components["bm25"] for x in hits) > 0,
                        "base": base,
                        "may": alone and not lowered,
                    }
                )
            out.append({"q": q["q"], "answers": q["answers"], "hits": rows})
    return out


def outcomes(questions: Sequence[dict[str, Any]], setting: Setting) -> list[tuple[bool, int]]:
    """For each question: whether it is answerable, and what the rule changes: +1 / -1 an answerable question's
    first sure answer becomes right / wrong, 1 a question nothing answers gets a sure answer it had not."""
    shared, floor, lead = setting

    def sure(h: dict[str, Any]) -> bool:
        lifted = h["may"] and h["cosine"] - shared * h["coverage"] >= floor and h["lead"] >= lead
        return LEVELS.index(h["base"]) >= 1 or lifted

    out = []
    for q in questions:
        before = [h["key"] for h in q["hits"][:KEPT] if LEVELS.index(h["base"]) >= 1]
        after = [h["key"] for h in q["hits"][:KEPT] if sure(h)]
        if q["answers"]:
            right = bool(after) and after[0] in q["answers"]
            was = bool(before) and before[0] in q["answers"]
            out.append((True, int(right) - int(was)))
        else:
            out.append((False, int(bool(after) and not before)))
    return out


def _sums(found: Sequence[tuple[bool, int]], part: Callable[[int], bool]) -> tuple[int, int, int, int]:
    gained = sum(x for i, (a, x) in enumerate(found) if a and part(i))
    lifted = sum(x for i, (a, x) in enumerate(found) if not a and part(i))
    answerable = sum(1 for i, (a, _) in enumerate(found) if a and part(i))
    return gained, lifted, answerable, sum(1 for i in range(len(found)) if part(i)) - answerable


def _halves(
    table: dict[Setting, list[tuple[bool, int]]], grid: Sequence[Setting], splits: int, seed: int
) -> tuple[Counter[Setting], float, float]:
    """The settings of `grid` chosen on random halves (the most answers gained with no unanswerable question
    lifted, the strictest on a tie), and the shares they gain and lift on the other halves, on average."""
    size = len(next(iter(table.values())))
    rng = random.Random(seed)
    chosen: Counter[Setting] = Counter()
    gained_share, lifted_share = 0.0, 0.0
    for _ in range(splits):
        order = list(range(size))
        rng.shuffle(order)
        fit = set(order[: size // 2])
        allowed = [g for g in grid if _sums(table[g], fit.__contains__)[1] == 0]
        best = max(allowed, key=lambda g: (_sums(table[g], fit.__contains__)[0], g[1], g[2]))
        chosen[best] += 1
        held = set(order) - fit
        gained, lifted, answerable, unanswerable = _sums(table[best], held.__contains__)
        gained_share += gained / answerable / splits
        lifted_share += lifted / unanswerable / splits
    return chosen, gained_share, lifted_share


def cross_validated(questions: Sequence[dict[str, Any]], splits: int, seed: int = 36) -> dict[str, Any]:
    """Settings chosen on random halves, measured on the other halves; and the same without the discount."""
    grid = list(itertools.product(SHAREDS, FLOORS, LEADS))
    table = {g: outcomes(questions, g) for g in grid}
    chosen, gained, lifted = _halves(table, grid, splits, seed)
    _, plain_gained, plain_lifted = _halves(table, [g for g in grid if g[0] == 0.0], splits, seed)
    fixed, fixed_gained, fixed_lifted = _halves(table, [g for g in grid if g[0] == SHARED], splits, seed)
    everything = _sums(table[(SHARED, MEANT, MEANT_LEAD)], lambda i: True)
    return {
        "splits": splits,
        "chosen": [[list(g), n] for g, n in chosen.most_common(5)],
        "held_apart_answers_gained": round(gained, 3),
        "held_apart_unanswerable_lifted": round(lifted, 3),
        "setting": [SHARED, MEANT, MEANT_LEAD],
        "all_questions": {"answers_gained": everything[0], "unanswerable_lifted": everything[1]},
        "discount_fixed_held_apart": {
            "chosen": [[list(g), n] for g, n in fixed.most_common(3)],
            "answers_gained": round(fixed_gained, 3),
            "unanswerable_lifted": round(fixed_lifted, 3),
        },
        "grid_without_discount_held_apart": {
            "answers_gained": round(plain_gained, 3),
            "unanswerable_lifted": round(plain_lifted, 3),
        },
    }


# Across the user-level sets: settings are chosen on every fitting set but one and measured on that one. The
# sets written to be scored apart (bakery, translator) take no part in any choice; they are measured with the
# setting chosen on all the fitting sets.
FIT_SETS = ("dev", "errands", "homelife", "retired", "typos", "hand")
APART_SETS = ("bakery", "translator")
# What may tell an answer left low from a near miss, read on each question with nothing above low whose first
# hit stands alone: the match's own signals, the fused score's margin over the second hit, whether the lexical
# and the semantic rankings agree on it, and the discounted cosine `meant` reads.
SIGNALS: dict[str, Callable[[dict[str, Any], dict[str, Any] | None], float]] = {
    "cosine": lambda h, _: h["cosine"],
    "coverage": lambda h, _: h["coverage"],
    "lead": lambda h, _: h["lead"],
    "lexical": lambda h, _: h["lexical"],
    "margin": lambda h, n: h["score"] - (n["score"] if n else 0.0),
    "agree": lambda h, _: float(h["first_by_words"] and h["lead"] > 0),
    "discounted": lambda h, _: h["cosine"] - SHARED * h["coverage"],
}


def collect_sets(names: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    """Each named set's questions with their ranked hits (`collect`); "dev" is the development split."""
    return {
        n: collect()
        if n == "dev"
        else collect(load_jsonl(DATA / n / "memories.jsonl"), load_jsonl(DATA / n / "questions.jsonl"))
        for n in names
    }


def across_sets(collected: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """The rule's settings chosen on all fitting sets but one (the most answers gained with no unanswerable
    question lifted) and measured on it; then chosen on all of them and measured on the sets kept apart."""
    grid = list(itertools.product(SHAREDS, FLOORS, LEADS))
    tables = {n: {g: outcomes(qs, g) for g in grid} for n, qs in collected.items()}

    def choose(names: Sequence[str]) -> Setting:
        def total(g: Setting) -> tuple[int, int]:
            sums = [_sums(tables[n][g], lambda i: True) for n in names]
            return sum(x[0] for x in sums), sum(x[1] for x in sums)

        allowed = [g for g in grid if total(g)[1] == 0] or grid
        return max(allowed, key=lambda g: (total(g)[0], g[1], g[2]))

    def measured(name: str, g: Setting) -> dict[str, Any]:
        gained, lifted, answerable, unanswerable = _sums(tables[name][g], lambda i: True)
        return {"setting": list(g), "gained": gained, "answerable": answerable, "lifted": lifted} | {
            "unanswerable": unanswerable
        }

    fit = [n for n in FIT_SETS if n in collected]
    out = {n: measured(n, choose([m for m in fit if m != n])) for n in fit}
    everywhere = choose(fit)
    out |= {n: measured(n, everywhere) for n in APART_SETS if n in collected}
    shipped = (SHARED, MEANT, MEANT_LEAD)
    shown = {n: measured(n, shipped) for n in collected}
    return {"by_set": out, "chosen_on_all": list(everywhere), "shipped": shown}


def separation(collected: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Of the questions with nothing above low whose first hit stands alone: how often that hit is right, and how
    well each signal tells it right (ROC AUC, per set and pooled; 0.5 is chance)."""
    rows: list[tuple[str, bool, dict[str, float]]] = []
    for name, qs in collected.items():
        for q in qs:
            hits = q["hits"]
            if not hits or any(LEVELS.index(h["base"]) >= 1 for h in hits[:KEPT]) or not hits[0]["may"]:
                continue
            nxt = hits[1] if len(hits) > 1 else None
            values = {s: f(hits[0], nxt) for s, f in SIGNALS.items()}
            rows.append((name, hits[0]["key"] in q["answers"], values))

    def auc(part: Sequence[tuple[str, bool, dict[str, float]]], signal: str) -> float | None:
        labels = [r for _, r, _ in part]
        if all(labels) or not any(labels):
            return None
        return round(float(roc_auc_score(labels, [v[signal] for _, _, v in part])), 3)

    names = list(collected)
    return {
        "questions": {n: sum(1 for r in rows if r[0] == n) for n in names},
        "right_first": {n: sum(1 for r in rows if r[0] == n and r[1]) for n in names},
        "auc": {
            s: {"all": auc(rows, s)} | {n: auc([r for r in rows if r[0] == n], s) for n in names}
            for s in SIGNALS
        },
    }


def markdown(results: dict[str, Any]) -> str:
    chosen = ", ".join(f"{tuple(g)} x{n}" for g, n in results["chosen"])
    plain = results["grid_without_discount_held_apart"]
    fixed = results["discount_fixed_held_apart"]
    return "\n".join(
        [
            "# A memory the question clearly means (`meant`)",
            "",
            f"User-level development questions, {results['splits']} random halves; settings (discount, floor, lead).",
            "",
            f"- Shipped setting {tuple(results['setting'])} on all the questions: "
            f"{results['all_questions']['answers_gained']} answers gained, "
            f"{results['all_questions']['unanswerable_lifted']} unanswerable questions lifted.",
            f"- Chosen on halves: {chosen}.",
            f"- Measured on the other halves: {results['held_apart_answers_gained']:.3f} of answerable questions "
            f"gained, {results['held_apart_unanswerable_lifted']:.3f} of unanswerable ones lifted.",
            f"- The discount fixed at {results['setting'][0]}, the floor and lead chosen on halves "
            f"({', '.join(f'{tuple(g)} x{n}' for g, n in fixed['chosen'])}): "
            f"{fixed['answers_gained']:.3f} gained, {fixed['unanswerable_lifted']:.3f} lifted.",
            f"- Without the discount (cosine and lead alone), chosen and measured the same way: "
            f"{plain['answers_gained']:.3f} gained, {plain['unanswerable_lifted']:.3f} lifted.",
            "",
        ]
    )


def sets_markdown(found: dict[str, Any]) -> str:
    """The across-sets tables: the rule's answers gained and questions lifted per set, then each signal's
    separation of answers left low from near misses."""
    across, sep = found["across_sets"], found["separation"]
    lines = [
        "# A memory the question clearly means (`meant`), across the user-level sets",
        "",
        "Settings (discount, floor, lead) chosen on every fitting set but the one measured (the most answers gained "
        f"with no unanswerable question lifted); the sets kept apart ({', '.join(APART_SETS)}) are measured with the "
        f"setting chosen on all fitting sets, {tuple(across['chosen_on_all'])}. Shipped: {(SHARED, MEANT, MEANT_LEAD)}.",
        "",
        "| set | setting | answers gained | answerable | unanswerable lifted | unanswerable | shipped: gained | lifted |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, row in across["by_set"].items():
        ship = across["shipped"][name]
        lines.append(
            f"| {name} | {tuple(row['setting'])} | {row['gained']} | {row['answerable']} | {row['lifted']} | "
            f"{row['unanswerable']} | {ship['gained']} | {ship['lifted']} |"
        )
    names = list(sep["questions"])
    lines += [
        "",
        "Questions with nothing above low whose first hit stands alone, and how many of those hits are right "
        "(an answer left low); then each signal's ROC AUC telling those right hits from wrong ones (0.5 is chance).",
        "",
        "| | all | " + " | ".join(names) + " |",
        "|---|---|" + "---|" * len(names),
        f"| questions | {sum(sep['questions'].values())} | "
        + " | ".join(str(sep["questions"][n]) for n in names)
        + " |",
        f"| right first | {sum(sep['right_first'].values())} | "
        + " | ".join(str(sep["right_first"][n]) for n in names)
        + " |",
    ]
    for signal, row in sep["auc"].items():
        lines.append(
            f"| {signal} | "
            + " | ".join("-" if row[k] is None else f"{row[k]:.3f}" for k in ["all", *names])
            + " |"
        )
    return "\n".join([*lines, ""])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.meant_fit", description=__doc__.split("\n")[0])
    parser.add_argument("--splits", type=int, default=50)
    parser.add_argument("--out", type=Path, default=RESULTS_DIR)
    parser.add_argument(
        "--across", action="store_true", help="choose on the user-level sets but one, measure on that one"
    )
    args = parser.parse_args(argv)
    if args.across:
        collected = collect_sets([*FIT_SETS, *APART_SETS])
        found = {"across_sets": across_sets(collected), "separation": separation(collected)}
        print(json.dumps(found, indent=1))
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "meant_fit_sets.json").write_text(json.dumps(found, indent=1) + "\n")
        (args.out / "meant_fit_sets.md").write_text(sets_markdown(found))
        return
    results = cross_validated(collect(), args.splits)
    print(json.dumps(results, indent=1))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "meant_fit.json").write_text(json.dumps(results, indent=1) + "\n")
    (args.out / "meant_fit.md").write_text(markdown(results))


if __name__ == "__main__":
    main()
