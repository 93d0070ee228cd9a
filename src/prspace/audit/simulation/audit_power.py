"""Can my data tell?  Power and sample size for a paired comparison of two models, from their own scores.

One module of over 400 lines on purpose: planting a difference, drawing the planned test sets, the level the
audit corrects the test to and the searches share one population and its draws (the tests of the drawn sets are in
:mod:`prspace.audit.simulation.power_tests`, where the searches start in
:mod:`prspace.audit.simulation.power_search`).

The method (``docs/audit.md``, "Power and sample size"), for a metric of :data:`METRICS` and two
models a, b scored on the same test rows (the user's *population*: its positives' score pairs
``(a_i, b_i)`` and its negatives' pairs):

1. *plant* a difference ``delta``: add ``c`` to model a's scores of the positives, with ``c``
   solved (bisection; every metric rises with ``c``) so that the population difference
   ``metric(a + c y) - metric(b)`` equals ``delta``; ``delta`` = the observed difference needs
   ``c = 0``;
2. *draw* a planned test set: ``n_pos`` positives and ``n_neg`` negatives with replacement from the
   population's positives and negatives, each row keeping both models' scores (paired); a weighted
   file's rows drawn in proportion to their weights (:class:`Pair`: the population the weights describe);
3. *test* the pair as the audit does, at the family's first step ``alpha / P`` (Bonferroni over
   the ``P`` pairs of the user's models; Holm's first step, so the power is a lower bound for the
   step-down procedure) *at the level the audit corrects it to* at the planned size and skew
   (:func:`prspace.audit.inference.decision.decide`: a raw p-value below ``Decision.raw_threshold(alpha / P)``
   rejects, :func:`planned_threshold`): AUROC by DeLong's paired z test,
   AP, AUPR and AUPRG by the jackknife t of :func:`prspace.stats.pairwise.jackknife_pairs`, stratified
   by class, each class cut at random into ``min(rows, GROUPS)`` groups (delete-a-group; the
   audit leaves out up to 500 groups, in proportion to the classes' sizes: its test has at
   least these degrees of freedom, so this power is not above the audit's);
4. *power* = the share of ``sims`` planned test sets in which the test rejects with the planted
   sign (Monte Carlo se ``sqrt(p (1 - p) / sims)``).

:func:`minimal_detectable` is the smallest ``delta > 0`` with power >= ``target`` (on the grid of a bisection
on ``delta``; NaN when even the largest plantable difference falls short), :func:`positives_needed`
the smallest ``n_pos`` (prevalence kept) detecting the observed difference with power >=
``target`` (to 5%; NaN above ``max_pos``); both searches start from a normal approximation's guess from the data's
own standard error (:func:`data_se`, :mod:`prspace.audit.simulation.power_search`).  Checked against a known truth in
``tests/audit/test_audit_power.py`` (a planted binormal difference's detection rate on fresh test sets
is recovered within Monte Carlo error) and against pROC's ``power.roc.test`` (binormal, AUROC).
Assumption: the population stands in for the distribution the test rows are drawn from; planned
sizes far above the population's size re-use its rows many times (the scores' tails are the
population's).

**Grouped rows** (``--group-col``: a patient, subject or site per row; :class:`Pair` with ``g``): the
unit is the group, as in the audit's grouped intervals and tests (:mod:`prspace.audit.inference.grouping`).
Step 2 draws a planned test set of ``n_groups`` groups with replacement from the population's groups,
each group keeping all its rows (both models' scores, labels and weights; the classes are not
stratified, a group holds rows of both), so a planned set's positives vary as the groups drawn; step 3
runs the audit's grouped test: the jackknife t leaving out one group at a time (over
:data:`~prspace.stats.replicates.JACK_GROUPS` groups, as many random sets of groups;
:func:`prspace.stats.replicates.jackknife` of a grouped block) with Holm, for AUROC too (DeLong assumes
independent rows), at the level the audit corrects its grouped jackknife-Holm to
(:func:`planned_threshold` with ``grouped=True``, at the planned set's expected positives and rows, as
:func:`prspace.audit.inference.audit_pairwise.block_decisions`).  :func:`groups_needed` replaces
:func:`positives_needed`: the fewest groups (the population's mean rows per group kept) detecting the
observed difference.  Calibrated in ``tests/audit/test_power_groups.py`` in the world of
:mod:`prspace.audit.simulation.group_sim` (intra-group correlation): the false rate under no difference at 30 and
100 groups, and the power on a planted difference against the audit's grouped test's detection rate on
fresh samples of that world.

**pROC's** ``power.roc.test(roc1, roc2)`` (read from its source: ``zbeta.obuchowski``,
``covvar``, ``var0.delta.covvar``, ``solve.zbeta``; Obuchowski and McClish 1997) is
``Phi((|delta| sqrt(n) - z_(alpha/2) sqrt(V0)) / sqrt(VA))`` with per-case variances
``VA = v1 + v2 - 2 c12`` (the difference's, under the alternative) and ``V0 = 2 v1 - 2 c12`` (the
null's, from the *first* curve alone).  The DeLong test the audit (and pROC's ``roc.test``)
runs divides by the variance estimated on the test set, which estimates VA; its power is
``Phi(|delta| sqrt(n) / sqrt(VA) - z_(alpha/2))`` (plus the far tail), which this module's
resampling reproduces.  The two agree iff ``V0 = VA``, i.e. ``v1 = v2``: they are *comparable*
where :func:`proc_null_ratio` ``sqrt(V0 / VA)`` is within :data:`PROC_COMPARABLE` of 1, the
planned size is the data's own (pROC's two-curve form plans no other) and the test is two-sided
and paired (the formulas then part by at most ``phi(0) z_(alpha/2) PROC_COMPARABLE``, under 0.016
in power).  Elsewhere pROC's answer depends on the order of its arguments, and a
simulation with a known binormal truth (``tests/audit/test_audit_power.py``) finds the DeLong test's
real detection rate at this module's answer, not pROC's (``docs/audit.md``, "Power and sample
size").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial

import numpy as np
import pandas as pd

from prspace.audit.inference.audit_blocks import blocks
from prspace.audit.inference.decision import decide
from prspace.audit.simulation.power_jobs import run_jobs
from prspace.audit.simulation.power_search import (
    difference_guess,
    grid_value,
    size_guess,
    smallest_on_grid,
    smallest_size,
)
from prspace.audit.simulation.power_tests import (
    GROUPS,
    METRICS,
    grouped_rate,
    need_for,
    reject,
)
from prspace.audit.simulation.power_tests import pair_block as _block  # planning's name for it
from prspace.core.errors import InputError
from prspace.core.memory import keep_freed_memory
from prspace.stats.delong import delong
from prspace.stats.pairwise import jackknife_pairs
from prspace.stats.replicates import (
    BOOT_METRICS,
    JACK_GROUPS,
    Block,
    jackknife,
    point_metrics,
)

#: Largest ``|sqrt(V0 / VA) - 1|`` at which pROC's power.roc.test is comparable (module docstring).
PROC_COMPARABLE = 0.02


@dataclasses.dataclass(frozen=True)
class Pair:
    """Two models' scores on the same rows: ``y`` (bool), ``a``, ``b``, and the rows' weights ``w``
    (None: unit).  A weighted population is the distribution the weights describe: its metrics are
    the weighted ones and a planned test set draws its rows within each class with probability
    proportional to their weights (an unweighted sample of that distribution).  ``g``: the rows'
    groups (integer codes; None: no groups); a planned test set then draws whole groups, each keeping
    its rows and their weights (module docstring, "Grouped rows")."""

    y: np.ndarray
    a: np.ndarray
    b: np.ndarray
    w: np.ndarray | None = None
    g: np.ndarray | None = None

    def __post_init__(self) -> None:
        if not (self.y.shape == self.a.shape == self.b.shape) or self.y.ndim != 1:
            raise ValueError("y, a and b must be 1-d arrays of the same length")
        if self.g is not None and (self.g.shape != self.y.shape or not np.issubdtype(self.g.dtype, np.integer)):
            raise ValueError("g must hold one integer group code per row")
        if self.w is not None and (self.w.shape != self.y.shape or not np.all(self.w >= 0)
                                   or not (self.w[self.y].sum() > 0 and self.w[~self.y].sum() > 0)):
            raise ValueError("w must be non-negative weights, one per row, positive in each class")
        if self.y.sum() < 2 or (~self.y).sum() < 2:
            raise ValueError("the population needs at least two positives and two negatives")


def difference(pair: Pair, metric: str, c: float = 0.0) -> float:
    """The population difference ``metric(a + c y) - metric(b)``."""
    m = point_metrics(_block(pair.y, pair.a + c * pair.y, pair.b, pair.w))[:, BOOT_METRICS.index(metric)]
    return float(m[0] - m[1])


def shift_for(pair: Pair, metric: str, delta: float, *, tol: float = 1e-6) -> float:
    """Step 1: the shift ``c`` of a's positives planting ``delta`` (NaN if out of reach)."""
    span = float(np.ptp(np.r_[pair.a, pair.b])) or 1.0
    lo, hi = -4 * span, 4 * span
    f_lo, f_hi = difference(pair, metric, lo) - delta, difference(pair, metric, hi) - delta
    if f_lo > 0 or f_hi < 0:
        return float("nan")
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        f = difference(pair, metric, mid) - delta
        if abs(f) < tol:
            return mid
        lo, hi = (mid, hi) if f < 0 else (lo, mid)
    return 0.5 * (lo + hi)


