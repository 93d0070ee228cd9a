"""Skew, isolated: move a task's pi with the same models and the same scores.

Across tasks, skew is confounded with everything else (datasets, sizes, difficulty). Here the
skew of one task is moved by reweighting its negatives: every negative row gets weight
``c = n_pos (1 - pi') / (pi' n_neg)``, so the weighted share of positives is ``pi'``. A uniform
weight on one class scales FP at every threshold by ``c`` and leaves every ROC curve, hence
AUROC and its ranks, unchanged (the property is tested); precision, and with it AUPR, AP,
AUCNPR and AUPRG, moves with ``pi'`` (Flach & Kull 2015, sec. 3: precision gain and recall gain
depend on pi; Boyd et al. 2012, Theorem 2: AUPR_MIN depends only on pi). Reweighting the
negatives up is the population with more negatives of the same score distribution; down, a
uniform subsample of them, in expectation.

For each target ``pi'`` the models are ranked and compared exactly as in the study
(:mod:`prspace.experiments.ranking`), so the disagreement between two metrics can be read
against pi with everything else fixed. Scores are sorted once per model; every target is one
rescaling of the negatives' counts per tie group (:func:`prspace.metrics.metrics_from_group_counts`).

The second half of the study, skew as a tested explanation (trend, counterfactual, balance levels,
evidence rows), is :mod:`prspace.experiments.skew.skew_explanation`; its names are re-exported here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from prspace import metrics as M
from prspace.core.defaults import N_BOOT
from prspace.core.errors import InputError
from prspace.experiments.ranking import (
    PER_GROUP_COLUMNS,
    all_disagreements,
    cluster_bootstrap_ci,
    rank_models,
)
from prspace.experiments.skew.skew_evidence import is_own_reference, skew_analysis
from prspace.experiments.skew.skew_evidence import (
    skew_evidence as skew_evidence,  # re-exported, not in __all__: its name is a table's
)
from prspace.experiments.skew.skew_explanation import (
    BALANCE_COLUMNS,
    BALANCE_EDGES,
    COUNTERFACTUAL_COLUMNS,
    POOLED,
    REFERENCE_DISTRIBUTION,
    REFERENCE_MEDIAN,
    TOP_K,
    TREND_COLUMNS,
    balance_levels,
    cluster_bootstrap_means,
    counterfactual_label,
    counterfactual_summary,
    counterfactual_targets,
    ls_slope,
    quantile_matched_pi,
    reference_name,
    reference_pi,
    share_slope,
    skew_trend,
    study_counterfactual_targets,
    task_families,
)
from prspace.experiments.skew.skew_explanation import (
    disagreement_by_balance as disagreement_by_balance,  # as skew_evidence
)

DEFAULT_TARGETS = (0.5, 0.2, 0.1, 0.05, 0.02, 0.01)
OBSERVED = "observed"
PER_TASK_COLUMNS = ["task_id", "task_pi", "task_n_pos", "pi_target", "negative_weight", *PER_GROUP_COLUMNS]


def negative_weight(n_pos: float, n_neg: float, target: float) -> float:
    """Weight ``c`` of every negative so that ``n_pos / (n_pos + c n_neg) = target``."""
    if not 0 < target < 1:
        raise InputError(f"target pi must be in (0, 1), got {target}")
    return n_pos * (1 - target) / (target * n_neg)


def target_label(target: float) -> str:
    """The label of a target pi in the per-task tables (``0.05`` -> ``"0.05"``)."""
    return f"{target:.6g}"


def reweighted_metrics(
    predictions: pd.DataFrame, *, targets: Sequence[float] | Mapping[str, float] = DEFAULT_TARGETS,
    metrics: Sequence[str],
) -> pd.DataFrame:
    """Every model's metrics with the negatives reweighted to each target pi (and at the task's own pi).

    ``targets``: the target pi values of this task, a sequence (labelled by :func:`target_label`)
    or a mapping label -> pi, so that each task can get targets of its own (the counterfactual's
    quantile-matched pi, :func:`counterfactual_targets`). Every model's scores are sorted once
    per repeat; each target is one rescaling of the negatives' counts per tie group.

    Returns one row per target x model: ``task_id, target`` (label; :data:`OBSERVED` for the
    task's own pi), ``pi_target`` (NaN for the task's own pi), ``negative_weight, model_id``
    and the metrics (averaged over CV repeats).
    """
    need = {"task_id", "model_id", "repeat", "y_true", "score"}
    missing = need - set(predictions.columns)
    if missing:
        raise InputError(f"predictions lack column(s) {sorted(missing)}; read them with prspace.core.schema.read_predictions")
    named = dict(targets) if isinstance(targets, Mapping) else {target_label(float(t)): float(t) for t in targets}
    if OBSERVED in named:
        raise InputError(f"target label {OBSERVED!r} is reserved for the task's own pi; name the target otherwise")
    task_id = str(predictions["task_id"].iloc[0])
    repeats = sorted(pd.unique(predictions["repeat"]))
    first = predictions[(predictions["repeat"] == repeats[0])]
    first = first[first["model_id"] == first["model_id"].iloc[0]]
    n_pos = float(first["y_true"].sum())
    n_neg = float(len(first) - n_pos)
    weights = [(OBSERVED, float("nan"), 1.0)] + [
        (str(label), float(t), negative_weight(n_pos, n_neg, float(t))) for label, t in named.items()]
    rows = []
    for model, g in predictions.groupby(predictions["model_id"].astype(str), sort=True):
        acc = np.zeros((len(weights), len(metrics)))
        for r in repeats:
            gr = g[g["repeat"] == r]
            y = gr["y_true"].to_numpy(dtype=np.float64)
            _, group = np.unique(-gr["score"].to_numpy(np.float64), return_inverse=True)
            k = int(group.max()) + 1
            tp, fp = np.bincount(group, y, k), np.bincount(group, 1 - y, k)
            for i, (_, _, c) in enumerate(weights):
                res = M.metrics_from_group_counts(tp, c * fp)
                acc[i] += [res[m] for m in metrics]
        acc /= len(repeats)
        for i, (label, t, c) in enumerate(weights):
            rows.append({"task_id": task_id, "target": label, "pi_target": t, "negative_weight": c, "model_id": model,
                         **dict(zip(metrics, acc[i], strict=True))})
    return pd.DataFrame(rows)


#: Prefix of the counterfactual targets' labels inside :func:`skew_task` (apart from the grid's).
_CF = "counterfactual:"
COUNTERFACTUAL_PER_TASK_COLUMNS = ["task_id", "task_pi", "task_n_pos", "target_id", "pi_target", "negative_weight",
                                   *PER_GROUP_COLUMNS]


def skew_task(
    predictions: pd.DataFrame, *, targets: Sequence[float] = DEFAULT_TARGETS,
    counterfactual: Mapping[str, float] | None = None, metrics: Sequence[str],
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One task's disagreement at every target pi of the grid and at its counterfactual targets.

    ``counterfactual``: target id -> this task's pi under that counterfactual (e.g.
    ``{"reference_median": 0.39, "reference_distribution": 0.45}``; :func:`counterfactual_targets`).
    The scores are sorted once for both (:func:`reweighted_metrics`). Returns the grid's table
    (:data:`PER_TASK_COLUMNS` and ``is_observed``, as :func:`controlled_skew_task`) and the
    counterfactual's (:data:`COUNTERFACTUAL_PER_TASK_COLUMNS`, one row per target id and pair).
    """
    grid = {target_label(float(t)): float(t) for t in targets}
    cf = {f"{_CF}{k}": float(v) for k, v in (counterfactual or {}).items()}
    values = reweighted_metrics(predictions, targets={**grid, **cf}, metrics=metrics)
    task_id = str(values["task_id"].iloc[0])
    first = predictions[(predictions["repeat"] == predictions["repeat"].min())]
    first = first[first["model_id"] == first["model_id"].iloc[0]]
    task_pi, task_n_pos = float(first["y_true"].mean()), int(first["y_true"].sum())
    ranks = rank_models(values, metrics, group="target", model="model_id")
    per = all_disagreements(ranks, metrics, group="target", model="model_id")
    keys = values.drop_duplicates("target").set_index("target")[["pi_target", "negative_weight"]]
    per = per.join(keys, on="target")
    per.insert(0, "task_id", task_id)
    per.insert(1, "task_pi", task_pi)
    per.insert(2, "task_n_pos", task_n_pos)
    is_cf = per["target"].str.startswith(_CF)
    out_cf = per[is_cf].copy()
    out_cf["target_id"] = out_cf["target"].str.slice(len(_CF))
    per = per[~is_cf].copy()
    per["pi_target"] = per["pi_target"].fillna(per["task_pi"])
    pair_order = {p: i for i, p in enumerate(dict.fromkeys(zip(per["metric_a"], per["metric_b"], strict=True)))}
    per["_pair"] = [pair_order[p] for p in zip(per["metric_a"], per["metric_b"], strict=True)]
    per = per.sort_values(["_pair", "pi_target"], kind="stable").drop(columns="_pair")
    per["is_observed"] = per["target"] == OBSERVED
    per = per.drop(columns="target")[[*PER_TASK_COLUMNS, "is_observed"]].reset_index(drop=True)
    order = {k: i for i, k in enumerate(counterfactual or {})}
    out_cf["_pair"] = [pair_order[p] for p in zip(out_cf["metric_a"], out_cf["metric_b"], strict=True)]
    out_cf["_t"] = out_cf["target_id"].map(order)
    out_cf = out_cf.sort_values(["_t", "_pair"], kind="stable")
    return per, out_cf[COUNTERFACTUAL_PER_TASK_COLUMNS].reset_index(drop=True)


