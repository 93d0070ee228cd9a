"""Every common estimator of the area under the PR curve side by side, from one sort of the scores
(:func:`aupr_estimators`; from tie-group counts, :func:`prspace.metrics.aupr_estimators_from_group_counts`).

References: Davis and Goadrich (2006) (hyperbolic interpolation); Boyd, Eng and Page (2013)
(lower trapezoid, interpolated median).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from prspace.metrics._kernel import (
    _binary_curve,
    _Curve,
    _dot,
    _prepend0,
    _segments_from_curve,
    _unit,
)
from prspace.metrics.pr import _ap_from, _aupr_hyperbolic_full, _aupr_linear, _segment_precisions

__all__ = ["AUPR_ESTIMATORS", "aupr_estimators", "aupr_estimators_from_group_counts"]

#: The AUPR estimators of :func:`aupr_estimators`, in display order.
AUPR_ESTIMATORS = (
    "step",
    "trapezoid",
    "trapezoid_from_1",
    "hyperbolic",
    "lower_trapezoid",
    "interpolated_median",
)


def _runs_by_recall(c: _Curve) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Distinct recalls of the threshold points with TP > 0, and per recall the highest, lowest
    and median precision of the points at that recall (TP is non-decreasing along the curve,
    and FP grows within a run of equal TP, so precision falls within a run: first = max)."""
    keep = c.tps > 0
    tps, fps = c.tps[keep], c.fps[keep]
    prec = tps / (tps + fps)
    starts = np.flatnonzero(np.r_[True, tps[1:] != tps[:-1]])
    ends = np.r_[starts[1:], tps.shape[0]] - 1
    length = ends - starts
    median = 0.5 * (prec[starts + length // 2] + prec[starts + (length + 1) // 2])
    return tps[starts] / c.n_pos, prec[starts], prec[ends], median


def _boyd2013(c: _Curve, first: float) -> tuple[float, float]:
    """Lower trapezoid and interpolated median (Boyd, Eng and Page 2013, section 3)."""
    r, p_max, p_min, p_med = _runs_by_recall(c)
    r = _prepend0(r)
    width = np.diff(r)
    lower = np.r_[first, p_min[:-1]]  # p_min(r_i) at the left end; the start point has one precision
    med_left = np.r_[first, p_med[:-1]]
    return float(_dot(width, lower + p_max) / 2.0), float(_dot(width, med_left + p_med) / 2.0)


def aupr_estimators(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> dict[str, float]:
    """Every common estimator of the area under the PR curve, from one sort of the scores.

    Points are the distinct thresholds' (recall, precision); the curve starts at recall 0 with
    the first threshold's precision (the first-point rule of :func:`aupr`) unless said otherwise.

    * ``step``: sum_k (R_k - R_{k-1}) P_k, average precision (= scikit-learn's
      ``average_precision_score``).
    * ``trapezoid``: trapezoids between consecutive points (= :func:`aupr` with
      ``interpolation="linear"``).
    * ``trapezoid_from_1``: the same, but the curve starts at (0, 1), as scikit-learn's
      ``precision_recall_curve`` ends and yardstick's ``pr_curve`` begins; this is what
      ``sklearn.metrics.auc(recall, precision)`` computes.
    * ``hyperbolic``: the Davis and Goadrich (2006) interpolation, exact (= :func:`aupr`).
    * ``lower_trapezoid``: Boyd, Eng and Page (2013), sum_i (r_{i+1} - r_i)
      (p_min(r_i) + p_max(r_{i+1})) / 2 over the distinct recalls r_i, where p_min and p_max are
      the lowest and highest precision among the points at that recall (r_0 = 0 carries the
      start point's precision).
    * ``interpolated_median``: Boyd, Eng and Page (2013), sum_i (r_{i+1} - r_i)
      (p_med(r_i) + p_med(r_{i+1})) / 2 with the median precision at each recall.

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
    dict of str to float
        Each estimator by name, in the order of :data:`AUPR_ESTIMATORS`.

    Raises
    ------
    ValueError
        If the input is bad: NaN or infinite scores, lengths that differ, no rows, labels that are
        not binary, one class only, or negative or non-finite weights (the message names the
        problem).

    See Also
    --------
    aupr : The hyperbolic, linear or step area.
    aupr_estimators_from_group_counts : The same from tie-group counts.

    References
    ----------
    Boyd, K., Eng, K. H. and Page, C. D. (2013). Area under the precision-recall curve: point
    estimates and confidence intervals. ECML PKDD.

    Examples
    --------
    >>> from prspace.metrics import aupr_estimators
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> {k: round(v, 4) for k, v in aupr_estimators(y, s).items()}  # doctest: +NORMALIZE_WHITESPACE
    {'step': 0.9167, 'trapezoid': 0.9028, 'trapezoid_from_1': 0.9028, 'hyperbolic': 0.9041,
     'lower_trapezoid': 0.9028, 'interpolated_median': 0.8778}
    """
    return _estimators_from_curve(_binary_curve(y_true, y_score, pos_label, sample_weight))


def _estimators_from_curve(c: _Curve) -> dict[str, float]:
    """:func:`aupr_estimators` of a curve's distinct thresholds."""
    g = _segments_from_curve(c)
    first = float(c.tps[0] / (c.tps[0] + c.fps[0]))
    pa, pb = _segment_precisions(g)
    pa1 = np.where(g.tpa + g.fpa > 0, pa, 1.0)
    lower, median = _boyd2013(c, first)
    return {
        "step": _unit(_ap_from(g)),
        "trapezoid": _unit(_aupr_linear(g, 0.0, 1.0)),
        "trapezoid_from_1": _unit(float(_dot(g.dtp, pa1 + pb) / (2.0 * g.n_pos))),
        "hyperbolic": _unit(_aupr_hyperbolic_full(g)),
        "lower_trapezoid": _unit(lower),
        "interpolated_median": _unit(median),
    }


def aupr_estimators_from_group_counts(tp: ArrayLike, fp: ArrayLike) -> dict[str, float]:
    """:func:`aupr_estimators` from class counts per tie group, without sorting.

    As :func:`prspace.metrics.metrics_from_group_counts`: ``tp[k]`` and ``fp[k]`` the positive and
    negative weight of the rows holding the k-th highest distinct score.  Groups of zero weight are
    left out (as rows of zero weight are); with whole-number counts (unit weights) the running sums
    are exact, so the result equals ``aupr_estimators(y, scores)`` bit for bit.

    Parameters
    ----------
    tp : array-like of shape (n_groups,)
        Positive weight of the rows holding the k-th highest distinct score (k = 0 the highest).
    fp : array-like of shape (n_groups,)
        Negative weight of the same rows.

    Returns
    -------
    dict of str to float
        The estimators by name, as :func:`aupr_estimators`.

    Raises
    ------
    ValueError
        If ``tp`` and ``fp`` are not arrays of the same non-zero length, a count is negative, or
        only one class has positive weight.

    See Also
    --------
    aupr_estimators : The same from labels and scores.
    metrics_from_group_counts : The headline metrics from the same counts.

    Examples
    --------
    >>> from prspace.metrics import aupr_estimators, aupr_estimators_from_group_counts
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> tp, fp = [1, 1, 0, 1, 0, 0], [0, 0, 1, 0, 1, 1]  # per score from the highest: 0.9, 0.8, 0.4, ...
    >>> aupr_estimators_from_group_counts(tp, fp) == aupr_estimators(y, s)
    True
    """
    tp_ = np.asarray(tp, dtype=np.float64)
    fp_ = np.asarray(fp, dtype=np.float64)
    if tp_.ndim != 1 or tp_.shape != fp_.shape or tp_.size == 0:
        raise ValueError("tp and fp must be 1-d arrays of the same, non-zero length")
    if np.any(tp_ < 0) or np.any(fp_ < 0):
        raise ValueError("group counts must be non-negative")
    keep = (tp_ + fp_) > 0
    tps, fps = np.cumsum(tp_[keep]), np.cumsum(fp_[keep])
    if not (tps.size and tps[-1] > 0 and fps[-1] > 0):
        raise ValueError("only one class present with positive weight; the estimators are undefined")
    thresholds = np.arange(tps.size, 0, -1, dtype=np.float64)
    return _estimators_from_curve(_Curve(tps, fps, thresholds, float(tps[-1]), float(fps[-1])))
