"""The statistics behind every ROC / PR / PRG panel: curve points and areas from predictions.

:mod:`prspace.figures.curves` only draws; this module computes what it draws with
:mod:`prspace.metrics` and keeps the entry points of callers that hold predictions (the audit,
tests): :class:`Curve`, :func:`plot_curves` and :func:`curves_figure`.
:func:`points_table` writes the same points as a long table (``prspace figure-data``, Figure 5; ``prspace
boyd pr-prg``, Flach & Kull Figure 2),
which :func:`prspace.figures.curves.from_table` reads back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from prspace import metrics as M

if TYPE_CHECKING:  # matplotlib is imported only by the functions that draw
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from prspace.figures.curves import CurvePoints, MinPR

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


def _arrays(c: Curve) -> tuple[dict, dict[str, tuple[np.ndarray, np.ndarray]]]:
    """:func:`prspace.metrics.all_metrics` of ``c`` and its curves as ``(x, y)`` arrays by kind."""
    s = M.all_metrics(c.y_true, c.y_score, sample_weight=c.weight)
    roc = M.roc_curve(c.y_true, c.y_score, sample_weight=c.weight)
    pr = M.pr_curve(c.y_true, c.y_score, sample_weight=c.weight)
    dense = M.interpolate_pr_curve(pr, 20 if len(pr.recall) <= 1000 else 2)
    prg = M.prg_curve(c.y_true, c.y_score, sample_weight=c.weight)
    xy = {"roc": (roc.fpr, roc.tpr), "pr": (pr.recall, pr.precision), "pr_dense": (dense.recall, dense.precision),
          "prg": (prg.recall_gain, prg.precision_gain)}
    return s, {k: (np.asarray(x, np.float64), np.asarray(y, np.float64)) for k, (x, y) in xy.items()}


def curve_points(curves: Sequence[Curve]) -> tuple[list[dict], list[CurvePoints], MinPR]:
    """Each curve's :func:`prspace.metrics.all_metrics`, its drawable points, and the minimum PR
    curve at the first curve's pi (all curves share one task)."""
    from prspace.figures.curves import CurvePoints, MinPR

    if not curves:
        raise ValueError("plot_curves needs at least one curve")
    scores, points = [], []
    for c in curves:
        s, xy = _arrays(c)
        scores.append(s)
        points.append(CurvePoints(c.label, xy["roc"], xy["pr"], xy["pr_dense"], xy["prg"], s["auroc"], s["aupr"],
                                  s["auprg"], s["pi"], c.style))
    pi = scores[0]["pi"]
    mp = M.min_pr_curve(pi, MIN_PR_GRID)
    return scores, points, MinPR(np.asarray(mp.recall), np.asarray(mp.precision), float(M.aupr_min(pi)))


def plot_curves(ax_roc: Axes | None, ax_pr: Axes | None, ax_prg: Axes | None, curves: Sequence[Curve],
                **kw) -> list[dict[str, float]]:
    """Compute and draw (:func:`prspace.figures.curves.draw_curves`, same keywords) the curves of
    ``curves``; returns :func:`prspace.metrics.all_metrics` of each curve, in order."""
    from prspace.figures.curves import draw_curves

    scores, points, min_pr = curve_points(curves)
    draw_curves(ax_roc, ax_pr, ax_prg, points, min_pr, **kw)
    return scores


def curves_figure(curves: Sequence[Curve], **kw) -> Figure:
    """:func:`prspace.figures.curves.points_figure` of ``curves`` (ROC, PR, PRG and the areas)."""
    from prspace.figures.curves import points_figure

    _, points, min_pr = curve_points(curves)
    return points_figure(points, min_pr, **kw)


def points_table(curves: Sequence[Curve]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The points (``curve, kind, x, y``; the minimum PR curve as curve -1) and the areas
    (``curve, label, auroc, aupr, auprg, aupr_min, pi``) of ``curves``, in order."""
    if not curves:
        raise ValueError("points_table needs at least one curve")
    parts, areas = [], []
    for i, c in enumerate(curves):
        s, xy = _arrays(c)
        for kind, (x, y) in xy.items():
            parts.append(pd.DataFrame({"curve": i, "kind": kind, "x": x, "y": y}))
        areas.append({"curve": i, "label": c.label, "auroc": s["auroc"], "aupr": s["aupr"], "auprg": s["auprg"],
                      "pi": s["pi"]})
    pi = areas[0]["pi"]
    mp = M.min_pr_curve(pi, MIN_PR_GRID)
    parts.append(pd.DataFrame({"curve": -1, "kind": "min_pr", "x": np.asarray(mp.recall, np.float64),
                               "y": np.asarray(mp.precision, np.float64)}))
    area = pd.DataFrame(areas)
    area.insert(5, "aupr_min", float(M.aupr_min(pi)))
    return pd.concat(parts, ignore_index=True), area
