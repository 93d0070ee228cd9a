"""Figures of the Boyd et al. (2012) experiments: downsampling, fold skew, task aggregation.

Layout only: the tables come computed by :mod:`prspace.experiments.boyd.boyd_figure_data` (written by
the report commands of ``prspace boyd``); ``text`` is the figure's fields of its ``<figure>_text``
table (title, ``label:<name>`` per metric or aggregate in drawing order, ...).  Every function
returns a :class:`matplotlib.figure.Figure` and ``prspace figure`` saves it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FixedLocator, NullLocator

from prspace.figures.style import METRIC_COLOURS
from prspace.stats.distributions import student_t


def _labels(text: Mapping[str, str]) -> dict[str, str]:
    """The ``label:<name>`` fields of a figure's text, in order: ``{name: label}``."""
    return {k.removeprefix("label:"): v for k, v in text.items() if k.startswith("label:")}


#: Text size (pt) of the Boyd figures at their printed width (:data:`PRINT_WIDTH`).
FONT = 8
PRINT_WIDTH = 7.2
LEVEL = 0.95
_RC = {"font.size": FONT, "axes.titlesize": FONT, "axes.labelsize": FONT, "xtick.labelsize": FONT,
       "ytick.labelsize": FONT, "legend.fontsize": FONT, "figure.titlesize": FONT + 1}


def short_title(title: str) -> str:
    """A figure's title without its provenance (" -- <source>", now in its caption) and parenthetical asides."""
    return title.split(" -- ")[0].strip()


def mean_interval(mean: np.ndarray, sd: np.ndarray, n: np.ndarray, level: float = LEVEL) -> np.ndarray:
    """The half-width of the ``level`` t-interval of a mean over ``n`` tasks from its sd over tasks
    (``t_{(1+level)/2, n-1} sd / sqrt(n)``; NaN where ``n`` < 2)."""
    n = np.asarray(n, dtype=np.float64)
    ok = n >= 2
    half = np.full(np.shape(n), np.nan)
    half[ok] = student_t.ppf((1 + level) / 2, n[ok] - 1) * np.asarray(sd, dtype=np.float64)[ok] / np.sqrt(n[ok])
    return half


def _downsampling_panel(top, bottom, m: str, summary: pd.DataFrame, axis: pd.DataFrame, paper: pd.DataFrame) -> None:
    """One metric: its levels (top) and its paired gap with the 95% interval of its mean (bottom)."""
    all_ = summary[summary["learner"] == "all learners"]
    ks = axis["train_k"].to_list()
    x = np.arange(len(ks))
    learners = [lrn for lrn in pd.unique(summary["learner"]) if lrn != "all learners"]
    styles = {"downsampled": ("C3", "-", "o", "test fold downsampled to the training ratio"),
              "original": ("C0", "--", "s", "original test fold")}
    for test, (color, ls, marker, lab) in styles.items():
        for lrn in learners:
            sub = summary[summary["learner"] == lrn].set_index("train_k").reindex(ks)
            top.plot(x, sub[f"{test}_{m}"], color=color, ls=ls, lw=0.6, alpha=0.35)
        top.plot(x, all_[f"{test}_{m}"], color=color, ls=ls, marker=marker, ms=3.5, lw=1.5,
                 label=f"{lab}: mean over tasks")
    for lrn in learners:
        sub = summary[summary["learner"] == lrn].set_index("train_k").reindex(ks)
        bottom.plot(x, sub[f"gap_{m}"], color="C4", lw=0.6, alpha=0.4)
    half = mean_interval(all_[f"gap_{m}"], all_[f"gap_{m}_sd"], all_["n_tasks"])
    bottom.errorbar(x, all_[f"gap_{m}"], yerr=half, color="C4", marker="D", ms=3.5, lw=1.5, capsize=2.5,
                    label="paired gap (downsampled minus original): mean over tasks, 95% interval")
    bottom.axhline(0, color="k", lw=0.8)
    if (paper["metric"] == m).any():
        rows = paper[paper["metric"] == m]
        pos, down, orig = (rows[c].to_numpy(np.float64) for c in ("position", "downsampled", "original"))
        top.plot(pos, down, "k^", ms=5, label="Boyd et al. Table 3 (SAYU, UW-CSE): downsampled test")
        top.plot(pos, orig, "kv", ms=5, mfc="none", label="Boyd et al. Table 3: original test (1:24)")
        bottom.plot(pos, down - orig, "k*", ms=6, label="Boyd et al. Table 3: gap")
    if m == "aupr":
        top.plot(x, axis["aupr_min"].to_numpy(np.float64), color="0.3", ls=":", marker=".",
                 label="lowest AUCPR possible at the downsampled skew (Theorem 2)")
    for ax in (top, bottom):
        ax.grid(alpha=0.25)
    bottom.set_xticks(x, axis["ratio_label"].to_list(), rotation=90)
    bottom.set_xlabel("training ratio (pos : neg)")


