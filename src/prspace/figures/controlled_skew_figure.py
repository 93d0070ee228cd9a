"""Figure: rank disagreement between metrics against pi, skew moved with the same models.

Drawn from the tables ``controlled_skew`` and ``controlled_skew_observed`` of
``prspace step controlled_skew``; layout only.  Lines: :func:`prspace.experiments.skew.controlled_skew.controlled_skew_summary` (negatives reweighted
to each target pi, every task); hollow markers: the study's own tasks binned by pi
(:func:`prspace.experiments.skew.controlled_skew.observed_by_bin`), at the mean pi of each bin.
"""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib as mpl
import pandas as pd
from matplotlib.figure import Figure

from prspace.figures.ranking import RC

STATS = (("top1_share", "top-1 differs"), ("top3_share", "top-3 differs"), ("spearman_mean", "mean Spearman"))


def controlled_skew_figure(summary: pd.DataFrame, observed: pd.DataFrame, labels: Mapping[str, str] | None = None) -> Figure:
    """One panel per metric pair: top-1 / top-3 shares and mean Spearman against pi; ``labels``:
    metric name -> panel title label (:data:`prspace.metrics.METRIC_LABELS`)."""
    labels = labels or {}
    if summary.empty:  # no task could be reweighted: say so rather than draw empty axes
        with mpl.rc_context(RC):
            fig = Figure(figsize=(7.0, 1.0), layout="constrained")
            fig.text(0.5, 0.5, "Controlled skew: no task to reweight (the table controlled_skew is empty)", ha="center")
        return fig
    pairs = list(dict.fromkeys(zip(summary["metric_a"], summary["metric_b"], strict=True)))
    obs = observed[observed["by"] == "pi"] if len(observed) else observed
    ncol = min(5, len(pairs))
    nrow = -(-len(pairs) // ncol)
    with mpl.rc_context(RC):
        fig = Figure(figsize=(7.0, 1.7 * nrow + 0.8), layout="constrained")
        axes = fig.subplots(nrow, ncol, sharex=True, sharey=True, squeeze=False).ravel()
        colors = ("tab:red", "tab:blue", "tab:green")
        for ax, (a, b) in zip(axes, pairs, strict=False):
            s = summary[(summary.metric_a == a) & (summary.metric_b == b)].sort_values("pi_target")
            o = obs[(obs.metric_a == a) & (obs.metric_b == b)].sort_values("pi_mean") if len(obs) else obs
            for (col, label), c in zip(STATS, colors, strict=True):
                ax.plot(s["pi_target"], s[col], "-o", ms=2.2, lw=1, color=c, label=f"{label}: reweighted")
                if len(o):
                    ax.plot(o["pi_mean"], o[col], "o", ms=3.2, mfc="none", mew=0.7, color=c, label=f"{label}: observed, pi bins")
            ax.set_title(f"{labels.get(a, a)} vs {labels.get(b, b)}")
            ax.set_xscale("log")
            ax.set_ylim(-0.03, 1.03)
            ax.grid(alpha=0.3, lw=0.4)
        for ax in axes[len(pairs):]:
            ax.set_visible(False)
        for ax in axes[(nrow - 1) * ncol:]:
            ax.set_xlabel("pi")
        handles, names = axes[0].get_legend_handles_labels()
        fig.legend(handles, names, loc="outside lower center", ncol=3, frameon=False)
        fig.suptitle("Same models, negatives reweighted to pi (lines) vs the study's tasks binned by pi (hollow)")
    return fig
