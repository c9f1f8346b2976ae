"""PII detection and redaction: realistic positives of every kind, look-alike negatives that must pass."""

from __future__ import annotations

import pytest

from engram.lang.pii import Finding, PiiKind, asked_for, detect, redact, risk, scan

POSITIVES = [
    ("email me at jane.doe@example.co.uk tomorrow", PiiKind.EMAIL, "jane.doe@example.co.uk"),
    ("my number is +44 20 7946 0958", PiiKind.PHONE, "7946 0958"),
    ("call (415) 555-2671 after lunch", PiiKind.PHONE, "555-2671"),
    ("office line +49 30 901820", PiiKind.PHONE, "901820"),
    ("card 4111 1111 1111 1111 expires soon", PiiKind.CARD, "4111 1111 1111 1111"),
    ("pay with 5500-0055-5555-5559", PiiKind.CARD, "5500-0055-5555-5559"),
    ("IBAN GB82 WEST 1234 5698 7654 32 for rent", PiiKind.IBAN, "GB82 WEST"),
    ("transfer to DE89370400440532013000", PiiKind.IBAN, "DE89370400440532013000"),
    ("her SSN is 123-45-6789", PiiKind.SSN, "123-45-6789"),
    ("My NI number is AB 12 34 56 C.", PiiKind.SSN, "AB 12 34 56 C"),  # the UK's social security number
    ("national insurance JG103759A for the payroll form", PiiKind.SSN, "JG103759A"),
    ("the NAS is at 192.168.1.20", PiiKind.IP, "192.168.1.20"),
    ("ping 2001:db8::1 first", PiiKind.IP, "2001:db8::1"),
    ("aws key AKIAIOSFODNN7EXAMPLE leaked", PiiKind.SECRET, "AKIAIOSFODNN7EXAMPLE"),
    ("token ghp_abcdefghijklmnopqrstuvwxyz0123456789", PiiKind.SECRET, "ghp_abcdef"),
    ("OPENAI sk-proj-abcdefghijklmnopqrstuvwx", PiiKind.SECRET, "sk-proj-abc"),
    ("slack xoxb-1234567890-abcdefghij", PiiKind.SECRET, "xoxb-1234567890"),
    (
        "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
        PiiKind.SECRET,
        "eyJhbGci",
    ),
    ("password: hunter2hunter2", PiiKind.SECRET, "hunter2hunter2"),
    ("password: hunter2", PiiKind.SECRET, "hunter2"),
    ("DB_PASSWORD=supersecret123", PiiKind.SECRET, "supersecret123"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", PiiKind.SECRET, "wJalrXUtnFEMI"),
    ("AWS secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY too", PiiKind.SECRET, "wJalrXUtnFEMI"),
    ("the password is supersecret123", PiiKind.SECRET, "supersecret123"),
    ("The Wi-Fi password at the cabin is bluefinch42", PiiKind.SECRET, "bluefinch42"),
    ("Alarm PIN for the office is 8823", PiiKind.SECRET, "8823"),
    # said bare after its name, as a note does
    ("Xero login: dan, password Sparky!2026", PiiKind.SECRET, "Sparky!2026"),
    ("Fuel card exp 08/28, pin 3391", PiiKind.SECRET, "3391"),
    # a code that opens a door, a gate or a key safe, and a safe's combination
    ("Beechwood door code 4590# - don't give it out", PiiKind.SECRET, "4590#"),
    ("Church safe combination is 27-14-03", PiiKind.SECRET, "27-14-03"),
    ("Key safe at Dad's is by the back door, code 4471.", PiiKind.SECRET, "4471"),
    # a UK bank account by its sort code and number
    ("Bank details: sort code 40-12-76, acc no 31926819", PiiKind.ACCOUNT, "40-12-76"),
    ("pay into account number: 31926819 please", PiiKind.ACCOUNT, "31926819"),
    (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
        PiiKind.SECRET,
        "MIIEow",
    ),
    ("我的邮箱是 wang@example.cn，谢谢", PiiKind.EMAIL, "wang@example.cn"),
    ("电话 +86 138 0013 8000", PiiKind.PHONE, "138 0013 8000"),
    ("ruf mich an: 0151.234.5678", PiiKind.PHONE, "0151.234.5678"),
]

NEGATIVES = [
    "the combination of flavours was lovely, table 12 at 7:30",
    "I need a password manager, and a pin badge for the fair",
    "reset the pin after 3 tries; the password reset was 2 weeks ago",
    "the account was opened in 2019",
    "order #A-1234-5678 shipped",
    "due on 2024-03-15, or 15/03/2024, or March 3, 2024 at 10:30",
    "upgraded to Python 3.11.4 and version 1.2.3.4 of the agent",
    "it cost $1,234.56 plus 20% tax",
    "commit 3f2a9c1e5b7d8a9f0e1d2c3b4a5f6e7d8c9b0a1f fixed it",
    "request id 123e4567-e89b-12d3-a456-426614174000",
    "room 1234, call me at 5, we were 12 people in 2023",
    "card number 4111 1111 1111 1112 fails the checksum",
    "ISBN 978-3-16-148410-0 is on the back",
    "zip code 94103 and extraordinarily long words",
    "the SSN 078-05-1120 from the wallet ad is not a valid number",
    "The secret: practice daily and keep going",
    "the password is correct now, and the key to success is patience",
    "the password for the router was changed, the pin on the map is red",
    "set timeout=30 seconds and token = xyz",
    "The report is due on 3.4.2027, the visit on 03.04.27",
    "ref GB123456A and order AB1234567C",  # a prefix HMRC never allocates; seven digits
    "HMRC's example NI number is QQ 12 34 56 C",
]


@pytest.mark.parametrize(("text", "kind", "raw"), POSITIVES)
def test_positives_are_found_and_redacted(text: str, kind: PiiKind, raw: str) -> None:
    assert kind in [f.kind for f in detect(text)]
    report = scan(text)
    assert report.risk == 2 and kind in report.kinds
    assert raw not in report.redacted and f"[REDACTED_{kind.value.upper()}]" in report.redacted


@pytest.mark.parametrize("text", NEGATIVES)
def test_look_alikes_are_not_pii(text: str) -> None:
    assert detect(text) == [] and risk(text) == 0


def test_risk_levels_and_idempotent_redaction() -> None:
    raw = "write to ana@example.org or call +1 415 555 2671"
    redacted = redact(raw)
    assert risk(raw) == 2 and risk(redacted) == 1 and risk("nothing personal here") == 0
    assert redact(redacted) == redacted


def test_a_finding_never_shows_its_value() -> None:
    text = "mail bob@example.com"
    finding = detect(text)[0]
    assert isinstance(finding, Finding) and "bob" not in repr(finding) and "email" in repr(finding)


def test_a_secret_loses_its_value_but_keeps_the_name_it_was_given() -> None:
    assert redact("DB_PASSWORD=supersecret123 and the pin was 4321") == (
        "DB_PASSWORD=[REDACTED_SECRET] and the pin was [REDACTED_SECRET]"
    )


def test_a_question_for_the_national_insurance_number_asks_for_it() -> None:
    assert "ssn" in asked_for("what's my national insurance number?")
    assert "ssn" in asked_for("what is my NI number?")
    assert "ssn" not in asked_for("when does the home insurance renew?")
