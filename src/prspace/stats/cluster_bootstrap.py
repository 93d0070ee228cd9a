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

**Coverage measured, level corrected (fast double bootstrap).** Every outer resample (a sample of
families from the study's families, the study being the population and its estimate the truth)
gets one inner resample drawn from it, ``t** = (m** - m*) / se**`` (Davidson & MacKinnon 2007;
Chang & Hall 2015: one inner resample per outer one). In this double world the interval of an
outer sample misses the truth above its upper end when ``t* < q**(a)``, so the measured miss
rate of a nominal tail ``a`` is ``F*(q**(a))`` (and ``1 - F*(q**(1 - a))`` below). Where a tail
misses more often than its nominal ``a``, its nominal level is corrected to
``a' = F**(q*(a))`` (the calibrated double bootstrap): ``F*(q**(a')) = a`` in the double world.
A tail that already covers keeps ``a`` (never narrowed).

**Quartiles (Woodruff 1952).** The ``q``-quantile's interval is ``[Q(q - se q*(1 - a)),
Q(q - se q*(a))]`` with ``Q`` the tasks' quantile function (numpy, linear) and the bootstrap-t
quantiles of the ratio mean of ``1{x <= Q(q)}`` (the share of tasks at or below the estimate);
its coverage is that of the share's interval, measured as above (the interval inverts a test of
the share at the true quartile; Francisco & Fuller 1991, Sitter & Wu 2001).

**Monte Carlo error by rerunning.** :func:`run` draws ``replicates`` independent sets of
resamples (seeds spawned from the seed by ``numpy.random.SeedSequence``); the interval comes from
all of them pooled and the Monte Carlo error of each end is the standard deviation of that end over
the replicates divided by ``sqrt(replicates)``, measured, not by formula.

Degenerate resamples (a standard error of 0: every drawn family alike) give ``t = 0`` when the
estimate did not move and ``+-inf`` otherwise; quantiles are ``inverted_cdf`` (no interpolation
across an infinite value).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

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

    @property
    def n_families(self) -> int:
        return int(self.S.shape[0])


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


def counts(rng: np.random.Generator, weights_idx: np.ndarray | None, F: int, B: int) -> tuple[np.ndarray, np.ndarray]:
    """``B`` resamples of ``F`` families: the drawn family ids ``(B, F)`` and their counts ``(B, F)``
    (float64). ``weights_idx``: draw from these rows of family ids (an inner resample of each
    outer one) instead of from ``0..F-1``."""
    pos = rng.integers(0, F, size=(B, F))
    idx = pos if weights_idx is None else np.take_along_axis(weights_idx, pos, axis=1)
    flat = (idx + F * np.arange(B)[:, None]).ravel()
    c = np.bincount(flat, minlength=B * F).reshape(B, F).astype(np.float64)
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
        """Estimates and standard errors ``(B, K)`` for counts ``c`` ``(B, F)``."""
        P = (c @ self.M)[:, self.inverse]
        B = c.shape[0]
        est = np.empty((B, len(self.stats)))
        se = np.empty((B, len(self.stats)))
        scale = self.F / (self.F - 1.0) if self.F > 1 else np.nan
        with np.errstate(invalid="ignore", divide="ignore"):
            for i, (s, (base, J)) in enumerate(zip(self.stats, self.layout, strict=True)):
                Sx, Nx = P[:, base:base + J], P[:, base + J:base + 2 * J]
                m = Sx / Nx
                est[:, i] = m @ s.w
                var = np.zeros(B)
                o = base + 2 * J
                for j in range(J):
                    for k in range(J):
                        ss, sn, ns, nn = P[:, o], P[:, o + 1], P[:, o + 2], P[:, o + 3]
                        o += 4
                        cross = ss - m[:, k] * sn - m[:, j] * ns + m[:, j] * m[:, k] * nn
                        var += s.w[j] * s.w[k] * cross / (Nx[:, j] * Nx[:, k])
                se[:, i] = np.sqrt(np.maximum(var * scale, 0.0))
        return est, se


