"""A memory that holds no contact detail of the kind a question asks for (an e-mail address, a phone number) is
no sure answer, though it names the person asked about; one that holds it stays as sure as its match makes it.
With the real model: the match strengths decide the bands."""

from __future__ import annotations

from pathlib import Path

from engram import Memory, Settings
from engram.embed.embedder import CachedEmbedder
from engram.lang.pii import PiiKind
from engram.recall.contacts import contact_asked

MEMORIES = (
    "Wharfedale's rep is Declan, his mobile is 07700 918 244.",
    "Accountant: Nadia Shah at Shah & Booth, nadia@shahbooth.example, she does the year end.",
    "Flour comes from Wharfedale Mills - order goes in every Monday before 11am.",
    "Mum helps out on Saturdays; I phone her every Sunday night.",
)


def test_the_contact_detail_a_question_asks_for() -> None:
    assert contact_asked("what's Declan's email?") == {PiiKind.EMAIL}
    assert contact_asked("what is Aileen's e-mail address?") == {PiiKind.EMAIL}
    assert contact_asked("what's the doctor's phone number?") == {PiiKind.PHONE}
    assert contact_asked("what is my mobile number") == {PiiKind.PHONE}
    # A verb or an adjective asks for no detail.
    assert contact_asked("how often do I phone my mum?") == frozenset()
    assert contact_asked("did I email the landlord about the boiler?") == frozenset()
    assert contact_asked("what did we decide for the mobile app") == frozenset()


def test_a_memory_without_the_asked_contact_detail_is_no_sure_answer(real: Memory) -> None:
    ids = [real.store_memory(text)["memory_id"] for text in MEMORIES]
    found = real.search_memory("what's Declan's email?", touch=False)["results"]
    assert all(r["confidence"] == "low" for r in found), found
    assert real.recall("what's Declan's email?", touch=False) == []
    # The memory that holds the detail asked for is first and sure.
    for question, answer in (("what's Declan's phone number?", 0), ("what's Nadia's email address?", 1)):
        found = real.search_memory(question, touch=False)["results"]
        assert found[0]["id"] == ids[answer] and found[0]["confidence"] != "low", (question, found)
    # Asked for no detail, the memory is judged by its match alone.
    found = real.search_memory("how often do I phone my mum?", touch=False)["results"]
    assert found[0]["id"] == ids[3] and found[0]["confidence"] != "low", found


def test_a_redacted_contact_detail_still_answers_the_question_about_it(
    tmp_path: Path, settings: Settings, model: CachedEmbedder
) -> None:
    """With redaction on, the store holds "[REDACTED_EMAIL]" where the address was: the memory still holds an
    e-mail address, and the question asking for it must not be told it holds none."""
    redacting = settings.model_copy(update={"redact_pii": True})
    with Memory(tmp_path / "redacted.db", embedder=model, settings=redacting) as memory:
        ids = [memory.store_memory(text)["memory_id"] for text in MEMORIES]
        assert "[REDACTED_EMAIL]" in memory.get(ids[1]).content
        found = memory.search_memory("what's Nadia's email address?", touch=False)["results"]
        assert found[0]["id"] == ids[1] and found[0]["confidence"] != "low", found
