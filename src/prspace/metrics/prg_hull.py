"""The Pareto part of the upper convex hull of a PRG curve and its F-calibrated scores (Flach and Kull
2015, section 3.4, Theorem 4)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from prspace.metrics._kernel import _binary_curve
from prspace.metrics.prg import _gains

__all__ = ["PRGHull", "prg_convex_hull"]


class PRGHull(NamedTuple):
    """Pareto part of the upper convex hull of a PRG curve (Flach and Kull section 3.4).

    ``recall_gain``/``precision_gain``/``thresholds`` are the hull vertices from the one with
    the highest precision gain (the rightmost, if several) to the highest one at recall gain 1.
    ``f_calibrated[k]`` is the F-calibrated score of the segment between vertices k and k+1:
    d = 1 / (1 + beta^2) where -beta^2 is the segment's slope (Theorem 4); vertex k is optimal
    for F_beta with d between ``f_calibrated[k-1]`` and ``f_calibrated[k]``.

    Parameters
    ----------
    recall_gain : ndarray
        Recall gain of the hull vertices.
    precision_gain : ndarray
        Precision gain of the hull vertices.
    thresholds : ndarray
        Score of each vertex.
    f_calibrated : ndarray
        F-calibrated score of each segment, decreasing.

    See Also
    --------
    prg_convex_hull : Computes the hull.

    Examples
    --------
    >>> from prspace.metrics import PRGHull, prg_convex_hull
    >>> h = prg_convex_hull([0, 1, 1, 0], [0.2, 0.9, 0.5, 0.6])
    >>> isinstance(h, PRGHull), h.recall_gain.tolist()
    (True, [0.0, 1.0])
    """

    recall_gain: NDArray[np.float64]
    precision_gain: NDArray[np.float64]
    thresholds: NDArray[np.float64]
    f_calibrated: NDArray[np.float64]


def prg_convex_hull(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> PRGHull:
    """Pareto front of the PRG convex hull and its F-calibrated scores (Flach and Kull 3.4).

    The upper convex hull of the PRG points (thresholds with TP > 0) is built by Andrew's
    monotone chain; only the part from the highest precision gain to recall gain 1 is kept
    (every point there is F_beta-optimal for some beta). Segment slopes -beta^2 give the
    calibrated scores d = 1 / (1 + beta^2) (Theorem 4), decreasing along the hull.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels: {0, 1}, {-1, 1} or {False, True} (the greater is the positive class), or any
        two labels with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores, larger meaning more positive: only their order matters, and tied scores form one
        threshold.
    pos_label : int, float, bool or str, default=None
        The label of the positive class; None: the greater of {0, 1}, {-1, 1} or {False, True}.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite row weights (a row of weight 0 is dropped; an integer weight equals
        repeating the row); None weighs every row 1.

    Returns
    -------
    PRGHull
        The hull's vertices and the F-calibrated scores of its segments.

    Raises
    ------
    ValueError
        If the input is bad: NaN or infinite scores, lengths that differ, no rows, labels that are
        not binary, one class only, or negative or non-finite weights (the message names the
        problem).

    See Also
    --------
    prg_curve : The curve whose hull this is.

    References
    ----------
    Flach, P. and Kull, M. (2015). Precision-Recall-Gain curves: PR analysis done right. NIPS.

    Examples
    --------
    >>> from prspace.metrics import prg_convex_hull
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> h = prg_convex_hull(y, s)
    >>> h.recall_gain.tolist(), h.precision_gain.round(3).tolist(), h.f_calibrated.round(3).tolist()
    ([0.5, 1.0], [1.0, 0.667], [0.6])
    >>> h.thresholds.tolist()
    [0.8, 0.35]
    """
    c = _binary_curve(y_true, y_score, pos_label, sample_weight)
    first = int(np.argmax(c.tps > 0))
    rg, pg = _gains(c.tps[first:], c.fps[first:], c.n_pos, c.n_neg)
    thr = c.thresholds[first:]
    # Points are sorted by rg (non-decreasing); for equal rg keep the highest pg.
    # within equal rg, pg decreases with the threshold index: the first is the highest
    keep = np.r_[True, rg[1:] != rg[:-1]]
    rg, pg, thr = rg[keep], pg[keep], thr[keep]
    # Only Pareto points (no other point with higher recall gain has a precision gain as high)
    # can be vertices right of the top vertex: filter them first, so the Python loop below is
    # short even for millions of thresholds.
    best_right = np.maximum.accumulate(pg[::-1])[::-1]
    pareto = np.r_[pg[:-1] > best_right[1:], True]
    rg, pg, thr = rg[pareto], pg[pareto], thr[pareto]
    hull: list[int] = []
    for i in range(rg.shape[0]):
        while len(hull) >= 2:
            o, a_ = hull[-2], hull[-1]
            cross = (rg[a_] - rg[o]) * (pg[i] - pg[o]) - (pg[a_] - pg[o]) * (rg[i] - rg[o])
            if cross >= 0:  # a_ is not strictly above the chord o -> i
                hull.pop()
            else:
                break
        hull.append(i)
    idx = np.asarray(hull)
    top = int(np.flatnonzero(pg[idx] == pg[idx].max())[-1])  # the rightmost top vertex
    idx = idx[top:]
    hx, hy = rg[idx], pg[idx]
    slope = np.diff(hy) / np.diff(hx)
    d = 1.0 / (1.0 - slope)
    return PRGHull(hx, hy, thr[idx], d)
