"""Top-1 disagreements against AUROC that the AUROC gap already permits (Mihelich et al. 2024).

Per task and metric of :data:`FLIP_METRICS` (AUPR, AUPRG against AUROC): the best model by AUROC
(``model_auroc``) and by the metric (``model_metric``), as sets of tied-best models (values
rounded to 12 decimals, as :func:`prspace.experiments.ranking.rank_models` ranks), and
whether they differ (``top1_differs``, the study's top-1 disagreement). Where they differ,
with ``model_auroc`` ahead by ``auroc_gap`` in AUROC: does the bound of
:func:`prspace.stats.auroc_bounds.order_can_flip` at the task's ``n_pos, n_neg`` permit the
metric order to flip (``permitted``), and the largest AUROC gap that still permits it
(``max_flip_gap``, :func:`prspace.stats.auroc_bounds.largest_flip_gap`); ``tightness =
auroc_gap / max_flip_gap`` (near 1: the gap is close to forcing the order; near 0: the
AUROC gap says almost nothing about the metric's order).

An observed flip is a ranking that exists, so an exact bound permits every one of them:
``permitted`` is a check of the bound (it can only fail through tied scores, where the
continuous limit is used for large tasks, or where the table's values are means over several
cross-validation repeats, which ``method`` then says); the informative column is ``tightness``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from prspace.stats.auroc_bounds import flip_rows

#: Study metric column -> metric name of :mod:`prspace.stats.auroc_bounds`.
FLIP_METRICS = {"aupr": "aupr", "auprg": "auprg"}
FLIP_COLUMNS = ["task_id", "metric", "n_models", "n_pos", "n_neg", "model_auroc", "model_metric", "top1_differs",
                "auroc_best", "auroc_of_metric_best", "auroc_gap", "max_flip_gap", "tightness", "permitted",
                "method"]
SUMMARY_COLUMNS = ["task_id", "metric", "n_tasks", "n_top1_differs", "n_permitted", "share_permitted",
                   "median_tightness", "max_tightness"]


def _best(g: pd.DataFrame, col: str, other: str) -> tuple[set, str]:
    v = g[col].astype(np.float64).round(12)
    best = g[v == v.max()]
    pick = best.sort_values([other, "model_id"], ascending=[False, True], kind="stable")["model_id"].iloc[0]
    return set(best["model_id"]), str(pick)


def flip_table(metrics: pd.DataFrame) -> pd.DataFrame:
    """One row per task and metric (:data:`FLIP_COLUMNS`) from a study's metrics table.

    The class counts are ``n_pos`` and ``n_neg`` (or ``n - n_pos``: the study's metrics table).
    """
    rows = []
    for task, g in metrics.groupby("task_id", sort=True):
        g = g.dropna(subset=["auroc"])
        p = float(g["n_pos"].iloc[0])
        n = float(g["n_neg"].iloc[0]) if "n_neg" in g.columns else float(g["n"].iloc[0]) - p
        for col, metric in FLIP_METRICS.items():
            set_a, a = _best(g, "auroc", col)
            set_b, b = _best(g, col, "auroc")
            row = {"task_id": task, "metric": col, "n_models": len(g), "n_pos": p, "n_neg": n,
                   "model_auroc": a, "model_metric": b, "top1_differs": set_a != set_b}
            ra, rb = g.set_index("model_id").loc[a], g.set_index("model_id").loc[b]
            row |= {"auroc_best": float(ra["auroc"]), "auroc_of_metric_best": float(rb["auroc"]),
                    "auroc_gap": float(ra["auroc"] - rb["auroc"]), "max_flip_gap": np.nan, "tightness": np.nan,
                    "permitted": pd.NA, "method": ""}
            if row["top1_differs"]:
                (fb,) = flip_rows([float(ra["auroc"]), float(rb["auroc"])], [(0, 1)], p, n, metric)
                gap = fb["max_flip_gap"]
                row |= {"max_flip_gap": gap, "permitted": bool(fb["can_flip"] or row["auroc_gap"] <= 0),
                        "tightness": row["auroc_gap"] / gap if gap > 0 else np.nan, "method": fb["method"]}
                reps = int(g["n_repeats"].max()) if "n_repeats" in g.columns else 1
                if reps > 1:  # the table's values are means over repeats: the bound is for one ranking
                    row["method"] += f"; values are means of {reps} repeats (approximate)"
            rows.append(row)
    return pd.DataFrame(rows, columns=FLIP_COLUMNS)


def flip_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per metric, the share of top-1 disagreements the bound permits (``task_id`` = ``"all"``)."""
    rows = []
    for col in FLIP_METRICS:
        g = table[table["metric"] == col]
        d = g[g["top1_differs"].astype(bool)]
        n_d, n_p = len(d), int(d["permitted"].astype(bool).sum())
        t = d["tightness"].astype(np.float64)
        rows.append({"task_id": "all", "metric": col, "n_tasks": len(g), "n_top1_differs": n_d, "n_permitted": n_p,
                     "share_permitted": n_p / n_d if n_d else np.nan,
                     "median_tightness": float(t.median()) if t.notna().any() else np.nan,
                     "max_tightness": float(t.max()) if t.notna().any() else np.nan})
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)
