"""The marks of a statement's form the kinds' read-out weighs (engram.classify.forms, readout.with_marks)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from engram import FakeEmbedder, Memory
from engram.classify import forms
from engram.classify import readout as linear

SAID = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(
    ("text", "marks"),
    [
        ("Conference talk abstract due 8 Dec.", {"deadline"}),
        ("Send the signed lease back to the landlord by Friday.", {"deadline"}),
        ("下周五之前把季度报告发给王经理。", {"deadline"}),
        ("Good article on Postgres index types: https://example.com/blog/pg", {"address"}),
        ("Anna's email is anna@example.org.", {"address"}),
        ("The landlord can be reached on +49 170 5550192.", {"address"}),
        # A rule is never due, a month is a horizon, and a past day is when it happened; the speaker's own words
        # for themself are a mark of their own.
        ("Never deploy to production on Fridays after 2pm.", {"recurring"}),
        ("No meetings before 10am on Mondays.", set()),
        ("I want to run a marathon by October.", {"speaker"}),
        ("Ich trinke morgens immer zwei Tassen Tee.", {"speaker"}),
        ("Remind me to water Oskar's plants on Sunday.", {"deadline", "speaker"}),
        ("We replaced the cron jobs last Tuesday.", set()),
        ("The user lives in Lisbon.", set()),
        ("Imagine the mirrors in the hall.", set()),
        ("Flutter's hot reload keeps the app state.", set()),
        # A heading naming a meeting or a call opens its notes, whatever they list; a meeting named inside a
        # sentence, an instruction to call and a lesson from a retro are no such heading.
        ("Call with the tiler: he can start after the holidays.", {"meeting"}),
        ("Board meeting notes - move the audit to spring, hire a bookkeeper.", {"meeting"}),
        ("1:1 with Sanne: she wants to lead the onboarding work.", {"meeting"}),
        ("Besprechung mit dem Vermieter: die Heizung wird im Januar getauscht.", {"meeting"}),
        ("Hate phone calls after dinner - text me instead.", {"speaker"}),
        # A verb of liking with its subject left out has the speaker for subject; "love" as a noun does not. In a
        # Polish text "i" is "and" and "ich" is "their"; an English "I" beside a Polish name is still the speaker.
        ("Prefer aisle seats on trains, never facing backwards.", {"speaker"}),
        ("Really can't stand loud restaurants.", {"speaker"}),
        ("Love is patient.", set()),
        ("Wieczorem u mamy: zjadła zupę i pytała o wnuki.", set()),
        ("Kasia lubi koty, ale ich już nie ma.", set()),
        ("Had coffee with Łukasz, I owe him a call.", {"speaker"}),
        ("Never book video calls before nine - audio only.", set()),
        ("Call the tiler - the grout is cracking.", set()),
        ("Lesson from the retro: smaller tickets move faster.", set()),
        ("Meeting at 10:30 - room 4.", set()),
        # Under the heading its noun is no instruction: a debrief after a day tells of it; a task the notes ask
        # for by a day is still a deadline.
        ("Debrief after Thursday's flood drill: the sandbags sat in the wrong shed.", {"meeting"}),
        ("Call with Anna on Friday: bring the budget draft.", {"meeting", "deadline"}),
        ("Call with Marta on Monday: she thinks the lease will be renewed.", {"meeting"}),
        ("Sync with the printers: the proofs have to be back by Monday.", {"meeting", "deadline"}),
        # A time that comes round, stated: a habit or a timetable. Asked or owed, however often, it is a thing to
        # do; "always" and "usually" state rules and habits of every kind, not a slot in the week.
        ("Bin days: black bin Tuesdays, green one every other Friday", {"recurring"}),
        ("The choir rehearses every Wednesday evening in the church hall.", {"recurring"}),
        ("Zumba jeden Donnerstag um 19 Uhr.", {"recurring"}),
        ("Water the tomatoes every evening.", set()),
        ("I have to call my gran twice a week.", {"speaker"}),
        ("The gas bill is due on the 3rd of every month.", set()),
        ("I always take the stairs.", {"speaker"}),
        # A birthday's or an anniversary's day, stated, comes round every year; a task before one is owed.
        ("Grandad's birthday is on 14 June.", {"recurring"}),
        ("Our anniversary falls on the 9th of May.", {"recurring"}),
        ("Buy Grandad a card before his birthday on 14 June.", {"deadline"}),
        ("Grandad turned 90 on 14 June.", set()),
        # An age turned on a day is a birthday told by its age; a task before it is owed.
        ("Our niece Maya turns 7 on 12 June.", {"recurring"}),
        ("Buy Maya a kite before she turns 7 on 12 June.", {"deadline"}),
        # What a weekday holds each week, its parts of the day in the plural and a span of weekdays are a slot in the
        # week, as the due reader reads a habit; one evening asked for or a dated event is not.
        ("Thursday night is quiz night at the Crown.", {"recurring"}),
        ("Tuesday evenings are for the climbing wall.", {"recurring"}),
        ("Gran helps at the charity shop Thursday to Saturday.", {"recurring"}),
        ("Pick up the kids Tuesday evenings at six.", set()),
        ("Book the hall for Tuesday evening.", {"deadline"}),
        ("Quiz night is on Thursday 10 December.", {"deadline"}),
        # A committee's or an annual general meeting's heading opens its notes like any meeting's.
        ("Residents' committee: the lift repair is booked and the hedge is cut back.", {"meeting"}),
        ("Club AGM - fees stay the same, two new trustees.", {"meeting"}),
        ("The committee approved the new budget.", set()),
        # A short heading ending in the meeting's noun, or a meeting named by its purpose, opens its notes too;
        # an instruction ending in one asks for something, and what came from one is no account of it.
        ("Parish council planning meeting: the hedge can stay, the shed needs a permit.", {"meeting"}),
        ("Supervision with Dr Okafor: chapter two reads well, trim the method.", {"meeting"}),
        (
            "Annual review with my line manager: she wants me to mentor the new starters.",
            {"meeting", "speaker"},
        ),
        ("Notes from the call: they want a lower price.", {"meeting"}),
        ("Prepare for the board meeting: slides and the cash forecast.", set()),
        ("Lesson from the retro: smaller releases are calmer.", set()),
    ],
)
def test_the_marks_a_text_carries(text: str, marks: set[str]) -> None:
    assert forms.read(text, SAID) == marks


def test_marks_are_one_column_per_form() -> None:
    table = forms.marks([frozenset({"address"}), frozenset()], forms.FORMS)
    assert table.tolist() == [[float(f == "address") for f in forms.FORMS], [0.0] * len(forms.FORMS)]


def _fitted(marked_task: int) -> linear.LinearReadout:
    """A read-out over two labels the embedding cannot tell apart, where `marked_task` of 40 task seeds (and
    none of the notes) carry a deadline."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(80, 16)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    labels = ["task"] * 40 + ["note"] * 40
    carried = [frozenset({"deadline"}) if i < marked_task else frozenset() for i in range(80)]
    return linear.fit(
        x,
        None,
        labels,
        np.zeros(16, np.float32),
        0.0,
        np.full((80, 2), 0.5),
        marks=forms.marks(carried, forms.FORMS),
        forms=forms.FORMS,
    )


