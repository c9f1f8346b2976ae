from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.embed import CachedEmbedder, default_embedder


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test touches the user's data directory."""
    monkeypatch.setenv("ENGRAM_HOME", str(tmp_path / "home"))


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(home=tmp_path / "home")


@pytest.fixture
def mem(tmp_path: Path, settings: Settings) -> Iterator[Memory]:
    """A file-backed store with the fast deterministic embedder."""
    with Memory(tmp_path / "fake.db", embedder=FakeEmbedder(), settings=settings) as memory:
        yield memory


@pytest.fixture(scope="session")
def model() -> CachedEmbedder:
    """The real all-MiniLM-L6-v2, loaded once."""
    return default_embedder()


@pytest.fixture
def real(tmp_path: Path, settings: Settings, model: CachedEmbedder) -> Iterator[Memory]:
    with Memory(tmp_path / "real.db", embedder=model, settings=settings) as memory:
        yield memory
