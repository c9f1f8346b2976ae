from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_info

from engram import FakeEmbedder, Memory
from engram.embed.embedder import CachedEmbedder
from engram.embed.minilm import _balanced
from engram.model.vectors import Matrix, content_hash


@pytest.mark.parametrize(
    ("lengths", "parts", "expected"),
    [
        ([6, 6, 6, 6, 6, 27], 2, [[0, 1, 2, 3, 4], [5]]),  # tag phrases beside the memory they come from
        ([3, 3, 3, 100], 2, [[0, 1, 2], [3]]),
        ([25, 25], 2, [[0], [1]]),
        ([10] * 8, 2, [[0, 1, 2, 3], [4, 5, 6, 7]]),
        ([10] * 9, 3, [[0, 1, 2], [3, 4, 5], [6, 7, 8]]),
        ([7], 2, [[0]]),
    ],
)
def test_a_batch_splits_into_runs_of_about_equal_tokens(
    lengths: list[int], parts: int, expected: list[list[int]]
) -> None:
    assert _balanced(lengths, list(range(len(lengths))), parts) == expected


class Counting(FakeEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list[str]] = []

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        self.calls.append(list(texts))
        return super().embed_batch(texts)


def test_a_vector_the_caller_has_is_not_embedded_again(tmp_path: Path) -> None:
    model = Counting()
    with Memory(tmp_path / "m.db", embedder=model) as mem:
        given = FakeEmbedder().embed_batch(["something else entirely"])[0]
        [result] = mem.remember_many(
            [{"content": "the garden gate squeaks"}],
            embedded={content_hash("the garden gate squeaks"): given},
        )
        assert all("the garden gate squeaks" not in call for call in model.calls)
        assert np.allclose(mem.store.vectors([result.id])[result.id], given)


def test_store_memory_embeds_the_memory_and_its_new_tags_in_one_call(tmp_path: Path) -> None:
    model = Counting()
    with Memory(tmp_path / "m.db", embedder=model) as mem:
        model.calls.clear()
        mem.store_memory("Deploy the billing service to the staging cluster before Friday's release review")
        with_content = [c for c in model.calls if any(t.startswith("Deploy the billing") for t in c)]
        assert len(with_content) == 1 and len(with_content[0]) > 1  # the tag phrases came along
        assert "deploy the" in with_content[0]  # and the opening words the classifiers read
        assert model.calls == with_content


def test_openings_are_embedded_once_in_their_own_call(tmp_path: Path) -> None:
    model = Counting()
    with Memory(tmp_path / "m.db", embedder=model) as mem:
        mem.remember("warm up")
        model.calls.clear()
        mem.remember_many([{"content": f"Remind me to water plant number {n}"} for n in range(3)])
        assert [c for c in model.calls if "remind me" in c] == [["remind me"]]
        model.calls.clear()
        mem.remember_many([{"content": "Remind me to call the vet"}, {"content": "Remind me to pay rent"}])
        assert all("remind me" not in call for call in model.calls)  # known from the writes before


def test_memory_runs_numpy_on_one_blas_thread(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()):
        assert all(pool["num_threads"] == 1 for pool in threadpool_info() if pool["user_api"] == "blas")


def test_store_memory_does_not_embed_content_the_database_already_has(tmp_path: Path) -> None:
    model = Counting()
    with Memory(tmp_path / "m.db", embedder=model) as mem:
        text = "Deploy the billing service to the staging cluster before Friday's release review"
        first = mem.store_memory(text)
        model.calls.clear()
        again = mem.store_memory(text)
        assert again["memory_id"] == first["memory_id"] and again["outcome"] == "duplicate"
        assert all(text not in call for call in model.calls)


def test_blas_threads_zero_leaves_blas_as_it_is(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    code = (
        "from threadpoolctl import threadpool_info\n"
        "from engram import FakeEmbedder, Memory\n"
        "def threads(): return [p['num_threads'] for p in threadpool_info() if p['user_api'] == 'blas']\n"
        "before = threads()\n"
        f"Memory({str(tmp_path / 'm.db')!r}, embedder=FakeEmbedder()).close()\n"
        "print(before == threads())\n"
    )
    env = {**os.environ, "ENGRAM_BLAS_THREADS": "0", "OPENBLAS_NUM_THREADS": "2"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
    env["ENGRAM_BLAS_THREADS"] = "1"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"  # capped from 2 to 1


def test_the_cache_embeds_each_text_once_and_keeps_the_most_recent() -> None:
    inner = Counting()
    cache = CachedEmbedder(inner, capacity=2)
    out = cache.embed_batch(["a b", "c d", "a b"])
    assert inner.calls == [["a b", "c d"]]
    np.testing.assert_allclose(out, FakeEmbedder().embed_batch(["a b", "c d", "a b"]), rtol=1e-6)
    assert set(cache.known(["a b", "c d", "e f"])) == {"a b", "c d"}  # asks the model nothing
    cache.embed_batch(["e f"])  # the least recently used ("a b", before "c d" was asked) leaves
    assert set(cache.known(["a b", "c d", "e f"])) == {"c d", "e f"}
    assert inner.calls == [["a b", "c d"], ["e f"]]
