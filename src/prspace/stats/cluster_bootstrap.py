"""Studentized cluster bootstrap of ratio means, calibrated and measured by a double bootstrap.

The statistics of the primary claims are means over tasks that come in families (clusters): a
*ratio mean* ``m = sum_f S_f / sum_f N_f`` (``S_f`` the sum of a per-task value over family f's
tasks, ``N_f`` their number), or a linear combination ``sum_j w_j m_j`` of such means over the same
families (a paired difference). A quartile over tasks is handled through a ratio mean too
(Woodruff's interval, below).

**Interval (bootstrap-t).** Families are drawn with replacement (``F`` draws, counts ``c``). In
every resample the estimate ``m* = sum_j w_j (c . S_j) / (c . N_j)`` and its linearised cluster
standard error, closed form:

``se*^2 = F / (F - 1) * sum_f c_f u_f^2``, ``u_f = sum_j w_j (S_jf - m*_j N_jf) / (c . N_j)``

(for one ratio: ``F/(F-1) (c.S^2 - 2 m c.SN + m^2 c.N^2) / (c.N)^2``), expanded into products of
``c`` with fixed per-family columns, so a whole batch of resamples is one matrix product. The
studentized ``t* = (m* - m) / se*`` gives the interval ``[m - se q*(1 - a), m - se q*(a)]``
(Hall 1992; Cameron, Gelbach & Miller 2008 for few clusters). Percentile cluster intervals
under-cover with 35 or 73 families; the bootstrap-t is second-order accurate.

**Working scale and a floor on the resamples' SE.** A mean with a bounded range ``[b0, b1]`` (a share, a mean rank
correlation, a difference of two) is studentized on Fisher's z scale of that range (:func:`to_work`:
``z = atanh(2 (m - b0) / (b1 - b0) - 1)``, Fisher's z of a correlation and half the logit of a share,
with the delta-method SE; ends within :data:`RANGE_EPS` of the range are taken at it) and its interval
ends mapped back, so they lie in the range. Each resample's SE is floored at the SE of the sample it is
drawn from (:data:`SE_FLOOR` = 1: ``t* = (z* - z) / max(se*, se)``, and the same inside the double
bootstrap, ``se_o`` for the inner resamples of outer sample ``o``): a resample that drops the few
families with outlying values has a tiny ``se*``, and without the floor its ``t*`` explodes and drags
an interval end far out of the range (issue 40: the default study's mean AUPR-AUROC rank correlation
0.794 had the Holm interval [-0.290, 0.939]). With the floor, ``t*`` is the basic bootstrap's pivot
where the resample is less variable than the sample and the studentized one where it is more: the
heavy tail that under-covers is kept, the one that only adds Monte Carlo noise is cut. Quartiles
(below) and unbounded statistics are studentized on their own scale with the same floor. Which of
these variants the studies use was chosen by measuring coverage and MC error on both studies
(``docs/verdicts.md``).

**Coverage measured, level corrected (double bootstrap).** Each of ``n_out`` outer resamples of the
families (a sample from the study taken as the population, its estimate the truth) gets ``n_in`` inner
resamples (:func:`double_u`); ``u_o``, the position of the truth's pivot ``T_o = (m_o - m) / se_o``
among the inner ``t**``, says whether the outer sample's interval at nominal tail ``a`` misses the
truth (``u_o < a`` above the upper end, ``u_o > 1 - a`` below the lower end). The measured miss rate of
a tail is fitted by a probit-linear curve (:func:`calibration_fit`) and a tail that misses more often
than its target ``a`` gets the corrected nominal ``G^-1(a)`` (:func:`corrected_tails`; Beran 1987,
Hall 1992 sec. 3.11: the calibrated double bootstrap). A tail that covers keeps ``a``.

**Quartiles (Woodruff 1952).** The ``q``-quantile's interval is ``[Q(q - se q*(1 - a)),
Q(q - se q*(a))]`` with ``Q`` the tasks' quantile function (numpy, linear) and the bootstrap-t
quantiles of the ratio mean of ``1{x <= Q(q)}`` (the share of tasks at or below the estimate);
its coverage is that of the share's interval, measured as above (the interval inverts a test of
the share at the true quartile; Francisco & Fuller 1991, Sitter & Wu 2001).

**Monte Carlo error by rerunning.** :func:`run` draws ``replicates`` independent sets of
resamples (seeds spawned from the seed by ``numpy.random.SeedSequence``), each with its own
correction; each interval end is the mean of the replicates' ends, and its Monte Carlo error the
standard deviation of that end over the replicates divided by ``sqrt(replicates)``: measured, not by
formula, and the error of exactly the end reported (a quantile of the pooled draws is not a mean, and
on a lumpy ``t*`` distribution it moved three times further between seeds than that error said).

Degenerate resamples (a standard error of 0: every drawn family alike) give ``t = 0`` when the
estimate did not move and ``+-inf`` otherwise; quantiles are ``inverted_cdf`` (no interpolation
across an infinite value).

One module of about 520 lines on purpose: the interval, its double-bootstrap calibration and the
reruns that measure its Monte Carlo error share the per-family moment columns and must change together.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import stats as st
from scipy.special import ndtr, ndtri

from prspace.stats.family_bootstrap import draw_families

#: Two-sided error levels on which p-values are read off the intervals (:func:`Result.decide_alpha`).
ALPHA_GRID = np.geomspace(1e-6, 1.0, 1400)


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
#: Floor of a resample's standard error, as a share of the standard error of the sample it is drawn
#: from (on the working scale): a resample that drops the few outlying families cannot make ``t*``
#: explode.
SE_FLOOR = 1.0


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
            np.arctanh(r, out=z[..., k])
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
    return b0 + (b1 - b0) * (np.tanh(z) + 1.0) / 2.0


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

    def evaluate(self, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Estimates and standard errors ``(B, K)`` for counts ``c`` ``(B, F)`` (column-major: each
        statistic's column is contiguous)."""
        # one row per distinct moment column, contiguous: the arithmetic below runs along rows
        P = np.ascontiguousarray((c @ self.M).T)
        inv = self.inverse
        B = c.shape[0]
        est = np.empty((len(self.stats), B))
        se = np.empty((len(self.stats), B))
        scale = self.F / (self.F - 1.0) if self.F > 1 else np.nan
        tmp, cross = np.empty(B), np.empty(B)
        with np.errstate(invalid="ignore", divide="ignore"):
            for i, (s, (base, J)) in enumerate(zip(self.stats, self.layout, strict=True)):
                Nx = [P[inv[base + J + j]] for j in range(J)]
                m = np.empty((B, J))  # the (B, J) array of before, so that ``m @ w`` sums as it did
                for j in range(J):
                    m[:, j] = P[inv[base + j]] / Nx[j]
                mc = [m[:, j].copy() for j in range(J)]
                est[i] = m @ s.w
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


