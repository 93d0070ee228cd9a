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

#: The quantities drawn, each in its own block of panels: (block y label, [(column, line label, colour, interval)]).
BLOCKS = (("share of tasks\nthe pair differs on", (("top1_share", "best model differs", "tab:red", ("top1_lo", "top1_hi")),
                                                  ("top3_share", "top three differs", "tab:blue", ("top3_lo", "top3_hi")))),
          ("mean rank correlation\n(Spearman) over tasks", (("spearman_mean", "mean rank correlation", "tab:green", None),)))
#: Text size (pt) at the figure's printed width (7 in).
FONT = {"font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8, "xtick.labelsize": 8, "ytick.labelsize": 8,
        "legend.fontsize": 8}


def _empty() -> Figure:
    with mpl.rc_context(FONT):
        fig = Figure(figsize=(7.0, 1.0), layout="constrained")
        fig.text(0.5, 0.5, "Controlled skew: no task to reweight (the table controlled_skew is empty)", ha="center")
    return fig


def _panel(ax, s: pd.DataFrame, o: pd.DataFrame, lines) -> None:
    """One pair's panel of one block: each line reweighted (with its 95% interval where the table has one)
    and the study's own tasks binned by pi (hollow)."""
    for col, label, c, interval in lines:
        if interval is not None and set(interval) <= set(s.columns):
            ax.fill_between(s["pi_target"], s[interval[0]], s[interval[1]], color=c, alpha=0.15, lw=0,
                            label=f"{label}: 95% interval")
        ax.plot(s["pi_target"], s[col], "-o", ms=2.2, lw=1, color=c, label=f"{label}: negatives reweighted")
        if len(o):
            ax.plot(o["pi_mean"], o[col], "o", ms=3.2, mfc="none", mew=0.7, color=c,
                    label=f"{label}: the study's tasks, binned by pi")
    ax.set_xscale("log")
    ax.grid(alpha=0.3, lw=0.4)


def controlled_skew_figure(summary: pd.DataFrame, observed: pd.DataFrame, labels: Mapping[str, str] | None = None) -> Figure:
    """Per metric pair, against pi: the shares of tasks whose best model and top three differ (one block
    of panels, with 95% intervals) and the mean rank correlation (another block, its own y axis);
    ``labels``: metric name -> panel title label (:data:`prspace.metrics.METRIC_LABELS`)."""
    labels = labels or {}
    if summary.empty:  # no task could be reweighted: say so rather than draw empty axes
        return _empty()
    pairs = list(dict.fromkeys(zip(summary["metric_a"], summary["metric_b"], strict=True)))
    obs = observed[observed["by"] == "pi"] if len(observed) else observed
    ncol = min(5, len(pairs))
    nrow = -(-len(pairs) // ncol)
    with mpl.rc_context(FONT):
        fig = Figure(figsize=(7.0, 1.45 * nrow * len(BLOCKS) + 1.3), layout="constrained")
        subfigs = fig.subfigures(len(BLOCKS), 1)
        handles: dict[str, object] = {}
        for sub, (ylabel, lines) in zip(subfigs, BLOCKS, strict=True):
            axes = sub.subplots(nrow, ncol, sharex=True, sharey=True, squeeze=False)
            for ax, (a, b) in zip(axes.ravel(), pairs, strict=False):
                s = summary[(summary.metric_a == a) & (summary.metric_b == b)].sort_values("pi_target")
                o = obs[(obs.metric_a == a) & (obs.metric_b == b)].sort_values("pi_mean") if len(obs) else obs
                _panel(ax, s, o, lines)
                ax.set_title(f"{labels.get(a, a)} vs {labels.get(b, b)}")
            for ax in axes.ravel()[len(pairs):]:
                ax.set_visible(False)
            for ax in axes[-1]:
                ax.set_xlabel("positive share pi")
            for ax in axes[:, 0]:
                ax.set_ylabel(ylabel)
            if lines[0][0] != "spearman_mean":
                axes[0, 0].set_ylim(-0.03, 1.03)
            h, n = axes[0, 0].get_legend_handles_labels()
            handles.update(zip(n, h, strict=True))
        fig.legend(list(handles.values()), list(handles), loc="outside lower center", ncol=2, frameon=False)
        fig.suptitle("Disagreement against pi: the same models with negatives reweighted (lines)")
    return fig