def _tstat(est: np.ndarray, centre: np.ndarray, se: np.ndarray) -> np.ndarray:
    d = est - centre
    with np.errstate(invalid="ignore", divide="ignore"):
        t = d / se
    with np.errstate(invalid="ignore"):
        t = np.where(se > 0, t, np.where(d == 0, 0.0, np.sign(d) * np.inf))
    return np.where(np.isfinite(est) & np.isfinite(centre), t, np.nan)


def draw(stats: list[Stat], *, B: int, seed: int | np.random.SeedSequence, chunk: int = 20_000
         ) -> tuple[np.ndarray, np.ndarray]:
    """Sorted ``t*`` and ``t**`` ``(K, B)`` of every statistic: ``B`` outer resamples of the
    families and one inner resample of each (module docstring). NaN replicates (a resample with
    no task for a statistic) are dropped and the rest padded by repeating: none occur when every
    family holds a task of every statistic."""
    mom = _Moments(stats)
    F = mom.F
    est0, se0 = mom.evaluate(np.ones((1, F)))
    rng = np.random.default_rng(seed)
    t1 = np.empty((len(stats), B))
    t2 = np.empty((len(stats), B))
    for start in range(0, B, chunk):
        n = min(chunk, B - start)
        idx, c1 = counts(rng, None, F, n)
        e1, s1 = mom.evaluate(c1)
        _, c2 = counts(rng, idx, F, n)
        e2, s2 = mom.evaluate(c2)
        t1[:, start:start + n] = _tstat(e1, est0, s1).T
        t2[:, start:start + n] = _tstat(e2, e1, s2).T
    for t in (t1, t2):
        bad = ~np.isfinite(t) & ~np.isinf(t)
        if bad.any():
            for k in np.flatnonzero(bad.any(axis=1)):
                good = t[k][~bad[k]]
                t[k] = np.resize(good, B) if len(good) else 0.0
        t.sort(axis=1)
    return t1, t2


