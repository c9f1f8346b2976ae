"""Personal data written so that a pattern does not see it but a reader does: a zero-width space or a direction
mark inside a card number or an address, digits of another script or full-width ones, a full-width "@", a letter
of another script in an address, separators the patterns did not take, an address spelt out ("ada [at] example
[dot] com"). With redaction on, each was stored as written. The text is now read as a reader sees it; what was
found is redacted with the hidden characters inside it, and prose that only looks alike is left alone."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.lang import pii

ZW, RTL, SOFT = "\u200b", "\u200f", "\u00ad"
FULL = {ord(c): ord(c) + 0xFEE0 for c in "0123456789@.+"}  # the full-width forms
ARABIC = {ord(str(d)): 0x0660 + d for d in range(10)}  # Arabic-Indic digits

DISGUISED = {
    "card, zero-width spaces": ("card", f"4111{ZW}1111{ZW}1111{ZW}1111"),
    "card, direction marks": ("card", f"4111{RTL}1111{RTL}1111{RTL}1111"),
    "card, full-width digits": ("card", "4111 1111 1111 1111".translate(FULL)),
    "card, Arabic-Indic digits": ("card", "4111111111111111".translate(ARABIC)),
    "card, dots": ("card", "4111.1111.1111.1111"),
    "card, slashes": ("card", "4111/1111/1111/1111"),
    "card, double spaces": ("card", "4111  1111  1111  1111"),
    "email, zero-width space": ("email", f"ada{ZW}@example.com"),
    "email, soft hyphens": ("email", f"a{SOFT}da@exam{SOFT}ple.com"),
    "email, full-width at": ("email", "ada@example.com".translate(FULL)),
    "email, small at": ("email", "ada\ufe6bexample.com"),
    "email, Cyrillic letter": ("email", "\u0430da@example.com"),
    "email, bracketed": ("email", "ada [at] example [dot] com"),
    "email, parenthesised": ("email", "ada (AT) example (DOT) org"),
    "email, bracketed at": ("email", "ada [at] mail.example.org"),
    "email, words": ("email", "ada at example dot com"),
    "ssn, full-width digits": ("ssn", "536-22-1234".translate(FULL)),
    "ssn, zero-width space": ("ssn", f"536{ZW}-22-1234"),
    "ip, full-width digits": ("ip", "192.168.1.20".translate(FULL)),
    "secret, zero-width space": ("secret", f"AKIA{ZW}IOSFODNN7EXAMPLE"),
    "iban, zero-width spaces": ("iban", ZW.join(["DE89", "3704", "0044", "0532", "0130", "00"])),
}


def _plain(text: str) -> str:
    """What a reader takes from `text`: hidden characters gone, every digit and full-width form plain."""
    out = []
    for c in text:
        if unicodedata.category(c) == "Cf":
            continue
        out.append(
            str(unicodedata.digit(c)) if unicodedata.category(c) == "Nd" else unicodedata.normalize("NFKC", c)
        )
    return "".join(out)


@pytest.mark.parametrize(("kind", "value"), DISGUISED.values(), ids=DISGUISED.keys())
def test_disguised_personal_data_is_found_and_redacted_whole(kind: str, value: str) -> None:
    text = f"for the record: {value} (keep it safe)"
    report = pii.scan(text)
    assert report.risk == 2 and kind in report.names, report.names
    assert report.redacted == f"for the record: {pii.MARKERS[pii.PiiKind(kind)]} (keep it safe)"


PROSE = [
    "look at this dot product before the exam",
    "investors at the dot com peak lost a lot",
    "meet me at 10 dot 30 by the harbour",
    "version 1.2.3.4 of the tool, price 12.50 and 3/4 cup",
    "東京の会議は来週の火曜日です。",
    "the recipe serves 4\u200b people",
]


@pytest.mark.parametrize("text", PROSE)
def test_prose_that_only_looks_alike_is_left_alone(text: str) -> None:
    assert pii.scan(text).risk == 0


def test_a_write_with_redaction_on_keeps_none_of_it(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "home", tag_on_topic=-1, redact_pii=True)
    text = "reach Ada at ada [at] example [dot] com, card " + "4111 1111 1111 1111".translate(FULL)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=settings) as mem:
        stored = mem.get(mem.remember(text).id)
    seen = _plain(stored.content)
    assert "4111" not in seen and "example" not in seen, stored.content
    assert sorted(stored.metadata["pii_redacted"]) == ["card", "email"]
