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
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace import metrics as M
from prspace.errors import InputError
from prspace.experiments.ranking import (
    PER_GROUP_COLUMNS,
    all_disagreements,
    cluster_bootstrap_ci,
    rank_models,
)

DEFAULT_TARGETS = (0.5, 0.2, 0.1, 0.05, 0.02, 0.01)
OBSERVED = "observed"
PER_TASK_COLUMNS = ["task_id", "task_pi", "task_n_pos", "pi_target", "negative_weight", *PER_GROUP_COLUMNS]


def negative_weight(n_pos: float, n_neg: float, target: float) -> float:
    """Weight ``c`` of every negative so that ``n_pos / (n_pos + c n_neg) = target``."""
    if not 0 < target < 1:
        raise InputError(f"target pi must be in (0, 1), got {target}")
    return n_pos * (1 - target) / (target * n_neg)


def reweighted_metrics(
    predictions: pd.DataFrame, *, targets: Sequence[float] = DEFAULT_TARGETS, metrics: Sequence[str]
) -> pd.DataFrame:
    """Every model's metrics with the negatives reweighted to each target pi (and at the task's own pi).

    Returns one row per target x model: ``task_id, pi_target`` (NaN for the task's own pi),
    ``negative_weight, model_id`` and the metrics (averaged over CV repeats).
    """
    need = {"task_id", "model_id", "repeat", "y_true", "score"}
    missing = need - set(predictions.columns)
    if missing:
        raise InputError(f"predictions lack column(s) {sorted(missing)}; read them with prspace.schema.read_predictions")
    task_id = str(predictions["task_id"].iloc[0])
    repeats = sorted(pd.unique(predictions["repeat"]))
    first = predictions[(predictions["repeat"] == repeats[0])]
    first = first[first["model_id"] == first["model_id"].iloc[0]]
    n_pos = float(first["y_true"].sum())
    n_neg = float(len(first) - n_pos)
    weights = [(float("nan"), 1.0)] + [(float(t), negative_weight(n_pos, n_neg, float(t))) for t in targets]
    rows = []
    for model, g in predictions.groupby(predictions["model_id"].astype(str), sort=True):
        acc = np.zeros((len(weights), len(metrics)))
        for r in repeats:
            gr = g[g["repeat"] == r]
            y = gr["y_true"].to_numpy(dtype=np.float64)
            _, group = np.unique(-gr["score"].to_numpy(np.float64), return_inverse=True)
            k = int(group.max()) + 1
            tp, fp = np.bincount(group, y, k), np.bincount(group, 1 - y, k)
            for i, (_, c) in enumerate(weights):
                res = M.metrics_from_group_counts(tp, c * fp)
                acc[i] += [res[m] for m in metrics]
        acc /= len(repeats)
        for i, (t, c) in enumerate(weights):
            rows.append({"task_id": task_id, "pi_target": t, "negative_weight": c, "model_id": model,
                         **dict(zip(metrics, acc[i], strict=True))})
    return pd.DataFrame(rows)


def controlled_skew_task(
    predictions: pd.DataFrame, *, targets: Sequence[float] = DEFAULT_TARGETS, metrics: Sequence[str]
) -> pd.DataFrame:
    """Per target pi and metric pair: top-1 / top-3 disagreement and rank correlations (:data:`PER_TASK_COLUMNS`)."""
    values = reweighted_metrics(predictions, targets=targets, metrics=metrics)
    task_id = str(values["task_id"].iloc[0])
    first = predictions[(predictions["repeat"] == predictions["repeat"].min())]
    first = first[first["model_id"] == first["model_id"].iloc[0]]
    values["target"] = values["pi_target"].map(lambda t: OBSERVED if np.isnan(t) else f"{t:.6g}")
    ranks = rank_models(values, metrics, group="target", model="model_id")
    per = all_disagreements(ranks, metrics, group="target", model="model_id")
    keys = values.drop_duplicates("target").set_index("target")[["pi_target", "negative_weight"]]
    per = per.join(keys, on="target")
    per.insert(0, "task_id", task_id)
    per.insert(1, "task_pi", float(first["y_true"].mean()))
    per.insert(2, "task_n_pos", int(first["y_true"].sum()))
    per["pi_target"] = per["pi_target"].fillna(per["task_pi"])
    pair_order = {p: i for i, p in enumerate(dict.fromkeys(zip(per["metric_a"], per["metric_b"], strict=True)))}
    per["_pair"] = [pair_order[p] for p in zip(per["metric_a"], per["metric_b"], strict=True)]
    per = per.sort_values(["_pair", "pi_target"], kind="stable").drop(columns="_pair")
    per["is_observed"] = per["target"] == OBSERVED
    return per.drop(columns="target")[[*PER_TASK_COLUMNS, "is_observed"]].reset_index(drop=True)


def controlled_skew_summary(
    per_task: pd.DataFrame, *, tasks: pd.DataFrame | None = None, n_boot: int = 1000, seed: int = 0
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
