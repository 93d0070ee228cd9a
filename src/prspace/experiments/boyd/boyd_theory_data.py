"""The tables the theory figures are drawn from (``prspace boyd theory-data``, ``prspace boyd pr-prg``).

Boyd, Santos Costa, Davis and Page (ICML 2012), exact curves from :mod:`prspace.metrics`:

* ``boyd_fig1_min_pr_curve`` and ``boyd_fig2_min_pr_curves``: the minimum PR curve (Theorem 1,
  equality case) at one skew and at several, ``pi, recall, precision, aupr_min``;
* ``boyd_fig3_aucpr_min``: AUCPR_MIN against pi (Theorem 2, Corollary 4) for recall in [a, b],
  ``recall_from, recall_to, pi, aupr_min, share`` (``share``: the area divided by its maximum b - a);
* ``boyd_fig4_f1_contours``: the minimum PR curve at pi = 0.33, the F1 = 0.45 isometric and the
  points A, B, C of equal F1, ``series, x, y`` (series ``min_pr``, ``isometric``, ``A``, ``B``, ``C``).

Flach and Kull (NIPS 2015), Figure 2 on a real model's scores (:func:`pr_prg_tables`): the curve
points and areas (:func:`prspace.experiments.fk.curve_points.points_table`), the PRG convex hull and
the F1 isometrics in PR space with their images in PRG space.

:mod:`prspace.figures.theory` lays these tables out; it computes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace import metrics
from prspace.core import registry as R
from prspace.experiments.fk.curve_points import Curve, points_table

#: F1 isometrics drawn in Boyd Figure 4 (contours) and Flach and Kull Figure 2.
F1_LEVELS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
#: Recall grid of the minimum PR curves of Boyd Figures 1, 2 and 4.
RECALL_GRID = np.linspace(0, 1, 501)


def min_precision(pi: float, recall: np.ndarray) -> np.ndarray:
    """Precision of the minimum PR curve (Boyd Eq. 1, equality case), from prspace.metrics."""
    return np.asarray(metrics.min_pr_curve(pi, recall).precision, dtype=np.float64)


def min_pr_curves(pis: Sequence[float]) -> pd.DataFrame:
    """The minimum PR curve at each skew in ``pis`` on :data:`RECALL_GRID`, with its area:
    ``pi, recall, precision, aupr_min`` (Boyd Figures 1 and 2)."""
    parts = [pd.DataFrame({"pi": float(pi), "recall": RECALL_GRID, "precision": min_precision(pi, RECALL_GRID),
                           "aupr_min": float(metrics.aupr_min(pi))}) for pi in pis]
    return pd.concat(parts, ignore_index=True)


def aupr_min_vs_pi(recall_ranges: Sequence[tuple[float, float]] = ((0.0, 1.0), (0.5, 1.0), (0.8, 1.0)), *,
                   pi_min: float = 0.005) -> pd.DataFrame:
    """Boyd Figure 3: AUCPR_MIN over recall in [a, b] against pi (400 log-spaced skews from
    ``pi_min`` to 0.999); ``share`` is the area divided by its maximum ``b - a``."""
    pi = np.geomspace(pi_min, 0.999, 400)
    parts = []
    for a, b in recall_ranges:
        area = np.asarray(metrics.aupr_min(pi, recall_range=(a, b)), dtype=np.float64)
        parts.append(pd.DataFrame({"recall_from": float(a), "recall_to": float(b), "pi": pi, "aupr_min": area,
                                   "share": area / (b - a)}))
    return pd.concat(parts, ignore_index=True)


def f1_example_points(pi: float = 0.33, f1: float = 0.45) -> dict[str, tuple[float, float]]:
    """Three PR points of equal F1 as in Boyd et al. Figure 4 (recall, precision).

    A is unachievable at skew ``pi`` (below the minimum PR curve), B is achievable but just above
    the minimum PR curve, C has good precision at modest recall. The F1 isometric
    ``p = f1 r / (2 r - f1)`` crosses the minimum PR curve at recall ``r*``; A lies right of it,
    B just left of it.
    """
    from scipy.optimize import brentq  # lazy: ~0.5 CPU s a process that never calls it
    def precision_on_isometric(r: float) -> float:
        return f1 * r / (2 * r - f1)

    def gap(r: float) -> float:
        return precision_on_isometric(r) - float(min_precision(pi, np.array([r]))[0])

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


def f1_contours_table(pi: float = 0.33, f1: float = 0.45) -> pd.DataFrame:
    """Boyd Figure 4: ``series, x, y`` -- the minimum PR curve at ``pi`` (``min_pr``), the F1 =
    ``f1`` isometric (``isometric``) and the points A, B, C (:func:`f1_example_points`)."""
    rr = np.linspace(f1 / 2 + 1e-3, 1, 300)
    parts = [pd.DataFrame({"series": "min_pr", "x": RECALL_GRID, "y": min_precision(pi, RECALL_GRID)}),
             pd.DataFrame({"series": "isometric", "x": rr, "y": f1 * rr / (2 * rr - f1)})]
    parts += [pd.DataFrame({"series": [name], "x": [r], "y": [p]}) for name, (r, p) in f1_example_points(pi, f1).items()]
    out = pd.concat(parts, ignore_index=True)
    out.insert(1, "pi", float(pi))
    out.insert(2, "f1", float(f1))
    return out


def theory_tables() -> dict[str, pd.DataFrame]:
    """The table of each of Boyd's Figures 1-4 (:data:`prspace.core.registry.BOYD_THEORY_FIGURES`),
    by name: each figure is drawn from the figure-data table of its own name."""
    return {
        R.BOYD_FIG1_MIN_PR_CURVE.name: min_pr_curves([1 / 3]),
        R.BOYD_FIG2_MIN_PR_CURVES.name: min_pr_curves((0.05, 0.1, 0.2, 1 / 3, 0.5, 0.7, 0.9)),
        R.BOYD_FIG3_AUCPR_MIN.name: aupr_min_vs_pi(),
        R.BOYD_FIG4_F1_CONTOURS.name: f1_contours_table(0.33, 0.45),
    }


# --- Flach and Kull Figure 2 ------------------------------------------------------------------------


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


def label_point(f1: float, pi: float) -> tuple[float, float]:
    """Where to write an isometric's F1 value in PRG space: its midpoint inside the unit square."""
    t = 2 * (f1 - pi) / ((1 - pi) * f1)  # precG + recG = t
    lo, hi = max(0.0, t - 1), min(1.0, t)
    x = (lo + hi) / 2
    return x, t - x


