"""Words asking for the present state ("now", "still", "currently") are searched, since an update often says "now",
but the memory that answers need not say them: "how much is the rent now?" matched the rent's memory half as well
as "how much is the rent?" and recall answered with nothing."""

from __future__ import annotations

from datetime import UTC, datetime

from engram import Memory
from engram.recall.query import read_query

NOTES = (
    "Rent on the unit is £1,450 a month, paid on the 1st by standing order to Clarke Estates.",
    "Shop opening hours changed: we now open 8.30 to 5.30 weekdays, Saturdays 9 to 1, closed Sundays.",
    "Our broadband is with Vodafone, contract ends in June, currently £38 a month.",
    "Tom handles the wheel builds, I do servicing and the books.",
)


def test_present_words_are_searched_but_not_asked() -> None:
    query = read_query("how much is the rent now?", datetime(2026, 11, 29, tzinfo=UTC), longest=1000)
    assert "now" in query.stems  # searched
    assert query.topic_stems and "now" not in query.topic_stems and "rent" in query.topic_stems
    plain = read_query("how much is the rent?", datetime(2026, 11, 29, tzinfo=UTC), longest=1000)
    assert plain.topic_stems == ()  # nothing to leave out


def test_asking_for_the_rent_now_answers_as_asking_for_the_rent(notes: Memory) -> None:
    now = notes.recall("how much is the rent now?", limit=3)
    plain = notes.recall("how much is the rent?", limit=3)
    assert now and now[0].record.content.startswith("Rent on the unit")
    assert now[0].components["coverage"] == plain[0].components["coverage"]
    assert now[0].confidence in ("medium", "high")
    found = notes.search_memory("do I still pay the rent by standing order?")["results"]
    assert found[0]["content"].startswith("Rent on the unit") and found[0]["confidence"] != "low"
