"""A relation between people asked by what one does for the other, where the memory names the role: who owns the
flat is the landlord, who rents from the asker a tenant or lodger, whom they report to their manager. With the
real model, on memories a person writes: each question below found another memory first before these words
(engram/recall/related.txt)."""

from __future__ import annotations

from engram import Memory
from engram.recall.synonyms import other_words

NOTES = (
    "Our landlord, Mr Osei, said the lease renews in March and the rent goes up by 3%.",
    "The lodger in the spare room, Priya, pays £450 a month by standing order.",
    "Plumber recommended by the neighbours: Jordan at JD Plumbing, reasonable prices.",
    "Council tax is band C, paid by direct debit on the 1st.",
    "Mia's piano teacher is Mrs Kowalski, lessons on Tuesdays at 5.",
    "Our accountant Helen Price files the self-assessment every January.",
    "Sam from the letting agency handles repairs for the flat: 0113 496 0000.",
    "We bought the cottage in Whitby from the Hendersons in 2019.",
    "Leo's childminder is Jo Baxter; she picks him up from nursery at 3.",
    "My line manager at work is Ruth Adeyemi.",
    "I rent out the garage to a neighbour, Carl, for £60 a month.",
)


def _first(notes: Memory, question: str) -> list[dict[str, object]]:
    found: list[dict[str, object]] = notes.search_memory(question, {"min_confidence": "low"}, touch=False)[
        "results"
    ]
    return found


def test_a_relation_asked_by_what_is_done_has_the_role_as_other_words() -> None:
    assert "landlord" in other_words("who owns my flat?")["who owns"]
    assert "tenant" in other_words("who is renting from me?")["renting from me"]
    assert "landlord" in other_words("who do we rent from")["rent from"]
    assert "manager" in other_words("who does Sophie report to")["report to"]
    # Either side of the relation: the tenant's question names the landlord, the owner's the tenant.
    assert "landlord" not in other_words("who is renting from me?")["renting from me"]
    # "own" alone is no relation ("my own car").
    assert "landlord" not in str(other_words("do I have my own parking space"))


def test_who_owns_the_flat_finds_the_landlord(notes: Memory) -> None:
    found = _first(notes, "who owns my flat?")
    assert any("landlord" in str(r["content"]) for r in found[:3]), [r["content"] for r in found[:3]]


def test_a_tenant_is_found_as_the_lodger(notes: Memory) -> None:
    found = _first(notes, "who is my tenant?")
    assert found and "lodger" in str(found[0]["content"]), [r["content"] for r in found[:3]]


def test_a_tenancy_is_answered_by_the_lease_above_low(notes: Memory) -> None:
    found = _first(notes, "when does my tenancy end?")
    assert found and "lease" in str(found[0]["content"]), [r["content"] for r in found[:3]]
    assert found[0]["confidence"] != "low"
