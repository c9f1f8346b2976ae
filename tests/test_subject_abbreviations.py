"""Whose statement a memory is, when it opens with an abbreviation: "MOT for the Skoda Octavia ..." is about the
user's car, and was read as another person's statement (MOT is no word of the dictionary, as a name is not), so
"what car do I drive?" put it below guesses."""

from __future__ import annotations

import pytest

from engram.agent.subject import someone_else


@pytest.mark.parametrize(
    "text",
    [
        "MOT for the Skoda Octavia (reg YK19 HFD) is due on 3 January.",
        "NHS number 943 476 5919, on the back of the letter.",
        "VAT return for the quarter goes in by 7 February.",
    ],
)
def test_an_opening_abbreviation_names_nobody(text: str) -> None:
    assert not someone_else(text)


@pytest.mark.parametrize(
    "text",
    [
        "Lena from design prefers Figma comments over e-mail.",
        "Priya likes her tea without sugar.",
        "Tom's e-mail is tom@example.org.",
    ],
)
def test_a_named_person_still_is_someone_else(text: str) -> None:
    assert someone_else(text)
