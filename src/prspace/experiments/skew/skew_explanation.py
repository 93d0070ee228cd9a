"""Skew as a tested explanation of the metrics' disagreement: the trend of the disagreement against
pi across tasks, the counterfactual (every task moved to a reference study's pi), the disagreement
by balance level; the evidence rows they give are in :mod:`prspace.experiments.skew.skew_evidence`.

Reads the tables of :mod:`prspace.experiments.skew.controlled_skew` (which re-exports every name here).
Every interval is the family bootstrap of :mod:`prspace.stats.family_bootstrap`
(:func:`~prspace.stats.family_bootstrap.cluster_bootstrap_means`, re-exported here).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath

import numpy as np
import pandas as pd

from prspace.core.defaults import N_BOOT
from prspace.core.errors import InputError
from prspace.stats.family_bootstrap import cluster_bootstrap_means
from prspace.stats.intervals import percentile, percentile_interval

# --- skew as a tested explanation: the trend, the counterfactual, the balance levels -----------

#: Target ids of the counterfactual (:func:`counterfactual_targets`).
REFERENCE_MEDIAN = "reference_median"
REFERENCE_DISTRIBUTION = "reference_distribution"
#: Balance levels of the observed shares: pi < 0.1 (skewed, like most of the default suite's
#: KEEL imbalanced variants), 0.1 <= pi < 0.3, pi >= 0.3 (near balanced, like most of the
#: paper-like suite and of Flach & Kull's OpenML tasks).
BALANCE_EDGES = (0.1, 0.3)
POOLED = "all"
#: The statistics of the trend, counterfactual and balance tables: k -> per-task column.
TOP_K = {1: "top1_differs", 3: "top3_differs"}

TREND_COLUMNS = ["metric_a", "metric_b", "k", "slope", "slope_lo", "slope_hi", "n_tasks", "n_families", "n_targets",
                 "pi_max", "share_at_max_pi", "pi_min", "share_at_min_pi", "mc_error"]
COUNTERFACTUAL_COLUMNS = ["metric_a", "metric_b", "target_id", "target", "k", "share", "lo", "hi", "n_tasks",
                          "n_families", "pi_target_median", "pi_target_min", "pi_target_max", "n_reference", "mc_error"]
BALANCE_COLUMNS = ["metric_a", "metric_b", "k", "balance", "pi_lo", "pi_hi", "share", "lo", "hi", "n_tasks",
                   "n_families", "pi_median"]


def task_families(task_ids: Sequence[object], tasks: pd.DataFrame | None) -> np.ndarray:
    """The family of each task (``tasks`` column ``family``; a task without one is its own), the
    clusters of every interval here, as in :func:`prspace.experiments.ranking.summarise_disagreement`."""
    ids = pd.Index([str(t) for t in task_ids])
    if tasks is None or "family" not in tasks.columns:
        return ids.to_numpy(dtype=object)
    fam = tasks.assign(task_id=tasks["task_id"].astype(str)).drop_duplicates("task_id").set_index("task_id")["family"]
    f = fam.reindex(ids).to_numpy(dtype=object)
    return np.where(pd.isna(f), ids.to_numpy(dtype=object), f).astype(str)


def ls_slope(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least-squares slope of ``y`` on ``x`` along the last axis (``y``: (..., len(x)))."""
    x = np.asarray(x, dtype=np.float64)
    xc = x - x.mean()
    y = np.asarray(y, dtype=np.float64)
    return ((y - y.mean(axis=-1, keepdims=True)) * xc).sum(axis=-1) / (xc @ xc)


def _slope_replicates(
    values: np.ndarray, pi: Sequence[float], clusters: np.ndarray, *, n_boot: int, seed: int,
) -> tuple[float, np.ndarray, np.ndarray]:
    """``(slope, bootstrap slopes, shares)`` of :func:`share_slope` (NaN slopes with one target)."""
    x = -np.log10(np.asarray(pi, dtype=np.float64))
    means, boot = cluster_bootstrap_means(values, clusters, n_boot=n_boot, seed=seed)
    if len(x) < 2:
        return float("nan"), np.full(n_boot, np.nan), means
    return float(ls_slope(x, means)), ls_slope(x, boot), means


