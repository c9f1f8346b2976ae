"""The user-level benchmark: its data is well formed, and its figures say what they claim."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bench.userlevel import (
    NOW,
    SPLITS,
    Bench,
    Outcome,
    Result,
    by_type,
    due_check,
    load_memories,
    load_questions,
    markdown,
    outcome,
    summary,
    week_of,
    written_at,
)
from engram import FakeEmbedder, Memory, Settings

MEMORIES = load_memories()
KEYS = {m["key"] for m in MEMORIES}
QUESTIONS = {split: load_questions(split) for split in SPLITS}
ALL = [q for split in SPLITS for q in QUESTIONS[split]]
HAN = re.compile(r"[\u4e00-\u9fff]")


# --- the data -----------------------------------------------------------------------------------------------


def test_memories_are_well_formed() -> None:
    assert len(MEMORIES) >= 150
    assert len(KEYS) == len(MEMORIES), "keys are unique"
    for m in MEMORIES:
        assert set(m) <= {"key", "content", "kind_hint", "created", "due"}, m["key"]
        assert isinstance(m["content"], str) and m["content"].strip(), m["key"]
        if "created" in m:
            assert date.fromisoformat(m["created"]) <= NOW.date(), m["key"]
        if "due" in m:
            assert m.get("kind_hint") == "task", m["key"]
            assert "created" in m, f"{m['key']}: a dated task says when it was written"
            assert date.fromisoformat(m["due"]) >= date.fromisoformat(m["created"]), m["key"]


def test_two_long_documents_and_some_chinese() -> None:
    long = [m for m in MEMORIES if len(m["content"].split()) >= 1500]
    assert len(long) >= 2
    assert len([m for m in MEMORIES if HAN.search(m["content"])]) >= 3


def test_dated_tasks_and_rules_for_the_due_check() -> None:
    due = [m for m in MEMORIES if "due" in m]
    assert len(due) >= 15
    assert any(week_of(date.fromisoformat(m["due"])) == week_of(NOW.date()) for m in due)
    assert any(week_of(date.fromisoformat(m["due"])) > week_of(NOW.date()) for m in due)
    assert len([m for m in MEMORIES if m.get("kind_hint") in {"rule", "habit"}]) >= 10


def test_questions_are_well_formed() -> None:
    answerable = [q for q in ALL if q["answers"]]
    assert len(answerable) >= 200
    assert len(ALL) - len(answerable) >= 40
    assert len({q["q"] for q in ALL}) == len(ALL), "no question asked twice"
    contents = {m["key"]: m["content"] for m in MEMORIES}
    for q in ALL:
        assert set(q) <= {"q", "answers", "type", "passage"}, q["q"]
        assert set(q["answers"]) <= KEYS, q["q"]
        assert (q["type"] == "unanswerable") == (not q["answers"]), q["q"]
        if "passage" in q:  # the passage is in a document the question names as an answer
            assert any(q["passage"] in contents[k] for k in q["answers"]), q["q"]


def test_the_split_is_about_sixty_forty_with_the_same_type_mix() -> None:
    dev, held = QUESTIONS["dev"], QUESTIONS["heldout"]
    assert 0.55 <= len(dev) / len(ALL) <= 0.65
    assert {q["q"] for q in dev}.isdisjoint(q["q"] for q in held)
    for kind in {q["type"] for q in ALL}:
        n_dev = sum(q["type"] == kind for q in dev)
        n_all = sum(q["type"] == kind for q in ALL)
        assert abs(n_dev - 0.6 * n_all) <= 1, kind


def test_questions_are_not_copies_of_memories() -> None:
    contents = [m["content"].lower() for m in MEMORIES]
    for q in ALL:
        text = q["q"].lower().rstrip("?")
        assert not any(text == c.rstrip(".") for c in contents), q["q"]


# --- the figures --------------------------------------------------------------------------------------------


def _q(answers: list[str], kind: str = "paraphrase", passage: str | None = None) -> dict[str, object]:
    out: dict[str, object] = {"q": "?", "answers": answers, "type": kind}
    if passage is not None:
        out["passage"] = passage
    return out


def test_outcome_counts_hits_at_one_and_three() -> None:
    results = [Result("m2", "b"), Result("m9", "c"), Result("m1", "a")]
    third = outcome(_q(["m1"]), results)
    assert (third.hit1, third.hit3, third.results) == (False, True, 3)
    first = outcome(_q(["m2", "m7"]), results)  # any one answer counts
    assert (first.hit1, first.hit3) == (True, True)
    fourth = outcome(_q(["m4"]), [*results, Result("m4", "d")])
    assert (fourth.hit1, fourth.hit3) == (False, False)
    assert outcome(_q(["m1"]), []) == Outcome("paraphrase", True, False, False, None, 0, None, False)


def test_a_document_passage_counts_once_and_must_hold_the_passage() -> None:
    doc = [Result("d", "the job runs at 02:30 UTC"), Result("d", "another passage"), Result("m1", "x")]
    o = outcome(_q(["d"], "document", "02:30 UTC"), doc)
    assert o.hit1 and o.passage1 and o.repeated
    wrong_passage = outcome(_q(["d"], "document", "72 hours"), doc)
    assert wrong_passage.hit1 and wrong_passage.passage1 is False
    # m1 is third in the list but second once the document's passages count as one
    assert outcome(_q(["m1"]), [*doc, Result("m5", "y")]).hit3


def test_confidence_above_low() -> None:
    assert outcome(_q([]), [Result("m1", "", "low"), Result("m2", "", "medium")]).above_low is True
    assert outcome(_q([]), [Result("m1", "", "low")]).above_low is False
    assert outcome(_q([]), [Result("m1", "")]).above_low is None


def test_summary_of_hand_made_outcomes() -> None:
    def o(answerable: bool, hit1: bool, hit3: bool, n: int, above: bool | None = None) -> Outcome:
        return Outcome("t", answerable, hit1, hit3, None, n, above, False)

    outcomes = [
        o(True, True, True, 3),
        o(True, False, True, 2),
        o(True, False, False, 0),
        o(False, False, False, 1),
    ]
    s = summary([*outcomes, o(False, False, False, 0)])
    assert s["answerable"] == 3 and s["unanswerable"] == 2
    assert s["hit@1"] == pytest.approx(1 / 3, abs=1e-4)
    assert s["hit@3"] == pytest.approx(2 / 3, abs=1e-4)
    assert s["empty_when_answerable"] == 1
    assert s["results_when_unanswerable"] == 0.5
    assert s["unanswerable_above_low"] is None and s["answerable_none_above_low"] is None
    rated = summary([o(True, True, True, 1, True), o(True, True, True, 1, False), o(True, False, False, 0)])
    assert rated["answerable_none_above_low"] == 2  # a low answer and no answer
    rated = summary(
        [o(False, False, False, 1, True), o(False, False, False, 1, False), o(False, False, False, 0)]
    )
    assert rated["unanswerable_above_low"] == pytest.approx(1 / 3, abs=1e-4)


def test_by_type_groups_outcomes() -> None:
    a = Outcome("kinship", True, True, True, None, 1, None, False)
    b = Outcome("spelling", True, False, False, None, 0, None, False)
    groups = by_type([a, b, a])
    assert groups["kinship"]["hit@1"] == 1.0 and groups["kinship"]["answerable"] == 2
    assert groups["spelling"]["hit@3"] == 0.0 and groups["spelling"]["empty_when_answerable"] == 1


def test_due_check_wants_each_task_in_its_own_week_and_no_rule() -> None:
    tasks = {"t1": date(2026, 11, 27), "t2": date(2026, 12, 2), "t3": date(2026, 12, 9)}
    listed = {
        date(2026, 11, 23): ["t1", "r1"],
        date(2026, 11, 30): ["t3"],  # t3 is listed a week early, t2 not at all
        date(2026, 12, 7): ["t3", "p1"],
    }
    check = due_check(tasks, ["r1", "r2"], listed)
    assert check == {
        "tasks": 3,
        "listed_in_their_week": 2,
        "missing": ["t2"],
        "rules_listed": ["r1"],
        "others_listed": ["p1"],
    }


def test_weeks_and_writing_times() -> None:
    assert week_of(date(2026, 11, 26)) == date(2026, 11, 23)
    assert week_of(date(2026, 11, 29)) == date(2026, 11, 23)
    assert week_of(date(2026, 11, 30)) == date(2026, 11, 30)
    said_today = written_at({"created": "2026-11-26"}, 59)
    assert said_today.date() == NOW.date() and said_today < NOW
    assert written_at({}, 0) < written_at({}, 1) < NOW


def test_markdown_renders_every_split_run() -> None:
    row = summary([Outcome("paraphrase", True, True, True, None, 1, None, False)]) | {
        "by_type": by_type([Outcome("paraphrase", True, True, True, None, 1, None, False)])
    }
    text = markdown(
        {
            "now": "x",
            "memories": 1,
            "splits": {"dev": {"recall": row, "search_memory": row, "questions": 1, "date": "d"}},
        }
    )
    assert (
        "| recall | 1.000 | 1.000 |" in text and "| paraphrase | 1 | 1.000" in text and "heldout" not in text
    )


# --- the runner, on a tiny store with the fake embedder ------------------------------------------------------


def test_bench_stores_on_the_day_written_and_maps_passages_to_their_document(
    tmp_path: Path, settings: Settings
) -> None:
    document = " ".join(
        f"Section {i} says the reconciliation job number {i} runs nightly." for i in range(300)
    )
    memories = [
        {"key": "a", "content": "Submit the OKR draft by Friday.", "created": "2026-11-23"},
        {"key": "doc", "content": document, "created": "2026-11-09"},
    ]
    with Memory(tmp_path / "u.db", embedder=FakeEmbedder(), settings=settings) as memory:
        bench = Bench(memory, memories)
        ids = {key: mid for mid, key in bench.owner.items()}
        assert memory.get(ids["a"]).created_at.date() == date(2026, 11, 23)
        chunks = memory.chunks(ids["doc"])
        assert len(chunks) > 1
        assert {bench.key(c.id) for c in chunks} == {"doc"}
        found = bench.search("reconciliation job number 250", now=datetime(2026, 11, 26, 10, tzinfo=UTC))
        assert all(r.key in {"a", "doc"} for r in found)
