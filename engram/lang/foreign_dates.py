"""Dates written in German ("bis zum 31. Dezember"), Polish ("22 grudnia", "w niedzielę"), Italian, Spanish,
Portuguese or French ("il 9 dicembre", "el 3 de enero", "até sexta", "le 12 décembre") or Chinese ("3月12日",
"下周五", "明天"), read forward from the day they were said, for the due days of reminders (engram.lang.due)."""

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
# A day of the month in Chinese: of next month or this one ("下个月十号之前": before the 10th of next month), or alone
# before a deadline word ("二十号前"): this month's or, passed, next month's. "3号线" (a line's number) is none.
_ZH_MONTH_DAY = re.compile(
    rf"(?:(下|这|本)个?月)([\d{_ZH_NUMBER}]{{1,3}})[日号]|([\d{_ZH_NUMBER}]{{1,3}})[日号](?=之前|以前|前|截止|到期)"
)
GERMAN_WEEKDAYS = "montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag"
# German days said from today: "heute (Abend)", "morgen" (not "heute Morgen", "am Morgen": a time of day), and a
# weekday ("bis Freitag", "am Dienstag"), the next one, today included, as an English weekday is.
_DE_RELATIVE = re.compile(
    rf"\b(?:(heute)|(übermorgen)|(?<!heute )(?<!am )(?<!guten )(morgen)(?!s)|(?:(nächsten?|kommenden?)\s+)?"
    rf"({GERMAN_WEEKDAYS}))\b",
    re.IGNORECASE,
)
# "Ende November", "Ende des Monats", "Ende der Woche", "Ende nächster Woche": its last day (Sunday for a week).
_DE_END = re.compile(
    rf"\bende\s+(?:(?:des\s+)?(monats)|(?:der\s+)?(woche)|(nächster\s+woche|nächsten\s+monats)|({_DE_MONTHS}))\b",
    re.IGNORECASE,
)
# Polish: a day of a month, the month in the genitive a date uses ("22 grudnia"); today, tomorrow, the day after;
# a weekday after "w"/"we" ("w niedzielę", "we wtorek"), the next one, today included, as an English weekday is.
_PL_MONTHS = (
    "stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października|listopada|grudnia"
)
_PL_DATE = re.compile(rf"\b(\d{{1,2}})\s+({_PL_MONTHS})\b", re.IGNORECASE)
POLISH_WEEKDAYS = "poniedziałek|wtorek|środę|czwartek|piątek|sobotę|niedzielę"
# The weekdays after "do" (by): "do piątku", in the same order.
_PL_BY_WEEKDAYS = "poniedziałku|wtorku|środy|czwartku|piątku|soboty|niedzieli"
POLISH_MONTHS_AND_DAYS = rf"{_PL_MONTHS}|{POLISH_WEEKDAYS}|{_PL_BY_WEEKDAYS}|dziś|dzisiaj|jutr[oa]|pojutrze"
_PL_RELATIVE = re.compile(
    rf"\b(?:(dziś|dzisiaj)|(pojutrze)|(jutr[oa])|(?:we?)\s+(?:(przyszł[ąy])\s+)?({POLISH_WEEKDAYS})"
    rf"|do\s+({_PL_BY_WEEKDAYS}))(?!\w)",
    re.IGNORECASE,
)
# Italian, Spanish and French: a day of the month before the month's name ("il 9 dicembre", "el 3 de enero",
# "le 1er mars"). Each month's names, January first.
_ROMANCE_MONTHS = (
    ("gennaio", "enero", "janvier", "janeiro"), ("febbraio", "febrero", "février", "fevrier", "fevereiro"),
    ("marzo", "mars", "março"), ("aprile", "abril", "avril"), ("maggio", "mayo", "mai", "maio"),
    ("giugno", "junio", "juin", "junho"), ("luglio", "julio", "juillet", "julho"), ("agosto", "août", "aout"),
    ("settembre", "septiembre", "setiembre", "septembre", "setembro"), ("ottobre", "octubre", "octobre", "outubro"),
    ("novembre", "noviembre", "novembro"), ("dicembre", "diciembre", "décembre", "decembre", "dezembro"),
)  # fmt: skip
_ROMANCE_MONTH = {name: number for number, names in enumerate(_ROMANCE_MONTHS, 1) for name in names}
_ROMANCE_DATE = re.compile(
    rf"\b(\d{{1,2}})(?:er|º|°)?\s+(?:de\s+)?({'|'.join(_ROMANCE_MONTH)})(?!\w)", re.IGNORECASE
)
# Their weekdays (Monday first) and today, the day after tomorrow, tomorrow: the next such day, today included
# ("entro venerdì": by Friday).
# Portuguese ones are the ordinals, "-feira" often left off ("até sexta": by Friday).
_ROMANCE_WEEKDAYS = (
    ("lunedì", "lunedi", "lunes", "lundi", "segunda-feira", "segunda"),
    ("martedì", "martedi", "martes", "mardi", "terça-feira", "terça", "terca-feira", "terca"),
    ("mercoledì", "mercoledi", "miércoles", "miercoles", "mercredi", "quarta-feira", "quarta"),
    ("giovedì", "giovedi", "jueves", "jeudi", "quinta-feira", "quinta"),
    ("venerdì", "venerdi", "viernes", "vendredi", "sexta-feira", "sexta"), ("sabato", "sábado", "sabado", "samedi"),
    ("domenica", "domingo", "dimanche"),
)  # fmt: skip
_ROMANCE_WEEKDAY = {name: number for number, names in enumerate(_ROMANCE_WEEKDAYS) for name in names}
ROMANCE_DAY_WORDS = "|".join(
    [
        *_ROMANCE_MONTH,
        *_ROMANCE_WEEKDAY,
        "oggi",
        "hoy",
        "aujourd'hui",
        "hoje",
        "domani",
        "mañana",
        "demain",
        "amanhã",
    ]
)
# A weekday or a day that comes round ("todo domingo", "cada lunes", "ogni venerdì", "tous les matins"): a habit.
ROMANCE_EVERY = (
    r"(?<!\w)(?:ogni|cada|chaque|tod[oa]s?(?:\s+(?:os|as|los|las))?|tou(?:te)?s\s+les)\s+"
    rf"(?:{'|'.join(_ROMANCE_WEEKDAY)}|dia|día|giorno|jour|semana|settimana|semaine|mês|mes|mese|mois|manhã|mañana|mattina"
    r"|matin|noite|noche|sera|soir)s?(?!\w)"
)
# "Next" beside a weekday, before it ("el próximo jueves", "la prossima settimana") or after ("el jueves que viene",
# "jeudi prochain", "venerdì prossimo"): said on that weekday, a week on, as "nächsten Donnerstag" is.
_ROMANCE_NEXT = r"próxim[oa]|proxim[oa]|prossim[oa]|prochaine?"
_ROMANCE_RELATIVE = re.compile(
    rf"(?<!\w)(?:(oggi|hoy|aujourd'hui|hoje)|(dopodomani|pasado\s+mañana|après-demain|depois\s+de\s+amanhã)"
    rf"|(domani|mañana|demain|amanhã)"
    rf"|(?:({_ROMANCE_NEXT})\s+)?({'|'.join(_ROMANCE_WEEKDAY)})(?:\s+({_ROMANCE_NEXT}|que\s+viene|que\s+vem))?)"
    rf"(?!\w)",
    re.IGNORECASE,
)
_ZH_DAY = re.compile(
    rf"今天|明天|后天|今晚|(?:周|星期|礼拜)[一二三四五六日天]|[\d{_ZH_NUMBER}]{{1,3}}月[\d{_ZH_NUMBER}]{{1,3}}[日号]"
)


