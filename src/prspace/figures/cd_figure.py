"""Figure: critical-difference diagrams (Demsar 2006) side by side, one panel per metric.

Drawn from the tables of ``prspace step cd`` (:func:`prspace.experiments.ranking.cd_tables.study_tables`): ``cd_ranks``
(average rank of each learner per metric), ``cd_cliques`` (the learners no two of which differ
under the post hoc named in ``cd_tests``) and ``cd_tests`` (Friedman p, critical difference).
Layout only: no statistics are computed here.

Each panel is a vertical rank axis (best at the top, spanning the average ranks). A learner is a dot at its average
rank, labelled at the right with its average rank (labels spread evenly; a thin line runs from the dot
straight right, then to the label).  The cliques are red bars between the axis and the labels, each
spanning its members' average ranks, with a red dot where it crosses each member's line (as the
crossbars of scikit-posthocs' ``critical_difference_diagram``); bars that overlap stand side by side
(:func:`clique_levels`).  The bracket at the top left is Nemenyi's critical difference.
A learner's label is grey-blue when it moves more than the critical difference between the
first metric's panel and this one, so moves are seen across panels.
"""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from prspace.figures.style import RC

#: horizontal layout of a panel (axes units): the clique bars' first column and spacing, and the gap
#: between the last bar and the labels
BAR_X0, BAR_DX, LABEL_GAP = 0.22, 0.13, 0.3
#: Text size (pt): every text of the figure, at its printed width (7 in, two panels a row)
FONT = 8
NCOL = 2


def clique_levels(spans: list[tuple[float, float]]) -> list[int]:
    """A column per clique bar: bars are placed left to right in the first column where they overlap
    no other bar (sorted by their top end; greedy interval colouring, as scikit-posthocs stacks its
    crossbars)."""
    order = sorted(range(len(spans)), key=lambda i: (spans[i][0], spans[i][1]))
    ends: list[float] = []
    level = [0] * len(spans)
    for i in order:
        a, b = spans[i]
        col = next((j for j, e in enumerate(ends) if e < a - 1e-9), None)
        if col is None:
            ends.append(b)
            col = len(ends) - 1
        else:
            ends[col] = b
        level[i] = col
    return level


def _panel(ax, ranks: pd.DataFrame, cliques: pd.DataFrame, test: Mapping[str, object], title: str,
           moved: set[str], n_levels: int) -> None:
    r = ranks.sort_values("position")
    k = len(r)
    y = r["average_rank"].to_numpy(float)
    cd = float(test["critical_difference"])
    lo, hi = float(np.floor(y.min())), float(np.ceil(y.max()))
    hi = max(hi, lo + 1)
    label_y = np.linspace(lo, hi, k) if k > 1 else np.array([lo])
    elbow = BAR_X0 + BAR_DX * max(n_levels - 1, 0) + LABEL_GAP
    label_x = elbow + 0.25
    ax.set_ylim(max(hi, lo + cd) + 0.4, lo - 0.6)
    ax.set_xlim(-1.3, label_x + 2.6)
    ax.plot([0, 0], [lo, hi], color="0.3", lw=0.8)
    step = 1 if hi - lo <= 12 else 2
    for t in range(int(lo), int(hi) + 1):
        ax.plot([-0.06, 0.0], [t, t], color="0.3", lw=0.6)
        if (t - int(lo)) % step == 0 or t == int(hi):
            ax.text(-0.09, t, str(t), ha="right", va="center", fontsize=FONT, color="0.3")
    for yi, ly, name in zip(y, label_y, r["learner"], strict=True):
        ax.plot([0, elbow, label_x - 0.05], [yi, yi, ly], color="0.6", lw=0.45, zorder=1)
        ax.plot([0], [yi], "o", ms=2.4, color="k", zorder=3)
        ax.text(label_x, ly, f"{name} ({yi:.2f})", va="center", ha="left", fontsize=FONT,
                color="tab:blue" if name in moved else "k", fontweight="bold" if name in moved else "normal")
    pos = dict(zip(r["learner"], y, strict=True))
    groups = [g["learner"].tolist() for _, g in cliques.groupby("clique", sort=True)] if len(cliques) else []
    spans = [(min(pos[m] for m in g), max(pos[m] for m in g)) for g in groups]
    for g, (a, b), level in zip(groups, spans, clique_levels(spans), strict=True):
        x = BAR_X0 + BAR_DX * level
        ax.plot([x, x], [a, b], color="tab:red", lw=1.6, solid_capstyle="butt", zorder=2)
        ax.plot([x] * len(g), [pos[m] for m in g], "o", ms=2.0, color="tab:red", zorder=2)
    ax.plot([-1.05, -1.05], [lo, lo + cd], color="k", lw=1)
    for e in (lo, lo + cd):
        ax.plot([-1.11, -0.99], [e, e], color="k", lw=1)
    ax.text(-0.95, lo + cd / 2, f"CD\n{cd:.2f}", fontsize=FONT, va="center", ha="left")
    if lo + cd + 2 < hi:  # the rank axis named below the bracket
        ax.text(-0.7, (lo + cd + hi) / 2, "average rank", rotation=90, fontsize=FONT, va="center", ha="center",
                color="0.3")
    ax.set_title(f"{title}\nFriedman p = {float(test['friedman_p']):.2g}, {int(test['n_tasks'])} tasks", fontsize=FONT + 1)
    ax.axis("off")


