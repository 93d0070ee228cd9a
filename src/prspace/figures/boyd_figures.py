"""Figures of the Boyd et al. (2012) experiments: downsampling, fold skew, task aggregation.

Layout only: the tables come computed by :mod:`prspace.experiments.boyd.boyd_figure_data` (written by
the report commands of ``prspace boyd``); ``text`` is the figure's fields of its ``<figure>_text``
table (title, ``label:<name>`` per metric or aggregate in drawing order, ...).  Every function
returns a :class:`matplotlib.figure.Figure` and ``prspace figure`` saves it.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FixedLocator, NullLocator

from prspace.core import registry as R
from prspace.figures.style import METRIC_COLOURS


def _labels(text: Mapping[str, str]) -> dict[str, str]:
    """The ``label:<name>`` fields of a figure's text, in order: ``{name: label}``."""
    return {k.removeprefix("label:"): v for k, v in text.items() if k.startswith("label:")}


def figure_downsampling(summary: pd.DataFrame, axis: pd.DataFrame, paper: pd.DataFrame, text: Mapping[str, str]) -> Figure:
    """Each metric against the training ratio: levels (top row) and paired gaps (bottom row).

    Top: mean over tasks of the learners' mean on the downsampled test folds (red) and on the
    original test folds (blue); thin lines are single learners; black markers: Boyd et al.'s
    Table 3 (SAYU on UW-CSE advisedBy; AUCPR and AUCNPR only), their 1:24 row at "original".
    The dotted line is AUCPR_MIN at the downsampled test skew 1/(1+k) (Theorem 2).
    Bottom: the paired gap, downsampled minus original test fold of the same models, mean over
    tasks with bars of +- one sd over tasks, and Boyd's gaps.  Every row shares one y axis, so
    AUROC's small change is seen on the same scale as AUPR's large one.  Tables: ``summary``
    (``boyd_downsampling_levels``), ``axis`` (training ratios in order, their labels and AUCPR_MIN),
    ``paper`` (Boyd's Table 3 at our positions).
    """
    labels = _labels(text)
    fig = Figure(figsize=(15, 7.6), layout="constrained")
    axes = fig.subplots(2, 4, sharex=True, sharey="row")
    all_ = summary[summary["learner"] == "all learners"]
    ks = axis["train_k"].to_list()
    x = np.arange(len(ks))
    learners = [lrn for lrn in pd.unique(summary["learner"]) if lrn != "all learners"]
    styles = {"downsampled": ("C3", "-", "o", "test fold downsampled to the training ratio"),
              "original": ("C0", "--", "s", "original test fold")}
    for j, m in enumerate(labels):
        top, bottom = axes[0, j], axes[1, j]
        for test, (color, ls, marker, lab) in styles.items():
            for lrn in learners:
                sub = summary[summary["learner"] == lrn].set_index("train_k").reindex(ks)
                top.plot(x, sub[f"{test}_{m}"], color=color, ls=ls, lw=0.7, alpha=0.35)
            top.plot(x, all_[f"{test}_{m}"], color=color, ls=ls, marker=marker, lw=2,
                     label=f"{lab} (mean over tasks of the learners' mean)")
        for lrn in learners:
            sub = summary[summary["learner"] == lrn].set_index("train_k").reindex(ks)
            bottom.plot(x, sub[f"gap_{m}"], color="C4", lw=0.7, alpha=0.4)
        bottom.errorbar(x, all_[f"gap_{m}"], yerr=all_[f"gap_{m}_sd"], color="C4", marker="D", lw=2, capsize=3,
                        label="paired gap, downsampled minus original: mean over tasks, bars +- sd over tasks")
        bottom.axhline(0, color="k", lw=0.8)
        if (paper["metric"] == m).any():
            rows = paper[paper["metric"] == m]
            pos, down, orig = (rows[c].to_numpy(np.float64) for c in ("position", "downsampled", "original"))
            top.plot(pos, down, "k^", ms=6, label="Boyd et al. Table 3 (SAYU, UW-CSE): downsampled test")
            top.plot(pos, orig, "kv", ms=6, mfc="none", label="Boyd et al. Table 3: original test (1:24)")
            bottom.plot(pos, down - orig, "k*", ms=8, label="Boyd et al. Table 3: gap")
        if m == "aupr":
            top.plot(x, axis["aupr_min"].to_numpy(np.float64), color="0.3", ls=":", marker=".", label="AUCPR_MIN at the downsampled test skew 1/(1+k)")
        top.set_title(labels[m], fontsize=11)
        top.grid(alpha=0.25)
        bottom.grid(alpha=0.25)
        bottom.set_xticks(x, axis["ratio_label"].to_list())
        bottom.set_xlabel("training ratio (positives : negatives)")
    axes[0, 0].set_ylabel("metric value")
    axes[1, 0].set_ylabel("downsampled minus original test fold")
    axes[0, 0].set_ylim(0, 1.02)
    handles, labels = [], []
    for ax in (axes[0, 0], axes[1, 0]):
        h, lab = ax.get_legend_handles_labels()
        handles += h
        labels += lab
    handles.append(Line2D([], [], color="0.5", lw=0.7))
    labels.append("thin lines: single learners (mean over tasks)")
    fig.legend(handles, labels, loc="outside lower center", ncol=3, fontsize=8.5)
    fig.suptitle(text["title"], fontsize=11)
    return fig


