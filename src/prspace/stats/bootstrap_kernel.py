"""The kernel of the studentized cluster bootstrap: statistics over families, their closed-form
estimates and standard errors for a whole batch of resamples, the resamples' ``t*`` and the known-truth
simulation's positions ``u`` (:mod:`prspace.stats.cluster_bootstrap` turns them into intervals,
p-values and counted coverage).

The statistics are means over tasks that come in families (clusters): a *ratio mean*
``m = sum_f S_f / sum_f N_f`` (``S_f`` the sum of a per-task value over family f's tasks, ``N_f`` their
number), or a linear combination ``sum_j w_j m_j`` of such means over the same families (a paired
difference); a quartile over tasks through a ratio mean (Woodruff's interval). Families are drawn with
replacement (``F`` draws, counts ``c``); in every resample the estimate ``m* = sum_j w_j (c . S_j) / (c . N_j)``
and its linearised cluster standard error, closed form,

``se*^2 = F / (F - 1) * sum_f c_f u_f^2``, ``u_f = sum_j w_j (S_jf - m*_j N_jf) / (c . N_j)``,

are products of ``c`` with fixed per-family columns (:class:`_Moments`), so a whole batch of resamples is
one matrix product, made exact (:func:`prspace.metrics.same_bits.count_product`: the same bits on every
machine, whatever BLAS kernel numpy picks). Bounded means are studentized on Fisher's z scale of their range
(:func:`to_work`).
:func:`draw` gives the study's sorted ``t* = (z* - z) / se*``; :func:`double_u` the position of the
truth's pivot among the inner resamples of each simulated study (:func:`outer_pivot`, :func:`truth_position`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from prspace.metrics import same_bits as PM
from prspace.metrics.same_bits import count_product, fixed_order_matvec
from prspace.stats.family_bootstrap import draw_families


@dataclass(frozen=True)
class Stat:
    """``sum_j w[j] * sum_f S[f, j] / sum_f N[f, j]`` over ``F`` families (``S``, ``N``: ``(F, J)``).
    ``quantile``: with ``x`` (the tasks' values), a Woodruff quartile interval; ``S`` then holds
    the per-family count of tasks at or below the estimate and ``N`` the count of tasks."""

    S: np.ndarray
    N: np.ndarray
    w: np.ndarray
    quantile: float | None = None
    x: np.ndarray | None = None
    x_family: np.ndarray | None = None
    #: the statistic's range (a share in [0, 1], a rank correlation in [-1, 1]): interval ends are clipped to it
    bounds: tuple[float, float] = (-np.inf, np.inf)

    @property
    def n_families(self) -> int:
        return int(self.S.shape[0])

    @property
    def transformed(self) -> bool:
        """Studentized on Fisher's z scale of its range (a mean with finite ``bounds``, not a quartile)."""
        return WORK_SCALE and self.quantile is None and bool(np.isfinite(self.bounds[0]) and np.isfinite(self.bounds[1]))


#: Studentize bounded means on Fisher's z scale of their range (:func:`to_work`).
WORK_SCALE = True
#: How close to its range's ends a transformed statistic is taken (a share of exactly 0 or 1).
RANGE_EPS = 1e-6


def to_work(stats: list[Stat], est: np.ndarray, se: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Estimates and standard errors ``(..., K)`` on each statistic's working scale: for a mean of
    range ``[b0, b1]``, ``z = atanh(r)`` with ``r = 2 (m - b0) / (b1 - b0) - 1`` (Fisher's z of a
    correlation; half the logit of a share), its delta-method SE ``se * 2 / (b1 - b0) / (1 - r^2)``;
    unbounded statistics and quartiles unchanged."""
    est, se = np.asarray(est, dtype=np.float64), np.asarray(se, dtype=np.float64)
    # the same operations in the same order as the formulas above, in place (one buffer a statistic)
    z, sz = np.empty_like(est), np.empty_like(se)
    with np.errstate(invalid="ignore"):
        for k, stat in enumerate(stats):
            if not stat.transformed:
                z[..., k], sz[..., k] = est[..., k], se[..., k]
                continue
            b0, b1 = stat.bounds
            r = np.subtract(est[..., k], b0)
            r *= 2.0
            r /= b1 - b0
            r -= 1.0
            np.clip(r, -1.0 + RANGE_EPS, 1.0 - RANGE_EPS, out=r)
            z[..., k] = PM.atanh(r)  # not np.arctanh: its bits follow the CPU's SIMD (prspace.metrics.same_bits)
            s = np.multiply(se[..., k], 2.0)
            s /= b1 - b0
            np.multiply(r, r, out=r)
            np.subtract(1.0, r, out=r)
            np.divide(s, r, out=sz[..., k])
    return z, sz


def from_work(st: Stat, z: np.ndarray) -> np.ndarray:
    """The inverse of :func:`to_work`'s scale for one statistic."""
    if not st.transformed:
        return z
    b0, b1 = st.bounds
    return b0 + (b1 - b0) * (PM.tanh(np.asarray(z, dtype=np.float64)) + 1.0) / 2.0


def ratio_stat(values: np.ndarray, family: np.ndarray, n_families: int | None = None) -> Stat:
    """The mean over tasks of ``values`` (NaN left out) clustered by integer ``family`` ids."""
    return combo_stat([(1.0, values)], family, n_families)


def combo_stat(terms: list[tuple[float, np.ndarray]], family: np.ndarray, n_families: int | None = None) -> Stat:
    """``sum w * mean(values)`` over the same tasks and families (each mean leaves its NaNs out)."""
    fam = np.asarray(family, dtype=np.intp)
    F = int(fam.max()) + 1 if n_families is None else int(n_families)
    S = np.zeros((F, len(terms)))
    N = np.zeros((F, len(terms)))
    for j, (_, v) in enumerate(terms):
        v = np.asarray(v, dtype=np.float64)
        ok = np.isfinite(v)
        np.add.at(S[:, j], fam[ok], v[ok])
        np.add.at(N[:, j], fam[ok], 1.0)
    return Stat(S, N, np.array([w for w, _ in terms], dtype=np.float64))


def quantile_stat(values: np.ndarray, family: np.ndarray, q: float, n_families: int | None = None) -> Stat:
    """The ``q``-quantile over tasks of ``values`` (NaN left out), with Woodruff's interval."""
    v = np.asarray(values, dtype=np.float64)
    ok = np.isfinite(v)
    est = float(np.quantile(v[ok], q)) if ok.any() else float("nan")
    ind = np.where(ok, (v <= est).astype(np.float64), np.nan)
    s = ratio_stat(ind, family, n_families)
    order = np.argsort(v[ok], kind="stable")
    return Stat(s.S, s.N, s.w, quantile=float(q), x=v[ok][order],
                x_family=np.asarray(family, dtype=np.intp)[ok][order])


def counts(rng: np.random.Generator, outer_idx: np.ndarray | None, F: int, B: int, n_in: int = 1
           ) -> tuple[np.ndarray, np.ndarray]:
    """``B`` resamples of ``F`` families: the drawn family ids ``(B, F)`` and their counts ``(B, F)``
    (float64). ``outer_idx`` ``(B / n_in, F)``: each row the family ids of an outer resample, drawn from
    ``n_in`` times in a row (the inner resamples of each outer one) instead of from ``0..F-1``."""
    # 32-bit draws unless the outer offsets below would overflow them (draw_families: the same stream)
    idx = draw_families(rng, F, B, wide=F * max(B // n_in, 1) >= 2**31)
    if outer_idx is not None:
        idx += (F * np.repeat(np.arange(outer_idx.shape[0]), n_in)).astype(idx.dtype)[:, None]
        idx = np.take(outer_idx.ravel(), idx)
    flat = idx + (F * np.arange(B))[:, None]
    c = np.bincount(flat.ravel(), minlength=B * F).reshape(B, F).astype(np.float64)
    return idx, c


class _Moments:
    """The per-family columns whose products with counts give every statistic's estimate and
    standard error (module docstring), for a list of :class:`Stat` over the same ``F``."""

    def __init__(self, stats: list[Stat]) -> None:
        self.stats = stats
        cols, self.layout = [], []
        for s in stats:
            J = s.S.shape[1]
            base = len(cols)
            cols += [s.S[:, j] for j in range(J)] + [s.N[:, j] for j in range(J)]
            for j in range(J):
                for k in range(J):
                    cols += [s.S[:, j] * s.S[:, k], s.S[:, j] * s.N[:, k], s.N[:, j] * s.S[:, k], s.N[:, j] * s.N[:, k]]
            self.layout.append((base, J))
        M = np.column_stack(cols) if cols else np.zeros((0, 0))
        # identical columns (the counts of tasks recur across statistics) are multiplied once
        self.M, self.inverse = np.unique(M, axis=1, return_inverse=True)
        self.inverse = np.ravel(self.inverse)
        self.F = stats[0].n_families
        self._slices: dict[int, list[np.ndarray]] = {}  # column_slices of M by bits (count_product)

    def evaluate(self, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Estimates and standard errors ``(B, K)`` for counts ``c`` ``(B, F)`` (column-major: each
        statistic's column is contiguous)."""
        # one row per distinct moment column, contiguous: the arithmetic below runs along rows
        # the same bits whatever the BLAS kernel; the counts are drawn here (non-negative integers): not checked
        P = np.ascontiguousarray(count_product(c, self.M, check=False, slices=self._slices).T)
        inv = self.inverse
        B = c.shape[0]
        est = np.empty((len(self.stats), B))
        se = np.empty((len(self.stats), B))
        scale = self.F / (self.F - 1.0) if self.F > 1 else np.nan
        tmp, cross = np.empty(B), np.empty(B)
        with np.errstate(invalid="ignore", divide="ignore"):
            for i, (s, (base, J)) in enumerate(zip(self.stats, self.layout, strict=True)):
                Nx = [P[inv[base + J + j]] for j in range(J)]
                m = np.empty((B, J))
                for j in range(J):
                    m[:, j] = P[inv[base + j]] / Nx[j]
                mc = [m[:, j].copy() for j in range(J)]
                est[i] = fixed_order_matvec(m, s.w)
                var = np.zeros(B)
                o = base + 2 * J
                for j in range(J):
                    for k in range(J):
                        ss, sn, ns, nn = P[inv[o]], P[inv[o + 1]], P[inv[o + 2]], P[inv[o + 3]]
                        o += 4
                        # ss - m_k sn - m_j ns + m_j m_k nn, then w_j w_k cross / (N_j N_k), in place, in that order
                        np.multiply(mc[k], sn, out=tmp)
                        np.subtract(ss, tmp, out=cross)
                        np.multiply(mc[j], ns, out=tmp)
                        cross -= tmp
                        np.multiply(mc[j], mc[k], out=tmp)
                        tmp *= nn
                        cross += tmp
                        cross *= s.w[j] * s.w[k]
                        np.multiply(Nx[j], Nx[k], out=tmp)
                        cross /= tmp
                        var += cross
                var *= scale
                np.maximum(var, 0.0, out=var)
                np.sqrt(var, out=se[i])
        return est.T, se.T


def _tstat(est: np.ndarray, centre: np.ndarray, se: np.ndarray) -> np.ndarray:
    """``(est - centre) / se`` with the degenerate cases of the module docstring."""
    d = est - centre
    with np.errstate(invalid="ignore", divide="ignore"):
        t = d / se
    # the degenerate cases, rare: written only where they occur (the values of the formula above, bit for bit)
    with np.errstate(invalid="ignore"):
        bad = ~(se > 0)
    if bad.any():
        bad = np.broadcast_to(bad, t.shape)
        db = np.broadcast_to(d, t.shape)[bad]
        with np.errstate(invalid="ignore"):
            t[bad] = np.where(db == 0, 0.0, np.sign(db) * np.inf)
    fin = np.isfinite(est) & np.isfinite(centre)
    if not fin.all():
        t[~np.broadcast_to(fin, t.shape)] = np.nan
    return t


def draw(stats: list[Stat], *, B: int, seed: int | np.random.SeedSequence | list, chunk: int = 20_000) -> np.ndarray:
    """Sorted ``t* = (m* - m) / se*`` ``(K, B)`` of every statistic over ``B`` resamples of the
    families. A NaN replicate (a resample without a task for a statistic; none when every family
    holds a task of every statistic) is replaced by a finite one of the same row."""
    mom = _Moments(stats)
    F = mom.F
    est0, se0 = to_work(stats, *mom.evaluate(np.ones((1, F))))
    rng = np.random.default_rng(seed)
    t1 = np.empty((len(stats), B))
    for start in range(0, B, chunk):
        n = min(chunk, B - start)
        _, c1 = counts(rng, None, F, n)
        e1, s1 = to_work(stats, *mom.evaluate(c1))
        t1[:, start:start + n] = _tstat(e1, est0, s1).T
    _fill(t1)
    t1.sort(axis=1)
    return t1


def _fill(t: np.ndarray) -> None:
    bad = np.isnan(t)
    for k in np.flatnonzero(bad.any(axis=1)):
        good = t[k][~bad[k]]
        t[k] = np.resize(good, t.shape[1]) if len(good) else 0.0


def double_u(stats: list[Stat], *, n_out: int, n_in: int, seed: int | np.random.SeedSequence | list,
             chunk: int = 40_000) -> np.ndarray:
    """The double bootstrap (module docstring): for each of ``n_out`` outer resamples of the
    families (a sample from the study taken as the population), the position of the truth's pivot
    ``T_o = (m_o - m) / se_o`` among ``n_in`` inner resamples drawn from it,
    ``u_o = F**_o(T_o)`` (mid-rank), ``(K, n_out)``. The outer sample's bootstrap-t interval at nominal
    tail ``a`` misses the truth above its upper end when ``u_o < a`` and below its lower end when
    ``u_o > 1 - a``."""
    mom = _Moments(stats)
    F, K = mom.F, len(stats)
    est0, se0 = to_work(stats, *mom.evaluate(np.ones((1, F))))
    rng = np.random.default_rng(seed)
    u = np.empty((K, n_out))
    step = max(1, chunk // n_in)
    for start in range(0, n_out, step):
        n = min(step, n_out - start)
        idx, c1 = counts(rng, None, F, n)
        e1, s1 = to_work(stats, *mom.evaluate(c1))
        # the pivot the outer sample's own interval inverts: (z_o - z) / se_o, its own SE (no floor at the
        # study's: an outer sample less variable than the study must count its miss; issue 58)
        T = outer_pivot(e1, est0, s1).T  # (K, n)
        _, c2 = counts(rng, idx, F, n * n_in, n_in)
        e2, s2 = to_work(stats, *mom.evaluate(c2))
        # (K, n, n_in) views of the column-major (n * n_in, K) results, each outer sample's inner ones together
        t2 = _tstat(e2.T.reshape(K, n, n_in), e1.T[:, :, None], s2.T.reshape(K, n, n_in))
        u[:, start:start + n] = truth_position(T, t2)
    return u


def outer_pivot(e1: np.ndarray, est0: np.ndarray, s1: np.ndarray) -> np.ndarray:
    """The truth's pivot in each outer sample, ``T_o = (z_o - z) / se_o`` (working scale): the
    quantity the outer sample's own bootstrap-t interval ``[z_o - se_o q(1 - a), z_o - se_o q(a)]``
    inverts, so that it misses the truth above its upper end exactly when ``T_o < q(a)``. Its SE is
    the outer sample's own (floored at the study's, as before 2026-11-26, a miss of an outer sample
    less variable than the study went uncounted)."""
    return _tstat(e1, est0, s1)


def truth_position(T: np.ndarray, t2: np.ndarray) -> np.ndarray:
    """``u_o = F**_o(T_o)`` (mid-rank) of each outer sample's pivot ``T`` ``(K, n)`` among its inner
    ``t**`` ``(K, n, n_in)``; 0.5 where the pivot is undefined."""
    below = (t2 < T[:, :, None]).mean(axis=2) + 0.5 * (t2 == T[:, :, None]).mean(axis=2)
    return np.where(np.isnan(T), 0.5, below)


#: Fewest resamples beyond a quantile read straight off the sorted replicates; further out the tail
#: is extrapolated (:func:`_q`).
TAIL_DRAWS = 200


def _q(sorted_t: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Quantiles (inverted cdf) of each row of ``sorted_t`` ``(K, B)`` at ``p`` ``(K, A)``. Beyond
    :data:`TAIL_DRAWS` resamples from either end (``p < p0 = TAIL_DRAWS / B``) the tail is extended
    exponentially through the quantiles at ``p0`` and ``10 p0``, ``q(p) = q(p0) - s log(p0 / p)``
    (a generalized Pareto tail of shape 0: heavier than the normal's), so that a level corrected far
    into the tail does not rest on a handful of resamples."""
    B = sorted_t.shape[1]
    p = np.asarray(p, dtype=np.float64)

    def raw(pp: np.ndarray) -> np.ndarray:
        i = np.clip(np.ceil(pp * B).astype(np.int64) - 1, 0, B - 1)
        return np.take_along_axis(sorted_t, np.broadcast_to(i, (sorted_t.shape[0], i.shape[-1])), axis=1)

    out = raw(p)
    p0 = TAIL_DRAWS / B
    if 10 * p0 >= 0.5:
        return out
    K = sorted_t.shape[0]
    a0, a1 = raw(np.full((K, 1), p0)), raw(np.full((K, 1), 10 * p0))
    b0, b1 = raw(np.full((K, 1), 1 - p0)), raw(np.full((K, 1), 1 - 10 * p0))
    with np.errstate(invalid="ignore", divide="ignore"):
        ln10 = PM.log(np.array(10.0))
        lo_tail = a0 - (a1 - a0) / ln10 * PM.log(p0 / np.clip(p, 1e-300, None))
        hi_tail = b0 + (b0 - b1) / ln10 * PM.log(p0 / np.clip(1 - p, 1e-300, None))
    out = np.where(p < p0, np.where(np.isfinite(lo_tail), lo_tail, out), out)
    return np.where(p > 1 - p0, np.where(np.isfinite(hi_tail), hi_tail, out), out)


