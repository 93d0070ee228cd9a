"""Intervals, p-values and counted coverage of the studentized cluster bootstrap over families of
tasks: the engine of every primary verdict (the resampling kernel is :mod:`prspace.stats.bootstrap_kernel`).

**Interval (bootstrap-t).** With the study's sorted ``t* = (z* - z) / se*`` (:func:`~prspace.stats.bootstrap_kernel.draw`,
``z`` a mean on its working scale), the interval is ``[z - se q*(1 - a), z - se q*(a)]`` mapped back
to the statistic's range (Hall 1992; Cameron, Gelbach & Miller 2008 for few clusters). The resamples'
``t*``, the pivot of each simulated study and the inner ``t**`` are one pivot, each with its own
sample's SE: the interval inverts exactly what is resampled. (Until 2026-11-26 each resample's SE was
floored at the SE of the sample it was drawn from, and so was the simulated studies' pivot; counted in
the known-truth simulation below, that interval covered the default study's mean AUPR-AUROC rank
correlation 77% of the time at 95%, the unfloored one 85% before its level is corrected: the floor cut
the heavy tail that coverage needs.)

**Coverage counted against a known truth, level corrected by counting (double bootstrap).** The
study's families are the population (its estimate is then the truth, exactly); each of ``n_out``
simulated studies of the study's size is drawn from it and gets ``n_in`` inner resamples, the
bootstrap-t the study itself runs (:func:`~prspace.stats.bootstrap_kernel.double_u`); ``u_o``, the
position of the truth's pivot ``T_o = (z_o - z) / se_o`` (:func:`~prspace.stats.bootstrap_kernel.outer_pivot`)
among the inner ``t**``, says whether that study's interval at nominal tail ``a`` misses the truth
(``u_o < a`` above its upper end, ``u_o > 1 - a`` below its lower end). Coverage is the share of
simulated studies that do not miss, counted, with its binomial MC SE (:meth:`Result.coverage`). The level
is corrected by counting too: the nominal tail at which the counted miss rate is the target
(:func:`counted_tails`, an order statistic of ``u``; Beran 1987, Hall 1992 sec. 3.11), the corrected
interval's coverage counted again on simulated studies held out from the correction. No curve is
fitted and no tail extrapolated; a tail that no nominal level reaches by counting (more of the
simulated truths beyond every inner resample than the tail allows) gives an unbounded end (the range's
edge for a bounded statistic).

**p-values.** Each claim's p-values (a difference from the compared value; equivalence within the
margin; lying wholly beyond it) are the errors at which the corrected interval decides, read off the
counts directly (:meth:`Result.decision_ps`): Monte Carlo p-values ``(count + 1) / (n + 1)``, never 0.

**Quartiles (Woodruff 1952).** The ``q``-quantile's interval is ``[Q(q - se q*(1 - a)),
Q(q - se q*(a))]`` with ``Q`` the tasks' quantile function (numpy, linear) and the bootstrap-t
quantiles of the ratio mean of ``1{x <= Q(q)}`` (the share of tasks at or below the estimate);
its coverage is that of the share's interval, counted as above (the interval inverts a test of
the share at the true quartile; Francisco & Fuller 1991, Sitter & Wu 2001).

**Monte Carlo error by rerunning.** :func:`run` draws ``replicates`` independent sets of resamples and
simulated studies (seeds spawned from the seed by ``numpy.random.SeedSequence``); every interval end and
p-value pools them. An end's Monte Carlo error is the SD of the reruns' own ends over sqrt(reruns)
(:meth:`Result.mc_error`), a p-value's the delete-one-rerun jackknife over the reruns (:func:`jackknife_se`:
each rerun left out with its ``t*`` and its simulated studies, the correction counted again): measured,
quartiles included, no floor.

Degenerate resamples (a standard error of 0: every drawn family alike) give ``t = 0`` when the
estimate did not move and ``+-inf`` otherwise; quantiles are ``inverted_cdf`` (no interpolation
across an infinite value).

One module of about 460 lines on purpose: the interval, its counted correction, the p-values read off
it, their Monte Carlo errors and the outcome codes must change together.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import stats as st

from prspace.stats.bootstrap_kernel import (
    RANGE_EPS,
    TAIL_DRAWS,
    WORK_SCALE,
    Stat,
    _Moments,
    _q,
    _tstat,
    combo_stat,
    counts,
    double_u,
    draw,
    from_work,
    outer_pivot,
    quantile_stat,
    ratio_stat,
    to_work,
    truth_position,
)
from prspace.stats.counted_levels import DecisionPs, counted_miss, counted_tails, end_counts

#: The kernel's names that callers reach through this module (one import for the verdicts' engine).
__all__ = ["Stat", "WORK_SCALE", "RANGE_EPS", "to_work", "from_work", "ratio_stat", "combo_stat", "quantile_stat", "counts", "_Moments", "_tstat", "draw", "double_u", "outer_pivot", "truth_position", "TAIL_DRAWS", "_q", "Result", "run", "outcomes", "outcome_of_ps",
           "counted_tails", "counted_miss", "end_counts", "jackknife_se", "quantile_positions", "power_curve",
           "families_for_power", "weighted_quantiles"]

#: Inner resamples per simulated study when a Result does not say (:data:`DOUBLE_INNER`).
DOUBLE_INNER_DEFAULT = 1_000


@dataclass
class Result(DecisionPs):
    """Estimates, standard errors, the pooled / per-rerun sorted ``t*`` and the double bootstrap's
    ``u`` of :func:`run`; intervals at any level by :meth:`interval`."""

    stats: list[Stat]
    estimate: np.ndarray
    se: np.ndarray
    t1: np.ndarray
    u: np.ndarray
    reps: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    B: int = 0
    _loo_cache: dict = field(default_factory=dict, repr=False)
    #: inner resamples of each simulated study (``u`` moves in steps of ``0.5 / n_in``)
    n_in: int = DOUBLE_INNER_DEFAULT

    def _ends(self, t1: np.ndarray, u: np.ndarray | None, alpha: np.ndarray, k0: int = 0
              ) -> tuple[np.ndarray, np.ndarray]:
        a = np.asarray(alpha, dtype=np.float64) / 2.0
        K = t1.shape[0]
        if u is not None:
            a_lo, a_hi = counted_tails(u, a)
        else:
            a_lo = a_hi = np.broadcast_to(a, (K, len(a)))
        q_lo, q_hi = _q(t1, a_lo), _q(t1, 1.0 - a_hi)
        # a tail no nominal level reaches by counting (more than its share of the simulated studies' truths
        # beyond every inner resample): the end is unbounded, the range's edge for a bounded statistic
        q_lo = np.where(a_lo <= 0.0, -np.inf, q_lo)
        q_hi = np.where(a_hi <= 0.0, np.inf, q_hi)
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

    def _loo(self, k: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """Statistic ``k``'s pooled ``t*`` (sorted) and ``u`` with each rerun left out in turn, ``(1, .)``
        each: the delete-one-rerun jackknife's samples (:func:`jackknife_se`)."""
        R = len(self.reps)
        if k not in self._loo_cache:
            out = []
            for r in range(R):
                t = np.sort(np.concatenate([self.reps[j][0][k] for j in range(R) if j != r]), kind="stable")
                u = np.concatenate([self.reps[j][1][k] for j in range(R) if j != r])
                out.append((t[None, :], u[None, :]))
            self._loo_cache[k] = out
        return self._loo_cache[k]

    def interval(self, alpha: np.ndarray | float, *, calibrate: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``(lo, hi)`` ``(K, A)`` at every two-sided error of ``alpha`` ``(A,)``: the pooled ``t*`` of every
        rerun, the level corrected by counting over every rerun's simulated studies (``calibrate``)."""
        al = np.atleast_1d(np.asarray(alpha, dtype=np.float64))
        return self._ends(self.t1, self.u if calibrate else None, al, 0)

    def interval_at(self, alpha: np.ndarray, *, calibrate: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``(lo, hi)`` ``(K,)`` at each statistic's own two-sided error ``alpha`` ``(K,)`` (:meth:`interval`)."""
        al = np.asarray(alpha, dtype=np.float64)
        lo, hi = np.empty(len(self.stats)), np.empty(len(self.stats))
        for k in range(len(self.stats)):
            a, b = self._ends(self.t1[k:k + 1], self.u[k:k + 1] if calibrate else None, al[k:k + 1], k)
            lo[k], hi[k] = a[0, 0], b[0, 0]
        return lo, hi

    def mc_error(self, alpha: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Monte Carlo SE of each end of :meth:`interval_at` at each statistic's ``alpha`` ``(K,)``, measured
        by rerunning: the SD over the independent reruns of each rerun's own end (its own ``t*``, its own
        simulated studies and its own counted correction) divided by sqrt(reruns), the error of an end
        pooled over them; where a rerun's end is unbounded (its own simulated studies too few to resolve the
        tail), the delete-one-rerun jackknife of the pooled end (:func:`jackknife_se`; a quantile is not
        smooth enough for the jackknife where the first is available: on the paper-like study it stated a
        third of what another seed moved). NaN with fewer than two reruns."""
        al = np.asarray(alpha, dtype=np.float64)
        K, R = len(self.stats), len(self.reps)
        if R < 2:
            return np.full(K, np.nan), np.full(K, np.nan)
        mlo, mhi = np.empty(K), np.empty(K)
        for k in range(K):
            ends = [self._ends(t1[k:k + 1], u[k:k + 1], al[k:k + 1], k) for t1, u in self.reps]
            lo = np.array([e[0][0, 0] for e in ends])
            hi = np.array([e[1][0, 0] for e in ends])
            loo = None
            for j, x in enumerate((lo, hi)):
                if np.isfinite(x).all():
                    err = float(np.std(x, ddof=1) / np.sqrt(R))
                else:
                    loo = loo or [self._ends(t, u, al[k:k + 1], k) for t, u in self._loo(k)]
                    err = jackknife_se([e[j][0, 0] for e in loo])
                (mlo if j == 0 else mhi)[k] = err
        return mlo, mhi

    def coverage(self, alpha: np.ndarray) -> dict[str, np.ndarray]:
        """Coverage at each statistic's two-sided error ``alpha`` ``(K,)``, *counted* in the known-truth
        simulation of the double bootstrap (the study's families as the population, its estimate the
        truth, ``n`` outer samples of the study's size, each with its own bootstrap-t interval):
        ``plain``, the share of outer samples whose uncorrected interval covers the truth, with its
        binomial MC SE ``plain_se``; ``corrected``, the share whose interval at the counted correction
        (:func:`counted_tails`) covers it, held out (the reruns split in two halves: the level corrected
        on one half and the misses counted on the other, averaged both ways), with ``corrected_mc_se``;
        ``n``, the outer samples counted. Each end apart, held out the same way: ``miss_below`` (the
        truth below the lower end) and ``miss_above``, and ``step_below`` / ``step_above``, the same
        miss rate one countable step narrower at that end (the next position of ``u`` among the
        correcting half's): ``u`` moves in steps of the inner resamples, so a tail can miss less than
        its share only where the next countable level misses more (:func:`end_counts`)."""
        a = np.asarray(alpha, dtype=np.float64) / 2.0
        K, n = self.u.shape
        plain = 1.0 - counted_miss(self.u, a[:, None], a[:, None])[:, 0] if K else np.zeros(0)
        halves = [self.reps[0::2], self.reps[1::2]] if len(self.reps) > 1 else [self.reps, self.reps]
        us = [np.concatenate([x[1] for x in h], axis=1) for h in halves]
        corr = np.zeros(K)
        ends = np.zeros((4, K))
        for k in range(K):
            for u_cal, u_count in ((us[0], us[1]), (us[1], us[0])):
                lo, hi = counted_tails(u_cal[k:k + 1], a[k:k + 1])
                corr[k] += 0.5 * (1.0 - counted_miss(u_count[k:k + 1], lo, hi)[0, 0])
                ends[:, k] += 0.5 * end_counts(u_cal[k], u_count[k], float(lo[0, 0]), float(hi[0, 0]))
        return {"plain": plain, "plain_se": np.sqrt(plain * (1.0 - plain) / n), "corrected": corr,
                "corrected_mc_se": np.sqrt(np.clip(corr * (1.0 - corr), 0, None) / n), "n": np.full(K, n),
                "miss_below": ends[0], "miss_above": ends[1], "step_below": ends[2], "step_above": ends[3]}

    def _t_at(self, k: int, c: float) -> tuple[float, float]:
        """``(t_up, t_low)``: the ``t*`` beyond which the upper end falls below ``c`` (``q(a) > t_up``) and
        the lower end rises above it (``q(1 - a) < t_low``). A mean: ``(z - z(c)) / se`` on its working
        scale, both alike. A quartile (Woodruff): ``(q - P(c)) / se`` with ``P(c)`` the position of ``c``
        in the tasks' quantile function (the last position below ``c`` for the upper end, the first
        above it for the lower end)."""
        st = self.stats[k]
        if st.quantile is None:
            z, sz = to_work([st], self.estimate[None, k:k + 1], self.se[None, k:k + 1])
            zc, _ = to_work([st], np.array([[c]]), self.se[None, k:k + 1])
            with np.errstate(invalid="ignore", divide="ignore"):
                t = float((z[0, 0] - zc[0, 0]) / sz[0, 0]) if sz[0, 0] > 0 else float(np.sign(z[0, 0] - zc[0, 0]) * np.inf)
            return t, t
        p1, p2 = quantile_positions(st.x, c)
        se = float(self.se[k])
        with np.errstate(invalid="ignore", divide="ignore"):
            return (st.quantile - p1) / se, (st.quantile - p2) / se

    def tail_p(self, k: int, c: float) -> tuple[np.ndarray, np.ndarray]:
        """``(p_up, p_low)``, each ``(1 + R,)``: pooled over the ``R`` reruns, then with each rerun left out.
        ``p_up`` is the smallest nominal tail ``a`` at which the counted-corrected interval's upper end lies
        below ``c``, ``p_low`` at which its lower end lies above it; each the share of the simulated studies
        at least that extreme, ``(count + 1) / (n + 1)`` (a Monte Carlo p-value, never 0; Davison & Hinkley
        1997, eq. 4.11). A two-sided interval at error ``alpha`` has ``a = alpha / 2`` on each side. The
        pooled ``t*`` left of a point is the sum of the reruns' counts, so a rerun is left out by
        subtracting its own (no pooled array is rebuilt)."""
        t_up, t_low = self._t_at(k, c)
        R = len(self.reps)
        if np.isnan(t_up) or np.isnan(t_low):
            return np.full(1 + R, np.nan), np.full(1 + R, np.nan)
        if R == 0:
            parts = [(self.t1[k], self.u[k])]
        else:
            parts = [(t1[k], u[k]) for t1, u in self.reps]
        cr = np.array([np.searchsorted(t, t_up, side="right") for t, _ in parts], dtype=np.int64)
        cl = np.array([np.searchsorted(t, t_low, side="left") for t, _ in parts], dtype=np.int64)
        nb = np.array([len(t) for t, _ in parts], dtype=np.int64)
        # each position u is known to the inner resamples' step h = 0.5 / n_in: counted as spread evenly over
        # [u - h, u + h] (a continuity correction), so that the count does not jump when F*(t) crosses a step
        # of u (it did, by 3 of its stated MC errors between seeds); a truth beyond every inner resample (u at
        # 0 or 1) is at least as extreme as anything: an interval whose tail it takes is unbounded
        # (counted_tails gives x = 0), never past c
        h = 0.5 / self.n_in

        def ps(keep: list[int]) -> tuple[float, float]:
            uu = np.concatenate([parts[j][1] for j in keep]) if len(keep) > 1 else parts[keep[0]][1]
            f_right = cr[keep].sum() / nb[keep].sum()
            f_left = cl[keep].sum() / nb[keep].sum()
            w_up = np.where(uu <= 0.0, 1.0, np.clip((f_right - (uu - h)) / (2 * h), 0.0, 1.0))
            w_low = np.where(uu >= 1.0, 1.0, np.clip((uu + h - f_left) / (2 * h), 0.0, 1.0))
            n = len(uu)
            return (min((float(w_up.sum()) + 1.0) / (n + 1.0), 1.0), min((float(w_low.sum()) + 1.0) / (n + 1.0), 1.0))

        every = list(range(len(parts)))
        out = [ps(every)] + ([ps([j for j in every if j != r]) for r in range(R)] if R >= 2 else [])
        return np.array([o[0] for o in out]), np.array([o[1] for o in out])


def jackknife_se(leave_outs: list[float] | np.ndarray) -> float:
    """The delete-one jackknife's SE ``sqrt((R - 1) / R * sum (x_r - mean)^2)`` of an estimate from
    ``R`` independent reruns, given its values with each rerun left out (Efron & Stein 1981): the
    Monte Carlo error of the pooled estimate, measured by rerunning. NaN below two reruns or where a
    leave-out is not finite."""
    x = np.asarray(leave_outs, dtype=np.float64)
    R = len(x)
    if R < 2 or not np.isfinite(x).all():
        return float("nan")
    return float(np.sqrt((R - 1) / R * np.sum((x - x.mean()) ** 2)))


def quantile_positions(x_sorted: np.ndarray | None, c: float) -> tuple[float, float]:
    """``(p1, p2)``: the last position ``p`` at which ``numpy.quantile(x, p)`` (linear) is below ``c``
    and the first at which it is above, for ``x_sorted`` ascending (equal when ``c`` is not one of
    the values; the two ends of the tie's run when it is)."""
    if x_sorted is None or not len(x_sorted):
        return float("nan"), float("nan")
    x = np.asarray(x_sorted, dtype=np.float64)
    n = len(x)
    if n == 1:
        return (0.0, 0.0) if c <= x[0] else (1.0, 1.0)

    def pos(i: int) -> float:  # the position of c between x[i - 1] and x[i]
        if i <= 0:
            return 0.0
        if i >= n:
            return 1.0
        gap = x[i] - x[i - 1]
        frac = (c - x[i - 1]) / gap if gap > 0 else 0.0
        return float((i - 1 + frac) / (n - 1))

    return pos(int(np.searchsorted(x, c, side="left"))), pos(int(np.searchsorted(x, c, side="right")))


def _sub(res: Result, k: int) -> Result:
    sub = Result([res.stats[k]], res.estimate[k:k + 1], res.se[k:k + 1], res.t1[k:k + 1], res.u[k:k + 1],
                 [(t1[k:k + 1], u[k:k + 1]) for t1, u in res.reps], res.B, n_in=res.n_in)
    return sub


#: Outer and inner resamples of the double bootstrap (over all reruns; :func:`run`).
DOUBLE_OUTER, DOUBLE_INNER = 20_000, DOUBLE_INNER_DEFAULT


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
    return Result(stats, est, se, t1, u, reps, B, n_in=n_in)


#: Outcome codes of :func:`outcomes`: Lakens, Scheel & Isager's (2018) four outcomes of an
#: equivalence test plus a difference test, the difference split by whether it is wholly beyond the margin.
INCONCLUSIVE, EQUIVALENT, BY_LESS, DIFFERENT, BEYOND = 0, 1, 2, 3, 4
_EPS = 1e-12


def outcomes(lo: np.ndarray, hi: np.ndarray, value: float, margin: float) -> np.ndarray:
    """Outcome code of each interval ``[lo, hi]`` against ``value +- margin`` (Lakens, Scheel & Isager
    2018): EQUIVALENT (within the margin, containing the value), BY_LESS (within the margin,
    excluding the value: different, by less than the margin), DIFFERENT (excluding the value, not
    within the margin), BEYOND (DIFFERENT and wholly beyond the margin), else INCONCLUSIVE
    (containing the value, not within the margin)."""
    lo, hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
    within = (lo >= value - margin - _EPS) & (hi <= value + margin + _EPS)
    beyond = (lo > value + margin + _EPS) | (hi < value - margin - _EPS)
    excludes = (lo > value) | (hi < value)
    out = np.full(lo.shape, INCONCLUSIVE)
    out[within] = EQUIVALENT
    out[within & excludes] = BY_LESS
    out[~within & excludes] = DIFFERENT
    out[beyond] = BEYOND
    out[~(np.isfinite(lo) & np.isfinite(hi))] = INCONCLUSIVE
    return out


def outcome_of_ps(p_diff: float, p_equiv: float, p_beyond: float, alpha: float) -> int:
    """The outcome code (:func:`outcomes`) of the tests at error ``alpha`` from their p-values
    (:meth:`Result.decision_ps`): the interval at level ``1 - alpha`` excludes the value exactly when
    ``p_diff <= alpha``, lies within the margin when ``p_equiv <= alpha``, wholly beyond it when
    ``p_beyond <= alpha``."""
    vals = (p_diff, p_equiv, p_beyond)
    if not all(np.isfinite(v) for v in vals):
        return INCONCLUSIVE
    diff, equiv, beyond = (v <= alpha for v in vals)
    if equiv:
        return BY_LESS if diff else EQUIVALENT
    if beyond:
        return BEYOND
    return DIFFERENT if diff else INCONCLUSIVE


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
