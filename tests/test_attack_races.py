"""Two processes on one store, one editing a memory while the other forgets it: the edit reads the memory, embeds
its new text (the slow part), then writes. A forget that lands in between must stay a forget: the edit may not
write the memory back, nor copy the forgotten wording into its audit entry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engram import FakeEmbedder, InvalidInput, Memory, NotFound, Settings
from engram.model.vectors import Matrix
from tests.test_forget_trace import MARK, traces

WORDS = " ".join(f"word{i}" for i in range(400))


class _ForgetsFirst(FakeEmbedder):
    """An embedder that, the first time it embeds `armed` text, lets another process forget the memory."""

    def __init__(self) -> None:
        super().__init__()
        self.before: Any = None

    def embed_batch(self, texts: list[str]) -> Matrix:
        if self.before is not None and any("rewritten" in t for t in texts):
            before, self.before = self.before, None
            before()
        return super().embed_batch(texts)


@pytest.mark.parametrize("long", [True, False], ids=["chunked", "one-passage"])
def test_an_edit_racing_a_forget_brings_nothing_back(tmp_path: Path, settings: Settings, long: bool) -> None:
    path = tmp_path / "shared.db"
    slow = _ForgetsFirst()
    with (
        Memory(path, embedder=slow, settings=settings) as editing,
        Memory(path, embedder=FakeEmbedder(), settings=settings) as forgetting,
    ):
        text = f"{WORDS} the vault code is {MARK} {WORDS}" if long else f"the vault code is {MARK}"
        memory = editing.remember(text).id
        assert bool(editing.store.children(memory)) is long
        slow.before = lambda: forgetting.forget(memory)
        new = f"{WORDS} rewritten without the code {WORDS}" if long else "rewritten without the code"
        with pytest.raises(NotFound):
            editing.update(memory, content=new)
        assert editing.stats()["memories"] == 0 and forgetting.stats()["memories"] == 0
        assert traces(editing, path, MARK) == []


def test_an_edit_racing_another_edit_keeps_the_other_and_says_so(tmp_path: Path, settings: Settings) -> None:
    path = tmp_path / "shared.db"
    slow = _ForgetsFirst()
    with (
        Memory(path, embedder=slow, settings=settings) as editing,
        Memory(path, embedder=FakeEmbedder(), settings=settings) as other,
    ):
        memory = editing.remember("the deploy runs on Fridays").id
        slow.before = lambda: other.update(memory, importance=0.9, tags=["release"])
        with pytest.raises(InvalidInput) as caught:
            editing.update(memory, content="the deploy is rewritten for Mondays")
        assert caught.value.field == "id" and "changed" in caught.value.problem
        kept = other.get(memory)
        assert (kept.content, kept.importance, kept.tags) == ("the deploy runs on Fridays", 0.9, ("release",))
