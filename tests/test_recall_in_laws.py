"""A parent-in-law is reached through the spouse's name ("my mother-in-law" is "Kemal's mum" once a memory says
whom the asker married), and a few everyday words are said otherwise in memories (a job as what one does for a
living, a hire car as a rental, phoning as calling, a mate as a friend, a reference as a ref). The rules on
their own, then with the real model on memories a person writes: each question below found another memory first,
or its answer only at low confidence, before them."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.recall.kin import by_name, kin_words, said_of
from engram.recall.synonyms import other_words

NOTES = (
    "Kemal and I got married in Izmir in 2012.",
    "Kemal's mum Ayla lives in Bursa and has type 2 diabetes.",
    "Kemal is a firefighter at Station 14, on a four-day rota.",
    "Ayla's neighbour looks in on her twice a week.",
    "The living room needs repainting before spring.",
    "My brother Emre lives in Leeds and teaches maths.",
    "I call Emre every Friday night after football.",
    "Emre's best friend Jonas flies for a cargo airline.",
    "Returned the rental car to Hertz at Gatwick, no damage charges.",
    "Parking at the airport was £64 for the week.",
    "Passport photos are in the top drawer of the desk.",
)


def test_a_parent_in_law_is_looked_up_through_the_spouse() -> None:
    assert set(kin_words("what does my mother-in-law have")) == {"mother-in-law"}
    assert "married" not in kin_words("what does my mother-in-law have")["mother-in-law"]
    assert "husband" in kin_words("when are my parents-in-law coming")["parents-in-law"]
    # A brother- or sister-in-law is as often a sibling's spouse: not read as the spouse's sibling.
    assert kin_words("what does my brother-in-law do") == {}
    assert said_of("mother-in-law", ("Kemal",)) == ("Kemal's mum", "Kemal's mother", "Kemal's mom")
    assert said_of("husband", ("Kemal",)) == ("Kemal",)
    assert set(kin_words("where do my in-laws live")) == {"in-laws"}  # the spouse's parents
    assert said_of("in-laws", ("Kemal",))[0] == "Kemal's parents"
    named = [("mother-in-law", said_of("mother-in-law", ("Kemal",)))]
    assert by_name("how is my mother-in-law doing", named) == "how is Kemal's mum doing"


def test_everyday_words_said_otherwise() -> None:
    assert "job" in other_words("what does she do for a living")["for a living"]
    assert "rental car" in other_words("which firm was the hire car from")["hire car"]
    assert "call" in other_words("how often do I phone him")["phone"]
    assert "friend" in other_words("who is his best mate")["mate"]
    assert "ref" in other_words("the booking reference")["reference"]


def test_the_mother_in_law_is_found_surely(notes: Memory) -> None:
    question = "what condition does my mother-in-law have?"
    found = notes.search_memory(question, {"limit": 3}, touch=False)["results"]
    assert found and "diabetes" in found[0]["content"], [r["content"] for r in found]
    assert found[0]["confidence"] in {"medium", "high"}
    hits = notes.recall(question, touch=False)  # accurate: an answer, not nothing
    assert hits and "diabetes" in hits[0].record.content


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("what does my husband do for a living?", "firefighter"),
        ("which company was the hire car from?", "Hertz"),
        ("how often do I phone my brother?", "every Friday"),
        ("who is Emre's best mate?", "Jonas"),
    ],
)
def test_a_word_said_otherwise_finds_its_memory_first(notes: Memory, question: str, answer: str) -> None:
    found = notes.search_memory(question, {"limit": 3}, touch=False)["results"]
    assert found and answer in found[0]["content"], (question, [r["content"] for r in found])
