"""Everyday things asked by their kind or by another everyday word where the memory names the thing or says it
the way a form or an employer does: a fruit, a herb or a medicine by its name, a car's number plate as its
registration, holiday from work as annual leave, looking after children as babysitting
(engram/recall/related.txt). With the real model, on
memories a person writes (none from a benchmark set)."""

from __future__ import annotations

from engram import Memory
from engram.recall.synonyms import other_words

NOTES = (
    "Ava can't have strawberries - she came out in a rash last summer.",
    "The van's registration is KX19 TLM, insured with Admiral until June.",
    "I have 12 days of annual leave left this year.",
    "Auntie Rose can babysit on Fridays if we drop the twins off by 6.",
    "Ordered a new kettle from Argos, arriving Thursday.",
    "The boiler service is booked for 3 February with British Gas.",
    "Ava's swimming lessons are on Saturday mornings at the leisure centre.",
    "Dentist check-up for me on 14 January at 9:40.",
    "Our neighbour Carl keeps an eye on the house when we're away.",
    "Book the car in for its MOT before the end of March.",
    "Team lead at Northwind is Gareth Lloyd; standup at 9:15 every day.",
    "Netflix and Spotify are on Hannah's card, I pay her £12 a month.",
    "I can't stand mushrooms, and Jo hates coriander.",
    "Dad loves Radio 3 in the mornings and walks by the canal.",
    "Doctor said my iron is low, taking ferrous sulphate 200mg once a day for three months.",
    "Head of department is Mrs Adebayo - she wants the Year 10 coursework marks by 11 December.",
    "My cat Mochi is diabetic - 2 units of Caninsulin with food, morning and evening.",
    "Choir rehearsal is Thursday evenings at St Mark's church hall; I sing alto.",
    "Our wifi password is on the back of the router.",
    "I do the weekly team huddle every Monday at 8:15.",
)


def _found(notes: Memory, question: str) -> list[dict[str, object]]:
    found: list[dict[str, object]] = notes.search_memory(question, {"min_confidence": "low"}, touch=False)[
        "results"
    ]
    return found


def test_the_kinds_and_the_everyday_words_have_their_other_words() -> None:
    assert "kiwi" in other_words("what fruit can't she eat?")["fruit"]
    assert "carrot" in other_words("which vegetables did we plant?")["vegetables"]
    assert "registration" in other_words("what's the car's number plate?")["number plate"]
    assert "annual leave" in other_words("who signs off my holiday requests?")["holiday"]
    assert "babysit" in other_words("who can look after the kids?")["look after"]
    assert "tablet" in other_words("what medication am I on?")["medication"]
    assert "intolerant" in other_words("any dietary restrictions?")["dietary"]
    assert "swimming" in other_words("what exercise do I do?")["exercise"]
    assert "coriander" in other_words("which herb do I hate?")["herb"]
    assert "cilantro" in other_words("which herb do I hate?")["herb"]  # its American name
    assert "eggplant" in other_words("which vegetables did we plant?")["vegetables"]
    assert "hay fever" in other_words("anything about my health?")["health"]
    assert "isa" in other_words("where are my savings?")["savings"]
    assert "accountant" in other_words("who's my bookkeeper?")["bookkeeper"]
    assert "team lead" in other_words("who's my manager?")["manager"]
    assert "dissertation" in other_words("who is supervising my thesis?")["thesis"]
    assert "spotify" in other_words("what subscriptions do we share?")["subscriptions"]
    assert "loves" in other_words("what does Dad enjoy doing?")["enjoy"]
    assert "primary" in other_words("which school do the kids go to?")["school"]
    assert "surgery" in other_words("anything about my health?")["health"]
    assert "can't stand" in other_words("what food don't I like?")["don't i like"]
    assert "ni" in other_words("what's my national insurance number?")["national insurance"]
    assert "once a day" in other_words("what meds am I on?")["meds"]
    assert "head of department" in other_words("what is my boss's name?")["boss"]
    assert "choir" in other_words("what are my hobbies?")["hobbies"]
    assert "router" in other_words("how do I get on the internet?")["internet"]
    assert "netflix" in other_words("what streaming services do I pay for?")["streaming services"]
    assert "streaming" not in other_words("who runs the event streaming platform?")  # the technical sense
    assert "car" in other_words("what's the registration of my motor?")["motor"]
    assert "roofing" in other_words("what's the roofer's phone number?")["roofer"]
    # One way only: a memory's strawberry is a fruit, a question about strawberries is not about every fruit.
    assert "strawberry" not in other_words("any strawberries left?")


def test_a_number_plate_is_the_registration(notes: Memory) -> None:
    found = _found(notes, "what is our number plate")
    assert found and "registration" in str(found[0]["content"]), [r["content"] for r in found[:3]]
    assert found[0]["confidence"] != "low"


def test_time_off_is_answered_by_the_annual_leave_above_low(notes: Memory) -> None:
    found = _found(notes, "how much time off have I got left?")
    assert found and "annual leave" in str(found[0]["content"]), [r["content"] for r in found[:3]]
    assert found[0]["confidence"] != "low"


def test_looking_after_the_kids_is_answered_by_the_babysitter_above_low(notes: Memory) -> None:
    found = _found(notes, "who looks after the kids?")
    assert found and "babysit" in str(found[0]["content"]), [r["content"] for r in found[:3]]
    assert found[0]["confidence"] != "low"


def test_a_manager_subscriptions_medication_and_health_asked_in_other_words_are_found_above_low(
    notes: Memory,
) -> None:
    for question, said in (
        ("who's my manager?", "Team lead"),
        ("what subscriptions do we share?", "Spotify"),
        ("what medication am I on?", "ferrous sulphate"),
        ("what is my boss's name?", "Head of department"),
        ("what streaming services do I pay for?", "Netflix"),
        ("how is the cat's health?", "diabetic"),
        ("what are my hobbies?", "Choir"),
        ("what do I do in my spare time?", "Choir"),
        ("how do I get on the internet?", "wifi"),
        ("how often is the team meeting?", "huddle"),
    ):
        found = _found(notes, question)
        assert found and said in str(found[0]["content"]), [r["content"] for r in found[:3]]
        assert found[0]["confidence"] != "low"


def test_a_database_or_an_orm_asked_by_its_kind_finds_the_one_named(real: Memory) -> None:
    for text in (
        "The payments service is being migrated from MySQL 5.7 to PostgreSQL 15; cutover planned for 12 January.",
        "The Grafana dashboard for the payments service is at https://grafana.example.internal/d/pay-01.",
        "We decided to use sqlc instead of GORM for the billing module because of compile-time query checks.",
        "Sprint review is every second Thursday in the big meeting room.",
    ):
        real.store_memory(text)
    assert "postgresql" in other_words("which database are we moving to?")["database"]
    moving = _found(real, "what database are we moving payments to?")
    assert "PostgreSQL" in str(moving[0]["content"]), [r["content"] for r in moving[:3]]
    rejected = _found(real, "what ORM did we reject?")
    assert "GORM" in str(rejected[0]["content"]), [r["content"] for r in rejected[:3]]


def test_a_partner_is_said_as_being_together(real: Memory) -> None:
    for text in (
        "Becky and me have been together since 2011, never got round to getting married.",
        "Jake Morris - my apprentice, 19, 2nd year at Shrewsbury College.",
        "Dad lives on his own in the bungalow since Mum died in 2020.",
    ):
        real.store_memory(text)
    assert "been together" in other_words("who's my partner?")["partner"]
    found = _found(real, "who's my partner?")
    assert "Becky" in str(found[0]["content"]) and found[0]["confidence"] != "low", found[:2]
