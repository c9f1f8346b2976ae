"""Dates written in German ("bis zum 31. Dezember") or Chinese ("3月12日", "下周五", "明天"), read forward from
the day they were said, for the due days of reminders (engram.lang.due)."""

from __future__ import annotations

import calendar
import re
from datetime import MAXYEAR, datetime, timedelta

_DE_MONTHS = "januar|februar|märz|april|mai|juni|juli|august|september|oktober|november|dezember"
_DE_DATE = re.compile(rf"\b(\d{{1,2}})\.\s*({_DE_MONTHS})\b", re.IGNORECASE)
_ZH_NUMBER = "一二三四五六七八九十"
_ZH_DATE = re.compile(rf"([\d{_ZH_NUMBER}]{{1,3}})月([\d{_ZH_NUMBER}]{{1,3}})[日号]")
_ZH_WEEKDAY = re.compile(r"(下|这|本)?个?(?:周|星期|礼拜)([一二三四五六日天])")
_ZH_DAYS = {"今天": 0, "明天": 1, "后天": 2}


def _zh_number(text: str) -> int:
    """A number written in digits or in Chinese numerals up to 31 (十二 12, 二十一 21, 三十 30)."""
    if text.isdigit():
        return int(text)
    tens, _, ones = text.rpartition("十")
    try:
        if "十" not in text:
            return _ZH_NUMBER.index(text) + 1
        return (_ZH_NUMBER.index(tens) + 1 if tens else 1) * 10 + (_ZH_NUMBER.index(ones) + 1 if ones else 0)
    except ValueError:
        return 0  # no number ("十十十"): no date


def _forward(said: datetime, month: int, day: int) -> datetime | None:
    """The day of that month and day that is not before `said`: this year's or next year's."""
    for year in (said.year, min(said.year + 1, MAXYEAR)):
        if (
            1 <= day <= calendar.monthrange(year, month)[1]
            and (found := said.replace(year, month, day)) >= said
        ):
            return found
    return None


def german_or_chinese(text: str, said: datetime) -> tuple[datetime, str] | None:
    """A German date ("bis zum 31. Dezember") or a Chinese one ("3月12日", "下周五", "明天"), read forward."""
    if (de := _DE_DATE.search(text)) is not None:
        month = _DE_MONTHS.split("|").index(de.group(2).lower()) + 1
        if (day := _forward(said, month, int(de.group(1)))) is not None:
            return day, de.group(0)
    if (zh := _ZH_DATE.search(text)) is not None:
        month, number = _zh_number(zh.group(1)), _zh_number(zh.group(2))
        if 1 <= month <= 12 and (day := _forward(said, month, number)) is not None:
            return day, zh.group(0)
    if (week := _ZH_WEEKDAY.search(text)) is not None:
        weekday = "一二三四五六日天".index(week.group(2))
        monday = said - timedelta(days=said.weekday())
        offset = min(weekday, 6) + (7 if week.group(1) == "下" else 0)
        day = monday + timedelta(days=offset)
        return (day if day >= said or week.group(1) else day + timedelta(days=7)), week.group(0)
    for word, ahead in _ZH_DAYS.items():
        if word in text:
            return said + timedelta(days=ahead), word
    return None
