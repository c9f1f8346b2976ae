"""Conversation ingest keeps what someone close cannot have and what the assistant is told not to do for them
("Owen's allergic to shellfish, don't suggest prawn dishes"), though the sentence says nothing of the speaker."""

from __future__ import annotations

from pathlib import Path

from engram import FakeEmbedder, Memory
from engram.review.extract import Message, by_rule


def _kinds(text: str) -> list[str]:
    return [c.kind for c in by_rule(Message(role="user", content=text))[0]]


def test_an_allergy_with_an_instruction_is_a_candidate() -> None:
    assert _kinds("Owen's allergic to shellfish, don't suggest prawn dishes.") == ["constraint"]
    assert _kinds("Don't recommend anything with nuts, Leo is allergic.") == ["constraint"]
    assert _kinds("Leo is allergic to peanuts and sesame.") == ["fact"]
    assert _kinds("妈妈对青霉素过敏。") == ["fact"]


def test_small_talk_about_others_stays_out() -> None:
    assert _kinds("Owen thinks the match was brilliant last night.") == []


def test_ingest_keeps_it(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        mem.ingest([{"role": "user", "content": "Owen's allergic to shellfish, don't suggest prawn dishes."}])
        held = [r.content for r in mem.pending()] + [r.content for r in mem.list(limit=50)]
        assert any("shellfish" in text for text in held)
