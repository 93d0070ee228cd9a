"""Evidence rows for the claims of Boyd et al. (ICML 2012), as the claims registry states them.

One row per claim (:func:`prspace.verdicts.rule.evidence_row`); only :mod:`prspace.verdicts.rule`
decides what a row means (``docs/verdicts.md``). Every ``boyd-2012`` row's id is a claim of
:mod:`prspace.core.claims` (quoted there), with its role:

* implementation checks (cannot fail on data; they check the code or the published table):
  ``boyd.thm1`` ... ``boyd.cor4`` (kind ``exact``: Theorems 1-3 and Corollary 4 written out here
  again against what :mod:`prspace.metrics` computes from labels and scores: the worst ranking at
  many skews and sizes, random rankings for Theorem 1's bound; ``estimate`` is the largest
  deviation), ``boyd.table3`` (Table 3's AUCNPR column from its AUCPR column and skews, within
  the rounding of three published decimals), ``boyd.table2.mean_row`` (Table 2's mean row) and
  ``boyd.table2.more_conservative`` (mean AUCNPR <= mean AUPR over tasks: true by construction);
* primary claims (Boyd's empirical sentences of sections 4.1 and 4.3, one simultaneous family with
  Flach & Kull's; :mod:`prspace.experiments.boyd.boyd_fold_skew_rows` (4.1),
  :mod:`prspace.experiments.boyd.boyd_evidence_runs` (4.3)): directions with cluster-bootstrap
  intervals over families at :func:`prspace.core.claims.primary_level`, their Monte Carlo
  error in ``mc_error``.

Everything else is this project's own question (``paper = "prspace"``, ids ``px.boyd.*``, 95%
intervals): the learners' order and winner under AUCNPR over tasks (section 4.2's Table 2 has one
algorithm and states neither), the size of the fold-skew divergence against the dispersion and the
rank changes under fold skew. Section 4.2's "close to" skews are not tested (the implied skews are
in ``boyd_table2_check``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from prspace import metrics
from prspace.core.claims import BOYD as PAPER
from prspace.core.claims import claim as registry_claim
from prspace.core.evidence import evidence_frame, evidence_row
from prspace.experiments.boyd import aggregation as ag
from prspace.experiments.boyd import downsampling as ds
from prspace.experiments.boyd.boyd_evidence_runs import (
    EXPLORATORY,
    downsampling_rows,
    exploratory_row,
    families,
    interval,
    values_table,
)
from prspace.experiments.boyd.boyd_fold_skew_rows import fold_skew_rows
from prspace.experiments.boyd.boyd_intervals import MC_BATCHES
from prspace.stats.family_bootstrap import cluster_resamples
from prspace.stats.intervals import order_statistic_interval

#: Family resamples of every interval of a mean (schema default of boyd.evidence.n_resamples):
#: enough for a Monte Carlo error of about 0.001 at the primary level with 8 families.
DEFAULT_RESAMPLES = 200_000

#: Sizes (positives, negatives) at which the theorems are checked on real label vectors.
THEORY_SIZES: tuple[tuple[int, int], ...] = tuple((p, n) for p in (1, 2, 5, 20, 100) for n in (1, 3, 19, 99, 999))
#: Recall ranges [a, b] at which Corollary 4 is checked.
THEORY_RANGES: tuple[tuple[float, float], ...] = ((0.0, 1.0), (0.5, 1.0), (0.8, 1.0), (0.2, 0.7), (0.0, 0.3))
#: Random rankings per size for Theorem 1's bound.
THEORY_RANDOM = 5
#: Decimals of the published Tables 2 and 3 (half a unit of the last is their rounding).
PUBLISHED_DECIMALS = 3


# --- closed forms, written out from the paper (independent of prspace.metrics) ----------------


def theorem1_bound(pi: float, recall: np.ndarray) -> np.ndarray:
    """Theorem 1: p >= pi r / (1 - pi + pi r)."""
    return pi * recall / (1.0 - pi + pi * recall)


def theorem2_area(pi: float) -> float:
    """Theorem 2: AUCPR_MIN = 1 + (1 - pi) ln(1 - pi) / pi (pi < 1)."""
    return 1.0 + (1.0 - pi) * np.log(1.0 - pi) / pi


def theorem3_ap(pos: int, neg: int) -> float:
    """Theorem 3: AP_MIN = (1 / pos) sum_{i=1}^{pos} i / (i + neg), summed term by term."""
    return sum(i / (i + neg) for i in range(1, pos + 1)) / pos


def corollary4_area(pi: float, a: float, b: float) -> float:
    """Corollary 4: AUCPR_MIN over recall in [a, b] = b - a + (1 - pi)/pi ln((pi (a-1) + 1) / (pi (b-1) + 1))."""
    return b - a + (1.0 - pi) / pi * np.log((pi * (a - 1.0) + 1.0) / (pi * (b - 1.0) + 1.0))


def _worst(pos: int, neg: int) -> tuple[np.ndarray, np.ndarray]:
    """Labels and scores of the worst strict ranking: every negative above every positive, no ties
    (Theorem 3 labels the positives one at a time)."""
    y = np.r_[np.ones(pos, bool), np.zeros(neg, bool)]
    return y, np.arange(y.size, dtype=np.float64)


def theory_rows(seed: int = 0) -> list[dict[str, object]]:
    """Theorems 1-3 and Corollary 4: closed form against prspace.metrics on the worst ranking."""
    rng = np.random.default_rng([seed, 1])
    dev1 = dev2 = dev3 = dev4 = 0.0
    pis = []
    for pos, neg in THEORY_SIZES:
        pi = pos / (pos + neg)
        pis.append(pi)
        y, s = _worst(pos, neg)
        # Theorem 1: the worst ranking's (interpolated) curve lies on the bound, random ones above it
        worst = metrics.interpolate_pr_curve(metrics.pr_curve(y, s))
        on = worst.recall > 0
        dev1 = max(dev1, float(np.max(np.abs(worst.precision[on] - theorem1_bound(pi, worst.recall[on])))))
        for _ in range(THEORY_RANDOM):
            c = metrics.interpolate_pr_curve(metrics.pr_curve(y, rng.random(y.size)))
            dev1 = max(dev1, float(np.max(theorem1_bound(pi, c.recall) - c.precision, initial=0.0)))
        dev2 = max(dev2, abs(metrics.aupr(y, s) - theorem2_area(pi)))
        dev3 = max(dev3, abs(metrics.average_precision(y, s) - theorem3_ap(pos, neg)))
        for a, b in THEORY_RANGES:
            dev4 = max(dev4, abs(metrics.aupr(y, s, recall_range=(a, b)) - corollary4_area(pi, a, b)))
    span = f"{len(THEORY_SIZES)} label vectors, pi {min(pis):.4f} to {max(pis):.2f}"
    return [
        evidence_row(paper=PAPER, claim_id="boyd.thm1", kind="exact", estimate=dev1,
                     claim="Theorem 1: precision p >= pi r / (1 - pi + pi r) at every recall r, with equality for the worst ranking",
                     detail=(f"{span}: largest distance of the worst ranking's interpolated PR curve from the bound, and largest "
                             f"shortfall below it of {THEORY_RANDOM} random rankings each (prspace.metrics.pr_curve, "
                             "interpolate_pr_curve)")),
        evidence_row(paper=PAPER, claim_id="boyd.thm2", kind="exact", estimate=dev2,
                     claim="Theorem 2: the minimum AUCPR is 1 + (1 - pi) ln(1 - pi) / pi",
                     detail=f"{span}: prspace.metrics.aupr of the worst ranking against the closed form"),
        evidence_row(paper=PAPER, claim_id="boyd.thm3", kind="exact", estimate=dev3,
                     claim="Theorem 3: the minimum average precision is (1/pos) sum_i i / (i + neg)",
                     detail=f"{span}: prspace.metrics.average_precision of the worst ranking against the sum"),
        evidence_row(paper=PAPER, claim_id="boyd.cor4", kind="exact", estimate=dev4,
                     claim="Corollary 4: over recall in [a, b] the minimum AUCPR is b - a + (1 - pi)/pi ln((pi(a-1)+1)/(pi(b-1)+1))",
                     detail=(f"{span}, recall ranges {', '.join(f'[{a:g}, {b:g}]' for a, b in THEORY_RANGES)}: "
                             "prspace.metrics.aupr(recall_range) of the worst ranking against the closed form")),
    ]


# --- published tables ---------------------------------------------------------------------------


def table_rows() -> list[dict[str, object]]:
    """Table 3 (AUCNPR from AUCPR and skew), Table 2's mean row and the skews its text states."""
    half = 0.5 * 10.0 ** -PUBLISHED_DECIMALS
    t3 = ds.table3_check()
    # both published numbers are rounded: |error| <= half + half / (1 - AUCPR_MIN)
    bound3 = half + half / (1.0 - t3["aucpr_min"].to_numpy(np.float64))
    dev3 = float(t3["difference"].abs().max())
    rows = [evidence_row(
        paper=PAPER, claim_id="boyd.table3", kind="exact", estimate=dev3, tolerance=float(bound3.min()),
        claim="Table 3: each published AUCNPR is (AUCPR - AUCPR_MIN) / (1 - AUCPR_MIN) at its test skew 1/(1+k)",
        detail=(f"{len(t3)} published cells; tolerance = the rounding of {PUBLISHED_DECIMALS} decimals propagated through "
                "the formula (the smallest over the cells)"))]
    pr = np.array([r[1] for r in ag.BOYD_TABLE2])
    npr = np.array([r[2] for r in ag.BOYD_TABLE2])
    dev_mean = max(abs(pr.mean() - ag.BOYD_TABLE2_MEAN[0]), abs(npr.mean() - ag.BOYD_TABLE2_MEAN[1]))
    rows.append(evidence_row(
        paper=PAPER, claim_id="boyd.table2.mean_row", kind="exact", estimate=dev_mean, tolerance=2 * half,
        claim="Table 2: the mean row is the mean of the predicates' AUCPR and AUCNPR",
        detail=(f"recomputed means {pr.mean():.4f} and {npr.mean():.4f} against the published {ag.BOYD_TABLE2_MEAN[0]} and "
                f"{ag.BOYD_TABLE2_MEAN[1]}; tolerance: rounding of the rows and of the mean row")))
    return rows


