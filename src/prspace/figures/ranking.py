"""Figure 4 of Flach & Kull (NIPS 2015), for any study's metrics and ranks.

* :func:`rank_heatmap` -- Figure 4 (left): for every pair (AUPR rank, AUPRG rank) the
  number of models across all tasks with these ranks among the models of their task,
  counts in log2 bins (0, 1, 2-3, 4-7, ...).
* :func:`metric_scatter` -- Figure 4 (right): AUPRG against AUPR for every model of
  two tasks (chosen at the lower and upper quartile of the per-task rank correlation,
  :func:`prspace.experiments.ranking.quartile_groups`).

Functions return a :class:`matplotlib.figure.Figure` (no pyplot state) sized for a
paper's column (3.3 in); :func:`prspace.output.write_figure` writes it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.colors import BoundaryNorm, ListedColormap
from matplotlib.figure import Figure

from prspace.experiments.ranking import METRIC_LABELS
from prspace.figures.style import COLUMN_WIDTH, RC, style

__all__ = ["COLUMN_WIDTH", "RC", "log2_bins", "metric_scatter", "rank_counts", "rank_heatmap"]


def log2_bins(max_count: int) -> list[int]:
    """Bin edges 0, 1, 2, 4, 8, ... covering ``max_count`` (bins [0,1), [1,2), [2,4), ...)."""
    edges = [0, 1]
    while edges[-1] <= max_count:
        edges.append(edges[-1] * 2)
    return edges


def _bin_label(lo: int, hi: int) -> str:
    return str(lo) if hi - lo == 1 else f"{lo}-{hi - 1}"


def rank_counts(ranks: pd.DataFrame, metric_x: str, metric_y: str) -> np.ndarray:
    """Counts ``C[i, j]`` of models with rank ``i+1`` by ``metric_y`` and ``j+1`` by ``metric_x``.

    Average ranks of tied models (x.5) are rounded half up to an integer rank.
    """
    xy = ranks[[metric_x, metric_y]].dropna().to_numpy(np.float64)
    r = np.floor(xy + 0.5).astype(int)
    size = int(r.max()) if r.size else 1
    counts = np.zeros((size, size), dtype=int)
    np.add.at(counts, (r[:, 1] - 1, r[:, 0] - 1), 1)
    return counts


def rank_heatmap(ranks: pd.DataFrame, metric_x: str = "aupr", metric_y: str = "auprg", *, source: str = "",
                 exclude: Sequence[str] = ()) -> Figure:
    """Figure 4 (left): model counts by (rank by ``metric_x``, rank by ``metric_y``), log2-binned.

    ``exclude``: tasks left out -- the saturated ones
    (:func:`prspace.experiments.selection.saturated_tasks`), whose models tied at a perfect
    score all sit on one averaged rank and would fill an off-diagonal cell with ties, not
    disagreements; the title says how many were left out.
    """
    n_all = ranks["task_id"].nunique() if "task_id" in ranks else 0
    if len(exclude) and "task_id" in ranks:
        ranks = ranks[~ranks["task_id"].astype(str).isin({str(t) for t in exclude})]
    counts = rank_counts(ranks, metric_x, metric_y)
    edges = log2_bins(int(counts.max()))
    n_bins = len(edges) - 1
    base = ["white"] + [c for c in _blues(n_bins - 1)]
    cmap = ListedColormap(base)
    norm = BoundaryNorm(edges, cmap.N)
    n_tasks = ranks["task_id"].nunique() if "task_id" in ranks else 0
    with style():
        fig = Figure(figsize=(COLUMN_WIDTH, 3.0), layout="constrained")
        ax = fig.add_subplot()
        size = counts.shape[0]
        im = ax.imshow(counts, origin="lower", cmap=cmap, norm=norm, extent=(0.5, size + 0.5, 0.5, size + 0.5),
                       interpolation="nearest")
        ax.plot([0.5, size + 0.5], [0.5, size + 0.5], color="0.6", lw=0.5, ls=":")
        ax.set_xlabel(f"rank by {METRIC_LABELS.get(metric_x, metric_x)} (1 = best)")
        ax.set_ylabel(f"rank by {METRIC_LABELS.get(metric_y, metric_y)} (1 = best)")
        ticks = list(range(1, size + 1)) if size <= 10 else [1] + list(range(5, size + 1, 5))
        ax.set_xticks(ticks)
        ax.set_yticks(ticks)
        left_out = (f"; {n_all - n_tasks} saturated task(s) left out (models tied at AUROC = AUPR = AUPRG = 1)"
                    if n_all > n_tasks else "")
        ax.set_title(textwrap.fill(f"{len(ranks)} models in {n_tasks} tasks{left_out}", 75)
                     + (f"\n{textwrap.fill(source, 75)}" if source else ""), fontsize=5)
        cb = fig.colorbar(im, ax=ax, shrink=0.9, pad=0.02)
        mids = [(lo + hi) / 2 for lo, hi in zip(edges[:-1], edges[1:], strict=True)]
        cb.set_ticks(mids)
        cb.set_ticklabels([_bin_label(lo, hi) for lo, hi in zip(edges[:-1], edges[1:], strict=True)])
        cb.ax.tick_params(labelsize=5.5, length=0)
        cb.set_label("models (count)", fontsize=6.5)
    return fig


def _blues(n: int) -> list:
    from matplotlib import colormaps

    cmap = colormaps["viridis_r"]
    return [cmap(x) for x in np.linspace(0.05, 1.0, max(n, 1))][:n]


def metric_scatter(
    metrics: pd.DataFrame,
    tasks: Sequence[str],
    *,
    labels: Sequence[str] | None = None,
    metric_x: str = "aupr",
    metric_y: str = "auprg",
    highlight: Sequence[tuple[str, str]] = (),
    source: str = "",
    note: str = "",
) -> Figure:
    """Figure 4 (right): ``metric_y`` against ``metric_x`` for every model of ``tasks``.

    ``labels`` annotate the tasks in the legend (e.g. with their rank correlation);
    ``highlight`` lists ``(task_id, model_id)`` pairs to circle (the Figure 5 pair).
    As in the paper, models with ``metric_y < 0`` (worse than the always-positive
    baseline in PRG space) fall outside the axes; the legend counts them.  ``note`` is
    printed under the legend (e.g. our quartiles beside the paper's).
    """
    labels = list(labels) if labels is not None else list(tasks)
    markers = ["o", "^", "s", "D"]
    with style():
        fig = Figure(figsize=(COLUMN_WIDTH, 3.7), layout="constrained")
        ax = fig.add_subplot()
        for i, (task, label) in enumerate(zip(tasks, labels, strict=True)):
            sub = metrics[metrics["task_id"] == task]
            x = sub[metric_x].to_numpy(np.float64)
            y = sub[metric_y].to_numpy(np.float64)
            hidden = int((y < 0).sum())
            lab = textwrap.fill(label + (f" ({hidden} with {METRIC_LABELS.get(metric_y, metric_y)} < 0 not shown)"
                                         if hidden else ""), 58)
            ax.scatter(x[y >= 0], y[y >= 0], marker=markers[i % 4], s=12, facecolors="none",
                       edgecolors=f"C{i}", linewidths=0.8, label=lab)
            for t, m in highlight:
                if t == task:
                    hit = sub[sub["model_id"] == m]
                    ax.scatter(hit[metric_x], hit[metric_y], s=70, facecolors="none", edgecolors="k",
                               linewidths=0.8, zorder=3)
        if any(t in tasks for t, _ in highlight):  # only when a circled model is on this plot
            ax.scatter([], [], s=70, facecolors="none", edgecolors="k", linewidths=0.8, label="models of Figure 5")
        ax.plot([0, 1], [0, 1], color="0.7", lw=0.5, ls=":")
        ax.set_xlim(0, 1.01)
        ax.set_ylim(0, 1.01)
        ax.set_aspect("equal")
        ax.set_xlabel(METRIC_LABELS.get(metric_x, metric_x))
        ax.set_ylabel(METRIC_LABELS.get(metric_y, metric_y))
        ax.grid(alpha=0.25, lw=0.4)
        if note:
            ax.plot([], [], ls="none", label=textwrap.fill(note, 58))
        fig.legend(loc="outside lower center", frameon=False, handletextpad=0.3, ncols=1)
        if source:
            ax.set_title(textwrap.fill(source, 70), fontsize=5)
    return fig
