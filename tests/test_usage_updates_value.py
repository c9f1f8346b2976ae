"""A change told by its new value, in the words people use: "Rent's £1,240 after the renewal", "New wifi password is
kettle otter", "Car insurance is with Admiral now", "Heart appt moved to 21 May" (a shortening, a field's other
name), "they've moved me to the 23:55 sailing" (a colon inside a time), "Hannah's moved to Cardiff", "Switched
broadband to Sky". What another thing, person or pet is said to be stays a memory of its own, and a booking moved
leaves the list of things to do."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

from engram import Memory
from engram.write.details import shortens
from engram.write.told import CLAUSES
from engram.write.updates import updates

MONDAY = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def _store(memory: Memory, day: int, text: str) -> dict[str, Any]:
    with time_machine.travel(MONDAY + timedelta(days=day), tick=False):
        return dict(memory.store_memory(text))


@pytest.mark.parametrize(
    ("older", "newer", "other"),
    [
        # A new value of several words after "is": what it is the value of is the older memory's.
        ("The wifi password is bluefrog22.", "New wifi password is kettle otter.",
         "New guest wifi password is kettle otter."),
        # "'s" before a figure gives the value, and "renewal" says it changed.
        ("Rent is £1,150 a month.", "Rent's £1,240 after the renewal.", "Parking's £60 after the renewal."),
        # The new provider's name is the value, not whom the fact is about.
        ("My car insurance is with Aviva, renews in April.", "Car insurance is with Admiral now.",
         "Home insurance is with Admiral now."),
        ("Our broadband is with BT at £39 a month.", "Switched broadband to Sky, £27 a month.",
         "Switched the phone contract to Sky, £27 a month."),
    ],
)  # fmt: skip
def test_a_new_value_of_the_same_thing_is_a_change_and_another_thing_s_is_not(
    older: str, newer: str, other: str
) -> None:
    assert updates(newer, older, 0.75), newer
    assert not updates(other, older, 0.75), other


def test_a_shortening_or_a_field_s_other_name_is_the_older_memory_s_word() -> None:
    older = "My cardiology appointment is on 14 May at 10:30."
    assert updates("Heart appt moved to 21 May, 2pm.", older, 0.5)
    assert not updates("Skin appt moved to 21 May, 2pm.", older, 0.5)
    assert shortens("appt", "appointment") and shortens("mtg", "meeting")
    assert not shortens("cat", "contract")  # a word of its own shortens nothing


def test_a_colon_or_a_comma_inside_a_figure_ends_no_clause() -> None:
    assert [c for c in CLAUSES.split("moved me to the 23:55 sailing, £1,240") if c.strip()] == [
        "moved me to the 23:55 sailing",
        " £1,240",
    ]
    older = "Our ferry to Santander leaves Plymouth at 22:00 on Friday 3 July."
    assert updates("They've moved me to the 23:55 sailing on the 3rd.", older, 0.5)
    assert not updates("They've moved me to the 23:55 train on the 3rd.", older, 0.5)


@pytest.mark.parametrize(
    ("older", "newer", "other"),
    [
        ("My sister Hannah lives in Bristol.", "Hannah's moved to Cardiff with her job.",
         "Ruth's moved to Cardiff with her job."),
        ("My best friend Kate lives in Glasgow.", "Kate moved down to Manchester in the summer.",
         "Anna moved down to Manchester in the summer."),
        # One's mum named by her name is the "Mum" of a later line; someone else's mum is not.
        ("My mum Carol lives in Leeds.", "Mum moved to York last month.", "Priya's mum moved to York last month."),
    ],
)  # fmt: skip
def test_a_move_of_home_told_as_people_tell_it_is_the_same_person_s(
    older: str, newer: str, other: str
) -> None:
    assert updates(newer, older, 0.6), newer
    assert not updates(other, older, 0.6), other


def test_a_sailing_moved_leaves_the_things_to_do_and_the_other_sailing_stays(real: Memory) -> None:
    first = _store(real, 0, "Ferry: Dover to Calais Sunday 29 November 22:15, booking ref DF88231")[
        "memory_id"
    ]
    back = _store(real, 0, "Ferry back: Calais to Dover Friday 4 December 09:10, booking ref DF88232")[
        "memory_id"
    ]
    newer = _store(real, 2, "Ferry company emailed, they've moved me to the 23:55 sailing Sunday, same ref")[
        "memory_id"
    ]
    assert real.get(first).metadata.get("updated_by") == newer
    assert "updated_by" not in real.get(back).metadata
    when = MONDAY + timedelta(days=3)
    with time_machine.travel(when, tick=False):
        listed = [r["id"] for r in real.search_memory("what's coming up this week?", now=when)["results"]]
    assert first not in listed, listed


def test_words_after_the_new_sum_say_what_it_buys_not_another_topic() -> None:
    # A comma inside "£42,000" no longer cuts the clause, so its tail is read as part of the change.
    older = "Brightline (our payroll vendor) contract renews 31 March. They quoted £18,000 a year. Contact Jo Price"
    assert updates("Brightline came down to £16,500 a year for a 3-year term.", older, 0.78)
    assert not updates(
        "Halcyon came down to £16,500 a year for a 3-year term.", older, 0.78
    )  # another vendor