def proc_null_ratio(pair: Pair) -> float:
    """``sqrt(V0 / VA)`` of the module docstring for the two models' DeLong (co)variances: 1 where
    pROC's power.roc.test(a, b) and this module's power agree; above 1, pROC's is lower."""
    _, cov = delong(pair.y, np.vstack([pair.a, pair.b]))
    return float(np.sqrt((2 * cov[0, 0] - 2 * cov[0, 1]) / (cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])))


def detection_rate(pair: Pair, metric: str, *, c: float, n_pos: int | None = None, n_neg: int | None = None,
                   alpha: float, sims: int, rng: np.random.Generator, sign: float = 1.0,
                   n_groups: int | None = None, need: int | None = None) -> tuple[float, float]:
    """Steps 2-4: the share of ``sims`` planned test sets whose test rejects with sign ``sign``, and
    its Monte Carlo se.  Weighted population: rows drawn within each class with probability
    proportional to their weights.  Grouped population (``pair.g``): ``n_groups`` groups per planned
    test set instead of ``n_pos`` and ``n_neg`` (module docstring, "Grouped rows").  ``need``: the caller
    asks only whether at least ``need`` sets reject (:func:`reaches`): the same sets are drawn, and tested in
    order until that is decided; the share returned then counts the untested sets as not rejecting (it is on
    the same side of ``need / sims`` as the full share, and is not a power estimate)."""
    if metric not in METRICS:
        raise ValueError(f"no power answer for {metric!r}; choose one of {', '.join(METRICS)}")
    if pair.g is not None:
        if n_groups is None:
            raise ValueError("a grouped population plans its test sets in groups: give n_groups")
        return grouped_rate(pair, metric, c=c, n_groups=n_groups, alpha=alpha, sims=sims, rng=rng, sign=sign,
                             need=need)
    pos, neg = np.flatnonzero(pair.y), np.flatnonzero(~pair.y)
    a = pair.a + c * pair.y
    if pair.w is None:
        idx = np.concatenate([pos[rng.integers(0, pos.size, (sims, n_pos))],
                              neg[rng.integers(0, neg.size, (sims, n_neg))]], axis=1)
    else:
        draw = [cls[np.minimum(np.searchsorted(np.cumsum(pair.w[cls]) / pair.w[cls].sum(), rng.random((sims, k)),
                                               side="right"), cls.size - 1)] for cls, k in ((pos, n_pos), (neg, n_neg))]
        idx = np.concatenate(draw, axis=1)
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    hit = reject(metric, y, a[idx], pair.b[idx], alpha, sign, need=need)
    p = float(hit.mean())
    return p, float(np.sqrt(p * (1 - p) / sims))


