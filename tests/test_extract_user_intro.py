"""A user introducing themselves in a chat ("I'm Sam, I lead the platform team at Acme.") waited in the review
queue as a guess (the classifier's 0.33) while "I'm a nurse" was a profile statement stored at once: a name, the
team one leads and the company one works at are now explicit profile statements; "I'm tired ..." stays none."""

from __future__ import annotations

import pytest

from engram.review.extract import APPROVE_AT, Message, by_rule


@pytest.mark.parametrize(
    "text",
    [
        "Quick context: I'm Sam, I lead the platform team at Acme.",
        "I'm Sam and I build robots for a living.",
        "I lead the data team at Northwind.",
        "I work at Northwind as a recruiter.",
    ],
)
def test_an_introduction_is_a_profile_statement_approved_at_once(text: str) -> None:
    found, _ = by_rule(Message(role="user", content=text))
    assert [c.kind for c in found] == ["profile"]
    assert found[0].confidence >= APPROVE_AT


@pytest.mark.parametrize(
    "text",
    [
        "I'm tired of meetings today, honestly.",
        "I'm Going to the gym later today.",
        "We lead by example here.",
    ],
)
def test_a_mood_or_a_capitalised_verb_is_no_introduction(text: str) -> None:
    found, _ = by_rule(Message(role="user", content=text))
    assert all(c.kind != "profile" for c in found)
