"""Exact nearest neighbours from a scan at 8-bit precision.

A scan of many stored vectors mostly streams them through memory, and they are cold by the time a query comes
(the model ran in between), so reading int8 codes, a quarter of float32's bytes, makes the scan much faster.
Each row is scaled so that its largest component becomes 127, then rounded. The integer products, scaled back,
are within a bound of the true products that the two rows' scales and L1 norms give (`bounds`). So the rows
that can be among the best k are known for certain, and only they are scored again at full precision.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float32]
Codes = npt.NDArray[np.int8]


@dataclass(frozen=True, slots=True)
class Encoded:
    """Rows as int8 codes: row ~ codes / scale."""

    codes: Codes
    scales: Floats
    l1: Floats  # each row's L1 norm, for the error bound


def encode(matrix: Floats) -> Encoded:
    peak = np.abs(matrix).max(axis=1) if matrix.shape[1] else np.zeros(len(matrix), np.float32)
    scales = (127.0 / np.where(peak > 0, peak, 1.0)).astype(np.float32)
    codes = np.rint(matrix * scales[:, None]).astype(np.int8)
    return Encoded(codes, scales, np.abs(matrix).sum(axis=1).astype(np.float32))


def rescaled(
    products: npt.NDArray[np.integer] | npt.NDArray[np.floating], queries: Encoded, scales: Floats
) -> Floats:
    """Integer products of query and row codes, back on the scale of the vectors."""
    out: Floats = products.astype(np.float32)
    out /= queries.scales[:, None] * scales[None, :]
    return out


def bounds(queries: Encoded, scales: Floats, l1: Floats, dim: int) -> Floats:
    """How far each rescaled product can be from the true one. With q = q' + e (|e_i| <= 0.5 / q's scale) and
    the same for a row r: |q'.r' - q.r| <= |q|_1 * 0.5 / r's scale + |r|_1 * 0.5 / q's scale + dim * 0.25 /
    (both scales)."""
    qs, inv = queries.scales[:, None], 1.0 / scales[None, :]
    out: Floats = (0.5 * queries.l1[:, None] * inv + 0.5 * l1[None, :] / qs + 0.25 * dim * inv / qs).astype(
        np.float32
    )
    return out


def shortlist(approx: Floats, bound: Floats, k: int) -> npt.NDArray[np.intp]:
    """The rows (of one query's `approx` products) that can be among the true best k: those whose upper bound
    reaches the k-th best lower bound."""
    n = len(approx)
    if k >= n:
        return np.arange(n)
    low = approx - bound
    floor = np.partition(low, n - k)[n - k]
    return np.flatnonzero(approx + bound >= floor)