def planned_threshold(metric: str, n_pos: float, n_neg: float, level: float, *, grouped: bool = False) -> float:
    """The raw p-value threshold at which the audit's deciding test of ``metric`` (DeLong-Holm for
    AUROC, the jackknife-t Holm otherwise: the tests this module simulates) rejects at nominal
    ``level`` in the calibrated cell nearest the planned ``n_pos`` positives of ``n_pos + n_neg``
    rows (its level corrected by simulation, :mod:`prspace.audit.inference.decision`); ``level`` itself when
    the metric has no calibration.  ``grouped``: the audit's grouped test, the jackknife-t Holm for
    every metric (:func:`prspace.audit.inference.audit_pairwise.block_decisions` of a grouped block)."""

    jack = grouped or metric != "auroc"
    d = decide(metric, n_pos, n_pos + n_neg, available=("jackknife-Holm",) if jack else ("DeLong-Holm",))
    return d.raw_threshold(level) if d.method is not None else level


def group_shape(pair: Pair) -> tuple[float, float, float]:
    """A grouped population's mean rows, (weighted) positives and negatives per group."""
    w = np.ones(pair.y.size) if pair.w is None else pair.w
    k = np.unique(pair.g).size
    return pair.y.size / k, float(w[pair.y].sum()) / k, float(w[~pair.y].sum()) / k