def share_slope(
    values: np.ndarray, pi: Sequence[float], clusters: np.ndarray, *, n_boot: int = N_BOOT, seed: int = 0,
    level: float = 0.95,
) -> tuple[float, float, float, np.ndarray]:
    """The least-squares slope of the share against ``-log10(pi)`` and its cluster-bootstrap interval.

    ``values``: tasks x targets (1 = the task's top-k differ at that target pi, NaN = missing);
    ``pi``: the targets; ``clusters``: each task's family. Families are drawn with replacement
    once per resample (:func:`cluster_bootstrap_means`), every target's share is recomputed from
    the drawn tasks and the slope refit; percentile interval. Returns ``(slope, lo, hi, shares)``.
    """
    slope, boot, means = _slope_replicates(values, pi, clusters, n_boot=n_boot, seed=seed)
    if not np.isfinite(slope):
        return slope, float("nan"), float("nan"), means
    lo, hi = percentile(boot, level)
    return slope, float(lo), float(hi), means


def _pairs(df: pd.DataFrame) -> list[tuple[str, str]]:
    return list(dict.fromkeys(zip(df["metric_a"].astype(str), df["metric_b"].astype(str), strict=True)))


def skew_trend(
    per_task: pd.DataFrame, *, tasks: pd.DataFrame | None = None, n_boot: int = N_BOOT, seed: int = 0,
    level: float = 0.95,
) -> pd.DataFrame:
    """Per metric pair and k in (1, 3): how fast the top-k disagreement rises as pi falls.

    ``per_task``: the controlled-skew per-task table (:func:`controlled_skew_task`, stacked over
    tasks; the rows at the tasks' own pi are left out). The slope is the least-squares slope of
    the share of disagreeing tasks against ``-log10(pi_target)`` over the targets (share change
    per decade of falling pi). Its interval: families of tasks are drawn with replacement
    (:func:`cluster_bootstrap_means`: the same resamples for every target, so each resample's
    shares come from one set of tasks), every target's share is recomputed and the slope refit;
    percentile interval at ``level``. Columns :data:`TREND_COLUMNS`.
    """
    df = per_task[~per_task["is_observed"].astype(bool)] if "is_observed" in per_task.columns else per_task
    rows = []
    for a, b in _pairs(df):
        sub = df[(df["metric_a"] == a) & (df["metric_b"] == b)]
        for k, col in TOP_K.items():
            wide = sub.pivot_table(index="task_id", columns="pi_target", values=col, aggfunc="first")
            wide = wide.astype(np.float64).sort_index().sort_index(axis=1)
            pis = wide.columns.to_numpy(np.float64)
            clusters = task_families(wide.index, tasks)
            slope, boot, means = _slope_replicates(wide.to_numpy(), pis, clusters, n_boot=n_boot, seed=seed)
            lo, hi, mlo, mhi = percentile_interval(boot, level)
            rows.append({"metric_a": a, "metric_b": b, "k": k, "slope": slope, "slope_lo": float(lo[0]),
                         "slope_hi": float(hi[0]), "n_tasks": len(wide), "n_families": len(np.unique(clusters)),
                         "n_targets": len(pis), "pi_max": float(pis[-1]), "share_at_max_pi": float(means[-1]),
                         "pi_min": float(pis[0]), "share_at_min_pi": float(means[0]),
                         "mc_error": float(np.fmax(mlo[0], mhi[0]))})
    return pd.DataFrame(rows, columns=TREND_COLUMNS)


def reference_pi(reference_tasks: pd.DataFrame, *, name: str = "the reference task table") -> np.ndarray:
    """The pi of every usable task of a reference population (a study's ``tasks.csv``: rows with
    ``status`` ok, if it has that column, and a pi in (0, 1)), sorted."""
    if "pi" not in reference_tasks.columns:
        raise InputError(f"{name} has no column 'pi'; give a study's tables/tasks.csv (analysis.skew_reference)")
    t = reference_tasks
    if "status" in t.columns:
        t = t[t["status"].astype(str) == "ok"]
    pi = pd.to_numeric(t["pi"], errors="coerce").to_numpy(np.float64)
    pi = np.sort(pi[np.isfinite(pi) & (pi > 0) & (pi < 1)])
    if not len(pi):
        raise InputError(f"{name} has no usable task (status ok, 0 < pi < 1); give a finished study's tables/tasks.csv")
    return pi


def quantile_matched_pi(pi: pd.Series, reference: Sequence[float]) -> pd.Series:
    """Each task's pi moved to the reference population's pi at the same quantile.

    The task at pi-quantile ``q = (rank - 1) / (n - 1)`` of ``pi`` (ranks of ties averaged, so tied
    tasks get one target) gets ``numpy.quantile(reference, q)`` (linear interpolation): the
    least skewed task gets the reference's largest pi, the most skewed its smallest, the median
    task (odd n) its median; the order of the tasks' pi is kept.
    """
    ref = np.sort(np.asarray(reference, dtype=np.float64))
    n = len(pi)
    if n == 0:
        return pd.Series(dtype=np.float64, index=pi.index)
    q = (pi.rank(method="average").to_numpy(np.float64) - 1) / (n - 1) if n > 1 else np.array([0.5])
    return pd.Series(np.quantile(ref, q), index=pi.index, name="pi_target")


