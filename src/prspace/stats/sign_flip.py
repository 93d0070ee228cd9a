"""The sign-flip (randomisation) test over families, its level counted in a known-truth simulation.

For a mean over tasks clustered in ``F`` families (each family's sum of values ``S_f`` over its
``N_f`` tasks), the hypothesis "the mean is ``c``" is tested on the families' contributions
``d_f = S_f - c N_f``: under a population whose contributions are symmetric about 0, every pattern of
signs is as likely as the one observed (Fisher 1935, sec. 21; Good 2005, ch. 3), so

    p_low(c) = #{T : sum_{f in T} d_f <= 0} / M      (against "mean <= c"; small when above c)
    p_up(c)  = #{T : sum_{f in T} d_f >= 0} / M      (against "mean >= c")

over the ``M`` sets ``T`` of flipped families: all ``2^F`` of them (exact) up to
:data:`EXACT_MAX` families, else the empty set and ``M - 1`` drawn at random. The sum over the flipped
set is the whole sum minus twice the set's, so ``p_low(c) = (1 + #{T != {} : r_T <= c}) / M`` with
``r_T = sum_T S / sum_T N``, the mean of the flipped families' tasks: each p-value is a step function
of ``c`` whose steps are the subsets' means, and the interval that inverts the test has order
statistics of them as its ends (the cluster analogue of the Walsh averages of Hodges & Lehmann).

With few families the test is exact where the contributions are symmetric, and the data may be
skewed. So its level is *counted*, as the bootstrap's is (:mod:`prspace.stats.cluster_bootstrap`):
the study's families are a population whose truth is the study's estimate; ``n_sims`` studies of the
study's size are drawn from it (families with replacement), in independent reruns; each simulated
study's plain p-values at the truth (``p*``) are the test's null distribution there, and the study's
p-value is the share of simulated studies at least as extreme, ``(1 + #{p* <= p}) / (1 + n_sims)``
(Davison & Hinkley 1997, eq. 4.11). The counted rate at which the corrected test rejects the truth is
measured on held-out reruns (:meth:`Result.coverage`), the Monte Carlo error of every p-value by
leaving each rerun out and of every interval end by rerunning (:meth:`Result.mc_error`).

One module of about 400 lines on purpose: the test, its counted level, the interval that inverts it and
its power curve share the subset sums and the null studies' p-values, which must be made one way.

>>> import numpy as np
>>> res = run(np.array([0.2, 0.5, 0.4, 0.9, 0.3, 0.6, 0.7]), np.arange(7), n_sims=400, reruns=4, seed=0)
>>> bool(res.p_plain(0.0)[1] == 1 / 2 ** 7)    # every family above 0: one sign pattern of 128
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from prspace.stats.bootstrap_kernel import Stat
from prspace.stats.counted_levels import DecisionPs

__all__ = ["EXACT_MAX", "RANDOM_SETS", "Result", "from_stat", "power_curve", "run"]

#: Families up to which every set of flipped families is enumerated (2^16 = 65,536 sets).
EXACT_MAX = 16
#: Sets of flipped families drawn at random above :data:`EXACT_MAX` families (the empty set one of them).
RANDOM_SETS = 4096
#: Elements (studies x sets x families) per batch of simulated studies (64 MB of floats).
_BATCH_ELEMENTS = 1 << 23
#: Sets drawn at random for the power curve's simulated studies above :data:`POWER_EXACT_MAX` families
#: (every set up to it): as many as the verdict's own test draws above :data:`EXACT_MAX` (its p-value's
#: floor, 1/4,096, the same); between the two a lower bound of the exact test's power. Until 2026-11-29
#: 1,024: null studies at that coarser floor tied a decisive study there often enough (0.3% to 1%) that
#: the power fell and rose with the family count (0.14 at 14 families, 1.0 at 12 and at 150).
POWER_SETS = RANDOM_SETS
POWER_EXACT_MAX = 12
#: Null studies drawn at each size of the power curve, from which each simulated study draws its own
#: as many (:func:`power_curve`); at the study's own size as many as the verdict counts its level on
#: at the default resamples (:func:`prspace.verdicts.primary.double_outer`).
POWER_NULL = 2000
POWER_NULL_HERE = 20_000


def _sets(F: int, rng: np.random.Generator, m: int = RANDOM_SETS, exact_max: int = EXACT_MAX) -> np.ndarray:
    """``(M, F)`` 0/1 membership of the flipped sets: every subset (exact, bit ``f`` of the row's index
    is family ``f``) up to ``exact_max`` families, else the empty set and ``m - 1`` random ones."""
    if F <= exact_max:
        return ((np.arange(2 ** F)[:, None] >> np.arange(F)) & 1).astype(np.int8)
    T = rng.integers(0, 2, size=(m, F), dtype=np.int8)
    T[0] = 0
    return T


def _subset_sums(d: np.ndarray, sets: np.ndarray | None) -> np.ndarray:
    """``(B, M)`` sums of each row of ``d`` ``(B, F)`` over each set: built by doubling (every subset, in a
    fixed order) or, for drawn sets, by numpy's pairwise sum of the members (no BLAS: the same bytes on
    every machine)."""
    if sets is None:
        out = np.zeros((d.shape[0], 1))
        for f in range(d.shape[1]):
            out = np.concatenate([out, out + d[:, f:f + 1]], axis=1)
        return out
    return np.where(sets[None, :, :].astype(bool), d[:, None, :], 0.0).sum(axis=2)


def _plain_ps(d: np.ndarray, sets: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """``(p_low, p_up)`` of each row of ``d`` against a mean of 0 (see the module docstring); a sum
    within ``1e-12`` of the row's total size of 0 counts as 0 (a tie, both ways). Drawn sets' sums come
    from one matrix product: its last bits may follow the BLAS kernel, 1e-4 of the tie tolerance, so the
    counts do not."""
    s = _subset_sums(d, None) if sets is None else d @ sets.T.astype(np.float64)
    tol = 1e-12 * np.abs(d).sum(axis=1, keepdims=True)
    return (s <= tol).mean(axis=1), (s >= -tol).mean(axis=1)


@dataclass(frozen=True)
class _Family:
    n_families: int


@dataclass(frozen=True)
class Result(DecisionPs):
    """One statistic's sign-flip test with its counted null distribution: the families' sums ``S`` and
    counts ``N``, the subsets' means ``r`` (sorted, the empty set left out), the number of sets ``M``
    (``n_empty`` of them empty), and per rerun the plain p-values ``low_star``, ``up_star`` of the simulated
    studies at the truth. Above :data:`EXACT_MAX` families each rerun draws its own sets (``r_reps``, ``M_rep``
    each), so that rerunning measures the draw of the sets too; ``r`` and ``M`` pool them.
    ``estimate``, ``se`` (the families' delta-method SE) and ``stats`` as
    :class:`prspace.stats.cluster_bootstrap.Result` has them, so that a verdict reads either."""

    S: np.ndarray
    N: np.ndarray
    r: np.ndarray
    M: int
    low_star: list[np.ndarray]
    up_star: list[np.ndarray]
    estimate: np.ndarray
    se: np.ndarray
    stats: list[_Family] = field(default_factory=list)
    exact: bool = True
    n_empty: int = 1
    r_reps: list[np.ndarray] | None = None
    M_rep: int = 0

    def _rep(self, i: int) -> tuple[np.ndarray, int, int]:
        """Rerun ``i``'s own ``(r, M, n_empty)`` (the shared ones when every set is enumerated)."""
        if self.r_reps is None:
            return self.r, self.M, self.n_empty
        return self.r_reps[i], self.M_rep, 1

    @property
    def reps(self) -> list[int]:
        return list(range(len(self.low_star)))

    # -- plain and counted p-values ------------------------------------------------------------------
    @staticmethod
    def _counts(r: np.ndarray, c: float) -> tuple[int, int]:
        """``(#{r >= c}, #{r <= c})``."""
        return int(len(r) - np.searchsorted(r, c, side="left")), int(np.searchsorted(r, c, side="right"))

    def p_plain(self, c: float) -> tuple[float, float]:
        """``(p_up, p_low)`` of the plain sign-flip test at ``c`` (module docstring), over every set."""
        if not len(self.r):  # no family with tasks
            return 1.0, 1.0
        n_ge, n_le = self._counts(self.r, c)
        return float((self.n_empty + n_ge) / self.M), float((self.n_empty + n_le) / self.M)

    def _plain_loo(self, c: float) -> tuple[np.ndarray, np.ndarray]:
        """``(p_up, p_low)`` with each rerun's own sets left out (the pooled ones where the sets are shared)."""
        R = len(self.low_star)
        if self.r_reps is None or R < 2:
            up, low = self.p_plain(c)
            return np.full(R, up), np.full(R, low)
        n_ge, n_le = self._counts(self.r, c)
        per = np.array([self._counts(r, c) for r in self.r_reps], dtype=np.float64)
        M = self.M - self.M_rep
        return (self.n_empty - 1 + n_ge - per[:, 0]) / M, (self.n_empty - 1 + n_le - per[:, 1]) / M

    @staticmethod
    def _counted(star: list[np.ndarray], p: float, p_loo: np.ndarray) -> np.ndarray:
        """``(1 + R,)``: the share of simulated studies with ``p* <= p`` pooled, then with each rerun left out
        (its simulated studies, and its sets: the plain p-value ``p_loo`` without them)."""
        counts = np.array([np.count_nonzero(s <= p * (1 + 1e-12)) for s in star], dtype=np.float64)
        sizes = np.array([len(s) for s in star], dtype=np.float64)
        pooled = (1.0 + counts.sum()) / (1.0 + sizes.sum())
        if len(star) < 2:
            return np.array([pooled])
        # each rerun's count at the leave-out's own plain p-value
        at = np.array([[np.count_nonzero(s <= q * (1 + 1e-12)) for s in star] for q in p_loo], dtype=np.float64)
        loo = (1.0 + at.sum(axis=1) - np.diag(at)) / (1.0 + sizes.sum() - sizes)
        return np.concatenate([[pooled], loo])

    def tail_p(self, k: int, c: float) -> tuple[np.ndarray, np.ndarray]:
        """``(p_up, p_low)`` at ``c``, counted (the same contract as
        :meth:`prspace.stats.cluster_bootstrap.Result.tail_p`)."""
        up, low = self.p_plain(c)
        up_loo, low_loo = self._plain_loo(c)
        return self._counted(self.up_star, up, up_loo), self._counted(self.low_star, low, low_loo)

    # -- the interval that inverts the counted test ----------------------------------------------------
    @staticmethod
    def _threshold(star: np.ndarray, a: float, M: int) -> float:
        """The largest plain p-value (a multiple of ``1 / M``) whose counted p-value is at most ``a``
        (``-inf`` when none is)."""
        s = np.sort(star)
        grid = np.arange(1, M + 1) / M
        counted = (1.0 + np.searchsorted(s, grid * (1 + 1e-12), side="right")) / (1.0 + len(s))
        ok = np.flatnonzero(counted <= a)
        return float(grid[ok[-1]]) if len(ok) else -np.inf

    @staticmethod
    def _ends(q_low: float, q_up: float, r: np.ndarray, M: int, n_empty: int) -> tuple[float, float]:
        """The interval's ends where the plain p-values reach ``q_low`` / ``q_up``: ``p_low(c) <= q`` exactly
        when ``n_empty + #{r <= c} <= q M``, so the lower end is the ``(q M - n_empty + 1)``-th smallest subset
        mean (the upper end the same from the largest)."""
        k_lo = int(np.floor(q_low * M + 1e-9)) - n_empty + 1 if np.isfinite(q_low) else 0
        k_hi = int(np.floor(q_up * M + 1e-9)) - n_empty + 1 if np.isfinite(q_up) else 0
        n = len(r)
        lo = float(r[k_lo - 1]) if 1 <= k_lo <= n else -np.inf
        hi = float(r[n - k_hi]) if 1 <= k_hi <= n else np.inf
        return lo, hi

    def _ends_with(self, low_star: np.ndarray, up_star: np.ndarray, a: float, r: np.ndarray, M: int,
                   n_empty: int) -> tuple[float, float]:
        return self._ends(self._threshold(low_star, a, M), self._threshold(up_star, a, M), r, M, n_empty)

    def interval_at(self, alpha: np.ndarray, *, calibrate: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``(lo, hi)`` ``(1,)``: the means ``c`` the counted test does not reject at two-sided ``alpha``;
        an end the test cannot reach at this many families is unbounded."""
        a = float(np.asarray(alpha).ravel()[0]) / 2.0
        if calibrate:
            lo, hi = self._ends_with(np.concatenate(self.low_star), np.concatenate(self.up_star), a, self.r, self.M,
                                     self.n_empty)
        else:
            lo, hi = self._ends(a, a, self.r, self.M, self.n_empty)  # plain: the test read at a itself
        return np.array([lo]), np.array([hi])

    def mc_error(self, alpha: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Monte Carlo SE of each end, measured by rerunning: the SD of the reruns' own ends (each
        calibrated on its own simulated studies, with its own drawn sets) divided by sqrt(reruns); NaN where
        an end is unbounded."""
        a = float(np.asarray(alpha).ravel()[0]) / 2.0
        R = len(self.low_star)
        if R < 2:
            return np.array([np.nan]), np.array([np.nan])
        ends = np.array([self._ends_with(lo, up, a, *self._rep(i))
                         for i, (lo, up) in enumerate(zip(self.low_star, self.up_star, strict=True))])
        with np.errstate(invalid="ignore"):
            se = ends.std(axis=0, ddof=1) / np.sqrt(R)
        se[~np.isfinite(ends).all(axis=0)] = np.nan
        return np.array([se[0]]), np.array([se[1]])

    def coverage(self, alpha: np.ndarray) -> dict[str, np.ndarray]:
        """Coverage of the two-sided interval at ``alpha``, counted in the known-truth simulation:
        ``plain`` (the uncorrected test's) and ``corrected`` on held-out reruns (the level counted on one
        half of the reruns, the misses on the other, both ways), with binomial MC SEs and ``n``; each end
        apart, held out the same way, ``miss_below`` / ``miss_above`` and ``step_below`` / ``step_above``
        one countable step narrower (the plain p-value's next multiple of ``1 / M``), as
        :meth:`prspace.stats.cluster_bootstrap.Result.coverage` gives them."""
        a = float(np.asarray(alpha).ravel()[0]) / 2.0
        lo, up = np.concatenate(self.low_star), np.concatenate(self.up_star)
        n = len(lo)
        plain = float(np.mean((lo > a) & (up > a)))
        R = len(self.low_star)
        halves = [list(range(0, R, 2)), list(range(1, R, 2))] if R > 1 else [[0], [0]]
        hits, total = 0.0, 0
        ends = np.zeros(4)
        M = self._rep(0)[1]
        for fit, count in (halves, halves[::-1]):
            q_lo = self._threshold(np.concatenate([self.low_star[i] for i in fit]), a, M)
            q_up = self._threshold(np.concatenate([self.up_star[i] for i in fit]), a, M)
            lc, uc = np.concatenate([self.low_star[i] for i in count]), np.concatenate([self.up_star[i] for i in count])
            hits += float(np.sum((lc > q_lo) & (uc > q_up)))
            total += len(lc)
            s_lo, s_up = ((np.rint(q * M) + 1.0) / M if np.isfinite(q) else 1.0 / M for q in (q_lo, q_up))
            ends += 0.5 * np.array([np.mean(lc <= q_lo), np.mean(uc <= q_up), np.mean(lc <= s_lo), np.mean(uc <= s_up)])
        corr = hits / total
        return {"plain": np.array([plain]), "plain_se": np.array([np.sqrt(plain * (1 - plain) / n)]),
                "corrected": np.array([corr]), "corrected_mc_se": np.array([np.sqrt(corr * (1 - corr) / total)]),
                "n": np.array([float(n)]), "miss_below": ends[0:1], "miss_above": ends[1:2],
                "step_below": ends[2:3], "step_above": ends[3:4]}


def _null_ps(d_pop: np.ndarray, G: int, n: int, sets: np.ndarray | None, rng: np.random.Generator
             ) -> tuple[np.ndarray, np.ndarray]:
    """Plain ``(p_low, p_up)`` at the truth of ``n`` studies of ``G`` families drawn with replacement from
    the centred contributions ``d_pop``."""
    return _batched(d_pop[rng.integers(0, len(d_pop), size=(n, G))], sets)


def run(values: np.ndarray, family: np.ndarray, *, n_sims: int, reruns: int, seed: int | list[int]) -> Result:
    """The sign-flip test of the mean over tasks of ``values`` (NaN left out) clustered by ``family``,
    with ``n_sims`` simulated studies in ``reruns`` independent reruns (seeded from ``seed``)."""
    v = np.asarray(values, dtype=np.float64)
    ok = np.isfinite(v)
    _, fid = np.unique(np.asarray(family)[ok], return_inverse=True)
    S = np.bincount(fid, weights=v[ok]).astype(np.float64)
    N = np.bincount(fid).astype(np.float64)
    return _run(S, N, n_sims=n_sims, reruns=reruns, seed=seed)


def from_stat(stat: Stat, *, n_sims: int, reruns: int, seed: int | list[int]) -> Result:
    """:func:`run` on a ratio-mean :class:`~prspace.stats.bootstrap_kernel.Stat` (one term of weight 1)."""
    if stat.S.shape[1] != 1 or stat.quantile is not None:
        raise ValueError("the sign-flip test takes a mean over tasks (one term, no quantile)")
    keep = stat.N[:, 0] > 0
    return _run(stat.S[keep, 0].astype(np.float64), stat.N[keep, 0].astype(np.float64), n_sims=n_sims,
                reruns=reruns, seed=seed)


def _run(S: np.ndarray, N: np.ndarray, *, n_sims: int, reruns: int, seed: int | list[int]) -> Result:
    F = len(S)
    rng = np.random.default_rng(seed)
    est = float(S.sum() / N.sum()) if F else np.nan
    if F:
        resid = S - est * N
        se = float(np.sqrt(F / max(F - 1, 1) * np.sum(resid ** 2)) / N.sum())
    else:
        se = np.nan
    exact = F <= EXACT_MAX
    r = _means(S, N, None) if exact else np.zeros(0)
    d_pop = S - est * N
    low_star, up_star, r_reps = [], [], []
    per = max(n_sims // max(reruns, 1), 1)
    spread = bool(F) and bool(np.any(d_pop != 0))  # no spread: every pattern ties at 0, every p-value 1
    for child in rng.spawn(max(reruns, 1)):
        sets = None if exact else _sets(F, child)  # each rerun its own drawn sets
        if not exact:
            r_reps.append(_means(S, N, sets))
        lo, up = _null_ps(d_pop, F, per, sets, child) if spread else (np.ones(per), np.ones(per))
        low_star.append(lo)
        up_star.append(up)
    R = max(reruns, 1)
    if exact:
        return Result(S=S, N=N, r=r, M=2 ** F, low_star=low_star, up_star=up_star, estimate=np.array([est]),
                      se=np.array([se]), stats=[_Family(F)], exact=True, M_rep=2 ** F)
    return Result(S=S, N=N, r=np.sort(np.concatenate(r_reps)), M=R * RANDOM_SETS, low_star=low_star, up_star=up_star,
                  estimate=np.array([est]), se=np.array([se]), stats=[_Family(F)], exact=False, n_empty=R,
                  r_reps=r_reps, M_rep=RANDOM_SETS)


def power_curve(res: Result, value: float, margin: float, alpha: float, *, seed: int, reps: int = 200,
                null: int = POWER_NULL, null_here: int = POWER_NULL_HERE, grid: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """Power to decide (``min(p_diff, p_equiv) <= alpha``) when ``G`` families are drawn with replacement
    from the study's (the study as the population, its estimate the truth), for each ``G`` of ``grid``:
    ``reps`` simulated studies each, each decided by this test with its level counted on its **own**
    null studies of ``G`` families drawn from the centred population (the verdict's own procedure).

    Each simulated study draws its ``null`` null studies with replacement from ``null`` drawn at that
    size (``null_here`` at the study's own size, where the verdict counts its level on as many; there
    every sign pattern up to :data:`EXACT_MAX` families, as the verdict's test; elsewhere
    :data:`POWER_SETS` drawn patterns above :data:`POWER_EXACT_MAX` families). Until 2026-11-29 every
    simulated study of a size shared one draw of 500 null studies: at Holm's first-step level a p-value
    at the test's smallest step is decided only when no null study reaches it, so the power came out 0
    or 1 by the seed (issue 80)."""
    F = len(res.S)
    if F < 2:
        return np.asarray(grid), np.full(len(grid), np.nan)
    rng = np.random.default_rng(seed)
    d_pop = res.S - float(res.estimate[0]) * res.N
    power = np.empty(len(grid))
    for g, G in enumerate(np.asarray(grid)):
        G = int(G)
        here = G == F
        sets = None if G <= (EXACT_MAX if here else POWER_EXACT_MAX) else _sets(G, rng, POWER_SETS, POWER_EXACT_MAX)
        n0 = max(int(null_here if here else null), 1)
        low_pool, up_pool = _null_ps(d_pop, G, n0, sets, rng)
        own = rng.integers(0, n0, size=(reps, n0))  # each simulated study's own null studies
        idx = rng.integers(0, F, size=(reps, G))
        ST, NT = _sums(res.S[idx], sets), _sums(res.N[idx], sets)
        (low_v, up_v), (low_p, up_p), (low_m, up_m) = (
            _counted_own(_ps_of(ST - c * NT, res.S[idx] - c * res.N[idx]), low_pool[own], up_pool[own])
            for c in (value, value + margin, value - margin))
        diff = np.minimum(1.0, 2.0 * np.minimum(up_v, low_v))
        equiv = np.minimum(1.0, 2.0 * np.maximum(low_m, up_p))
        power[g] = float(np.mean(np.minimum(diff, equiv) <= alpha))
    return np.asarray(grid), power


def _sums(x: np.ndarray, sets: np.ndarray | None) -> np.ndarray:
    """``(B, M)`` sums of each row of ``x`` over each set (as :func:`_plain_ps` makes them)."""
    return _subset_sums(x, None) if sets is None else x @ sets.T.astype(np.float64)


def _ps_of(s: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(p_low, p_up)`` from the subset sums ``s`` of the rows of ``d`` (:func:`_plain_ps`)."""
    tol = 1e-12 * np.abs(d).sum(axis=1, keepdims=True)
    return (s <= tol).mean(axis=1), (s >= -tol).mean(axis=1)


def _counted_own(ps: tuple[np.ndarray, np.ndarray], low0: np.ndarray, up0: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``(p_low, p_up)`` of each simulated study counted against its own null p-values (row ``i`` of the
    ``(reps, null)`` arrays ``low0``, ``up0``): ``(1 + #{p* <= p}) / (1 + null)``."""
    lo, up = ps
    n = low0.shape[1]
    return ((1.0 + np.count_nonzero(low0 <= lo[:, None] * (1 + 1e-12), axis=1)) / (1.0 + n),
            (1.0 + np.count_nonzero(up0 <= up[:, None] * (1 + 1e-12), axis=1)) / (1.0 + n))


def _batched(d: np.ndarray, sets: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_plain_ps` of the rows of ``d`` in batches of :data:`_BATCH_ELEMENTS`."""
    G = d.shape[1]
    M = 2 ** G if sets is None else len(sets)
    batch = max(1, _BATCH_ELEMENTS // (M * max(G, 1)))
    parts = [_plain_ps(d[i:i + batch], sets) for i in range(0, len(d), batch)]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _means(S: np.ndarray, N: np.ndarray, sets: np.ndarray | None) -> np.ndarray:
    """The flipped sets' means ``sum_T S / sum_T N``, sorted, the empty set left out (sums as
    :func:`_subset_sums` makes them: the same bytes on every machine)."""
    if not len(S):
        return np.zeros(0)
    TS, TN = _subset_sums(S[None, :], sets)[0], _subset_sums(N[None, :], sets)[0]
    keep = TN > 0
    return np.sort(TS[keep] / TN[keep])
