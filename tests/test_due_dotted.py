"""A date written day.month.year, as most of Europe writes it ("by 14.01.2027", "am 03.04.27"), is a due day read
day first; a version or an address with dots is no date, and none of them is a phone number."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

from engram import Memory
from engram.lang import analysis, due, pii

SAID = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Submit the visa forms by 14.01.2027", "2027-01-14"),
        ("The report is due on 3.4.2027", "2027-04-03"),
        ("Abgabe der Steuererklärung bis 31.07.2027", "2027-07-31"),
        ("Termin beim Zahnarzt am 03.04.27 um 10 Uhr", "2027-04-03"),
    ],
)
def test_a_dotted_date_is_a_due_day_read_day_first(text: str, day: str) -> None:
    assert due.to_do(text), text
    found = due.deadline_day(text, SAID)
    assert found is not None and found.date().isoformat() == day
    assert pii.detect(text) == []


@pytest.mark.parametrize(
    "text",
    ["Release 1.2.34 ships next sprint", "Server 192.168.1.10 is down", "Upgrade Python to 3.11.4 soon"],
)
def test_versions_and_addresses_are_no_dates(text: str) -> None:
    assert not [e for e in analysis.entities(text) if e.kind == "date"]


def test_a_dotted_deadline_reaches_the_due_list(mem: Memory) -> None:
    with time_machine.travel(SAID, tick=False):
        stored = mem.store_memory("Renew the car insurance by 02.12.2026")
        assert stored["analysis"]["due_date"] is not None
        assert stored["analysis"]["due_date"].startswith("2026-12-02")
        listed = mem.search_memory("what's due next week?")
    assert any("car insurance" in r["content"] for r in listed["results"])


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Parents' evening Thu 10.12., 7pm", "2026-12-10"),
        ("Team dinner Friday 11.12.", "2026-12-11"),
        ("Zahnarzt Di 8.12. um 10", "2026-12-08"),
        ("Weihnachtsfeier Freitag, 18.12.", "2026-12-18"),
    ],
)
def test_a_weekday_before_a_dotted_day_and_month_names_that_date(text: str, day: str) -> None:
    # Read alone, the weekday was the next one (a week early for "Friday 11.12."), or nothing was read at all.
    found = due.due_day(text, SAID)
    assert found is not None and found.date().isoformat() == day


@pytest.mark.parametrize("text", ["so 4.12. is the release", "do 3.12. things first", "Fri 9.15 standup"])
def test_lower_case_words_and_times_after_a_weekday_are_no_dotted_dates(text: str) -> None:
    assert due.due_day(text, SAID) is None


def test_a_weekday_and_dotted_date_reaches_its_weeks_due_list(real: Memory) -> None:
    mem = real  # the real model: whether a line is a thing to do is the classifier's call
    with time_machine.travel(datetime(2026, 12, 7, 8, 0, tzinfo=UTC), tick=False):
        stored = mem.store_memory("Parents' evening Thu 10.12., 7pm at the school")
        assert (stored["analysis"]["due_date"] or "").startswith("2026-12-10"), stored["analysis"]
        listed = mem.search_memory("what do I have this week?")
    assert any("Parents' evening" in r["content"] for r in listed["results"])
