"""ROC, PR and PRG curves of a few models side by side (Flach & Kull 2015, Figure 5).

:func:`plot_curves` draws into three given axes (reusable: ``prspace audit`` uses it
too); :func:`curves_figure` lays out a column-width figure with a fourth panel that
lists each model's AUROC, AUPR and AUPRG.

* ROC: the curve through every threshold's (FPR, TPR); the diagonal is random ranking.
* PR: the hyperbolic (Davis & Goadrich) interpolation between the thresholds' points,
  whose area is :func:`prspace.metrics.aupr`; the minimum PR curve of Boyd et al.
  (2012, Theorem 1) below which no model can fall, and the always-positive baseline
  precision = pi (the shaded region under the minimum curve is unachievable).
* PRG: precision gain against recall gain (Flach & Kull, Definition 1), drawn on the
  unit square; the parts with negative gain are outside, as in the paper (their area
  does not count towards AUPRG).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from prspace import metrics as M
from prspace.figures.ranking import COLUMN_WIDTH, _style


@dataclass(frozen=True)
class Curve:
    """One model's predictions to draw: ``label``, labels (True = positive), scores, optional weights."""

    label: str
    y_true: np.ndarray
    y_score: np.ndarray
    style: dict = field(default_factory=dict)  # matplotlib line keywords (color, ls, ...)
    weight: np.ndarray | None = None  # sample weights (None: unit weights)


DEFAULT_STYLES = ({"color": "C0", "ls": "-"}, {"color": "C3", "ls": "--"}, {"color": "C2", "ls": ":"},
                  {"color": "C4", "ls": "-."})


def _style_for(i: int, c: Curve) -> dict:
    return {"lw": 1.0, **DEFAULT_STYLES[i % len(DEFAULT_STYLES)], **c.style}


def _unit_axes(ax: Axes, xlabel: str, ylabel: str, title: str) -> None:
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.01)
    ax.set_aspect("equal")
    ax.set_xlabel(xlabel, labelpad=1)
    ax.set_ylabel(ylabel, labelpad=1)
    ax.set_title(title, pad=2)
    ax.set_xticks([0, 0.5, 1])
    ax.set_yticks([0, 0.5, 1])
    ax.grid(alpha=0.25, lw=0.4)


def plot_curves(ax_roc: Axes | None, ax_pr: Axes | None, ax_prg: Axes | None, curves: Sequence[Curve]) -> list[dict[str, float]]:
    """Draw the ROC, PR and PRG curves of ``curves`` into the given axes (any may be None).

    All curves must share one task (the same positives), so the PR panel's minimum PR
    curve and baseline are drawn for the ``pi`` of the first curve.  Returns
    :func:`prspace.metrics.all_metrics` of each curve, in order.
    """
    if not curves:
        raise ValueError("plot_curves needs at least one curve")
    scores = [M.all_metrics(c.y_true, c.y_score, sample_weight=c.weight) for c in curves]
    pi = scores[0]["pi"]
    if ax_roc is not None:
        ax_roc.plot([0, 1], [0, 1], color="0.6", lw=0.6, ls=":")
        for i, c in enumerate(curves):
            roc = M.roc_curve(c.y_true, c.y_score, sample_weight=c.weight)
            ax_roc.plot(roc.fpr, roc.tpr, **_style_for(i, c))
        _unit_axes(ax_roc, "false positive rate", "true positive rate", "ROC")
    if ax_pr is not None:
        mp = M.min_pr_curve(pi, np.linspace(0, 1, 201))
        ax_pr.fill_between(mp.recall, 0, mp.precision, color="0.88", lw=0)
        ax_pr.plot(mp.recall, mp.precision, color="0.45", lw=0.7, label="minimum PR curve")
        ax_pr.axhline(pi, color="0.45", lw=0.7, ls=":", label=f"baseline pi = {pi:.3f}")
        for i, c in enumerate(curves):
            pr = M.pr_curve(c.y_true, c.y_score, sample_weight=c.weight)
            # dense hyperbolic segments while they are few; beyond, the vertices suffice to the eye
            dense = M.interpolate_pr_curve(pr, 20 if len(pr.recall) <= 1000 else 2)
            ax_pr.plot(dense.recall, dense.precision, **_style_for(i, c))
        _unit_axes(ax_pr, "recall", "precision", "PR")
    if ax_prg is not None:
        for i, c in enumerate(curves):
            prg = M.prg_curve(c.y_true, c.y_score, sample_weight=c.weight)
            ok = (prg.recall_gain >= 0) & (prg.precision_gain >= 0)
            # keep the segments that start or end in the unit square; clipping does the rest
            keep = ok | np.r_[ok[1:], False] | np.r_[False, ok[:-1]]
            ax_prg.plot(prg.recall_gain[keep], prg.precision_gain[keep], clip_on=True, **_style_for(i, c))
        _unit_axes(ax_prg, "recall gain", "precision gain", "PRG")
    return scores


def curves_figure(curves: Sequence[Curve], *, title: str = "", note: str = "") -> Figure:
    """A 2 x 2 column-width figure: ROC, PR, PRG and a panel listing the areas."""
    with _style():
        fig = Figure(figsize=(COLUMN_WIDTH, 3.55), layout="constrained")
        axes = fig.subplots(2, 2)
        scores = plot_curves(axes[0, 0], axes[0, 1], axes[1, 0], curves)
        ax = axes[1, 1]
        ax.set_axis_off()
        y = 1.0
        for i, (c, s) in enumerate(zip(curves, scores, strict=True)):
            st = _style_for(i, c)
            ax.plot([0.0, 0.14], [y - 0.04] * 2, transform=ax.transAxes, color=st["color"], ls=st["ls"], lw=1.2,
                    clip_on=False)
            ax.text(0.18, y, c.label, transform=ax.transAxes, va="top", fontsize=6)
            n_lines = c.label.count("\n") + 1
            ax.text(0.18, y - 0.085 * n_lines, f"AUROC {s['auroc']:.3f}\nAUPR  {s['aupr']:.3f}\nAUPRG {s['auprg']:.3f}",
                    transform=ax.transAxes, va="top", fontsize=6, family="monospace")
            y -= 0.085 * n_lines + 0.3
        ax.plot([0.0, 0.14], [y - 0.035] * 2, transform=ax.transAxes, color="0.45", lw=0.7, clip_on=False)
        ax.text(0.18, y, "minimum PR curve", transform=ax.transAxes, va="top", fontsize=5.5)
        ax.plot([0.0, 0.14], [y - 0.115] * 2, transform=ax.transAxes, color="0.45", lw=0.7, ls=":", clip_on=False)
        ax.text(0.18, y - 0.08, f"baseline pi = {scores[0]['pi']:.3f}", transform=ax.transAxes, va="top", fontsize=5.5)
        if title:
            fig.suptitle(title, fontsize=6.5)
        if note:
            fig.supxlabel(textwrap.fill(note, 95), fontsize=4.8, color="0.3")
    return fig
