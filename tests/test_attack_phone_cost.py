"""A long phone-like text is read for numbers once per candidate where the region cannot change its reading,
and numbers behind such padding are still found."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import phonenumbers
import pytest
from phonenumbers import phonenumbermatcher

from engram.lang import phone_reader
from engram.lang.pii import PiiKind, detect

PADDING = "+1 415 " * 300


def _counted(calls: list[int], parse: Callable[..., Any]) -> Callable[..., Any]:
    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return parse(*args, **kwargs)

    return counting


def test_phone_like_padding_is_parsed_once_per_distinct_candidate(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(phonenumbers, "parse", _counted(calls, phonenumbers.parse))
    monkeypatch.setattr(phonenumbermatcher, "parse", _counted(calls, phonenumbermatcher.parse))
    assert not [f for f in detect(PADDING) if f.kind is PiiKind.PHONE]
    # Every candidate in the padding is one of a few texts written with a plus: the six regions and every
    # position read them alike. Parsed per region and position, this was thousands of calls.
    assert 0 < len(calls) <= 20


def test_numbers_behind_padding_are_found_in_every_region() -> None:
    text = PADDING + "Ben's phone is +44 7700 900123, the London office 020 7946 0958, Paris 01 42 68 53 00."
    found = {text[f.start : f.end] for f in detect(text) if f.kind is PiiKind.PHONE}
    assert {"+44 7700 900123", "020 7946 0958", "01 42 68 53 00"} <= found


@pytest.mark.parametrize(
    "text",
    [
        "Call 020 7946 0958 or (415) 555-2671, not abc8005001234; +49 30 901820 / 030 901820.",
        "Fax: 06 12 34 56 78 - 06 12 34 56 79. 2024-05-01 12:30 +91 98765 43210 x12",
        "+1 415 555 2671 +1 415 555 2671 then 415.555.2671 and 15%5552671",
    ],
)
def test_the_reader_gives_what_the_library_gives(text: str) -> None:
    regions = ("US", "GB", "DE", "FR", "IN", "CN")
    leniencies = (phonenumbers.Leniency.VALID, phonenumbers.Leniency.POSSIBLE)
    library = [
        (leniency, m.start, m.end, m.raw_string)
        for leniency in leniencies
        for region in regions
        for m in phonenumbers.PhoneNumberMatcher(text, region, leniency=leniency)
    ]
    ours = [
        (leniency, m.start, m.end, m.raw_string)
        for leniency, m in phone_reader.matches(text, regions, leniencies)
    ]
    assert ours == library and library


def _national_digits(count: int) -> str:
    # Distinct numbers written as national ones are ("0301 555 1298"), none opening with "+" or "00".
    return ", ".join(
        f"0{n * 7919 % 900 + 100} {n * 104729 % 900 + 100} {n * 1299709 % 9000 + 1000}" for n in range(count)
    )


def _parses(monkeypatch: pytest.MonkeyPatch, text: str) -> int:
    calls: list[int] = []
    with monkeypatch.context() as patched:
        patched.setattr(phonenumbers, "parse", _counted(calls, phonenumbers.parse))
        detect(text)
    return len(calls)


def test_digits_after_a_phone_word_are_read_as_the_same_digits_without_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    digits = _national_digits(300)
    alone = _parses(monkeypatch, digits)
    said = _parses(monkeypatch, "phone: " + digits)
    # A phone word makes numbers of a possible length count, but only right after it (or with a "+" or "00"): the
    # other candidates were parsed once a region again for that reading, doubling the work.
    assert alone > 1000
    assert said < alone * 1.1


def test_numbers_written_as_phones_behind_national_digits_are_found() -> None:
    digits = _national_digits(300)
    text = f"phone: {digits}. Her mobile: 0301 555 12 and +44 7700 900123, {digits}"
    found = {text[f.start : f.end] for f in detect(text) if f.kind is PiiKind.PHONE}
    assert {digits[:13], "0301 555 12", "+44 7700 900123"} <= found
