"""The embedder's second session (one thread, for the groups of a large batch run side by side) loads only with
the first such batch: a memory and its tag phrases run on the first session, with the vectors they get alone."""

from __future__ import annotations

import numpy as np
import pytest

from engram.embed.minilm import MiniLM


def test_a_memory_and_its_phrases_run_on_the_one_session_with_the_vectors_they_get_alone() -> None:
    model = MiniLM()
    texts = [
        "Caroline went to the LGBTQ support group on Tuesday and felt welcome there.",
        "support group",
        "Caroline",
        "Tuesday",
    ]
    together = model.embed_batch(texts)
    assert model._side is None  # the second session was never loaded
    alone = np.stack([model.embed_batch([t])[0] for t in texts])
    assert np.array_equal(together, alone)


def test_a_large_batch_loads_the_second_session_and_gets_the_same_vectors() -> None:
    model = MiniLM()
    many = [f"memory number {i} about {'a fairly long topic ' * (i % 9)}" for i in range(40)]
    before = np.stack([model.embed_batch([t])[0] for t in many])
    assert model._side is None
    batch = model.embed_batch(many)
    assert model._side is not None and model._side is not model._session
    assert float(np.abs(batch - before).max()) < 1e-4


def test_a_single_thread_embedder_has_one_session() -> None:
    model = MiniLM(threads=1)
    assert model._single is model._session


def test_a_full_length_memory_with_its_phrases_stays_on_the_one_session() -> None:
    model = MiniLM()
    memory = " ".join(
        f"On day {i} the team moved the quarterly budget review, the garden party and the dentist appointment."
        for i in range(16)
    )
    texts = [memory, "quarterly budget review", "garden party", "dentist appointment", "team"]
    tokens = sum(min(len(model.token_offsets(t)) + 2, 256) for t in texts)  # as the batch reads them
    assert tokens > 256  # more than a full text's worth: it used to load the second session (43 MB)
    together = model.embed_batch(texts)
    assert model._side is None
    alone = np.stack([model.embed_batch([t])[0] for t in texts])
    assert np.array_equal(together, alone)


def test_a_batch_embedded_alone_stays_on_the_calling_thread_with_the_vectors_of_one_text_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    model = MiniLM()
    openings = [
        f"{name} {word}" for name in ("caroline", "melanie", "jon") for word in ("hey", "i", "the", "wow")
    ]
    texts = [*openings * 8, *(f"note {i}: {'the garden party moved again ' * (i % 5)}" for i in range(20))]
    one = np.stack([model.embed_batch([t])[0] for t in texts])

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the helper thread was asked")

    monkeypatch.setattr(model._helpers, "submit", refused)
    assert np.array_equal(model.embed_alone(texts), one)
    assert model._side is None  # a small write's openings never load the second session
    assert model._single is not model._session  # loaded, as a bulk write's passages load it
    assert np.array_equal(model.embed_alone(texts), one)
    with pytest.raises(AssertionError, match="helper thread"):
        model.embed_batch(texts)  # a large batch runs its second group on the helper thread
