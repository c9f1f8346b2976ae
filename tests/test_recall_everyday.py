"""Everyday questions that name a thing by another word than the memory (coffee for a flat white, school for a
primary, the kids for the twins, reimbursed for an expense claim, allergy for allergic). With the real model, on
memories a person writes: each question below found another memory first before these words. The embedding
model knows little Chinese: an English question finds a memory written in Chinese through the Chinese words for its
own."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.recall.synonyms import other_words

NOTES = (
    "My wife Ingrid is a paediatric nurse at St Mary's; she works three long shifts a week.",
    "Our twins, Leo and Maja, start year 2 at Hillside Primary in September.",
    "Ingrid's mother Birgit lives in Malmö and visits every Christmas.",
    "Maja is allergic to peanuts - we carry an EpiPen in the blue bag.",
    "Expense claims go through Concur and must be submitted within 30 days.",
    "I take 10mg of cetirizine for hay fever from April to July.",
    "I prefer flat whites with oat milk, never sugar.",
    "Learning Spanish on Duolingo, 210-day streak, aiming for B1 before the Madrid trip.",
    "The nightly warehouse load runs at 02:30 UTC and usually takes 40 minutes.",
    "Rent for the flat is £1,850 a month, due on the 1st by standing order.",
    "Dentist is Dr Huang at Smile Studio, next cleaning in February.",
    "My mum's birthday is 12 May; she likes orchids.",
    "我妈妈的生日是五月三号，她喜欢兰花。",  # noqa: RUF001 (Chinese punctuation, as written)
    "我的中文老师是陈老师，每周四晚上上课。",  # noqa: RUF001
    "邻居张叔叔会帮我们喂猫。",
)


def test_kinds_of_thing_have_other_words() -> None:
    assert "flat white" in other_words("how do I take my coffee")["coffee"]
    assert "allergic" in other_words("a food allergy")["allergy"]
    assert "expense claim" in other_words("how do I get reimbursed")["reimbursed"]
    assert "twins" in other_words("where do the kids go")["kids"]
    assert "move" in other_words("which CI system are we switching to")["switching"]
    assert "春节" in other_words("Chinese New Year plans")["chinese new year"]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("where do the kids go to school", "Hillside Primary"),  # was: "Expense claims go through Concur"
        ("how do I take my coffee", "flat whites"),  # was: "I take 10mg of cetirizine"
        ("how do I get reimbursed for a work trip", "Expense claims"),  # was: the nurse's shifts
        ("does anyone in the family have a food allergy", "peanuts"),  # was: Ingrid's mother
        ("when is my Mandarin lesson", "陈老师"),  # was: the Spanish course
        ("what does my neighbour help with", "邻居"),
    ],
)
def test_a_thing_named_by_another_word_is_found_first(notes: Memory, question: str, answer: str) -> None:
    found = notes.search_memory(question, {"limit": 3}, touch=False)["results"]
    assert found and answer in found[0]["content"], (question, [r["content"] for r in found])
