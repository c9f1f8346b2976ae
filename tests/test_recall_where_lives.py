"""A memory that does not say where someone lives ("where does Katie live?" over her phone number) or gives no
street for an address is no sure answer; one saying it, as living somewhere, an address or a place, stays sure.
The real model: the match strengths decide the bands."""

from __future__ import annotations

from engram import Memory
from engram.lang.answers import asked, gives

MEMORIES = (
    "Arjun's friend Leo's mum is Katie, her number is 07700 900431.",
    "Mum moved into sheltered housing at Beech Court in September; her flat is number 14.",
    "My sister Ruth lives in Hamburg with her husband Jonas.",
)


def test_where_someone_lives_is_said_as_living_an_address_or_a_place() -> None:
    assert asked("where does Katie live?") == "abode"
    assert asked("what's Anita's address?") == "address"
    assert asked("what's my email address?") is None
    assert asked("what's the web address for the dentists?") is None
    assert not gives("Arjun's friend Leo's mum is Katie, her number is 07700 900431.", "abode")
    assert gives("Ruth's parents: Douglas and Carol Haldane, Carlisle.", "abode")
    assert gives("Mum lives in Braga and phones every Sunday.", "abode")
    assert not gives("Mama lives in Gdańsk; I call her every Sunday.", "address")
    assert gives("New flat: 14B Wilbraham Road, Chorlton, M21 9JX.", "address")
    assert not gives("Car insurance renews 2 February.", "address")


def test_a_memory_not_saying_where_is_no_sure_answer(real: Memory) -> None:
    ids = [real.store_memory(text)["memory_id"] for text in MEMORIES]
    for question in ("where does Katie live?", "what is Ruth's address in Hamburg?"):
        found = real.search_memory(question, touch=False)["results"]
        assert all(r["confidence"] == "low" for r in found), (question, found[:2])
        assert real.recall(question, touch=False) == [], question
    for question, answer in (
        ("what's mum's address?", 1),
        ("where does my sister live?", 2),
    ):
        found = real.search_memory(question, touch=False)["results"]
        assert found[0]["id"] == ids[answer] and found[0]["confidence"] != "low", (question, found[:2])
