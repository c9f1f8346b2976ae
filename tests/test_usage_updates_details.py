"""A change of one detail, however it is said: days said in the plural ("Mondays"), an address one writes to as the
new value, another word for the same detail ("a new number" of "her mobile"), a promotion or a transfer, a move into a kind of home in a named place. A day added ("on Thursdays too") changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import time_machine

from engram import Memory
from engram.write.rules import same_particulars
from engram.write.updates import updates

MONDAY = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def _store(memory: Memory, day: int, text: str) -> dict[str, Any]:
    with time_machine.travel(MONDAY + timedelta(days=day), tick=False):
        return dict(memory.store_memory(text))


def test_a_day_said_in_the_plural_is_a_particular() -> None:
    # Two close wordings that name other days are two facts, whether the days are said once or as a habit.
    assert not same_particulars("Bins go out on Mondays.", "Bins go out on Fridays.")
    assert same_particulars("Bins go out on Monday.", "Bins go out on Mondays.")
    assert updates("Our window cleaner comes on Thursdays now.", "Our window cleaner comes on Tuesdays.", 0.8)


def test_an_address_is_the_new_value_not_a_topic() -> None:
    older = "Harbourtech invoices go to billing@harbourtech.example."
    assert updates("Harbourtech invoices go to ap@harbourtech.example from now on.", older, 0.8)
    # The same address said again changes nothing; another one for another client is no update.
    assert not updates("Harbourtech invoices go to billing@harbourtech.example from now on.", older, 0.8)
    assert not updates("Lumen invoices go to ap@lumen.example from now on.", older, 0.8)


def test_another_word_for_the_same_detail_names_what_the_older_memory_does() -> None:
    older = "Priya's mobile is 07700 900222."
    assert updates("Priya has a new number, 07700 900111.", older, 0.8)
    assert not updates("Tom has a new number, 07700 900111.", older, 0.8)  # someone else's


def test_a_day_added_is_no_change_but_a_reason_saying_too_much_is() -> None:
    older = "Ellie's swimming lessons are on Tuesdays."
    assert not updates("Ellie's swimming lessons are on Thursdays too, from next week.", older, 0.8)
    assert updates("Moved Ellie's swimming lessons to Thursdays - Tuesdays were too busy.", older, 0.8)


def test_a_promotion_and_a_transfer_say_a_change() -> None:
    assert updates(
        "Ravi has been promoted to Head of Design at Lumen.", "Ravi is a senior designer at Lumen.", 0.75
    )
    assert updates("Ravi transferred to the Leeds office in May.", "Ravi works from the York office.", 0.65)


def test_a_move_into_a_kind_of_home_in_a_named_place_updates_where_they_lived(real: Memory) -> None:
    older = _store(real, 0, "Mum lives in Whitby, in the cottage near the abbey.")["memory_id"]
    newer = _store(real, 3, "Mum has moved into sheltered housing in Scarborough.")["memory_id"]
    assert real.get(older).metadata.get("updated_by") == newer
    # Someone else's move leaves her home as it was.
    other = _store(real, 4, "Auntie Jean lives in Filey.")["memory_id"]
    _store(real, 5, "My cousin Rob has moved into student halls in Hull.")
    assert "updated_by" not in real.get(other).metadata
    when = MONDAY + timedelta(days=6)
    with time_machine.travel(when, tick=False):
        found = [h["id"] for h in real.search_memory("where does mum live?", now=when)["results"]]
    assert found.index(newer) < found.index(older)