def isometrics_table(pi: float) -> pd.DataFrame:
    """``kind, f1, baseline, x, y``: each F1 isometric of :data:`F1_LEVELS` in PR space (``pr``), its
    image in PRG space (``prg``, only for F1 > ``pi``: the others have no image in the unit square)
    and the place of its label there (``prg_label``, one row); then the isometric of the
    always-positive classifier, F1 = 2 pi / (1 + pi), in both spaces (``baseline`` True)."""
    parts = []

    def add(kind: str, f1: float, xy: tuple, baseline: bool = False) -> None:
        x, y = (np.atleast_1d(np.asarray(v, dtype=np.float64)) for v in xy)
        parts.append(pd.DataFrame({"kind": kind, "f1": f1, "baseline": baseline, "x": x, "y": y}))

    for lev in F1_LEVELS:
        add("pr", lev, f1_isometric_pr(lev))
        if lev > pi:
            add("prg", lev, f1_isometric_prg(lev, pi))
            add("prg_label", lev, label_point(lev, pi))
    f1_base = 2 * pi / (1 + pi)
    add("pr", f1_base, f1_isometric_pr(f1_base), True)
    add("prg", f1_base, f1_isometric_prg(f1_base, pi), True)
    return pd.concat(parts, ignore_index=True)


def pr_prg_tables(y_true: np.ndarray, y_score: np.ndarray, *, source: str) -> dict[str, pd.DataFrame]:
    """The tables of Flach and Kull Figure 2 on real scores, by file stem: ``boyd_fig_pr_prg_points``
    and ``boyd_fig_pr_prg_areas`` (:func:`~prspace.experiments.fk.curve_points.points_table` of the one
    model), ``boyd_fig_pr_prg_hull`` (the PRG convex hull, ``recall_gain, precision_gain``),
    ``boyd_fig_pr_prg_isometrics`` (:func:`isometrics_table`) and ``boyd_fig_pr_prg_text`` (its
    title, ``figure, field, text``)."""
    y_true = np.asarray(y_true, dtype=bool)
    y_score = np.asarray(y_score, dtype=np.float64)
    pi = float(y_true.mean())
    points, areas = points_table([Curve("model", y_true, y_score)])
    hull = metrics.prg_convex_hull(y_true, y_score)
    title = f"After Flach and Kull 2015, Figure 2, on real scores (pi = {pi:.3f}, n = {y_true.size})\n{source}"
    return {
        R.BOYD_FIG_PR_PRG_POINTS.name: points,
        R.BOYD_FIG_PR_PRG_AREAS.name: areas,
        R.BOYD_FIG_PR_PRG_HULL.name: pd.DataFrame({"recall_gain": np.asarray(hull.recall_gain, dtype=np.float64),
                                                   "precision_gain": np.asarray(hull.precision_gain, dtype=np.float64)}),
        R.BOYD_FIG_PR_PRG_ISOMETRICS.name: isometrics_table(pi),
        R.BOYD_FIG_PR_PRG_TEXT.name: pd.DataFrame([(R.FIGURE_BOYD_FIG_PR_PRG.name, "title", title)],
                                                  columns=["figure", "field", "text"]),
    }
