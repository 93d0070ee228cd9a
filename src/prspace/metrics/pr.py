"""Precision-recall: average precision, AUPR (hyperbolic, linear, step interpolation), the PR
curve and its drawn interpolation (every common AUPR estimator side by side: ``pr_estimators.py``).

Reference: Davis and Goadrich (2006) (hyperbolic interpolation).

One module for the PR family of the metric recipe (``CONTRIBUTING.md``, "A metric": a PR metric's public
function and its private ``_<key>_from`` go here), its curve and the curve's interpolation: the three
interpolations share the segment arithmetic above them, and their docstrings are the API reference.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from prspace.metrics._kernel import (
    _binary_curve,
    _blockwise,
    _check_recall_range,
    _Curve,
    _dot,
    _log1p,
    _prepend0,
    _Segments,
    _segments,
    _unit,
)

__all__ = ["PRCurve", "MinPRCurve", "average_precision", "aupr", "pr_curve", "interpolate_pr_curve"]

_INTERPOLATIONS = ("hyperbolic", "linear", "step")


class MinPRCurve(NamedTuple):
    """Boyd et al. (2012) minimum PR curve, precision = pi r / (1 - pi + pi r).

    Parameters
    ----------
    recall : ndarray
        Recalls r.
    precision : ndarray
        The minimum precision pi r / (1 - pi + pi r) at each recall.

    See Also
    --------
    min_pr_curve : Computes this curve.
    aupr_min : Its area.

    Examples
    --------
    >>> from prspace.metrics import MinPRCurve, min_pr_curve
    >>> c = min_pr_curve(0.5, [0.0, 1.0])
    >>> isinstance(c, MinPRCurve), c.precision.tolist()
    (True, [0.0, 0.5])
    """

    recall: NDArray[np.float64]
    precision: NDArray[np.float64]


class PRCurve(NamedTuple):
    """PR curve vertices in order of increasing recall (decreasing threshold).

    The first vertex is the added start point at recall 0 with the precision of the first
    threshold (threshold ``+inf``; ``tp = fp = 0``). ``tp`` and ``fp`` are the (weighted)
    cumulative counts at each vertex; :func:`interpolate_pr_curve` uses them to draw the
    hyperbolic interpolation.

    Parameters
    ----------
    recall : ndarray of shape (n_thresholds + 1,)
        Recall TP / P at each vertex, increasing.
    precision : ndarray of shape (n_thresholds + 1,)
        Precision TP / (TP + FP) at each vertex.
    thresholds : ndarray of shape (n_thresholds + 1,)
        Score of each vertex, decreasing; ``+inf`` at the start point.
    tp : ndarray of shape (n_thresholds + 1,)
        Cumulative (weighted) true positives.
    fp : ndarray of shape (n_thresholds + 1,)
        Cumulative (weighted) false positives.

    See Also
    --------
    pr_curve : Computes this curve.
    interpolate_pr_curve : Its hyperbolic interpolation.

    Examples
    --------
    >>> from prspace.metrics import PRCurve, pr_curve
    >>> c = pr_curve([0, 1, 1], [0.2, 0.9, 0.5])
    >>> isinstance(c, PRCurve), c.recall.tolist(), c.precision.round(3).tolist()
    (True, [0.0, 0.5, 1.0, 1.0], [1.0, 1.0, 1.0, 0.667])
    """

    recall: NDArray[np.float64]
    precision: NDArray[np.float64]
    thresholds: NDArray[np.float64]
    tp: NDArray[np.float64]
    fp: NDArray[np.float64]



@_blockwise
def _ap_from(g: _Segments) -> float:
    """Step-wise AP = sum_k (R_k - R_{k-1}) P_k (= sklearn's average_precision_score)."""
    tpb = g.tpa + g.dtp
    prec = tpb / (tpb + g.fpa + g.dfp)
    return float(_dot(g.dtp, prec) / g.n_pos)


_PSI_TERMS = 12  # series terms for psi(x) = 1 - ln(1 + x) / x below x = 0.05


def _psi(x: np.ndarray, log1p_x: np.ndarray | None = None) -> np.ndarray:
    """psi(x) = 1 - ln(1 + x) / x = x/2 - x^2/3 + x^3/4 - ..., accurate for every x > 0
    (``log1p_x``: ``log1p(x)`` when the caller has it already; ``log1p`` the kernel's, the same bits on every
    machine: :func:`prspace.metrics._kernel._log1p`)."""
    out = _log1p(x) if log1p_x is None else log1p_x / x
    if log1p_x is None:
        out /= x
    np.subtract(1.0, out, out=out)
    small = x < 0.05
    if small.any():
        xs = x[small]
        ser = np.full_like(xs, (-1.0) ** (_PSI_TERMS + 1) / (_PSI_TERMS + 1))
        for k in range(_PSI_TERMS - 1, 0, -1):
            ser *= xs
            ser += (-1.0) ** (k + 1) / (k + 1)
        ser *= xs
        out[small] = ser
    return out


@_blockwise
def _aupr_hyperbolic_full(g: _Segments) -> float:
    """Exact area under the Davis-Goadrich interpolated PR curve over recall in [0, 1].

    Between thresholds A and B with dTP = TP_B - TP_A > 0, dFP = FP_B - FP_A and
    D = dTP + dFP, the interpolated precision at TP = TP_A + x is
    (TP_A + x) / (TP_A + FP_A + x D / dTP), whose integral over x in [0, dTP] divided by P is

        dTP / (P D) * [dTP + (TP_A dFP - FP_A dTP) / D * ln(1 + D / (TP_A + FP_A))]
      = dTP / (P D) * [dTP psi(z) + TP_A ln(1 + z)],   z = D / (TP_A + FP_A),

    with psi(z) = 1 - ln(1 + z) / z. The second form adds two non-negative terms, so it keeps
    full relative accuracy where precision is tiny (the first cancels there). The segment from
    the origin (TP_A = FP_A = 0, z = inf, psi = 1) has constant precision TP_B / (TP_B + FP_B):
    the first-point rule. Segments with dTP = 0 have zero width and are not in ``g``.
    """
    tpa, fpa, dtp, dfp = g.tpa, g.fpa, g.dtp, g.dfp
    d = dtp + dfp
    ba = tpa + fpa
    origin = ba == 0  # only the first segment can start at the origin
    z = d / np.where(origin, 1.0, ba)
    inner = _psi(z)
    inner *= dtp
    log_term = _log1p(z)
    log_term *= tpa
    inner += log_term
    if origin[0]:
        inner[0] = dtp[0]
    return _dot(dtp / d, inner) / g.n_pos


@_blockwise
def _aupr_hyperbolic_range(g: _Segments, a: float, b: float) -> float:
    """As :func:`_aupr_hyperbolic_full` with each segment clipped to recall in [a, b].

    With c = D / dTP the antiderivative is x dTP / D + K ln(TP_A + FP_A + c x),
    K = (TP_A dFP - FP_A dTP) dTP / D^2, evaluated between the clipped ends x_a and x_b.
    """
    tpa, fpa, dtp, dfp = g.tpa, g.fpa, g.dtp, g.dfp
    p = g.n_pos
    xa = np.clip(a * p - tpa, 0.0, dtp)
    xb = np.clip(b * p - tpa, 0.0, dtp)
    d = dtp + dfp
    slope = d / dtp
    ba = tpa + fpa + slope * xa  # TP + FP at the clipped start
    k = (tpa * dfp - fpa * dtp) * dtp / (d * d)
    # k = 0 where precision is constant, in particular on the segment from the origin
    ratio = np.divide(slope * (xb - xa), ba, out=np.zeros_like(d), where=(k != 0) & (ba > 0))
    area = (xb - xa) * (dtp / d) + k * _log1p(ratio)
    return float(area.sum() / p)


def _segment_precisions(g: _Segments) -> tuple[np.ndarray, np.ndarray]:
    """Precision at the start and end of each segment; the start point of the whole curve
    (TP = FP = 0) takes the precision of the first threshold (first-point rule)."""
    tpb = g.tpa + g.dtp
    pb = tpb / (tpb + g.fpa + g.dfp)
    ba = g.tpa + g.fpa
    pa = np.divide(g.tpa, ba, out=pb.copy(), where=ba > 0)
    return pa, pb


@_blockwise
def _aupr_linear(g: _Segments, a: float, b: float) -> float:
    """Trapezoids in PR space, clipped to recall in [a, b]."""
    pa, pb = _segment_precisions(g)
    if a == 0.0 and b == 1.0:
        return float(_dot(g.dtp, pa + pb) / (2.0 * g.n_pos))
    xa = np.clip(a * g.n_pos - g.tpa, 0.0, g.dtp)
    xb = np.clip(b * g.n_pos - g.tpa, 0.0, g.dtp)
    area = (xb - xa) * (pa + (pb - pa) * (xa + xb) / (2.0 * g.dtp))
    return float(area.sum() / g.n_pos)


@_blockwise
def _aupr_step(g: _Segments, a: float, b: float) -> float:
    if a == 0.0 and b == 1.0:
        return _ap_from(g)
    _, pb = _segment_precisions(g)
    xa = np.clip(a * g.n_pos - g.tpa, 0.0, g.dtp)
    xb = np.clip(b * g.n_pos - g.tpa, 0.0, g.dtp)
    return float(_dot(xb - xa, pb) / g.n_pos)


def _aupr_from(g: _Segments, interpolation: str, a: float, b: float) -> float:
    if interpolation == "hyperbolic":
        if a == 0.0 and b == 1.0:
            return _aupr_hyperbolic_full(g)
        return _aupr_hyperbolic_range(g, a, b)
    if interpolation == "linear":
        return _aupr_linear(g, a, b)
    if interpolation == "step":
        return _aupr_step(g, a, b)
    raise ValueError(f"interpolation must be one of {_INTERPOLATIONS}, got {interpolation!r}")

def average_precision(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Step-wise average precision AP = sum_k (R_k - R_{k-1}) P_k over distinct thresholds.

    Equal to scikit-learn's ``average_precision_score``.

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
        Average precision, in [0, 1].

    Raises
    ------
    ValueError
        If the input is bad: NaN or infinite scores, lengths that differ, no rows, labels that are
        not binary, one class only, or negative or non-finite weights (the message names the
        problem).

    See Also
    --------
    aupr : The area with the step, linear or hyperbolic interpolation.
    aupr_estimators : Every common AUPR estimator.
    ap_min : Its minimum at a skew.

    Examples
    --------
    >>> from prspace.metrics import average_precision
    >>> from sklearn.metrics import average_precision_score
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> average_precision(y, s)  # (1 + 1 + 3/4) / 3
    0.9166666666666666
    >>> abs(average_precision(y, s) - average_precision_score(y, s)) < 1e-15
    True
    """
    return _unit(_ap_from(_segments(y_true, y_score, pos_label, sample_weight)))


def aupr(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    interpolation: str = "hyperbolic",
    recall_range: tuple[float, float] = (0.0, 1.0),
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Area under the PR curve over recall in ``recall_range`` = [a, b].

    The curve starts at recall 0 with the precision of the first threshold; tied scores are
    one threshold. ``interpolation`` between consecutive thresholds:

    * ``"hyperbolic"``: Davis and Goadrich (2006): linear in (TP, FP), i.e. precision
      (TP_A + x) / (TP_A + x + FP_A + x (FP_B - FP_A) / (TP_B - TP_A)) for x in
      [0, TP_B - TP_A], integrated in closed form (a logarithm per segment; no sampling).
    * ``"linear"``: trapezoids in PR space.
    * ``"step"``: precision of the later threshold over the whole step (= average precision).

    With ``recall_range=(a, b)`` only recalls in [a, b] are integrated (Boyd et al. 2012,
    section 2.2); segments are clipped exactly.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels: {0, 1}, {-1, 1} or {False, True} (the greater is the positive class), or any
        two labels with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores, larger meaning more positive: only their order matters, and tied scores form one
        threshold.
    interpolation : {'hyperbolic', 'linear', 'step'}, default='hyperbolic'
        How consecutive thresholds are joined (above).
    recall_range : tuple of float, default=(0.0, 1.0)
        The recalls [a, b] integrated over (0 <= a < b <= 1).
    pos_label : int, float, bool or str, default=None
        The label of the positive class; None: the greater of {0, 1}, {-1, 1} or {False, True}.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite row weights (a row of weight 0 is dropped; an integer weight equals
        repeating the row); None weighs every row 1.

    Returns
    -------
    float
        The area under the PR curve over recall in [a, b], at most b - a.

    Raises
    ------
    ValueError
        If the input is bad (as :func:`auroc`), ``interpolation`` is not one of the three, or
        ``recall_range`` is not 0 <= a < b <= 1.

    See Also
    --------
    pr_curve : The curve's vertices.
    aupr_min : The unachievable area.
    aucnpr : The area normalised by the unachievable one.
    prspace.display.PrecisionRecallDisplay : Draws the curve.

    References
    ----------
    Davis, J. and Goadrich, M. (2006). The relationship between precision-recall and ROC curves.
    ICML. Boyd, K., Santos Costa, V., Davis, J. and Page, D. (2012). Unachievable region in
    precision-recall space and its effect on empirical evaluation. ICML.

    Examples
    --------
    >>> from prspace.metrics import aupr
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> round(aupr(y, s), 6)  # hyperbolic: between 0.4 and 0.35 precision is 2/3 -> 3/4 along TP, FP
    0.904106
    >>> round(aupr(y, s, interpolation="linear"), 6), aupr(y, s, interpolation="step")
    (0.902778, 0.9166666666666666)
    >>> aupr(y, s, recall_range=(0.0, 0.5))  # precision 1 up to recall 2/3
    0.5
    """
    a, b = _check_recall_range(recall_range)
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"interpolation must be one of {_INTERPOLATIONS}, got {interpolation!r}")
    g = _segments(y_true, y_score, pos_label, sample_weight)
    return _unit(_aupr_from(g, interpolation, a, b), b - a)



def pr_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> PRCurve:
    """PR curve vertices in order of increasing recall, see :class:`PRCurve`.

    Vertex 0 is the start point (recall 0, precision of the first threshold, threshold +inf);
    then one vertex per distinct threshold (recall TP/P, precision TP/(TP + FP)). Join them
    with :func:`interpolate_pr_curve` for the hyperbolic curve whose area :func:`aupr` gives.

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
    PRCurve
        ``recall``, ``precision``, ``thresholds``, ``tp`` and ``fp`` of every vertex.

    Raises
    ------
    ValueError
        If the input is bad: NaN or infinite scores, lengths that differ, no rows, labels that are
        not binary, one class only, or negative or non-finite weights (the message names the
        problem).

    See Also
    --------
    aupr : The curve's area.
    interpolate_pr_curve : The points between the vertices.
    all_curves : The ROC, PR and PRG curves from one sort.

    Examples
    --------
    >>> from prspace.metrics import pr_curve
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> c = pr_curve(y, s)
    >>> c.recall.round(3).tolist()
    [0.0, 0.333, 0.667, 0.667, 1.0, 1.0, 1.0]
    >>> c.precision.round(3).tolist()
    [1.0, 1.0, 1.0, 0.667, 0.75, 0.6, 0.5]
    >>> c.tp.tolist(), c.fp.tolist()
    ([0.0, 1.0, 2.0, 2.0, 3.0, 3.0, 3.0], [0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 3.0])
    """
    return _pr_from(_binary_curve(y_true, y_score, pos_label, sample_weight))


def _pr_from(c: _Curve) -> PRCurve:
    prec = np.empty(c.tps.shape[0] + 1)
    prec[1:] = c.tps / (c.tps + c.fps)
    prec[0] = prec[1]  # first-point rule
    return PRCurve(
        recall=_prepend0(c.tps) / c.n_pos,
        precision=prec,
        thresholds=np.r_[np.inf, c.thresholds],
        tp=_prepend0(c.tps),
        fp=_prepend0(c.fps),
    )


def interpolate_pr_curve(curve: PRCurve, points_per_segment: int = 20) -> MinPRCurve:
    """Dense (recall, precision) along the Davis-Goadrich interpolation of ``curve``.

    For plotting: ``points_per_segment`` points on each segment between vertices (segments of
    zero recall width keep their two vertices, i.e. a vertical drop).

    Parameters
    ----------
    curve : PRCurve
        A PR curve of :func:`pr_curve`.
    points_per_segment : int, default=20
        Points drawn on each segment between vertices (at least 2).

    Returns
    -------
    MinPRCurve
        ``recall`` and ``precision`` of the dense points.

    Raises
    ------
    ValueError
        If ``points_per_segment`` is less than 2.

    See Also
    --------
    pr_curve : The vertices.
    aupr : The exact area of the interpolated curve.

    Examples
    --------
    >>> from prspace.metrics import interpolate_pr_curve, pr_curve
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> d = interpolate_pr_curve(pr_curve(y, s), points_per_segment=3)
    >>> d.recall[9:12].round(3).tolist(), d.precision[9:12].round(3).tolist()
    ([0.667, 0.833, 1.0], [0.667, 0.714, 0.75])
    """
    k = int(points_per_segment)
    if k < 2:
        raise ValueError("points_per_segment must be >= 2")
    tp, fp, prec = curve.tp, curve.fp, curve.precision
    p = tp[-1]
    t = np.linspace(0.0, 1.0, k)
    ta = tp[:-1, None] + t[None, :] * (tp[1:] - tp[:-1])[:, None]
    fa = fp[:-1, None] + t[None, :] * (fp[1:] - fp[:-1])[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        pa = ta / (ta + fa)
    # the start segment has constant precision (first-point rule)
    pa[0, :] = np.where(ta[0] + fa[0] > 0, pa[0], prec[0])
    pa[0, 0] = prec[0]
    return MinPRCurve(ta.ravel() / p, pa.ravel())