def test_a_mark_weighs_as_much_as_the_seeds_show() -> None:
    fitted = _fitted(marked_task=20)
    assert fitted.likelihoods is not None
    column = forms.FORMS.index("deadline")
    # One added to each count: 21 of 42 tasks, 1 of 42 notes.
    assert fitted.likelihoods[fitted.labels.index("task"), column] == pytest.approx(21 / 42)
    assert fitted.likelihoods[fitted.labels.index("note"), column] == pytest.approx(1 / 42)
    even = {"task": 0.3, "note": 0.7}
    weighed = fitted.with_marks(even, frozenset({"deadline"}))
    assert weighed["task"] == pytest.approx(0.15 / (0.15 + 0.7 / 42))  # 0.3 x 21/42 against 0.7 x 1/42
    # A mark the text lacks says nothing: the readers find it in some texts only.
    assert fitted.with_marks(even, frozenset()) == even
    # Seeds where no label carries the mark more often leave the distribution as it was.
    flat = _fitted(marked_task=0).with_marks(even, frozenset({"deadline"}))
    assert flat["task"] == pytest.approx(0.3)
    # The mark's weights survive being kept with the database.
    kept = linear.LinearReadout.from_json(fitted.to_json())
    assert kept.forms == fitted.forms
    assert kept.with_marks(even, frozenset({"deadline"})) == pytest.approx(weighed)


def test_held_out_accuracy_counts_each_seeds_mark_without_it() -> None:
    # Every task seed carries the mark and no note does: read with each seed's own mark left out of the
    # counts, every task is found where the embedding alone finds about half of them (a note, unmarked, is
    # still read by its embedding alone).
    assert _fitted(marked_task=40).held_out_accuracy >= _fitted(marked_task=0).held_out_accuracy + 0.15


def test_store_memory_reads_the_marks_of_the_kinds_read_out(tmp_path: Path) -> None:
    text = "Quarterly slides due 3 December."
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as m:
        kinds = m._classifiers.kinds
        vector = m.embedder.embed_batch([text])[0]
        opening = m.embedder.embed_batch([kinds.opening(text) or ""])[0]
        # Decided before it is stored: a confident write joins the prototypes, and a second read finds itself.
        marked = kinds.decide(vector, [], opening, text)
        unmarked = kinds.decide(vector, [], opening)
        stored = m.get(m.remember(text).id)
        assert kinds.readout is not None and kinds.readout.forms == forms.FORMS
    assert marked.probabilities["task"] > unmarked.probabilities["task"]
    assert stored.kind_confidence == pytest.approx(max(marked.probabilities.values()), abs=1e-3)


def test_the_shipped_kinds_read_out_weighs_the_marks_the_seeds_carry_now() -> None:
    # The marks are read by code (engram.lang.due, analysis, pii), not by the seeds' digest: a reader changed
    # since `python -m engram.classify.fitted` leaves the shipped shares stale.
    from engram.classify import fitted
    from engram.classify.taxonomy import load_taxonomy

    shipped = fitted._shipped("kinds")
    assert shipped is not None
    readout = shipped[1]
    assert readout.forms == forms.FORMS and readout.likelihoods is not None
    taxonomy = load_taxonomy("kinds", fallback="knowledge")
    for row, label in enumerate(readout.labels):
        seeds = taxonomy.prototypes[label]
        carried = forms.marks([forms.read(t) for t in seeds], forms.FORMS).sum(axis=0)
        assert readout.likelihoods[row] == pytest.approx((carried + 1) / (len(seeds) + 2)), label