def _q(sorted_t: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Quantiles (inverted cdf) of each row of ``sorted_t`` ``(K, B)`` at ``p`` ``(K, A)``."""
    B = sorted_t.shape[1]
    i = np.clip(np.ceil(np.asarray(p) * B).astype(np.int64) - 1, 0, B - 1)
    return np.take_along_axis(sorted_t, i, axis=1)


def _F(sorted_t: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Empirical cdf of each row of ``sorted_t`` at ``x`` ``(K, A)``."""
    B = sorted_t.shape[1]
    return np.stack([np.searchsorted(sorted_t[k], x[k], side="right") for k in range(sorted_t.shape[0])]) / B


def calibrated_tails(t1: np.ndarray, t2: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Corrected nominal tails ``(a_lo, a_hi)`` ``(K, A)`` for target one-sided tails ``a``
    ``(A,)``: ``a_lo`` sets the upper end (``q*(a_lo)``), ``a_hi`` the lower end (``q*(1 - a_hi)``);
    each ``min(a, F**(q*(a)))`` (module docstring)."""
    K = t1.shape[0]
    A = np.broadcast_to(np.asarray(a, dtype=np.float64), (K, len(np.atleast_1d(a))))
    lo = np.minimum(A, _F(t2, _q(t1, A)))
    hi = np.minimum(A, 1.0 - _F(t2, _q(t1, 1.0 - A)))
    return np.maximum(lo, 0.0), np.maximum(hi, 0.0)


def measured_miss(t1: np.ndarray, t2: np.ndarray, a_lo: np.ndarray, a_hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Miss rates in the double world of an interval with nominal tails ``a_lo`` (upper end) and
    ``a_hi`` (lower end), ``(K, A)`` each: truth above the upper end ``F*(q**(a_lo))``, below the
    lower end ``1 - F*(q**(1 - a_hi))``."""
    above = _F(t1, _q(t2, a_lo))
    below = 1.0 - _F(t1, _q(t2, 1.0 - a_hi))
    return above, below


@dataclass
class Result:
    """Estimates, standard errors and the pooled / per-replicate ``t*``, ``t**`` of
    :func:`run`; intervals at any level by :meth:`interval`."""

    stats: list[Stat]
    estimate: np.ndarray
    se: np.ndarray
    t1: np.ndarray
    t2: np.ndarray
    reps: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    B: int = 0

    def _ends(self, t1: np.ndarray, t2: np.ndarray, alpha: np.ndarray, calibrate: bool = True
              ) -> tuple[np.ndarray, np.ndarray]:
        a = np.asarray(alpha, dtype=np.float64) / 2.0
        K = len(self.stats)
        if calibrate:
            a_lo, a_hi = calibrated_tails(t1, t2, a)
        else:
            a_lo = a_hi = np.broadcast_to(a, (K, len(a)))
        q_lo, q_hi = _q(t1, a_lo), _q(t1, 1.0 - a_hi)
        est, se = self.estimate[:, None], self.se[:, None]
        lo, hi = est - se * q_hi, est - se * q_lo
        for k, s in enumerate(self.stats):
            if s.quantile is not None:
                x = s.x
                if x is None or not len(x):
                    lo[k], hi[k] = np.nan, np.nan
                    continue
                plo = np.clip(s.quantile - self.se[k] * q_hi[k], 0.0, 1.0)
                phi = np.clip(s.quantile - self.se[k] * q_lo[k], 0.0, 1.0)
                lo[k], hi[k] = np.quantile(x, plo), np.quantile(x, phi)
        return lo, hi

    def interval(self, alpha: np.ndarray | float, *, calibrate: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``(lo, hi)`` ``(K, A)`` at every two-sided error of the grid ``alpha`` ``(A,)``, from the pooled replicates."""
        return self._ends(self.t1, self.t2, np.atleast_1d(np.asarray(alpha, dtype=np.float64)), calibrate)

    def interval_at(self, alpha: np.ndarray, *, calibrate: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``(lo, hi)`` ``(K,)`` at each statistic's own two-sided error ``alpha`` ``(K,)``."""
        al = np.asarray(alpha, dtype=np.float64)
        lo, hi = np.empty(len(self.stats)), np.empty(len(self.stats))
        for k in range(len(self.stats)):
            s = _sub(self, k)
            a, b = s._ends(s.t1, s.t2, al[k:k + 1], calibrate)
            lo[k], hi[k] = a[0, 0], b[0, 0]
        return lo, hi

    def mc_error(self, alpha: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Monte Carlo SE of each pooled end at each statistic's ``alpha`` ``(K,)``: the SD of the
        end over the replicates / sqrt(replicates) (module docstring)."""
        al = np.asarray(alpha, dtype=np.float64)
        los, his = [], []
        for t1, t2 in self.reps:
            lo = np.empty(len(self.stats))
            hi = np.empty(len(self.stats))
            for k in range(len(self.stats)):
                s = _sub(self, k, t1[k:k + 1], t2[k:k + 1])
                a, b = s._ends(s.t1, s.t2, al[k:k + 1])
                lo[k], hi[k] = a[0, 0], b[0, 0]
            los.append(lo)
            his.append(hi)
        r = len(self.reps)
        if r < 2:
            return np.full(len(self.stats), np.nan), np.full(len(self.stats), np.nan)
        with np.errstate(invalid="ignore"):  # an infinite end (a degenerate few-family bootstrap) has no finite error
            return np.std(los, axis=0, ddof=1) / np.sqrt(r), np.std(his, axis=0, ddof=1) / np.sqrt(r)

    def coverage(self, alpha: np.ndarray) -> dict[str, np.ndarray]:
        """Measured coverage at each statistic's ``alpha`` ``(K,)`` in the double world:
        ``plain`` (the uncorrected bootstrap-t, pooled draws) and ``corrected`` (each replicate's
        draws measuring the interval corrected on the other replicates: held out), with the
        corrected one's Monte Carlo SE over the replicates."""
        al = np.asarray(alpha, dtype=np.float64)[:, None] / 2.0
        K = len(self.stats)
        plain = np.empty(K)
        for k in range(K):
            ab, be = measured_miss(self.t1[k:k + 1], self.t2[k:k + 1], al[k:k + 1], al[k:k + 1])
            plain[k] = 1.0 - ab[0, 0] - be[0, 0]
        # held out: the replicates split in two halves, each measured with the level corrected on the other
        halves = [self.reps[0::2], self.reps[1::2]] if len(self.reps) > 1 else [self.reps, self.reps]
        pooled = [(np.sort(np.concatenate([x[0] for x in h], axis=1), axis=1, kind="stable"),
                   np.sort(np.concatenate([x[1] for x in h], axis=1), axis=1, kind="stable")) for h in halves]
        tails = []
        for o1, o2 in pooled[::-1]:
            tails.append([calibrated_tails(o1[k:k + 1], o2[k:k + 1], al[k]) for k in range(K)])
        held = []
        for half, tl in zip(halves, tails, strict=True):
            for t1, t2 in half:
                cov = np.empty(K)
                for k in range(K):
                    ab, be = measured_miss(t1[k:k + 1], t2[k:k + 1], *tl[k])
                    cov[k] = 1.0 - ab[0, 0] - be[0, 0]
                held.append(cov)
        h = np.array(held)
        se = h.std(axis=0, ddof=1) / np.sqrt(len(h)) if len(h) > 1 else np.full(K, np.nan)
        # the binomial floor: a coverage measured on the pooled draws cannot be known better than this
        binom = np.sqrt(np.clip(h.mean(axis=0), 0, 1) * np.clip(1 - h.mean(axis=0), 0, 1) / max(self.t1.shape[1], 1))
        return {"plain": plain, "corrected": h.mean(axis=0), "corrected_mc_se": np.fmax(se, binom)}


def _sub(res: Result, k: int, t1: np.ndarray | None = None, t2: np.ndarray | None = None) -> Result:
    return Result([res.stats[k]], res.estimate[k:k + 1], res.se[k:k + 1],
                  res.t1[k:k + 1] if t1 is None else t1, res.t2[k:k + 1] if t2 is None else t2, [], res.B)


def run(stats: list[Stat], *, B: int, seed: int, replicates: int = 5) -> Result:
    """The bootstrap of :func:`draw` over ``replicates`` independent seeds (spawned from ``seed``),
    ``B`` outer resamples each; pooled for the intervals, apart for their Monte Carlo error."""
    if not stats:
        raise ValueError("no statistic to bootstrap")
    F = {s.n_families for s in stats}
    if len(F) != 1:
        raise ValueError(f"the statistics are over different numbers of families {sorted(F)}; bootstrap them apart")
    mom = _Moments(stats)
    est, se = mom.evaluate(np.ones((1, mom.F)))
    est, se = est[0], se[0]
    for k, s in enumerate(stats):
        if s.quantile is not None:
            est[k] = float(np.quantile(s.x, s.quantile)) if s.x is not None and len(s.x) else np.nan
            se[k] = mom.evaluate(np.ones((1, mom.F)))[1][0, k]
    reps = [draw(stats, B=B, seed=ss) for ss in np.random.SeedSequence(seed).spawn(replicates)]
    # each replicate is sorted: a stable (merging) sort of their concatenation is fast
    t1 = np.sort(np.concatenate([r[0] for r in reps], axis=1), axis=1, kind="stable")
    t2 = np.sort(np.concatenate([r[1] for r in reps], axis=1), axis=1, kind="stable")
    return Result(stats, est, se, t1, t2, reps, B)


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


def _wq(x_sorted: np.ndarray, weights: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``numpy.quantile(np.repeat(x_sorted, w), q_b)`` (linear) for each row ``w`` and its own ``q_b``."""
    cw = np.cumsum(weights, axis=1)
    total = cw[:, -1]
    h = (total - 1) * np.clip(q, 0.0, 1.0)
    j = np.floor(h)
    frac = h - j
    n = len(x_sorted)
    i0 = np.minimum((cw <= j[:, None]).sum(axis=1), n - 1)
    i1 = np.minimum((cw <= (j + 1)[:, None]).sum(axis=1), n - 1)
    return x_sorted[i0] + frac * (x_sorted[i1] - x_sorted[i0])


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
    from scipy import stats as st

    mom = _Moments([stat])
    F = mom.F
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
            lo = _wq(stat.x, w, stat.quantile - crit * se)
            hi = _wq(stat.x, w, stat.quantile + crit * se)
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
