"""A question that asks for personal data is shown the memory holding it, even as a guess, and one that asks about
something else is not. With the real model: what counts is which guesses a paraphrase gets."""

from __future__ import annotations

from engram import Memory
from engram.lang.pii import asked_for

LANDLORD = "Our landlord is Martin Healey, mobile 07700 900461, and he prefers texts to calls."
HOUSEHOLD = (
    "The downstairs loo cistern keeps running. Reported it to Martin, still waiting for someone to come out.",
    "Hannah's dad Geoff had a hip replacement in October and is recovering at home in Norwich.",
    "Signed up for the Manchester half marathon in April, starting a 12-week plan in January.",
    "Rent is £1,450 a month, paid on the 28th by standing order.",
    "Our GP surgery is Barlow Medical Centre; appointments go through the NHS app.",
)


def test_the_kinds_of_personal_data_a_question_asks_for() -> None:
    assert asked_for("how can I reach the landlord?") == {"phone", "email"}
    assert asked_for("what's the plumber's mobile number") == {"phone"}
    assert asked_for("Jayden's mum's e-mail") == {"email"}
    assert asked_for("what colour is the living room") == frozenset()
    assert asked_for("what did I tell you yesterday") == frozenset()


def test_a_question_asking_how_to_reach_someone_gets_the_memory_holding_the_number(real: Memory) -> None:
    landlord = real.store_memory(LANDLORD)["memory_id"]
    for text in HOUSEHOLD:
        real.store_memory(text)
    found = real.search_memory("how can I reach the landlord?", touch=False)["results"]
    assert found and found[0]["id"] == landlord, [r["content"] for r in found]
    # Asked about something else, the number is still no guess.
    for question in ("quantum chromodynamics lattice", "when is the boiler serviced?"):
        other = real.search_memory(question, touch=False)["results"]
        assert all(r["confidence"] == "low" for r in other), question
        assert landlord not in [r["id"] for r in other], question
