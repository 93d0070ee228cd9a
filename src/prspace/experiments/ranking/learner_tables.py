"""Learners across tasks (Boyd et al. 2012, section 4.2): their order by mean AUPR vs mean AUCNPR,
the pairs that flip, the winner by several criteria, and the panel's sensitivity to near-duplicate
learners (one model per family)."""


from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from prspace.core.defaults import N_BOOT
from prspace.core.panels import learner_family
from prspace.experiments.ranking.disagreement_summary import summarise_disagreement
from prspace.experiments.ranking.ranks import (
    _check_columns,
    _corr,
    all_disagreements,
    metric_pairs,
    positions,
    rank_models,
    top_k,
)
from prspace.metrics.names import BOYD_METRICS, LEARNER_METRICS


def learner_ranking_across_tasks(
    df: pd.DataFrame,
    metrics: Sequence[str] = ("aupr", "aucnpr", "auprg"),
    *,
    group: str = "task_id",
    learner: str = "flow_name",
    min_share: float = 1.0,
    decimals: int = 12,
) -> pd.DataFrame:
    """Rank learners across tasks by their mean metric (Boyd et al. 2012, section 4.2).

    Averaging AUPR over tasks of different skew mixes scores whose ranges differ
    (the minimum AUPR grows with ``pi``); AUCNPR rescales each task to [0, 1] first.
    This function shows whether that changes the learners' order.

    Parameters
    ----------
    df : one row per (group, learner) with metric columns (the study's metrics table).
    metrics : the metrics to average.
    learner : the column that identifies a learner across tasks (local learners: the
        model id or flow name; OpenML: the flow).
    min_share : keep only learners present in at least this share of the groups
        (default 1: only learners evaluated on every task, so the means are comparable).

    Returns
    -------
    One row per learner with ``learner, n_tasks``, for each metric ``mean_<m>`` (mean
    over tasks), ``rank_mean_<m>`` (the learner's rank by that mean, 1 = best, average
    ranks for ties) and ``mean_rank_<m>`` (its mean within-task rank among the kept
    learners); sorted by ``rank_mean_<first metric>`` then learner.
    """
    metrics = list(metrics)
    _check_columns(df, [group, learner, *metrics], "the metrics table")
    n_groups = df[group].nunique()
    counts = df.groupby(learner)[group].nunique()
    keep = counts.index[counts >= min_share * n_groups - 1e-9]
    sub = df[df[learner].isin(keep)]
    if sub.empty:
        raise ValueError(f"no {learner} occurs in at least {min_share:.0%} of the {n_groups} tasks")
    within = rank_models(sub, metrics, group=group, model=learner, decimals=decimals)
    out = pd.DataFrame({learner: sorted(keep)})
    out["n_tasks"] = out[learner].map(counts).astype(int)
    for m in metrics:
        means = sub.groupby(learner)[m].mean()
        out[f"mean_{m}"] = out[learner].map(means).astype(np.float64)
        out[f"rank_mean_{m}"] = (-out[f"mean_{m}"].round(decimals)).rank(method="average")
        out[f"mean_rank_{m}"] = out[learner].map(within.groupby(learner)[m].mean()).astype(np.float64)
    return out.sort_values([f"rank_mean_{metrics[0]}", learner], kind="stable", ignore_index=True)


def learner_order_agreement(learners: pd.DataFrame, metrics: Sequence[str] = ("aupr", "aucnpr", "auprg"), *, learner: str = "flow_name") -> pd.DataFrame:
    """For every pair of metrics: do the across-task orders of the learners agree?

    Input: output of :func:`learner_ranking_across_tasks`.  One row per pair with
    ``metric_a, metric_b, n_learners, best_a, best_b, top1_differs, top3_differs,
    spearman, kendall`` computed on the ``rank_mean_<m>`` columns.
    """
    rows = []
    for a, b in metric_pairs(metrics):
        ra = learners.set_index(learner)[f"rank_mean_{a}"]
        rb = learners.set_index(learner)[f"rank_mean_{b}"]
        rho, tau = _corr(ra.to_numpy(np.float64), rb.to_numpy(np.float64))
        ta, tb = top_k(ra, 1), top_k(rb, 1)
        rows.append(
            {
                "metric_a": a,
                "metric_b": b,
                "n_learners": len(learners),
                "best_a": ", ".join(sorted(map(str, ta))),
                "best_b": ", ".join(sorted(map(str, tb))),
                "top1_differs": ta != tb,
                "top3_differs": top_k(ra, 3) != top_k(rb, 3),
                "spearman": rho,
                "kendall": tau,
            }
        )
    return pd.DataFrame(rows)


