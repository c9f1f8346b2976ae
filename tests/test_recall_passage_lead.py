"""A passage of a document that the question clearly means, leading every other memory by cosine, is an answer of
medium confidence even when it shares few of the question's words: a passage says a dozen things, so a question
about one of them matches it less closely than a one-line memory. A question nothing stored answers stays low.
The real model: the cosines decide."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.recall.confidence import PASSAGE_FLOOR, PASSAGE_LEAD, confidence_of

QUOTE = (
    "# Quote for the bathroom refit at 22 Alder Grove, from Hollis & Daughter Plumbing\n\n"
    "Thank you for having us round last week. This sets out what we found, what we propose and what it costs.\n\n"
    "## What we found\n\n"
    "The bath panel is swollen and the floor under the bath is soft near the waste, so water has been getting in "
    "for a while. The extractor fan is not vented outside; it blows into the loft. The radiator is too small for "
    "the room and the valves are seized. The window sill has black mould along the back edge.\n\n"
    "## What we propose\n\n"
    "Strip out the suite and tiles, replace the rotten boards with 18mm ply, and fit a walk-in shower with a low "
    "tray where the bath is. A new towel rail replaces the radiator. The fan is ducted through the roof with a "
    "proper tile vent. Walls tiled to full height in the shower and half height elsewhere, in the grey tiles you "
    "picked. The window sill is treated and resealed.\n\n"
    "## Price and payment\n\n"
    "The whole job is £7,850 including VAT. We ask for 20 per cent when you book, a further 40 per cent when the "
    "first fix is done and the rest on completion. Any extra boards beyond the eight we have allowed for are "
    "charged at £35 each, fitted.\n\n"
    "## Timing and access\n\n"
    "We can start on Monday 18 January and expect to take eight working days. There will be no working toilet "
    "upstairs for three of them, so please plan for that. We need the drive clear for the skip, and someone to "
    "let us in at 8am on the first day; after that a key in the safe is fine.\n"
)
NOTES = (
    "My sister Ruth's birthday is 3 March.",
    "The car insurance is with Direct Line and renews in May.",
    "Our cat Biscuit needs her worming tablet every three months.",
    "I'm allergic to ibuprofen.",
    "The kitchen tap drips; the washer needs changing.",
    "Bin day is Thursday, recycling every other week.",
)


@pytest.fixture
def stored(real: Memory) -> tuple[Memory, str]:
    document = real.store_memory(QUOTE)["memory_id"]
    for note in NOTES:
        real.store_memory(note)
    return real, document


def test_a_passage_that_leads_is_medium_only_in_a_document() -> None:
    leading = {"cosine": PASSAGE_FLOOR + 0.02, "coverage": 0.2, "lexical": 0.3, "lead": PASSAGE_LEAD + 0.02}
    assert confidence_of(leading, in_document=True) == "medium"
    assert confidence_of(leading) == "low"  # a short memory is judged by the calibrator and `stands_out`
    assert (
        confidence_of({**leading, "lead": PASSAGE_LEAD - 0.05}, in_document=True) == "low"
    )  # another is near
    assert (
        confidence_of({**leading, "cosine": PASSAGE_FLOOR - 0.1}, in_document=True) == "low"
    )  # a poor match


def test_accurate_recall_answers_with_the_passage_that_leads(stored: tuple[Memory, str]) -> None:
    memory, document = stored
    # Shares "extractor" alone with the passage (which says the fan is ducted through the roof): low by the
    # calibrator, and nothing answered before the passage's lead counted.
    hits = memory.recall("how will the extractor be fixed?", touch=False)
    assert hits, "answered with nothing"
    assert hits[0].record.parent_id == document and "ducted through the roof" in hits[0].record.content
    assert hits[0].confidence == "medium"


def test_a_question_nothing_answers_stays_low(stored: tuple[Memory, str]) -> None:
    memory, _ = stored
    assert memory.recall("how much did the new boiler cost?", touch=False) == []
    found = memory.recall("how much did the new boiler cost?", mode="ranked", limit=3, touch=False)
    assert found and all(h.confidence == "low" for h in found)