def grouped_threshold(pair: Pair, metric: str, n_groups: int, level: float) -> float:
    """:func:`planned_threshold` (grouped) at a planned test set of ``n_groups`` groups: its expected
    positives and negatives (the population's per group, times ``n_groups``)."""
    _, pos, neg = group_shape(pair)
    return planned_threshold(metric, n_groups * pos, n_groups * neg, level, grouped=True)


def power_at(pair: Pair, metric: str, delta: float, *, n_pos: int | None = None, n_neg: int | None = None,
             alpha: float = 0.05, sims: int = 200, seed: int = 0, n_groups: int | None = None,
             need: int | None = None) -> tuple[float, float]:
    """Power (and MC se) to detect a planted ``delta`` (> 0: a better) at the planned sizes
    (``n_groups`` for a grouped population); ``need``: only compared with ``need / sims`` (:func:`detection_rate`)."""
    c = shift_for(pair, metric, delta)
    if np.isnan(c):
        return float("nan"), float("nan")
    return detection_rate(pair, metric, c=c, n_pos=n_pos, n_neg=n_neg, alpha=alpha, sims=sims,
                          rng=np.random.default_rng(seed), sign=1.0 if delta >= 0 else -1.0, n_groups=n_groups,
                          need=need)


def data_se(pair: Pair, metric: str, *, seed: int = 0) -> float:
    """The standard error of the population's own difference of ``metric`` (the audit's stratified jackknife of its
    rows, or of its groups when grouped; :func:`prspace.stats.pairwise.jackknife_pairs`): where the searches start
    (:mod:`prspace.audit.simulation.power_search`)."""
    block = _block(pair.y, pair.a, pair.b, pair.w)
    if pair.g is not None:
        block.cluster = np.unique(pair.g, return_inverse=True)[1].ravel()
        block.cluster_stratum = np.zeros(int(block.cluster.max()) + 1, dtype=np.int64)
    jack, strata = jackknife(block, rng=np.random.default_rng(seed))
    col = BOOT_METRICS.index(metric)
    return float(jackknife_pairs(point_metrics(block)[:, col], jack[:, :, col], strata).se[0])


def _units(pair: Pair) -> int:
    """The population's positives (its groups when grouped): the size its own standard error is at."""
    return int(np.unique(pair.g).size) if pair.g is not None else int(pair.y.sum())