# --- this study: aggregation over tasks (Table 2 generalised, section 4.2) ----------------------


def order_change_resamples(A: np.ndarray, N: np.ndarray, fam: np.ndarray, *, n_resamples: int, seed: int,
                           batches: int = MC_BATCHES) -> np.ndarray:
    """``1 - tau_b`` between the learners' mean AUPR and mean AUCNPR over the tasks of each family
    resample (``A``, ``N``: tasks x learners). Families are drawn as in
    :func:`prspace.experiments.boyd.boyd_intervals.family_interval` (``batches`` batches of
    :func:`~prspace.stats.family_bootstrap.cluster_resamples`, seed ``(seed, batch)``) and enter as
    counts (a task's weight is how often its family was drawn). Kendall's tau-b over all learner
    pairs ``i < j`` is ``sum s_a s_n / sqrt(sum s_a^2 sum s_n^2)`` with ``s = sign(mean_i - mean_j)``,
    as :func:`scipy.stats.kendalltau` computes it (``tests/experiments/boyd/test_boyd_evidence.py`` checks it)."""
    i, j = np.triu_indices(A.shape[1], 1)
    per = -(-int(n_resamples) // batches)
    out = []
    for b in range(batches):
        cid, idx = cluster_resamples(fam, n_boot=per, seed=[int(seed), b])  # type: ignore[arg-type]
        counts = np.zeros((per, idx.shape[1]))
        np.add.at(counts, (np.repeat(np.arange(per), idx.shape[1]), idx.ravel()), 1.0)
        W = counts[:, cid]
        wsum = W.sum(axis=1, keepdims=True)
        ba, bn = (W @ A) / wsum, (W @ N) / wsum
        sa, sn = np.sign(ba[:, i] - ba[:, j]), np.sign(bn[:, i] - bn[:, j])
        with np.errstate(invalid="ignore", divide="ignore"):
            out.append(1.0 - (sa * sn).sum(axis=1) / np.sqrt((sa * sa).sum(axis=1) * (sn * sn).sum(axis=1)))
    return np.concatenate(out)


def aggregation_rows(df: pd.DataFrame, tasks: pd.DataFrame | None, *, learner: str, seed: int,
                     n_resamples: int = DEFAULT_RESAMPLES) -> list[dict[str, object]]:
    """Table 2's "more conservative" (an implementation check) and this project's section-4.2
    questions (exploratory) on the study's metrics table (one row per task x learner).

    ``n_resamples``: family resamples of every interval (means: :func:`prspace.experiments.boyd.boyd_evidence_runs.interval`;
    the order change: :func:`order_change_resamples` with :func:`~prspace.stats.intervals.order_statistic_interval`)."""
    from scipy.stats import kendalltau  # lazy: ~0.5 CPU s a process that never calls it
    ag._check(df, learner)
    keep = ag.common_learners(df, learner=learner)
    if not keep:  # no learner on every task (an OpenML draw): no means over tasks to compare, no rows
        return []
    sub = df[df[learner].isin(keep)]
    X = {m: sub.pivot_table(index="task_id", columns=learner, values=m, aggfunc="mean").sort_index() for m in ("aupr", "aucnpr")}
    task_ids = X["aupr"].index.to_numpy()
    fam = families(task_ids, tasks)
    common = {"n_tasks": float(len(task_ids)), "n_families": float(len(set(fam)))}
    A, N = X["aupr"].to_numpy(np.float64), X["aucnpr"][X["aupr"].columns].to_numpy(np.float64)
    names = list(X["aupr"].columns)
    c = registry_claim("boyd.table2.more_conservative")
    gap = (A - N).mean(axis=1)  # learners averaged within a task
    iv = interval(gap, fam, n_resamples=n_resamples, seed=seed, level=0.95)
    rows = [evidence_row(
        paper=PAPER, claim_id=c.claim_id, kind="direction", paper_value=1.0, **iv.row(),
        claim=f"{c.quote} ({c.where}: mean {ag.BOYD_TABLE2_MEAN[0]:.3f} vs {ag.BOYD_TABLE2_MEAN[1]:.3f})",
        detail=(f"an implementation check: AUCNPR <= AUPR for every model by construction (AUPR >= AUCPR_MIN), so this row "
                f"cannot fail on data. Mean over tasks of (AUPR - AUCNPR), the {len(names)} learners evaluated on every task "
                f"averaged within a task; mean AUPR {A.mean():.3f}, mean AUCNPR {N.mean():.3f}"), **common)]
    # this project's questions: does averaging AUCNPR instead of AUPR over tasks reorder the learners?
    ma, mn = A.mean(axis=0), N.mean(axis=0)
    tau = float(kendalltau(ma, mn).statistic)
    boot = order_change_resamples(A, N, fam, n_resamples=n_resamples, seed=seed)
    lo_t, hi_t, mc_lo, mc_hi = order_statistic_interval(boot, 0.95)
    same = float(np.mean(boot <= 1e-12))
    rows.append(evidence_row(
        paper=EXPLORATORY, claim_id="px.boyd.sec4_2.order_changes", kind="direction", paper_value=1.0,
        estimate=1.0 - tau, ci_lo=lo_t, ci_hi=hi_t, level=0.95, mc_error=max(mc_lo, mc_hi), mc_error_lo=mc_lo,
        mc_error_hi=mc_hi,
        claim=("Averaging AUCNPR instead of AUPR over tasks of different skew changes the learners' order "
               "(1 - Kendall's tau > 0)"),
        detail=(f"this project's question (section 4.2's Table 2 has one algorithm and states no order). Kendall's tau between the {len(names)} learners' mean AUPR and mean AUCNPR over tasks = {tau:.3f}; interval: "
                f"the same on {len(boot)} cluster-bootstrap resamples of families, of which {same:.2%} keep the order "
                f"unchanged (1 - tau = 0; below 2.5% the interval excludes 0); MC error of the ends by order statistics "
                f"{mc_lo:.4f} / {mc_hi:.4f} (1 - tau moves in steps of 2/{len(names) * (len(names) - 1) // 2}). 1 - tau cannot be below "
                "0, so this row can hold or be undecided (the orders may be identical), not be contradicted"), **common))
    w = int(np.argmax(ma))
    others = [i for i in range(len(names)) if i != w]
    r = others[int(np.argmax(mn[others]))]
    rows.append(exploratory_row(
        "px.boyd.sec4_2.winner_changes", N[:, w] - N[:, r], fam, n_resamples=n_resamples, seed=seed, common=common,
        direction=-1.0,
        claim_text=("The learner with the best mean AUPR over tasks is not the best by mean AUCNPR (its AUCNPR margin is "
                    "negative)"),
        detail=(f"this project's question (section 4.2's Table 2 has one algorithm). Margin = mean AUCNPR of the best learner by mean AUPR ({names[w]}) minus that of the best other learner by "
                f"mean AUCNPR ({names[r]}); below 0: averaging AUCNPR changes the winner, above 0: it keeps it")))
    return rows


def boyd_evidence(**kwargs: object) -> pd.DataFrame:
    """Every Boyd et al. evidence row (:func:`boyd_evidence_tables`' first table)."""
    return boyd_evidence_tables(**kwargs)[0]  # type: ignore[arg-type]


def boyd_evidence_tables(
    *, metrics_table: pd.DataFrame | None = None, tasks: pd.DataFrame | None = None,
    downsampling_runs: pd.DataFrame | None = None, fold_skew_runs: pd.DataFrame | None = None,
    mechanism: pd.DataFrame | None = None, learner: str = "flow_id",
    n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0, max_pi: float = 0.1, min_positives: int = 25,
    downsampling_scope: str = "",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every Boyd et al. evidence row (:data:`prspace.core.evidence.EVIDENCE_COLUMNS`) and this
    project's exploratory rows about them, and the per-task values their family intervals resample
    (:func:`prspace.experiments.boyd.boyd_evidence_runs.values_table`); ``mechanism``: the table of
    :func:`prspace.experiments.boyd.boyd_mechanism.mechanism_table` (the 4.1 row's detail)."""
    rows = theory_rows(seed) + table_rows()
    if metrics_table is not None and len(metrics_table):
        rows += aggregation_rows(metrics_table, tasks, learner=learner, seed=seed, n_resamples=n_resamples)
    if fold_skew_runs is not None:
        rows += fold_skew_rows(fold_skew_runs, tasks, n_resamples=n_resamples, seed=seed, mechanism=mechanism)
    if downsampling_runs is not None:
        rows += downsampling_rows(downsampling_runs, tasks, n_resamples=n_resamples, seed=seed, max_pi=max_pi,
                                  min_positives=min_positives, scope=downsampling_scope)
    return evidence_frame(rows), values_table(rows)
