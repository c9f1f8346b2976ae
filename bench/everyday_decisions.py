"""What store_memory decides on its own, judged against labels written before any prediction:
`python -m bench.everyday_decisions [--set PATH] [--misses]`.

The set (bench/data/everyday_fourth_user.jsonl, 100 memories of several people: a teacher, a backend developer,
a retired pharmacist writing German, a PhD student writing English and Chinese, a photographer writing chat-like
lines, a restaurant owner, and household lines) holds per memory its kind (`a|b` where the kinds' definitions
truly overlap: either counts), its category, its due day (`created` is the day it was said, a Monday) and
whether it should be listed as a thing to do (`reminder`: true, false, or null when either is fine).
A fifth user's set (bench/data/everyday_fifth_user.jsonl, 40 lines of one person, said on Monday 30 November, in
fragments, lists, dates of several forms, German and Chinese) is read with `--set` and the same labels, as is a
sixth user's (bench/data/everyday_sixth_user.jsonl, 40 lines of one person said on Monday 7 December: a landscape
architect with a partner, an elderly father and a choir; fragments, lists, dates as "Fri 11th", "19.12.", "31/12",
German lines), labelled before any prediction and held apart from the changes measured on the others; so is a
seventh user's (bench/data/everyday_seventh_user.jsonl, 40 lines of one person said on Monday 14 December: an
electrician with a partner, twins and a mother abroad; fragments, lists, household schedules, meeting notes,
statements about the user without "I", dates as "Wed 16/12", "31 Dec", "2027-01-12", German lines), and an eighth's
(bench/data/everyday_eighth_user.jsonl, 40 lines of one person said on Monday 4 January: a translator with a
husband, a teenage son and a mother-in-law with dementia; family and health statements without "I", meeting notes,
household schedules, dates as "Thu 14/1", "31.01.", "the 20th", German lines), and a ninth's
(bench/data/everyday_ninth_user.jsonl, 40 lines of one person said on Monday 1 February: an aquarist with a partner,
a baby and a father with a heart condition; profile and health fragments, relatives' facts and weekly slots
without "I", meeting notes and a debrief, dates as "Tue 9/2", "15.02.", "Sunday 7th", German lines). The first three
users' sets, which label kinds only, are read for their kinds.

Every memory goes in through `store_memory` with the clock at 08:00 of its day, into one fresh store (neighbour
votes and learning take part). Reported: kind accuracy and fallback share, category accuracy (undecided counts
wrong), due day exact and in the right week, dated tasks in their week's list, rules and habits listed, tags per
memory and tags that end in a verb form or repeat the text's clause, importance spread, review status.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import time_machine

from bench.tags import _ends_in_verb
from bench.userlevel import RESULTS_DIR
from engram import Memory

ROOT = Path(__file__).resolve().parent
DEFAULT = ROOT / "data" / "everyday_fourth_user.jsonl"
LISTING = "what do I have to do this week?"
# The day a memory is said when its set names none (the first three users' sets label kinds only): a Monday.
SAID_ON = "2026-11-30"

RESULTS = RESULTS_DIR / "everyday_decisions.json"


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def week_of(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _stored(memory: Memory, rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for i, row in enumerate(rows):
        at = datetime.fromisoformat(row.get("created", SAID_ON)).replace(hour=8, minute=i % 60, tzinfo=UTC)
        with time_machine.travel(at, tick=False):
            got = memory.store_memory(row["content"])
        record = memory.get(got["memory_id"])
        analysis = got["analysis"]
        out.append(
            {
                "id": got["memory_id"],
                "kind": analysis["kind"],
                "method": record.kind_method,
                "category": analysis["detected_category"],
                "tags": analysis["generated_tags"],
                "importance": analysis["importance_score"],
                "due": analysis.get("due_date"),
                "status": record.status,
            }
        )
    return out


def _listed(memory: Memory, weeks: set[date]) -> dict[date, set[str]]:
    """The ids listed as things to do in each week, asked on its Monday morning."""
    out = {}
    for monday in weeks:
        now = datetime(monday.year, monday.month, monday.day, 9, tzinfo=UTC)
        with time_machine.travel(now, tick=False):
            found = memory.search_memory(LISTING, {"limit": 100}, now=now, touch=False)
        out[monday] = {r["id"] for r in found["results"]}
    return out


def score(rows: Sequence[Mapping[str, Any]], got: Sequence[Mapping[str, Any]], listed: Any) -> dict[str, Any]:
    n = len(rows)
    kind_ok = [g["kind"] in r["kind"].split("|") for r, g in zip(rows, got, strict=True)]
    # A set that labels kinds only is read for them alone: no category, due day or listing is scored.
    cat_ok = [g["category"] == r["category"] for r, g in zip(rows, got, strict=True) if "category" in r]
    dated = [(r, g) for r, g in zip(rows, got, strict=True) if r.get("due") and r.get("reminder")]
    exact = sum(g["due"] == r["due"] for r, g in dated)
    week = sum(
        g["due"] is not None
        and week_of(date.fromisoformat(g["due"])) == week_of(date.fromisoformat(r["due"]))
        for r, g in dated
    )
    in_list = [r["key"] for r, g in dated if g["id"] in listed.get(week_of(date.fromisoformat(r["due"])), ())]
    shown = set().union(*listed.values()) if listed else set()
    not_reminders = [
        r["key"] for r, g in zip(rows, got, strict=True) if r.get("reminder") is False and g["id"] in shown
    ]
    tags = [g["tags"] for g in got]
    verbs = [
        f"{t} <- {r['content']}"
        for r, g in zip(rows, got, strict=True)
        for t in g["tags"]
        if _ends_in_verb(t, r["content"])
    ]
    return {
        "memories": n,
        "kind_accuracy": round(sum(kind_ok) / n, 3),
        "kind_fallback_share": round(sum(g["method"] == "fallback" for g in got) / n, 3),
        "category_accuracy": round(sum(cat_ok) / len(cat_ok), 3) if cat_ok else None,
        "category_undecided": sum(g["category"] is None for g in got),
        "dated_tasks": len(dated),
        "due_exact": exact,
        "due_right_week": week,
        "dated_tasks_listed_in_week": len(in_list),
        "not_reminders_listed": not_reminders,
        "tags_median": sorted(len(t) for t in tags)[n // 2],
        "tags_outside_2_6": sum(not 2 <= len(t) <= 6 for t in tags),
        "tags_ending_in_verb": verbs,
        "importance": dict(sorted(Counter(g["importance"] for g in got).items())),
        "status": dict(Counter(g["status"] for g in got)),
    }


def causes(rows: Sequence[Mapping[str, Any]], got: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """The misses grouped by what the set says each line is (its `kind_hint`: a rule, a family fact, meeting
    notes, a household schedule) and by the label taken for the right one, most frequent first: what fails in
    common, read before any change is tried."""
    out: dict[str, Counter[str]] = {"kind": Counter(), "category": Counter()}
    for r, g in zip(rows, got, strict=True):
        hint = r.get("kind_hint") or "?"
        if g["kind"] not in r["kind"].split("|"):
            out["kind"][f"{hint}: {r['kind']} -> {g['kind']}"] += 1
        if "category" in r and g["category"] != r["category"]:
            out["category"][f"{hint}: {r['category']} -> {g['category']}"] += 1
    return {part: dict(counts.most_common()) for part, counts in out.items()}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.everyday_decisions")
    parser.add_argument("--set", type=Path, default=DEFAULT)
    parser.add_argument("--misses", action="store_true", help="print every memory with a wrong decision")
    parser.add_argument("--dump", type=Path, help="write every decision as JSON lines")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the figures go (JSON)")
    args = parser.parse_args(argv)
    rows = load(args.set)
    with tempfile.TemporaryDirectory() as folder, Memory(Path(folder) / "m.db") as memory:
        got = _stored(memory, rows)
        weeks = {week_of(date.fromisoformat(r["due"])) for r in rows if r.get("due")}
        weeks |= {week_of(date.fromisoformat(r.get("created", SAID_ON))) for r in rows}
        listed = _listed(memory, weeks)
    result = score(rows, got, listed) | {"misses_by_hint": causes(rows, got)}
    print(json.dumps(result, indent=1, ensure_ascii=False))
    stamp = {"generated": datetime.now(UTC).isoformat(timespec="seconds"), "set": args.set.name}
    args.out.write_text(json.dumps(stamp | result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.dump:
        with args.dump.open("w", encoding="utf-8") as f:
            for r, g in zip(rows, got, strict=True):
                f.write(json.dumps({"key": r["key"], "content": r["content"]} | g, ensure_ascii=False) + "\n")
    if args.misses:
        for r, g in zip(rows, got, strict=True):
            wrong = []
            if g["kind"] not in r["kind"].split("|"):
                wrong.append(f"kind {r['kind']}->{g['kind']}({g['method']})")
            if "category" in r and g["category"] != r["category"]:
                wrong.append(f"cat {r['category']}->{g['category']}")
            if r.get("reminder") and r.get("due") and g["due"] != r["due"]:
                wrong.append(f"due {r['due']}->{g['due']}")
            if wrong:
                print(f"{r['key']}: {'; '.join(wrong)} | {r['content']}")


if __name__ == "__main__":
    main()
