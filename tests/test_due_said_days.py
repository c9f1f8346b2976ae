"""Due days as people say them: an appointment named by its time of day, a moved or scheduled event, German
and Chinese days said from today, "before Monday" said on a Monday, "end of next week", and "every <thing>" as a
habit."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.lang import due, events

MONDAY = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)


def _day(text: str) -> str | None:
    found = due.deadline_day(text, MONDAY)
    return None if found is None else found.date().isoformat()


@pytest.mark.parametrize(
    ("text", "day"),
    [
        # A time of day beside a day: an appointment, whatever words tell of it.
        ("Dentist appointment on Thursday at 9.", "2026-11-26"),
        ("Call with the bank on 2 December, 10:30.", "2026-12-02"),
        ("Abendessen bei Jana morgen um 19 Uhr.", "2026-11-24"),
        ("明天下午三点去医院。", "2026-11-24"),
        # An event moved, scheduled or starting on a day, with or without "on".
        ("The sprint review moved to Wednesday 2 December.", "2026-12-02"),
        ("Boiler service is scheduled for 9 December.", "2026-12-09"),
        ("The winter sale starts Friday 4 December.", "2026-12-04"),
    ],
)
def test_an_appointment_or_a_moved_event_is_due_on_its_day(text: str, day: str) -> None:
    assert due.to_do(text), text
    assert _day(text) == day


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Bis Ende Dezember die Fotos sortieren.", "2026-12-31"),
        ("Die Unterlagen bis Freitag an den Steuerberater schicken.", "2026-11-27"),
        ("Den Antrag bis nächsten Montag abgeben.", "2026-11-30"),
        ("Die Rechnung muss vor dem 10. Dezember bezahlt sein.", "2026-12-10"),
        ("Heute noch die Blumen gießen, nicht vergessen.", "2026-11-23"),
    ],
)
def test_german_days_said_from_today(text: str, day: str) -> None:
    assert _day(text) == day


def test_heute_morgen_and_every_morning_are_no_tomorrow() -> None:
    # "heute Morgen" is this morning and "morgens" each morning: neither is the day after.
    found = due.due_day("Heute Morgen war der Bus zu spät.", MONDAY)
    assert found is not None and found.date() == MONDAY.date()
    assert due.deadline_day("Ich trinke morgens Tee.", MONDAY) is None


def test_before_a_weekday_said_on_it_is_next_week() -> None:
    # "before Monday" said on a Monday cannot be today; "by Monday" and "Monday" keep today, as tested elsewhere.
    assert _day("Mark the essays before Monday.") == "2026-11-30"
    assert _day("Keep the stand closed until Monday.") == "2026-11-30"
    assert _day("Send the slides by Monday") == "2026-11-23"


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Finish the risk assessment by end of next week.", "2026-12-06"),
        ("Pay the invoice by the end of next month.", "2026-12-31"),
        ("Hand in the essay by the end of this week.", "2026-11-29"),
    ],
)
def test_end_of_next_week_or_month(text: str, day: str) -> None:
    assert _day(text) == day


@pytest.mark.parametrize(
    "text",
    [
        "Every sprint ends with a demo on Thursday.",
        "Each release goes out on a Tuesday.",
        "The fridge is checked at every shift change on Monday.",
    ],
)
def test_every_thing_that_comes_round_is_never_due(text: str) -> None:
    assert due.standing(text)
    assert due.deadline_day(text, MONDAY) is None


@pytest.mark.parametrize(
    "text",
    ["Send every invoice by Friday.", "Check every room on Friday before the guests arrive."],
)
def test_every_as_a_task_quantifier_stays_due(text: str) -> None:
    assert not due.standing(text)
    assert due.deadline_day(text, MONDAY) is not None


@pytest.mark.parametrize(
    "text",
    [
        "The backup runs at 2am.",  # a time, no day
        "Kubernetes 1.29 runs on staging.",  # a version, no time
        "The school office number is 0113 496 0732.",
        "I met Carla on Friday at 6pm.",  # told as past
    ],
)
def test_no_appointment_without_a_time_and_a_day_ahead(text: str) -> None:
    assert _day(text) is None or not events.timed(text)
