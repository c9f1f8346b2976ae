"""A link or a meeting's heading says what a line is whatever its topic, but few category seeds carry one, so the
categories count those two marks twice: a team's link is lookup material and a sync's notes an account of it, as
the real model and the shipped read-out decide it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from engram import Memory
from engram.classify import forms
from engram.classify.readout import _weighed

CASES = [
    ("Release checklist for the mobile app: https://wiki.example.com/mobile/release-checklist", "references"),
    ("Sprint board for the checkout rewrite: https://jira.example.com/boards/42", "references"),
    ("Weekly sync: the invoicing export is blocked until finance sends the new tax codes.", "interactions"),
]


def test_a_link_or_a_meeting_heading_outweighs_a_projects_topic(real: Memory) -> None:
    """Counted once, the links stayed with their projects and the sync's notes were left undecided."""
    classifiers = real._classifiers
    categories = classifiers.categories
    categories.prototypes()  # the rules as calibrated on this database's seeds
    twice = categories.rules
    assert dict(twice.form_weights) == {"address": 2.0, "meeting": 2.0}
    for text, read in CASES:
        vector, opened = classifiers.openings.embed_batch([text, categories.opening(text) or ""])
        marks = forms.read(text)
        assert marks & {"address", "meeting"}, text
        categories.rules = replace(twice, form_weights=())
        once = categories.decide(vector, [], opened, text)
        categories.rules = twice
        assert once.label != read, text
        assert categories.decide(vector, [], opened, text).label == read, text
        assert real.store_memory(text)["analysis"]["detected_category"] == read, text


def test_a_mark_counted_twice_is_its_shares_squared() -> None:
    likelihoods = np.array([[0.5, 0.1], [0.1, 0.5]])
    fused = np.array([[0.5, 0.5]])
    once = _weighed(fused, likelihoods, np.array([[1.0, 0.0]]))
    twice = _weighed(fused, likelihoods, np.array([[2.0, 0.0]]))
    assert np.allclose(once, [[5 / 6, 1 / 6]])
    assert np.allclose(twice, [[25 / 26, 1 / 26]])
    assert np.allclose(_weighed(fused, likelihoods, np.array([[0.0, 0.0]])), fused)  # no mark: unchanged
