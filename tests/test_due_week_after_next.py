""" "The week after next" is the week that follows next week, Monday to Sunday: "what have I got on the week after
next?" listed nothing, as no span was read from it, and accurate recall answered with nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import time_machine

from engram import Memory
from engram.config import Settings
from engram.lang.window import window

THURSDAY = datetime(2026, 11, 26, 10, tzinfo=UTC)


def test_the_week_after_next_is_the_week_after_the_coming_one() -> None:
    asked = window("what have I got on the week after next?", THURSDAY)
    assert asked is not None and asked.after is not None and asked.before is not None
    assert (asked.after.date().isoformat(), asked.before.date().isoformat()) == ("2026-12-07", "2026-12-14")
    # Before it: from today up to its Monday.
    until = window("anything due before the week after next?", THURSDAY)
    assert until is not None and until.after is not None and until.before is not None
    assert (until.after.date().isoformat(), until.before.date().isoformat()) == ("2026-11-26", "2026-12-07")
    coming = window("anything due next week?", THURSDAY)
    assert coming is not None and coming.after is not None and coming.after.date().isoformat() == "2026-11-30"


def test_what_is_on_the_week_after_next_is_listed(tmp_path: Path, settings: Settings) -> None:
    with Memory(tmp_path / "m.db", settings=settings) as memory, time_machine.travel(THURSDAY, tick=False):
        later = memory.store_memory("Boiler service at the flat on Tuesday 8 December at 9am")["memory_id"]
        sooner = memory.store_memory("Dentist check-up on Tuesday 1 December at 4pm")["memory_id"]
        hits = memory.recall("what have I got on the week after next?", now=THURSDAY, touch=False)
    ids = [h.record.id for h in hits]
    assert later in ids and sooner not in ids