def _tstat(est: np.ndarray, centre: np.ndarray, se: np.ndarray, se_ref: np.ndarray | None = None) -> np.ndarray:
    """``(est - centre) / max(se, SE_FLOOR * se_ref)`` with the degenerate cases of the module docstring."""
    if se_ref is not None:
        se = np.fmax(se, se_ref if SE_FLOOR == 1.0 else SE_FLOOR * se_ref)
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
        t1[:, start:start + n] = _tstat(e1, est0, s1, se0).T
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
        T = _tstat(e1, est0, s1, se0).T  # (K, n)
        _, c2 = counts(rng, idx, F, n * n_in, n_in)
        e2, s2 = to_work(stats, *mom.evaluate(c2))
        # (K, n, n_in) views of the column-major (n * n_in, K) results, each outer sample's inner ones together
        t2 = _tstat(e2.T.reshape(K, n, n_in), e1.T[:, :, None], s2.T.reshape(K, n, n_in), s1.T[:, :, None])
        below = (t2 < T[:, :, None]).mean(axis=2) + 0.5 * (t2 == T[:, :, None]).mean(axis=2)
        u[:, start:start + n] = np.where(np.isnan(T), 0.5, below)
    return u


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
        lo_tail = a0 - (a1 - a0) / np.log(10.0) * np.log(p0 / np.clip(p, 1e-300, None))
        hi_tail = b0 + (b0 - b1) / np.log(10.0) * np.log(p0 / np.clip(1 - p, 1e-300, None))
    out = np.where(p < p0, np.where(np.isfinite(lo_tail), lo_tail, out), out)
    return np.where(p > 1 - p0, np.where(np.isfinite(hi_tail), hi_tail, out), out)


#: Nominal tails the calibration curve is fitted on (module docstring).
CALIBRATION_TAILS = np.geomspace(0.01, 0.3, 16)


