"""The unit-weight jackknife (whole counts minus the left-out rows', :func:`prspace.stats.replicates._unit_jackknife`)
equals bit for bit the general path that sums 0/1 weights over every row (issue 41, point 1: the audit at scale)."""

from __future__ import annotations

import numpy as np
import pytest

from prspace.stats import replicates as R
from prspace.stats.replicates import Block


def _block(n: int, models: int, seed: int) -> Block:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.07
    fold = np.arange(n) % 5
    scores = [np.round(y * (0.4 + 0.3 * k) + rng.normal(size=n), 2) for k in range(models)]
    return Block("t", [f"m{k}" for k in range(models)], y, 2 * fold + y.astype(np.int64), np.ones(n),
                 [np.unique(-s, return_inverse=True)[1].ravel() for s in scores], scores)


def _general(block: Block, groups: list[np.ndarray], chunk: int = 0) -> np.ndarray:
    """The weighted path of :func:`prspace.stats.replicates.jackknife`, as it runs for any weights."""
    order = np.argsort(block.stratum, kind="stable")
    n = order.size
    sums = R._column_sums(block, order)
    out = np.empty((len(groups), len(block.models), len(R.BOOT_METRICS)))
    step = chunk or max(1, min(len(groups), 2_500_000 // n))
    for start in range(0, len(groups), step):
        size = min(step, len(groups) - start)
        c = R.jackknife_weights(groups[start : start + size], n) * block.weight
        R._metrics_of_counts(sums, c[:, order], out[start : start + size])
    return out


@pytest.mark.parametrize(("n", "chunk"), [(400, 0), (3000, 0), (3000, 7), (30_000, 0), (3000, 1), (30_000, 1)])
def test_unit_jackknife_equals_the_general_path_bit_for_bit(n: int, chunk: int) -> None:
    block = _block(n, 3, seed=n)
    fast, of = R.jackknife(block, rng=np.random.default_rng(1), chunk=chunk)
    groups, of2 = R.stable_groups(block.stratum, rng=np.random.default_rng(1))
    slow = _general(block, groups, chunk)
    assert np.array_equal(of, of2)
    assert fast.shape == slow.shape and np.isfinite(slow).any()
    assert np.array_equal(fast, slow, equal_nan=True)


def test_stratum_rows_are_each_strata_rows_in_order() -> None:
    # one stable sort of the strata gives each stratum's rows as np.flatnonzero(stratum == s), for any strata
    rng = np.random.default_rng(2)
    for values in (np.arange(4), np.array([-3, 0, 70_000]), np.array([1.5, 2.5])):
        stratum = rng.choice(values, 5000)
        got = list(R._stratum_rows(stratum))
        assert [s for s, _ in got] == list(np.unique(stratum))
        assert all(np.array_equal(rows, np.flatnonzero(stratum == s)) for s, rows in got)


def test_unit_jackknife_gives_nan_to_a_replicate_left_with_one_class() -> None:
    y = np.array([True] + [False] * 9)
    s = np.linspace(1, 0, 10)
    block = Block("t", ["m"], y, y.astype(np.int64), np.ones(10), [np.unique(-s, return_inverse=True)[1]], [s])
    fast, _ = R.jackknife(block)
    slow = _general(block, R.stable_groups(block.stratum)[0])
    left = [int(g[0]) for g in R.stable_groups(block.stratum)[0]].index(0)  # the replicate without the positive
    assert np.isnan(fast[left]).all() and np.isfinite(np.delete(fast, left, axis=0)).all()
    assert np.array_equal(fast, slow, equal_nan=True)


def _general_bootstrap(block: Block, n_boot: int, seed: int, scheme: str, chunk: int = 0) -> np.ndarray:
    """The per-row counts path of :func:`prspace.stats.replicates.bootstrap` (any weights), on the same stream."""
    sampler = R.StratumSampler(R.strata_of(block, scheme), np.random.default_rng(seed))
    sums = R._column_sums(block, sampler.order)
    out = np.empty((n_boot, len(block.models), len(R.BOOT_METRICS)))
    step = chunk or max(1, min(n_boot, 2_500_000 // block.y.size))
    for start in range(0, n_boot, step):
        size = min(step, n_boot - start)
        R._metrics_of_counts(sums, sampler.counts_batch(size), out[start : start + size])
    return out


@pytest.mark.parametrize(("n", "scheme", "chunk"), [(300, "class", 0), (5000, "class x fold", 0), (5000, "class", 13)])
def test_unit_bootstrap_equals_the_per_row_counts_path_bit_for_bit(n: int, scheme: str, chunk: int) -> None:
    block = _block(n, 3, seed=n + 1)
    ticks: list[int] = []
    fast = R.bootstrap(block, n_boot=60, rng=np.random.default_rng(5), scheme=scheme, chunk=chunk, tick=ticks.append)
    slow = _general_bootstrap(block, 60, 5, scheme, chunk)
    assert np.isfinite(slow).all() and sum(ticks) == 60
    assert np.array_equal(fast, slow)


@pytest.mark.parametrize("rows", [1, 777, 5000])
def test_unit_bootstrap_summed_in_chunks_of_rows_equals_the_per_row_counts_path(monkeypatch: pytest.MonkeyPatch,
                                                                               rows: int) -> None:
    # the counts are summed into the models' columns SUM_ROWS rows at a time: chunks of one row, of a length that
    # does not divide the block, and the whole block at once give the per-row counts path's numbers bit for bit
    monkeypatch.setattr(R, "SUM_ROWS", rows)
    block = _block(3001, 3, seed=21)
    fast = R.bootstrap(block, n_boot=25, rng=np.random.default_rng(8), scheme="class")
    slow = _general_bootstrap(block, 25, 8, "class")
    assert np.isfinite(slow).all()
    assert np.array_equal(fast, slow)


def test_unit_curve_bands_equal_the_per_row_counts_path_bit_for_bit() -> None:
    from prspace.stats.bands import curve_bands

    block = _block(4000, 1, seed=3)
    y, s = block.y, block.scores[0]
    fast = curve_bands(y, s, n_boot=50, rng=7)
    # weights of 2 take the per-row counts path (counts times weights, summed per column); every count doubled
    # exactly, and every curve point is a ratio of counts or of counts to totals
    slow = curve_bands(y, s, sample_weight=np.full(y.size, 2.0), n_boot=50, rng=7)
    a = R.StratumSampler(np.arange(8) % 3, np.random.default_rng(0))
    b = R.StratumSampler(np.arange(8) % 3, np.random.default_rng(0))
    assert np.array_equal(np.bincount(a.draws(), minlength=8), b.counts())
    for c in ("roc", "pr", "prg"):
        for col, values in fast[c].columns().items():
            assert np.array_equal(values, slow[c].columns()[col], equal_nan=True), (c, col)


def test_unit_bootstrap_recounts_a_resample_whose_row_counts_wrapped(monkeypatch: pytest.MonkeyPatch) -> None:
    # one byte a row wraps only at 256 draws of a row; a bool count saturates at 1, so nearly every resample here
    # holds a row drawn twice, is seen by its total and is counted again: still bit for bit the per-row counts path
    monkeypatch.setattr(R, "ROW_COUNT_DTYPE", np.bool_)
    monkeypatch.setattr(R, "SUM_ROWS", 300)  # the recount summed in chunks too
    block = _block(2000, 2, seed=11)
    fast = R.bootstrap(block, n_boot=40, rng=np.random.default_rng(3), scheme="class x fold")
    slow = _general_bootstrap(block, 40, 3, "class x fold")
    assert np.isfinite(slow).all()
    assert np.array_equal(fast, slow)


@pytest.mark.parametrize("most", [1, 2, 4, 64])
def test_count_into_counts_the_stream_of_draws_in_chunks(most: int) -> None:
    stratum = np.array([2, 0, 2, 1, 0, 2, 2, 0, 1, 2, 5, 0, 0, 2])  # strata 3 and 4 empty; runs of 5, 2, 6, 1
    a = R.StratumSampler(stratum, np.random.default_rng(4))
    b = R.StratumSampler(stratum, np.random.default_rng(4))
    u, drawn = np.empty(most), np.empty(most, dtype=np.int64)
    for _ in range(6):
        counts = np.zeros(stratum.size, dtype=np.uint8)
        b.count_into(counts, u, drawn)
        assert np.array_equal(np.bincount(a.draws(), minlength=stratum.size), counts)
