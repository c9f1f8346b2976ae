from pathlib import Path
from typing import Any

import numpy as np

from bench.peers import data as files
from bench.peers.report import markdown
from bench.scale import copies
from engram import Settings


def _unit(rows: int, seed: int = 1) -> np.ndarray:
    vectors = np.random.default_rng(seed).normal(size=(rows, files.DIM)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_copies_are_distinct_memories_near_their_sentence_but_not_near_duplicates() -> None:
    texts = [f"sentence {i} said once" for i in range(50)]
    vectors = _unit(50)
    blocks = list(copies(texts, vectors, 230))
    made = [t for block, _ in blocks for t in block]
    matrix = np.concatenate([v for _, v in blocks])
    assert len(made) == 230 and len(set(made)) == 230
    assert made[:50] == texts and made[50] == "sentence 0 said once (note 1)"
    assert made[-1] == "sentence 29 said once (note 4)"
    np.testing.assert_allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-5)
    np.testing.assert_array_equal(matrix[:50], vectors)
    to_sentence = np.sum(matrix[50:100] * vectors, axis=1)
    between_copies = np.sum(matrix[50:100] * matrix[100:150], axis=1)
    near = Settings().near_duplicate
    assert to_sentence.min() > 0.8 and to_sentence.max() < near
    assert between_copies.max() < near


def test_batches_give_back_the_texts_and_vectors_in_order(tmp_path: Path) -> None:
    texts = [f"memory {i}" for i in range(7)]
    vectors = _unit(7)
    files.write_lines(tmp_path / files.TEXTS, texts)
    (tmp_path / files.VECTORS).write_bytes(vectors.astype("<f4").tobytes())
    read = list(files.batches(tmp_path, 3))
    assert [len(t) for t, _ in read] == [3, 3, 1]
    assert [t for batch, _ in read for t in batch] == texts
    np.testing.assert_array_equal(np.concatenate([v for _, v in read]), vectors)
    assert files.count(tmp_path) == 7


def _row(memories: int, disk: int) -> dict[str, Any]:
    return {
        "memories": memories,
        "ingest_texts": 0,
        "disk_bytes": disk,
        "date": "2026-01-01",
        "commit": "abc",
    }


def test_the_report_checks_the_targets_and_says_what_did_not_run() -> None:
    per_memory = files.DIM * 4 + 3000  # 3,000 bytes beyond each vector: over the 2 KB target
    runs = {
        "10000": {"engram-sqlite": _row(10_000, 10_000_000)},
        "100000": {
            "engram-sqlite": _row(100_000, 10_000_000 + 90_000 * per_memory)
            | {"search_minus_embed_p50_ms": 4.0, "ingest_ratio": 0.5},
            "engram-postgresql": _row(100_000, 1) | {"build_memories_per_s": 250.0},
        },
    }
    page = markdown({"machine": "test", "peer": "mcp-memory-service 12.4.0", "runs": runs})
    assert "| disk <= 2 KB per memory beyond its vector at 100,000, added (SQLite) | 3000 | **no** |" in page
    assert "| search p50 <= 5 ms above embedding the query at 100k (SQLite) | 4.0 | yes |" in page
    assert "| write path >= 80% of the raw embedder's throughput at 100k (SQLite) | 0.5 | **no** |" in page
    assert "1,000,000, Engram, PostgreSQL: its build alone would take about 67 min" in page
    assert "| search p50 <= 30 ms at 1M, query embedding included (SQLite) | not run | |" in page
