"""Phone numbers written as phone numbers are personal data even where the numbering plan lists their range as
unassigned; plain numbers (order ids, years, counts) are still not phones."""

from __future__ import annotations

import pytest

from engram.lang.pii import PiiKind, detect, scan


def _phones(text: str) -> list[str]:
    return [text[f.start : f.end] for f in detect(text) if f.kind is PiiKind.PHONE]


def test_a_phone_beside_an_email_is_reported_too() -> None:
    report = scan("Ben's phone is +44 7700 900123 and his email is ben@example.com")
    assert set(report.names) == {"phone", "email"}
    assert "7700" not in report.redacted and "[REDACTED_PHONE]" in report.redacted


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("Ben's phone is +44 7700 900123.", "+44 7700 900123"),
        ("Reach Ben on 0044 7700 900123 after six.", "0044 7700 900123"),
        ("Her mobile: 07700 900123", "07700 900123"),
        ("The agency in Tokyo is +81 3 5555 0199", "+81 3 5555 0199"),
        ("Call the office on +61 2 5550 1234 tomorrow", "+61 2 5550 1234"),
        ("Marc: +33 6 12 34 56 78", "+33 6 12 34 56 78"),
        ("Priya +91 98765 43210", "+91 98765 43210"),
        ("tel. 030 1234567 (front desk)", "030 1234567"),
    ],
)
def test_numbers_written_as_phones_are_phones(text: str, number: str) -> None:
    assert _phones(text) == [number]


@pytest.mark.parametrize(
    "text",
    [
        "Order 123456789 shipped in 2024 and arrived in 2025.",
        "Phone case order 12345678 arrived in 2024",
        "My phone number changed in 2019",
        "Between 1999 and 2024 we sold 12,345,678 units",
        "The phone bill went up by 20012 yen",
        "Rated +5 by 1200 users, ticket 00 1234",
    ],
)
def test_plain_numbers_are_not_phones(text: str) -> None:
    assert _phones(text) == []