def figure_fold_skew(summary: pd.DataFrame, text: Mapping[str, str]) -> Figure:
    """Signed shift (skewed minus stratified folds) of each aggregate, and the ranking cost.

    Both panels against the dispersion d.  Left: mean over tasks of the per-task signed shift
    (each task averaged over models and seeds; the sd over tasks is in the table), on a symmetric-log
    axis (linear within +-0.001): below zero, the aggregate is pessimistic on skewed folds.
    Right: Kendall's tau with the whole data's order, stratified minus skewed.  Table: ``summary``
    (``boyd_fold_skew_lines``); the aggregates drawn are the text's ``label:<aggregate>`` fields.
    """
    labels = _labels(text)
    fig = Figure(figsize=(12, 5.4), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2, sharex=True)
    colors = METRIC_COLOURS
    for a, label in labels.items():
        kind, m = a.split("_", 1)
        sub = summary[summary["aggregate"] == a].sort_values("dispersion")
        ls, marker = ("-", "o") if kind == "mean" else ("--", "s")
        d, b = sub["dispersion"].to_numpy(np.float64), sub["bias_mean"].to_numpy(np.float64)
        ax1.plot(d, b, color=colors[m], ls=ls, marker=marker, ms=4, label=label)
        ax2.plot(d, sub["kendall_loss"], color=colors[m], ls=ls, marker=marker, ms=4, label=label)
    ax1.set_yscale("symlog", linthresh=1e-3)
    ax1.axhline(0, color="k", lw=0.8)
    ax1.set_ylabel("skewed minus stratified folds (symlog; linear within +-0.001)")
    ax1.set_title("Signed shift each aggregate takes from fold skew\n(mean over tasks; sd over tasks: "
                  f"{R.BOYD_FOLD_SKEW_SUMMARY.csv('').name})", fontsize=10)
    ax1.grid(alpha=0.25, which="both")
    ax2.axhline(0, color="k", lw=0.8)
    ax2.set_ylabel("Kendall's tau lost: stratified minus skewed")
    ax2.set_title("Agreement of the models' order with the order on the whole data:\nhow much the skew costs beyond thinning",
                  fontsize=10)
    ax2.grid(alpha=0.25)
    for ax in (ax1, ax2):
        ax.set_xlabel("dispersion d (share of a fold's positives swapped into its partner fold)")
    fig.legend(*ax1.get_legend_handles_labels(), loc="outside lower center", ncol=4, fontsize=8.5)
    fig.suptitle(text["title"], fontsize=11)
    return fig


def text_colour(rgba: tuple[float, ...]) -> str:
    """Black on light cells, white on dark ones (relative luminance, ITU-R BT.709 weights)."""
    r, g, b = rgba[:3]
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 else "white"


