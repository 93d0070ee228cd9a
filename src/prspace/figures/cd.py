"""Figure: critical-difference diagrams (Demsar 2006) side by side, one panel per metric.

Drawn from the tables of ``prspace cd`` (:func:`prspace.cd.study_tables`): ``cd_ranks``
(average rank of each learner per metric), ``cd_cliques`` (the learners no two of which differ
under the post hoc named in ``cd_tests``) and ``cd_tests`` (Friedman p, critical difference).
Layout only: no statistics are computed here.

Each panel is a vertical rank axis (best at the top, spanning the average ranks). A learner is a dot at its average
rank, labelled at the right (labels spread evenly, a thin line joins dot and label); thick bars
left of the axis are the cliques; the bracket at the top left is Nemenyi's critical difference.
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


def _panel(ax, ranks: pd.DataFrame, cliques: pd.DataFrame, test: Mapping[str, object], title: str,
           moved: set[str]) -> None:
    r = ranks.sort_values("position")
    k = len(r)
    y = r["average_rank"].to_numpy(float)
    cd = float(test["critical_difference"])
    lo, hi = float(np.floor(y.min())), float(np.ceil(y.max()))
    hi = max(hi, lo + 1)
    label_y = np.linspace(lo, hi, k) if k > 1 else np.array([lo])
    ax.set_ylim(max(hi, lo + cd) + 0.4, lo - 0.6)
    ax.set_xlim(-2.0, 3.2)
    ax.plot([0, 0], [lo, hi], color="0.3", lw=0.8)
    step = 1 if hi - lo <= 12 else 2
    for t in range(int(lo), int(hi) + 1):
        ax.plot([-0.06, 0.0], [t, t], color="0.3", lw=0.6)
        if (t - int(lo)) % step == 0 or t == int(hi):
            ax.text(-0.09, t, str(t), ha="right", va="center", fontsize=5.5, color="0.3")
    for yi, ly, name in zip(y, label_y, r["learner"], strict=True):
        ax.plot([0, 0.35, 0.55], [yi, yi, ly], color="0.6", lw=0.45)
        ax.plot([0], [yi], "o", ms=2.4, color="k")
        ax.text(0.6, ly, str(name), va="center", ha="left", fontsize=5.6,
                color="tab:blue" if name in moved else "k", fontweight="bold" if name in moved else "normal")
    pos = dict(zip(r["learner"], y, strict=True))
    groups = [g["learner"].tolist() for _, g in cliques.groupby("clique", sort=True)] if len(cliques) else []
    for i, g in enumerate(groups):
        a, b = min(pos[m] for m in g), max(pos[m] for m in g)
        x = -0.45 - 0.09 * (i % 12)
        ax.plot([x, x], [a - 0.05, b + 0.05], color="tab:red", lw=1.8, solid_capstyle="round")
    ax.plot([-1.75, -1.75], [lo, lo + cd], color="k", lw=1)
    for e in (lo, lo + cd):
        ax.plot([-1.81, -1.69], [e, e], color="k", lw=1)
    ax.text(-1.65, lo + cd / 2, f"CD\n{cd:.2f}", fontsize=5.5, va="center", ha="left")
    ax.set_title(f"{title}\nFriedman p = {float(test['friedman_p']):.2g}, {int(test['n_tasks'])} tasks", fontsize=7)
    ax.axis("off")


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
    if not len(ranks):  # no diagram could be drawn (prspace.cd.study_tables): say why, in words
        note = str(tests["note"].iloc[0]) if "note" in tests.columns and len(tests) else "no learner ranked"
        with mpl.rc_context(RC):
            fig = Figure(figsize=(8.0, 1.2), layout="constrained")
            fig.text(0.5, 0.5, "Critical-difference diagrams not drawn:\n" + note, ha="center", va="center", wrap=True)
        return fig
    k = int(ranks.groupby("metric").size().max())
    first = ranks[ranks["metric"] == metrics[0]].set_index("learner")["average_rank"]
    cd0 = tests.set_index("metric")["critical_difference"]
    with mpl.rc_context(RC):
        fig = Figure(figsize=(2.4 * len(metrics) + 0.3, 0.16 * k + 1.2), layout="constrained")
        axes = fig.subplots(1, len(metrics), squeeze=False).ravel()
        for ax, m in zip(axes, metrics, strict=True):
            rm = ranks[ranks["metric"] == m]
            here = rm.set_index("learner")["average_rank"]
            common = here.index.intersection(first.index)
            moved = set(common[np.abs(here[common] - first[common]) >= cd0[m]]) if m != metrics[0] else set()
            _panel(ax, rm, cliques[cliques["metric"] == m], tests[tests["metric"] == m].iloc[0],
                   labels.get(m, m), moved)
        posthoc = str(tests["posthoc"].iloc[0])
        name = "Nemenyi" if posthoc == "nemenyi" else "Wilcoxon signed-rank, Holm"
        fig.suptitle(
            f"Average rank across tasks (1 = best). Red bars: learners not significantly different ({name}, "
            f"alpha {float(tests['alpha'].iloc[0]):g}); blue labels: moved by at least the CD against the first panel.",
            fontsize=6.5,
        )
    return fig
