"""Aggregation over tasks of different skew (Boyd et al. 2012, section 4.2 and Table 2).

Averaging AUCPR over tasks mixes scores whose floors differ: a task with skew pi gives every
model AUCPR_MIN(pi) for free (Theorem 2), so a learner's mean AUCPR partly measures which tasks
are balanced. AUCNPR rescales each task to [0, 1]; AUPRG (Flach and Kull 2015) rescales precision
and recall to gains relative to the always-positive baseline.

The learners' mean metric and their order across tasks come from
:func:`prspace.experiments.ranking.learner_ranking_across_tasks` (shared with the study's ranking
tables). This module adds the skew perspective:

* :func:`per_task_table` -- Table 2 generalised: per task and learner, pi, AUCPR_MIN, AUPR,
  AUCNPR, AUPRG, AUROC;
* :func:`skew_correlation` -- Spearman's rho of each metric with pi across tasks (per learner
  and for the learners' mean), and the share of the mean AUPR that is the free AUCPR_MIN;
* :func:`skew_group_means` -- each learner's mean metric within skew groups (pi terciles) and its
  rank there, to show how the order moves with skew;
* :func:`table2_check` -- Boyd's own Table 2: the mean row and the skews its AUCPR/AUCNPR pairs imply.

Input everywhere: the study's metrics table (:data:`prspace.experiments.fk.scoring.METRICS_COLUMNS`),
one row per task and model, with columns ``task_id, pi`` and the metric columns.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace import metrics
from prspace.core.errors import InputError
from prspace.experiments.ranking import learner_order_agreement, learner_ranking_across_tasks
from prspace.metrics.names import BOYD_METRICS

METRICS = BOYD_METRICS
#: the columns of :func:`skew_group_means`
GROUP_COLUMNS = ["skew_group", "n_tasks", "learner", "metric", "mean", "rank"]


def _check(df: pd.DataFrame, learner: str) -> None:
    need = ["task_id", "pi", learner, *METRICS]
    missing = [c for c in need if c not in df.columns]
    if missing:
        raise InputError(f"the metrics table lacks column(s) {', '.join(missing)}; make it with `prspace step collect`")
    if df.empty:
        raise InputError("the metrics table has no rows; no task was scored")


def common_learners(df: pd.DataFrame, *, learner: str = "flow_id") -> list[str]:
    """The learners evaluated on every task of ``df`` (sorted): the only ones whose means over tasks compare like
    with like.  An OpenML draw of 30 flows per task from hundreds may have none."""
    counts = df.groupby(learner)["task_id"].nunique()
    return sorted(counts.index[counts == df["task_id"].nunique()])


def no_common_learner(df: pd.DataFrame, *, learner: str = "flow_id") -> str:
    """Why a study has no learners' means over tasks: no ``learner`` on every task, and the most common one's count."""
    counts = df.groupby(learner)["task_id"].nunique()
    return (f"no {learner} was evaluated on every one of the {df['task_id'].nunique()} tasks (the most common on "
            f"{int(counts.max()) if len(counts) else 0}): means over tasks compare learners only over the same tasks, so "
            "section 4.2's learner tables are left empty (an OpenML draw of 30 flows per task rarely shares one)")


def per_task_table(df: pd.DataFrame, *, learner: str = "flow_id") -> pd.DataFrame:
    """Table 2 generalised: one row per task x learner, sorted by pi then learner."""
    _check(df, learner)
    out = df[["task_id", "pi", learner, *METRICS]].rename(columns={learner: "learner"}).copy()
    out.insert(2, "aupr_min", np.asarray(metrics.aupr_min(out["pi"].to_numpy(np.float64)), dtype=np.float64))
    return out.sort_values(["pi", "task_id", "learner"], kind="stable", ignore_index=True)


def learner_means(df: pd.DataFrame, *, learner: str = "flow_id") -> tuple[pd.DataFrame, pd.DataFrame]:
    """Learners' mean metrics and ranks across tasks, and the pairwise agreement of their orders.

    Thin wrapper over :func:`prspace.experiments.ranking.learner_ranking_across_tasks` and
    :func:`~prspace.experiments.ranking.learner_order_agreement` with AUPR, AUCNPR, AUPRG, AUROC.
    """
    _check(df, learner)
    means = learner_ranking_across_tasks(df, METRICS, learner=learner)
    agree = learner_order_agreement(means, METRICS, learner=learner)
    return means, agree


def skew_correlation(df: pd.DataFrame, *, learner: str = "flow_id") -> pd.DataFrame:
    """Spearman's rho between each metric and pi across tasks.

    One row per learner plus ``mean of learners`` (the per-task mean over learners), with for each
    metric ``rho_<m>`` and its p-value ``p_<m>``, and ``mean_aupr_min`` / ``mean_aupr`` /
    ``free_share`` = the share of the mean AUPR that is AUCPR_MIN (the part any model gets).
    """
    from scipy.stats import spearmanr  # lazy: ~0.5 CPU s a process that never calls it
    _check(df, learner)
    frames = [(str(name), g) for name, g in df.groupby(learner, sort=True)]
    frames.append(("mean of learners", df.groupby("task_id", sort=True)[["pi", *METRICS]].mean().reset_index()))
    rows = []
    for name, g in frames:
        row: dict[str, object] = {"learner": name, "n_tasks": int(g["task_id"].nunique())}
        for m in METRICS:
            v = g[m].round(12)  # float noise is not a difference (e.g. AUCNPR 0 +- 1e-16)
            if g["pi"].nunique() > 2 and v.nunique() > 1:
                res = spearmanr(g["pi"], v)
                row[f"rho_{m}"], row[f"p_{m}"] = float(res.statistic), float(res.pvalue)
            else:
                row[f"rho_{m}"], row[f"p_{m}"] = float("nan"), float("nan")
        lo = np.asarray(metrics.aupr_min(g["pi"].to_numpy(np.float64)), dtype=np.float64)
        row["mean_aupr_min"] = float(lo.mean())
        row["mean_aupr"] = float(g["aupr"].mean())
        row["free_share"] = float(lo.mean() / g["aupr"].mean())
        rows.append(row)
    return pd.DataFrame(rows)


def skew_groups(pi: pd.Series, n_groups: int = 3) -> pd.Series:
    """Label tasks by pi quantile group (``low pi`` ... ``high pi``) with the pi range in the label."""
    n_groups = max(1, min(n_groups, pi.nunique()))
    codes = pd.qcut(pi.rank(method="first"), n_groups, labels=False)
    labels = {}
    for c in range(n_groups):
        sel = pi[codes == c]
        labels[c] = f"{c + 1}: pi {sel.min():.3f}-{sel.max():.3f}"
    return codes.map(labels)


def skew_group_means(df: pd.DataFrame, *, learner: str = "flow_id", n_groups: int = 3) -> pd.DataFrame:
    """Each learner's mean metric within pi groups of tasks, and its rank (1 = best) in the group.

    Only learners evaluated on every task take part. Also a group ``all tasks``. Long format: ``skew_group, n_tasks, learner, metric, mean, rank``.
    """
    _check(df, learner)
    # only learners evaluated on every task, so that group means compare like with like (as in
    # ranking.learner_ranking_across_tasks with min_share = 1); none: no rows
    df = df[df[learner].isin(common_learners(df, learner=learner))]
    if df.empty:
        return pd.DataFrame(columns=GROUP_COLUMNS)
    tasks = df.drop_duplicates("task_id").set_index("task_id")["pi"]
    group = skew_groups(tasks, n_groups)
    d = df.assign(skew_group=df["task_id"].map(group))
    rows = []
    for gname, g in [*sorted(d.groupby("skew_group"), key=lambda t: t[0]), ("all tasks", d)]:
        means = g.groupby(learner)[list(METRICS)].mean()
        for m in METRICS:
            rank = (-means[m].round(12)).rank(method="average")
            for lrn in means.index:
                rows.append({"skew_group": gname, "n_tasks": int(g["task_id"].nunique()), "learner": lrn,
                             "metric": m, "mean": float(means.loc[lrn, m]), "rank": float(rank.loc[lrn])})
    return pd.DataFrame(rows)


def skew_groups_wide(groups: pd.DataFrame) -> pd.DataFrame:
    """:func:`skew_group_means` in wide form: one row per skew group and learner, columns
    ``mean_<metric>`` and ``rank_<metric>``."""
    wide = groups.pivot_table(index=["skew_group", "n_tasks", "learner"], columns="metric", values=["mean", "rank"])
    wide.columns = [f"{a}_{m}" for a, m in wide.columns]
    return wide.reset_index()


# Boyd et al. 2012, Table 2: LSM (Kok and Domingos 2010) on the IMDB predicates: AUCPR, AUCNPR.
BOYD_TABLE2: tuple[tuple[str, float, float], ...] = (
    ("actor", 1.000, 1.000),
    ("director", 1.000, 1.000),
    ("gender", 0.509, 0.325),
    ("genre", 0.624, 0.611),
    ("movie", 0.267, 0.141),
    ("workedUnder", 1.000, 1.000),
)
BOYD_TABLE2_MEAN = (0.733, 0.680)
# Skews the text of section 4.2 gives: gender "close to 0.5" (range [0.31, 1.0]),
# genre "closer to 0.05" (range [0.02, 1.0]).
BOYD_TABLE2_STATED_PI = {"gender": 0.5, "genre": 0.05}


def pi_from_aupr_min(area: float) -> float:
    """Invert Theorem 2: the skew pi whose AUCPR_MIN is ``area`` (AUCPR_MIN rises with pi)."""
    from scipy.optimize import brentq  # lazy: ~0.5 CPU s a process that never calls it
    if not 0 < area < 1:
        return float("nan")
    return float(brentq(lambda p: float(metrics.aupr_min(p)) - area, 1e-12, 1 - 1e-12, xtol=1e-14))


def table2_check() -> pd.DataFrame:
    """Boyd's Table 2 checked: implied AUCPR_MIN and pi of each predicate, and the mean row.

    From AUCNPR = (AUCPR - m) / (1 - m) the floor is m = (AUCPR - AUCNPR) / (1 - AUCNPR) (undefined
    when both are 1); inverting Theorem 2 gives the implied skew. Where the text states a skew the
    table also shows the AUCNPR that skew would give.
    """
    rows = []
    for name, pr, npr in BOYD_TABLE2:
        implied_min = (pr - npr) / (1 - npr) if npr < 1 else float("nan")
        stated = BOYD_TABLE2_STATED_PI.get(name, float("nan"))
        at_stated = float("nan")
        if np.isfinite(stated):
            lo = float(metrics.aupr_min(stated))
            at_stated = (pr - lo) / (1 - lo)
        rows.append({"predicate": name, "aucpr_published": pr, "aucnpr_published": npr,
                     "implied_aucpr_min": implied_min, "implied_pi": pi_from_aupr_min(implied_min),
                     "stated_pi": stated, "aucnpr_at_stated_pi": at_stated})
    out = pd.DataFrame(rows)
    mean = {"predicate": "mean (recomputed)", "aucpr_published": out["aucpr_published"].mean(),
            "aucnpr_published": out["aucnpr_published"].mean()}
    pub = {"predicate": "mean (published)", "aucpr_published": BOYD_TABLE2_MEAN[0], "aucnpr_published": BOYD_TABLE2_MEAN[1]}
    return pd.concat([out, pd.DataFrame([mean, pub])], ignore_index=True)


def order_changes(means: pd.DataFrame, *, learner: str = "flow_id", metrics_: Sequence[str] = METRICS) -> pd.DataFrame:
    """The learners' positions under each metric's across-task mean, side by side (for tables)."""
    cols = [learner] + [f"rank_mean_{m}" for m in metrics_] + [f"mean_{m}" for m in metrics_]
    return means[cols].sort_values(f"rank_mean_{metrics_[0]}", kind="stable", ignore_index=True)