def controlled_skew_task(
    predictions: pd.DataFrame, *, targets: Sequence[float] = DEFAULT_TARGETS, metrics: Sequence[str]
) -> pd.DataFrame:
    """Per target pi and metric pair: top-1 / top-3 disagreement and rank correlations (:data:`PER_TASK_COLUMNS`)."""
    return skew_task(predictions, targets=targets, metrics=metrics)[0]


def controlled_skew_summary(
    per_task: pd.DataFrame, *, tasks: pd.DataFrame | None = None, n_boot: int = N_BOOT, seed: int = 0
) -> pd.DataFrame:
    """Per metric pair and target pi: shares of tasks that disagree (cluster-bootstrap intervals
    over families when ``tasks`` has a ``family`` column), mean Spearman and Kendall."""
    df = per_task[~per_task["is_observed"].astype(bool)]
    fam = None
    if tasks is not None and "family" in tasks.columns:
        fam = tasks.drop_duplicates("task_id").set_index("task_id")["family"].astype(str)
    rows = []
    for (a, b, t), g in df.groupby(["metric_a", "metric_b", "pi_target"], sort=False):
        g = g.sort_values("task_id")
        clusters = None
        if fam is not None:
            f = fam.reindex(g["task_id"]).to_numpy(dtype=object)
            clusters = np.where(pd.isna(f), g["task_id"].to_numpy(dtype=object), f)
        row: dict[str, object] = {"metric_a": a, "metric_b": b, "pi_target": t, "n_tasks": len(g)}
        for stat, col in (("top1", "top1_differs"), ("top3", "top3_differs")):
            m, lo, hi = cluster_bootstrap_ci(g[col].to_numpy(np.float64), clusters, n_boot=n_boot, seed=seed)
            row |= {f"{stat}_share": m, f"{stat}_lo": lo, f"{stat}_hi": hi}
        for stat in ("spearman", "kendall"):
            v = g[stat].to_numpy(np.float64)
            row[f"{stat}_mean"] = float(np.nanmean(v)) if np.isfinite(v).any() else float("nan")
        rows.append(row)
    out = pd.DataFrame(rows)
    pair_order = {p: i for i, p in enumerate(dict.fromkeys(zip(out["metric_a"], out["metric_b"], strict=True)))}
    out["_pair"] = [pair_order[p] for p in zip(out["metric_a"], out["metric_b"], strict=True)]
    return out.sort_values(["_pair", "pi_target"], ascending=[True, False], kind="stable",
                           ignore_index=True).drop(columns="_pair")


