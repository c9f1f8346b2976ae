"""A week named by a day in it ("the week of 7 December", "w/c 14th December", "week commencing 4 Jan"): a weekday
named after it is that week's, not the coming one from when it was said. "I'm on call the week of 7 December,
handover Monday 10am" said on 20 November was listed as due on 23 November."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.lang.due import due_days

FRIDAY = datetime(2026, 11, 20, 8, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("Oncall rota: I'm on call the week of 7 December, handover Monday 10am", ["2026-12-07"]),
        ("w/c 14th December I'm in Leeds, back Friday", ["2026-12-14", "2026-12-18"]),
        (
            "Week beginning Wednesday 9 December is the audit, report to Hana Thursday",
            ["2026-12-09", "2026-12-10"],
        ),
        # no week named: the coming weekday, as before
        ("Exam 15 Dec. Revise Saturday", ["2026-11-21", "2026-12-15"]),
    ],
)
def test_a_weekday_after_a_named_week_is_in_that_week(text: str, days: list[str]) -> None:
    assert [d.date().isoformat() for d in due_days(text, FRIDAY)] == days
