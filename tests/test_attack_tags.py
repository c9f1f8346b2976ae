"""A tag that looks like another is that other: written in fullwidth letters, or with an invisible character in it
(a zero-width space, a bidi control), it was a tag of its own, so a memory tagged so escaped the listing and the
forget_by_tag of the tag it shows as (an agent told to hide a memory from "forget everything tagged deploy" could)."""

from __future__ import annotations

import pytest

from engram import Memory

LOOKALIKES = [
    "\uff44\uff45\uff50\uff4c\uff4f\uff59",  # fullwidth
    "de\u200bploy",
    "dep\u202eloy",
    "\u2066deploy\u2069",
    "de\u00adploy",
    "\ufeffdeploy",
]


@pytest.mark.parametrize("lookalike", LOOKALIKES)
def test_a_tag_that_shows_as_another_is_that_tag(mem: Memory, lookalike: str) -> None:
    plain = mem.remember("the deploy runs on Fridays", tags=["deploy"]).id
    spoofed = mem.remember("the rollback runs on Mondays", tags=[lookalike]).id
    assert mem.get(spoofed).tags == ("deploy",)
    assert mem.tag_counts() == {"deploy": 2}
    listed = {m["id"] for m in mem.run_tool("list_memories", tag=lookalike)["memories"]}
    assert listed == {plain, spoofed}
    assert sorted(mem.run_tool("forget_by_tag", tag="deploy", confirm=True)["ids"]) == sorted(
        [plain, spoofed]
    )
    assert mem.stats()["memories"] == 0


def test_a_tag_in_another_script_joined_by_zero_width_joiners_keeps_them(mem: Memory) -> None:
    # ZWNJ is part of how Persian is written: this ("I want") is one word, not two.
    tag = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
    memory = mem.remember("a note in Persian", tags=[tag]).id
    assert mem.get(memory).tags == (tag,)
