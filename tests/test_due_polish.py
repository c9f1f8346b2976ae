"""Days written in Polish are read as German and Chinese ones are: a date with its month in the genitive ("22
grudnia"), a weekday after "w" ("w niedzielę"), today and tomorrow; "Kuzyn Piotr przylatuje 22 grudnia" had no
due day, so the day he lands was on no list."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.lang.due import due_day
from engram.lang.weekday_dates import may_name_day

SAID = datetime(2026, 11, 24, 9, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("Kuzyn Piotr przylatuje 22 grudnia do Birmingham z Krakowa, o 14:35. Ja go odbieram.", "2026-12-22"),
        ("Zadzwonić do cioci Ewy w niedzielę wieczorem", "2026-11-29"),
        ("Jutro zapłacić rachunek za gaz", "2026-11-25"),
        ("Wizyta u dentysty we wtorek", "2026-11-24"),
        ("Spotkanie w przyszły wtorek o 10:00", "2026-12-01"),
        ("Oddać książki do biblioteki do 3 stycznia", "2027-01-03"),
        ("Zapłacić za bilety do Krakowa do piątku", "2026-11-27"),  # "do" a day: by then
    ],
)
def test_a_polish_day_is_read_forward(text: str, due: str) -> None:
    assert may_name_day(text)
    found = due_day(text, SAID)
    assert found is not None and found.date().isoformat() == due, found


def test_a_polish_line_naming_no_day_has_none() -> None:
    assert due_day("Mama lubi pierogi z kapustą", SAID) is None


def test_polish_do_before_a_day_states_a_deadline() -> None:
    from engram.lang.instruction import states_deadline

    assert states_deadline("Zapłacić za bilety do Krakowa do piątku")
    assert not states_deadline("Jadę do Krakowa w sobotę")  # "to Kraków", on Saturday


def test_a_polish_infinitive_opening_a_line_is_a_thing_to_do() -> None:
    from engram.lang.instruction import instruction

    assert instruction("Zadzwonić do cioci Ewy w niedzielę wieczorem")
    assert instruction("Kupić bilety")
    assert not instruction("Wartość domu wzrosła")  # a noun in -ość
    assert not instruction("Sieć nie działa")


def test_a_polish_infinitive_after_the_day_it_is_due_is_a_thing_to_do() -> None:
    # The day first, what to do after a dash or a comma ("... 9 stycznia - kupić prezent"); "-ość" is a noun's.
    from engram.lang.due import to_do
    from engram.lang.instruction import instruction

    assert instruction("Urodziny wujka Marka 9 stycznia - kupić prezent i wysłać kartkę")
    assert instruction("Wizyta 3 grudnia, zapłacić gotówką")
    assert not instruction("Wizyta 3 grudnia, wartość 200 zł")
    assert to_do("Muszę oddać książki 3 stycznia")  # "I must"
    assert due_day("Urodziny wujka Marka 9 stycznia - kupić prezent i wysłać kartkę", SAID) is not None


def test_a_polish_journey_on_a_day_is_on_the_calendar() -> None:
    from engram.lang.events import on_calendar

    assert on_calendar("Ferie: lecimy 3 lutego do Gdańska, wracamy 10.")
    assert on_calendar("Wylot do Warszawy w piątek rano")
    assert not on_calendar("Lubimy Gdańsk, byliśmy tam dwa razy")  # no day, no journey