def flipped_pairs(
    df: pd.DataFrame,
    metric_a: str = "aupr",
    metric_b: str = "auprg",
    *,
    group: str = "task_id",
    model: str = "model_id",
    decimals: int = 12,
) -> pd.DataFrame:
    """Pairs of models in the same group whose order flips between two metrics.

    Model ``first`` is strictly better than ``second`` by ``metric_a`` and strictly
    worse by ``metric_b`` (as AdaBoost and Logistic Regression in Flach & Kull's
    Figure 5).  Columns ``group, first, second, <metric_a>_first, <metric_a>_second,
    <metric_b>_first, <metric_b>_second, best_position`` where ``best_position`` is
    the better of the two models' positions under ``metric_b`` (small = a flip among
    the top models); sorted by ``best_position, group, first, second``.
    """
    _check_columns(df, [group, model, metric_a, metric_b], "the metrics table")
    rows = []
    for g, sub in df.groupby(group, sort=True):
        sub = sub.sort_values(model, kind="stable")
        a = sub[metric_a].to_numpy(np.float64).round(decimals)
        b = sub[metric_b].to_numpy(np.float64).round(decimals)
        names = sub[model].to_numpy()
        pos_b = positions(np.where(np.isnan(b), -np.inf, -b))
        flip = (a[:, None] > a[None, :]) & (b[:, None] < b[None, :])
        for i, j in zip(*np.nonzero(flip), strict=True):
            rows.append(
                {
                    group: g,
                    "first": names[i],
                    "second": names[j],
                    f"{metric_a}_first": a[i],
                    f"{metric_a}_second": a[j],
                    f"{metric_b}_first": b[i],
                    f"{metric_b}_second": b[j],
                    "best_position": int(min(pos_b[i], pos_b[j])),
                }
            )
    cols = [group, "first", "second", f"{metric_a}_first", f"{metric_a}_second",
            f"{metric_b}_first", f"{metric_b}_second", "best_position"]
    out = pd.DataFrame(rows, columns=cols)
    return out.sort_values(["best_position", group, "first", "second"], kind="stable", ignore_index=True)
WINNER_CRITERIA = ("mean", "median", "mean_rank")


