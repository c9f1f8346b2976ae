"""A word the tagger reads as a plural noun is the verb of its clause when nothing else in the clause is a verb
and it says when ("renews in March", "lands at 9:30"), or its clause opens with whose it is ("Leo's bus
leaves at ..."), or it is the last part of a hyphenated verb ("auto-renews"), or it is never a noun ("Admiral
renews 14 February"): a tag stops before it."""

from __future__ import annotations

import pytest

from engram.tags.phrases import topics


@pytest.mark.parametrize(
    ("text", "wanted", "verb"),
    [
        ("Music streaming is Spotify, the student plan renews in September", "student plan", "renews"),
        ("The car insurance auto-renews every October", "car insurance", "auto-renews"),
        ("Leo's bus leaves at 8:05 from the depot", "bus", "leaves"),
        ("Mia's ferry lands at 9:30 in Calais", "ferry", "lands"),
        # a word that is never a noun, after a name the tagger read as an adjective
        ("Car insurance with Admiral renews 14 February, policy ADM-44871-22.", "car insurance", "renews"),
        ("Broadband with Zen expires 3 March", "broadband", "expires"),
        # a particle after it, whatever comes before
        ("The nightly ETL for shipments kicks off at 01:30 UTC.", "shipments", "kicks"),
        # where a thing is kept, the word before it the tagger's adjective: the verb ends the subject's tag
        ("Adyen webhook HMAC key lives in Vault at secret/payments/adyen/hmac", "webhook hmac key", "lives"),
        ("The spare key lives under the mat", "spare key", "lives"),
    ],
)
def test_a_verb_the_tagger_took_for_a_plural_ends_the_tag(text: str, wanted: str, verb: str) -> None:
    found = topics(text)
    assert any(t.lower() == wanted for t in found), found
    assert not any(t.lower().endswith(verb) for t in found), found


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("I like aisle seats on long flights, always", "aisle seats"),
        ("Swimming lessons on Saturday mornings for Noah", "swimming lessons"),
        ("Our concert tickets are in the drawer", "concert tickets"),
    ],
)
def test_a_plural_noun_before_a_preposition_stays_in_its_phrase(text: str, wanted: str) -> None:
    found = topics(text)
    assert any(t.lower() == wanted for t in found), found


@pytest.mark.parametrize(
    ("text", "wanted", "not_wanted"),
    [
        # "huddle" read as a past tense it is not; "cleaner" as a comparative
        ("I do the weekly team huddle every Monday at 8:15.", "team huddle", "weekly team"),
        ("Pay the window cleaner £18 cash on Friday.", "window cleaner", "window"),
    ],
)
def test_a_noun_the_tagger_misread_after_a_noun_stays_in_the_tag(
    text: str, wanted: str, not_wanted: str
) -> None:
    found = [t.lower() for t in topics(text)]
    assert any(t.endswith(wanted) for t in found), found
    assert not_wanted not in found, found


def test_a_past_tense_after_a_noun_still_ends_the_tag() -> None:
    assert [t.lower() for t in topics("The dog walked home.")] == ["dog"]


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("Tech lead is Dmitri, he wants ADRs for anything that touches the payment flow", "Tech lead"),
        ("Kitchen tap drips again", "Kitchen tap"),
    ],
)
def test_a_sentence_s_capitalised_first_word_before_a_noun_is_part_of_its_tag(text: str, wanted: str) -> None:
    """Its capital is the sentence's: "Tech lead" is one topic, not a name "Tech" and a "lead"."""
    found = topics(text)
    assert wanted in found, found
    assert not {"Tech", "lead", "Kitchen", "tap"} & set(found), found
    assert "Raj" in topics("Raj mentioned the offsite")  # a name before a verb stays one