def counterfactual_targets(study_pi: pd.Series, reference: Sequence[float]) -> pd.DataFrame:
    """Per task (index of ``study_pi``): its pi under each counterfactual, columns
    :data:`REFERENCE_MEDIAN` (the reference's median pi, the same for every task) and
    :data:`REFERENCE_DISTRIBUTION` (:func:`quantile_matched_pi`)."""
    ref = np.asarray(reference, dtype=np.float64)
    return pd.DataFrame({REFERENCE_MEDIAN: float(np.median(ref)),
                         REFERENCE_DISTRIBUTION: quantile_matched_pi(study_pi, ref)}, index=study_pi.index)


def counterfactual_label(target_id: str, reference: Sequence[float]) -> str:
    """The ``target`` text of a counterfactual row, its numbers computed from ``reference``."""
    ref = np.asarray(reference, dtype=np.float64)
    if target_id == REFERENCE_MEDIAN:
        return f"median pi of the reference {np.median(ref):.3g}"
    if target_id == REFERENCE_DISTRIBUTION:
        return f"reference pi distribution (quantile matched, {ref.min():.3g} to {ref.max():.3g})"
    return target_id


def counterfactual_summary(
    cf_per_task: pd.DataFrame, *, reference: Sequence[float], tasks: pd.DataFrame | None = None,
    n_boot: int = N_BOOT, seed: int = 0, level: float = 0.95,
) -> pd.DataFrame:
    """Per metric pair, counterfactual target and k: the share of tasks whose top-k differ with
    every task reweighted to its counterfactual pi, with the cluster-bootstrap interval over
    families (as the study's shares: :func:`prspace.experiments.ranking.cluster_bootstrap_ci`,
    same seed). ``cf_per_task``: the second table of :func:`skew_task`, stacked over tasks.
    Columns :data:`COUNTERFACTUAL_COLUMNS`."""
    rows = []
    if not len(cf_per_task):
        return pd.DataFrame(columns=COUNTERFACTUAL_COLUMNS)
    for a, b in _pairs(cf_per_task):
        for tid in dict.fromkeys(cf_per_task["target_id"]):
            g = cf_per_task[(cf_per_task["metric_a"] == a) & (cf_per_task["metric_b"] == b)
                            & (cf_per_task["target_id"] == tid)].sort_values("task_id")
            clusters = task_families(g["task_id"], tasks)
            v = g[list(TOP_K.values())].to_numpy(np.float64)
            means, boot = cluster_bootstrap_means(v, clusters, n_boot=n_boot, seed=seed)
            lo, hi, mlo, mhi = percentile_interval(boot, level)
            pt = g["pi_target"].to_numpy(np.float64)
            for j, k in enumerate(TOP_K):
                rows.append({"metric_a": a, "metric_b": b, "target_id": tid,
                             "target": counterfactual_label(str(tid), reference), "k": k, "share": float(means[j]),
                             "lo": float(lo[j]), "hi": float(hi[j]), "n_tasks": len(g),
                             "n_families": len(np.unique(clusters)), "pi_target_median": float(np.median(pt)),
                             "pi_target_min": float(pt.min()), "pi_target_max": float(pt.max()),
                             "n_reference": len(np.asarray(reference)), "mc_error": float(np.fmax(mlo[j], mhi[j]))})
    return pd.DataFrame(rows, columns=COUNTERFACTUAL_COLUMNS)


def balance_levels(edges: Sequence[float] = BALANCE_EDGES) -> list[tuple[str, float, float]]:
    """``(label, pi_lo, pi_hi)`` of each balance level: ``pi < e1``, ``e1 <= pi < e2``, ..., ``pi >= ek``."""
    e = [float(x) for x in edges]
    if any(not 0 < x < 1 for x in e) or any(x >= y for x, y in zip(e, e[1:], strict=False)):
        raise InputError(f"balance edges {edges}: give increasing pi values in (0, 1), e.g. 0.1,0.3")
    bounds = [0.0, *e, 1.0]
    out = []
    for lo, hi in zip(bounds, bounds[1:], strict=False):
        if lo == 0.0:
            label = f"pi < {hi:g}"
        elif hi == 1.0:
            label = f"pi >= {lo:g}"
        else:
            label = f"{lo:g} <= pi < {hi:g}"
        out.append((label, lo, hi))
    return out