def figure_downsampling(summary: pd.DataFrame, axis: pd.DataFrame, paper: pd.DataFrame, text: Mapping[str, str]) -> Figure:
    """Each metric against the training ratio: levels (top row) and paired gaps (bottom row).

    Top: mean over tasks of the learners' mean on the downsampled test folds (red) and on the
    original test folds (blue); thin lines are single learners; black markers: Boyd et al.'s
    Table 3 (SAYU on UW-CSE advisedBy; AUCPR and AUCNPR only), their 1:24 row at "original".
    The dotted line is AUCPR_MIN at the downsampled test skew 1/(1+k) (Theorem 2).
    Bottom: the paired gap, downsampled minus original test fold of the same models, mean over
    tasks with its 95% t-interval (:func:`mean_interval`, from the sd over tasks and ``n_tasks``), and
    Boyd's gaps.  Every row shares one y axis, so AUROC's small change is seen on the same scale as
    AUPR's large one.  Tables: ``summary`` (``boyd_downsampling_levels``), ``axis`` (training ratios in
    order, their labels and AUCPR_MIN), ``paper`` (Boyd's Table 3 at our positions).  Every text 8 pt at
    7.2 in.
    """
    labels = _labels(text)
    with mpl.rc_context(_RC):
        fig = Figure(figsize=(PRINT_WIDTH, 6.6), layout="constrained")
        axes = fig.subplots(2, len(labels), sharex=True, sharey="row", squeeze=False)
        for j, m in enumerate(labels):
            _downsampling_panel(axes[0, j], axes[1, j], m, summary, axis, paper)
            axes[0, j].set_title(labels[m])
        axes[0, 0].set_ylabel("metric value")
        axes[1, 0].set_ylabel("gap: downsampled\nminus original test fold")
        axes[0, 0].set_ylim(0, 1.02)
        handles: dict[str, object] = {}
        for ax in axes.ravel():
            h, lab = ax.get_legend_handles_labels()
            handles.update(zip(lab, h, strict=True))
        handles["thin lines: single learners (mean over tasks)"] = Line2D([], [], color="0.5", lw=0.7)
        fig.legend(list(handles.values()), list(handles), loc="outside lower center", ncol=1)
        fig.suptitle(short_title(text["title"]).split(";")[0] + "; 'original' = each task's own ratio")
    return fig


