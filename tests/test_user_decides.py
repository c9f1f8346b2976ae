"""What store_memory decides on its own, as a user reads it: an event on a day is due that day and a task, a
weekday said on that weekday is today, and memories written with `remember` or `engram add` get tags."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
import time_machine

from engram import FakeEmbedder, Memory
from engram.model.record import Category, Kind
from engram.tags import phrases

SAID = datetime(2026, 11, 24, 8, 0, tzinfo=UTC)  # a Tuesday


def _stored(memory: Memory, text: str, at: datetime) -> str:
    with time_machine.travel(at, tick=False):
        return str(memory.store_memory(text)["memory_id"])


def _this_week(memory: Memory, day: datetime) -> dict[str, str | None]:
    with time_machine.travel(day, tick=False):
        listed = memory.search_memory("what do I have to do this week?", {"limit": 50}, now=day)
    return {h["id"]: h["due"] for h in listed["results"]}


def test_an_event_a_person_goes_to_is_due_on_its_day(real: Memory) -> None:
    play = _stored(real, "Mia's school play is on December 12", SAID)
    stored = real.get(play)
    assert stored.category is Category.REMINDERS and stored.kind is Kind.TASK
    shown = _this_week(real, datetime(2026, 12, 8, 9, 0, tzinfo=UTC))
    assert shown.get(play) == "2026-12-12"


def test_a_weekday_said_on_that_weekday_is_today(real: Memory) -> None:
    thursday = datetime(2026, 11, 26, 8, 0, tzinfo=UTC)
    haircut = _stored(real, "Haircut on Thursday", thursday)
    assert _this_week(real, thursday).get(haircut) == "2026-11-26"


@pytest.mark.parametrize(
    ("text", "wanted", "unwanted"),
    [
        # A verb-led fragment: the instruction's verb is no topic, whatever noun it can also be.
        ("Tag memories about clients", {"clients"}, {"tag memories", "tag"}),
        ("Group notes by client", {"client"}, {"group notes", "group"}),
        # A noun in front of its noun, and a sentence whose verb comes later, keep the phrase.
        ("Design reviews happen on Fridays.", {"design reviews"}, set()),
        ("Meeting notes from the offsite are in the shared drive.", {"meeting notes"}, set()),
    ],
)
def test_a_verb_leading_a_fragment_is_no_topic(text: str, wanted: set[str], unwanted: set[str]) -> None:
    found = {t.lower() for t in phrases.topics(text)}
    assert wanted <= found, found
    assert not unwanted & found, found


def test_remember_and_documents_get_the_tags_of_their_text(tmp_path: Path) -> None:
    note = tmp_path / "boiler.md"
    note.write_text("# Boiler service\n\nThe boiler service is booked with Heatwise for the spring.\n")
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as m:
        remembered = m.remember("The staging database runs Postgres 16 until the migration.")
        given = m.remember("The k8s cluster needs more nodes", tags=["k8s"])
        added = m.add_file(note)
        tags = m.get(remembered.id).tags
        assert "staging database" in {t.replace("-", " ") for t in tags}
        assert m.get(given.id).tags == ("k8s",)  # a caller who names tags gets those
        assert m.get(added["id"]).tags
        # `list --tag` finds them, as it finds store_memory's.
        assert [r.id for r in m.list(tag=tags[0])] == [remembered.id]
        # The text's tags follow it when it is edited, as store_memory's do.
        m.update(remembered.id, content="The payroll export runs every Friday night.")
        assert tags[0] not in m.get(remembered.id).tags
