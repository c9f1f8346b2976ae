"""A memory standing alone that the question clearly means, though it shares few of its words, is an answer of
medium confidence: its cosine less what the shared words lend it is fair, and it leads every other memory's. A
near miss that owes its cosine to the words it shares stays low, and so does a turn, a passage, or an answer to a
question in a language the model reads poorly."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.recall.confidence import confidence_of, meant

NOTES = (
    "Cheese makes my skin break out in hives.",
    "I always book an aisle seat on long trains.",
    "Our gym membership is at PureGym on Mill Lane, £24 a month.",
    "The spare house key is under the blue flowerpot by the back door.",
    "My sister Ife teaches maths at a school in Croydon.",
    "I'm terrified of spiders, so please never send spider photos.",
    "The team stand-up is at 9:15 every weekday on Zoom.",
    "Grandma's lasagne recipe uses nutmeg in the béchamel.",
    "We pay the window cleaner £15 every four weeks.",
    "My running shoes are Brooks Ghost 15, size 8.",
    "The Wi-Fi network at the cottage is called Rosehip, password printed on the fridge.",
    "I get travel sick on ferries, so ginger tablets go in the bag.",
)

# A paraphrase: no word shared, a fair cosine, first by a margin too small for a memory that merely stands out.
PARAPHRASE = {"cosine": 0.48, "coverage": 0.0, "lexical": 0.0, "lead": 0.15}


def test_a_paraphrase_the_question_clearly_means_is_medium_only_by_its_meaning() -> None:
    assert meant(PARAPHRASE)
    assert confidence_of(PARAPHRASE) == "low"  # the calibrator alone: a cosine of 0.48 is a guess
    assert confidence_of(PARAPHRASE, by_meaning=True) == "medium"


def test_a_near_miss_owing_its_cosine_to_shared_words_stays_low() -> None:
    # As close and as far ahead, but it says a third of the question's words: the cosine is partly those words.
    near = {"cosine": 0.46, "coverage": 0.31, "lexical": 0.62, "lead": 0.16}
    assert not meant(near)
    assert confidence_of(near, by_meaning=True) == "low"
    # Without a lead over every other memory, a fair cosine says nothing of which memory is meant.
    assert confidence_of({**PARAPHRASE, "lead": 0.05}, by_meaning=True) == "low"


def test_an_answer_only_the_model_finds_is_kept_by_accurate_recall(notes: Memory) -> None:
    hits = notes.recall("what do I take for seasickness", touch=False)
    assert hits and "ginger tablets" in hits[0].record.content
    assert hits[0].confidence == "medium"


@pytest.mark.parametrize(
    "question", ["what's my cholesterol", "who is my plumber", "what is Ife's husband called"]
)
def test_a_question_nothing_answers_is_not_lifted(notes: Memory, question: str) -> None:
    assert notes.recall(question, touch=False) == []