def fold_skew_finding(summary: pd.DataFrame, aggregate: str = "mean_aupr") -> str:
    """In words, the fold means' shift at the smallest and the largest dispersion, each with its 95% interval
    (``bias_mean``, ``bias_lo``, ``bias_hi`` of ``boyd_fold_skew_summary``, where it has them), and its sign."""
    sub = summary[summary["aggregate"] == aggregate].sort_values("dispersion")
    if sub.empty:
        return ""
    ci = {"bias_lo", "bias_hi"} <= set(sub.columns)
    lo, hi = sub["bias_lo"] if ci else sub["bias_mean"], sub["bias_hi"] if ci else sub["bias_mean"]
    word = "below" if (hi < 0).all() else "above" if (lo > 0).all() else "not clearly above or below"

    def at(r) -> str:
        interval = f" [{r['bias_lo']:+.3f}, {r['bias_hi']:+.3f}]" if ci else ""
        return f"{r['bias_mean']:+.3f}{interval} at d = {r['dispersion']:g}"

    return (f"Averaging AUPR over skewed folds lands {word} the merged AUPR at every dispersion: "
            f"{at(sub.iloc[0])}, {at(sub.iloc[-1])} (mean over tasks" + (", 95% interval" if ci else "") + ")"
            + (": pessimistic, not optimistic" if word == "below" else ""))


def _shift(ax, summary: pd.DataFrame, labels: Mapping[str, str]) -> None:
    """The shift of each aggregate of ``labels`` against the dispersion, with its 95% interval where given."""
    for a, label in labels.items():
        kind, m = a.split("_", 1)
        sub = summary[summary["aggregate"] == a].sort_values("dispersion")
        ls, marker = ("-", "o") if kind == "mean" else ("--", "s")
        d, b = sub["dispersion"].to_numpy(np.float64), sub["bias_mean"].to_numpy(np.float64)
        if {"bias_lo", "bias_hi"} <= set(sub.columns):
            ax.fill_between(d, sub["bias_lo"], sub["bias_hi"], color=METRIC_COLOURS[m], alpha=0.15, lw=0)
        ax.plot(d, b, color=METRIC_COLOURS[m], ls=ls, marker=marker, ms=3, label=label)
    ax.axhline(0, color="k", lw=0.8)
    ax.grid(alpha=0.25)


