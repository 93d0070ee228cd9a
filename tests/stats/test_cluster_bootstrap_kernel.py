"""The double bootstrap's kernel (``stats/cluster_bootstrap.py``: ``counts``, ``_Moments.evaluate``,
``double_u``, ``draw``) equals, bit for bit, a plain implementation written straight from the module
docstring: every resample's counts by ``bincount`` of the drawn family ids (64-bit draws; the inner ones
drawn from each outer resample's repeated rows), row-major arithmetic on the moment products, the t of each inner resample
against its outer sample.  The kernel's speed-ups (32-bit draws, contiguous rows, no repeated copies)
must not move a committed verdict by a bit (issue 42, point 5: tables byte-identical)."""

from __future__ import annotations

import numpy as np
import pytest

from prspace.metrics.same_bits import count_product
from prspace.stats import bootstrap_kernel as BK
from prspace.stats import cluster_bootstrap as CB


def _plain_counts(rng, weights_idx, F, B):
    pos = rng.integers(0, F, size=(B, F))
    idx = pos if weights_idx is None else np.take_along_axis(weights_idx, pos, axis=1)
    c = np.zeros((B, F))
    for b in range(B):
        c[b] = np.bincount(idx[b], minlength=F)
    return idx, c


def _plain_evaluate(stats, c):
    """Row-major: the moment columns' products with the counts (exact, as the kernel's:
    :func:`prspace.metrics.same_bits.count_product`, the same bits whatever BLAS sums them), then each statistic
    column by column, its weighted sum of means left to right."""
    mom = CB._Moments(stats)
    P = count_product(c, mom.M)[:, mom.inverse]
    F = mom.F
    B = c.shape[0]
    est, se = np.empty((B, len(stats))), np.empty((B, len(stats)))
    with np.errstate(invalid="ignore", divide="ignore"):
        for i, (s, (base, J)) in enumerate(zip(stats, mom.layout, strict=True)):
            Sx, Nx = P[:, base:base + J], P[:, base + J:base + 2 * J]
            m = Sx / Nx
            est[:, i] = m[:, 0] * s.w[0]
            for j in range(1, J):
                est[:, i] += m[:, j] * s.w[j]
            var = np.zeros(B)
            o = base + 2 * J
            for j in range(J):
                for k in range(J):
                    ss, sn, ns, nn = P[:, o], P[:, o + 1], P[:, o + 2], P[:, o + 3]
                    o += 4
                    cross = ss - m[:, k] * sn - m[:, j] * ns + m[:, j] * m[:, k] * nn
                    var += s.w[j] * s.w[k] * cross / (Nx[:, j] * Nx[:, k])
            se[:, i] = np.sqrt(np.maximum(var * (F / (F - 1.0)), 0.0))
    return est, se


def _plain_double_u(stats, *, n_out, n_in, seed, chunk=40_000):
    F = stats[0].n_families
    est0, se0 = CB.to_work(stats, *_plain_evaluate(stats, np.ones((1, F))))
    rng = np.random.default_rng(seed)
    u = np.empty((len(stats), n_out))
    step = max(1, chunk // n_in)
    for start in range(0, n_out, step):
        n = min(step, n_out - start)
        idx, c1 = _plain_counts(rng, None, F, n)
        e1, s1 = CB.to_work(stats, *_plain_evaluate(stats, c1))
        T = CB._tstat(e1, est0, s1)
        _, c2 = _plain_counts(rng, np.repeat(idx, n_in, axis=0), F, n * n_in)
        e2, s2 = CB.to_work(stats, *_plain_evaluate(stats, c2))
        t2 = CB._tstat(e2, np.repeat(e1, n_in, axis=0), s2).reshape(n, n_in, -1)
        below = (t2 < T[:, None, :]).mean(axis=1) + 0.5 * (t2 == T[:, None, :]).mean(axis=1)
        u[:, start:start + n] = np.where(np.isnan(T), 0.5, below).T
    return u


def _stats(F: int, seed: int) -> list[CB.Stat]:
    rng = np.random.default_rng(seed)
    fam = np.repeat(np.arange(F), rng.integers(1, 6, size=F))
    share = (rng.random(fam.size) < 0.3).astype(float)
    share[rng.random(fam.size) < 0.1] = np.nan  # a task without a value is left out of the mean
    corr = np.tanh(rng.normal(0.8, 0.5, size=fam.size))
    free = rng.normal(size=fam.size) ** 3
    out = [CB.ratio_stat(share, fam), CB.ratio_stat(free, fam), CB.quantile_stat(corr, fam, 0.25)]
    out[0] = CB.Stat(out[0].S, out[0].N, out[0].w, bounds=(0.0, 1.0))
    d = CB.combo_stat([(1.0, corr), (-1.0, np.tanh(corr + rng.normal(0, 0.2, size=fam.size)))], fam)
    out.append(CB.Stat(d.S, d.N, d.w, bounds=(-2.0, 2.0)))
    return out


@pytest.mark.parametrize(("F", "n_in"), [(13, 250), (35, 250), (73, 40)])
def test_double_u_and_draw_equal_the_plain_implementation_bit_for_bit(F, n_in):
    stats = _stats(F, seed=F)
    got = CB.double_u(stats, n_out=300, n_in=n_in, seed=[F, 1], chunk=5_000)
    want = _plain_double_u(stats, n_out=300, n_in=n_in, seed=[F, 1], chunk=5_000)
    assert got.shape == want.shape == (len(stats), 300)
    assert np.array_equal(got, want, equal_nan=True)
    # the plain bootstrap-t's sorted t*: the same draws and the same arithmetic
    est0, se0 = CB.to_work(stats, *_plain_evaluate(stats, np.ones((1, F))))
    _, c = _plain_counts(np.random.default_rng(7), None, F, 2_000)
    e, s = CB.to_work(stats, *_plain_evaluate(stats, c))
    t = CB._tstat(e, est0, s).T
    BK._fill(t)
    assert np.array_equal(CB.draw(stats, B=2_000, seed=7), np.sort(t, axis=1), equal_nan=True)


def test_the_32_bit_draws_are_the_64_bit_stream():
    """``counts`` draws family positions as 32-bit integers: numpy's bounded draws below 2**32 are the
    same numbers in either width (if a numpy upgrade changed that, every verdict would move)."""
    for F in (2, 13, 73, 1000):
        a = np.random.default_rng(F).integers(0, F, size=(500, F))
        b = np.random.default_rng(F).integers(0, F, size=(500, F), dtype=np.int32)
        assert np.array_equal(a, b)