def figure_aggregation(per_task: pd.DataFrame, means: pd.DataFrame, min_curve: pd.DataFrame, cells: pd.DataFrame,
                       text: Mapping[str, str]) -> Figure:
    """Left: per-task metrics against pi, with AUCPR_MIN(pi) and pi (random ranking's AUPR).
    Right: heat map of each learner's rank by its mean metric, over all tasks and within pi groups.

    Tables of :func:`prspace.experiments.boyd.boyd_figure_data.aggregation_tables`: ``per_task``
    (``boyd_aggregation_points``), ``means`` (mean over learners per task), ``min_curve``
    (AUCPR_MIN over the tasks' pi) and ``cells`` (the heat map).  The left y axis reaches down to
    the text's ``bottom`` (AUPRG and AUCNPR are negative for models worse than the always-positive
    baseline); values below it are triangles on the edge and the text's ``notes`` count them.
    Heat-map numbers are black on light cells and white on dark ones.
    """
    labels = _labels(text)
    height = max(5.5, 0.22 * int(text["n_learners"]) + 2.5)
    fig = Figure(figsize=(14, height), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2, width_ratios=[1, 1.25])
    colors = METRIC_COLOURS
    for m in ("aupr", "aucnpr", "auprg"):
        ax1.scatter(per_task["pi"], per_task[m], color=colors[m], s=6, alpha=0.2, linewidths=0)
        ax1.plot(means["pi"], means[m], color=colors[m], marker="o", ms=4, ls="none", label=f"{labels[m]} (mean over learners)")
    pi = min_curve["pi"].to_numpy(np.float64)
    lo_pi, hi_pi = float(pi[0]), float(pi[-1])
    ax1.plot(pi, min_curve["aupr_min"].to_numpy(np.float64), color="k", ls=":", lw=1.5, label="AUCPR_MIN(pi)")
    ax1.plot(pi, pi, color="0.5", ls="--", lw=0.8, label="pi (random ranking's AUPR)")
    ax1.set_xscale("log")
    ticks = [t for t in (0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5) if lo_pi <= t <= hi_pi]
    ax1.xaxis.set_major_locator(FixedLocator(ticks))
    ax1.xaxis.set_minor_locator(NullLocator())
    ax1.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax1.set_xlabel("pi of the task (log scale)")
    ax1.set_ylabel("metric value (pooled cross-validated predictions)")
    bottom = float(text["bottom"])
    ax1.set_ylim(bottom, 1.02)
    ax1.axhline(0, color="k", lw=0.6)
    for m in ("aupr", "aucnpr", "auprg"):
        below = per_task[per_task[m] < bottom]
        if len(below):
            ax1.scatter(below["pi"], np.full(len(below), bottom + 0.015), marker="v", color=colors[m], s=14, zorder=3)
    notes = text.get("notes", "")
    ax1.set_title("Per task (faint dots: single learners)" + (f"\n{notes}" if notes else ""), fontsize=9)
    ax1.grid(alpha=0.25, which="both")
    ax1.legend(fontsize=8, loc="lower right")

    if cells.empty:  # no learner evaluated on every task (an OpenML draw): no ranks to show
        ax2.set_axis_off()
        ax2.text(0.5, 0.5, "No learner was evaluated on every task:\nmeans over tasks compare learners only over the "
                 "same tasks,\nso there are no ranks to show (the learner tables say how many tasks\nthe most common "
                 "learner has).", ha="center", va="center", fontsize=10, transform=ax2.transAxes)
        fig.suptitle(text["title"], fontsize=11)
        return fig
    n_rows, n_cols = int(cells["row"].max()) + 1, int(cells["col"].max()) + 1
    data = np.full((n_rows, n_cols), np.nan)
    data[cells["row"].to_numpy(int), cells["col"].to_numpy(int)] = cells["rank"].to_numpy(np.float64)
    rows = cells.drop_duplicates("row").sort_values("row")["learner"].to_list()
    cols = cells.drop_duplicates("col").sort_values("col")
    order = list(pd.unique(cols["skew_group"]))
    per_group = n_cols // len(order)
    im = ax2.imshow(data, aspect="auto", cmap="viridis_r", interpolation="nearest")
    for (i, j), v in np.ndenumerate(data):
        if np.isfinite(v):
            ax2.text(j, i, f"{v:g}", ha="center", va="center", fontsize=6.5,
                     color=text_colour(im.cmap(im.norm(v))))
    ax2.set_yticks(range(n_rows), rows, fontsize=7.5)
    ax2.set_xticks(range(n_cols), [labels[m] for m in cols["metric"]], rotation=90, fontsize=8)
    for k in range(1, len(order)):
        ax2.axvline(k * per_group - 0.5, color="w", lw=3)
    sec = ax2.secondary_xaxis("top")
    sec.set_xticks([k * per_group + 1.5 for k in range(len(order))],
                   [g.split(": ", 1)[-1] if g != "all tasks" else g for g in order], fontsize=8)
    sec.tick_params(length=0)
    ax2.set_title("Rank of each learner's mean metric (1 = best), within pi groups of tasks", fontsize=10)
    fig.colorbar(im, ax=ax2, shrink=0.6, label="rank")
    fig.suptitle(text["title"], fontsize=11)
    return fig
