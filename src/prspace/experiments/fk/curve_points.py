"""The statistics behind every ROC / PR / PRG panel: curve points and areas from predictions.

This module computes with :mod:`prspace.metrics` what :mod:`prspace.figures.curves` draws: a
model's predictions (:class:`Curve`), its curves and areas (:func:`curve_arrays`) and the task's
minimum PR curve (:func:`min_pr_arrays`); the drawing entry points of callers that hold
predictions (``plot_curves``, ``curves_figure``) live with the drawer.
:func:`points_table` writes the same points as a long table (``prspace step figure_data``, Figure 5; ``prspace
boyd pr-prg``, Flach & Kull Figure 2),
which :func:`prspace.figures.curves.from_table` reads back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from prspace import metrics as M

#: Recall grid of the minimum PR curve drawn in the PR panel.
MIN_PR_GRID = np.linspace(0, 1, 201)


@dataclass(frozen=True)
class Curve:
    """One model's predictions to draw: ``label``, labels (True = positive), scores, optional weights."""

    label: str
    y_true: np.ndarray
    y_score: np.ndarray
    style: dict = field(default_factory=dict)  # matplotlib line keywords (color, ls, label, ...)
    weight: np.ndarray | None = None  # sample weights (None: unit weights)


def curve_xy(c: Curve) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The curves of ``c`` as ``(x, y)`` arrays by kind (``roc``, ``pr``, ``pr_dense``, ``prg``), from one sort
    of its scores (:func:`prspace.metrics.all_curves`)."""
    roc, pr, prg = M.all_curves(c.y_true, c.y_score, sample_weight=c.weight)
    dense = M.interpolate_pr_curve(pr, 20 if len(pr.recall) <= 1000 else 2)
    xy = {"roc": (roc.fpr, roc.tpr), "pr": (pr.recall, pr.precision), "pr_dense": (dense.recall, dense.precision),
          "prg": (prg.recall_gain, prg.precision_gain)}
    return {k: (np.asarray(x, np.float64), np.asarray(y, np.float64)) for k, (x, y) in xy.items()}


def curve_arrays(c: Curve) -> tuple[dict, dict[str, tuple[np.ndarray, np.ndarray]]]:
    """:func:`prspace.metrics.all_metrics` of ``c`` and its curves as ``(x, y)`` arrays by kind (:func:`curve_xy`)."""
    return M.all_metrics(c.y_true, c.y_score, sample_weight=c.weight), curve_xy(c)


def min_pr_arrays(pi: float) -> tuple[np.ndarray, np.ndarray, float]:
    """The minimum PR curve at ``pi`` on :data:`MIN_PR_GRID` (Boyd et al. 2012, Theorem 1: recall,
    precision) and its area :func:`prspace.metrics.aupr_min`."""
    mp = M.min_pr_curve(pi, MIN_PR_GRID)
    return np.asarray(mp.recall, np.float64), np.asarray(mp.precision, np.float64), float(M.aupr_min(pi))


def points_table(curves: Sequence[Curve]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The points (``curve, kind, x, y``; the minimum PR curve as curve -1) and the areas
    (``curve, label, auroc, aupr, auprg, aupr_min, pi``) of ``curves``, in order."""
    if not curves:
        raise ValueError("points_table needs at least one curve")
    parts, areas = [], []
    for i, c in enumerate(curves):
        s, xy = curve_arrays(c)
        for kind, (x, y) in xy.items():
            parts.append(pd.DataFrame({"curve": i, "kind": kind, "x": x, "y": y}))
        areas.append({"curve": i, "label": c.label, "auroc": s["auroc"], "aupr": s["aupr"], "auprg": s["auprg"],
                      "pi": s["pi"]})
    recall, precision, aupr_min = min_pr_arrays(areas[0]["pi"])
    parts.append(pd.DataFrame({"curve": -1, "kind": "min_pr", "x": recall, "y": precision}))
    area = pd.DataFrame(areas)
    area.insert(5, "aupr_min", aupr_min)
    return pd.concat(parts, ignore_index=True), area
