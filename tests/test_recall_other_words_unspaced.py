"""A question's word said in a memory by its Chinese other word ("lesson": 上课) counts as said: toward the share
of the question a memory says, and so toward its confidence. Two or three characters long, such a word was looked
for as a short English word is, by its word boundaries, which text written without spaces does not have: the
Chinese memory the text search found said none of the question."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.recall.contained import overlaps

NOTES = (
    "周四晚上七点在社区中心上课，中文老师姓李。",  # noqa: RUF001 (Chinese punctuation, as written)
    "The lesson plan for the team workshop is on the shared drive.",
    "Swimming club meets on Saturday mornings at the leisure centre.",
)


def test_a_chinese_other_word_is_found_inside_unspaced_text() -> None:
    share, _ = overlaps(
        {"lesson": 1.0, "mandarin": 1.0},
        [NOTES[0], NOTES[1]],
        standins={"lesson": [frozenset({"上课"})], "mandarin": [frozenset({"中文"})]},
    )
    assert share.tolist() == pytest.approx([1.0, 0.5])


def test_an_english_question_about_a_chinese_memory_is_answered(notes: Memory) -> None:
    hits = notes.recall("when is my Mandarin lesson?", mode="ranked", touch=False)
    assert "上课" in hits[0].record.content
    assert hits[0].components["coverage"] == pytest.approx(1.0)
    assert notes.recall("when is my Mandarin lesson?", touch=False)[0].record.content == NOTES[0]
