"""The session context and the user's own address: shown in the user's own lines (a marker in its place left
the agent unable to say where the user lives or where a task is), while phone numbers and e-mail addresses stay
markers and a last line says why."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory
from engram.config import Settings

HOME = "I live at 14B Wilbraham Road, Chorlton, M21 9JX."
LEAVING = "Hand the keys back at 3 Crayton Street by 15 December."
ACCOUNTANT = "My accountant is Declan Roy, declan@royfinch.co.uk, 0161 496 0732."


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        m.remember(HOME, kind="identity")
        m.remember(LEAVING, kind="task")
        m.remember(ACCOUNTANT, kind="identity")
        yield m


def test_the_users_own_address_shows_in_their_context(memory: Memory) -> None:
    text = memory.session_context()["text"]
    assert "14B Wilbraham Road, Chorlton, M21 9JX" in text
    assert "3 Crayton Street" in text


def test_a_phone_number_and_an_e_mail_address_stay_markers_and_the_context_says_why(memory: Memory) -> None:
    text = memory.session_context()["text"]
    assert "0161 496 0732" not in text and "declan@royfinch.co.uk" not in text
    assert "[REDACTED_PHONE]" in text and "search_memory gives them when asked" in text


def test_no_marker_no_note(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        m.remember("I prefer short answers", kind="identity")
        assert "search_memory gives them" not in m.session_context()["text"]
