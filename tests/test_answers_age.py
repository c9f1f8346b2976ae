""" "How old" asks for an age: a number as ages and years are written, not a day of the month or an hour. Read as
any amount, "how old is my mum?" was answered first by "Mum staying 23rd to 28th" over "she's 74"."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.lang.answers import asked, gives


@pytest.mark.parametrize(
    "text",
    [
        "Mum's in Plymouth, she's 74, had a hip replacement in September",
        "Dad (Graham Whitlock, 81) lives on his own",
        "Boiler is a 2009 Worcester combi",
        "Leo's fifth birthday party is on 16 January",
        "Rory's sister Niamh has two kids, Oisin (7) and Maeve (4).",
    ],
)
def test_an_age_as_people_write_it(text: str) -> None:
    assert gives(text, "age")


@pytest.mark.parametrize(
    "text",
    ["Christmas at ours this year, Mum staying 23rd to 28th", "Meeting moved to 10:30", "Rent is £1,150"],
)
def test_a_day_an_hour_or_a_sum_is_no_age(text: str) -> None:
    assert not gives(text, "age")


def test_how_old_asks_for_an_age() -> None:
    assert asked("how old is my mum?") == "age"
    assert asked("what age is Dad?") == "age"
    assert asked("how much is the gym?") == "amount"


NOTES = [
    "Christmas at ours this year, Mum staying 23rd to 28th",
    "Mum's in Plymouth, she's 74, had a hip replacement in September",
    "Ring Mum on Sunday afternoons, she gets lonely",
]


def test_the_memory_giving_the_age_comes_first(notes: Memory) -> None:
    found = notes.search_memory("how old is my mum?")["results"]
    assert found and "74" in found[0]["content"]
