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


def test_a_heading_ending_in_the_meeting_or_naming_its_purpose_makes_an_account(real: Memory) -> None:
    """A meeting named at the end of a short heading ("Quarterly budget meeting: ...") or by what it is for
    ("Supervision with ...", "Probation review with ...") carries the mark too: read for their topic alone, these
    notes were things to do and reminders or undecided."""
    classifiers = real._classifiers
    cases = [
        "Quarterly budget meeting: spending is fine, still need a volunteer to count the stock.",
        "Supervision with Dr Okafor: chapter two reads well, trim the method and send it again.",
        "Probation review with Sam: quick learner, needs to learn the stock system.",
    ]
    for text in cases:
        assert "meeting" in forms.read(text), text
        kinds, categories = classifiers.kinds, classifiers.categories
        vector, opened = classifiers.openings.embed_batch([text, kinds.opening(text) or ""])
        assert kinds.decide(vector, [], opened, marks=frozenset()).label == "task", text
        assert kinds.decide(vector, [], opened, marks=forms.read(text)).label == "note", text
        assert categories.decide(vector, [], opened, marks=frozenset()).label != "interactions", text
        assert categories.decide(vector, [], opened, marks=forms.read(text)).label == "interactions", text
