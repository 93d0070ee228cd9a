"""The normal and Student t tails and quantiles, and Spearman's and Kendall's rank correlations, as
:mod:`scipy.stats` computes them, without importing :mod:`scipy.stats`.

``import scipy.stats`` costs about 62 MB of resident memory and a second of start-up (every
distribution, test and sampler it defines), about a third of what ``prspace audit`` holds on a
10^5-row file (issue 41, point 1: peak memory at most twice pandas holding the file). The audit
needs only a handful of its numbers, and those scipy.stats takes from :mod:`scipy.special` (one
ufunc each) inside bookkeeping for out-of-range arguments: the functions here do the same
bookkeeping, so every value is the same float, bit for bit, as scipy's (the signs of zeros
included; ``tests/stats/test_distributions.py`` checks them against :mod:`scipy.stats` on grids
with the edge cases).

* ``norm.ppf / isf / sf / cdf`` (standard normal) and ``student_t.ppf / isf / sf / cdf`` (``df``
  degrees of freedom), unit scale and zero location, as ``scipy.stats.norm`` and ``scipy.stats.t``:
  ``ndtri``, ``ndtr``, ``stdtrit`` and ``stdtr`` of :mod:`scipy.special`;
* :func:`spearman_rho` and :func:`kendall_tau_b`: the statistics of ``scipy.stats.spearmanr`` and
  ``scipy.stats.kendalltau(variant="b")`` of two 1-D arrays without NaN, neither constant.
"""

from __future__ import annotations

import numpy as np
from scipy import special as sc


def _scalar(out: np.ndarray):
    """A 0-d result as a numpy scalar, as scipy.stats returns it."""
    return out[()] if out.ndim == 0 else out


def _quantile(p, ok, lower: float, upper: float, fn):
    """scipy's ``rv_continuous.ppf`` bookkeeping: NaN outside the parameters' domain and for ``p``
    outside [0, 1], the support's ends at ``p`` 0 and 1, ``fn(p) * 1 + 0`` inside (so -0 becomes 0)."""
    p = np.asarray(p)
    inside = ok & (0 < p) & (p < 1)
    out = np.full(np.shape(inside), np.nan)
    out[ok & (p == 0)] = lower
    out[ok & (p == 1)] = upper
    if np.any(inside):
        out[inside] = (fn(inside) * 1 + 0)
    return _scalar(out)


def _tail(x, ok, fn, below: float):
    """scipy's ``rv_continuous.cdf``/``sf`` bookkeeping on the support (-inf, inf): NaN for NaN ``x`` or
    outside the parameters' domain, ``below`` at -inf, ``1 - below`` at +inf, ``fn(x)`` in between."""
    x = np.asarray(np.asarray(x) - 0, dtype=np.promote_types(np.asarray(x).dtype, np.float64))
    inside = ok & (-np.inf < x) & (x < np.inf)
    out = np.zeros(np.shape(inside))
    out[~ok | np.isnan(x)] = np.nan
    out[ok & (x == -np.inf)] = below
    out[ok & (x == np.inf)] = 1.0 - below
    if np.any(inside):
        out[inside] = fn(inside)
    return _scalar(out)


class _Normal:
    """The standard normal's ``ppf``, ``isf``, ``sf`` and ``cdf`` as ``scipy.stats.norm``'s."""

    @staticmethod
    def ppf(q):
        q = np.asarray(q)
        return _quantile(q, np.ones(q.shape, bool), -np.inf, np.inf, lambda m: sc.ndtri(np.broadcast_to(q, m.shape)[m]))

    @staticmethod
    def isf(q):
        q = np.asarray(q)
        return _quantile(q, np.ones(q.shape, bool), np.inf, -np.inf,
                         lambda m: -sc.ndtri(np.broadcast_to(q, m.shape)[m]))

    @staticmethod
    def sf(x):
        x = np.asarray(x)
        return _tail(x, np.ones(x.shape, bool), lambda m: sc.ndtr(-np.broadcast_to(x, m.shape)[m].astype(float)), 1.0)

    @staticmethod
    def cdf(x):
        x = np.asarray(x)
        return _tail(x, np.ones(x.shape, bool), lambda m: sc.ndtr(np.broadcast_to(x, m.shape)[m].astype(float)), 0.0)


class _StudentT:
    """Student's t (``df`` degrees of freedom, ``df > 0``): ``ppf``, ``isf``, ``sf`` and ``cdf`` as
    ``scipy.stats.t``'s."""

    @staticmethod
    def _args(a, df):
        a, df = np.broadcast_arrays(np.asarray(a), np.asarray(df))
        return a, df, df > 0

    @classmethod
    def ppf(cls, q, df):
        q, df, ok = cls._args(q, df)
        return _quantile(q, ok, -np.inf, np.inf, lambda m: sc.stdtrit(df[m], q[m]))

    @classmethod
    def isf(cls, q, df):
        q, df, ok = cls._args(q, df)
        return _quantile(q, ok, np.inf, -np.inf, lambda m: -sc.stdtrit(df[m], q[m]))

    @classmethod
    def sf(cls, x, df):
        x, df, ok = cls._args(x, df)
        return _tail(x, ok, lambda m: sc.stdtr(df[m], -x[m].astype(float)), 1.0)

    @classmethod
    def cdf(cls, x, df):
        x, df, ok = cls._args(x, df)
        return _tail(x, ok, lambda m: sc.stdtr(df[m], x[m].astype(float)), 0.0)


