"""A change told by what replaced the older value: a thing moved to another provider ("Switched my current account
to Monzo"), the older time said to be no more beside the new one ("Getting the 7:12 now, the 6:50 got cancelled
for good"), a car traded in or a service dropped by name, and a new place named after "he's at" with whom it is
about before it. Such changes sit far in meaning from the older memory; what is another thing's, or one day's,
stays a memory of its own."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

from engram import Memory
from engram.write.replaced import replaced, replaced_said
from engram.write.told import ended
from engram.write.updates import updates

MONDAY = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def _store(memory: Memory, day: int, text: str) -> dict[str, Any]:
    with time_machine.travel(MONDAY + timedelta(days=day), tick=False):
        return dict(memory.store_memory(text))


@pytest.mark.parametrize(
    ("older", "newer", "other"),
    [
        # The thing switched is the older memory's, the provider another one.
        ("I bank with Barclays, current account and savings.", "Switched my current account to Monzo.",
         "Switched my pension to Aviva."),
        # The older time is no more and another is given for good; a train cancelled one day changes nothing.
        ("I get the 6:50 train to Leeds every morning.", "Getting the 7:12 now, the 6:50 got cancelled for good.",
         "The 6:50 got cancelled this morning so I got the 7:12."),
    ],
)  # fmt: skip
def test_what_replaced_the_older_value_is_a_change_far_apart(older: str, newer: str, other: str) -> None:
    assert replaced_said(newer) and replaced(newer, older), newer
    assert updates(newer, older, 0.35), newer
    assert not updates(other, older, 0.35), other


def test_a_provider_the_older_memory_names_is_no_new_one() -> None:
    assert not replaced("Switched my current account to Barclays.", "I bank with Barclays, current account.")


def test_a_car_traded_in_or_a_service_dropped_by_name_is_ended() -> None:
    assert ended("Traded the Fiesta in, driving a Kia Niro now") == {"fiesta"}
    assert ended("Part-exchanged the Corsa last weekend") == {"corsa"}
    assert ended("Dropped Spotify, I'm on Apple Music now") == {"spotify"}
    assert ended("Switched from Duolingo to a weekly class") == {"duolingo"}
    assert not ended("Dropped the kids at school")  # a thing named by no name is dropped off, not given up
    assert updates("Traded the Fiesta in, driving a Kia Niro now", "I drive a Ford Fiesta.", 0.55)
    assert not updates("Traded the Fiesta in, driving a Kia Niro now", "My sister drives a Mini.", 0.55)


def test_a_new_place_after_he_s_at_is_the_value_with_whom_it_is_about_before_it() -> None:
    older = "Husband Gareth is a firefighter, his station is Danes Castle."
    assert updates("Gareth's station got moved - he's at Middlemoor now", older, 0.5)
    # Another person's station, or another thing of his, is no change of it.
    assert not updates("Tom's station got moved - he's at Middlemoor now", older, 0.5)
    assert not updates("Gareth's gym got moved - he's at Middlemoor now", older, 0.5)
    # A new value in words of its own stays under the floor, as before: only a name passes there.
    assert not updates("Gareth's station got moved - he's at the new fire hub now", older, 0.5)


def test_the_switch_marks_the_older_memory_and_another_account_stays(real: Memory) -> None:
    bank = _store(real, 0, "I bank with Barclays, current account and savings.")["memory_id"]
    train = _store(real, 0, "I get the 6:50 train to Leeds every morning.")["memory_id"]
    _store(real, 1, "Opened a Starling account for the business.")
    assert "updated_by" not in real.get(bank).metadata
    switched = _store(real, 2, "Switched my current account to Monzo.")["memory_id"]
    later = _store(real, 3, "Getting the 7:12 now, the 6:50 got cancelled for good.")["memory_id"]
    assert real.get(bank).metadata.get("updated_by") == switched
    assert real.get(train).metadata.get("updated_by") == later
