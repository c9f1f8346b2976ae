"""Two words of a question that the memories write as one ("epi pen": "EpiPen") are that word, where the store
never says one of them alone. With the real model: the ranking among paraphrases is what counts."""

from __future__ import annotations

from engram import Memory

HOUSEHOLD = (
    "The downstairs loo cistern keeps running. Reported it to Martin, still waiting for someone to come out.",
    "Hannah's dad Geoff had a hip replacement in October and is recovering at home in Norwich.",
    "Rent is £1,450 a month, paid on the 28th by standing order.",
    "Pickle is terrified of fireworks; keep her in the back room with the radio on.",
)


def test_two_words_a_memory_writes_as_one_are_that_word(real: Memory) -> None:
    pen = real.store_memory(
        "Zosia has a peanut allergy. Her EpiPen lives in the blue pouch in her school bag."
    )
    for text in HOUSEHOLD:
        real.store_memory(text)
    found = real.search_memory("where do we keep my daughter's epi pen?", touch=False)["results"]
    assert found and found[0]["id"] == pen["memory_id"], [r["content"] for r in found]
