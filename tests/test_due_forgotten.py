""" "What have I got on today?" lists today's things before the ones missed this week, and "anything I've forgotten
to do?" asks for the missed ones: it was searched as a topic and listed no task."""

from __future__ import annotations

from datetime import UTC, datetime

import time_machine

from engram import Memory
from engram.recall.intent import intent

NOW = datetime(2026, 11, 26, 10, tzinfo=UTC)  # a Thursday


def test_forgetting_asks_for_things_to_do() -> None:
    for question in ("anything I've forgotten to do?", "did I forget anything?", "have I missed anything?"):
        assert intent(question) == "remind", question
    assert intent("what did I forget to tell Sam about the launch?") == "find"


def test_today_first_then_what_was_missed(mem: Memory) -> None:
    with time_machine.travel(datetime(2026, 11, 23, 9, tzinfo=UTC), tick=False):
        mem.store_memory("Pay the window cleaner £18 cash on Tuesday.")
        mem.store_memory("Dentist check-up on Thursday at 3pm.")
    with time_machine.travel(NOW, tick=False):
        today = [r["content"] for r in mem.search_memory("what have I got on today?", now=NOW)["results"]]
        assert today and today[0].startswith("Dentist"), today
        assert any(t.startswith("Pay the window cleaner") for t in today[1:]), today
        missed = [
            r["content"] for r in mem.search_memory("anything I've forgotten to do?", now=NOW)["results"]
        ]
        assert missed == ["Pay the window cleaner £18 cash on Tuesday."], missed


def test_a_task_said_late_is_overdue(mem: Memory) -> None:
    """ "was meant to pay the fee last monday and still haven't" was in its week's list but not in "what's
    overdue?": only an instruction, a deadline or "I need to" counted as owed."""
    with time_machine.travel(datetime(2026, 11, 25, 8, tzinfo=UTC), tick=False):
        mem.store_memory("was meant to pay the mydeposits fee last monday and still haven't")
        mem.store_memory("The school play was on Monday and Ada was brilliant.")
    with time_machine.travel(NOW, tick=False):
        late = [r["content"] for r in mem.search_memory("what's overdue?", now=NOW)["results"]]
        assert late == ["was meant to pay the mydeposits fee last monday and still haven't"], late
