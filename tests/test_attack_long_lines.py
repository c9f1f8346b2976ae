"""A memory of one long run that no person writes but anyone can send: "password-password-...", "a-a-a-...",
"1,1,1,...". Every write reads its text for personal data and entities, and patterns there read such a run again
from each of its words: the time grew with the square of the text's length (the cube for "password-", whose every
word could open a name like DB_PASSWORD), so one request of 100,000 characters held a core for hours. Each run is
now read in time proportional to its length.

The alarm is a guard that fails the test instead of hanging the suite, far above the seconds a reading takes."""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.lang import analysis, due, pii
from engram.tags import phrases as phrases_module
from engram.tags.context import context_tags

LONGEST = 100_000  # the longest content a memory takes by default

RUNS = ["password-", "secret.", "token_", "a-", "a.", "1-", "1,", "eyJ-", "x@"]


def run_of(unit: str) -> str:
    return (unit * (LONGEST // len(unit) + 1))[:LONGEST]


@contextmanager
def guard(seconds: int, what: str) -> Iterator[None]:
    def hung(signum: int, frame: object) -> None:
        raise TimeoutError(f"{what} did not finish")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("unit", RUNS)
def test_a_long_run_is_read_for_personal_data_and_entities_at_once(unit: str) -> None:
    text = run_of(unit)
    with guard(120, f"reading a run of {unit!r}"):
        found = pii.detect(text)
        named = analysis.entities(text)
    assert all(0 <= f.start < f.end <= LONGEST for f in found)
    assert isinstance(named, tuple)


def test_a_memory_of_one_long_run_is_stored(tmp_path: Path) -> None:
    mem = Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path))
    try:
        text = run_of("password-")
        with guard(300, "remembering a run of 'password-'"):
            stored = mem.remember(text)
        assert mem.get(stored.id).content == text
    finally:
        mem.close()


def test_what_the_bounded_patterns_find_is_unchanged() -> None:
    """The bounds are past what a real name, address or amount holds."""
    text = (
        "DB_PASSWORD=hunter22 and aws_secret_access_key = AbC123456789xyz; mail ann.lee+work@mail.example.com; "
        "we paid 1,500 usd and 12,000,000 dollars; token eyJhbGciOiJI.eyJzdWIiOiIx.SflKxwRJSMeKKF2QT4f"
    )
    kinds = [(f.kind.value, text[f.start : f.end]) for f in pii.detect(text)]
    assert ("secret", "hunter22") in kinds
    assert ("secret", "AbC123456789xyz") in kinds
    assert ("email", "ann.lee+work@mail.example.com") in kinds
    assert ("secret", "eyJhbGciOiJI.eyJzdWIiOiIx.SflKxwRJSMeKKF2QT4f") in kinds
    named = {(e.kind, e.text) for e in analysis.entities(text)}
    assert ("money", "1,500 usd") in named
    assert ("money", "12,000,000 dollars") in named
    assert ("email", "ann.lee+work@mail.example.com") in named


def test_a_memory_of_empty_lines_is_read_at_once() -> None:
    """A numbered step is looked for at each line's start: the blanks before it were read across line breaks, so
    each of 100,000 empty lines read all the lines after it."""
    text = "\n" * (LONGEST - 1) + "x"
    with guard(120, "reading a run of empty lines"):
        analysed = analysis.analyse(text)
        tags = context_tags(text)
    assert "how-to" not in tags
    assert analysed.importance >= 1
    assert context_tags("Steps:\n\n  2. pour\n3) stir") == ("how-to",)


def test_a_run_of_marks_reaches_the_tokenizer_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tokenizer looks for a suffix again at each mark of a run ("?????...", "!!!!..."): 12,000 question
    marks took seconds and the time grew with the square of the run, up to the 20,000 characters a text is read
    for its phrases. The run is handed over in pieces no longer than a word of marks is."""
    nlp = phrases_module._nlp()
    given: list[str] = []

    def watched() -> object:
        return lambda text: given.append(text) or nlp(text)

    monkeypatch.setattr(phrases_module, "_nlp", watched)
    found = phrases_module.phrases("?" * 5000 + " the blue heron nests by the quarry lake " + "!?" * 3000)
    assert given and max(len(run) for run in re.findall(r"[^\w\s]+", given[0])) <= 16
    assert {"blue heron", "quarry lake"} <= {p.text for p in found}


@pytest.mark.parametrize("unit", ["Wed 16/12 ", "1/", "by 3 March, ", "tue night "])
def test_a_long_run_of_dates_is_read_for_its_due_day_at_once(unit: str) -> None:
    """Each date of a text was checked for a deadline word ending right before it by searching the whole text
    before it: 10,000 dates in 100,000 characters took close to a minute. The words before a date are read."""
    text = run_of(unit)
    with guard(30, f"reading the due day of a run of {unit!r}"):
        day = due.reminder_day(text, datetime(2026, 11, 30, 9, tzinfo=UTC))
        due.to_do(text)
    assert day is not None  # each run names a day
    # the words before a date still make it the deadline, past the other dates named first
    said = datetime(2026, 11, 30, 9, tzinfo=UTC)
    assert due.reminder_day("Trip 20/1. " * 50 + "Send the forms by 3 December.", said) == datetime(
        2026, 12, 3, tzinfo=UTC
    )
