"""`text_facts` (the text search with each hit's `Facts`, read by the same query) against `text_search` and then
`facts` by id, on both backends: the same hits, scores, order and facts."""

from __future__ import annotations

import dataclasses

import numpy as np

from engram import Memory
from engram.store.values import Facts, Filter


def _fields(facts: Facts) -> tuple[object, ...]:
    values = dataclasses.astuple(dataclasses.replace(facts, vector=None))
    return (*values, None if facts.vector is None else np.asarray(facts.vector).tobytes())


def test_text_facts_answers_as_text_search_then_facts(mem: Memory) -> None:
    for i in range(12):
        mem.store_memory(f"The harbour ferry {i} leaves at dawn; ferry tickets cost {i} euros")
        mem.store_memory(f"Note {i}: the ferry schedule changes in winter, harbour closed on day {i}")
    mem.store_memory("Nothing about boats here at all")
    searches = [
        (["ferry"], 30, Filter()),
        (["harbour", "winter"], 5, Filter()),
        (["tickets", "dawn", "boats"], 50, Filter()),
        (["absent"], 10, Filter()),
        (["ferry"], 0, Filter()),
    ]
    seen = 0
    for terms, k, where in searches:
        hits = mem.store.text_search(terms, k, where)
        with_facts = mem.store.text_facts(terms, k, where)  # type: ignore[attr-defined]
        assert [(f.id, s) for f, s in with_facts] == hits
        by_id = {f.id: f for f in mem.store.facts([i for i, _ in hits])}
        assert [_fields(f) for f, _ in with_facts] == [_fields(by_id[i]) for i, _ in hits]
        seen += len(hits)
    assert seen > 30  # the searches found something to compare
    assert all(f.vector is not None for f, _ in mem.store.text_facts(["ferry"], 30, Filter()))  # type: ignore[attr-defined]
