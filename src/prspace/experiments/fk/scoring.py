"""Predictions -> per-model metrics, pooled over folds and per fold.

One task's predictions (:mod:`prspace.core.schema`) become one row per model with every
metric of :func:`prspace.metrics.all_metrics` computed two ways:

* **pooled**: the scores of all test folds of one cross-validation repeat are put
  together and scored once (the protocol of Flach & Kull 2015, section 4, whose
  OpenML predictions are the pooled 10-fold predictions); with several repeats the
  pooled values are averaged over repeats;
* **per fold**: every test fold is scored on its own; the row holds the mean over
  folds (and repeats) and the sample standard deviation (the spread; Boyd et al.
  2012, section 4.1 discuss why the two differ).

A fold in which only one class occurs has no defined AUPR/AUROC; it is left out of
the fold mean and counted in ``n_folds`` but not in ``n_folds_scored``.

The column layout is :data:`METRICS_COLUMNS` (documented in ``docs/architecture.md``,
"The metrics table").
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from prspace import metrics as M
from prspace.core.schema import TaskInfo
from prspace.metrics.names import METRIC_KEYS

#: Metrics computed for every model (keys of :func:`prspace.metrics.all_metrics`).
METRICS: tuple[str, ...] = METRIC_KEYS

ID_COLUMNS: tuple[str, ...] = ("task_id", "model_id", "flow_id", "flow_name")

METRICS_COLUMNS: list[str] = [
    *ID_COLUMNS,
    "n",
    "n_pos",
    "pi",
    "aupr_min",
    "n_repeats",
    "n_folds",
    "n_folds_scored",
    *METRICS,
    *[f"{m}_fold_mean" for m in METRICS],
    *[f"{m}_fold_std" for m in METRICS],
]

FOLD_COLUMNS: list[str] = [*ID_COLUMNS, "repeat", "fold", "n", "n_pos", "pi", *METRICS]


def _score(y: np.ndarray, s: np.ndarray) -> dict[str, float]:
    """All metrics of one set of predictions, NaN when undefined (one class only)."""
    n_pos = int(y.sum())
    if n_pos == 0 or n_pos == len(y):
        return {m: float("nan") for m in METRICS}
    out = M.all_metrics(y, s)
    return {m: float(out[m]) for m in METRICS}


def score_folds(predictions: pd.DataFrame) -> pd.DataFrame:
    """Metrics of every (model, repeat, fold) on its own: columns :data:`FOLD_COLUMNS`.

    ``predictions`` must be in the canonical form of
    :func:`prspace.core.schema.validate_predictions` (as :func:`~prspace.core.schema.read_predictions`
    returns it).  Rows are sorted by ``model_id, repeat, fold``.
    """
    rows = []
    keys = ["model_id", "repeat", "fold"]
    for (model, repeat, fold), g in predictions.groupby(keys, sort=True):
        y = g["y_true"].to_numpy(dtype=bool)
        first = g.iloc[0]
        rows.append(
            {
                "task_id": first["task_id"],
                "model_id": model,
                "flow_id": first["flow_id"],
                "flow_name": first["flow_name"],
                "repeat": int(repeat),
                "fold": int(fold),
                "n": len(y),
                "n_pos": int(y.sum()),
                "pi": float(y.mean()),
                **_score(y, g["score"].to_numpy(dtype=np.float64)),
            }
        )
    return pd.DataFrame(rows, columns=FOLD_COLUMNS)


def score_task(predictions: pd.DataFrame, task: TaskInfo) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Score one task: ``(per-model table, per-fold table)``.

    The per-model table has the columns :data:`METRICS_COLUMNS`, one row per model
    sorted by ``model_id``; the per-fold table is :func:`score_folds`.
    """
    folds = score_folds(predictions)
    rows = []
    for model, g in predictions.groupby("model_id", sort=True):
        first = g.iloc[0]
        pooled = [
            _score(r["y_true"].to_numpy(dtype=bool), r["score"].to_numpy(dtype=np.float64))
            for _, r in g.groupby("repeat", sort=True)
        ]
        f = folds[folds["model_id"] == model]
        scored = f[METRICS[0]].notna()
        row: dict[str, object] = {
            "task_id": task.task_id,
            "model_id": model,
            "flow_id": first["flow_id"],
            "flow_name": first["flow_name"],
            "n": task.n,
            "n_pos": task.n_pos,
            "pi": task.pi,
            "aupr_min": float(M.aupr_min(task.pi)),
            "n_repeats": int(g["repeat"].nunique()),
            "n_folds": len(f),
            "n_folds_scored": int(scored.sum()),
        }
        for m in METRICS:
            row[m] = float(np.mean([p[m] for p in pooled]))
        for m in METRICS:
            v = f.loc[scored, m].to_numpy(dtype=np.float64)
            row[f"{m}_fold_mean"] = float(v.mean()) if v.size else float("nan")
        for m in METRICS:
            v = f.loc[scored, m].to_numpy(dtype=np.float64)
            row[f"{m}_fold_std"] = float(v.std(ddof=1)) if v.size > 1 else float("nan")
        rows.append(row)
    return pd.DataFrame(rows, columns=METRICS_COLUMNS), folds


def empty_metrics() -> pd.DataFrame:
    """A metrics table with no rows (a skipped task)."""
    return pd.DataFrame(columns=METRICS_COLUMNS)


def empty_folds() -> pd.DataFrame:
    """A per-fold table with no rows (a skipped task)."""
    return pd.DataFrame(columns=FOLD_COLUMNS)
