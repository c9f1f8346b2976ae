"""Queries of no words: only whitespace, punctuation, emoji, zero-width or bidirectional marks, combining marks
alone, tag or private-use characters. The model gives each a whole unit vector, and every surface answers each
with results or a clear refusal naming the query, never a server error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from fastapi.testclient import TestClient

from engram import InvalidInput, Memory, Settings
from engram.embed.embedder import CachedEmbedder
from engram.interfaces.http.serve import build_app

ODD = [
    "   ",
    "\t\n\r ",
    "\u00a0\u2003\u3000",
    "?!.,;:",
    "?" * 3_000,
    "😀🎉",
    "👨\u200d👩\u200d👧\u200d👦",
    "\u200b\u200c\u200d\ufeff",
    "\u0301\u0308\u0327",
    "\u200f\u202e\u2067",
    "\u202emilk",
    "\ufe0f\ufe0e",
    "\U000e0041\U000e0042",
    "\ue000\uf8ff",
    "\x01\x02\x7f",
    "\u00ad\u180e\u3164\u2800",
    "\u2028\u2029",
]


def test_the_model_gives_a_query_of_no_words_a_whole_unit_vector(model: CachedEmbedder) -> None:
    vectors = model.embed_batch(ODD)
    assert vectors.shape == (len(ODD), model.dim)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)


def test_every_surface_answers_a_query_of_no_words(model: CachedEmbedder, tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=model, settings=Settings(home=tmp_path / "h")) as mem:
        mem.remember("The deploy runs on Fridays")
        for query in ODD:
            for ask in (mem.search_memory, mem.recall):
                try:
                    ask(query)
                except InvalidInput as refused:
                    assert refused.field == "query", (query, refused)
    app = build_app(
        Settings(home=tmp_path / "srv", maintain_every_minutes=0),
        db=tmp_path / "srv.db",
        embedder=model,
        require_key=False,
    )
    with TestClient(app, base_url="http://127.0.0.1:8765") as api:
        assert api.post("/v1/store", json={"content": "The deploy runs on Fridays"}).status_code == 200
        for query in ODD:
            for path, body in [
                ("/v1/search", {"query": query}),
                ("/v1/recall", {"query": query}),
                ("/v1/tools/search_memory", {"arguments": {"query": query}}),
                ("/v1/tools/recall", {"arguments": {"query": query}}),
                ("/api/recall", {"query": query}),
            ]:
                answer = api.post(path, json=body)
                assert answer.status_code in (200, 400), (path, query, answer.text)
                if answer.status_code == 400:
                    assert "query" in answer.json()["field"], (path, query, answer.text)
