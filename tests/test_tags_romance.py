"""Tags of an Italian, Spanish or French line are its names and content words, not fragments of its small words:
an organist's Italian lines about her husband's family were tagged "anni-il", "nonna-di", "con-la-zia"."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory
from engram.tags import phrases, romance

_FUNCTION = {"il", "di", "la", "con", "per", "del", "le", "el", "a", "de", "su"}


@pytest.mark.parametrize(
    ("text", "language", "wanted"),
    [
        (
            "La nonna di Marco, nonna Pina (Giuseppina), compie 95 anni il 9 dicembre. Vive a Bari con la zia Rosa.",
            "it",
            {"marco", "pina", "nonna", "bari"},
        ),
        (
            "Chiamare nonna Pina il 9 dicembre per il compleanno, prima del pranzo.",
            "it",
            {"pina", "compleanno"},
        ),
        ("Llamar a Carmen el 3 de enero para su cumpleaños", "es", {"carmen", "cumpleaños"}),
    ],
)
def test_a_romance_line_is_tagged_by_its_names_and_content_words(
    text: str, language: str, wanted: set[str]
) -> None:
    assert romance.language_of(text) == language
    tags = {t.lower() for t in phrases.topics(text)}
    assert wanted <= tags, tags
    parts = {part for t in tags for part in t.split("-")}
    assert not parts & _FUNCTION, tags
    assert not {"dicembre", "enero", "chiamare", "llamar", "anni"} & tags, tags


@pytest.mark.parametrize(
    "text",
    [
        "Pasta al forno for the party on Saturday, con la salsa",
        "Client call with Luca from Trattoria Nonna: he wants monthly reports",
        "Meine Schwester Priya wohnt in Hamburg",
    ],
)
def test_english_with_a_foreign_phrase_or_another_language_is_not_read_so(text: str) -> None:
    assert romance.language_of(text) is None


def test_stored_italian_memory_gets_no_fragment_tags(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as memory:
        stored = memory.store_memory(
            "Ricetta delle orecchiette di nonna Pina: semola e acqua tiepida, niente uova."
        )
        tags = memory.get(stored["memory_id"]).tags
    assert tags and not any(set(t.split("-")) & _FUNCTION for t in tags), tags