def romance_date(text: str) -> bool:
    """Whether `text` names a day in Italian, Spanish or French: of a month, a weekday, today or tomorrow."""
    return _ROMANCE_DATE.search(text) is not None or _ROMANCE_RELATIVE.search(text) is not None


def names_day(text: str) -> bool:
    """Whether `text` names a day in German, Polish, Italian, Spanish, French or Chinese (a date, a weekday, today, tomorrow)."""
    return (
        _DE_DATE.search(text) is not None
        or _DE_RELATIVE.search(text) is not None
        or _PL_DATE.search(text) is not None
        or _PL_RELATIVE.search(text) is not None
        or romance_date(text)
        or _ZH_DAY.search(text) is not None
    )


# A Chinese line that opens with its day and tells of going, meeting or attending ("下周三和美琳一起去看伴娘裙": next
# Wednesday, go with Mei Lin to look at bridesmaid dresses): an arrangement for that day. "今天很累" is none.
_ZH_ARRANGED = re.compile(
    rf"^\s*(?:下|这|本)?个?(?:{_ZH_DAY.pattern})[^。\uff01\uff1f!?]*?(?:去|见|开会|参加|约)"
)


def arranged_in_chinese(text: str) -> bool:
    """Whether `text` is a Chinese line opening with the day of something to go to."""
    return _ZH_ARRANGED.search(text) is not None


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


