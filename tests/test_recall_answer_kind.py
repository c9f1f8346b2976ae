"""A memory that holds no answer of the kind a question asks for (a time, an amount) is no sure answer, however many
of the question's words it says; one that holds it stays as sure as its match makes it. With the real model: the
match strengths decide the bands."""

from __future__ import annotations

from engram import Memory
from engram.lang.answers import asked, gives

MEMORIES = (
    "We decided to replace the Omnicell dispensing robot with a BD Rowa unit; go-live is planned for March.",
    "Our GP surgery is Barlow Medical Centre; appointments go through the NHS app.",
    "Rent is £1,450 a month, paid on the 28th by standing order.",
    "The agency charges us £45 an hour for a locum pharmacist.",
    "Mama lives in Gdańsk; I call her every Sunday evening around 7.",
    "My mum Ingrid still lives in Hamburg, in the flat on Eppendorfer Weg.",
    "Ingrid's birthday is 2 May; she wants a new reading lamp.",
)


def test_the_kind_of_answer_a_question_asks_for() -> None:
    assert asked("When is Hannah's birthday?") == "time"
    assert asked("what time is Zosia's swimming?") == "clock"
    assert asked("how much did the robot cost?") == "money"
    assert asked("what is my NHS number?") == "amount"
    assert asked("how often do I call Mama?") == "time or amount"
    assert asked("what's the password for the Octopus Energy account?") == "password"
    assert asked("what's the reservation code for the flights?") is None
    assert asked("who is my boss?") is None
    assert asked("where does my mum live?") == "abode"  # said as living somewhere, an address or a place
    assert asked("where is the spare key?") is None
    assert gives("My mum Ingrid still lives in Hamburg", "abode")
    assert gives("Ingrid's birthday is 2 May", "time")
    assert gives("I call her every Sunday evening", "time or amount")
    assert gives("twice a month", "amount")
    assert not gives("We decided to replace the robot with a Rowa unit", "amount")
    assert not gives("We decided to replace the robot with a Rowa 360 unit", "money")
    assert not gives("My mum Ingrid still lives in Hamburg", "time")
    assert gives("the network is Kowal-5G and the key is on the sticker underneath", "password")
    assert not gives("Gas and electricity are with Octopus Energy, account number A-3F9C21D7", "password")


def test_a_memory_without_the_asked_time_or_amount_is_no_sure_answer(real: Memory) -> None:
    ids = {text: real.store_memory(text)["memory_id"] for text in MEMORIES}
    for question in ("how much did the Rowa robot cost?", "what is my NHS number?"):
        found = real.search_memory(question, touch=False)["results"]
        assert all(r["confidence"] == "low" for r in found), (question, found)
        assert real.recall(question, touch=False) == [], question
    # The memory that holds the time is shown first and sure; the one that only names the person is not.
    found = real.search_memory("when is my mom's birthday?", touch=False)["results"]
    assert found[0]["id"] == ids[MEMORIES[-1]] and found[0]["confidence"] != "low", found
    for question, answer in (("how much rent do we pay?", 2), ("what do we pay for agency locums?", 3)):
        found = real.search_memory(question, touch=False)["results"]
        assert found[0]["id"] == ids[MEMORIES[answer]] and found[0]["confidence"] != "low", question


def test_a_memory_without_a_password_does_not_answer_for_one(real: Memory) -> None:
    energy = "Gas and electricity are with Octopus Energy, account number A-3F9C21D7."
    wifi = real.store_memory("Home wifi is called Otter-5G; the password is on the router's sticker.")[
        "memory_id"
    ]
    for text in (energy, *MEMORIES):
        real.store_memory(text)
    found = real.search_memory("what's the password for the Octopus Energy account?", touch=False)["results"]
    assert all(r["confidence"] == "low" for r in found), found
    found = real.search_memory("what's the wifi password?", touch=False)["results"]
    assert found[0]["id"] == wifi and found[0]["confidence"] != "low", found


def test_a_sort_code_or_a_postcode_is_no_credential() -> None:
    assert not gives("Bank: Nationwide, sort code 07-04-36, account 12345678.", "password")
    assert not gives("Home: 12 Tyne Green Row, postcode NE46 3HX.", "password")
    assert gives("Gate code for the yard is 4471.", "password")
