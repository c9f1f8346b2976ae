"""A parent who does not ask about their daughter's allergy for a year still has it remembered: who the user and
the people around them are (kind identity) is kept until edited, however long nobody asks, while a note nobody
used fades and is archived as before. Fake embedder: only the kind and the clock matter."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine

from engram import FakeEmbedder, Memory, Settings
from engram.model.record import Kind, Status

SAID = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        yield m


def test_who_the_user_is_outlasts_a_year_unasked_and_a_stale_note_does_not(memory: Memory) -> None:
    with time_machine.travel(SAID, tick=False):
        allergy = memory.remember("Mia is allergic to peanuts.", kind=Kind.IDENTITY).id
        job = memory.remember("I work as a freelance web developer.", kind=Kind.IDENTITY).id
        chat = memory.remember("Had a nice chat with the neighbour about gardening.", kind=Kind.NOTE).id
    for days in (30, 120, 240, 400):
        later = SAID + timedelta(days=days)
        with time_machine.travel(later, tick=False):
            memory.maintain(later)
    assert memory.get(allergy).status is Status.APPROVED
    assert memory.get(job).status is Status.APPROVED
    assert memory.get(chat).status is Status.ARCHIVED  # unused notes still fade
    later = SAID + timedelta(days=400)
    with time_machine.travel(later, tick=False):
        found = memory.search_memory("Mia allergic peanuts", now=later)["results"]
    assert [h["id"] for h in found][:1] == [allergy]
