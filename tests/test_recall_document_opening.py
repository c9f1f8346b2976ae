"""A passage of a long document says what the document's opening names: "where is Grandad's walking frame kept?"
is answered by the care plan's passage on the hallway, which never names him, while the plan's first line does.
The real model: the match strengths decide the bands."""

from __future__ import annotations

from engram import Memory
from engram.recall.passages import OPENING, opening

PLAN = (
    "# Care plan for Grandad (Arthur Pemberton), for the visiting carers, Joy and Femi\n\n"
    "I wrote this so that anyone who calls in while I am at work knows the routine and what to watch for.\n\n"
    "## Mornings\n\n"
    "He wakes about seven and likes the radio on straight away, Radio 4, not too loud. Porridge with a spoon of "
    "golden syrup, made with water not milk, and a weak tea with two sugars in the blue mug. The morning tablets "
    "are in the Monday to Sunday box on the kitchen windowsill: amlodipine, the water tablet and the vitamin D. "
    "Check the box afterwards, as he sometimes pockets one. Shave on Tuesdays and Fridays, an electric razor only.\n\n"
    "## Getting about\n\n"
    "The walking frame lives in the hallway by the coat stand when he is sitting down; the spare stick is behind "
    "the bedroom door. The stairlift key hangs on the hook inside the airing cupboard. The back step is loose, "
    "so use the front door, and keep the rug in the lounge rolled up against the wall. If he has a fall, do not "
    "lift him: make him comfortable with a cushion and a blanket and ring the falls team on 0300 555 0142.\n\n"
    "## Afternoons\n\n"
    "A sandwich at half twelve, cheese and pickle or ham, crusts left on. He naps after lunch in the armchair by "
    "the window. The quiz shows on the television settle him around four; the remote is the silver one. Biscuits "
    "are in the tin on top of the fridge: two, not the whole packet. The district nurse calls on Wednesdays to "
    "dress his leg, and the chiropodist comes every six weeks, the next visit on 14 January.\n\n"
    "## Evenings\n\n"
    "Tea at half five, something soft: fish pie, shepherd's pie, soup. Evening tablets at eight with a glass of "
    "water, then the hearing aids out and into the case on the bedside table, batteries size 312 in the drawer. "
    "Lights off at ten, the landing light left on. The neighbour, Pauline at number 9, has a key and will come "
    "round if you ring her on 07700 900512.\n"
)


def test_the_opening_is_the_start_of_a_document_cut_at_a_word() -> None:
    start = opening(PLAN)
    assert PLAN.startswith(start) and len(start) <= OPENING
    assert start.endswith("Joy") or not start[-1].isspace()
    assert opening("Short note") == "Short note"


def test_a_passage_says_whom_its_documents_opening_names(real: Memory) -> None:
    stored = real.store_memory(PLAN)["memory_id"]
    assert len(real.recall("walking frame", mode="ranked", limit=3, touch=False)) > 0
    hits = real.recall("where is Grandad's walking frame kept?", touch=False)
    assert hits and hits[0].record.parent_id == stored
    assert "walking frame lives in the hallway" in hits[0].record.content
    assert "Grandad" not in hits[0].record.content
    assert hits[0].confidence == "medium"
    # Whom the opening does not name, the passage does not answer for.
    other = real.recall("where is Pauline's walking frame kept?", mode="ranked", limit=1, touch=False)
    assert other and other[0].confidence == "low"


def test_a_documents_opening_is_read_from_the_store_without_the_rest(mem: Memory) -> None:
    """The opening's reader asks the store for its first characters alone, counted in characters (not bytes)
    on each backend, and cut at a word as from the whole text."""
    text = "Plan for Zoë 😀 and Øyvind, " + PLAN
    stored = mem.store_memory(text)["memory_id"]
    short = mem.store_memory("Short note for Zoë")["memory_id"]
    read = mem.store.openings([stored, short, "no-such-memory"], OPENING + 1)
    assert read == {stored: text[: OPENING + 1], short: "Short note for Zoë"}
    assert opening(read[stored]) == opening(text)