def _n_levels(ranks: pd.DataFrame, cliques: pd.DataFrame, metric: str) -> int:
    pos = ranks[ranks["metric"] == metric].set_index("learner")["average_rank"]
    c = cliques[cliques["metric"] == metric]
    spans = [(float(pos[g["learner"]].min()), float(pos[g["learner"]].max())) for _, g in c.groupby("clique")]
    return max(clique_levels(spans), default=-1) + 1


def cd_figure(ranks: pd.DataFrame, cliques: pd.DataFrame, tests: pd.DataFrame,
              labels: Mapping[str, str] | None = None) -> Figure:
    """One critical-difference panel per metric of ``cd_tests`` (in its order), side by side;
    ``labels``: metric name -> panel title (:data:`prspace.metrics.METRIC_LABELS`)."""
    labels = labels or {}
    metrics = list(tests["metric"])
    if not metrics:
        with mpl.rc_context(RC):
            fig = Figure(figsize=(7.0, 1.0), layout="constrained")
            fig.text(0.5, 0.5, "Critical-difference diagrams: no metric (the table cd_tests is empty)", ha="center")
        return fig
    if not len(ranks):  # no diagram could be drawn (prspace.experiments.ranking.cd_tables.study_tables): say why, in words
        note = str(tests["note"].iloc[0]) if "note" in tests.columns and len(tests) else "no learner ranked"
        with mpl.rc_context(RC):
            fig = Figure(figsize=(8.0, 1.2), layout="constrained")
            fig.text(0.5, 0.5, "Critical-difference diagrams not drawn:\n" + note, ha="center", va="center", wrap=True)
        return fig
    k = int(ranks.groupby("metric").size().max())
    first = ranks[ranks["metric"] == metrics[0]].set_index("learner")["average_rank"]
    cd0 = tests.set_index("metric")["critical_difference"]
    levels = {m: _n_levels(ranks, cliques, m) for m in metrics}
    with mpl.rc_context(RC):
        ncol = min(NCOL, len(metrics))
        nrow = -(-len(metrics) // ncol)
        fig = Figure(figsize=(7.2, (0.14 * k + 0.9) * nrow + 0.4), layout="constrained")
        axes = fig.subplots(nrow, ncol, squeeze=False).ravel()
        for ax in axes[len(metrics):]:
            ax.set_visible(False)
        for ax, m in zip(axes, metrics, strict=False):
            rm = ranks[ranks["metric"] == m]
            here = rm.set_index("learner")["average_rank"]
            common = here.index.intersection(first.index)
            moved = set(common[np.abs(here[common] - first[common]) >= cd0[m]]) if m != metrics[0] else set()
            _panel(ax, rm, cliques[cliques["metric"] == m], tests[tests["metric"] == m].iloc[0],
                   labels.get(m, m), moved, max(levels.values()))
        name = "Nemenyi" if str(tests["posthoc"].iloc[0]) == "nemenyi" else "Wilcoxon signed-rank, Holm"
        fig.suptitle(f"Average rank across tasks (1 = best); red bars join learners not different ({name}, alpha "
                     f"{float(tests['alpha'].iloc[0]):g})", fontsize=FONT + 1)
    return fig
