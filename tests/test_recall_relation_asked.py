"""A question about someone's relation ("who is Mateo's dentist") is answered surely only by a memory that states
such a relation; one that only names Mateo is a guess. With the real model: the match strengths decide the bands."""

from __future__ import annotations

from engram import Memory

MEMORIES = (
    "Mateo is 9 and in P5 at Bruntsfield Primary; his teacher this year is Mr Grieve.",
    "Lucia (6) has swimming at the Royal Commonwealth Pool every Saturday.",
    "Rob's mum Janet lives in Inverness and has Parkinson's.",
    "Tomasz's birthday is 2 February; he collects vinyl, mostly 70s prog rock.",
    "Tomasz got married to Ewa last spring in Leeds.",
)


def test_a_memory_that_states_no_such_relation_is_no_sure_answer(real: Memory) -> None:
    ids = [real.store_memory(text)["memory_id"] for text in MEMORIES]
    for question in ("who is Mateo's dentist?", "who is Lucia's dentist?"):
        found = real.search_memory(question, touch=False)["results"]
        assert all(r["confidence"] == "low" for r in found), (question, found)
    for question, answer in (("where does Rob's mum live?", 2), ("what is Tomasz's wife called?", 4)):
        found = real.search_memory(question, touch=False)["results"]
        assert found[0]["id"] == ids[answer] and found[0]["confidence"] != "low", (question, found)


def test_a_role_or_a_friend_of_someone_is_asked_the_same_way(real: Memory) -> None:
    real.store_memory("My dentist is Dr Anjali Shah at Beech Road Dental; check-ups every six months.")
    mate = real.store_memory("Oskar's best mate is Jayden Clarke; his mum does the Thursday school run.")
    real.store_memory("Oskar is 14 and plays drums in the school jazz band.")
    found = real.search_memory("who is my dentist's receptionist?", touch=False)["results"]
    assert all(r["confidence"] == "low" for r in found), found
    found = real.search_memory("who is Oskar's best friend?", touch=False)["results"]
    assert found[0]["id"] == mate["memory_id"] and found[0]["confidence"] != "low", found
