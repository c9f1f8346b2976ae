"""Recall as a user meets it: `python -m bench.userlevel [--split dev|heldout|all] [--set NAME]`.

The data (bench/data/userlevel, see its README) is one person's memories as people write them to an assistant,
two long documents among them, and questions worded unlike the memories, some that nothing stored answers. A
Memory with the real model and default settings is built in a temporary folder; every memory goes in through
`store_memory`, with the clock set to the day the memory was written (the tool takes no creation date), so that
"by Friday" is read from the day it was said. Every question is then asked at the benchmark's fixed moment of
both `recall` and `search_memory`. Reported per surface: hit@1 and hit@3 over answerable questions (a result that
is a document, or one of its passages, counts for the document; with a passage named, hit@1-passage also needs
the returned text to contain it), answerable questions answered with nothing, unanswerable questions answered
with anything, and, when results carry a `confidence`, how often that confidence is above "low". The due check
lists the things to do of every week a dated task falls in: each task must be in its week's list, and no rule or
habit in any. Results: bench/results/userlevel.json (keyed by split) and userlevel.md.

`--set NAME` scores another user's memories and questions instead, written apart from these
(bench/data/userlevel/NAME/memories.jsonl and questions.jsonl, the same format, every question scored and its
misses printed): results in bench/results/userlevel_NAME.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import time_machine
from sklearn.metrics import roc_auc_score

from bench.metrics import recall_any_at_k
from bench.retrieval import engram_digest
from engram import Memory
from engram.recall.confidence import strength

DATA = Path(__file__).resolve().parent / "data" / "userlevel"
RESULTS_DIR = Path(__file__).resolve().parent / "results"
NOW = datetime(2026, 11, 26, 10, 0, tzinfo=UTC)  # the benchmark's "now": every question is asked then
UNDATED = datetime(2026, 10, 1, 8, 0, tzinfo=UTC)  # when memories with no "created" day were written
SPLITS = ("dev", "heldout")
SURFACES = ("recall", "search_memory")
ABOVE_LOW = frozenset({"medium", "high"})
RULE_HINTS = frozenset({"rule", "habit"})
LISTING = "what do I have to do this week?"
NEXT_WEEK = "what do I have to do next week"


@dataclass(frozen=True)
class Result:
    """One returned memory: the data key it stands for (a passage stands for its document), the text returned
    and the confidence it was given, if any."""

    key: str
    text: str
    confidence: str | None = None


@dataclass(frozen=True)
class Outcome:
    type: str
    answerable: bool
    hit1: bool
    hit3: bool
    passage1: bool | None  # None: the question names no passage
    results: int
    above_low: bool | None  # None: no result carries a confidence
    repeated: bool  # one memory took more than one result slot


# --- data ---------------------------------------------------------------------------------------------------


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def load_memories() -> list[dict[str, Any]]:
    return load_jsonl(DATA / "memories.jsonl")


def load_questions(split: str) -> list[dict[str, Any]]:
    return load_jsonl(DATA / f"questions_{split}.jsonl")


def written_at(memory: Mapping[str, Any], index: int) -> datetime:
    """When a memory was written: 08:00 UTC on its "created" day (before NOW on the benchmark's own day), a
    minute apart in file order so that the order is kept."""
    created = memory.get("created")
    start = UNDATED if created is None else datetime.fromisoformat(created).replace(hour=8, tzinfo=UTC)
    return start + timedelta(minutes=index % 100)


def week_of(day: date) -> date:
    """The Monday of the week a day falls in."""
    return day - timedelta(days=day.weekday())


# --- scoring ------------------------------------------------------------------------------------------------


def outcome(question: Mapping[str, Any], results: Sequence[Result]) -> Outcome:
    """How one question went on one surface."""
    answers = set(question["answers"])
    keys = [r.key for r in results]
    passage = question.get("passage")
    confidences = [r.confidence for r in results if r.confidence is not None]
    return Outcome(
        type=question["type"],
        answerable=bool(answers),
        hit1=bool(answers) and bool(keys) and recall_any_at_k(keys, answers, 1) == 1.0,
        hit3=bool(answers) and bool(keys) and recall_any_at_k(keys, answers, 3) == 1.0,
        passage1=None
        if passage is None
        else bool(results) and results[0].key in answers and passage in results[0].text,
        results=len(results),
        above_low=None if not confidences else any(c in ABOVE_LOW for c in confidences),
        repeated=len(keys) != len(set(keys)),
    )


def _share(values: Iterable[bool]) -> float | None:
    items = list(values)
    return None if not items else round(sum(items) / len(items), 4)


def summary(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """The figures of a set of outcomes; shares are None when no question qualifies."""
    answerable = [o for o in outcomes if o.answerable]
    unanswerable = [o for o in outcomes if not o.answerable]
    passages = [o for o in answerable if o.passage1 is not None]
    rated = [o for o in outcomes if o.above_low is not None or o.results == 0]
    confident = any(o.above_low is not None for o in outcomes)
    return {
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "hit@1": _share(o.hit1 for o in answerable),
        "hit@3": _share(o.hit3 for o in answerable),
        "hit@1_passage": _share(bool(o.passage1) for o in passages),
        "passage_questions": len(passages),
        "empty_when_answerable": sum(o.results == 0 for o in answerable),
        "results_when_unanswerable": _share(o.results > 0 for o in unanswerable),
        "repeated_memory_share": _share(o.repeated for o in outcomes),
        # Confidence figures exist only once results carry one; no result at all counts as nothing above low.
        "unanswerable_above_low": _share(bool(o.above_low) for o in rated if not o.answerable)
        if confident
        else None,
        "answerable_none_above_low": sum(not o.above_low for o in rated if o.answerable)
        if confident
        else None,
    }


def by_type(outcomes: Sequence[Outcome]) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[o.type].append(o)
    return {name: summary(group) for name, group in sorted(groups.items())}


def due_check(
    tasks: Mapping[str, date], rules: Iterable[str], listed: Mapping[date, Sequence[str]]
) -> dict[str, Any]:
    """Each dated task (key: due day) must be in the list of the week its day falls in (`listed`: the keys
    listed for each week, by its Monday); no rule or habit may be in any list. Other memories listed are named."""
    missing = sorted(k for k, day in tasks.items() if k not in listed.get(week_of(day), ()))
    rule_keys = set(rules)
    shown = {k for keys in listed.values() for k in keys}
    return {
        "tasks": len(tasks),
        "listed_in_their_week": len(tasks) - len(missing),
        "missing": missing,
        "rules_listed": sorted(shown & rule_keys),
        # Neither a dated task nor a rule, yet listed as a thing to do: shown, not scored.
        "others_listed": sorted(shown - rule_keys - set(tasks)),
    }


# --- running ------------------------------------------------------------------------------------------------


class Bench:
    """A Memory holding the user's memories, asked as the user asks."""

    def __init__(self, memory: Memory, memories: Sequence[Mapping[str, Any]]) -> None:
        self.memory = memory
        self.owner: dict[str, str] = {}  # stored id -> data key
        self.outcomes: dict[str, int] = defaultdict(int)
        for index, item in enumerate(memories):
            with time_machine.travel(written_at(item, index), tick=False):
                stored = memory.store_memory(item["content"])
            self.outcomes[stored["outcome"]] += 1
            # A merge keeps the first key: both memories live on in one record, which answers for either.
            self.owner.setdefault(stored["memory_id"], item["key"])

    def key(self, memory_id: str) -> str:
        if memory_id not in self.owner:
            parent = self.memory.get(memory_id).parent_id
            self.owner[memory_id] = self.owner.get(parent or "", f"?{memory_id}")
        return self.owner[memory_id]

    def recall(self, question: str) -> list[Result]:
        with time_machine.travel(NOW, tick=False):
            hits = self.memory.recall(question, now=NOW, touch=False)
        return [Result(self.key(h.record.id), h.record.content, getattr(h, "confidence", None)) for h in hits]

    def strengths(self, question: str) -> list[tuple[str, float]]:
        """The first ten memories by score alone (recall's ranked mode), each with its match strength."""
        with time_machine.travel(NOW, tick=False):
            hits = self.memory.recall(question, mode="ranked", now=NOW, touch=False)
        return [(self.key(h.record.id), strength(h.components)) for h in hits]

    def search(self, question: str, now: datetime = NOW, limit: int = 10) -> list[Result]:
        with time_machine.travel(now, tick=False):
            found = self.memory.search_memory(question, {"limit": limit}, now=now, touch=False)
        return [Result(self.key(r["id"]), r["content"], _confidence(r)) for r in found["results"]]

    def weekly_lists(self, weeks: Iterable[date]) -> dict[date, list[str]]:
        """The things to do listed for each week: this week's and next week's asked now, as a user asks them;
        a later week's asked as "this week" on its Monday morning."""
        this = week_of(NOW.date())
        out: dict[date, list[str]] = {}
        for monday in sorted(set(weeks)):
            if monday == this:
                found = self.search(LISTING, limit=100)
            elif monday == this + timedelta(days=7):
                found = self.search(NEXT_WEEK, limit=100)
            else:
                found = self.search(
                    LISTING, now=datetime(monday.year, monday.month, monday.day, 9, tzinfo=UTC), limit=100
                )
            out[monday] = [r.key for r in found]
        return out


def _confidence(result: Mapping[str, Any]) -> str | None:
    value = result.get("confidence")
    return None if value is None else str(value)


def run_split(bench: Bench, questions: Sequence[Mapping[str, Any]], misses: bool) -> dict[str, Any]:
    """Every question on both surfaces; with `misses`, the questions a surface missed and what it returned."""
    surfaces: dict[str, Callable[[str], list[Result]]] = {
        "recall": bench.recall,
        "search_memory": bench.search,
    }
    out: dict[str, Any] = {}
    for name, ask in surfaces.items():
        outcomes, missed, started = [], [], time.perf_counter()
        for q in questions:
            results = ask(q["q"])
            o = outcome(q, results)
            outcomes.append(o)
            wrong = (o.answerable and not o.hit1) or (not o.answerable and o.results > 0)
            if misses and wrong:
                missed.append({"q": q["q"], "type": q["type"], "returned": [r.key for r in results[:3]]})
        out[name] = summary(outcomes) | {
            "by_type": by_type(outcomes),
            "elapsed_s": round(time.perf_counter() - started, 1),
        }
        if misses:
            out[name]["misses"] = missed
    return out


def separation(bench: Bench, questions: Sequence[Mapping[str, Any]]) -> float | None:
    """How well the match strength behind confidence tells answers from guesses, whatever its bands: the ROC AUC
    of the first hit's strength where it is right against the best hit's of questions nothing answers."""
    answers, guesses = [], []
    for q in questions:
        if not (found := bench.strengths(q["q"])) or not q["answers"]:
            guesses += [] if q["answers"] else [max((s for _, s in found), default=0.0)]
        elif found[0][0] in q["answers"]:
            answers.append(found[0][1])
    if not answers or not guesses:
        return None
    return round(float(roc_auc_score([1] * len(answers) + [0] * len(guesses), answers + guesses)), 3)


def markdown(results: Mapping[str, Any]) -> str:
    """The tables of userlevel.json."""
    out = [
        "# User-level recall",
        "",
        f"Asked at {results.get('now')}; {results.get('memories')} memories.",
        "",
    ]
    columns = [
        ("hit@1", "hit@1"),
        ("hit@3", "hit@3"),
        ("hit@1_passage", "hit@1 passage"),
        ("empty_when_answerable", "empty (answerable)"),
        ("results_when_unanswerable", "results (unanswerable)"),
        ("unanswerable_above_low", "unanswerable > low"),
        ("answerable_none_above_low", "answerable none > low"),
        ("repeated_memory_share", "repeated memory"),
    ]
    for split in SPLITS:
        part = results.get("splits", {}).get(split)
        if part is None:
            continue
        out += [f"## {split} ({part['questions']} questions, {part['date']})", ""]
        out += ["| surface | " + " | ".join(c[1] for c in columns) + " |", "|---" * (len(columns) + 1) + "|"]
        for surface in SURFACES:
            row = part[surface]
            out.append(f"| {surface} | " + " | ".join(_cell(row[c[0]]) for c in columns) + " |")
        if "separation" in part:
            out += ["", f"Confidence separation (ROC AUC, `separation`): {_cell(part['separation'])}."]
        out += ["", f"### {split}: by question type", ""]
        out += ["| type | n | " + " | ".join(f"{s} hit@1 | {s} hit@3" for s in SURFACES) + " |"]
        out.append("|---" * (2 + 2 * len(SURFACES)) + "|")
        for kind, row in part["recall"]["by_type"].items():
            other = part["search_memory"]["by_type"][kind]
            n = row["answerable"] or row["unanswerable"]
            cells = [row["hit@1"], row["hit@3"], other["hit@1"], other["hit@3"]]
            if not row["answerable"]:  # unanswerable: the share answered with anything
                cells = [row["results_when_unanswerable"], "", other["results_when_unanswerable"], ""]
            out.append(f"| {kind} | {n} | " + " | ".join(_cell(c) for c in cells) + " |")
        out.append("")
    out += due_lines(results.get("due_check"))
    out += [
        "## Notes",
        "",
        "- Memories stored through store_memory, each with the clock set to the day it was written; questions "
        "asked at the fixed now, recall and search_memory with their default options (10 results, accurate "
        "mode), touching nothing, so that no question changes the next one's ranking.",
        "- hit@k: an answer among the first k distinct memories (a document's passages count as the document, "
        "once). hit@1 passage: the first result is the document and its text holds the passage. Repeated "
        "memory: share of questions where one memory (a document's passages) took more than one result.",
        "- In the type tables, unanswerable rows give the share answered with anything. '-': not measured (no "
        "result carries a confidence yet).",
        f"- Engine sources (sha256 of engram/**/*.py, first 12 hex digits): {results.get('engram_sources')}.",
        "",
    ]
    return "\n".join(out)


def due_lines(due: Mapping[str, Any] | None) -> list[str]:
    """The due lists' figures in Markdown lines (none when the set has no dated task)."""
    if due is None:
        return []
    others = due.get("others_listed", [])
    return [
        "## Due lists",
        "",
        f"{due['listed_in_their_week']} of {due['tasks']} dated tasks listed in the week they are due.",
        f"Missing: {', '.join(due['missing']) or 'none'}.",
        f"Rules or habits listed as things to do: {', '.join(due['rules_listed']) or 'none'}.",
        f"Other memories listed as things to do (not scored): {', '.join(others) or 'none'}.",
        "",
    ]


def _cell(value: Any) -> str:
    if value is None or value == "":
        return "" if value == "" else "-"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def sets() -> list[str]:
    """The other users' sets: the folders of bench/data/userlevel holding memories and questions."""
    return sorted(
        p.parent.name for p in DATA.glob("*/questions.jsonl") if (p.parent / "memories.jsonl").exists()
    )


def surface_tables(title: str, results: Mapping[str, Any], columns: Sequence[str]) -> str:
    """A set's tables: each surface's figures in `columns`, then hit@1 and hit@3 by question type (for the
    questions nothing answers, the share answered with anything)."""
    out = [f"# {title}", "", f"Asked at {results['now']}; {results['memories']} memories, "]
    out[-1] += f"{results['questions']} questions ({results['date']})."
    out += ["", "| surface | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for surface in SURFACES:
        row = results[surface]
        out.append(f"| {surface} | " + " | ".join(_cell(row[c]) for c in columns) + " |")
    out += ["", "| type | n | recall hit@1 | recall hit@3 | search_memory hit@1 | search_memory hit@3 |"]
    out.append("|---|---|---|---|---|---|")
    for kind, row in results["recall"]["by_type"].items():
        other = results["search_memory"]["by_type"][kind]
        cells = [row["hit@1"], row["hit@3"], other["hit@1"], other["hit@3"]]
        if not row["answerable"]:  # unanswerable: the share answered with anything
            cells = [row["results_when_unanswerable"], "", other["results_when_unanswerable"], ""]
        n = row["answerable"] or row["unanswerable"]
        out.append(f"| {kind} | {n} | " + " | ".join(_cell(c) for c in cells) + " |")
    out += ["", f"Engine sources: {results['engram_sources']}.", ""]
    return "\n".join(out)


def set_markdown(name: str, results: Mapping[str, Any]) -> str:
    """The tables of userlevel_NAME.json."""
    columns = (*_SET_COLUMNS, "unanswerable_above_low", "answerable_none_above_low")
    tables = surface_tables(f"User-level recall: set {name}", results, columns)
    return "\n".join([tables, *due_lines(results.get("due_check"))])


def score_folder(folder: Path, *, separate: bool = False) -> dict[str, Any]:
    """The memories of `folder` stored in a fresh store and its questions asked: each surface's figures with its
    misses (and how well confidence separates answers from guesses, `separate`), the due lists of a set with
    dated tasks, stamped with the moment asked,
    the counts, the date and the engine's sources."""
    memories = load_jsonl(folder / "memories.jsonl")
    questions = load_jsonl(folder / "questions.jsonl")
    with tempfile.TemporaryDirectory() as scratch, Memory(Path(scratch) / "user.db") as memory:
        started = time.perf_counter()
        bench = Bench(memory, memories)
        print(f"stored {len(memories)} memories in {time.perf_counter() - started:.0f} s")
        part = run_split(bench, questions, misses=True)
        if separate:
            part["separation"] = separation(bench, questions)
        # A set with dated tasks is asked for each one's week too, as the main set is.
        tasks = {m["key"]: date.fromisoformat(m["due"]) for m in memories if "due" in m}
        if tasks:
            rules = [m["key"] for m in memories if m.get("kind_hint") in RULE_HINTS]
            part["due_check"] = due_check(
                tasks, rules, bench.weekly_lists(week_of(d) for d in tasks.values())
            )
    return part | {
        "now": NOW.isoformat(),
        "memories": len(memories),
        "questions": len(questions),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "engram_sources": engram_digest(),
    }


def run_set(name: str, out: Path) -> None:
    """Score one other user's set and write userlevel_NAME.json and .md."""
    results = score_folder(DATA / name, separate=True)
    for surface in SURFACES:
        row = results[surface]
        print(f"{surface}: " + ", ".join(f"{k} {row[k]}" for k in row if k not in _LONG))
        for miss in row["misses"]:
            print(f"  {surface} miss [{miss['type']}] {miss['q']!r} -> {miss['returned']}")
    if "due_check" in results:
        print(f"due lists: {results['due_check']}")
    out.mkdir(parents=True, exist_ok=True)
    (out / f"userlevel_{name}.json").write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    (out / f"userlevel_{name}.md").write_text(set_markdown(name, results))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.userlevel", description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=[*SPLITS, "all"], default="dev")
    parser.add_argument(
        "--set", choices=sets(), default=None, help="another user's set instead of the splits"
    )
    parser.add_argument("--out", type=Path, default=RESULTS_DIR, help="where userlevel.json/.md go")
    args = parser.parse_args(argv)
    if args.set is not None:
        run_set(args.set, args.out)
        return
    splits = list(SPLITS) if args.split == "all" else [args.split]
    memories = load_memories()
    path = args.out / "userlevel.json"
    results: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    with tempfile.TemporaryDirectory() as folder, Memory(Path(folder) / "user.db") as memory:
        started = time.perf_counter()
        bench = Bench(memory, memories)
        print(
            f"stored {len(memories)} memories in {time.perf_counter() - started:.0f} s: {dict(bench.outcomes)}"
        )
        tasks = {m["key"]: date.fromisoformat(m["due"]) for m in memories if "due" in m}
        rules = [m["key"] for m in memories if m.get("kind_hint") in RULE_HINTS]
        due = due_check(tasks, rules, bench.weekly_lists(week_of(d) for d in tasks.values()))
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        for split in splits:
            questions = load_questions(split)
            # Which held-out questions failed stays out of the results: only their figures are kept.
            part = run_split(bench, questions, misses=split == "dev")
            part["separation"] = separation(bench, questions)
            results.setdefault("splits", {})[split] = part | {"questions": len(questions), "date": stamp}
            for surface in SURFACES:
                row = part[surface]
                print(f"{split} {surface}: " + ", ".join(f"{k} {row[k]}" for k in row if k not in _LONG))
    results |= {
        "now": NOW.isoformat(),
        "memories": len(memories),
        "store_outcomes": dict(bench.outcomes),
        "due_check": due,
        "engram_sources": engram_digest(),
        "machine": {
            "nproc": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
    }
    print(f"due lists: {due}")
    args.out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    (args.out / "userlevel.md").write_text(markdown(results))


_LONG = frozenset({"by_type", "misses"})
_SET_COLUMNS = ("hit@1", "hit@3", "hit@1_passage", "empty_when_answerable", "results_when_unanswerable")

if __name__ == "__main__":
    main()
