"""Digits that are not phone numbers: pieces of a longer run of digit groups (an account number, an IBAN whose
check fails, a reference, a DOI) and numbers right after a word naming a reference were read as phone numbers,
each candidate parsed for six regions; a long text of them cost seconds to write and stored false phone numbers.
Real numbers, written alone, after a phone word or with an international prefix, are still found."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import phonenumbers
import pytest
from phonenumbers import phonenumbermatcher

from engram import FakeEmbedder, Memory, Settings
from engram.lang import pii
from engram.lang.pii import PiiKind, detect


def _phones(text: str) -> list[str]:
    return [text[f.start : f.end] for f in detect(text) if f.kind is PiiKind.PHONE]


@pytest.mark.parametrize(
    "text",
    [
        "ref 0151 2345 6789",
        "Invoice no. 0301234567 is paid.",
        "Pay to DE12 3456 7890 1234 5678 90 by Friday",  # an IBAN whose check digits fail
        "Production AWS account ID: 4417-2209-8861",
        "Batch 54475385683227 00817445116999041705 775889950",
        "See https://doi.org/10.1080/00220489.2019.1578223 for the paper.",
    ],
)
def test_digits_that_say_what_they_are_are_no_phone_numbers(text: str) -> None:
    assert _phones(text) == []


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("call me at 0151 2345 6789 tonight", ["0151 2345 6789"]),
        ("ref +49 151 23456789 is her mobile", ["+49 151 23456789"]),
        ("Office 030 1234567, mobile 0151 23456789.", ["030 1234567", "0151 23456789"]),
        ("Her number is 07911 123456 and the order ref is 4471.", ["07911 123456"]),
        ("phone: 020 7946 0958 (24/7)", ["020 7946 0958"]),
        ("Ring (415) 555-2671 after 2024-05-01 please", ["(415) 555-2671"]),
    ],
)
def test_real_numbers_are_still_found(text: str, numbers: list[str]) -> None:
    assert _phones(text) == numbers


def _counted(calls: list[int], parse: Callable[..., Any]) -> Callable[..., Any]:
    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return parse(*args, **kwargs)

    return counting


def test_pieces_of_long_digit_runs_are_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    draw = random.Random(7)
    runs = " ".join("".join(draw.choice("0123456789") for _ in range(20)) for _ in range(300))
    groups = " ".join(
        f"DE{draw.randrange(100):02d} " + " ".join(f"{draw.randrange(10**4):04d}" for _ in range(5))
        for _ in range(200)
    )
    calls: list[int] = []
    monkeypatch.setattr(phonenumbers, "parse", _counted(calls, phonenumbers.parse))
    monkeypatch.setattr(phonenumbermatcher, "parse", _counted(calls, phonenumbermatcher.parse))
    assert _phones(runs) == [] and _phones(groups) == []
    # Each inner piece of each run was parsed once a region: thousands of calls.
    assert calls == []


def test_a_write_reads_a_texts_personal_data_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[str] = []
    read = pii._detect
    monkeypatch.setattr(pii, "_detect", lambda text, regions: reads.append(text) or read(text, regions))
    text = " ".join(["Call 0151 2345 6789 about order 4471."] * 50)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path / "h")) as mem:
        mem.remember("The first write learns its classifiers' examples.")
        mem.remember(text)
    # The scan, the form marks and the tagger each read the whole text: three searches for its numbers.
    assert reads.count(text) == 1
