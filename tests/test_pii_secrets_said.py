"""Secrets as a developer writes them in a note: a password after "pw", a key named for what it opens ("integration
key for the payouts service: ..."), and a login given as user / password. Each was stored raw with redaction on,
and the password became a tag. The name stays, the value goes; words that only look alike stay."""

from __future__ import annotations

import pytest

from engram.lang.pii import PiiKind, detect, redact


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("staging db pw is Tr0mb0ne#2031", "Tr0mb0ne#2031"),
        ("wifi pw: Gull-Hut-88", "Gull-Hut-88"),
        (
            "Opsgenie integration key for the billing service: 9c1e77ab03d24f6e8a5b2c9d0e1f3a47",
            "9c1e77ab03d24f6e8a5b2c9d0e1f3a47",
        ),
        ("Webhook signing secret for the shop: whsec_4Qm9vR2tLp8sXz", "whsec_4Qm9vR2tLp8sXz"),
        ("Staging basic auth: ops / Wint3r-Kettle!", "Wint3r-Kettle!"),
        ("router login admin / Bl4ckbird99", "Bl4ckbird99"),
    ],
)
def test_a_secret_said_the_short_way_loses_its_value(text: str, value: str) -> None:
    assert any(f.kind is PiiKind.SECRET for f in detect(text))
    shown = redact(text)
    assert value not in shown and "REDACTED" in shown


@pytest.mark.parametrize(
    "text",
    [
        "the pw ratio of the pump was fine",
        "key for the shed is under the pot",
        "the integration key for the payouts service is in the vault",
        "login admin / user roles are set in Okta",
        "Auth: see the runbook / wiki page",
    ],
)
def test_words_that_only_look_like_secrets_stay(text: str) -> None:
    assert redact(text) == text
