"""A question (or a memory) of rare Chinese characters: jieba's part-of-speech tagger weighs, for each character
it has no states for, every tag against every tag of the character before, and 20,000 random characters of the
main Chinese block took about a minute of processor time in one search_memory call (and as long in a write, read
for keyphrases). Those characters are read as spaces now; text jieba knows is read as before."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.lang import analysis

posseg = pytest.importorskip("jieba.posseg")
KNOWN = posseg.char_state_tab_P
REAL = "我们下周二在北京开会讨论新的产品发布计划\uff0c市场部的王经理会准备演示文稿。"


def _rare(n: int) -> str:
    chosen = random.Random(7)
    return "".join(chr(chosen.randint(0x4E00, 0x9FFF)) for _ in range(n))


@pytest.fixture
def tagged(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every character the tagger's Viterbi pass is given."""
    seen: list[str] = []
    original = posseg.viterbi

    def viterbi(obs: str, *args: Any) -> Any:
        seen.extend(obs)
        return original(obs, *args)

    monkeypatch.setattr(posseg, "viterbi", viterbi)
    return seen


def test_the_tagger_is_given_no_character_it_has_no_states_for(tagged: list[str]) -> None:
    text = _rare(3000)
    assert sum(c not in KNOWN for c in text) > 1000
    analysis.concepts(text)
    assert [c for c in tagged if c not in KNOWN] == []


def test_text_the_tagger_knows_is_read_as_before() -> None:
    import jieba.analyse

    text = REAL * 3
    assert analysis.concepts(text) == tuple(
        jieba.analyse.extract_tags(text, topK=8, allowPOS=analysis._CHINESE_TOPICS)
    )


def test_a_search_of_twenty_thousand_rare_characters_answers(
    tmp_path: Path, settings: Settings, tagged: list[str]
) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=settings) as mem:
        mem.remember(REAL)
        answer = mem.search_memory(_rare(20_000))
    assert isinstance(answer["results"], list)
    assert [c for c in tagged if c not in KNOWN] == []
