"""bench.userlevel's other users' sets: found by folder, every answer a memory of the set, every passage in its
document, and the set's tables."""

from __future__ import annotations

import pytest
from test_bench_wording import check_questions

from bench.userlevel import DATA, load_jsonl, main, set_markdown, sets


def test_the_sets_are_the_folders_with_memories_and_questions() -> None:
    assert {"errands", "freelance", "allotment", "phd"} <= set(sets())
    with pytest.raises(SystemExit):  # a set that is no folder here is refused by name
        main(["--set", "nosuchset"])


@pytest.mark.parametrize("name", sets())
def test_every_answer_is_a_memory_of_its_set(name: str) -> None:
    check_questions(DATA / name)
    questions = load_jsonl(DATA / name / "questions.jsonl")
    assert len({q["q"] for q in questions}) == len(questions)


def test_the_set_tables_show_each_surface_and_type() -> None:
    row = {"hit@1": 0.5, "hit@3": 1.0, "hit@1_passage": None, "empty_when_answerable": 0}
    row |= {"results_when_unanswerable": 0.25, "unanswerable_above_low": 0.5, "answerable_none_above_low": 3}
    kinds = {"kinship": row | {"answerable": 2, "unanswerable": 0}}
    kinds["unanswerable"] = row | {"answerable": 0, "unanswerable": 4}
    surface = row | {"by_type": kinds}
    text = set_markdown(
        "errands",
        {"now": "n", "memories": 3, "questions": 6, "date": "d", "engram_sources": "x"}
        | {"recall": surface, "search_memory": surface},
    )
    assert "set errands" in text
    assert "| recall | 0.500 | 1.000 | - | 0 | 0.250 | 0.500 | 3 |" in text
    assert "| kinship | 2 | 0.500 | 1.000 | 0.500 | 1.000 |" in text
    assert "| unanswerable | 4 | 0.250 |  | 0.250 |  |" in text


def test_a_set_with_dated_tasks_shows_its_due_lists() -> None:
    row = {"hit@1": 0.5, "hit@3": 1.0, "hit@1_passage": None, "empty_when_answerable": 0}
    row |= {"results_when_unanswerable": 0.25, "unanswerable_above_low": 0.5, "answerable_none_above_low": 3}
    surface = row | {"by_type": {"kinship": row | {"answerable": 2, "unanswerable": 0}}}
    due = {"tasks": 3, "listed_in_their_week": 2, "missing": ["n07"], "rules_listed": ["n16"]}
    head = {"now": "n", "memories": 3, "questions": 6, "date": "d", "engram_sources": "x"}
    text = set_markdown("nurse", head | {"recall": surface, "search_memory": surface, "due_check": due})
    assert "2 of 3 dated tasks listed in the week they are due." in text
    assert "Missing: n07." in text and "Rules or habits listed as things to do: n16." in text
    assert "Due lists" not in set_markdown("errands", head | {"recall": surface, "search_memory": surface})
