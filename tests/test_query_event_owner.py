"""An event said with "his", "her" or "their" is the event of whom the question names ("how is my father-in-law
after his operation": his operation, not the GP surgery), and who the asker's kin are holds whatever time the
question asks about. With the real model: which memory is the event is decided by recall."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import time_machine

from engram import Memory

START = datetime(2026, 10, 1, 9, tzinfo=UTC)
MEMORIES = (
    "Hannah and I got married in 2009 in Kraków, so our anniversary is 18 July.",
    "Hannah's dad Geoff had a hip replacement in October and is recovering at home in Norwich.",
    "Our GP surgery is Barlow Medical Centre; appointments go through the NHS app.",
    "Oskar's parents' evening is Tuesday 1 December at 5:30pm.",
    "Hannah wants the living room repainted sage green before her parents come at Easter.",
)


def test_an_event_with_his_is_the_event_of_whom_the_question_names(real: Memory) -> None:
    ids = []
    for day, text in enumerate(MEMORIES):
        with time_machine.travel(START + timedelta(days=day), tick=False):
            ids.append(real.store_memory(text)["memory_id"])
    now = START + timedelta(days=30)
    found = real.search_memory("how is my father-in-law doing after his operation?", now=now, touch=False)
    assert found["query_analysis"]["time_range"]["event"] == ids[1]
    assert found["results"][0]["id"] == ids[1] and found["results"][0]["confidence"] != "low", found[
        "results"
    ]
