"""Text longer than a memory may be, given to `remember` or as an edit's new text: it was read for concepts and
keywords first (the tagger runs before the write checks the length), so each refusal of a 1 MB text over MCP
held a core for about five seconds. It is now refused before anything reads it, with the write's own words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.errors import InvalidInput
from engram.lang import analysis, pii


@pytest.fixture
def small(tmp_path: Path) -> Iterator[Memory]:
    settings = Settings(home=tmp_path / "home", max_content_chars=200)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=settings) as memory:
        yield memory


def _spy(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[str]:
    """The texts `module.name` is called with from now on."""
    seen: list[str] = []
    real = getattr(module, name)

    def spy(text: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return seen


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the analysis is asked to read."""
    return _spy(monkeypatch, analysis, "analyse")


@pytest.mark.parametrize("tool", ["remember", "store_memory"])
def test_too_long_a_text_is_refused_before_it_is_read(small: Memory, reads: list[str], tool: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        small.run_tool(tool, content="word " * 100)
    assert refused.value.field == "content" and "the maximum is 200" in refused.value.problem
    assert reads == [] and small.list() == []


def test_too_long_an_edit_is_refused_before_it_is_read(small: Memory, reads: list[str]) -> None:
    kept = small.remember("the gate code is 4411")
    reads.clear()
    with pytest.raises(InvalidInput) as refused:
        small.run_tool("update_memory", id=kept.id, content="word " * 100)
    assert refused.value.field == "content" and "the maximum is 200" in refused.value.problem
    assert reads == []
    assert [r.content for r in small.list()] == ["the gate code is 4411"]


@pytest.mark.parametrize("tool", ["update_memory", "remember"])
def test_too_long_a_text_is_not_scanned_for_personal_data(
    small: Memory, monkeypatch: pytest.MonkeyPatch, tool: str
) -> None:
    kept = small.remember("the gate code is 4411")
    scanned = _spy(monkeypatch, pii, "detect")
    given = {"id": kept.id} if tool == "update_memory" else {}
    # An edit's new text was scanned whole before its length was checked: seconds for 900,000 characters.
    with pytest.raises(InvalidInput) as refused:
        small.run_tool(tool, content="call 020 7946 0958 " * 20, **given)
    assert refused.value.field == "content" and "the maximum is 200" in refused.value.problem
    assert scanned == []
    assert [r.content for r in small.list()] == ["the gate code is 4411"]