def disagreement_by_balance(
    per_task: pd.DataFrame, tasks: pd.DataFrame, *, edges: Sequence[float] = BALANCE_EDGES,
    n_boot: int = N_BOOT, seed: int = 0, level: float = 0.95,
) -> pd.DataFrame:
    """The study's own (unweighted) top-1 / top-3 shares per metric pair, pooled (balance
    :data:`POOLED`) and per balance level of the task (:func:`balance_levels`), each with the
    cluster-bootstrap interval over the families of that level's tasks (same seed as the study's
    shares, so the pooled row repeats ``disagreement_summary``'s share and interval).

    ``per_task``: the study's ``disagreement_per_task.csv``; ``tasks``: its task table (``pi``,
    ``family``). A level without a task is a row with ``n_tasks`` 0 and no share. Columns
    :data:`BALANCE_COLUMNS`.
    """
    t = tasks.assign(task_id=tasks["task_id"].astype(str)).drop_duplicates("task_id").set_index("task_id")
    if "pi" not in t.columns:
        raise InputError("the task table has no column 'pi'; give the study's tables/tasks.csv")
    df = per_task.assign(task_id=per_task["task_id"].astype(str))
    df = df.join(t["pi"].astype(np.float64), on="task_id")
    missing = sorted(df.loc[df["pi"].isna(), "task_id"].unique())
    if missing:
        raise InputError(f"task(s) {', '.join(missing[:5])} of the per-task table have no pi in the task table; "
                         "give the same study's tasks.csv")
    levels = [(POOLED, 0.0, 1.0), *balance_levels(edges)]
    rows = []
    for a, b in _pairs(df):
        sub = df[(df["metric_a"] == a) & (df["metric_b"] == b)].sort_values("task_id")
        for k, col in TOP_K.items():
            for label, lo_pi, hi_pi in levels:
                g = sub if label == POOLED else sub[(sub["pi"] >= lo_pi) & (sub["pi"] < hi_pi)]
                row = {"metric_a": a, "metric_b": b, "k": k, "balance": label, "pi_lo": lo_pi, "pi_hi": hi_pi,
                       "share": float("nan"), "lo": float("nan"), "hi": float("nan"), "n_tasks": len(g),
                       "n_families": 0, "pi_median": float("nan")}
                if len(g):
                    clusters = task_families(g["task_id"], tasks)
                    m, boot = cluster_bootstrap_means(g[col].to_numpy(np.float64), clusters, n_boot=n_boot, seed=seed)
                    lo, hi = percentile(boot, level)
                    row |= {"share": float(m[0]), "lo": float(lo[0]), "hi": float(hi[0]),
                            "n_families": len(np.unique(clusters)), "pi_median": float(g["pi"].median())}
                rows.append(row)
    return pd.DataFrame(rows, columns=BALANCE_COLUMNS)


def _pair_row(table: pd.DataFrame, a: str, b: str, **match: object) -> pd.Series | None:
    """The row of ``table`` for the unordered pair (a, b) and ``match``; None if absent."""
    sel = ((table["metric_a"] == a) & (table["metric_b"] == b)) | ((table["metric_a"] == b) & (table["metric_b"] == a))
    for key, val in match.items():
        sel &= table[key] == val
    hit = table[sel]
    return None if hit.empty else hit.iloc[0]


def reference_name(path: str) -> str:
    """A short name of a reference task table: ``results/<study>/tables/tasks.csv`` -> ``<study>``,
    else the file's stem."""
    p = PurePath(path)
    return p.parent.parent.name if p.parent.name == "tables" and p.parent.parent.name else p.stem


def study_counterfactual_targets(tasks: pd.DataFrame, task_ids: Sequence[str], reference: Sequence[float]) -> pd.DataFrame:
    """:func:`counterfactual_targets` of the study's tasks ``task_ids`` (their pi from the task table)."""
    t = tasks.assign(task_id=tasks["task_id"].astype(str)).drop_duplicates("task_id").set_index("task_id")
    if "pi" not in t.columns:
        raise InputError("the task table has no column 'pi'; give the study's tables/tasks.csv")
    pi = pd.to_numeric(t["pi"], errors="coerce").reindex([str(i) for i in task_ids])
    missing = pi.index[pi.isna()].tolist()
    if missing:
        raise InputError(f"task(s) {', '.join(missing[:5])} have predictions but no pi in the task table; "
                         "give the same study's tasks.csv")
    return counterfactual_targets(pi, reference)
