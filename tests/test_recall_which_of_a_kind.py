"""Words of a question that say which of a kind, and everyday words for a thing: "my British passport" is answered
by "my UK one", which need not say British though another memory does (a nationality is no name asked about,
engram.recall.named); xmas is Christmas, a physio the physiotherapist, hens poultry (engram/tags/variants.txt,
engram/recall/related.txt); "what did I add today?" asks for today's memories (engram.recall.intent). With the
real model, on memories a person writes."""

from __future__ import annotations

from datetime import UTC, datetime

import time_machine

from engram import Memory
from engram.recall.intent import asks_for_memories
from engram.recall.named import names_asked
from engram.recall.synonyms import other_words

NOTES = (
    "Passports: my UK one runs out March 2027!!! need to renew before the April trip.",
    "British Gas do the boiler service every October, about £90.",
    "Mum still lives in the old house in Bulawayo.",
    "Practice xmas do is at the Beaumont Hotel on Friday 18 December, partners invited.",
    "Physio is Anna Robson at Tyne Physio, Wednesdays 7.30am every other week.",
    "Hens: Hazel, Pepper and Dot. Layers pellets from Allendale Agri Supplies, a 20kg bag lasts five weeks.",
    "Order the turkey from Robson's butchers by the 10th.",
)


def test_a_nationality_is_no_name_asked_about() -> None:
    assert names_asked("when does my British passport expire?") == ()
    assert names_asked("what did Tomás say about the French trip?") == ("tomás",)


def test_the_everyday_words_have_their_other_words() -> None:
    assert "physio" in other_words("which physiotherapist do I see?")["physiotherapist"]
    assert "hen" in other_words("where do I buy the poultry feed?")["poultry"]


def _first(notes: Memory, question: str) -> dict[str, object]:
    found = notes.search_memory(question, {"min_confidence": "low"}, touch=False)["results"]
    assert found, question
    first: dict[str, object] = found[0]
    return first


def test_which_of_a_kind_and_everyday_words_find_the_memory(notes: Memory) -> None:
    passport = _first(notes, "when does my British passport expire?")
    assert "UK one" in str(passport["content"]) and passport["confidence"] != "low"
    for question, said in (
        ("where is the practice Christmas party?", "xmas do"),
        ("which physiotherapist do I see?", "Anna Robson"),
        ("where do I buy the poultry feed?", "Layers pellets"),
    ):
        first = _first(notes, question)
        assert said in str(first["content"]), (question, first["content"])


def test_what_was_added_today_is_what_was_stored_today(real: Memory) -> None:
    assert asks_for_memories(["added"]) and asks_for_memories(["noted"])
    with time_machine.travel(datetime(2026, 11, 20, 9, tzinfo=UTC), tick=False):
        real.store_memory("Lunch with Alistair today at the Boatside; he plans to retire end of 2028.")
    now = datetime(2026, 11, 26, 10, tzinfo=UTC)
    with time_machine.travel(datetime(2026, 11, 26, 8, tzinfo=UTC), tick=False):
        real.store_memory("lameness CPD webinar quiz was due last friday and i still havent done it")
    with time_machine.travel(now, tick=False):
        found = real.search_memory("what did I add today?", now=now, touch=False)["results"]
    assert [r["content"][:8] for r in found] == ["lameness"], [r["content"] for r in found]
