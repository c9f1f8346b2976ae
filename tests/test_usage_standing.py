"""A fact that changes, told without saying so: a new place of work or school as the event ("Tom started at
Hillside Secondary"), a new status ("Priya and I got married"), and a value redaction hid, said again ("changed the
wifi password to ..."). store_memory names the older memory each one updates, and search_memory puts the newer
first; what stays true beside the older one (an added activity, another person's status) is left alone. Real
model where the rule reads a cosine."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine

from engram import Memory, Settings
from engram.embed.embedder import CachedEmbedder, FakeEmbedder
from engram.lang import pii

MONDAY = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def _store(memory: Memory, day: int, text: str) -> dict[str, Any]:
    with time_machine.travel(MONDAY + timedelta(days=day), tick=False):
        return dict(memory.store_memory(text))


def _updated(memory: Memory, older: str, newer: str) -> bool:
    """Whether `newer`, stored three days after `older`, names it as the fact it updates."""
    first = _store(memory, 0, older)["memory_id"]
    return (
        _store(memory, 3, newer)["recommendations"]["suggested_updates"] == [first]
        and memory.get(first).metadata.get("updated_by") is not None
    )


@pytest.fixture
def redacting(tmp_path: Path, settings: Settings, model: CachedEmbedder) -> Any:
    on = settings.model_copy(update={"redact_pii": True, "tag_on_topic": Settings().tag_on_topic})
    with Memory(tmp_path / "redacting.db", embedder=model, settings=on) as memory:
        yield memory


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Tom teaches at Oakfield Primary.", "Tom started at Hillside Secondary in September."),
        ("Rachel works as a receptionist at Greenfield Vets.", "Rachel got a job at the Riverside Clinic."),
        ("Our son Leo goes to Millbrook Primary.", "Leo started at Ashdown Academy this term."),
        ("I work at Deloitte in the audit team.", "I've joined KPMG as a senior manager."),
    ],
)
def test_a_move_told_as_the_event_updates_the_older_place(real: Memory, older: str, newer: str) -> None:
    assert _updated(real, older, newer)


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("I'm single.", "Priya and I got married in June."),
        ("Engaged to Priya!", "Priya and I got married in June."),
        ("I'm single at the moment.", "I've been seeing Jordan for a couple of months."),
        ("Ben and I are married.", "Ben and I separated in the spring."),
        ("Nadia is pregnant with twins.", "Nadia gave birth to two boys on Sunday."),
    ],
)
def test_a_new_status_of_the_same_person_updates_the_older_one(real: Memory, older: str, newer: str) -> None:
    assert _updated(real, older, newer)


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Tom teaches maths at Oakfield Primary.", "Tom started coaching the football team at Oakfield."),
        ("Tom teaches at Oakfield Primary.", "Tom also started tutoring at Hillside on Saturdays."),
        ("I work at Deloitte.", "I joined the Harriers running club."),
        ("Sam lives in Glasgow.", "Sam is visiting Edinburgh for the festival."),
        ("I'm engaged to Priya.", "Priya's brother Ravi is engaged to Meera."),
        ("Tom and Ana got married last year.", "Ana's sister Carla got married in May."),
        ("I'm married to Ben.", "Ben and I went to my cousin's wedding."),
        ("Nadia is pregnant.", "Nadia and Tom got married in June."),
        ("Ben and I are married.", "Ben and I painted the kitchen together."),
        ("I'm married to Ben.", "I booked a single room at the Hilton."),
        ("I'm married to Ben.", "I'm seeing Dr Patel on Tuesday."),
        ("I live in Leeds.", "I started at Deloitte on Monday."),
        ("I work at Deloitte.", "I proposed a new schedule to the team."),
    ],
)
def test_what_stays_true_beside_the_older_fact_is_no_update(real: Memory, older: str, newer: str) -> None:
    assert not _updated(real, older, newer)


def test_search_puts_the_new_school_and_the_marriage_first(real: Memory) -> None:
    oakfield = _store(real, 0, "Tom teaches at Oakfield Primary.")["memory_id"]
    engaged = _store(real, 0, "Engaged to Priya!")["memory_id"]
    hillside = _store(real, 40, "Tom started at Hillside Secondary in September.")["memory_id"]
    married = _store(real, 60, "Priya and I got married in June.")["memory_id"]
    with time_machine.travel(MONDAY + timedelta(days=61), tick=False):
        school = [h["id"] for h in real.search_memory("where does Tom teach?")["results"]]
        wed = [h["id"] for h in real.search_memory("am I engaged to Priya?")["results"]]
    assert school.index(hillside) < school.index(oakfield)
    assert wed.index(married) < wed.index(engaged)


def test_a_password_changed_in_words_is_found_as_personal_data() -> None:
    for said in (
        "I changed the wifi password to blue-kettle-42.",
        "The wifi password is now blue-kettle-42.",
    ):
        hidden = pii.scan(said).redacted
        assert "[REDACTED_SECRET]" in hidden and "blue-kettle-42" not in hidden
    assert pii.scan("Set the password to something memorable.").risk == 0


@pytest.mark.parametrize(
    "newer",
    [
        "The wifi password is blue-kettle-42.",  # redacted, word for word the older memory
        "The wifi password is now blue-kettle-42.",
        "I changed the wifi password to blue-kettle-42.",
        "New wifi password: blue-kettle-42",
    ],
)
def test_a_redacted_value_said_again_is_a_memory_of_its_own_that_updates_the_older(
    redacting: Memory, newer: str
) -> None:
    older = _store(redacting, 0, "The wifi password is hunter2.")
    said = _store(redacting, 3, newer)
    assert said["outcome"] == "created" and said["memory_id"] != older["memory_id"]
    assert said["recommendations"]["suggested_updates"] == [older["memory_id"]]
    assert said["recommendations"]["suggested_merges"] == []
    assert "blue-kettle-42" not in redacting.get(said["memory_id"]).content
    with time_machine.travel(MONDAY + timedelta(days=4), tick=False):
        found = redacting.search_memory("what's the wifi password?")["results"]
    assert found[0]["id"] == said["memory_id"] and "[REDACTED_SECRET]" in found[0]["content"]
    assert found[1].get("updated_by") == said["memory_id"]


def test_another_thing_s_redacted_password_is_no_update(redacting: Memory) -> None:
    home = _store(redacting, 0, "The wifi password is hunter2.")["memory_id"]
    guest = _store(redacting, 3, "The guest wifi password is sunnyday7.")
    other = _store(redacting, 3, "Netflix password is sunflower88.")
    assert guest["recommendations"]["suggested_updates"] == []
    assert other["recommendations"]["suggested_updates"] == []
    assert "updated_by" not in redacting.get(home).metadata


def test_an_import_still_stores_a_redacted_memory_once(tmp_path: Path, mem: Memory) -> None:
    """An import brings memories as they were: two that redaction makes word for word alike are one."""
    mem.store_memory("The wifi password is hunter2.")
    mem.store_memory("The wifi password is hunter3.")
    path = tmp_path / "out.jsonl"
    mem.export_memories(path)
    on = Settings(home=tmp_path / "home", redact_pii=True)
    with Memory(tmp_path / "copy.db", embedder=FakeEmbedder(), settings=on) as other:
        other.import_memories(path)
        assert other.stats()["memories"] == 1


def test_a_redacted_value_said_word_for_word_is_kept_on_each_backend(
    db_location: str | Path, tmp_path: Path
) -> None:
    on = Settings(home=tmp_path / "home", redact_pii=True, tag_on_topic=-1)
    with Memory(db_location, embedder=FakeEmbedder(), settings=on) as memory:
        older = _store(memory, 0, "The wifi password is hunter2.")["memory_id"]
        newer = _store(memory, 3, "The wifi password is blue-kettle-42.")
        assert newer["outcome"] == "created" and newer["memory_id"] != older
        assert memory.get(older).metadata["updated_by"] == newer["memory_id"]
        assert memory.stats()["memories"] == 2
