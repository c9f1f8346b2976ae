"""An address is written as a street, a road, a lane, an avenue, a terrace or a postcode, rarely with the word
"address": "what's my address?" over "House is 23 Cowper Terrace, LS7 4JP" found a builder's card and a document
first, and the house not at all."""

from __future__ import annotations

from engram import Memory


def test_a_question_for_an_address_finds_the_memory_that_writes_one(mem: Memory) -> None:
    house = mem.store_memory(
        "House is 14 Larch Terrace, Didsbury, M20 6RT - stone terrace, leaks in the bay window"
    )
    mem.store_memory("Builder: Dave Hirst 07700 900318, dave@hirstbuilding.example")
    mem.store_memory("Piano exam entries close on Friday, enter Amelia and Noah online")
    found = mem.search_memory("what's my address?")["results"]
    assert found and found[0]["id"] == house["memory_id"]
    assert found[0]["confidence"] in ("medium", "high")  # an answer, not a guess
