"""Personal data written the short way people type it: a National Insurance number in lower case after its name
("national insurance no. jt482917c") and a sort code after "s/c" were stored raw with redaction on, beside a
redacted account number. Unnamed, lower-case letters and digits of that shape stay: they are as often a code."""

from __future__ import annotations

import pytest

from engram.lang.pii import PiiKind, detect, redact


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("national insurance no. jt482917c", PiiKind.SSN),
        ("my NI number is jt 48 29 17 c", PiiKind.SSN),
        ("NINO: AB123456C", PiiKind.SSN),
        ("salary into acct 40917263 s/c 82-11-07", PiiKind.ACCOUNT),
    ],
)
def test_a_named_identifier_written_short_or_in_lower_case_is_redacted(text: str, kind: PiiKind) -> None:
    kinds = {f.kind for f in detect(text)}
    assert kind in kinds
    assert not any(ch.isdigit() for ch in redact(text).replace("REDACTED", ""))


@pytest.mark.parametrize(
    "text", ["locker code jt482917c", "ni no dq123456c", "the s/cs of the pumps were 12 and 14"]
)
def test_lower_case_codes_unnamed_or_not_allocated_are_kept(text: str) -> None:
    assert redact(text) == text
