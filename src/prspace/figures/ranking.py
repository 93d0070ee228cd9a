"""Figure 4 of Flach & Kull (NIPS 2015), drawn from the tables of ``prspace step figure_data``.

* :func:`rank_heatmap` -- Figure 4 (left): for every pair (AUPR rank, AUPRG rank) the
  number of models across all tasks with these ranks among the models of their task
  (:func:`prspace.experiments.fk.fk_figure_data.rank_count_table`), counts in log2 bins
  (0, 1, 2-3, 4-7, ...).
* :func:`metric_scatter` -- Figure 4 (right): AUPRG against AUPR for every model of
  the tasks :func:`prspace.experiments.fk.figure_selection.figure_selection` chose
  (:func:`prspace.experiments.fk.fk_figure_data.scatter_table`).

Layout only: no statistics are computed here.  Functions return a
:class:`matplotlib.figure.Figure` (no pyplot state) sized for a paper's column (3.3 in);
:func:`prspace.core.output.write_figure` writes it.
"""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd
from matplotlib.colors import BoundaryNorm, ListedColormap
from matplotlib.figure import Figure

from prspace.figures.style import COLUMN_WIDTH, FONT, RC, TITLE_WIDTH, style

#: Characters per line of a legend entry under a column-width figure (8 pt, after the marker).
LEGEND_WIDTH = 50

__all__ = ["COLUMN_WIDTH", "RC", "count_matrix", "log2_bins", "metric_scatter", "rank_heatmap"]


def log2_bins(max_count: int) -> list[int]:
    """Bin edges 0, 1, 2, 4, 8, ... covering ``max_count`` (bins [0,1), [1,2), [2,4), ...)."""
    edges = [0, 1]
    while edges[-1] <= max_count:
        edges.append(edges[-1] * 2)
    return edges


def _bin_label(lo: int, hi: int) -> str:
    return str(lo) if hi - lo == 1 else f"{lo}-{hi - 1}"


def count_matrix(counts: pd.DataFrame) -> np.ndarray:
    """The long table ``rank_x, rank_y, models`` as the matrix ``C[rank_y - 1, rank_x - 1]``."""
    size = int(max(counts["rank_x"].max(), counts["rank_y"].max())) if len(counts) else 1
    out = np.zeros((size, size), dtype=int)
    if len(counts):
        out[counts["rank_y"].to_numpy(int) - 1, counts["rank_x"].to_numpy(int) - 1] = counts["models"].to_numpy(int)
    return out


def rank_heatmap(counts: pd.DataFrame, *, xlabel: str, ylabel: str, heading: str, title: str = "") -> Figure:
    """Figure 4 (left): model counts by (rank by x, rank by y), log2-binned, from the long table
    ``rank_x, rank_y, models``; ``title`` (the shares of tasks the two metrics differ on, beside the
    paper's) above it and ``heading`` (what was counted, what left out) below it."""
    counts = count_matrix(counts)
    edges = log2_bins(int(counts.max()))
    n_bins = len(edges) - 1
    base = ["white"] + [c for c in _blues(n_bins - 1)]
    cmap = ListedColormap(base)
    norm = BoundaryNorm(edges, cmap.N)
    with style():
        fig = Figure(figsize=(COLUMN_WIDTH, 3.6), layout="constrained")
        ax = fig.add_subplot()
        size = counts.shape[0]
        im = ax.imshow(counts, origin="lower", cmap=cmap, norm=norm, extent=(0.5, size + 0.5, 0.5, size + 0.5),
                       interpolation="nearest")
        ax.plot([0.5, size + 0.5], [0.5, size + 0.5], color="0.6", lw=0.5, ls=":")
        ax.set_xlabel(f"rank by {xlabel} (1 = best)")
        ax.set_ylabel(f"rank by {ylabel} (1 = best)")
        ticks = list(range(1, size + 1)) if size <= 10 else [1] + list(range(5, size + 1, 5))
        ax.set_xticks(ticks)
        ax.set_yticks(ticks)
        if title:
            fig.suptitle(textwrap.fill(title, TITLE_WIDTH), fontsize=FONT)
        fig.supxlabel(textwrap.fill(heading, TITLE_WIDTH), color="0.3", fontsize=FONT)
        cb = fig.colorbar(im, ax=ax, shrink=0.9, pad=0.02)
        mids = [(lo + hi) / 2 for lo, hi in zip(edges[:-1], edges[1:], strict=True)]
        cb.set_ticks(mids)
        cb.set_ticklabels([_bin_label(lo, hi) for lo, hi in zip(edges[:-1], edges[1:], strict=True)])
        cb.ax.tick_params(length=0)
        cb.set_label("models (count)")
    return fig


def _blues(n: int) -> list:
    from matplotlib import colormaps

    cmap = colormaps["viridis_r"]
    return [cmap(x) for x in np.linspace(0.05, 1.0, max(n, 1))][:n]


def metric_scatter(points: pd.DataFrame, *, xlabel: str, ylabel: str, note: str = "") -> Figure:
    """Figure 4 (right): y against x for every model of the table ``task_id, label, model_id, x, y,
    highlight`` (tasks in order of appearance, each with its legend ``label``).

    Models with ``highlight`` > 0 are circled, in that order (the Figure 5 pair).  As in the paper, models with
    ``y < 0`` (worse than the always-positive baseline in PRG space) fall outside the axes; the
    legend counts them.  ``note`` is printed under the legend (e.g. our quartiles beside the
    paper's).
    """
    markers = ["o", "^", "s", "D"]
    tasks = list(dict.fromkeys(points["task_id"]))
    with style():
        fig = Figure(figsize=(COLUMN_WIDTH, 3.7), layout="constrained")
        ax = fig.add_subplot()
        for i, task in enumerate(tasks):
            sub = points[points["task_id"] == task]
            x = sub["x"].to_numpy(np.float64)
            y = sub["y"].to_numpy(np.float64)
            hidden = int((y < 0).sum())
            lab = textwrap.fill(str(sub["label"].iloc[0]) + (f" ({hidden} with {ylabel} < 0 not shown)" if hidden else ""), LEGEND_WIDTH)
            ax.scatter(x[y >= 0], y[y >= 0], marker=markers[i % 4], s=12, facecolors="none",
                       edgecolors=f"C{i}", linewidths=0.8, label=lab)
            for _, hit in sub[sub["highlight"] > 0].sort_values("highlight", kind="stable").iterrows():
                ax.scatter(hit[["x"]].astype(float), hit[["y"]].astype(float), s=70, facecolors="none", edgecolors="k",
                           linewidths=0.8, zorder=3)
        if (points["highlight"] > 0).any():  # only when a circled model is on this plot
            ax.scatter([], [], s=70, facecolors="none", edgecolors="k", linewidths=0.8, label="models of Figure 5")
        ax.plot([0, 1], [0, 1], color="0.7", lw=0.5, ls=":")
        ax.set_xlim(0, 1.01)
        ax.set_ylim(0, 1.01)
        ax.set_aspect("equal")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.25, lw=0.4)
        if note:
            ax.plot([], [], ls="none", label=textwrap.fill(note, LEGEND_WIDTH))
        fig.legend(loc="outside lower center", frameon=False, handletextpad=0.3, ncols=1)
        fig.suptitle(f"{ylabel} against {xlabel}, every model of {len(tasks)} task{'s' if len(tasks) != 1 else ''}",
                     fontsize=FONT)
    return fig
