"""Personal data a phone or card pattern half saw: a UK NHS number ("NHS number 943 476 5919", 3-3-4 digits) was
redacted as a phone (the wrong label in a review, a wrong answer to "what's my NHS number"), and the expiry date
and security code beside a redacted card number were kept, so a stored note still held what a payment asks for."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.lang.pii import PiiKind, detect, redact


def _found(text: str) -> list[tuple[str, str]]:
    return [(f.kind.value, text[f.start : f.end]) for f in detect(text)]


@pytest.mark.parametrize(
    "text",
    ["NHS number 943 476 5919", "my NHS no. 943-476-5919 for the GP", "NHS: 9434765919", "NHS #943 476 5919"],
)
def test_a_named_nhs_number_is_an_identifier_not_a_phone(text: str) -> None:
    assert [kind for kind, _ in _found(text)] == [PiiKind.SSN.value]
    assert "[REDACTED_SSN]" in redact(text) and "5919" not in redact(text)


@pytest.mark.parametrize("text", ["NHS number 943 476 5918", "my NHS no. 123-456-7890", "NHS: 9434765910"])
def test_a_named_nhs_number_whose_check_digit_fails_is_still_an_nhs_number(text: str) -> None:
    """Mistyped or misread, it is what its owner calls their NHS number: redacted as one, never as a phone."""
    assert [kind for kind, _ in _found(text)] == [PiiKind.SSN.value]
    assert "[REDACTED_SSN]" in redact(text) and "PHONE" not in redact(text)


@pytest.mark.parametrize(
    "text", ["call NHS 111 for advice", "the NHS helpline 0300 311 2233", "NHS trust 2024"]
)
def test_a_number_after_nhs_that_is_no_nhs_number_is_not_taken_for_one(text: str) -> None:
    assert PiiKind.SSN.value not in [kind for kind, _ in _found(text)]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("card 4111 1111 1111 1111 exp 09/28", "card [REDACTED_CARD] exp [REDACTED_CARD]"),
        (
            "Visa 4111111111111111, expiry 09/2028, CVV 123",
            "Visa [REDACTED_CARD], expiry [REDACTED_CARD], CVV [REDACTED_CARD]",
        ),
        (
            "exp. 12/27 on card 5555 5555 5555 4444 cvc: 321",
            "exp. [REDACTED_CARD] on card [REDACTED_CARD] cvc: [REDACTED_CARD]",
        ),
        ("card 4111-1111-1111-1111 valid thru 1/29", "card [REDACTED_CARD] valid thru [REDACTED_CARD]"),
    ],
)
def test_a_card_expiry_and_code_beside_its_number_are_redacted(text: str, kept: str) -> None:
    assert redact(text) == kept


@pytest.mark.parametrize(
    "text", ["my passport expires 09/28", "the milk expires 10/12", "security code 4821 for the gym locker"]
)
def test_an_expiry_or_code_with_no_card_near_is_kept(text: str) -> None:
    assert redact(text) == text


def test_a_stored_note_keeps_neither_the_nhs_number_nor_the_card_details(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, redact_pii=True)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=settings) as mem:
        kept = mem.remember("Mum's NHS number 943 476 5919; her card 4111 1111 1111 1111 exp 09/28 CVV 123")
        stored = mem.get(kept.id).content
        found = mem.search_memory("what is mum's NHS number")["results"]
    for value in ("5919", "09/28", "123", "1111"):
        assert value not in stored
    assert "[REDACTED_SSN]" in stored and "[REDACTED_PHONE]" not in stored
    assert all("09/28" not in hit["content"] for hit in found)
