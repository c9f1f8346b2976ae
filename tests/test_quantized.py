"""8-bit scans: the error bound holds, and the shortlist always holds the true best k."""

import numpy as np
import pytest

from engram.model.quantized import bounds, encode, rescaled, shortlist


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


@pytest.mark.parametrize("dim", [8, 64, 384])
def test_rounded_products_stay_within_their_bound_and_the_shortlist_keeps_the_true_best(dim: int) -> None:
    rng = np.random.default_rng(dim)
    rows = rng.standard_normal((3000, dim)).astype(np.float32)
    rows[:50, 0] *= 40  # spiky rows: one large component makes the others coarse
    rows = _unit(rows)
    # Queries near some rows, a spiky one, and exact copies (ties).
    queries = _unit(np.vstack([rows[[5, 60, 700]] + 0.1 * rng.standard_normal((3, dim)), rows[[7, 7]]]))
    queries[4, 1] += 3.0
    queries = _unit(queries)
    q, r = encode(queries), encode(rows)
    approx = rescaled(q.codes.astype(np.int32) @ r.codes.astype(np.int32).T, q, r.scales)
    bound = bounds(q, r.scales, r.l1, dim)
    full = queries @ rows.T
    assert np.all(np.abs(approx - full) <= bound)
    assert np.abs(approx - full).max() > 0  # the codes do round
    for i in range(len(queries)):
        for k in (1, 10, 80):
            kept = set(shortlist(approx[i], bound[i], k).tolist())
            true_best = np.argsort(-full[i])[:k]
            assert set(true_best.tolist()) <= kept
            assert len(kept) < len(rows)  # and it is a short list


def test_an_all_zero_row_encodes_without_dividing_by_zero() -> None:
    rows = np.zeros((2, 4), dtype=np.float32)
    rows[1, 2] = 1.0
    encoded = encode(rows)
    assert encoded.codes.tolist() == [[0, 0, 0, 0], [0, 0, 127, 0]]
    assert np.all(np.isfinite(encoded.scales))