def forward(said: datetime, month: int, day: int) -> datetime | None:
    """The day of that month and day that is not before `said`: this year's or next year's."""
    for year in (said.year, min(said.year + 1, MAXYEAR)):
        if (
            1 <= day <= calendar.monthrange(year, month)[1]
            and (found := said.replace(year, month, day)) >= said
        ):
            return found
    return None


def either_order(first: int, second: int, said: datetime, year: int | None = None) -> datetime | None:
    """A numeric date written without saying its order ("10/12": 10 December or October 12), read both ways and
    forward from `said`: the nearer day that is not past. The writer's order is unknown, and a thing to do is
    far likelier due in the coming weeks than eleven months on; where only one reading is a date, that one."""
    found = []
    for month, day in ((first, second), (second, first)):
        if not 1 <= month <= 12:
            continue
        if year is None:
            found.append(forward(said, month, day))
        elif (
            1 <= day <= calendar.monthrange(year, month)[1] and (at := said.replace(year, month, day)) >= said
        ):
            found.append(at)
    days = [d for d in found if d is not None]
    return min(days) if days else None


def foreign_day(text: str, said: datetime) -> tuple[datetime, str] | None:
    """A German date ("bis zum 31. Dezember"), a Polish one ("22 grudnia", "w niedzielę") or a Chinese one
    ("3月12日", "下周五", "明天"), read forward."""
    if (de := _DE_DATE.search(text)) is not None and (dated := _month_day(de, _DE_MONTHS, said)) is not None:
        return dated
    if (end := _DE_END.search(text)) is not None:
        return _german_end(end, said), end.group(0)
    if (rel := _DE_RELATIVE.search(text)) is not None:
        return _german_relative(rel, said), rel.group(0)
    if (pl := _PL_DATE.search(text)) is not None and (dated := _month_day(pl, _PL_MONTHS, said)) is not None:
        return dated
    if (rel := _PL_RELATIVE.search(text)) is not None:
        return _polish_relative(rel, said), rel.group(0)
    if (romance := _ROMANCE_DATE.search(text)) is not None:
        on = forward(said, _ROMANCE_MONTH[romance.group(2).lower()], int(romance.group(1)))
        if on is not None:
            return on, romance.group(0)
    if (rel := _ROMANCE_RELATIVE.search(text)) is not None:
        today, after_next, tomorrow, before, weekday, after = rel.groups()
        on_day = None if weekday is None else _ROMANCE_WEEKDAY[weekday.lower()]
        following = before is not None or after is not None
        return _relative(said, (today, tomorrow, after_next), on_day, following), rel.group(0)
    if (zh := _ZH_DATE.search(text)) is not None:
        month, number = _zh_number(zh.group(1)), _zh_number(zh.group(2))
        if 1 <= month <= 12 and (day := forward(said, month, number)) is not None:
            return day, zh.group(0)
    if (of_month := _ZH_MONTH_DAY.search(text)) is not None and (
        on := _zh_month_day(of_month, said)
    ) is not None:
        return on, of_month.group(0)
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