norm = _Normal()
student_t = _StudentT()


def average_ranks(a: np.ndarray) -> np.ndarray:
    """Ranks 1..n along the last axis of an array without NaN (each 1-D slice ranked on its own: a 2-D array's
    rows), ties given the average of the ranks they span: ``(first + last) / 2`` of whole numbers below ``2^52``,
    an exact half-integer, so the same float, bit for bit, as ``scipy.stats.rankdata(a, method="average",
    axis=-1)`` (``tests/stats/test_distributions.py``) without importing :mod:`scipy.stats`."""
    a = np.asarray(a)
    flat = a.reshape(int(np.prod(a.shape[:-1])), a.shape[-1]) if a.ndim else a.reshape(1, 1)
    rows, n = flat.shape
    out = np.empty(flat.shape, dtype=np.float64)
    if n == 0:
        return out.reshape(a.shape)
    order = np.argsort(flat, axis=1, kind="mergesort")
    s = np.take_along_axis(flat, order, axis=1)
    pos = np.broadcast_to(np.arange(n), flat.shape)
    first = np.ones(flat.shape, dtype=bool)  # where a tie group starts, in sorted order
    first[:, 1:] = s[:, 1:] != s[:, :-1]
    last = np.ones(flat.shape, dtype=bool)  # where one ends
    last[:, :-1] = first[:, 1:]
    start = np.maximum.accumulate(np.where(first, pos, 0), axis=1)  # the group's first position
    end = np.minimum.accumulate(np.where(last, pos, n)[:, ::-1], axis=1)[:, ::-1]  # its last
    np.put_along_axis(out, order, 0.5 * (start + end + 2), axis=1)  # the average of ranks start+1 .. end+1
    return out.reshape(a.shape)


def spearman_rho(a: np.ndarray, b: np.ndarray) -> np.float64:
    """``scipy.stats.spearmanr(a, b).statistic`` of two 1-D arrays of the same length >= 2, without
    NaN, neither constant: the Pearson correlation of their average ranks, by ``np.corrcoef`` of the
    ranks as columns laid out as scipy's ``apply_along_axis`` lays them out (two contiguous rows,
    transposed: the same sums in the same order)."""
    ranks = np.vstack((average_ranks(a), average_ranks(b))).T
    return np.corrcoef(ranks, rowvar=False)[1, 0]


def _discordant(x: np.ndarray, y: np.ndarray) -> int:
    """Pairs i < j with (x_i - x_j)(y_i - y_j) < 0, counted exactly (in blocks of rows)."""
    n, dis = x.size, 0
    for lo in range(0, n, 512):
        xs, ys = x[lo:lo + 512, None], y[lo:lo + 512, None]
        dis += int(np.count_nonzero(np.sign(xs - x[None, :]) * np.sign(ys - y[None, :]) < 0))
    return dis // 2  # every discordant pair was counted from both ends


def kendall_tau_b(a: np.ndarray, b: np.ndarray) -> np.float64:
    """``scipy.stats.kendalltau(a, b, variant="b").statistic`` of two 1-D arrays of the same length >= 2,
    without NaN: the same integer counts (pairs, ties, discordant pairs) and the same float operations
    on them, NaN when either array is constant."""
    x, y = np.asarray(a).ravel(), np.asarray(b).ravel()
    size = x.size
    # dense ranks (the counts below depend only on the order and the ties)
    xr = np.unique(x, return_inverse=True)[1].astype(np.intp)
    yr = np.unique(y, return_inverse=True)[1].astype(np.intp)

    def ties(r: np.ndarray) -> int:
        cnt = np.bincount(r).astype("int64", copy=False)
        cnt = cnt[cnt > 1]
        return int((cnt * (cnt - 1) // 2).sum())

    joint = np.unique(xr.astype(np.int64) * (int(yr.max()) + 1) + yr, return_counts=True)[1].astype("int64")
    ntie = int((joint * (joint - 1) // 2).sum())
    xtie, ytie = ties(xr), ties(yr)
    tot = (size * (size - 1)) // 2
    if xtie == tot or ytie == tot:
        return np.float64(np.nan)
    dis = _discordant(xr, yr)
    con_minus_dis = tot - xtie - ytie + ntie - 2 * dis
    tau = con_minus_dis / np.sqrt(tot - xtie) / np.sqrt(tot - ytie)
    return np.minimum(1., max(-1., tau))[()]