def minimal_detectable(pair: Pair, metric: str, *, n_pos: int | None = None, n_neg: int | None = None,
                       alpha: float = 0.05, target: float = 0.8, sims: int = 200, seed: int = 0, steps: int = 7,
                       n_groups: int | None = None, progress: Callable[[str], None] | None = None,
                       se: float | None = None) -> float:
    """The smallest planted ``delta > 0`` detected with power >= ``target``, on the grid of ``steps`` halvings of
    ``(0, top]`` (``top`` the largest plantable difference, less 2%); NaN if ``top`` is detected less often.  The
    search starts at the normal approximation's difference (:func:`prspace.audit.simulation.power_search.
    difference_guess`) from ``se``, the population's own standard error (:func:`data_se` when None; NaN: the plain
    bisection of ``(0, top]``), scaled to the planned size, and returns the grid point the bisection returns
    wherever the power rises with the difference (:func:`prspace.audit.simulation.power_search.smallest_on_grid`).
    ``progress``: called with a short text before each power computed."""
    say = progress or (lambda text: None)
    # only whether each power reaches the target is read: its test sets are tested until that is decided
    size = {"n_pos": n_pos, "n_neg": n_neg, "n_groups": n_groups, "need": need_for(target, sims)}
    top = 0.98 * (difference(pair, metric, 1e6) - 0.0)
    if not top > 0:
        return float("nan")
    se = data_se(pair, metric, seed=seed) if se is None else se
    planned = n_groups if pair.g is not None else n_pos
    guess = difference_guess(se * np.sqrt(_units(pair) / planned), alpha, target) / top * 2**steps

    def reaches(j: int) -> bool:
        delta = grid_value(top, j, steps)
        say(f"{metric}: smallest difference detected: power at difference {delta:.3f}")
        return power_at(pair, metric, delta, alpha=alpha, sims=sims, seed=seed, **size)[0] >= target

    j = smallest_on_grid(reaches, steps, guess)
    return float("nan") if j is None else grid_value(top, j, steps)


def _odds_against(pair: Pair) -> float:
    """Negatives per positive in the population (weighted when weighted)."""
    w = np.ones(pair.y.size) if pair.w is None else pair.w
    return float(w[~pair.y].sum() / w[pair.y].sum())


def positives_needed(pair: Pair, metric: str, *, alpha: float = 0.05, target: float = 0.8, sims: int = 200,
                     seed: int = 0, max_pos: int = 20_000, corrected: bool = False,
                     progress: Callable[[str], None] | None = None, se: float | None = None) -> float:
    """The fewest positives (prevalence of the population kept) detecting the observed difference
    with power >= ``target``, to within 5%; NaN if more than ``max_pos`` (or no difference).  ``corrected``: test
    at the audit's corrected level for each planned size (:func:`planned_threshold` of ``alpha``).  The search
    starts at the normal approximation's size from ``se`` (as :func:`minimal_detectable`'s;
    :func:`prspace.audit.simulation.power_search.smallest_size`)."""
    d = difference(pair, metric)
    if d == 0:
        return float("nan")
    sign = 1.0 if d > 0 else -1.0
    ratio = _odds_against(pair)

    def power(m: int) -> float:
        q = max(2, int(round(m * ratio)))
        level = planned_threshold(metric, m, q, alpha) if corrected else alpha
        return detection_rate(pair, metric, c=0.0, n_pos=m, n_neg=q, alpha=level, sims=sims,
                              rng=np.random.default_rng(seed), sign=sign, need=need_for(target, sims))[0]

    se = data_se(pair, metric, seed=seed) if se is None else se
    return smallest_size(power, target, lo=1, hi=4, cap=max_pos, guess=size_guess(d, se, _units(pair), alpha, target),
                         say=progress and (lambda m: progress(f"{metric}: positives needed: power at {m:,} positives")))


