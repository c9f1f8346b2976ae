"""A tradesperson named by trade once ("Plumber Kev Doyle quoted ...", "Ana the gardener") and by name after:
a question asking for the trade is answered by what is said of the name. With the real model."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.recall.kin import by_name, kin_words, names_in

NOTES = (
    "Plumber Kev Doyle quoted £380 to replace the leaking valve under the boiler.",
    "Going with Kev in the end; he can come round on Tuesday 8 December in the morning.",
    "Ana the gardener wants paying in cash, £15 an hour.",
    "Ana has cut back the hedge and says the apple tree needs pruning in February.",
    "The boiler service is due in March; British Gas sends a reminder.",
    "We picked the blue tiles for the bathroom floor.",
)


def test_a_trade_as_a_title_or_after_a_name_gives_the_name() -> None:
    texts = ["Electrician Sinéad Byrne quoted £4,300.", "Kev the plumber came.", "Dave (joiner) left early."]
    assert names_in(kin_words("the electrician")["electrician"], texts) == ("Sinéad Byrne",)
    assert names_in(("plumber",), texts) == ("Kev",)
    assert names_in(("joiner",), texts) == ("Dave",)
    assert names_in(("plumber",), ["The plumber Association meets."]) == ()  # a lower-case or no name follows
    assert by_name("when is the plumber coming?", [("plumber", ("Kev",))]) == "when is Kev coming?"


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("when is the plumber coming round?", "Going with Kev"),
        ("what did the gardener say about the tree?", "apple"),
    ],
)
def test_a_question_naming_the_trade_finds_what_the_name_did(
    notes: Memory, question: str, answer: str
) -> None:
    hits = notes.recall(question, mode="related", touch=False)
    assert hits and answer in hits[0].record.content, [h.record.content for h in hits[:3]]
