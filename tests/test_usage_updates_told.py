"""A change told as people tell it: with why after it ("pilates is mondays at 7 now, Priti changed her timetable"),
by who made it ("Gym put the membership up"), or with one new word beside the old ones ("moved Nan to ward 2 on the
ground floor"). The newer memory comes first when the question asks for what changed or for things as they are
now, and the older one keeps its place when asked about its other facts. Real model: closeness is meaning."""

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


def _ids(memory: Memory, question: str) -> list[str]:
    when = MONDAY + timedelta(days=5)
    with time_machine.travel(when, tick=False):
        return [h["id"] for h in memory.search_memory(question, now=when)["results"]]


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Pilates is Thursdays at 6 with Priti.", "pilates is mondays at 7 now, Priti changed her timetable"),
        ("Gym membership is £32 a month.", "Gym put the membership up to £35 from February."),
        ("Nan is on Ward 7, second floor, at the General.", "They've moved Nan to ward 2 on the ground floor after her scan."),
        ("Recycling goes out on Thursday mornings.", "Council have changed our recycling day to Tuesday."),
    ],
)  # fmt: skip
def test_a_change_told_with_why_who_or_a_new_word_updates_the_older_fact(
    real: Memory, older: str, newer: str
) -> None:
    first = _store(real, 0, older)["memory_id"]
    assert _store(real, 3, newer)["recommendations"]["suggested_updates"] == [first], newer


def test_another_thing_named_before_the_change_is_no_update() -> None:
    # Mia's tennis lessons are not her piano lessons, however close the two read.
    assert not updates("Mia's tennis lessons moved to Friday.", "Mia's piano lessons are on Tuesdays.", 0.8)
    assert updates("Mia's piano lessons moved to Friday.", "Mia's piano lessons are on Tuesdays.", 0.8)


def test_the_older_memory_s_other_facts_are_the_parts_that_share_nothing_changed() -> None:
    older = "Nan (Edith, 91) is on Ward 7, second floor. Her consultant is Dr Okoro."
    left = unchanged_stems(older, "They've moved Nan to ward 2 on the ground floor after her scan.")
    assert "consult" in left and not {"ward", "floor"} & left
    # Nothing of the older one says what changed: all of it did ("moved to Porto" of "lives in Lisbon").
    assert unchanged_stems("My sister Clara lives in Lisbon.", "Clara moved to Porto.") == frozenset()


def test_the_change_comes_first_when_asked_for_it_and_the_older_fact_keeps_its_other_answers(
    real: Memory,
) -> None:
    nan = _store(
        real, 0, "Nan (Edith, 91) is on Ward 7, second floor, at the General. Her consultant is Dr Okoro."
    )
    moved = _store(real, 3, "They've moved Nan to ward 2 on the ground floor after her scan.")["memory_id"]
    assert real.get(nan["memory_id"]).metadata["updated_by"] == moved
    for question in ("which ward is Nan on?", "where is Nan now?"):
        found = _ids(real, question)
        assert found.index(moved) < found.index(nan["memory_id"]), question
    found = _ids(real, "who is Nan's consultant?")
    assert found[0] == nan["memory_id"]


def test_accurate_recall_returns_the_change_of_a_fact_it_returns(real: Memory) -> None:
    choir = _store(real, 0, "I sing with the Harbour Choir on Tuesday nights, 7.30 at the Mission hall.")
    moved = _store(real, 3, "Harbour Choir is moving to Thursday nights from January, same times")[
        "memory_id"
    ]
    assert real.get(choir["memory_id"]).metadata["updated_by"] == moved
    when = MONDAY + timedelta(days=5)
    with time_machine.travel(when, tick=False):
        hits = real.recall("which night do I sing at the Mission hall now?", now=when)
    assert [h.record.id for h in hits][:2] == [moved, choir["memory_id"]]


def test_a_status_wished_or_planned_is_no_update_of_the_status_held() -> None:
    from engram.write.standing import status

    assert status("Kofi and I want to get married in 2028, probably in Accra.") is None
    assert status("We're thinking of getting engaged at Christmas.") is None
    assert status("Kofi and I got married in June.") is not None


def test_a_new_number_named_by_another_phone_word_updates_the_older_number() -> None:
    # "number" beside an older "mobile": both give a phone number, so the one word of its own names the same thing.
    assert updates("Tom's got a new phone, number is now 07700 900655", "Tom mobile 07700 900318", 0.7)
    assert not updates("Tom's got a new phone, number is now 4471", "Tom mobile 07700 900318", 0.7)
    assert not updates("Gym number is now 01604 555 210", "Tom mobile 07700 900318", 0.7)  # someone else's


def test_a_change_from_a_day_of_the_week_on_is_a_change() -> None:
    assert updates("Yoga is at 7pm from Monday.", "Yoga is Wednesdays at 6pm.", 0.7)
    assert not updates("Pilates is at 7pm from Monday.", "Yoga is Wednesdays at 6pm.", 0.7)
