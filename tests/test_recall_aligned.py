"""A memory that answers in other words is told from a near miss by what it lacks: every content word of the
question has a word of the memory near it by the model, or the question asks something the memory does not say.
The words are matched with the real model; the rule's gate (only a first hit, only when all are low, only a
memory standing alone and not lowered for what it lacks) with given components."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram import Memory
from engram.embed.embedder import Embedder
from engram.embed.minilm import default_embedder
from engram.model.results import Scored
from engram.recall import aligned
from engram.recall.aligned import ALIGNED, ALIGNED_LEAD, content, meant_by_words, worst_match
from engram.store.values import Facts

NOTES = (
    "I swim 30 lengths at the leisure centre before work on Tuesdays.",
    "My take-home pay is £2,900 a month after tax.",
    "Our tortoise Sheldon hibernates in a box in the garage from November.",
    "Granddad Walter collects model trains and still builds the layouts himself.",
    "The allotment is plot 14 on Mill Lane; the key is on the blue hook.",
    "I can't bear reality TV, but I'll watch any nature documentary.",
    "Book club meets the first Tuesday of the month at Priya's.",
    "The car is a 2017 Honda Jazz, MOT due in March.",
    "My dentist is Dr Okafor at Bridge Street Dental.",
    "Rent is £1,450 a month, paid on the 28th.",
    "Took up the ukulele in September; lessons with Marco on Thursday evenings.",
    "Our son Theo is allergic to penicillin.",
    "I take 50mg of sertraline every morning.",
    "Passport number 533219874, expires June 2029.",
    "The boiler pressure should sit between 1 and 1.5 bar.",
    "Dad's birthday is 4 May; he collects vinyl records of 70s soul.",
    "We switched our broadband to Zen Internet in August.",
    "My sister Ines works as a vet in Porto.",
    "Saving for a new kitchen, about £8,000 so far in the Nationwide account.",
    "Gym membership at PureGym is £24 a month, I go twice a week.",
    "Our neighbour Doreen feeds the tortoise when we're away.",
    "I'm reading The Overstory for book club.",
)


@pytest.fixture(scope="module")
def model() -> Embedder:
    return default_embedder()


def test_content_words_leave_out_what_asks_and_keep_hyphenated_words_whole() -> None:
    assert content("What's my brother-in-law called, and where does he work?") == ["brother-in-law", "work"]


@pytest.mark.parametrize(
    ("question", "memory"),
    [
        ("what do I earn?", "My take-home pay is £2,900 a month after tax."),
        ("anything about the tortoise's winter?", "Our tortoise Sheldon hibernates in a box from November."),
        ("who insures the van?", "The van's insurance is with Direct Line until June."),  # another form
    ],
)
def test_an_answer_in_other_words_matches_every_word_of_the_question(
    model: Embedder, question: str, memory: str
) -> None:
    assert worst_match(question, memory, model) >= ALIGNED


@pytest.mark.parametrize(
    ("question", "memory"),
    [
        ("who is my dentist's receptionist?", "My dentist is Dr Okafor at Bridge Street Dental."),
        ("what is my blood sugar level?", "Blood pressure at the last check-up was 121/79."),
    ],
)
def test_a_near_miss_lacks_the_word_asked_about(model: Embedder, question: str, memory: str) -> None:
    assert worst_match(question, memory, model) < ALIGNED


def _hit(content: str, *, lead: float, confidence: str = "low", episode: str | None = None) -> Scored[Facts]:
    now = datetime(2026, 1, 5, tzinfo=UTC)
    facts = Facts(content, content, 0.5, now, now, None, 0, 1.0, False, episode=episode)
    return Scored(facts, 0.5, {"cosine": 0.4, "lead": lead}, "match", confidence)


def test_only_a_first_hit_standing_alone_among_low_ones_is_meant(model: Embedder) -> None:
    question = "what do I earn?"
    pay = _hit("My take-home pay is £2,900 a month after tax.", lead=ALIGNED_LEAD)
    other = _hit("Rent is £1,450 a month, paid on the 28th.", lead=-ALIGNED_LEAD)
    assert meant_by_words([pay, other], question, model, set()) == {pay.record.id}
    # Another hit already sure, a turn of a conversation, a memory lowered for what it lacks, or no lead: none.
    assert (
        meant_by_words(
            [pay, _hit(other.record.content, lead=-0.1, confidence="medium")], question, model, set()
        )
        == set()
    )
    assert (
        meant_by_words([_hit(pay.record.content, lead=0.2, episode="chat")], question, model, set()) == set()
    )
    assert meant_by_words([pay, other], question, model, {pay.record.id}) == set()
    assert (
        meant_by_words([_hit(pay.record.content, lead=ALIGNED_LEAD - 0.01)], question, model, set()) == set()
    )
    assert meant_by_words([], question, model, set()) == set()


def test_accurate_recall_answers_a_question_in_other_words_and_still_nothing_for_a_near_miss(
    notes: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    hits = notes.recall("what's my sister's job?", touch=False)
    assert [(h.record.content, h.confidence) for h in hits] == [
        ("My sister Ines works as a vet in Porto.", "medium")
    ]
    for question in (
        "who is my dentist's receptionist?",
        "what is my pension worth?",
        "what is my mortgage rate?",
    ):
        assert notes.recall(question, touch=False) == []
    monkeypatch.setattr(aligned, "ALIGNED", 2.0)  # no worst match reaches it: the rule is off
    assert notes.recall("what's my sister's job?", touch=False) == []
