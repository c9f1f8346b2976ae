"""A heading that names a meeting or a call opens that meeting's notes: the kinds read a note and the categories an
interaction, whatever task the notes name, as the real model and the shipped read-outs decide it."""

from __future__ import annotations

from engram import Memory
from engram.classify import forms


def test_a_meeting_heading_makes_its_notes_an_account(real: Memory) -> None:
    """Read for their topic alone, the print shop's notes were a thing to do and the tiler's a reminder."""
    classifiers = real._classifiers
    cases = [
        (
            classifiers.kinds,
            "Sync with the print shop: the proofs are late and the invoice has to be redone.",
            "task",
            "note",
        ),
        (
            classifiers.categories,
            "Call with the tiler: he needs the bathroom cleared and the old grout removed first.",
            "reminders",
            "interactions",
        ),
    ]
    for classifier, text, alone, read in cases:
        vector, opened = classifiers.openings.embed_batch([text, classifier.opening(text) or ""])
        assert "meeting" in forms.read(text)
        assert classifier.decide(vector, [], opened, marks=frozenset()).label == alone, text
        assert classifier.decide(vector, [], opened, marks=forms.read(text)).label == read, text
