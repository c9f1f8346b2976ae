"""A request for a recommendation is answered by what the asker said they like on its topic: "I love listening
to audiobooks on my commute" answers "can you suggest something to do during my commute?", though a memory
about the commute's route resembles the question more (engram/recall/likings.py)."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.recall import likings
from engram.recall.likings import asks_recommendation, states_liking

NOTES = (
    "Planning my cycle route to the office: the commute takes about 40 minutes in rush hour traffic.",
    "The commute to work got longer since the bridge closed; I leave home at 7:45 now.",
    "I love listening to history audiobooks on the train, the journey flies by.",
    "Need to renew the train season ticket before the end of the month.",
    "My sister's birthday is on 3 March; she wants a new tennis racket.",
)
ASKED = "Can you suggest something to do on my commute? I take the train."


def test_requests_for_a_recommendation() -> None:
    for asked in (
        ASKED,
        "Could you recommend a hotel for my trip to Lisbon?",
        "I'm making a cocktail for friends, any suggestions?",
        "What would you recommend for a rainy weekend?",
        "Which laptop should I buy?",
        "Recommend a podcast about history",
    ):
        assert asks_recommendation(asked), asked
    for asked in (
        "What book did Caroline recommend to Melanie?",
        "how long is my commute?",
        "when is my sister's birthday?",
        "What recommendations has Nate received from Joanna?",
    ):
        assert not asks_recommendation(asked), asked


def test_first_person_likings() -> None:
    for said in (
        "I really enjoy hiking on weekends",
        "I'm a big fan of Italian food",
        "I\u2019d love to try the new ramen place",
        "I've been into pottery lately",
        "My favourite band is Elbow",
        "I'm particularly interested in the history podcasts.",
    ):
        assert states_liking(said), said
    for said in ("She likes jazz", "I need to call the dentist", "Would you like some tea?"):
        assert not states_liking(said), said


def _ids(memory: Memory, asked: str) -> list[str]:
    return [h.record.content for h in memory.recall(asked, limit=5, mode="ranked", touch=False)]


def test_a_liking_on_the_topic_answers_a_request(notes: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    liking, delay = NOTES[2], NOTES[1]
    hits = notes.recall(ASKED, limit=5, mode="ranked", touch=False)
    ranked = [h.record.content for h in hits]
    assert ranked.index(liking) < ranked.index(delay)
    assert hits[ranked.index(liking)].why == "liking"
    # Without the step the commute's delay, closer to the question's wording, comes before the liking.
    monkeypatch.setattr(likings, "LIFT", 0.0)
    ranked = _ids(notes, ASKED)
    assert ranked.index(liking) > ranked.index(delay)


def test_other_questions_are_ranked_as_before(notes: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    asked = "how long does my commute to work take?"
    before = _ids(notes, asked)
    monkeypatch.setattr(likings, "LIFT", 0.0)
    assert _ids(notes, asked) == before
    assert all(h.why != "liking" for h in notes.recall(asked, limit=5, mode="ranked", touch=False))
