"""Theory figures laid out from the tables of :mod:`prspace.experiments.boyd.boyd_theory_data` (no statistics here).

Boyd, Santos Costa, Davis and Page (ICML 2012):

* Figure 1 -- the minimum PR curve (Theorem 1, equality case) and random guessing at pi = 1/3;
* Figure 2 -- minimum PR curves for several skews;
* Figure 3 -- AUCPR_MIN against pi (Theorem 2, Corollary 4) for recall in [0,1], [0.5,1], [0.8,1];
* Figure 4 -- F1 contours with the unachievable region at pi = 0.33 and three points of F1 = 0.45.

Flach and Kull (NIPS 2015), Figure 2 -- a PR curve with F1 isometrics and the always-positive
baseline beside its PRG curve with the images of the same isometrics and the convex hull, drawn for a real
model's scores (:func:`prspace.experiments.boyd.boyd_theory_data.pr_prg_tables` computes what it draws).

Every function returns a :class:`matplotlib.figure.Figure` (no pyplot state); ``prspace figure`` saves
it.  The one formula left here is the F1 grid under Figure 4's contour lines (F1 = 2 p r / (p + r),
the definition of the lines drawn, like a diagonal): reference geometry, not a statistic.
"""

from __future__ import annotations

import dataclasses
import textwrap

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from prspace.figures.curves import draw_curves, from_table

#: The F1 contour levels of Figure 4.
F1_LEVELS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def _pr_axes(ax, title: str) -> None:
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("Recall")
    ax.set_ylabel("Precision")
    ax.set_title(title, fontsize=11)
    ax.set_aspect("equal")
    ax.grid(alpha=0.25)


def _curves(table: pd.DataFrame):
    """``(pi, recall, precision, aupr_min)`` of each minimum PR curve of a ``min_pr_curves`` table, in order."""
    for pi in pd.unique(table["pi"]):
        sub = table[table["pi"] == pi]
        yield (float(pi), sub["recall"].to_numpy(np.float64), sub["precision"].to_numpy(np.float64),
               float(sub["aupr_min"].iloc[0]))


def figure_min_pr_curve(table: pd.DataFrame) -> Figure:
    """Boyd et al. Figure 1: minimum PR curve and the random-guessing line (table: ``boyd_fig1_min_pr_curve``)."""
    pi, r, p_min, area = next(_curves(table))
    fig = Figure(figsize=(5.2, 5.0), layout="constrained")
    ax = fig.add_subplot()
    ax.fill_between(r, 0, p_min, color="0.85", label="unachievable region")
    ax.plot(r, p_min, color="C3", lw=2, label=f"minimum PR curve (area {area:.3f})")
    ax.plot([0, 1], [pi, pi], color="C0", lw=2, ls="--", label=f"random guessing (precision = pi = {pi:.3f})")
    _pr_axes(ax, f"Boyd et al. 2012, Figure 1: pi = {pi:.3g} (1 positive : {(1 - pi) / pi:.3g} negatives)")
    ax.legend(loc="upper right", fontsize=9)
    return fig


def figure_min_pr_curves(table: pd.DataFrame) -> Figure:
    """Boyd et al. Figure 2: minimum PR curves for several skews (table: ``boyd_fig2_min_pr_curves``)."""
    fig = Figure(figsize=(5.2, 6.4), layout="constrained")
    ax = fig.add_subplot()
    for i, (pi, r, p_min, area) in enumerate(_curves(table)):
        ax.plot(r, p_min, color=f"C{i % 10}", lw=1.8, label=f"pi = {pi:.3g}  (AUCPR_MIN = {area:.3f})")
    _pr_axes(ax, "Boyd et al. 2012, Figure 2: minimum PR curves")
    # below the axes: inside, any place covers part of a curve (pi = 0.9 runs along the top)
    fig.legend(loc="outside lower center", ncol=2, fontsize=8)
    return fig