def groups_needed(pair: Pair, metric: str, *, alpha: float = 0.05, target: float = 0.8, sims: int = 200,
                  seed: int = 0, max_groups: int = 20_000, corrected: bool = False,
                  progress: Callable[[str], None] | None = None, se: float | None = None) -> float:
    """:func:`positives_needed` of a grouped population: the fewest groups (drawn whole from the
    population's) detecting the observed difference with power >= ``target``; NaN if more than
    ``max_groups`` (or no difference).  ``corrected``: at the audit's corrected level of its grouped
    test for each planned number of groups (:func:`grouped_threshold` of ``alpha``)."""
    d = difference(pair, metric)
    if d == 0:
        return float("nan")
    sign = 1.0 if d > 0 else -1.0

    def power(k: int) -> float:
        level = grouped_threshold(pair, metric, k, alpha) if corrected else alpha
        return detection_rate(pair, metric, c=0.0, n_groups=k, alpha=level, sims=sims,
                              rng=np.random.default_rng(seed), sign=sign, need=need_for(target, sims))[0]

    se = data_se(pair, metric, seed=seed) if se is None else se
    return smallest_size(power, target, lo=2, hi=8, cap=max_groups, guess=size_guess(d, se, _units(pair), alpha, target),
                         say=progress and (lambda k: progress(f"{metric}: groups needed: power at {k:,} groups")))


POWER_COLUMNS = ["task", "metric", "model_a", "model_b", "observed_diff", "n_pos", "n_neg", "pairs", "alpha_pair",
                 "raw_threshold", "power_observed", "power_mc_se", "minimal_detectable", "positives_needed", "positives_cap", "target",
                 "sims", "test"]
#: With groups (``--group-col``): sizes in groups, the expected positives and negatives of a planned set,
#: and the groups needed instead of the positives.
GROUP_POWER_COLUMNS = ["task", "metric", "model_a", "model_b", "observed_diff", "n_groups", "rows_per_group", "n_pos",
                       "n_neg", "pairs", "alpha_pair", "raw_threshold", "power_observed", "power_mc_se",
                       "minimal_detectable", "groups_needed", "groups_cap", "target", "sims", "test"]
GROUPED_TEST = f"grouped jackknife t (one group left out at a time, at most {JACK_GROUPS} sets of groups)"


def _grouped_table(block: Block, n_groups: list[int] | None, metrics: tuple[str, ...], alpha: float, target: float,
                   sims: int, seed: int, progress: Callable[[str], None] | None = None) -> list[dict]:
    """:func:`power_table`'s rows of a grouped block (module docstring, "Grouped rows")."""
    k = len(block.models)
    pairs = k * (k - 1) // 2
    pts = point_metrics(block)
    plan = list(n_groups) if n_groups else [block.n_clusters]
    if min(plan) < 2:
        raise InputError(f"planned sizes need at least 2 groups, got {min(plan)}")
    w = None if np.all(block.weight == 1.0) else np.asarray(block.weight, dtype=np.float64)
    rows = []
    for metric in metrics:
        col = BOOT_METRICS.index(metric)
        order = np.argsort(-pts[:, col], kind="stable")
        a, b = int(order[0]), int(order[1])
        pair = Pair(block.y, block.scores[a], block.scores[b], w, g=np.asarray(block.cluster, dtype=np.int64))
        per_rows, per_pos, per_neg = group_shape(pair)
        cap = search_cap(block.n_clusters)
        if progress is not None:
            progress(f"{metric}: power and groups needed (up to {cap:,})")
        se_data = data_se(pair, metric, seed=seed)  # where the searches start
        d = float(pts[a, col] - pts[b, col])
        levels = [grouped_threshold(pair, metric, m, alpha / pairs) for m in plan]
        need, *at = run_jobs([partial(groups_needed, pair, metric, alpha=alpha / pairs, target=target, sims=sims,
                                      seed=seed, corrected=True, max_groups=cap, progress=progress, se=se_data)]
                             + [partial(_at_size, pair, metric, d, level, {"n_groups": m}, target, sims, seed, se_data,
                                        progress, f"{m:,} groups") for m, level in zip(plan, levels, strict=True)])
        for m, level, (pw, se, mdd) in zip(plan, levels, at, strict=True):
            rows.append({"task": block.task, "metric": metric, "model_a": block.models[a], "model_b": block.models[b],
                         "observed_diff": d, "n_groups": m, "rows_per_group": per_rows, "n_pos": m * per_pos,
                         "n_neg": m * per_neg, "pairs": pairs, "alpha_pair": alpha / pairs, "raw_threshold": level,
                         "power_observed": pw, "power_mc_se": se, "minimal_detectable": mdd, "groups_needed": need,
                         "groups_cap": cap, "target": target, "sims": sims, "test": GROUPED_TEST})
    return rows


