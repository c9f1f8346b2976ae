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


@pytest.mark.parametrize(
    ("older", "newer", "other"),
    [
        # A code of letters and digits is a value, not a name: the new password, not another thing.
        ("Office wifi password is Orange-Cat-44.", "IT rotated the office wifi, password's Blue-Fox-19 now.",
         "IT rotated the guest wifi, password's Blue-Fox-19 now."),
        # "Rearranged" says a date changed.
        ("Parents' evening is Thursday 7 November.", "Parents' evening got rearranged for the 14th.",
         "Sports day got rearranged for the 14th."),
        # A named place closed: the thing the older memory names is no more.
        ("Oliver's nursery is Little Acorns on Grange Road.",
         "Oliver started at Sunflowers nursery this week, Little Acorns closed.",
         "Oliver started at Sunflowers nursery this week, the Grange Road cafe closed."),
    ],
)  # fmt: skip
def test_a_value_told_anew_in_everyday_words_is_a_change(older: str, newer: str, other: str) -> None:
    assert updates(newer, older, 0.65), newer
    assert not updates(other, older, 0.65), other


def test_a_job_left_for_another_and_a_home_left_for_care_are_moves() -> None:
    assert updates("Ahmed's jumped ship to PwC, still audit.", "Ahmed works at Deloitte in audit.", 0.6)
    assert not updates("Ahmed's brother has jumped ship to PwC.", "Ahmed works at Deloitte in audit.", 0.6)
    nan = "Nan lives in her own bungalow in Rhyl."
    assert updates("Nan's gone into Fairview care home now, room 8.", nan, 0.54)
    assert not updates("Grandad's gone into Fairview care home now, room 8.", nan, 0.54)


def test_one_s_own_working_days_given_anew_change_the_days_one_works() -> None:
    older = "I work Mon Wed Fri as a receptionist."
    newer = "Dentist rota changed: I'm now on Tue Wed Fri from January"
    assert replaced_said(newer) and updates(newer, older, 0.33)
    # Someone else's rota, or the same days, is no change of mine.
    assert not updates("Sam's rota changed: he's now on Tue Wed Fri from January", older, 0.33)
    assert not updates("Dentist rota changed: I'm still on Mon Wed Fri from January", older, 0.33)


def test_the_new_working_days_answer_before_the_old_ones(real: Memory) -> None:
    older = _store(real, 0, "I work Mon Wed Fri as a receptionist at Smile Dental.")["memory_id"]
    _store(real, 0, "I'm off work from 24 December through to 2 January.")
    _store(real, 0, "Tom works nights at the hospital, Thursday to Sunday.")
    newer = _store(real, 3, "Dentist rota changed: I'm now on Tue Wed Fri from January")["memory_id"]
    assert real.get(older).metadata.get("updated_by") == newer
    with time_machine.travel(MONDAY + timedelta(days=4), tick=False):
        found = [r["id"] for r in real.search_memory("which days will I work next year?")["results"]]
    assert newer in found and found.index(newer) < found.index(older), found
