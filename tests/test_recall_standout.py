"""A memory the question is clearly about is an answer of medium confidence, whatever words it shares; a question
nothing stored answers still gets nothing above low. With the real model, on memories a person writes."""

from __future__ import annotations

import numpy as np
import pytest

from engram import Memory
from engram.recall.confidence import LEVELS, confidence_of, leads, strength

NOTES = (
    "My husband Kenji works as a nurse at the Royal Infirmary, mostly night shifts.",
    "Our son Theo is allergic to penicillin.",
    "I take 50mg of sertraline every morning.",
    "The car is a 2017 Honda Jazz, registration KX17 ABC; MOT due in March.",
    "Rent is £1,450 a month, paid on the 28th to Foxtons.",
    "My optician appointment is on 12 January at Specsavers on Queen Street.",
    "I'm lactose intolerant, oat or soy milk only.",
    "Book club meets the first Tuesday of the month at Priya's; this month we read Piranesi.",
    "Favourite podcast: In Our Time on BBC Radio 4.",
    "The production database is Postgres 15 on RDS, with a read replica in eu-west-2.",
    "Passport number 533219874, expires June 2029.",
    "The boiler pressure should sit between 1 and 1.5 bar; top it up with the silver tap under it.",
    "Dad's birthday is 4 May; he collects vinyl records of 70s soul.",
    "I never take calls on Friday afternoons; that's for deep work.",
    "We switched our broadband to Zen Internet in August; the router admin password is on the sticker.",
)


def test_the_lead_is_over_the_best_other_memory_and_a_documents_passages_are_one() -> None:
    cosine = np.array([0.6, 0.3, 0.5, 0.2])
    # The first and third are passages of one document: the first leads the best other memory (0.3) by 0.3.
    found = leads(cosine, ["doc", "a", "doc", "b"])
    assert found.tolist() == pytest.approx([0.3, -0.3, 0.2, -0.4])
    assert leads(np.array([0.7]), ["only"]).tolist() == [0.0]  # nothing to lead
    assert leads(np.zeros(0), []).tolist() == []


def test_a_clear_lead_raises_the_confidence_of_a_paraphrase() -> None:
    # A paraphrase sharing no word: its cosine and how far it leads every other memory are all it has.
    alone = {"cosine": 0.6, "coverage": 0.0, "lexical": 0.0, "lead": 0.3}
    crowded = {**alone, "lead": 0.0}  # another memory comes as near
    assert strength(alone) > strength(crowded)
    assert LEVELS.index(confidence_of(alone)) >= LEVELS.index(confidence_of(crowded))
    assert confidence_of({**alone, "cosine": 0.1, "lead": 0.05}) == "low"  # the best of nothing much
    assert confidence_of({"cosine": 0.9, "coverage": 0.9, "lexical": 0.9, "lead": 0.0}) == "high"


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("can I have dairy", "lactose intolerant"),
        ("which antidepressant am I on", "sertraline"),
        ("what does my spouse do for a living", "Kenji works as a nurse"),
        ("is my boy allergic to any medicine", "penicillin"),
        ("who is our internet provider", "Zen Internet"),
        ("when is my eye test", "optician"),
        ("the heating pressure is low, what do I do", "boiler pressure"),
        ("can we schedule a call on Friday at 3pm", "Friday afternoons"),
    ],
)
def test_a_paraphrase_with_no_rival_is_an_accurate_answer(notes: Memory, question: str, answer: str) -> None:
    hits = notes.recall(question, touch=False)
    assert hits and answer in hits[0].record.content, question
    assert hits[0].confidence in ("medium", "high")


@pytest.mark.parametrize(
    "question",
    [
        "quantum chromodynamics lattice",
        "what's my shoe size",
        "who is my dentist",
    ],
)
def test_a_question_nothing_answers_still_gets_nothing_sure(notes: Memory, question: str) -> None:
    assert notes.recall(question, touch=False) == []
    found = notes.search_memory(question, touch=False)["results"]
    assert all(r["confidence"] == "low" for r in found)


def test_a_memory_naming_whom_is_asked_about_but_not_what_is_never_a_sure_answer(notes: Memory) -> None:
    """ "When is Kenji's birthday" against "My husband Kenji works as a nurse": the memory shares the rarest word
    of the question and none other. The calibrator, fitted on conversations where a shared name is a fair sign,
    may rate it a likely answer (medium), never an almost certain one."""
    hits = notes.recall("when is Kenji's birthday", touch=False)
    found = notes.search_memory("when is Kenji's birthday", touch=False)["results"]
    assert all(h.confidence != "high" for h in hits) and all(r["confidence"] != "high" for r in found)
