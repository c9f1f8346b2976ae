"""A day of the month in Chinese ("下个月十号之前": before the 10th of next month; "二十号前": before the 20th) is a
due day: of next month, of this one, or alone the next such day; a number with 号 that is no day ("3号线", a line)
names none."""

from __future__ import annotations

from datetime import UTC, datetime

from engram.lang import due

WEDNESDAY = datetime(2026, 11, 25, 8, tzinfo=UTC)


def _day(text: str) -> datetime | None:
    return due.deadline_day(text, WEDNESDAY)


def test_a_day_of_next_month_or_this_one() -> None:
    assert _day("妈妈说下个月十号之前把春节回家的机票订好。") == datetime(2026, 12, 10, tzinfo=UTC)
    assert _day("下月1号开会。") == datetime(2026, 12, 1, tzinfo=UTC)
    assert _day("这个月二十八号前交房租。") == datetime(2026, 11, 28, tzinfo=UTC)


def test_a_day_alone_before_a_deadline_word_is_the_next_such_day() -> None:
    assert _day("三十号前把报告发给导师。") == datetime(2026, 11, 30, tzinfo=UTC)
    assert _day("二十号前把报告发给导师。") == datetime(2026, 12, 20, tzinfo=UTC)


def test_a_number_with_hao_that_is_no_day() -> None:
    assert _day("坐3号线去学校。") is None
    assert _day("我的电话号码是123。") is None