def calibration_fit(u: np.ndarray) -> np.ndarray:
    """Per statistic ``(K, 4)``: the probit-linear fit ``probit(G(x)) = c0 + c1 probit(x)`` of the
    measured miss rate ``G`` of a nominal tail ``x`` (:data:`CALIBRATION_TAILS`) above the upper end
    (``u < x``: columns 0, 1) and below the lower end (``u > 1 - x``: columns 2, 3)."""

    K, n = u.shape
    X = ndtri(CALIBRATION_TAILS)
    out = np.empty((K, 4))
    for k in range(K):
        for j, G in enumerate(((u[k][None, :] < CALIBRATION_TAILS[:, None]).mean(axis=1),
                               (u[k][None, :] > 1.0 - CALIBRATION_TAILS[:, None]).mean(axis=1))):
            y = ndtri(np.clip(G, 0.5 / n, 1.0 - 0.5 / n))
            c1, c0 = np.polyfit(X, y, 1)
            out[k, 2 * j:2 * j + 2] = (c0, max(c1, 0.2))
    return out


def corrected_tails(fit: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nominal tails ``(a_lo, a_hi)`` ``(K, A)`` at which the fitted miss rates are the target tails
    ``a`` ``(A,)``: ``G^-1(a)``, never above ``a`` (a tail that covers is not narrowed)."""

    A = ndtri(np.clip(np.asarray(a, dtype=np.float64), 1e-300, 1.0))[None, :]
    lo = ndtr((A - fit[:, 0:1]) / fit[:, 1:2])
    hi = ndtr((A - fit[:, 2:3]) / fit[:, 3:4])
    a2 = np.broadcast_to(np.asarray(a, dtype=np.float64)[None, :], lo.shape)
    return np.minimum(a2, lo), np.minimum(a2, hi)


def fitted_miss(fit: np.ndarray, a_lo: np.ndarray, a_hi: np.ndarray) -> np.ndarray:
    """The fitted miss rate (both tails) of nominal tails ``a_lo``, ``a_hi`` ``(K, A)``."""

    return (ndtr(fit[:, 0:1] + fit[:, 1:2] * ndtri(np.clip(a_lo, 1e-300, 1)))
            + ndtr(fit[:, 2:3] + fit[:, 3:4] * ndtri(np.clip(a_hi, 1e-300, 1))))


@dataclass
class Result:
    """Estimates, standard errors, the pooled / per-rerun sorted ``t*`` and the double bootstrap's
    ``u`` of :func:`run`; intervals at any level by :meth:`interval`."""

    stats: list[Stat]
    estimate: np.ndarray
    se: np.ndarray
    t1: np.ndarray
    u: np.ndarray
    reps: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    B: int = 0

    def _ends(self, t1: np.ndarray, u: np.ndarray | None, alpha: np.ndarray, k0: int = 0
              ) -> tuple[np.ndarray, np.ndarray]:
        a = np.asarray(alpha, dtype=np.float64) / 2.0
        K = t1.shape[0]
        if u is not None:
            a_lo, a_hi = corrected_tails(calibration_fit(u), a)
        else:
            a_lo = a_hi = np.broadcast_to(a, (K, len(a)))
        q_lo, q_hi = _q(t1, a_lo), _q(t1, 1.0 - a_hi)
        sts = self.stats[k0:k0 + K]
        z, sz = to_work(sts, self.estimate[None, k0:k0 + K], self.se[None, k0:k0 + K])
        se = self.se[k0:k0 + K, None]
        with np.errstate(invalid="ignore"):
            lo, hi = z[0][:, None] - sz[0][:, None] * q_hi, z[0][:, None] - sz[0][:, None] * q_lo
        for k in range(K):
            st = sts[k]
            lo[k], hi[k] = from_work(st, lo[k]), from_work(st, hi[k])
            b0, b1 = st.bounds
            lo[k], hi[k] = np.clip(lo[k], b0, b1), np.clip(hi[k], b0, b1)
        for k in range(K):
            s = self.stats[k0 + k]
            if s.quantile is not None:
                x = s.x
                if x is None or not len(x):
                    lo[k], hi[k] = np.nan, np.nan
                    continue
                with np.errstate(invalid="ignore"):
                    plo = np.clip(s.quantile - se[k] * q_hi[k], 0.0, 1.0)
                    phi = np.clip(s.quantile - se[k] * q_lo[k], 0.0, 1.0)
                lo[k], hi[k] = np.quantile(x, np.nan_to_num(plo)), np.quantile(x, np.nan_to_num(phi, nan=1.0))
        return lo, hi

    def _mean_ends(self, alpha: np.ndarray, k0: int, K: int, calibrate: bool) -> tuple[np.ndarray, np.ndarray]:
        """``(lo, hi)`` ``(K, A)``: the mean over the reruns of each rerun's ends (its own draws and its own
        correction), so that the SD over the reruns / sqrt(reruns) (:meth:`mc_error`) is the Monte Carlo
        error of exactly these ends. A pooled quantile is not such a mean: on a share over few families the
        ``t*`` distribution is lumpy and the pooled quantile jumps between its atoms with the corrected
        level, three times further than that error said (issue 40's five-seed test). With fewer than two
        reruns, or a rerun's end not finite (a degenerate few-family bootstrap), the pooled ends."""
        if len(self.reps) >= 2:
            ends = [self._ends(t1[k0:k0 + K], u[k0:k0 + K] if calibrate else None, alpha, k0) for t1, u in self.reps]
            lo = np.mean([e[0] for e in ends], axis=0)
            hi = np.mean([e[1] for e in ends], axis=0)
            if np.isfinite(lo).all() and np.isfinite(hi).all():
                return lo, hi
        return self._ends(self.t1[k0:k0 + K], self.u[k0:k0 + K] if calibrate else None, alpha, k0)

    def interval(self, alpha: np.ndarray | float, *, calibrate: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``(lo, hi)`` ``(K, A)`` at every two-sided error of the grid ``alpha`` ``(A,)``: each end the mean
        of the reruns' ends (:meth:`_mean_ends`), the level corrected by the double bootstrap (``calibrate``)."""
        return self._mean_ends(np.atleast_1d(np.asarray(alpha, dtype=np.float64)), 0, len(self.stats), calibrate)

    def interval_at(self, alpha: np.ndarray, *, calibrate: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``(lo, hi)`` ``(K,)`` at each statistic's own two-sided error ``alpha`` ``(K,)``."""
        al = np.asarray(alpha, dtype=np.float64)
        lo, hi = np.empty(len(self.stats)), np.empty(len(self.stats))
        for k in range(len(self.stats)):
            a, b = self._mean_ends(al[k:k + 1], k, 1, calibrate)
            lo[k], hi[k] = a[0, 0], b[0, 0]
        return lo, hi

    def mc_error(self, alpha: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Monte Carlo SE of each end (:meth:`interval_at`) at each statistic's ``alpha`` ``(K,)``: the SD of the
        end over the reruns (each with its own draws and its own correction) / sqrt(reruns)."""
        al = np.asarray(alpha, dtype=np.float64)
        los, his = [], []
        for t1, u in self.reps:
            lo = np.empty(len(self.stats))
            hi = np.empty(len(self.stats))
            for k in range(len(self.stats)):
                a, b = self._ends(t1[k:k + 1], u[k:k + 1], al[k:k + 1], k)
                lo[k], hi[k] = a[0, 0], b[0, 0]
            los.append(lo)
            his.append(hi)
        r = len(self.reps)
        if r < 2:
            return np.full(len(self.stats), np.nan), np.full(len(self.stats), np.nan)
        with np.errstate(invalid="ignore"):  # an infinite end (a degenerate few-family bootstrap) has no finite error
            return np.std(los, axis=0, ddof=1) / np.sqrt(r), np.std(his, axis=0, ddof=1) / np.sqrt(r)

    def coverage(self, alpha: np.ndarray) -> dict[str, np.ndarray]:
        """Coverage at each statistic's ``alpha`` ``(K,)`` measured by the double bootstrap:
        ``plain``, the uncorrected bootstrap-t's (the share of outer samples whose interval covers the
        truth), with its binomial SE ``plain_se``; ``corrected``, the corrected interval's, held out
        (the reruns split in two halves, the level corrected on one half and its miss rate fitted on
        the other, averaged both ways)."""
        a = np.asarray(alpha, dtype=np.float64) / 2.0
        K, n = self.u.shape
        miss = (self.u < a[:, None]).mean(axis=1) + (self.u > 1.0 - a[:, None]).mean(axis=1)
        plain = 1.0 - miss
        halves = [self.reps[0::2], self.reps[1::2]] if len(self.reps) > 1 else [self.reps, self.reps]
        us = [np.concatenate([x[1] for x in h], axis=1) for h in halves]
        fits = [calibration_fit(x) for x in us]
        corr = np.zeros(K)
        for k in range(K):
            for f_cal, f_meas in ((fits[0], fits[1]), (fits[1], fits[0])):
                lo, hi = corrected_tails(f_cal[k:k + 1], a[k:k + 1])
                corr[k] += 0.5 * (1.0 - fitted_miss(f_meas[k:k + 1], lo, hi)[0, 0])
        return {"plain": plain, "plain_se": np.sqrt(plain * (1.0 - plain) / n), "corrected": corr,
                "corrected_mc_se": np.sqrt(np.clip(corr * (1.0 - corr), 0, None) / n)}


def _sub(res: Result, k: int) -> Result:
    sub = Result([res.stats[k]], res.estimate[k:k + 1], res.se[k:k + 1], res.t1[k:k + 1], res.u[k:k + 1],
                 [(t1[k:k + 1], u[k:k + 1]) for t1, u in res.reps], res.B)
    return sub


#: Outer and inner resamples of the double bootstrap (over all reruns; :func:`run`).
DOUBLE_OUTER, DOUBLE_INNER = 100_000, 250


def run(stats: list[Stat], *, B: int, seed: int | list, replicates: int = 5, n_out: int = DOUBLE_OUTER,
        n_in: int = DOUBLE_INNER) -> Result:
    """The bootstrap-t of :func:`draw` (``B`` resamples per rerun) and the double bootstrap of
    :func:`double_u` (``n_out / replicates`` outer resamples per rerun, ``n_in`` inner ones each),
    over ``replicates`` independent seeds (spawned from ``seed``): each end the mean of the
    replicates' ends, its Monte Carlo error their spread."""
    if not stats:
        raise ValueError("no statistic to bootstrap")
    F = {s.n_families for s in stats}
    if len(F) != 1:
        raise ValueError(f"the statistics are over different numbers of families {sorted(F)}; bootstrap them apart")
    mom = _Moments(stats)
    est, se = mom.evaluate(np.ones((1, mom.F)))
    est, se = est[0].copy(), se[0]
    for k, s in enumerate(stats):
        if s.quantile is not None:
            est[k] = float(np.quantile(s.x, s.quantile)) if s.x is not None and len(s.x) else np.nan
    reps = []
    for ss in np.random.SeedSequence(seed).spawn(replicates):
        a, b = ss.spawn(2)
        reps.append((draw(stats, B=B, seed=a), double_u(stats, n_out=max(n_out // replicates, 20), n_in=n_in, seed=b)))
    # each rerun is sorted: a stable (merging) sort of their concatenation is fast
    t1 = np.sort(np.concatenate([r[0] for r in reps], axis=1), axis=1, kind="stable")
    u = np.concatenate([r[1] for r in reps], axis=1)
    return Result(stats, est, se, t1, u, reps, B)


#: Outcome codes of :func:`outcomes` (the four of an equivalence-plus-difference test, Lakens,
#: Scheel & Isager 2018).
INCONCLUSIVE, EQUIVALENT, BY_LESS, DIFFERENT = 0, 1, 2, 3
_EPS = 1e-12


def outcomes(lo: np.ndarray, hi: np.ndarray, value: float, margin: float) -> np.ndarray:
    """Outcome code of each interval ``[lo, hi]`` against ``value +- margin``: EQUIVALENT (within the
    margin, containing the value), BY_LESS (within the margin, excluding the value), DIFFERENT
    (wholly beyond the margin), else INCONCLUSIVE."""
    lo, hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
    within = (lo >= value - margin - _EPS) & (hi <= value + margin + _EPS)
    beyond = (lo > value + margin + _EPS) | (hi < value - margin - _EPS)
    excludes = (lo > value) | (hi < value)
    out = np.full(lo.shape, INCONCLUSIVE)
    out[within] = EQUIVALENT
    out[within & excludes] = BY_LESS
    out[beyond] = DIFFERENT
    out[~(np.isfinite(lo) & np.isfinite(hi))] = INCONCLUSIVE
    return out


def decision_p(lo_grid: np.ndarray, hi_grid: np.ndarray, value: float, margin: float,
               alphas: np.ndarray = ALPHA_GRID) -> float:
    """The smallest two-sided error of the grid at which the interval decides (any outcome but
    INCONCLUSIVE): the p-value of "decided" read off the intervals, so that a p-value at most
    ``a`` and a deciding interval at level ``1 - a`` are the same event (to the grid's 1.2% steps,
    rounded up). 1 when no interval of the grid decides."""
    ok = outcomes(lo_grid, hi_grid, value, margin) != INCONCLUSIVE
    return float(alphas[np.argmax(ok)]) if ok.any() else 1.0


def weighted_quantiles(x_sorted: np.ndarray, weights: np.ndarray, q: float | np.ndarray) -> np.ndarray:
    """``numpy.quantile(np.repeat(x_sorted, w), q_b)`` (linear) for every row ``w`` of ``weights``
    (``(B, n)`` non-negative integers: how often each task was drawn) and its own ``q_b`` (``q``: one
    for all rows or one per row, clipped to [0, 1]), without building the repeated arrays; NaN for a
    row of zero total weight (no task drawn)."""
    cw = np.cumsum(weights, axis=1)
    total = cw[:, -1]
    h = (total - 1) * np.clip(q, 0.0, 1.0)
    j = np.floor(h)
    frac = h - j
    n = len(x_sorted)
    i0 = np.minimum((cw <= j[:, None]).sum(axis=1), n - 1)
    i1 = np.minimum((cw <= (j + 1)[:, None]).sum(axis=1), n - 1)
    with np.errstate(invalid="ignore"):
        v = x_sorted[i0] + frac * (x_sorted[i1] - x_sorted[i0])
    return np.where(total > 0, v, np.nan)


#: Numbers of families the power of :func:`families_for_power` is simulated at.
POWER_GRID = np.unique(np.round(np.geomspace(5, 20_000, 36)).astype(int))
#: The power a population must give to decide.
TARGET_POWER = 0.8


def power_curve(stat: Stat, value: float, margin: float, alpha: float, *, seed: int, reps: int = 400,
                grid: np.ndarray = POWER_GRID) -> tuple[np.ndarray, np.ndarray]:
    """Power to decide (any outcome but INCONCLUSIVE) at two-sided error ``alpha`` when ``G``
    families are drawn with replacement from the study's families (the study as the population,
    its estimate the truth), for each ``G`` of ``grid``: ``reps`` simulated studies each, each
    decided by the studentized interval ``m +- t_{G-1} se`` (the bootstrap-t's critical values tend
    to Student's t as families grow; at this study's size the bootstrap's own are used in the
    verdict). A quartile (``stat.quantile``) takes Woodruff's interval with the tasks' quantile
    function of the simulated study. Returns
    ``(grid, power)``."""

    mom = _Moments([stat])
    F = mom.F
    if F < 2:  # one family: no between-family spread to draw studies from, nothing to simulate
        return np.asarray(grid), np.full(len(grid), np.nan)
    rng = np.random.default_rng(seed)
    power = np.empty(len(grid))
    for g, G in enumerate(grid):
        c = rng.multinomial(int(G), np.full(F, 1.0 / F), size=reps).astype(np.float64)
        est, se = mom.evaluate(c)
        se = se[:, 0] * np.sqrt((G / (G - 1.0)) / (F / (F - 1.0)))
        crit = st.t.ppf(1.0 - alpha / 2.0, max(int(G) - 1, 1))
        if stat.quantile is None:
            lo, hi = est[:, 0] - crit * se, est[:, 0] + crit * se
        else:
            w = c[:, stat.x_family]
            lo = weighted_quantiles(stat.x, w, stat.quantile - crit * se)
            hi = weighted_quantiles(stat.x, w, stat.quantile + crit * se)
        power[g] = float(np.mean(outcomes(lo, hi, value, margin) != INCONCLUSIVE))
    return np.asarray(grid), power


def families_for_power(grid: np.ndarray, power: np.ndarray, target: float = TARGET_POWER) -> float:
    """The fewest families of the grid from which on the simulated power stays at or above
    ``target`` (NaN: not within the grid)."""
    ok = power >= target
    if not ok[-1]:
        return float("nan")
    last_bad = np.flatnonzero(~ok)
    return float(grid[0] if not len(last_bad) else grid[last_bad[-1] + 1])