def _at_size(pair: Pair, metric: str, d: float, level: float, size: dict, target: float, sims: int, seed: int,
             se_data: float, progress: Callable[[str], None] | None, planned: str) -> tuple[float, float, float]:
    """At a planned ``size`` (``n_pos`` and ``n_neg``, or ``n_groups``): the power to detect the observed difference
    ``d`` (NaN without one), its MC se, and the smallest difference detected (:func:`minimal_detectable`)."""
    if progress is not None:
        progress(f"{metric}: power at {planned}")
    pw, se = (detection_rate(pair, metric, c=0.0, alpha=level, sims=sims, rng=np.random.default_rng(seed), **size)
              if d > 0 else (float("nan"), float("nan")))
    return pw, se, minimal_detectable(pair, metric, alpha=level, target=target, sims=sims, seed=seed,
                                      progress=progress, se=se_data, **size)


def search_cap(have_pos: int) -> int:
    """The most positives (or groups) :func:`power_table` plans for the positives (groups) needed: ten times the
    file's (a planned set that large draws each of the file's ten times over: the population is the file), at
    least 1,000 and at most 20,000."""
    return int(min(20_000, max(1_000, 10 * have_pos)))


def power_table(data, *, n_pos: list[int] | None = None, n_neg: list[int] | None = None,
                metrics: tuple[str, ...] = METRICS, alpha: float = 0.05, target: float = 0.8, sims: int = 200,
                seed: int = 0, n_groups: list[int] | None = None, progress: Callable[[str], None] | None = None):
    """Per task (models on the same rows), metric of ``metrics`` and planned size: the best model
    against the runner-up by that metric (``model_a``, ``model_b``), the observed difference, the
    power to detect it at the planned size, the smallest difference detected with power ``target``
    (:func:`minimal_detectable`) and the positives needed for the observed one
    (:func:`positives_needed`); ``data`` the audit's canonical frame
    (:func:`prspace.audit.intake.inputs.prepare`).  Planned sizes: ``n_pos`` (default: the task's) and
    ``n_neg`` (default: the task's prevalence kept).  Weighted rows: the population the weights describe
    (:class:`Pair`).  Grouped rows (a ``group`` column, ``--group-col``): planned sizes in groups,
    ``n_groups`` (default: the task's), and the columns :data:`GROUP_POWER_COLUMNS` (module docstring,
    "Grouped rows").  The positives needed are searched up to ``positives_cap`` (:func:`search_cap`: ten times
    the task's positives, at least 1,000, at most 20,000); ``progress``: called with a short text as each
    metric starts (the command line prints it on stderr)."""
    unknown = [m for m in metrics if m not in METRICS]
    if unknown:
        raise InputError(f"no power answer for {', '.join(unknown)}; choose from {', '.join(METRICS)}")
    grouped = "group" in data.columns
    if grouped and (n_pos or n_neg):
        raise InputError("with --group-col the unit is the group: plan sizes with --groups N (numbers of groups), "
                         "not --positives/--negatives")
    if n_groups and not grouped:
        raise InputError("--groups plans numbers of groups: it needs --group-col naming each row's group")
    # the planned sets' kernel arrays (tens of MB on the grouped path) are allocated and freed thousands of times:
    # kept, not faulted in again (prspace.core.memory; the grouped 2,000-row benchmark file: 24 of 50 CPU s were
    # the kernel's page faults)
    keep_freed_memory()
    rows = []
    for block in blocks(data)[0]:
        if not block.paired:
            continue
        # one job per metric, two at a time where there are two cores (the same answers: each seeds its own draws)
        sizes = (n_groups,) if grouped else (n_pos, n_neg)
        jobs = [partial(_grouped_table if grouped else _rows_table, block, *sizes, (metric,), alpha, target, sims, seed,
                        progress) for metric in metrics]
        rows += [row for part in run_jobs(jobs) for row in part]
    return pd.DataFrame(rows, columns=GROUP_POWER_COLUMNS if grouped else POWER_COLUMNS)


