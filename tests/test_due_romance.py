"""Days written in Italian, Spanish or French are read as German and Polish ones are ("il 9 dicembre", "el 3 de
enero", "le 12 décembre"), and a line opening with an infinitive beside such a date is a thing to do: "Chiamare
nonna Pina il 9 dicembre" had no due day, so the call was on no list. A thing that was meant to be done on a
weekday gone by ("was supposed to ... last Friday and still haven't") is due that Friday, however long the
sentence before it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.lang.due import due_day, reminder_day, standing, to_do
from engram.lang.instruction import instruction
from engram.lang.weekday_dates import may_name_day

SAID = datetime(2026, 11, 25, 9, tzinfo=UTC)  # a Wednesday


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("Chiamare nonna Pina il 9 dicembre per il compleanno, verso le 11, prima del pranzo.", "2026-12-09"),
        ("Llamar a Carmen el 3 de enero para su cumpleaños", "2027-01-03"),
        ("Appeler Mamie le 12 décembre", "2026-12-12"),
        ("Prenotare il ristorante per il 1 marzo", "2027-03-01"),  # this year's is past: next year's
    ],
)
def test_an_infinitive_with_a_romance_date_is_a_thing_to_do_on_that_day(text: str, due: str) -> None:
    assert may_name_day(text) and instruction(text) and to_do(text)
    found = due_day(text, SAID)
    assert found is not None and found.date().isoformat() == due, found


def test_an_english_word_ending_like_an_infinitive_is_no_foreign_instruction() -> None:
    assert not instruction("Severe weather warning for 3 December")
    assert due_day("Nonna Pina vive a Napoli", SAID) is None


def test_a_thing_meant_for_a_weekday_gone_by_is_due_that_day() -> None:
    text = "was supposed to record the piano parts for the carols and send them to the choir last Friday and still haven't"
    found = reminder_day(text, SAID)
    assert found is not None and found.date().isoformat() == "2026-11-20", found


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("Pagare il regalo per la comunione di Matteo entro venerdì", "2026-11-27"),  # "entro": by
        ("Chiamare la nonna domani", "2026-11-26"),
        ("Llamar a Carmen el viernes", "2026-11-27"),
        ("Appeler Mamie demain", "2026-11-26"),
    ],
)
def test_a_romance_weekday_or_tomorrow_is_the_next_such_day(text: str, due: str) -> None:
    assert may_name_day(text) and to_do(text)
    found = due_day(text, SAID)
    assert found is not None and found.date().isoformat() == due, found


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("Mandar o presente da vó até sexta pelos Correios", "2026-11-27"),  # "até sexta": by Friday
        ("Ligar pra vó no dia 9 de dezembro", "2026-12-09"),
        ("Pagar a conta de luz amanhã", "2026-11-26"),
        ("Marcar o dentista na terça-feira", "2026-12-01"),
    ],
)
def test_a_portuguese_weekday_date_or_tomorrow_is_read_as_the_other_romance_ones(text: str, due: str) -> None:
    assert may_name_day(text) and to_do(text)
    found = due_day(text, SAID)
    assert found is not None and found.date().isoformat() == due, found


@pytest.mark.parametrize(
    "text",
    [
        "A vó reza por mim todo domingo na missa das nove.",
        "Ligo pra mãe todos os domingos depois do almoço",
        "Llamar a mamá cada domingo",
        "Chiamare la nonna ogni venerdì",
        "Appeler Mamie tous les dimanches",
    ],
)
def test_a_romance_weekday_that_comes_round_is_a_habit_never_due(text: str) -> None:
    assert standing(text) and reminder_day(text, SAID) is None


def test_a_romance_all_before_a_weekday_that_is_not_every_is_still_due() -> None:
    found = reminder_day("Todo el equipo viene el viernes", SAID)  # "all the team": the Friday is a day
    assert found is not None and found.date().isoformat() == "2026-11-27", found