def learner_winners(
    df: pd.DataFrame,
    metrics: Sequence[str] = ("aupr", "aucnpr", "auprg", "auroc"),
    *,
    group: str = "task_id",
    learner: str = "flow_id",
    decimals: int = 12,
) -> pd.DataFrame:
    """The best learner across tasks by mean, median and mean within-task rank, with its margin.

    Only learners evaluated on every task take part. For each metric and criterion: the winner
    and the runner-up, their values and the margin between them, and how many tasks, left out
    one at a time, change the winner (``n_tasks_flip``; ``flip_tasks`` names up to five). A
    mean of AUPRG is fragile: AUPRG is unbounded below, so one task with a negative AUPRG can
    decide it; the median and the mean rank are not moved by one extreme value.
    """
    _check_columns(df, [group, learner, *metrics], "the metrics table")
    n_groups = df[group].nunique()
    counts = df.groupby(learner)[group].nunique()
    keep = sorted(counts.index[counts == n_groups])
    sub = df[df[learner].isin(keep)]
    rows = []
    if not keep:  # no learner on every task (an OpenML draw of 30 flows per task): no winner to name
        return pd.DataFrame(columns=WINNER_COLUMNS)
    for m in metrics:
        tasks = sub[group].drop_duplicates().sort_values().to_numpy()
        X = sub.pivot(index=group, columns=learner, values=m).reindex(index=tasks, columns=keep).to_numpy(np.float64)
        R = pd.DataFrame(-np.round(X, decimals)).rank(axis=1, method="average").to_numpy()
        for crit in WINNER_CRITERIA:
            def stat(rows_mask: np.ndarray, crit: str = crit, X: np.ndarray = X, R: np.ndarray = R) -> np.ndarray:
                if crit == "mean":
                    return np.round(X[rows_mask].mean(axis=0), decimals)
                if crit == "median":
                    return np.round(np.median(X[rows_mask], axis=0), decimals)
                return -np.round(R[rows_mask].mean(axis=0), decimals)  # lower mean rank is better
            allrows = np.ones(len(tasks), dtype=bool)
            v = stat(allrows)
            order = np.lexsort((np.asarray(keep, dtype=str), -v))
            w, r = order[0], order[1] if len(order) > 1 else order[0]
            flips = []
            for t in range(len(tasks)):
                mask = allrows.copy()
                mask[t] = False
                vt = stat(mask)
                if np.lexsort((np.asarray(keep, dtype=str), -vt))[0] != w:
                    flips.append(str(tasks[t]))
            sign = -1.0 if crit == "mean_rank" else 1.0
            rows.append({"metric": m, "criterion": crit, "n_learners": len(keep), "n_tasks": len(tasks),
                         "winner": keep[w], "runner_up": keep[r], "winner_value": sign * v[w],
                         "runner_up_value": sign * v[r], "margin": float(v[w] - v[r]),
                         "n_tasks_flip": len(flips), "flip_tasks": ", ".join(flips[:5])})
    return pd.DataFrame(rows, columns=WINNER_COLUMNS)


#: the columns of :func:`learner_winners`
WINNER_COLUMNS = ["metric", "criterion", "n_learners", "n_tasks", "winner", "runner_up", "winner_value", "runner_up_value",
                  "margin", "n_tasks_flip", "flip_tasks"]


def learner_families(metrics: pd.DataFrame) -> pd.Series:
    """model id -> learner family (:func:`prspace.core.panels.learner_family` for local learners)."""
    ids = pd.Series(sorted(metrics["model_id"].astype(str).unique()))

    def fam(name: str) -> str:
        try:
            return str(learner_family(name))
        except Exception:  # an OpenML flow or a learner the panel does not know: its own family
            return name

    return pd.Series([fam(m) for m in ids], index=ids.to_numpy())


def one_model_per_family(df: pd.DataFrame, families: pd.Series, *, model: str = "model_id") -> pd.DataFrame:
    """The rows of one model per learner method (hyperparameter variants of one method).

    ``families`` maps ``df[model]`` to a family (e.g. ``logreg-C0.1``, ``logreg-C1`` ->
    ``logreg``). The representative of a family is its model id that sorts first: fixed across
    tasks and chosen without looking at any metric, so no metric is favoured.
    """
    fam = df[model].map(families).fillna(df[model]).astype(str)
    rep = pd.Series(df[model].astype(str).to_numpy(), index=fam.to_numpy()).groupby(level=0).min()
    return df[df[model].astype(str).isin(set(rep.to_numpy()))]


def one_per_family_disagreements(df: pd.DataFrame, families: pd.Series, metrics: Sequence[str]) -> pd.DataFrame:
    """The per-task disagreement table (:func:`all_disagreements`) of the models left by
    :func:`one_model_per_family`, ranked by ``metrics`` (in that order: it fixes each pair's
    ``metric_a``, ``metric_b``)."""
    return all_disagreements(rank_models(one_model_per_family(df, families), metrics), metrics)


