"""The vector index: answers agree with brute force, filters hold, files survive or fail loudly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from engram.errors import StoreError
from engram.store import vectors
from engram.store.vectors import VectorIndex

DIM = 32
N = 3_000


def unit(rows: int, seed: int) -> npt.NDArray[np.float32]:
    x = np.random.default_rng(seed).standard_normal((rows, DIM), dtype=np.float32)
    out: npt.NDArray[np.float32] = x / np.linalg.norm(x, axis=1, keepdims=True)
    return out


def brute(
    base: npt.NDArray[np.float32], keys: npt.NDArray[np.int64], q: npt.NDArray[np.float32], k: int
) -> list[int]:
    scores = base @ q
    return [int(keys[i]) for i in np.argsort(-scores, kind="stable")[:k]]


def tolerance(index: VectorIndex) -> float:
    """How far a reported similarity may be from the true cosine: the graph scores 8-bit codes."""
    return 1e-5 if index._small is not None else 2e-2


@pytest.fixture(scope="module")
def data() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    return np.arange(1, N + 1, dtype=np.int64) * 7, unit(N, 0)  # sparse rowids, as after deletions


def build(data: tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]], exact_max: int) -> VectorIndex:
    keys, base = data
    saved, vectors.EXACT_MAX = vectors.EXACT_MAX, exact_max
    try:
        index = VectorIndex(DIM)
        for lo in range(0, N, 1_000):  # in batches, as the store rebuilds
            index.upsert(keys[lo : lo + 1_000].tolist(), base[lo : lo + 1_000])
    finally:
        vectors.EXACT_MAX = saved
    return index


@pytest.fixture(scope="module", params=["scan", "graph"])
def built(
    request: pytest.FixtureRequest, data: tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]
) -> VectorIndex:
    """A small index is scanned exactly; past EXACT_MAX vectors (here 0) the HNSW graph answers."""
    return build(data, vectors.EXACT_MAX if request.param == "scan" else 0)


@pytest.fixture(scope="module")
def graph(data: tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]) -> VectorIndex:
    return build(data, 0)


def test_a_small_index_scans_until_it_outgrows_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectors, "EXACT_MAX", 100)
    base = unit(150, 11)
    index = VectorIndex(DIM)
    index.upsert(list(range(100)), base[:100])
    assert index._small is not None and index._graph is None  # no graph is made while the scan answers
    assert [k for k, _ in index.search(base[7], 5)] == brute(base[:100], np.arange(100), base[7], 5)
    index.upsert(list(range(100, 150)), base[100:])
    assert index._small is None and len(index._index) == 150  # the graph is built and answers from now on
    assert index.search(base[120], 1)[0][0] == 120


def test_nearest_neighbours_match_brute_force(
    built: VectorIndex, data: tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]
) -> None:
    keys, base = data
    assert len(built) == N
    queries = unit(20, 1)
    overlap = []
    for q in queries:
        hits = built.search(q, 10)
        assert len(hits) == 10
        sims = [s for _, s in hits]
        assert sims == sorted(sims, reverse=True)
        # the similarity reported is the true cosine of that key's vector (the graph's, from 8-bit codes, near
        # it: the store scores its hits again from the float vectors)
        row = {int(k): i for i, k in enumerate(keys)}
        for key, sim in hits:
            assert sim == pytest.approx(float(base[row[key]] @ q), abs=tolerance(built))
        overlap.append(len({k for k, _ in hits} & set(brute(base, keys, q, 10))) / 10)
    assert np.mean(overlap) >= 0.95
    # a stored vector is its own nearest neighbour
    assert built.search(base[123], 1)[0][0] == int(keys[123])
    assert built.search(base[123], 1)[0][1] == pytest.approx(1.0, abs=tolerance(built))


@pytest.mark.parametrize("quantized_from", [0, vectors.QUANTIZED_FROM])
def test_a_small_index_gives_the_exact_answer_from_its_8_bit_scan(
    quantized_from: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vectors, "QUANTIZED_FROM", quantized_from)  # 0: every scan reads the codes first
    base = unit(2_000, 21)
    base[:40, 0] += 6.0  # spiky vectors: their other components round coarsely
    base /= np.linalg.norm(base, axis=1, keepdims=True)
    keys = np.arange(2_000, dtype=np.int64) * 3
    index = VectorIndex(DIM)
    index.upsert(keys.tolist(), base)
    gone = keys[::5]  # removed rows take the place of the last ones
    index.remove(gone.tolist())
    base[7] = unit(1, 22)[0]  # and one vector replaced
    index.upsert([int(keys[7])], base[7:8])
    live = np.isin(keys, gone, invert=True)
    allowed = keys[live][::3]
    queries = np.vstack([unit(10, 23), base[[7, 3, 1]]])
    for q in queries:
        for k in (1, 10, 60):
            assert [key for key, _ in index.search(q, k)] == brute(base[live], keys[live], q, k)
            subset = np.isin(keys, allowed)
            hits = index.search(q, k, allowed=allowed)
            assert [key for key, _ in hits] == brute(base[subset], keys[subset], q, k)
            assert [s for _, s in hits] == pytest.approx(
                (base[subset] @ q)[np.argsort(-(base[subset] @ q), kind="stable")[:k]].tolist(), abs=1e-6
            )


@pytest.mark.parametrize("exact_max", [vectors.EXACT_MAX, 0])
def test_upsert_replaces_and_remove_forgets(exact_max: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectors, "EXACT_MAX", exact_max)
    base = unit(200, 2)
    index = VectorIndex(DIM)
    index.upsert(list(range(200)), base)
    moved = -base[0]  # key 5 now points the opposite way of key 0's vector
    index.upsert([5], moved[None, :])
    assert len(index) == 200
    [(key, sim)] = index.search(moved, 1)
    assert key == 5 and sim == pytest.approx(1.0, abs=tolerance(index))
    assert index.search(base[5], 1)[0][0] != 5
    # duplicates within one batch: the last one wins
    first, last = unit(2, 12)
    index.upsert([9, 9], np.stack([first, last]))
    [(key, sim)] = index.search(last, 1)
    assert key == 9 and sim == pytest.approx(1.0, abs=tolerance(index))
    assert len(index) == 200

    index.remove([5, 9, 10_000, -3])  # missing keys are ignored
    assert len(index) == 198
    assert 5 not in index and 9 not in index and 4 in index
    assert all(k not in (5, 9) for k, _ in index.search(moved, 200))
    assert len(index.search(base[0], 500)) == 198
    index.upsert([5], base[5][None, :])  # a removed key can come back
    assert index.search(base[5], 1)[0][0] == 5


def test_the_graph_skips_removed_slots_and_is_built_again_when_most_are_dead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # faiss cannot take a vector out of its graph: a removed or replaced key leaves a dead slot behind
    monkeypatch.setattr(vectors, "EXACT_MAX", 0)
    base = unit(3_000, 14)
    index = VectorIndex(DIM)
    index.upsert(list(range(3_000)), base)
    index.upsert(list(range(100)), -base[:100])  # replaced: 100 dead slots
    graph = index._index
    assert len(graph) == 3_000 and graph._used == 3_100
    for q in base[:20]:  # the old vectors of keys 0-99 are never found again
        found = index.search(q, 10)
        assert found[0][0] >= 100 or found[0][1] < 0.99
    index.remove(list(range(100, 1_600)))  # 1,600 dead slots > 1,500 alive: the graph is built again
    assert len(graph) == 1_500 and graph._used == 1_500
    keys = np.array([*range(100), *range(1_600, 3_000)])
    alive = np.concatenate([-base[:100], base[1_600:]])
    for q in unit(10, 15):  # the graph ranks by 8-bit codes: a near tie may swap places
        assert len({k for k, _ in index.search(q, 10)} & set(brute(alive, keys, q, 10))) >= 9


def test_the_graph_knows_which_keys_it_holds_after_removals_and_a_reload(tmp_path: Path) -> None:
    # the graph finds a key's slot in an array indexed by the key: keys far apart, removed, replaced, unknown
    from engram.store.hnsw import Graph

    graph = Graph(DIM, 8, 32, 64)
    keys = np.array([3, 70_000, 9, 1_234_567], dtype=np.uint64)
    base = unit(4, 21)
    graph.add(keys, base)
    graph.remove(np.array([9, 9, 5, 99_999_999], dtype=np.uint64))  # twice, never held, past every key
    graph.add(np.array([9], dtype=np.uint64), base[:1])  # back, in a new slot
    assert len(graph) == 4 and graph._used == 5
    held = np.array([3, 9, 5, 70_000, 1_234_567, 1_234_568], dtype=np.uint64)
    assert graph.contains(held).tolist() == [True, True, False, True, True, False]
    assert 9 in graph and 5 not in graph and 10**12 not in graph
    assert sorted(graph.keys().tolist()) == [3, 9, 70_000, 1_234_567]
    assert np.allclose(graph.get(np.array([9, 3], dtype=np.uint64)), base[[0, 0]], atol=2e-2)
    with pytest.raises(KeyError):
        graph.get(np.array([5], dtype=np.uint64))
    chunks: list[bytes] = []
    graph.write(chunks.append)
    data, at = b"".join(chunks), 0

    def read(n: int) -> bytes:
        nonlocal at
        at += n
        return data[at - n : at]

    again = Graph.read(read, DIM, 8, 32, 64)
    assert sorted(again.keys().tolist()) == [3, 9, 70_000, 1_234_567] and 5 not in again
    assert again.search(base[3], 1)[0].tolist() == [1_234_567]


@pytest.mark.parametrize("earlier", [1, 3])  # a usearch graph, a faiss graph of float32 vectors
def test_an_index_file_of_an_earlier_format_is_refused(tmp_path: Path, earlier: int) -> None:
    # The store rebuilds an index it cannot read from the database (tests/test_store.py).
    path = tmp_path / "memories.db.vectors"
    index = VectorIndex(DIM)
    index.upsert(list(range(10)), unit(10, 16))
    index.save(path)
    blob = bytearray(path.read_bytes())
    blob[8] = earlier
    path.write_bytes(bytes(blob))
    with pytest.raises(StoreError, match="earlier version"):
        VectorIndex.load(path, DIM)


@pytest.mark.parametrize(("share", "exact"), [(0.003, True), (0.05, False), (0.6, False)])
def test_allowed_subset_matches_exact_and_only_allowed(
    graph: VectorIndex,
    data: tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]],
    share: float,
    exact: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    keys, base = data
    monkeypatch.setattr(vectors, "HNSW_COST", 0.01)  # so that the larger subsets take the approximate path
    scans: list[int] = []
    real_exact = VectorIndex._exact

    def spy(
        self: VectorIndex, q: npt.NDArray[np.float32], ukeys: npt.NDArray[np.uint64], k: int
    ) -> list[tuple[int, float]]:
        scans.append(len(ukeys))
        return real_exact(self, q, ukeys, k)

    monkeypatch.setattr(VectorIndex, "_exact", spy)
    rows = np.sort(np.random.default_rng(3).choice(N, int(N * share), replace=False))
    allowed = keys[rows]
    junk = np.array([5, -1, 10**12], dtype=np.int64)  # not in the index, never returned
    k = 20
    agree = []
    for q in unit(10, 4):
        hits = graph.search(q, k, allowed=np.concatenate([allowed, allowed[:3], junk]))
        assert len(hits) == min(k, len(allowed))
        assert {key for key, _ in hits} <= {int(a) for a in allowed}
        expected = brute(base[rows], allowed, q, k)
        agree.append(len({key for key, _ in hits} & set(expected)) / len(expected))
    assert np.mean(agree) >= (1.0 if exact else 0.95)
    assert (len(scans) == 10) if exact else (len(scans) <= 1)


def test_small_subset_is_exactly_brute_force(
    built: VectorIndex, data: tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]
) -> None:
    keys, base = data
    rows = np.arange(0, N, 97)
    q = unit(1, 5)[0]
    hits = built.search(q, 5, allowed=keys[rows])
    assert [key for key, _ in hits] == brute(base[rows], keys[rows], q, 5)
    # k beyond the allowed set returns all of it; an allowed set absent from the index returns nothing
    assert len(built.search(q, 1_000, allowed=keys[rows])) == len(rows)
    assert built.search(q, 5, allowed=np.array([1, 2, 3], dtype=np.int64)) == []
    assert built.search(q, 5, allowed=np.array([], dtype=np.int64)) == []


def test_falls_back_to_exact_when_too_few_candidates_survive(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectors, "EXACT_MAX", 0)
    base = unit(1_000, 6)
    index = VectorIndex(DIM)
    index.upsert(list(range(1_000)), base)
    monkeypatch.setattr(vectors, "HNSW_COST", 0.01)
    monkeypatch.setattr(vectors, "OVERSAMPLE", 0.01)  # the approximate walk returns far too few allowed keys
    allowed = np.arange(0, 1_000, 20, dtype=np.int64)
    q = base[0]
    hits = index.search(q, 10, allowed=allowed)
    assert [k for k, _ in hits] == brute(base[allowed], allowed, q, 10)


def test_empty_index_and_bad_input() -> None:
    index = VectorIndex(DIM)
    q = unit(1, 7)[0]
    assert len(index) == 0
    assert index.search(q, 10) == []
    assert index.search(q, 10, allowed=np.array([1], dtype=np.int64)) == []
    index.remove([1, 2])
    index.upsert([], np.zeros((0, DIM), dtype=np.float32))
    assert 1 not in index
    with pytest.raises(ValueError):
        index.upsert([1, 2], unit(1, 8))
    with pytest.raises(ValueError):
        index.upsert([-1], unit(1, 8))
    with pytest.raises(ValueError):
        index.search(np.zeros(DIM + 1, dtype=np.float32), 3)
    index.upsert([1], unit(1, 8))
    assert index.search(q, 0) == []


@pytest.mark.parametrize("exact_max", [vectors.EXACT_MAX, 0])
def test_save_load_round_trip(tmp_path: Path, exact_max: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectors, "EXACT_MAX", exact_max)
    base = unit(500, 9)
    index = VectorIndex(DIM)
    index.upsert(list(range(10, 510)), base)
    index.remove([10, 11])
    path = tmp_path / "memories.db.vectors"
    index.save(path)
    index.save(path)  # replacing an existing file
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left behind
    assert path.read_bytes()[8] == (
        2 if exact_max else 4
    )  # a small index writes its rows, a large one its graph of 8-bit codes
    loaded = VectorIndex.load(path, DIM)
    assert len(loaded) == 498
    assert 10 not in loaded and 12 in loaded
    for q in unit(5, 10):
        assert loaded.search(q, 10) == index.search(q, 10)
        allowed = np.arange(10, 510, 3, dtype=np.int64)
        assert loaded.search(q, 10, allowed=allowed) == index.search(q, 10, allowed=allowed)
    loaded.upsert([999], base[:1])  # a loaded index stays writable
    assert loaded.search(base[0], 1)[0][0] in (10 + 0, 999)

    empty = tmp_path / "empty.vectors"
    VectorIndex(DIM).save(empty)
    assert len(VectorIndex.load(empty, DIM)) == 0


@pytest.mark.parametrize("damage", ["missing", "empty", "truncated", "flipped", "garbage", "wrong_dim"])
def test_load_rejects_damaged_files(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "memories.db.vectors"
    index = VectorIndex(DIM)
    index.upsert(list(range(300)), unit(300, 11))
    index.save(path)
    blob = path.read_bytes()
    dim = DIM
    if damage == "missing":
        path.unlink()
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "truncated":
        path.write_bytes(blob[: len(blob) // 2])
    elif damage == "flipped":
        middle = len(blob) // 2
        path.write_bytes(blob[:middle] + bytes([blob[middle] ^ 0xFF]) + blob[middle + 1 :])
    elif damage == "garbage":
        path.write_bytes(b"\x00" * len(blob))
    else:
        dim = DIM * 2
    with pytest.raises(StoreError):
        VectorIndex.load(path, dim)


def test_a_small_index_saved_as_a_graph_is_refused_for_a_rebuild(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a graph holds 8-bit codes, not the float vectors an exact scan needs: the store rebuilds it from the
    # database (tests/test_store_vectors.py)
    base = unit(300, 12)
    path = tmp_path / "memories.db.vectors"
    monkeypatch.setattr(vectors, "EXACT_MAX", 0)
    graph = VectorIndex(DIM)
    graph.upsert(list(range(300)), base)
    graph.save(path)
    assert len(VectorIndex.load(path, DIM)) == 300
    monkeypatch.undo()
    with pytest.raises(StoreError, match="small enough"):
        VectorIndex.load(path, DIM)