def _planned_sizes(block: Block, n_pos: list[int] | None, n_neg: list[int] | None) -> tuple[list[int], list[int]]:
    """The planned positives and negatives of a block: given, or the block's (its prevalence kept)."""
    plan_pos = list(n_pos) if n_pos else [int(block.y.sum())]
    if n_neg and len(n_neg) != len(plan_pos):
        raise InputError("give one --negatives per --positives (or none: the prevalence is kept)")
    ratio = _odds_against(Pair(block.y, block.scores[0], block.scores[1], np.asarray(block.weight, np.float64)))
    plan_neg = list(n_neg) if n_neg else [max(2, int(round(p * ratio))) for p in plan_pos]
    return plan_pos, plan_neg


def _rows_table(block: Block, n_pos: list[int] | None, n_neg: list[int] | None, metrics: tuple[str, ...],
                alpha: float, target: float, sims: int, seed: int,
                progress: Callable[[str], None] | None = None) -> list[dict]:
    """:func:`power_table`'s rows of a block without groups: per metric and planned size."""
    k = len(block.models)
    pairs = k * (k - 1) // 2
    pts = point_metrics(block)
    plan_pos, plan_neg = _planned_sizes(block, n_pos, n_neg)
    cap = search_cap(int(block.y.sum()))
    rows = []
    for metric in metrics:
        if progress is not None:
            progress(f"{metric}: power and positives needed (up to {cap:,})")
        col = BOOT_METRICS.index(metric)
        order = np.argsort(-pts[:, col], kind="stable")
        a, b = int(order[0]), int(order[1])
        w = None if np.all(block.weight == 1.0) else np.asarray(block.weight, dtype=np.float64)
        pair = Pair(block.y, block.scores[a], block.scores[b], w)
        se_data = data_se(pair, metric, seed=seed)  # where the searches start
        d = float(pts[a, col] - pts[b, col])
        small = [(p, q) for p, q in zip(plan_pos, plan_neg, strict=True) if p < 2 or q < 2]
        if small:
            raise InputError(f"planned sizes need at least 2 positives and 2 negatives, got {small[0][0]} and {small[0][1]}")
        levels = [planned_threshold(metric, p, q, alpha / pairs) for p, q in zip(plan_pos, plan_neg, strict=True)]
        need, *at = run_jobs([partial(positives_needed, pair, metric, alpha=alpha / pairs, target=target, sims=sims,
                                      seed=seed, corrected=True, max_pos=cap, progress=progress, se=se_data)]
                             + [partial(_at_size, pair, metric, d, level, {"n_pos": p, "n_neg": q}, target, sims, seed,
                                        se_data, progress, f"{p:,} positives / {q:,} negatives")
                                for p, q, level in zip(plan_pos, plan_neg, levels, strict=True)])
        for p, q, level, (pw, se, mdd) in zip(plan_pos, plan_neg, levels, at, strict=True):
            rows.append({"task": block.task, "metric": metric, "model_a": block.models[a],
                         "model_b": block.models[b], "observed_diff": d, "n_pos": p, "n_neg": q, "pairs": pairs,
                         "alpha_pair": alpha / pairs, "raw_threshold": level, "power_observed": pw, "power_mc_se": se,
                         "minimal_detectable": mdd, "positives_needed": need, "positives_cap": cap,
                         "target": target, "sims": sims,
                         "test": "DeLong z" if metric == "auroc" else f"jackknife t ({GROUPS} groups per class)"})
    return rows
