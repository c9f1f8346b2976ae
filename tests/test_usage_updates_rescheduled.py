"""A date or a price told again changed, in the words people use: "has slipped to Friday 18 December", "brought
forward to Thursday", "moves to 7pm from next week", "came down to £12,800". A date moved embeds further from a
long first statement than other changes do, so it is read on its own: what moved before the verb, only words the
older memory says, and a time after it. A plan and the news that it was done, or another event moved, is no
change. What a newer memory replaced is no longer listed as a thing to do."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

from engram import Memory
from engram.write.updates import unchanged_stems, updates

MONDAY = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def _store(memory: Memory, day: int, text: str) -> dict[str, Any]:
    with time_machine.travel(MONDAY + timedelta(days=day), tick=False):
        return dict(memory.store_memory(text))


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("The exchange of contracts on the house is set for Wednesday 2 December",
         "Exchange has slipped to Wednesday 9 December - the buyer's valuation came back late"),
        ("Office Christmas party is Friday 11 December at the Botanist, from 7pm",
         "Christmas party brought forward to Thursday 10 December - the venue double booked"),
        # "op" is short for the older memory's "operation"
        ("Dad's hip operation is scheduled for 20 January at the Royal Infirmary.",
         "Dad's hip op pushed back to 3 February, they're short of beds."),
    ],
)  # fmt: skip
def test_a_date_moved_updates_the_older_date_however_far_apart_they_embed(
    real: Memory, older: str, newer: str
) -> None:
    first = _store(real, 0, older)["memory_id"]
    assert _store(real, 3, newer)["recommendations"]["suggested_updates"] == [first], newer
    assert real.get(first).metadata["updated_by"]


def test_another_event_moved_to_another_date_is_no_update() -> None:
    # The carol concert is not the school play, however close the dates and the school read.
    older = "Our school play is on Thursday 4 December at 6pm."
    assert not updates("The school carol concert has been moved to Tuesday 16 December.", older, 0.51)
    assert updates("The school play has been moved to Tuesday 16 December.", older, 0.51)


def test_a_plan_then_the_news_it_was_done_is_no_update() -> None:
    older = "Planning to move the sofa into the back room on Saturday."
    assert not updates("Moved the sofa into the back room, looks much better.", older, 0.68)


def test_a_reason_naming_someone_else_does_not_make_the_change_about_them() -> None:
    older = "The book club meets on the first Wednesday of the month at 7."
    assert updates("book club is the first Tuesday now, Sarah's got choir on Wednesdays", older, 0.65)


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("The roofer's quote for the new roof was £14,500.",
         "Roofer's quote came down to £12,800 after we dropped the skylight."),
        ("Piano lessons cost £30 an hour.", "Piano lessons are going up to £34 an hour in January."),
        ("The broadband contract is with Virgin, £45 a month.",
         "Broadband down to £38 a month after I rang Virgin to cancel."),
    ],
)  # fmt: skip
def test_a_price_come_down_or_going_up_to_a_figure_is_a_change(older: str, newer: str) -> None:
    assert updates(newer, older, 0.8)
    assert not updates(newer.replace(" to £", " at £", 1), older, 0.8)


def test_a_date_replaced_is_not_listed_as_a_thing_to_do(real: Memory) -> None:
    first = _store(real, 0, "Submit the grant report by Friday 11 December")["memory_id"]
    newer = _store(real, 2, "Grant report pushed back to Friday 18 December, the figures are late")[
        "memory_id"
    ]
    assert real.get(first).metadata.get("updated_by") == newer
    when = MONDAY + timedelta(days=4)
    with time_machine.travel(when, tick=False):
        listed = [r["id"] for r in real.search_memory("what's due in December?", now=when)["results"]]
    assert newer in listed and first not in listed, listed


def test_of_two_clauses_saying_a_change_the_one_with_the_value_says_what_changed() -> None:
    # "the agency changed the rota" says who changed it: its words are no topic the older memory lacks.
    older = "Gran's care visits are at 8am and 6pm."
    assert updates("Gran's evening care visit is 7pm now, the agency changed the rota.", older, 0.74)
    assert not updates("Gran's chiropodist appointment is 7pm now, the agency changed the rota.", older, 0.74)


def test_a_change_saying_only_a_name_and_a_value_leaves_the_older_memory_s_other_facts() -> None:
    # Asked who the account rep is, the older memory keeps its place above "came down to £8,900".
    older = "Hoxton Print (our label supplier) contract renews 30 April. They quoted £9,600 a year. Account rep Jo Mills"
    left = unchanged_stems(older, "Hoxton Print came down to £8,900 a year")
    assert {"contract", "account", "mill"} <= left, left
    assert unchanged_stems("My sister Clara lives in Lisbon.", "Clara moved to Porto.") == frozenset()


def _ids(memory: Memory, question: str) -> list[str]:
    when = MONDAY + timedelta(days=5)
    with time_machine.travel(when, tick=False):
        return [h["id"] for h in memory.search_memory(question, now=when)["results"]]


def test_a_change_of_time_does_not_go_first_for_where_who_or_why(real: Memory) -> None:
    older = _store(
        real,
        0,
        "Cycling club: Sunday ride 8am from the Green Man car park, and a social ride Wednesday evenings "
        "round the reservoir",
    )["memory_id"]
    newer = _store(real, 3, "Sunday ride's moving to 9am from January, the car park opens later")["memory_id"]
    assert real.get(older).metadata["updated_by"] == newer
    found = _ids(real, "what time is the Sunday ride?")
    assert found.index(newer) < found.index(older), found
    found = _ids(real, "where does the social ride go?")
    assert found.index(older) < found.index(newer) if newer in found else found[0] == older, found
