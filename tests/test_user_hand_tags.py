"""Tags of lines a person wrote by hand: a noun the tagger read as a verb inside a noun phrase ("Sprint review
every second Friday", "the staging API keys every 90 days") is the phrase's head, and the tag keeps it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory
from engram.config import Settings
from engram.model.record import Status
from engram.store.values import Filter
from engram.tags import phrases


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("Sprint review every second Friday at 2pm.", "sprint review"),
        ("Rotate the staging API keys every 90 days; last rotated on 1 October.", "staging api keys"),
        ("Rotate the database passwords each quarter.", "database passwords"),
        ("Design review every Thursday after lunch.", "design review"),
    ],
)
def test_a_noun_read_as_a_verb_ends_the_phrase(text: str, topic: str) -> None:
    assert topic in [t.lower() for t in phrases.topics(text)]


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("Our staging cluster runs every night.", "cluster runs"),
        ("The billing service restarts each Sunday.", "service restarts"),
        ("Let Sam review the draft before Friday.", "sam review"),
        ("The team reviews every pull request.", "team reviews"),
    ],
)
def test_a_clauses_own_verb_stays_out_of_the_tags(text: str, verb: str) -> None:
    assert all(not t.lower().endswith(verb) for t in phrases.topics(text))


def test_a_memory_from_a_chat_is_tagged_with_its_topics_not_the_extractors_label(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        m.ingest(
            [
                {
                    "role": "user",
                    "content": "Remind me to renew the parking permit by Friday.",
                    "message_id": "1",
                },
                {"role": "user", "content": "I'm a radiographer at St Mary's hospital.", "message_id": "2"},
            ]
        )
        stored = m.store.select(Filter(statuses=tuple(Status), include_expired=True), limit=10)
    labels = {"todo", "profile", "fact", "preference", "decision", "event", "goal"}
    assert stored and all(not labels & set(r.tags) and r.tags for r in stored)
    assert any(r.metadata["candidate"]["kind"] == "todo" for r in stored)  # the label stays, in metadata
