"""A question about the latest state of things weighs when memories were made (the age priors), unless it names
a time: "recently", "in May" or "last week" is the time score's, and the priors on top of it weighed the same
thing twice, ranking the newest memories, whatever they said, over the one that answered."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory
from engram.recall.query import read_query

NOW = datetime(2023, 8, 16, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "priors"),
    [
        ("what's my current address?", True),  # the latest state, no time named
        ("which phone do I use now?", True),
        ("what do I need to do next week?", True),  # things to do
        ("what have I been blogging about recently?", False),  # "recently" is the last two weeks
        ("what book did I start recently, in May 2023?", False),
        ("what did I cook last week?", False),
        ("which school does Ada attend?", False),
        ("what are the new shoes for?", False),  # a thing, said new by the memory that answers
    ],
)
def test_the_age_priors_count_only_where_no_time_is_named(question: str, priors: bool) -> None:
    assert read_query(question, NOW, longest=1000).about_time is priors


def test_recently_finds_the_memory_that_answers_before_newer_small_talk(mem: Memory) -> None:
    mem.remember(
        "I have been blogging about politics and education reform", created_at=NOW - timedelta(days=120)
    )
    for i, said in enumerate(
        [
            "I have been so busy with the fire brigade",
            "I have been thinking about my old job",
            "I have been helping at the shelter",
            "I have been feeling stuck about making an impact",
        ]
    ):
        mem.remember(said, created_at=NOW - timedelta(days=i))
    hits = mem.recall(
        "What have I been blogging about recently?", mode="ranked", limit=3, now=NOW, touch=False
    )
    assert "blogging" in hits[0].record.content
