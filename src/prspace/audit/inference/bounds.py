"""What the AUROCs allow: ``auroc_bounds.csv`` and the audit's "could flip" / "cannot flip" lines.

For every task, metric of :data:`BOUND_METRICS` and pair of models (``model_a`` the one with
the higher AUROC), the range of ``metric_a - metric_b`` that the two AUROCs and the task's
class counts allow (:func:`prspace.stats.auroc_bounds.order_can_flip`: ``[lo_a - hi_b, hi_a -
lo_b]``), whether model b could have the higher value (``can_flip``: ``hi_b > lo_a``), whether
it does (``flipped``), and the largest AUROC gap at which a flip is still possible
(``max_flip_gap``, :func:`prspace.stats.auroc_bounds.largest_flip_gap`). Each model's range is
computed once per task and metric (:func:`prspace.stats.auroc_bounds.flip_rows`, as the study's
:mod:`prspace.experiments.ranking.auroc_flips`).

The bound is over rankings without tied scores; a model with tied scores (``ties_a``,
``ties_b``: some score value repeats among its rows) can fall outside it, so for such a pair a
"cannot flip" is said "among tie-free rankings" only.
"""

from __future__ import annotations

import itertools

import pandas as pd

from prspace.audit.inference.tables import LABELS, groups
from prspace.stats.auroc_bounds import flip_rows

#: Pooled-metric column -> the metric name of :mod:`prspace.stats.auroc_bounds`.
BOUND_METRICS = {"aupr": "aupr", "average_precision": "ap", "auprg": "auprg"}
BOUND_COLUMNS = ["task", "metric", "model_a", "model_b", "auroc_a", "auroc_b", "auroc_gap", "value_a", "value_b",
                 "diff_lo", "diff_hi", "can_flip", "flipped", "max_flip_gap", "method", "ties_a", "ties_b", "sentence"]

__all__ = ["BOUND_METRICS", "BOUND_COLUMNS", "bound_table"]


def _sentence(metric: str, r: dict) -> str:
    lab = LABELS[metric]
    gap = f"AUROC {r['auroc_a']:.3f} vs {r['auroc_b']:.3f}"
    span = f"{lab}({r['model_a']}) - {lab}({r['model_b']}) within [{r['diff_lo']:.3f}, {r['diff_hi']:.3f}]"
    if r["can_flip"]:
        return (f"{r['model_a']} vs {r['model_b']} ({gap}): these {lab} orders could flip for this AUROC gap "
                f"({span}; a flip stays possible up to a gap of {r['max_flip_gap']:.3f})")
    tied = [m for m, t in ((r["model_a"], r["ties_a"]), (r["model_b"], r["ties_b"])) if t]
    caveat = f"; among tie-free rankings only: {' and '.join(map(str, tied))} {'has' if len(tied) == 1 else 'have'} " \
             "tied scores" if tied else ""
    return (f"{r['model_a']} vs {r['model_b']} ({gap}): these {lab} orders cannot flip for this AUROC gap "
            f"({span}{caveat})")


def bound_table(pooled: pd.DataFrame, data: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per task, metric and pair of models (:data:`BOUND_COLUMNS`), from the pooled metrics table;
    ``data`` (the audit's rows: ``task, model, score``) tells which models have tied scores."""
    tied: dict = {}
    if data is not None:
        score = data["score"].to_numpy()
        tied = {key: bool(pd.Series(score[idx]).duplicated().any()) for key, idx in groups(data, "task", "model")}
    rows = []
    for task, g in pooled.groupby("task", sort=True):
        g = g.sort_values(["auroc", "model"], ascending=[False, True], kind="stable")
        p, n = float(g["n_pos"].iloc[0]), float(g["n_neg"].iloc[0])
        models = list(g.itertuples(index=False))
        pairs = list(itertools.combinations(range(len(models)), 2))
        for col, metric in BOUND_METRICS.items():
            bounds = flip_rows([float(a) for a in g["auroc"]], pairs, p, n, metric, every_gap=False)
            for (i, j), f in zip(pairs, bounds, strict=True):
                a, b = models[i], models[j]
                ma, mb = a.model, b.model
                r = {"task": task, "metric": col, "model_a": ma, "model_b": mb,
                     "auroc_a": float(a.auroc), "auroc_b": float(b.auroc),
                     "auroc_gap": float(a.auroc - b.auroc), "value_a": float(getattr(a, col)),
                     "value_b": float(getattr(b, col)), **f, "flipped": bool(getattr(b, col) > getattr(a, col)),
                     "ties_a": tied.get((task, ma), False), "ties_b": tied.get((task, mb), False)}
                r["sentence"] = _sentence(col, r)
                rows.append(r)
    return pd.DataFrame(rows, columns=BOUND_COLUMNS)
