"""Postal addresses are personal data: a street with its house number, or a postcode in its national form, is
found, redacted and never made a tag; numbers beside ordinary words (times, prices, dates, rooms, titles) are not."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.lang.pii import PiiKind, asked_for, detect, scan

POSITIVES = [
    ("We live at 14 Elm Road, Didsbury, M20 6RT", "14 Elm Road, Didsbury, M20 6RT"),
    ("Send it to 221B Baker Street, London NW1 6XE.", "221B Baker Street, London NW1 6XE"),
    ("Her flat is at 3 St. John's Close.", "3 St. John's Close"),
    (
        "The landlord's address is 42 Elm Road, Flat 3, Bristol BS1 4DJ.",
        "42 Elm Road, Flat 3, Bristol BS1 4DJ",
    ),
    ("We moved from 14 Elm Road last year", "14 Elm Road"),
    ("my postcode is SW1A 1AA", "SW1A 1AA"),
    ("Ship to 742 Evergreen Terrace, Springfield, IL 62704", "742 Evergreen Terrace, Springfield, IL 62704"),
    (
        "The White House is 1600 Pennsylvania Avenue NW, Washington, DC 20500",
        "1600 Pennsylvania Avenue NW, Washington, DC 20500",
    ),
    ("Austin, TX 78701 is where we landed", "Austin, TX 78701"),
    ("Zip code is 94105-1234", "94105-1234"),
    ("Ich wohne in der Hauptstraße 5, 10115 Berlin", "Hauptstraße 5, 10115 Berlin"),
    ("Wir wohnen Berliner Straße 12a in Köln", "Berliner Straße 12a"),
    ("Elle habite 12 rue de la Paix, 75002 Paris", "12 rue de la Paix, 75002 Paris"),
    ("Chioma's address: 88 Bellwoods Avenue, Toronto ON M6J 2P4.", "88 Bellwoods Avenue, Toronto ON M6J 2P4"),
    ("The cafe (8 Rankins Ln, Melbourne VIC 3000) opens early", "8 Rankins Ln, Melbourne VIC 3000"),
]

NEGATIVES = [
    "Road trip in 2019",
    "the 5 Way test",
    "Room 12",
    "version 14 Street Fighter",
    "Room 12 Park Lane is the meeting room",
    "We meet at 10:30 on Main Street",
    "Tickets were $14 for Elm Road Live",
    "It cost £12.50 on 3 May 2024",
    "on 14 March at 14:00",
    "Meeting at 14:00 on 2024-05-03",
    "In 2019 Oxford Street was closed for a week",
    "Led Zeppelin's 1973 Madison Square Garden concerts",
    "Order 55123-4567 shipped",
    "order number 12345-6789 is late",
    "the V8 4WD truck",
    "Take the A4 to Bath",
    "The team scored WA 3000 points",
    "Chapter 3 Abbey Road",
]


@pytest.mark.parametrize(("text", "address"), POSITIVES)
def test_an_address_is_found_as_written(text: str, address: str) -> None:
    found = [f for f in detect(text) if f.kind is PiiKind.ADDRESS]
    assert [text[f.start : f.end] for f in found][:1] == [address]


@pytest.mark.parametrize("text", NEGATIVES)
def test_numbers_in_ordinary_text_are_no_address(text: str) -> None:
    assert detect(text) == []


def test_an_address_is_redacted_and_named() -> None:
    report = scan("We live at 14 Elm Road, Didsbury, M20 6RT")
    assert report.redacted == "We live at [REDACTED_ADDRESS]"
    assert report.names == ["address"]


def test_a_question_for_where_someone_lives_asks_for_an_address() -> None:
    assert "address" in asked_for("where does Mum live?")
    assert "address" not in asked_for("what time is the dentist?")


@pytest.mark.parametrize("redact", [True, False])
def test_no_tag_is_made_from_an_address(tmp_path: Path, redact: bool) -> None:
    text = "We live at 14 Elm Road, Didsbury, M20 6RT with the garden shed"
    settings = Settings(home=tmp_path, tag_on_topic=-1.0, redact_pii=redact)
    with Memory(tmp_path / "t.db", embedder=FakeEmbedder(), settings=settings) as mem:
        stored = mem.store_memory(text)
        tags = stored["analysis"]["generated_tags"]
        assert tags  # the rest of the text still has its topics
        assert not {"elm", "road", "didsbury", "m20", "6rt"} & {w for t in tags for w in t.split("-")}, tags
        record = mem.get(stored["memory_id"])
        if redact:
            assert "Elm Road" not in record.content and "M20" not in record.content
            assert record.metadata["pii_redacted"] == ["address"]
        else:
            assert record.metadata["pii_found"] == ["address"]
