"""Personal data never becomes a tag: tags are shown everywhere and are not redacted, so no span the PII
detector marks, nor a fragment of one, is read as a topic."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.lang import pii

TEXTS = [
    ("My IBAN is DE89 3704 0044 0532 0130 00", {"iban"}),
    ("Pay the rent to GB82 WEST 1234 5698 7654 32 before Friday", {"rent"}),
    ("The gym card 4111 1111 1111 1111 expires in March", {"gym-card"}),
    ("Call the plumber Jonas on +49 30 901820 about the leak", {"plumber", "leak"}),
    ("Write to anna.schmidt@example.org about the conference budget", {"conference-budget"}),
    ("The backup server 192.168.10.24 needs a reboot", {"backup-server"}),
]


def _pieces(text: str) -> set[str]:
    """The words and digit runs of every span the detector marks in `text`, lowercased."""
    out: set[str] = set()
    for found in pii.detect(text):
        out |= {w.lower() for w in re.findall(r"[A-Za-z0-9]+", text[found.start : found.end])}
    return out


@pytest.mark.parametrize(("text", "wanted"), TEXTS)
def test_no_tag_is_drawn_from_personal_data(tmp_path: Path, text: str, wanted: set[str]) -> None:
    pieces = _pieces(text)
    assert pieces, "the detector marks personal data in the text"
    settings = Settings(home=tmp_path, tag_on_topic=-1.0)
    with Memory(tmp_path / "t.db", embedder=FakeEmbedder(), settings=settings) as mem:
        tags = mem.store_memory(text)["analysis"]["generated_tags"]
        assert wanted <= set(tags), tags  # the text's topics are still its tags
        assert not any(set(t.split("-")) & pieces for t in tags), tags
        assert not any(set(t.split("-")) & pieces for t in mem.tag_counts()), mem.tag_counts()
