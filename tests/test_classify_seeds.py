"""The seeds of both taxonomies as the real model reads them: never copies or close paraphrases of a statement
that kinds or categories are measured on, so no figure is a seed read back."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from engram.classify.taxonomy import load_taxonomy
from engram.embed.embedder import CachedEmbedder

DATA = Path(__file__).resolve().parent.parent / "bench" / "data"
MEASURED = ("everyday_", "kinds_", "categories_")


def measured_statements() -> list[str]:
    files = sorted(p for p in DATA.glob("*.jsonl") if p.name.startswith(MEASURED))
    rows = [
        json.loads(line) for p in files for line in p.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    return [str(row.get("text") or row["content"]) for row in rows]


@pytest.mark.parametrize(("taxonomy", "fallback"), [("kinds", "knowledge"), ("categories", "")])
def test_no_seed_is_a_near_copy_of_a_measured_statement(
    model: CachedEmbedder, taxonomy: str, fallback: str
) -> None:
    labels = load_taxonomy(taxonomy, fallback=fallback)
    seeds = [text for label in labels.learnable for text in labels.prototypes[label]]
    statements = measured_statements()
    assert len(statements) >= 1400 and len(seeds) >= 450
    closest = (model.embed_batch(seeds) @ model.embed_batch(statements).T).max(axis=1)
    copies = [(seeds[i], round(float(closest[i]), 3)) for i in np.flatnonzero(closest >= 0.85)]
    assert copies == []
