"""bench.wording's data: every answer a stored memory, every passage in its document, and its tables."""

from __future__ import annotations

from pathlib import Path

from bench.userlevel import load_jsonl
from bench.wording import DATA, markdown

# A set may also name the language of its lines in another one ("welsh": asked about them, in it or in English).
TYPES = {
    "synonym",
    "category",
    "kinship",
    "paraphrase",
    "spelling",
    "time",
    "document",
    "unanswerable",
    "welsh",
    "polish",
    "portuguese",
    "spanish",
    "gujarati",
}


def check_questions(folder: Path) -> None:
    """A question set's folder: 40 memories and 80 questions at least, each of a known type, every answer a
    memory, answers exactly for the answerable, every passage in one of its answers."""
    memories = {m["key"]: m["content"] for m in load_jsonl(folder / "memories.jsonl")}
    questions = load_jsonl(folder / "questions.jsonl")
    assert len(memories) >= 40 and len(questions) >= 80
    for q in questions:
        assert q["type"] in TYPES, q
        assert all(a in memories for a in q["answers"]), q
        assert bool(q["answers"]) == (q["type"] != "unanswerable"), q
        if "passage" in q:
            assert any(q["passage"] in memories[a] for a in q["answers"]), q


def test_every_answer_is_a_memory_and_every_passage_is_in_its_document() -> None:
    check_questions(DATA)


def test_the_tables_show_each_surface_and_type() -> None:
    row = {"hit@1": 0.5, "hit@3": 1.0, "hit@1_passage": None, "empty_when_answerable": 0}
    row |= {"results_when_unanswerable": 0.25}
    kinds = {"kinship": row | {"answerable": 2, "unanswerable": 0}}
    kinds["unanswerable"] = row | {"answerable": 0, "unanswerable": 4}
    surface = row | {"by_type": kinds}
    text = markdown(
        {"now": "n", "memories": 3, "questions": 6, "date": "d", "engram_sources": "x"}
        | {"recall": surface, "search_memory": surface}
    )
    assert "| search_memory | 0.500 | 1.000 | - | 0 | 0.250 |" in text
    assert "| kinship | 2 | 0.500 | 1.000 | 0.500 | 1.000 |" in text
    assert "| unanswerable | 4 | 0.250 |  | 0.250 |  |" in text
