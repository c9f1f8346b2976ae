"""A researcher's long notes added as documents and asked about details deep inside them: each answer is the
document once, by the passage that holds the detail, and a passage starts where its section or sentence starts,
never with the tail of the section before it. Real model for the questions; the chunk rule is checked on its own."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engram import Memory
from engram.lang.chunk import chunk

NOTES = Path(__file__).parent / "fixtures" / "usage"


def _spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"\w+|[^\w\s]", text)]


def test_a_chunk_that_ends_at_a_section_does_not_overlap_into_it() -> None:
    sentence = " ".join(f"w{i}" for i in range(60)) + "."  # one long sentence of 61 tokens
    text = f"## First\n\nIntro words here.\n\n{sentence}\n\n## Second\n\nSecond section text. " + sentence
    chunks = chunk(text, _spans(text), 80, 40)
    assert not any(c.text.endswith("## Second") for c in chunks)  # a heading stays with its section
    second = next(c for c in chunks if "Second" in c.text)
    assert second.text.startswith("## Second")  # not "w40 w41 ..." from the section before


def test_an_overlap_still_starts_at_a_sentence_inside_a_paragraph() -> None:
    sentences = [" ".join(f"s{n}w{i}" for i in range(12)) + "." for n in range(20)]  # 13 tokens each
    text = " ".join(sentences)
    chunks = chunk(text, _spans(text), 80, 30)
    assert len(chunks) > 2
    assert all(c.text.split()[0].endswith("w0") for c in chunks)  # each at a sentence start
    assert any(chunks[1].text.split()[0] in c.text for c in chunks[:1])  # and overlapping the one before


def _ask(memory: Memory, question: str) -> list[dict[str, Any]]:
    return [dict(h) for h in memory.search_memory(question)["results"]]


@pytest.fixture
def notes(real: Memory) -> Memory:
    for path in sorted(NOTES.glob("*.md")):
        assert len(path.read_text().split()) >= 1500
        real.add_file(path)
    return real


@pytest.mark.parametrize(
    ("question", "heading", "detail"),
    [
        ("which plots were sold to the solar company?", "What happened at Monte da Ribeira", "R7 and R8"),
        ("what did Priya say about recency?", "Session two: retrieval instead of weights", "tie-breaker"),
        ("when is the deadline for the knowledge update test set?", "Session five: evaluation", "15 January"),
    ],
)
def test_a_detail_deep_in_a_document_answers_once_with_its_passage(
    notes: Memory, question: str, heading: str, detail: str
) -> None:
    found = _ask(notes, question)
    assert found and found[0]["passage"]["heading"] == heading, question
    assert detail in found[0]["content"]
    passage = found[0]["content"]
    # It starts at a section or a sentence, and ends with no heading of the section after it.
    assert passage.startswith("## ") or passage[0].isupper(), passage[:80]
    assert not passage.splitlines()[-1].startswith("#"), passage[-80:]
    if "\n## " in passage:  # a passage that holds a heading starts with it: no tail of the section before
        assert passage.startswith("## "), passage[:80]
    assert len({h["id"] for h in found}) == len(found)  # each document once


def test_a_document_that_mentions_a_decision_is_not_listed_as_one(tmp_path: Path) -> None:
    from engram import FakeEmbedder, Settings

    with Memory(tmp_path / "f.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as memory:
        memory.add_file(NOTES / "soil_fieldwork.md")  # "We decided on the second day to weigh the stones ..."
        memory.store_memory("We decided to use PostgreSQL for the inventory app.")
        context = memory.session_context()
    assert "Field Notes" not in context["text"]
    assert "We decided to use PostgreSQL" in context["text"]
