"""Theory figures: exact curves of PR space, drawn from :mod:`prspace.metrics`.

Boyd, Santos Costa, Davis and Page (ICML 2012):

* Figure 1 -- the minimum PR curve (Theorem 1, equality case) and random guessing at pi = 1/3;
* Figure 2 -- minimum PR curves for several skews;
* Figure 3 -- AUCPR_MIN against pi (Theorem 2, Corollary 4) for recall in [0,1], [0.5,1], [0.8,1];
* Figure 4 -- F1 contours with the unachievable region at pi = 0.33 and three points of F1 = 0.45.

Flach and Kull (NIPS 2015), Figure 2 -- a PR curve with F1 isometrics and the always-positive
baseline beside its PRG curve with the images of the same isometrics and the convex hull, drawn for a real
model's scores (the caller supplies them and a label naming their source).

Every function returns a :class:`matplotlib.figure.Figure` (no pyplot state); the CLI saves it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure
from scipy.optimize import brentq

from prspace import metrics

F1_LEVELS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def _pr_axes(ax, title: str) -> None:
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("Recall")
    ax.set_ylabel("Precision")
    ax.set_title(title, fontsize=11)
    ax.set_aspect("equal")
    ax.grid(alpha=0.25)


def _min_precision(pi: float, recall: np.ndarray) -> np.ndarray:
    """Precision of the minimum PR curve (Boyd Eq. 1, equality case), from prspace.metrics."""
    return np.asarray(metrics.min_pr_curve(pi, recall).precision, dtype=np.float64)


def figure_min_pr_curve(pi: float = 1 / 3) -> Figure:
    """Boyd et al. Figure 1: minimum PR curve and the random-guessing line at skew ``pi``."""
    r = np.linspace(0, 1, 501)
    fig = Figure(figsize=(5.2, 5.0), layout="constrained")
    ax = fig.add_subplot()
    p_min = _min_precision(pi, r)
    ax.fill_between(r, 0, p_min, color="0.85", label="unachievable region")
    ax.plot(r, p_min, color="C3", lw=2, label=f"minimum PR curve (area {float(metrics.aupr_min(pi)):.3f})")
    ax.plot([0, 1], [pi, pi], color="C0", lw=2, ls="--", label=f"random guessing (precision = pi = {pi:.3f})")
    _pr_axes(ax, f"Boyd et al. 2012, Figure 1: pi = {pi:.3g} (1 positive : {(1 - pi) / pi:.3g} negatives)")
    ax.legend(loc="upper right", fontsize=9)
    return fig


def figure_min_pr_curves(pis: Sequence[float] = (0.05, 0.1, 0.2, 1 / 3, 0.5, 0.7, 0.9)) -> Figure:
    """Boyd et al. Figure 2: minimum PR curves for several skews."""
    r = np.linspace(0, 1, 501)
    fig = Figure(figsize=(5.2, 6.4), layout="constrained")
    ax = fig.add_subplot()
    colors = [f"C{i % 10}" for i in range(len(pis))]
    for pi, c in zip(pis, colors, strict=True):
        ax.plot(r, _min_precision(pi, r), color=c, lw=1.8, label=f"pi = {pi:.3g}  (AUCPR_MIN = {float(metrics.aupr_min(pi)):.3f})")
    _pr_axes(ax, "Boyd et al. 2012, Figure 2: minimum PR curves")
    # below the axes: inside, any place covers part of a curve (pi = 0.9 runs along the top)
    fig.legend(loc="outside lower center", ncol=2, fontsize=8)
    return fig


def figure_aupr_min_vs_pi(
    recall_ranges: Sequence[tuple[float, float]] = ((0.0, 1.0), (0.5, 1.0), (0.8, 1.0)),
    *,
    pi_min: float = 0.005,
) -> Figure:
    """Boyd et al. Figure 3: AUCPR_MIN against pi (log axis), Theorem 2 and Corollary 4.

    Solid lines: the area of the unachievable region over recall in [a, b]; dashed lines: that area
    divided by its maximum ``b - a`` (the share of the restricted PR space that comes for free).
    """
    pi = np.geomspace(pi_min, 0.999, 400)
    fig = Figure(figsize=(6.0, 4.6), layout="constrained")
    ax = fig.add_subplot()
    for i, (a, b) in enumerate(recall_ranges):
        area = np.asarray(metrics.aupr_min(pi, recall_range=(a, b)), dtype=np.float64)
        ax.plot(pi, area, color=f"C{i}", lw=2, label=f"recall in [{a:g}, {b:g}]")
        if (a, b) != (0.0, 1.0):
            ax.plot(pi, area / (b - a), color=f"C{i}", lw=1, ls="--", label=f"recall in [{a:g}, {b:g}], divided by {b - a:g}")
    ax.set_xscale("log")
    ax.set_xlim(pi_min, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("pi (proportion of positives), log scale")
    ax.set_ylabel("AUCPR_MIN")
    ax.set_title("Boyd et al. 2012, Figure 3: minimum AUCPR against skew", fontsize=11)
    ax.grid(alpha=0.25, which="both")
    ax.legend(loc="upper left", fontsize=9)
    return fig


def f1_example_points(pi: float = 0.33, f1: float = 0.45) -> dict[str, tuple[float, float]]:
    """Three PR points of equal F1 as in Boyd et al. Figure 4 (recall, precision).

    A is unachievable at skew ``pi`` (below the minimum PR curve), B is achievable but just above
    the minimum PR curve, C has good precision at modest recall. The F1 isometric
    ``p = f1 r / (2 r - f1)`` crosses the minimum PR curve at recall ``r*``; A lies right of it,
    B just left of it.
    """
    def precision_on_isometric(r: float) -> float:
        return f1 * r / (2 * r - f1)

    def gap(r: float) -> float:
        return precision_on_isometric(r) - float(_min_precision(pi, np.array([r]))[0])

    lo = f1 / 2 + 1e-9  # the isometric starts at (f1/2, 1)
    if gap(1.0) >= 0:
        raise ValueError(f"the F1 = {f1} isometric never enters the unachievable region at pi = {pi}")
    r_star = brentq(gap, lo, 1.0)
    r_a = r_star + 0.6 * (1 - r_star)
    r_b = r_star - 0.03
    r_c = f1 / 2 + 0.075
    return {
        "A": (r_a, precision_on_isometric(r_a)),
        "B": (r_b, precision_on_isometric(r_b)),
        "C": (r_c, precision_on_isometric(r_c)),
    }


def figure_f1_contours(pi: float = 0.33, f1: float = 0.45) -> Figure:
    """Boyd et al. Figure 4: F1 contours, the unachievable region at ``pi`` and points A, B, C."""
    g = np.linspace(1e-3, 1, 400)
    rr, pp = np.meshgrid(g, g)
    f = 2 * pp * rr / (pp + rr)  # F1 = harmonic mean of precision and recall (Boyd section 4.4)
    fig = Figure(figsize=(5.4, 6.0), layout="constrained")
    ax = fig.add_subplot()
    cs = ax.contour(rr, pp, f, levels=F1_LEVELS, colors="0.45", linewidths=0.8)
    ax.clabel(cs, fmt="%.1f", fontsize=8)
    r = np.linspace(0, 1, 501)
    p_min = _min_precision(pi, r)
    ax.fill_between(r, 0, p_min, color="C3", alpha=0.18, label=f"unachievable region, pi = {pi:g}")
    ax.plot(r, p_min, color="C3", lw=2, label="minimum PR curve")
    ax.plot([], [], color="0.45", lw=0.8, label="F1 contours")
    rr_iso = np.linspace(f1 / 2 + 1e-3, 1, 300)
    ax.plot(rr_iso, f1 * rr_iso / (2 * rr_iso - f1), color="k", lw=1.6, ls="--", label=f"F1 = {f1:g}")
    offsets = {"A": (0, -18), "B": (-2, 8), "C": (8, 2)}
    for name, (rx, px) in f1_example_points(pi, f1).items():
        ax.plot(rx, px, "o", color="k", ms=6)
        ax.annotate(name, (rx, px), xytext=offsets[name], textcoords="offset points", fontsize=12, weight="bold",
                    ha="center" if name != "C" else "left")
    _pr_axes(ax, f"Boyd et al. 2012, Figure 4: F1 contours, pi = {pi:g}")
    fig.legend(loc="outside lower center", ncol=2, fontsize=8.5)
    return fig


def f1_isometric_pr(f1: float, n: int = 300) -> tuple[np.ndarray, np.ndarray]:
    """The F1 = ``f1`` isometric in PR space: precision = f1 r / (2 r - f1) for r in (f1/2, 1]."""
    r = np.linspace(f1 / 2 + 1e-4, 1, n)
    return r, f1 * r / (2 * r - f1)


def f1_isometric_prg(f1: float, pi: float, n: int = 300) -> tuple[np.ndarray, np.ndarray]:
    """The image in PRG space of the PR isometric F1 = ``f1`` at skew ``pi``.

    Each PR point is mapped by precG = (p - pi) / ((1 - pi) p), recG = (r - pi) / ((1 - pi) r)
    (Flach & Kull Definition 1); by their Theorem 2 the image is the straight line
    precG + recG = 2 FG1 with FG1 = (f1 - pi) / ((1 - pi) f1), which is how the two panels of
    their Figure 2 correspond.  Returns (recall gain, precision gain).
    """
    r, p = f1_isometric_pr(f1, n)
    return (r - pi) / ((1 - pi) * r), (p - pi) / ((1 - pi) * p)


def figure_pr_prg(y_true: np.ndarray, y_score: np.ndarray, *, source: str) -> Figure:
    """Flach and Kull Figure 2 for real scores: PR curve beside PRG curve, the same isometrics in both.

    Left: the PR curve (hyperbolic interpolation and its points) with the F1 isometrics
    F1 = 0.1 ... 0.9 (dotted) and the F1 isometric of the always-positive classifier (solid),
    the PR baseline.  Right: the PRG curve with the images of the same isometrics under the
    gain transform (:func:`f1_isometric_prg`: straight lines of slope -1), the always-positive
    isometric becoming the minor diagonal, and the convex hull (Pareto front).  Isometrics with
    F1 <= pi have no image in the unit square (their FG1 <= 0); the legend says which.
    Curves are drawn by :func:`prspace.experiments.curve_points.plot_curves`.
    """
    from prspace.experiments.curve_points import Curve, plot_curves

    y_true = np.asarray(y_true, dtype=bool)
    pi = float(y_true.mean())
    hull = metrics.prg_convex_hull(y_true, y_score)

    fig = Figure(figsize=(10.5, 7.0), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    for lev in F1_LEVELS:
        ax1.plot(*f1_isometric_pr(lev), color="0.6", lw=0.8, ls=":")
        if lev > pi:
            ax2.plot(*f1_isometric_prg(lev, pi), color="0.6", lw=0.8, ls=":")
            ax2.annotate(f"{lev:g}", xy=_label_point(lev, pi), fontsize=7, color="0.4", ha="center", va="center")
        ax1.annotate(f"{lev:g}", xy=(1.0, lev / (2 - lev)), xytext=(2, 0), textcoords="offset points",
                     fontsize=7, color="0.4", va="center")
    f1_base = 2 * pi / (1 + pi)
    ax1.plot(*f1_isometric_pr(f1_base), color="k", lw=1.4, label=f"always-positive baseline (F1 = {f1_base:.3f})")
    ax2.plot(*f1_isometric_prg(f1_base, pi), color="k", lw=1.4,
             label=f"image of the baseline isometric F1 = {f1_base:.3f}: the minor diagonal")
    hidden = [f"{lev:g}" for lev in F1_LEVELS if lev <= pi]
    ax1.plot([], [], color="0.6", lw=0.8, ls=":", label="F1 isometrics 0.1 ... 0.9")
    ax2.plot([], [], color="0.6", lw=0.8, ls=":", label="images of the same F1 isometrics (labelled by F1)"
             + (f"; F1 = {', '.join(hidden)} <= pi lie outside" if hidden else ""))
    y_score = np.asarray(y_score, dtype=np.float64)
    aupr, auprg = float(metrics.aupr(y_true, y_score)), float(metrics.auprg(y_true, y_score))
    pr_style = {"color": "C0", "lw": 1.2, "label": f"PR curve, hyperbolic interpolation (AUPR = {aupr:.3f})"}
    prg_style = {"color": "C0", "lw": 1.2, "label": f"PRG curve (AUPRG = {auprg:.3f})"}
    plot_curves(None, ax1, None, [Curve("model", y_true, y_score, pr_style)], pr_ylim=(0, 1.02), points=True)
    plot_curves(None, None, ax2, [Curve("model", y_true, y_score, prg_style)], prg_ylim=(0, 1.02), points=True)
    for line in ax2.get_lines():  # the drawer's baseline is the black image of the baseline isometric here
        if line.get_label().startswith("always-positive baseline"):
            line.set_label("_" + line.get_label())
    hx, hy = _clip_left(np.asarray(hull.recall_gain), np.asarray(hull.precision_gain))
    ax2.plot(hx, hy, color="C3", lw=1.6, ls="--", label="convex hull (Pareto front)")
    inside = (hull.recall_gain >= 0) & (hull.precision_gain >= 0)
    ax2.plot(hull.recall_gain[inside], hull.precision_gain[inside], "D", color="C3", ms=4)
    for ax, title in ((ax1, "PR curve with F1 isometrics"), (ax2, "PRG curve with the same F1 isometrics and convex hull")):
        ax.set_aspect("equal")
        ax.set_title(title, fontsize=11)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), fontsize=8.5, frameon=False)
    ax1.set_xlabel("Recall")
    ax1.set_ylabel("Precision")
    ax2.set_xlabel("Recall Gain")
    ax2.set_ylabel("Precision Gain")
    fig.suptitle(f"After Flach and Kull 2015, Figure 2, on real scores (pi = {pi:.3f}, n = {y_true.size})\n{source}",
                 fontsize=10)
    return fig


def _label_point(f1: float, pi: float) -> tuple[float, float]:
    """Where to write an isometric's F1 value in PRG space: its midpoint inside the unit square."""
    t = 2 * (f1 - pi) / ((1 - pi) * f1)  # precG + recG = t
    lo, hi = max(0.0, t - 1), min(1.0, t)
    x = (lo + hi) / 2
    return x, t - x


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