def panel_sensitivity(
    df: pd.DataFrame,
    families: pd.Series,
    metrics: Sequence[str],
    *,
    tasks: pd.DataFrame | None = None,
    n_boot: int = N_BOOT,
    seed: int = 0,
) -> pd.DataFrame:
    """Disagreement shares with every model and with one model per learner method, side by side.

    Near-duplicate models (variants of one method) make near-ties; if the shares move when only
    one model per family is kept, the panel, not the metrics, drives part of the disagreement.
    One row per metric pair: ``n_models_all``, ``n_models_family`` (median per task) and for
    ``top1, top3`` the shares ``<s>_all`` and ``<s>_family`` with the latter's cluster-bootstrap
    interval, and the mean per-task Spearman of both.
    """
    full = summarise_disagreement(all_disagreements(rank_models(df, metrics), metrics), tasks=tasks,
                                  n_boot=n_boot, seed=seed)
    sub = one_model_per_family(df, families)
    fam = summarise_disagreement(one_per_family_disagreements(df, families, metrics), tasks=tasks, n_boot=n_boot,
                                 seed=seed)
    n_all = float(df.groupby("task_id")["model_id"].nunique().median())
    n_fam = float(sub.groupby("task_id")["model_id"].nunique().median())
    rows = []
    for (_, f), (_, a) in zip(fam.iterrows(), full.iterrows(), strict=True):
        rows.append({"metric_a": f.metric_a, "metric_b": f.metric_b, "n_models_all": n_all, "n_models_family": n_fam,
                     "top1_all": a.top1_share, "top1_family": f.top1_share, "top1_family_lo": f.top1_lo,
                     "top1_family_hi": f.top1_hi, "top3_all": a.top3_share, "top3_family": f.top3_share,
                     "top3_family_lo": f.top3_lo, "top3_family_hi": f.top3_hi,
                     "spearman_all": a.spearman_mean, "spearman_family": f.spearman_mean})
    return pd.DataFrame(rows)


#: Columns of :func:`learner_order_agreement`'s table, also when there is nothing to compare.
AGREEMENT_COLUMNS = ["metric_a", "metric_b", "n_learners", "best_a", "best_b",
                     "top1_differs", "top3_differs", "spearman", "kendall"]


class LearnerTables(NamedTuple):
    """The learner tables of ``prspace step rank``; ``problem``: why ``learners`` and ``agreement`` are empty."""

    learners: pd.DataFrame
    agreement: pd.DataFrame
    winners: pd.DataFrame
    problem: str | None


def learner_tables(metrics: pd.DataFrame, *, min_share: float = 1.0, learner: str = "flow_id",
                   name: str = "flow_name") -> LearnerTables:
    """Learners across tasks from a study's metrics table, as ``prspace step rank`` writes them.

    ``learners``: :func:`learner_ranking_across_tasks` on the :data:`~prspace.metrics.names.LEARNER_METRICS`
    the table has, with each learner's ``name`` beside its id; ``agreement``:
    :func:`learner_order_agreement` of those orders; ``winners``: :func:`learner_winners` on the
    :data:`~prspace.metrics.names.BOYD_METRICS` the table has.  When the learners cannot be ranked
    (e.g. none is present in ``min_share`` of the tasks), ``learners`` and ``agreement`` are empty
    tables with their columns and ``problem`` says why.
    """
    present = [m for m in LEARNER_METRICS if m in metrics.columns]
    names = metrics.drop_duplicates(learner).set_index(learner)[name]
    problem = None
    try:
        learners = learner_ranking_across_tasks(metrics, present, learner=learner, min_share=min_share)
        learners.insert(1, name, learners[learner].map(names))
        agreement = learner_order_agreement(learners, present, learner=learner)
    except ValueError as exc:
        problem = str(exc)
        learners = pd.DataFrame(columns=[learner, name, "n_tasks"])
        agreement = pd.DataFrame(columns=AGREEMENT_COLUMNS)
    winners = learner_winners(metrics, [m for m in BOYD_METRICS if m in metrics.columns], learner=learner)
    return LearnerTables(learners, agreement, winners, problem)
