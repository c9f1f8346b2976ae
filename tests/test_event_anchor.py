"""An event a question is relative to ("after his operation") filters by time only when a memory surely
mentions it: a weak match taken as the event would filter the answer out."""

from __future__ import annotations

import time

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