def _zh_month_day(found: re.Match[str], said: datetime) -> datetime | None:
    """The day `_ZH_MONTH_DAY` found: that day of next month or of this one; alone, the next such day."""
    which, number = found.group(1), _zh_number(found.group(2) or found.group(3))
    first = said.replace(day=1)
    months = [(first + timedelta(days=32)).replace(day=1)] if which == "下" else [first]
    if which is None:
        months.append(months[0] + timedelta(days=32))
    for month in months:
        last = calendar.monthrange(month.year, month.month)[1]
        if 1 <= number <= last and ((day := month.replace(day=number)) >= said or which is not None):
            return day
    return None


def _german_end(found: re.Match[str], said: datetime) -> datetime:
    """The last day of the month or week `_DE_END` found."""
    _, week, following, named = found.groups()
    if week is not None or (following is not None and following.lower().endswith("woche")):
        sunday = said + timedelta(days=6 - said.weekday())
        return sunday + timedelta(days=7) if following is not None else sunday
    first = said.replace(day=1)
    if named is not None:
        number = _DE_MONTHS.split("|").index(named.lower()) + 1
        first = first.replace(year=said.year + (number < said.month), month=number)
    elif following is not None:
        first = (first + timedelta(days=32)).replace(day=1)
    return first.replace(day=calendar.monthrange(first.year, first.month)[1])


def _german_relative(found: re.Match[str], said: datetime) -> datetime:
    """The day `_DE_RELATIVE` found: today, the day after, the one after that, or the next such weekday."""
    today, after_next, tomorrow, following, weekday = found.groups()
    return _relative(
        said, (today, tomorrow, after_next), _index(GERMAN_WEEKDAYS, weekday), following is not None
    )


def _month_day(found: re.Match[str], months: str, said: datetime) -> tuple[datetime, str] | None:
    """The day a day of the month and a month's name (`months`, in order) found name, read forward."""
    day = forward(said, months.split("|").index(found.group(2).lower()) + 1, int(found.group(1)))
    return None if day is None else (day, found.group(0))


def _polish_relative(found: re.Match[str], said: datetime) -> datetime:
    """The day `_PL_RELATIVE` found: today, tomorrow, the day after, or the next such weekday ("do piątku" too)."""
    today, after_next, tomorrow, following, weekday, by_weekday = found.groups()
    if by_weekday is not None:
        return _relative(said, (None, None, None), _index(_PL_BY_WEEKDAYS, by_weekday), following=False)
    return _relative(
        said, (today, tomorrow, after_next), _index(POLISH_WEEKDAYS, weekday), following is not None
    )


def _index(weekdays: str, weekday: str | None) -> int | None:
    """The weekday's place in `weekdays` (Monday first), or None when none was said."""
    return None if weekday is None else weekdays.split("|").index(weekday.lower())


def _relative(
    said: datetime, days: tuple[str | None, str | None, str | None], weekday: int | None, following: bool
) -> datetime:
    """Today, tomorrow or the day after, whichever of `days` was said; else the next `weekday` (0 for Monday),
    today included unless `following` ("nächsten Montag", "w przyszły poniedziałek" said on a Monday)."""
    for ahead, said_as in enumerate(days):
        if said_as is not None:
            return said + timedelta(days=ahead)
    assert weekday is not None  # a match said a day or a weekday
    ahead = (weekday - said.weekday()) % 7
    return said + timedelta(days=7 if following and ahead == 0 else ahead)
