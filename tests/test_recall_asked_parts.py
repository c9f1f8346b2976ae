"""What a question asks of what it names: a holiday or a weekday names when, not whom; "what time" asks for the hour
or the part of the day; "Jean's surname" asks for a name beside the one said. A memory standing alone without it
is no sure answer; one with it stays as sure as its match makes it. The rules on their own, then with the real
model on memories a person writes."""

from __future__ import annotations

from datetime import UTC, datetime

from engram import Memory
from engram.lang.answers import asked, gives
from engram.model.results import Scored
from engram.recall.named import names_asked
from engram.recall.query import topical
from engram.recall.typed import _name_part, untyped
from engram.store.values import Facts

NOTES = (
    "Need to order the turkey from Howards butchers by 12 December.",
    "Daniel and Mei are coming for Christmas, arriving 23 December by train.",
    "Clive's hearing aids are serviced at Specsavers on Castle Street every six months.",
    "Jean from book club lent me her slow cooker; must give it back.",
    "Book club meets at Jean's house the last Wednesday of the month.",
    "Dr Okonkwo at Roundwell Surgery is my GP; the surgery number is 01603 812345.",
    "I sing alto in the Cathedral Community Choir, rehearsals Tuesday 7pm in the Hostry.",
)


def test_a_holiday_or_a_weekday_is_no_name_asked_about_but_a_person_named_after_a_month_is() -> None:
    assert names_asked("where am I getting the Christmas turkey from?") == ()
    assert names_asked("what did Priya say on Monday?") == ("priya",)
    assert names_asked("what did June say about the boiler?") == ("june",)
    assert names_asked("what time is kick off on Sundays?") == ()  # a weekday said in the plural


def test_a_plural_weekday_asks_when_and_leaves_a_memory_of_that_day_sure(real: Memory) -> None:
    answer = real.store_memory(
        "Football: Josh plays for Formby Juniors U14s, Sunday mornings, kick off 10:30."
    )
    real.store_memory("Kyle's mum Tina does the football run on alternate Sundays.")
    found = real.search_memory("what time is kick off on Sundays?", touch=False)["results"]
    assert found[0]["id"] == answer["memory_id"]
    assert found[0]["confidence"] in ("medium", "high")


def test_what_time_asks_for_an_hour_or_a_part_of_the_day() -> None:
    assert asked("what time is Clive's hearing test?") == "clock"
    assert asked("what time of year is the festival?") == "time"
    assert asked("when is the hearing test?") == "time"
    assert not gives("serviced every six months", "clock")
    assert not gives("rehearsals on Tuesdays", "clock")
    for text in (
        "rehearsals Tuesday 7pm",
        "the booster at 10:15",
        "Friday morning, 9 till 12",
        "starts at 9",
    ):
        assert gives(text, "clock"), text


def test_a_part_of_a_name_is_given_only_beside_the_part_said() -> None:
    first, surname = _name_part("what is Dr Okonkwo's first name?"), _name_part("what is Jean's surname?")
    assert first is not None and surname is not None
    assert not first.search(NOTES[5]) and first.search("Dr Chidi Okonkwo retired in May.")
    assert not surname.search(NOTES[3]) and not surname.search(NOTES[4])
    assert surname.search("Jean Marsh from book club lent me her slow cooker.")
    assert _name_part("what is my dentist's name?") is None


def test_each_reading_keeps_the_answer_sure_and_lowers_the_near_miss(real: Memory) -> None:
    ids = [real.store_memory(text)["memory_id"] for text in NOTES]
    found = real.search_memory("where am I getting the Christmas turkey from?", touch=False)["results"]
    assert found[0]["id"] == ids[0] and found[0]["confidence"] != "low", found
    for question in (
        "what time is Clive's hearing test?",
        "what is Jean's surname?",
        "what is Dr Okonkwo's first name?",
    ):
        found = real.search_memory(question, touch=False)["results"]
        assert all(r["confidence"] == "low" for r in found), (question, found)
        assert real.recall(question, touch=False) == [], question
    found = real.search_memory("what time is choir practice?", touch=False)["results"]
    assert found[0]["id"] == ids[6] and found[0]["confidence"] != "low", found


def _alone(memory_id: str, content: str) -> Scored[Facts]:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    return Scored(Facts(memory_id, content, 0.5, at, at, None, 0, 1.0, False), 0.5)


def test_when_an_occasion_is_asked_by_name_only_a_memory_stating_it_answers() -> None:
    shown = [
        _alone("graduation", "Grace's graduation is on 8 July in Glasgow - book a hotel."),
        _alone("turns", "Theo turns 4 on 9 January."),
        _alone("birthday", "Chioma's birthday is 30 November."),
        _alone("married", "Rob and I got married on 6 September 2014 in Porto."),
    ]
    assert untyped(shown, "when is Grace's birthday?") == {"graduation", "married"}
    assert untyped(shown, "when is our wedding anniversary?") == {"graduation", "turns", "birthday"}
    # Only "when": what was given for a birthday need not say the word.
    assert untyped(shown, "what did I get Theo for his birthday?") == set()


def test_a_birthday_is_stated_by_the_age_reached() -> None:
    shown = [
        _alone("age", "Grandad's 80th is on 15 February in Wrexham, whole family going."),
        _alone("date", "Jo's 15th of March dinner is at the Italian place."),
    ]
    assert untyped(shown, "when is grandad's birthday?") == {"date"}


def test_a_memory_naming_only_other_weekdays_is_about_another_day() -> None:
    shown = [
        _alone("friday", "Volunteer shift at the Norwich food bank every Friday morning, 9 till 12."),
        _alone("saturday", "The food bank opens on Saturdays from 10 till 1 in the church hall."),
        _alone("undated", "The food bank opens at 10 most days and needs tinned fish."),
    ]
    assert untyped(shown, "what time does the food bank open on Saturdays?") == {"friday"}
    assert untyped(shown, "what does the food bank need?") == set()


def test_where_someone_goes_asks_for_a_place_not_the_verb() -> None:
    assert topical("where are we going on holiday?") == ("holiday",)
    assert topical("where does my kid go to school?") == ("kid", "school")
    assert topical("what's going on with the dog?") == ("dog",)
    assert "going" in topical("how is the kitchen job going?")  # no place asked: the verb stays a word


def test_a_trip_asked_where_to_is_answered_by_the_place_booked(real: Memory) -> None:
    booked = real.store_memory("Summer holiday booked: Keswick, cottage from 1-8 August, deposit paid £300.")
    for note in NOTES:
        real.store_memory(note)
    found = real.search_memory("where are we going on holiday?", touch=False)["results"]
    assert found[0]["id"] == booked["memory_id"]
    assert found[0]["confidence"] in ("medium", "high")
    assert real.recall("where are we going on holiday?", touch=False)[0].record.id == booked["memory_id"]
