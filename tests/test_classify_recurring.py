"""A time that comes round, stated rather than asked ("Glass recycling: green crate, collected fortnightly on
Mondays"), is a habit or a timetable: the kinds and the categories read it as a mark of form and weigh it by how
often each label's seeds carry it, so it draws a line away from the things to do, whose seeds ask for what recurs
("Water the plants every Sunday") but never state it."""

from __future__ import annotations

from engram import Memory
from engram.classify import forms

LINES = [
    "Glass recycling: green crate, collected fortnightly on Mondays.",
    "The allotment committee meets on the first Sunday of every month.",
    "Street sweeper comes round every other Thursday morning.",
    "Aunt Rosa's birthday is 2 October.",
    "Thursday night is quiz night at the Crown.",
    "Gran helps at the charity shop Thursday to Saturday.",
    "Our niece Maya turns 7 on 12 June.",
]


def test_a_stated_recurring_time_is_less_a_thing_to_do(real: Memory) -> None:
    both = real._classifiers
    for text in LINES:
        assert "recurring" in forms.read(text)
        vector, opened = both.openings.embed_batch([text, both.opening(text) or ""])
        for classifier, todo in ((both.kinds, "task"), (both.categories, "reminders")):
            read = classifier.decide(vector, [], opened, text)
            unread = classifier.decide(vector, [], opened, text, marks=frozenset())
            assert read.probabilities[todo] < unread.probabilities[todo], (text, todo)


def test_no_label_carries_the_mark_less_than_the_things_to_do(real: Memory) -> None:
    both = real._classifiers
    both.kinds.prototypes()
    both.categories.prototypes()
    for classifier, todo in ((both.kinds, "task"), (both.categories, "reminders")):
        readout = classifier.readout
        assert readout is not None and readout.likelihoods is not None
        column = readout.forms.index("recurring")
        share = dict(zip(readout.labels, readout.likelihoods[:, column], strict=True))
        assert share[todo] == min(share.values()), classifier.taxonomy.name


def test_a_relatives_job_is_the_users_household_not_an_interaction(real: Memory) -> None:
    """What a relative does describes the user's household (contexts); what they said is an interaction."""
    text = "Auntie Grace works as a midwife at the maternity unit."
    assert real.store_memory(text)["analysis"]["detected_category"] == "contexts"
