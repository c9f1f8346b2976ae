"""How the rule for a memory the question clearly means was set: `python -m bench.meant_fit [--splits N]`.

engram.recall.confidence's `meant` lifts a memory standing alone to medium confidence when its cosine to the query
as asked, less SHARED x its coverage of the question's words, is at least MEANT and it leads every other memory's
cosine by MEANT_LEAD. This reads the user-level development questions once (recall's ranked hits with their
components, as `bench.userlevel` builds the store), then replays the rule for a grid of its three settings: on
all the questions (answerable questions whose first sure answer becomes right, questions nothing answers that get
a sure answer), and cross-validated on random halves (settings chosen on one half as the most answers gained with
no unanswerable question lifted, measured on the other). Results: bench/results/meant_fit.json and .md.
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

from bench.userlevel import NOW, RESULTS_DIR, Bench, load_memories, load_questions
from engram import Memory
from engram.lang.text import unspaced
from engram.recall.confidence import LEVELS, MEANT, MEANT_LEAD, SHARED, confidence_of

SHAREDS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)
FLOORS = tuple(round(0.36 + 0.02 * i, 2) for i in range(9))
LEADS = (0.05, 0.08, 0.1, 0.12, 0.15)
KEPT = 8  # accurate recall keeps at most this many hits

Setting = tuple[float, float, float]


def collect() -> list[dict[str, Any]]:
    """Each development question with its ranked hits: key, the components `meant` reads, the confidence without
    it (low when a rule of what is asked lowered the hit) and whether the rule may apply."""
    out = []
    with tempfile.TemporaryDirectory() as folder, Memory(Path(folder) / "user.db") as memory:
        bench = Bench(memory, load_memories())
        for q in load_questions("dev"):
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


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.meant_fit", description=__doc__.split("\n")[0])
    parser.add_argument("--splits", type=int, default=50)
    parser.add_argument("--out", type=Path, default=RESULTS_DIR)
    args = parser.parse_args(argv)
    results = cross_validated(collect(), args.splits)
    print(json.dumps(results, indent=1))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "meant_fit.json").write_text(json.dumps(results, indent=1) + "\n")
    (args.out / "meant_fit.md").write_text(markdown(results))


if __name__ == "__main__":
    main()
