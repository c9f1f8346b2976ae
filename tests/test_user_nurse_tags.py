"""Tags of a nurse's notes: a short German line whose function words English shares ("hat", "am") is read as
German, so its verbs are no tags; and the words a home is described with in British and American English
(hall / hallway, lounge / living room) fold into one tag."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory
from engram.config import Settings
from engram.tags import german, naming, phrases


@pytest.mark.parametrize(
    ("text", "verbs"),
    [
        ("Ruth schrieb: Felix hat am 9. Dezember Geburtstag.", {"schrieb", "hat"}),
        ("Oma hat am Sonntag angerufen.", {"hat", "angerufen"}),
    ],
)
def test_a_short_german_line_gives_its_nouns_not_its_verbs(text: str, verbs: set[str]) -> None:
    assert german.is_german(text)
    tags = {t.lower() for t in phrases.topics(text)}
    assert tags and not tags & verbs and not any(t.endswith(tuple(f"-{v}" for v in verbs)) for t in tags)


@pytest.mark.parametrize(
    "text", ["I am at the hat shop in town.", "Sam was in Berlin on Friday.", "Deploy in an hour."]
)
def test_english_sharing_german_function_words_stays_english(text: str) -> None:
    assert not german.is_german(text)


@pytest.mark.parametrize(
    ("keep", "other"), [("hallway", "hall"), ("living-room", "lounge"), ("staircase", "stairs")]
)
def test_one_room_named_two_ways_is_one_tag(keep: str, other: str) -> None:
    # The model places hall and hallway (0.62) no closer than bed and bedroom (0.70): only the word list knows.
    assert naming.same_tag(keep, other, 0.6) == "variant"


def test_optimize_tags_folds_hall_into_hallway(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        m.remember("Reclaimed floor tiles for the hallway arrive on Friday.", tags=["hallway", "tiles"])
        m.remember("Dad's spare glasses are in the top drawer of the hall dresser.", tags=["hall", "glasses"])
        plan = m.run_tool("optimize_tags", dry_run=True)
    assert {(x["tag"], x["into"]) for x in plan["merges"]} >= {("hall", "hallway")}


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("Dad fell in the bathroom, bruised his hip; the OT is coming to fit grab rails.", "grab rails"),
        ("I am going to paint the hall next weekend.", "hall"),
    ],
)
def test_a_verb_after_to_is_no_part_of_the_topic(text: str, topic: str) -> None:
    tags = [t.lower() for t in phrases.topics(text)]
    assert topic in tags and not any(t.startswith(("fit ", "paint ")) for t in tags)
