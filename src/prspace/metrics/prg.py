"""Precision-Recall-Gain (Flach and Kull 2015): the PRG curve, AUPRG and expected FG1 (Theorem 3).

The gains of one contingency table (precision and recall gain, FG) are :mod:`prspace.metrics.prg_gains`;
the Pareto part of the convex hull (section 3.4) is :mod:`prspace.metrics.prg_hull`."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from prspace.metrics._kernel import _binary_curve, _chunks, _Curve, _dot, _Segments, _segments

__all__ = ["PRGCurve", "prg_curve", "auprg", "expected_fg1"]


class PRGCurve(NamedTuple):
    """Precision-Recall-Gain curve in order of increasing recall gain.

    Contains every threshold with ``tp > 0`` (where the gains are finite; recall gain may be
    negative) plus the crossing points the reference implementation inserts: where the curve
    crosses recall gain 0 and where it crosses precision gain 0 at non-negative recall gain.
    Crossing points have ``is_crossing`` True and threshold NaN.

    Parameters
    ----------
    recall_gain : ndarray
        Recall gain of each point, increasing.
    precision_gain : ndarray
        Precision gain of each point.
    thresholds : ndarray
        Score of each point; NaN at a crossing point.
    is_crossing : ndarray of bool
        True at the crossing points inserted.

    See Also
    --------
    prg_curve : Computes this curve.
    prspace.display.PrecisionRecallGainDisplay : Draws it in the unit square.

    Examples
    --------
    >>> from prspace.metrics import PRGCurve, prg_curve
    >>> c = prg_curve([0, 1, 1, 0], [0.2, 0.9, 0.5, 0.6])
    >>> isinstance(c, PRGCurve), c.recall_gain.tolist()
    (True, [0.0, 0.0, 1.0, 1.0])
    """

    recall_gain: NDArray[np.float64]
    precision_gain: NDArray[np.float64]
    thresholds: NDArray[np.float64]
    is_crossing: NDArray[np.bool_]



def _gains(tp: np.ndarray, fp: np.ndarray, p: float, nn: float) -> tuple[np.ndarray, np.ndarray]:
    """Recall and precision gain (Flach and Kull Definition 1) from cumulative counts."""
    r = p / nn
    with np.errstate(divide="ignore", invalid="ignore"):
        rg = 1.0 - r * ((p - tp) / tp)
        pg = 1.0 - r * (fp / tp)
    # The all-positive point (tn + fn = 0) is exactly (1, 0), as in the reference code.
    last = (tp == p) & (fp == nn)
    rg[last] = 1.0
    pg[last] = 0.0
    return rg, pg


def _prg_crossing(tpa: float, fpa: float, tpb: float, fpb: float, p: float, nn: float) -> float:
    """Precision gain where recall gain is 0 on the segment A -> B (rg_A < 0 < rg_B).

    Recall gain is 0 where TP = P^2 / (P + N); the contingency table is interpolated linearly
    between A and B to reach it, as the reference code does. By Flach and Kull's Theorem 1 this
    point lies on the straight PRG segment between A and B (when A has finite gains).
    """
    tp_star = p * p / (p + nn)
    alpha = (tp_star - tpa) / (tpb - tpa)
    tp_i = tpa + alpha * (tpb - tpa)
    fp_i = fpa + alpha * (fpb - fpa)
    return float(1.0 - (p / nn) * (fp_i / tp_i))


def _prg_start(g: _Segments) -> tuple[int, float, bool]:
    """(k, y0, crossing): segment k is the first whose end B has recall gain >= 0; y0 is the
    precision gain at recall gain 0; crossing tells whether that point lies inside segment k
    (True) or is B itself (False)."""
    p, nn = g.n_pos, g.n_neg
    tp_star = p * p / (p + nn)  # recall gain is 0 here
    # TP at the end of segment i is the TP at the start of segment i + 1: locate the sign
    # change by binary search, then decide with the gain formula itself near the boundary.
    nxt = g.tpa[1:]
    lo = int(np.searchsorted(nxt, tp_star * (1.0 - 1e-9), side="left"))
    hi = int(np.searchsorted(nxt, tp_star * (1.0 + 1e-9), side="right"))
    tpb = g.tpa[lo : hi + 1] + g.dtp[lo : hi + 1]  # > 0
    rgb = 1.0 - (p / nn) * ((p - tpb) / tpb)
    rgb[tpb == p] = 1.0
    j = int(np.argmax(rgb >= 0.0))  # exists: segment hi ends above the band (or at TP = P)
    k = lo + j
    fpb = g.fpa[k] + g.dfp[k]
    if rgb[j] > 0.0:
        return k, _prg_crossing(g.tpa[k], g.fpa[k], tpb[j], fpb, p, nn), True
    _, pgb = _gains(tpb[j : j + 1], np.array([fpb]), p, nn)
    return k, float(pgb[0]), False


def _auprg_block(g: _Segments, y0: float | None) -> float:
    """Trapezoids over the segments of ``g``; with ``y0`` the first starts at (0, y0)."""
    p, nn = g.n_pos, g.n_neg
    r = p / nn
    tpb = g.tpa + g.dtp  # > 0
    fpb = g.fpa + g.dfp
    rgb = 1.0 - r * ((p - tpb) / tpb)
    pgb = 1.0 - r * (fpb / tpb)
    if tpb[-1] == p and fpb[-1] == nn:  # the all-positive point is exactly (1, 0)
        rgb[-1], pgb[-1] = 1.0, 0.0
    first = 0 if y0 is None else 1  # only the very first segment can start at TP = 0
    tpa, fpa = g.tpa[first:], g.fpa[first:]
    rga = np.empty_like(rgb)
    pga = np.empty_like(pgb)
    rga[first:] = 1.0 - r * ((p - tpa) / tpa)
    pga[first:] = 1.0 - r * (fpa / tpa)
    if y0 is not None:
        rga[0], pga[0] = 0.0, y0  # the first segment starts at the crossing of recall gain 0
    rgb -= rga
    pgb += pga
    return _dot(rgb, pgb) / 2.0


def _auprg_from(g: _Segments) -> float:
    """Trapezoidal area under the PRG curve over recall gain in [0, 1] (Flach and Kull 3.3).

    Negative precision gains count negatively; the curve starts at the point where recall gain
    is 0 (see :func:`_prg_crossing`), matching ``calc_auprg(create_prg_curve(...))`` of
    ``pyprg``. Moves between segments (negative-only tie groups) are vertical: zero area.
    """
    k, y0, _ = _prg_start(g)
    tail = _Segments(g.tpa[k:], g.fpa[k:], g.dtp[k:], g.dfp[k:], g.n_pos, g.n_neg)
    total = 0.0
    for i, sub in enumerate(_chunks(tail)):
        total += _auprg_block(sub, y0 if i == 0 else None)
    return float(total)


def _expected_fg1_from(auprg_value: float, y0: float, pi: float) -> float:
    """Flach and Kull Theorem 3 (see :func:`expected_fg1`)."""
    width = 1.0 - pi * (1.0 - y0)  # pi (1 - pi) times the length of the Delta range
    if abs(width) <= 1e-12:
        raise ValueError(
            "expected FG1 is undefined for this ranking: every operating point on its PRG "
            "curve has the same Delta = recG / pi - precG / (1 - pi), so Delta cannot be "
            "uniform on an interval (Flach and Kull Theorem 3)"
        )
    return (auprg_value / 2.0 + 0.25 - pi * (1.0 - y0 * y0) / 4.0) / width


def _prg_curve_from(c: _Curve) -> PRGCurve:
    first = int(np.argmax(c.tps > 0))  # thresholds with finite gains
    rg, pg = _gains(c.tps[first:], c.fps[first:], c.n_pos, c.n_neg)
    thr = c.thresholds[first:]
    k = int(np.argmax(rg >= 0.0))  # first point with recall gain >= 0 (the last has rg = 1)
    inserted = bool(rg[k] > 0.0)
    if inserted:
        j = first + k  # index in the full curve; the point before it may be the origin
        tpa = c.tps[j - 1] if j > 0 else 0.0
        fpa = c.fps[j - 1] if j > 0 else 0.0
        y0 = _prg_crossing(tpa, fpa, c.tps[j], c.fps[j], c.n_pos, c.n_neg)
    cross = np.zeros(rg.shape[0], dtype=bool)
    if inserted:
        rg = np.insert(rg, k, 0.0)
        pg = np.insert(pg, k, y0)
        thr = np.insert(thr, k, np.nan)
        cross = np.insert(cross, k, True)
    start = k
    # Crossings of precision gain 0 on segments with non-negative recall gain.
    x, y = rg[start:], pg[start:]
    seg = np.flatnonzero(y[:-1] * y[1:] < 0)
    if seg.size:
        x0, x1, y0s, y1s = x[seg], x[seg + 1], y[seg], y[seg + 1]
        xc = x0 + (-y0s) / (y1s - y0s) * (x1 - x0)
        at = start + seg + 1
        rg = np.insert(rg, at, xc)
        pg = np.insert(pg, at, 0.0)
        thr = np.insert(thr, at, np.nan)
        cross = np.insert(cross, at, True)
    return PRGCurve(rg, pg, thr, cross)


def prg_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> PRGCurve:
    """Precision-Recall-Gain curve (Flach and Kull 2015), see :class:`PRGCurve`.

    Points are the thresholds with TP > 0 in order of increasing recall gain, plus the crossing
    points of ``create_prg_curve`` in the reference code: at recall gain 0 (by interpolating
    the contingency tables) and at precision gain 0 where recall gain >= 0. A plot clips to
    the unit square; the area :func:`auprg` uses every point with recall gain >= 0.

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
    PRGCurve
        ``recall_gain``, ``precision_gain``, ``thresholds`` and ``is_crossing`` of every point.

    Raises
    ------
    ValueError
        If the input is bad: NaN or infinite scores, lengths that differ, no rows, labels that are
        not binary, one class only, or negative or non-finite weights (the message names the
        problem).

    See Also
    --------
    auprg : The area under the curve.
    prg_convex_hull : Its convex hull.
    prspace.display.PrecisionRecallGainDisplay : Draws it.

    References
    ----------
    Flach, P. and Kull, M. (2015). Precision-Recall-Gain curves: PR analysis done right. NIPS.

    Examples
    --------
    >>> from prspace.metrics import prg_curve
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> c = prg_curve(y, s)
    >>> c.recall_gain.round(3).tolist(), c.precision_gain.round(3).tolist()
    ([-1.0, 0.0, 0.5, 0.5, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 0.5, 0.667, 0.333, 0.0])
    >>> c.is_crossing.tolist()  # the point at recall gain 0 is inserted
    [False, True, False, False, False, False, False]
    """
    return _prg_curve_from(_binary_curve(y_true, y_score, pos_label, sample_weight))


def auprg(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Area under the PRG curve over recall gain in [0, 1] (Flach and Kull 2015, section 3.3).

    Trapezoids between consecutive points with recall gain >= 0, starting at the crossing of
    recall gain 0; negative precision gains count negatively. Equal to the reference
    ``calc_auprg(create_prg_curve(y_true, y_score))`` (PyPI ``pyprg``), ties included.

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
    float
        AUPRG; at most 1, negative for a ranking worse than the always-positive classifier's F1.

    Raises
    ------
    ValueError
        If the input is bad: NaN or infinite scores, lengths that differ, no rows, labels that are
        not binary, one class only, or negative or non-finite weights (the message names the
        problem).

    See Also
    --------
    prg_curve : The curve.
    expected_fg1 : The expected FG1 score it gives.
    all_metrics : Every headline metric from one sort.

    References
    ----------
    Flach, P. and Kull, M. (2015). Precision-Recall-Gain curves: PR analysis done right. NIPS.

    Examples
    --------
    >>> from prspace.metrics import auprg
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> round(auprg(y, s), 6)  # trapezoids over recall gain [0, 1], as the reference code
    0.791667
    """
    return min(_auprg_from(_segments(y_true, y_score, pos_label, sample_weight)), 1.0)