PI_BINS = (0.0, 0.02, 0.05, 0.1, 0.2, 0.5)
N_POS_BINS = (0, 20, 40, 80, 160, 320, np.inf)


def observed_by_bin(per_task: pd.DataFrame, tasks: pd.DataFrame) -> pd.DataFrame:
    """The study's own (unweighted) disagreement per bin of pi and per bin of the number of positives.

    ``per_task``: the study's per-task disagreement table; ``tasks``: the task table (``pi``,
    ``n_pos``). One row per binning (``by`` = ``pi`` or ``n_pos``), bin, metric pair: number
    of tasks, mean pi of the bin's tasks, shares of top-1 / top-3 disagreement, mean Spearman.
    """
    t = tasks.drop_duplicates("task_id").set_index("task_id")
    df = per_task.join(t[["pi", "n_pos"]], on="task_id")
    rows = []
    for by, edges in (("pi", PI_BINS), ("n_pos", N_POS_BINS)):
        df["bin"] = pd.cut(df[by].astype(float), list(edges), right=by == "pi")
        for (a, b, bin_), g in df.groupby(["metric_a", "metric_b", "bin"], sort=True, observed=True):
            rows.append({"by": by, "bin": str(bin_), "metric_a": a, "metric_b": b, "n_tasks": len(g),
                         "pi_mean": float(g["pi"].mean()),
                         "top1_share": float(g["top1_differs"].astype(float).mean()),
                         "top3_share": float(g["top3_differs"].astype(float).mean()),
                         "spearman_mean": float(g["spearman"].mean())})
    return pd.DataFrame(rows)


__all__ = [
    "BALANCE_COLUMNS",
    "BALANCE_EDGES",
    "COUNTERFACTUAL_COLUMNS",
    "COUNTERFACTUAL_PER_TASK_COLUMNS",
    "DEFAULT_TARGETS",
    "N_POS_BINS",
    "OBSERVED",
    "PER_TASK_COLUMNS",
    "PI_BINS",
    "POOLED",
    "REFERENCE_DISTRIBUTION",
    "REFERENCE_MEDIAN",
    "TOP_K",
    "TREND_COLUMNS",
    "balance_levels",
    "cluster_bootstrap_means",
    "controlled_skew_summary",
    "controlled_skew_task",
    "counterfactual_label",
    "counterfactual_summary",
    "counterfactual_targets",
    "ls_slope",
    "negative_weight",
    "observed_by_bin",
    "quantile_matched_pi",
    "reference_name",
    "reference_pi",
    "reweighted_metrics",
    "share_slope",
    "skew_analysis",
    "is_own_reference",
    "skew_task",
    "skew_trend",
    "study_counterfactual_targets",
    "target_label",
    "task_families",
]
