"""A thing to do told with its doing ("Need to register the birth... done, certificate in the blue folder") is
no longer to do: the due list leaves it out, while "get it done by Friday" still asks it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

from engram import Memory
from engram.lang.instruction import ticked_off

NOW = datetime(2026, 11, 26, 10, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "Need to register Isla's birth... done, certificate is in the blue folder",
        "Renew the passport - sorted",
        "Book the plumber ✓",
        "Send the signed contract (done 3 Nov)",
        "Pay the council tax: sorted",
        "Ring the surgery, done yesterday",
        "Send the card - done - it went first class",
    ],
)
def test_a_thing_to_do_told_as_done_is_ticked_off(text: str) -> None:
    assert ticked_off(text)


@pytest.mark.parametrize(
    "text",
    [
        "Get the MOT done by Friday",
        "Call the bank - sorted by Friday",
        "have the MOT done before the trip",
        "Well-done steak for Dad",
        "Done deal with the builder, starts 3 Jan",
        "Make sure the forms are completed",
        "Return the library book, finished reading it",
        "Pay the builder - done deal",
    ],
)
def test_a_thing_still_to_do_is_not(text: str) -> None:
    assert not ticked_off(text)


def test_the_due_list_leaves_out_what_was_done(mem: Memory) -> None:
    with time_machine.travel(NOW, tick=False):
        mem.store_memory("Need to register Isla's birth... done, certificate is in the blue folder")
        mem.store_memory("Need to book Isla's passport photos by Friday")
        listed = mem.search_memory("what do I need to do?", now=NOW)["results"]
    contents = [h["content"] for h in listed]
    assert any("passport photos" in c for c in contents)
    assert not any("register" in c for c in contents)