def expected_fg1(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Expected FG1 score for operating points with Delta uniform (Flach and Kull Theorem 3).

    E[FG1] = (AUPRG / 2 + 1/4 - pi (1 - y0^2) / 4) / (1 - pi (1 - y0)), where y0 is the
    precision gain where recall gain is 0. For y0 = 1 this is AUPRG / 2 + 1/4. Delta =
    recG / pi - precG / (1 - pi) ranges over [-y0 / (1 - pi), 1 / pi]; when that range is empty
    (e.g. the worst ranking, whose points all have Delta = 1 / pi) a ValueError is raised.

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
    float
        The expected FG1 score.

    Raises
    ------
    ValueError
        If the input is bad (as :func:`auprg`) or the range of Delta is empty.

    See Also
    --------
    auprg : The area it is computed from.

    References
    ----------
    Flach, P. and Kull, M. (2015). Precision-Recall-Gain curves: PR analysis done right. NIPS.

    Examples
    --------
    >>> from prspace.metrics import expected_fg1
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> round(expected_fg1(y, s), 6)  # y0 = 1: AUPRG / 2 + 1/4
    0.645833
    """
    g = _segments(y_true, y_score, pos_label, sample_weight)
    _, y0, _ = _prg_start(g)
    pi = g.n_pos / (g.n_pos + g.n_neg)
    return float(_expected_fg1_from(_auprg_from(g), y0, pi))
