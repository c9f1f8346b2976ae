"""Three readings of a day that put a thing to do on no list, or on the wrong one: a plural naming a place before a
weekday ("from the dry cleaners on saturday") was read as things held each week, so never due; a deadline gone by
with its weekday before the day ("was due wed 18th") was read as next Wednesday; a Romance weekday with "next"
("el jueves que viene", "jeudi prochain") said on that weekday was read as today."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.lang.due import reminder_day, standing

SAID = datetime(2026, 11, 26, 8, tzinfo=UTC)  # a Thursday


@pytest.mark.parametrize(
    "text",
    [
        "pick up chef whites from the dry cleaners on saturday",
        "collect the curtains from the cleaners saturday",
        "meet Jo at the shops on Friday",
    ],
)
def test_a_place_in_the_plural_before_a_weekday_is_one_errand(text: str) -> None:
    assert not standing(text)
    found = reminder_day(text, SAID)
    assert found is not None and found.date().weekday() in (4, 5), found


@pytest.mark.parametrize("text", ["rehearsals Wednesday 7:30", "lessons Saturday at 10"])
def test_things_held_in_the_plural_on_a_bare_weekday_are_still_each_weeks(text: str) -> None:
    assert standing(text) and reminder_day(text, SAID) is None


@pytest.mark.parametrize(
    "text",
    [
        "Kofi's portfolio sign-off was due wed 18th and I still haven't done it",
        "the report was due Wednesday the 18th",
    ],
)
def test_a_deadline_gone_by_with_its_weekday_is_due_that_day(text: str) -> None:
    found = reminder_day(text, SAID)
    assert found is not None and found.date().isoformat() == "2026-11-18", found


def test_a_time_after_the_weekday_is_no_day_of_the_month() -> None:
    found = reminder_day("the essay was due friday 5pm and I still haven't sent it", SAID)
    assert found is not None and found.date().isoformat() == "2026-11-20", found


@pytest.mark.parametrize(
    "text",
    [
        "comprar el regalo de mamá antes del jueves que viene",
        "comprar el regalo el próximo jueves",
        "Appeler Mamie jeudi prochain",
        "chiamare la nonna giovedì prossimo",
        "ligar para a avó na próxima quinta",
    ],
)
def test_a_romance_next_weekday_said_on_that_weekday_is_a_week_on(text: str) -> None:
    found = reminder_day(text, SAID)
    assert found is not None and found.date().isoformat() == "2026-12-03", found


def test_a_romance_weekday_alone_said_on_that_weekday_is_still_today() -> None:
    found = reminder_day("Llamar a Carmen el jueves", SAID)
    assert found is not None and found.date().isoformat() == "2026-11-26", found
