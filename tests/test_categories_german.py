"""German statements get the category a reader would give them: with English seeds only, the model (which reads
German through English word pieces) put every German line under references or under none."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.classify.taxonomy import load_taxonomy


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("Ich arbeite als Tischler und wohne mit meiner Frau in Kassel.", "contexts"),
        ("Ich mag keinen Fisch und esse lieber Gemüse.", "contexts"),
        ("Morgen um 9 Uhr beim Zahnarzt anrufen.", "reminders"),
        ("Die Nummer der Tierärztin ist 0561 555 2207.", "references"),
    ],
)
def test_a_german_statement_gets_its_category(real: Memory, text: str, wanted: str) -> None:
    analysis = real.store_memory(text)["analysis"]
    assert analysis["detected_category"] == wanted, analysis


_GERMAN = frozenset(
    [
        "ich",
        "und",
        "die",
        "der",
        "das",
        "den",
        "dem",
        "mit",
        "ist",
        "im",
        "am",
        "bei",
        "auf",
        "nicht",
        "von",
        "zum",
        "zur",
    ]
)


def _german(text: str) -> bool:
    words = {w.strip(".,:;!?").lower() for w in text.split()}
    return len(words & _GERMAN) >= 2 or any(c in text for c in "äöüß")


def test_every_category_has_german_seeds_none_of_them_a_tested_statement() -> None:
    taxonomy = load_taxonomy("categories", fallback="")
    for label in taxonomy.learnable:
        assert sum(_german(s) for s in taxonomy.prototypes[label]) >= 2, label
    seeds = {s for label in taxonomy.learnable for s in taxonomy.prototypes[label]}
    assert "Ich mag keinen Fisch und esse lieber Gemüse." not in seeds
