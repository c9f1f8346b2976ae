"""Compounds a tag keeps whole that the tagger splits: an -ing word opening a noun compound, a capitalised name of
several words in mid-sentence and a hyphenated code; a gerund before its object stays a verb."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory
from engram.config import Settings
from engram.tags import phrases
from engram.tags.compounds import compounds


@pytest.mark.parametrize(
    ("text", "compound", "fragment"),
    [
        # after a determiner, an owner or an adjective no verb can stand: the -ing word modifies the noun
        ("The washing machine is leaking again, the drum will not turn.", "washing machine", "machine"),
        ("Sleeping less than six hours makes my running pace noticeably worse.", "running pace", "pace"),
        ("Cancel the streaming service before it renews on the 3rd.", "streaming service", "service"),
        ("Halina's hearing aid fitting Monday 8th, 11am at audiology", "hearing aid", "aid"),
        ("I want that as a standing rule for the assistant.", "standing rule", "rule"),
        (
            "Always bring noise-cancelling headphones on long flights.",
            "noise-cancelling headphones",
            "headphones",
        ),
        # after a verb that takes no -ing complement: no complement, a modifier
        ("Renew driving licence before June.", "driving licence", "licence"),
        ("My partner is a paediatric nurse and works rotating shifts.", "rotating shifts", "shifts"),
        # where a verb could stand, a compound the language has made a thing's name
        ("Landlord is Mr Patel, rent £950 on the 28th by standing order.", "standing order", "order"),
        ("The kids start swimming lessons on Saturday.", "swimming lessons", "lessons"),
    ],
)
def test_an_ing_word_opening_a_noun_compound_stays_with_it(text: str, compound: str, fragment: str) -> None:
    found = phrases.topics(text)
    assert compound in found
    assert fragment not in found


@pytest.mark.parametrize(
    ("text", "object_", "verb"),
    [
        (
            "Great conversation with Leo about switching careers into UX research.",
            "careers",
            "switching careers",
        ),
        ("Long chat with my therapist about setting boundaries at work.", "boundaries", "setting boundaries"),
        ("I write better in the morning before checking email.", "email", "checking email"),
        ("Nadia and I are splitting costs for the weekend.", "costs", "splitting costs"),
        ("Mia loves reading books at bedtime.", "books", "reading books"),
    ],
)
def test_a_gerund_before_its_object_stays_a_verb(text: str, object_: str, verb: str) -> None:
    found = phrases.topics(text)
    assert object_ in found
    assert verb not in found


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("Book swimming lessons for Mia at the leisure centre.", "swimming lessons"),
        ("Book tickets for the concert before prices go up.", "tickets"),
    ],
)
def test_an_instructions_verb_before_a_compound_or_another_clause_is_no_topic(text: str, topic: str) -> None:
    found = phrases.topics(text)
    assert topic in found
    assert not [t for t in found if t.lower().startswith("book")]


@pytest.mark.parametrize(
    "text",
    [
        "Quote for the Patel kitchen: £14,200 including worktops, sent 20 Nov.",
        "Rent is £950 a month excluding bills.",
        "Two complaints regarding noise from the flat upstairs.",
    ],
)
def test_an_ing_preposition_opens_no_compound(text: str) -> None:
    found = phrases.topics(text)
    assert not [t for t in found if t.lower().split()[0] in {"including", "excluding", "regarding"}], found


def test_an_ing_word_before_a_time_word_makes_no_topic() -> None:
    # "one working day" says how soon, as "one day" does: no tag either way
    found = phrases.topics("We always review pull requests within one working day.")
    assert not [t for t in found if t.endswith("day")]


@pytest.mark.parametrize(
    ("text", "name", "parts"),
    [
        (
            "Running the Bath Half on 8 March 2027, training plan 4 runs a week.",
            "Bath Half",
            {"Bath", "Half"},
        ),
        (
            "Signed up for the London Marathon and the Great North Run.",
            "Great North Run",
            {"Run", "Great North"},
        ),
    ],
)
def test_a_capitalised_name_in_mid_sentence_is_one_topic(text: str, name: str, parts: set[str]) -> None:
    found = phrases.topics(text)
    assert name in found
    assert not parts & set(found)


@pytest.mark.parametrize(
    ("text", "joined"), [("Ask the Leeds Office first.", True), ("Leeds Office hours changed.", False)]
)
def test_a_capital_at_a_sentences_start_marks_no_name(text: str, joined: bool) -> None:
    # the tagger's reading of "Office" set to a common noun, as it reads "Half" in "the Bath Half"
    doc = phrases._nlp()(text)
    office = next(t for t in doc if t.text == "Office")
    doc[office.i - 1].tag_, office.tag_ = "NNP", "NN"
    compounds(doc, phrases._nlp())
    assert (office.tag_ == "NNP") is joined


@pytest.mark.parametrize(
    ("text", "code", "parts"),
    [
        (
            "Wifi password for the flat is in the kitchen drawer, network name BT-Hub-7F2.",
            "BT-Hub-7F2",
            {"BT"},
        ),
        ("Moving from the A2-B1 course to the next one.", "A2-B1 course", {"A2", "B1"}),
    ],
)
def test_a_hyphenated_code_is_one_topic(text: str, code: str, parts: set[str]) -> None:
    found = phrases.topics(text)
    assert code in found
    assert not parts & set(found)


def test_a_span_of_numbers_is_no_code() -> None:
    assert not [t for t in phrases.topics("The lease runs 2019-2020 for the Leeds flat.") if "20" in t]


def test_a_time_of_day_is_no_topic() -> None:
    for text in (
        "Parents' evening for Year 10 on Thursday 3 December, 4-7pm.",
        "Dinner 7:30pm at Dishoom",
        "Football moves to 7pm, the 8pm pitch got block booked",  # "8pm pitch": read as 8 and "pm pitch"
    ):
        assert not [t for t in phrases.topics(text) if "pm" in t.lower()], text


def test_an_adjective_before_a_name_is_left_out() -> None:
    found = phrases.topics("Never use the cheap Wickes grab adhesive again, it failed on the Morris job.")
    assert "Wickes" in found and not [t for t in found if t.lower().startswith("cheap")]
    assert "Great Britain" in phrases.topics("Great Britain team kit arrived")  # a capital is the name's


def test_the_stored_tags_keep_the_compounds_whole(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        rent = m.store_memory("Landlord is Mr Patel, rent £950 on the 28th by standing order.")
        race = m.store_memory("Running the Bath Half on 8 March 2027, training plan 4 runs a week.")
        wifi = m.store_memory("Wifi password for the flat is in the kitchen drawer, network name BT-Hub-7F2.")
    tags = [set(r["analysis"]["generated_tags"]) for r in (rent, race, wifi)]
    assert "standing-order" in tags[0] and "order" not in tags[0]
    assert "bath-half" in tags[1] and not {"bath", "half"} & tags[1]
    assert "bt-hub-7f2" in tags[2] and not {"bt", "hub-7f2"} & tags[2]
