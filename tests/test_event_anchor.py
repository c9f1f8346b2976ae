"""An event a question is relative to ("after his operation") filters by time only when a memory surely
mentions it: a weak match taken as the event would filter the answer out."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import time_machine

from engram import Memory


def test_a_weak_match_is_no_event_to_filter_by(real: Memory) -> None:
    father = real.store_memory("My father is recovering well; he walks in the park every morning now.")[
        "memory_id"
    ]
    time.sleep(0.01)  # the unrelated memory is the later one: taken as the event, it would hide the answer
    real.store_memory("Design doc: procedures the on-call engineer follows during an incident.")
    found = real.search_memory("how is my father doing after his operation", touch=False)
    assert found["query_analysis"]["time_range"] is None
    assert [h["id"] for h in found["results"]][:1] == [father]


def test_an_event_a_memory_names_still_filters(real: Memory) -> None:
    real.store_memory("We agreed to keep the pricing page as it is.")
    time.sleep(0.01)
    launch = real.store_memory("The product launch went live on Monday with the new onboarding.")["memory_id"]
    time.sleep(0.01)
    after = real.store_memory("We agreed to freeze new features for two weeks.")["memory_id"]
    found = real.search_memory("what did we agree after the product launch?", touch=False)
    span = found["query_analysis"]["time_range"]
    assert span is not None and span["event"] == launch
    assert after in [h["id"] for h in found["results"]]


def test_an_event_stored_in_one_sitting_with_the_rest_filters_nothing_away(real: Memory) -> None:
    # Stored at one instant, nothing was stored before the concert's memory: filtering around it answered with
    # nothing, though a memory says what to do before the concert.
    when = datetime(2026, 11, 20, 9, tzinfo=UTC)
    with time_machine.travel(when, tick=False):
        real.store_memory("Concert on 12 December at the Victoria Rooms: Dvořák 8 and the Elgar Serenade.")
        strings = real.store_memory(
            "Need to restring the violin before the concert, about £85 from the shop."
        )
        real.store_memory("Landlord is Mr Patel, rent £950 on the 28th by standing order.")
    now = datetime(2026, 11, 26, 10, tzinfo=UTC)
    found = real.search_memory("what do I need to do before the concert?", now=now, touch=False)
    assert found["query_analysis"]["time_range"] is None
    assert [h["id"] for h in found["results"]][:1] == [strings["memory_id"]]
    recalled = real.recall("what do I need to do before the concert?", now=now, touch=False)
    assert [h.record.id for h in recalled][:1] == [strings["memory_id"]]
