"""A verb the tagger reads as a plural noun after a name or after a gerund that opens its clause ("Claire prefers
we ...", "recycling alternates weeks") is no tag; a plural inside a name or after a gerund modifier stays."""

from __future__ import annotations

import pytest

from engram.tags.phrases import topics


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("Claire prefers we don't do screens before bed for the kids.", "prefers"),
        ("Bins go out every Monday night; recycling alternates weeks.", "alternates"),
        ("Tomasz texts me when the boiler plays up.", "texts"),
    ],
)
def test_the_verb_after_a_name_or_a_gerund_subject_is_no_tag(text: str, verb: str) -> None:
    found = topics(text)
    assert found and not any(verb in t.lower().split() for t in found), found


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("Our Google Docs templates live in the shared drive.", "templates"),
        ("Swimming lessons start in January.", "swimming lessons"),
        ("Sophie Marsh pays the rent on time.", "rent"),
    ],
)
def test_a_plural_in_a_name_or_after_a_modifier_stays(text: str, wanted: str) -> None:
    assert wanted in [t.lower() for t in topics(text)]
