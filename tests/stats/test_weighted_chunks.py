""":func:`prspace.stats.replicates.weighted_metrics` scores its replicates a chunk at a time
(:func:`~prspace.stats.replicates.replicate_chunks`); every chunking gives the bits of one call on all of them."""

from __future__ import annotations

import numpy as np
import pytest

from prspace.stats import replicates as R
from prspace.stats.replicates import Block


def _block(n: int, models: int, seed: int, *, tied: bool, weighted: bool) -> Block:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.12
    scores = [y * (0.3 + 0.2 * k) + rng.normal(size=n) for k in range(models)]  # predict_proba-like: untied floats
    if tied:
        scores = [np.round(s, 1) for s in scores]
    weight = rng.integers(1, 4, n).astype(np.float64) if weighted else np.ones(n)
    return Block("t", [f"m{k}" for k in range(models)], y, y.astype(np.int64), weight,
                 [np.unique(-s, return_inverse=True)[1].ravel() for s in scores], scores)


@pytest.mark.parametrize("tied", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_every_chunking_gives_the_bits_of_one_call(monkeypatch: pytest.MonkeyPatch, tied: bool, weighted: bool) -> None:
    n, n_rep = 4000, 41
    block = _block(n, 4, seed=7, tied=tied, weighted=weighted)
    y = block.y
    rng = np.random.default_rng(3)
    w = np.zeros((n_rep, n))  # stratified bootstrap counts, as the noise floor draws them
    for cls in (True, False):
        rows = np.flatnonzero(y == cls)
        w[:, rows] = rng.multinomial(rows.size, np.full(rows.size, 1 / rows.size), size=n_rep)
    monkeypatch.setattr(R, "CHUNK_CELLS", n * n_rep)
    whole = R.weighted_metrics(block, w)
    assert len(R.replicate_chunks(n_rep, n, cells=R.CHUNK_CELLS)) == 1
    assert np.isfinite(whole).all() and np.ptp(whole[:, 0, 0]) > 0  # replicates that differ
    for cells in (1, 3 * n, 10 * n):  # chunks of 2, 3 and 10 replicates
        monkeypatch.setattr(R, "CHUNK_CELLS", cells)
        assert len(R.replicate_chunks(n_rep, n, cells=cells)) > 1
        assert np.array_equal(R.weighted_metrics(block, w), whole)


def test_replicate_chunks_cover_the_replicates_with_no_lone_one() -> None:
    for n_rep in (1, 2, 3, 5, 41, 200, 1000):
        for n_rows in (1, 10, 10_000, 236_064, 10**7):
            parts = R.replicate_chunks(n_rep, n_rows)
            got = np.concatenate([np.arange(n_rep)[p] for p in parts])
            assert np.array_equal(got, np.arange(n_rep))
            sizes = [p.stop - p.start for p in parts]
            assert n_rep == 1 or min(sizes) >= 2
            assert max(sizes) - min(sizes) <= 1
            assert max(sizes) * n_rows <= max(R.CHUNK_CELLS, 3 * n_rows) or len(parts) == n_rep // 2
