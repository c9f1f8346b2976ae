""" "What have I missed the deadline on?", "what have I let slip past its deadline?" ask what is overdue, as "what's
overdue?" does: they were searched as a topic, and the boiler service due last week came nowhere. A question about
when a deadline is ("what's the deadline for the DLA form?") still asks about that thing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.lang.window import window

NOW = datetime(2026, 11, 26, 10, tzinfo=UTC)  # a Thursday


@pytest.mark.parametrize(
    "question",
    [
        "what have I missed the deadline on?",
        "what have I let slip past its deadline?",
        "have I blown any deadlines?",
        "anything that's passed its deadline?",
    ],
)
def test_a_deadline_gone_by_asks_for_the_days_before_today(question: str) -> None:
    span = window(question, NOW)
    assert span is not None and span.after is None
    assert span.before == datetime(2026, 11, 26, tzinfo=UTC)


@pytest.mark.parametrize(
    "question", ["what's the deadline for the DLA form?", "when is the deadline for the trip?"]
)
def test_asking_when_a_deadline_is_names_no_days(question: str) -> None:
    assert window(question, NOW) is None