def figure_fold_skew(summary: pd.DataFrame, text: Mapping[str, str]) -> Figure:
    """Signed shift (skewed minus stratified folds) of each aggregate, and the ranking cost.

    All panels against the dispersion d, on linear axes.  Left: mean over tasks of the per-task signed
    shift (each task averaged over models and seeds) with its 95% interval (``bias_lo``, ``bias_hi``) of
    the AUPR, AUCNPR and AUROC aggregates; middle: the AUPRG aggregates, on their own axis (a fold's AUPRG
    is unbounded below, its shift ten times AUPR's); below zero, the aggregate is pessimistic on skewed
    folds, and the title says so in words (:func:`fold_skew_finding`).  Right: Kendall's tau with the whole
    data's order, stratified minus skewed.  Table: ``summary`` (``boyd_fold_skew_lines``); the aggregates
    drawn are the text's ``label:<aggregate>`` fields.  Every text 8 pt at 7.2 in.
    """
    labels = _labels(text)
    gain = {a: v for a, v in labels.items() if a.endswith("_auprg")}
    rest = {a: v for a, v in labels.items() if a not in gain}
    with mpl.rc_context(_RC):
        fig = Figure(figsize=(PRINT_WIDTH, 4.6), layout="constrained")
        ax1, ax_g, ax2 = fig.subplots(1, 3, sharex=True)
        _shift(ax1, summary, rest)
        _shift(ax_g, summary, gain)
        for a, label in labels.items():
            kind, m = a.split("_", 1)
            sub = summary[summary["aggregate"] == a].sort_values("dispersion")
            ax2.plot(sub["dispersion"], sub["kendall_loss"], color=METRIC_COLOURS[m], ls="-" if kind == "mean" else "--",
                     marker="o" if kind == "mean" else "s", ms=3, label=label)
        ax1.set_ylabel("aggregate on skewed minus on stratified folds")
        ax1.set_title("Shift: AUPR, AUCNPR, AUROC\n(shaded: 95% interval)")
        ax_g.set_title("Shift: AUPRG (own axis)\n(shaded: 95% interval)")
        ax2.axhline(0, color="k", lw=0.8)
        ax2.set_ylabel("Kendall's tau lost: stratified minus skewed")
        ax2.set_title("Models' order vs the order\non the whole data: tau lost")
        ax2.grid(alpha=0.25)
        for ax in (ax1, ax_g, ax2):
            ax.set_xlabel("dispersion d")
        ax_g.set_xlabel("dispersion d (share of a fold's positives\nswapped into its partner fold)")
        handles: dict[str, object] = {}
        for ax in (ax1, ax_g):
            h, n = ax.get_legend_handles_labels()
            handles.update(zip(n, h, strict=True))
        fig.legend(list(handles.values()), list(handles), loc="outside lower center", ncol=2)
        finding = fold_skew_finding(summary)
        fig.suptitle(short_title(text["title"]) + (f"\n{textwrap.fill(finding, 100)}" if finding else ""))
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
    rows_in = max(2.5, 0.17 * int(text["n_learners"]) + 1.6)
    fig = Figure(figsize=(PRINT_WIDTH, 4.2 + rows_in), layout="constrained")
    ax1, ax2 = fig.subplots(2, 1, height_ratios=[3.6, rows_in])
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
    ax1.set_ylabel("metric value\n(pooled cross-validated predictions)")
    bottom = float(text["bottom"])
    ax1.set_ylim(bottom, 1.02)
    ax1.axhline(0, color="k", lw=0.6)
    for m in ("aupr", "aucnpr", "auprg"):
        below = per_task[per_task[m] < bottom]
        if len(below):
            ax1.scatter(below["pi"], np.full(len(below), bottom + 0.015), marker="v", color=colors[m], s=14, zorder=3)
    notes = text.get("notes", "")
    ax1.set_title("Per task (faint dots: single learners)" + (f"\n{textwrap.fill(notes, 100)}" if notes else ""),
                  fontsize=FONT)
    ax1.grid(alpha=0.25, which="both")
    ax1.legend(fontsize=FONT, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, frameon=False)

    if cells.empty:  # no learner evaluated on every task (an OpenML draw): no ranks to show
        ax2.set_axis_off()
        ax2.text(0.5, 0.5, "No learner was evaluated on every task:\nmeans over tasks compare learners only over the "
                 "same tasks,\nso there are no ranks to show (the learner tables say how many tasks\nthe most common "
                 "learner has).", ha="center", va="center", fontsize=FONT, transform=ax2.transAxes)
        fig.suptitle(short_title(text["title"]), fontsize=FONT + 1)
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
            ax2.text(j, i, f"{v:g}", ha="center", va="center", fontsize=FONT,
                     color=text_colour(im.cmap(im.norm(v))))
    ax2.set_yticks(range(n_rows), rows, fontsize=FONT)
    ax2.set_xticks(range(n_cols), [labels[m] for m in cols["metric"]], rotation=90, fontsize=FONT)
    for k in range(1, len(order)):
        ax2.axvline(k * per_group - 0.5, color="w", lw=3)
    sec = ax2.secondary_xaxis("top")
    sec.set_xticks([k * per_group + 1.5 for k in range(len(order))],
                   [g.split(": ", 1)[-1] if g != "all tasks" else g for g in order], fontsize=FONT)
    sec.tick_params(length=0)
    ax2.set_title("Rank of each learner's mean metric (1 = best), within pi groups of tasks", fontsize=FONT)
    ax2.set_ylabel("learner", fontsize=FONT)
    cb = fig.colorbar(im, ax=ax2, shrink=0.6)
    cb.set_label("rank", fontsize=FONT)
    cb.ax.tick_params(labelsize=FONT)
    ax1.tick_params(labelsize=FONT)
    ax1.xaxis.label.set_size(FONT)
    ax1.yaxis.label.set_size(FONT)
    fig.suptitle(short_title(text["title"]), fontsize=FONT + 1)
    return fig