def figure_aupr_min_vs_pi(table: pd.DataFrame) -> Figure:
    """Boyd et al. Figure 3: AUCPR_MIN against pi (log axis), Theorem 2 and Corollary 4 (table:
    ``boyd_fig3_aucpr_min``).

    Solid lines: the area of the unachievable region over recall in [a, b]; dashed lines: that area
    divided by its maximum ``b - a`` (the share of the restricted PR space that comes for free).
    """
    fig = Figure(figsize=(6.0, 4.6), layout="constrained")
    ax = fig.add_subplot()
    ranges = table[["recall_from", "recall_to"]].drop_duplicates().itertuples(index=False)
    for i, (a, b) in enumerate(ranges):
        sub = table[(table["recall_from"] == a) & (table["recall_to"] == b)]
        pi = sub["pi"].to_numpy(np.float64)
        ax.plot(pi, sub["aupr_min"].to_numpy(np.float64), color=f"C{i}", lw=2, label=f"recall in [{a:g}, {b:g}]")
        if (a, b) != (0.0, 1.0):
            ax.plot(pi, sub["share"].to_numpy(np.float64), color=f"C{i}", lw=1, ls="--",
                    label=f"recall in [{a:g}, {b:g}], divided by {b - a:g}")
    ax.set_xscale("log")
    ax.set_xlim(float(table["pi"].min()), 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("pi (proportion of positives), log scale")
    ax.set_ylabel("AUCPR_MIN")
    ax.set_title("Boyd et al. 2012, Figure 3: minimum AUCPR against skew", fontsize=11)
    ax.grid(alpha=0.25, which="both")
    ax.legend(loc="upper left", fontsize=9)
    return fig


def figure_f1_contours(table: pd.DataFrame) -> Figure:
    """Boyd et al. Figure 4: F1 contours, the unachievable region and points A, B, C (table:
    ``boyd_fig4_f1_contours``)."""
    pi, f1 = float(table["pi"].iloc[0]), float(table["f1"].iloc[0])

    def series(name: str) -> tuple[np.ndarray, np.ndarray]:
        sub = table[table["series"] == name]
        return sub["x"].to_numpy(np.float64), sub["y"].to_numpy(np.float64)

    g = np.linspace(1e-3, 1, 400)
    rr, pp = np.meshgrid(g, g)
    f = 2 * pp * rr / (pp + rr)  # the contour lines' grid: F1 = harmonic mean of precision and recall
    fig = Figure(figsize=(5.4, 6.0), layout="constrained")
    ax = fig.add_subplot()
    cs = ax.contour(rr, pp, f, levels=F1_LEVELS, colors="0.45", linewidths=0.8)
    ax.clabel(cs, fmt="%.1f", fontsize=8)
    r, p_min = series("min_pr")
    ax.fill_between(r, 0, p_min, color="C3", alpha=0.18, label=f"unachievable region, pi = {pi:g}")
    ax.plot(r, p_min, color="C3", lw=2, label="minimum PR curve")
    ax.plot([], [], color="0.45", lw=0.8, label="F1 contours")
    ax.plot(*series("isometric"), color="k", lw=1.6, ls="--", label=f"F1 = {f1:g}")
    offsets = {"A": (0, -18), "B": (-2, 8), "C": (8, 2)}
    for name in ("A", "B", "C"):
        (rx,), (px,) = series(name)
        ax.plot(rx, px, "o", color="k", ms=6)
        ax.annotate(name, (rx, px), xytext=offsets[name], textcoords="offset points", fontsize=12, weight="bold",
                    ha="center" if name != "C" else "left")
    _pr_axes(ax, f"Boyd et al. 2012, Figure 4: F1 contours, pi = {pi:g}")
    fig.legend(loc="outside lower center", ncol=2, fontsize=8.5)
    return fig


def figure_pr_prg(points: pd.DataFrame, areas: pd.DataFrame, hull: pd.DataFrame, isometrics: pd.DataFrame, *,
                  title: str) -> Figure:
    """Flach and Kull Figure 2 for real scores: PR curve beside PRG curve, the same isometrics in both.

    Tables of :func:`prspace.experiments.boyd.boyd_theory_data.pr_prg_tables`.  Left: the PR curve
    (hyperbolic interpolation and its points) with the F1 isometrics F1 = 0.1 ... 0.9 (dotted)
    and the F1 isometric of the always-positive classifier (solid), the PR baseline.  Right: the
    PRG curve with the images of the same isometrics under the gain transform (straight lines of
    slope -1), the always-positive isometric becoming the minor diagonal, and the convex hull
    (Pareto front).  Isometrics with F1 <= pi have no image in the unit square (their FG1 <= 0);
    the legend says which.  Curves are drawn by :func:`prspace.figures.curves.draw_curves`.
    """
    (curve,), min_pr = from_table(points, areas)

    def lines(kind: str, baseline: bool):
        sub = isometrics[(isometrics["kind"] == kind) & (isometrics["baseline"] == baseline)]
        for lev in pd.unique(sub["f1"]):
            one = sub[sub["f1"] == lev]
            yield float(lev), one["x"].to_numpy(np.float64), one["y"].to_numpy(np.float64)

    with matplotlib.rc_context(FONT_RC):
        return _pr_prg(curve, min_pr, lines, hull, title)


#: Flach & Kull's Figure 2 at 7.2 in: every text 8 pt or more at that printed width.
FONT_RC = {"font.size": 8, "axes.titlesize": 9, "axes.labelsize": 8, "xtick.labelsize": 8, "ytick.labelsize": 8,
           "legend.fontsize": 8, "figure.titlesize": 9}


def _pr_prg(curve, min_pr, lines, hull: pd.DataFrame, title: str) -> Figure:
    fig = Figure(figsize=(7.2, 5.6), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    prg = {lev: (x, y) for lev, x, y in lines("prg", False)}
    labels = {lev: (float(x[0]), float(y[0])) for lev, x, y in lines("prg_label", False)}
    for lev, x, y in lines("pr", False):
        ax1.plot(x, y, color="0.6", lw=0.8, ls=":")
        if lev in prg:
            ax2.plot(*prg[lev], color="0.6", lw=0.8, ls=":")
            ax2.annotate(f"{lev:g}", xy=labels[lev], fontsize=8, color="0.4", ha="center", va="center")
        ax1.annotate(f"{lev:g}", xy=(1.0, float(y[-1])), xytext=(2, 0), textcoords="offset points",
                     fontsize=8, color="0.4", va="center")
    (f1_base, bx, by), = lines("pr", True)
    ax1.plot(bx, by, color="k", lw=1.4, label=f"always-positive baseline (F1 = {f1_base:.3f})")
    (_, gx, gy), = lines("prg", True)
    ax2.plot(gx, gy, color="k", lw=1.4, label=f"image of the baseline isometric F1 = {f1_base:.3f}: the minor diagonal")
    hidden = [f"{lev:g}" for lev, _, _ in lines("pr", False) if lev not in prg]
    ax1.plot([], [], color="0.6", lw=0.8, ls=":", label="F1 isometrics 0.1 ... 0.9")
    ax2.plot([], [], color="0.6", lw=0.8, ls=":", label="images of the same F1 isometrics (labelled by F1)"
             + (f"; F1 = {', '.join(hidden)} <= pi lie outside" if hidden else ""))
    pr_style = {"color": "C0", "lw": 1.2, "label": f"PR curve, hyperbolic interpolation (AUPR = {curve.aupr:.3f})"}
    prg_style = {"color": "C0", "lw": 1.2, "label": f"PRG curve (AUPRG = {curve.auprg:.3f})"}
    draw_curves(None, ax1, None, [dataclasses.replace(curve, style=pr_style)], min_pr, pr_ylim=(0, 1.02), points=True)
    draw_curves(None, None, ax2, [dataclasses.replace(curve, style=prg_style)], min_pr, prg_ylim=(0, 1.02), points=True)
    for line in ax2.get_lines():  # the drawer's baseline is the black image of the baseline isometric here
        if line.get_label().startswith("always-positive baseline"):
            line.set_label("_" + line.get_label())
    hrg, hpg = hull["recall_gain"].to_numpy(np.float64), hull["precision_gain"].to_numpy(np.float64)
    hx, hy = _clip_left(hrg, hpg)
    ax2.plot(hx, hy, color="C3", lw=1.6, ls="--", label="convex hull (Pareto front)")
    inside = (hrg >= 0) & (hpg >= 0)
    ax2.plot(hrg[inside], hpg[inside], "D", color="C3", ms=4)
    for ax, heading in ((ax1, "PR curve with F1 isometrics"), (ax2, "PRG curve with the same F1 isometrics and convex hull")):
        ax.set_aspect("equal")
        ax.set_title(textwrap.fill(heading, 40))
    ax1.set_xlabel("Recall")
    ax1.set_ylabel("Precision")
    ax2.set_xlabel("Recall Gain")
    ax2.set_ylabel("Precision Gain")
    h1, n1 = ax1.get_legend_handles_labels()  # one legend under both panels, each entry named by its panel
    h2, n2 = ax2.get_legend_handles_labels()
    fig.legend([*h1, *h2], [textwrap.fill(x, 46) for x in (*(f"PR: {x}" for x in n1), *(f"PRG: {x}" for x in n2))],
               loc="outside lower center", ncol=2, frameon=False)
    fig.suptitle(title.split("\n")[0])  # the source of the scores: in the caption
    return fig


def _clip_left(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The polyline (x increasing) from x = 0 on: the segment crossing x = 0 is cut there.

    The PRG hull is built over every point, negative recall gains included; the plot shows the
    unit square, so the hull enters it along the chord through x = 0, not at its first vertex
    with x >= 0.
    """
    if x.size == 0 or x[0] >= 0:
        return x, y
    j = int(np.searchsorted(x, 0.0))  # first vertex with x >= 0
    if j >= x.size:
        return x[:0], y[:0]
    t = (0.0 - x[j - 1]) / (x[j] - x[j - 1])
    y0 = y[j - 1] + t * (y[j] - y[j - 1])
    return np.r_[0.0, x[j:]], np.r_[y0, y[j:]]
