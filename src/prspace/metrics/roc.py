"""ROC: AUROC and the ROC curve, from the kernel's tie groups (ties are diagonal segments)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from prspace.metrics._kernel import (
    _binary_curve,
    _blockwise,
    _Curve,
    _dot,
    _prepend0,
    _Segments,
    _segments,
    _unit,
)

__all__ = ["ROCCurve", "auroc", "roc_curve"]


class ROCCurve(NamedTuple):
    """ROC curve vertices, starting at (0, 0) with threshold ``+inf``.

    Parameters
    ----------
    fpr : ndarray of shape (n_thresholds + 1,)
        False positive rate at each vertex, from 0 to 1.
    tpr : ndarray of shape (n_thresholds + 1,)
        True positive rate at each vertex, from 0 to 1.
    thresholds : ndarray of shape (n_thresholds + 1,)
        The score at or above which a row is predicted positive, decreasing; ``+inf`` at (0, 0).

    See Also
    --------
    roc_curve : Computes this curve.
    PRCurve : The PR curve's vertices.

    Examples
    --------
    >>> from prspace.metrics import ROCCurve, roc_curve
    >>> c = roc_curve([0, 1, 1], [0.2, 0.9, 0.5])
    >>> isinstance(c, ROCCurve), c.fpr.tolist(), c.tpr.tolist()
    (True, [0.0, 0.0, 0.0, 1.0], [0.0, 0.5, 1.0, 1.0])
    """

    fpr: NDArray[np.float64]
    tpr: NDArray[np.float64]
    thresholds: NDArray[np.float64]



@_blockwise
def _auroc_from(g: _Segments) -> float:
    """Trapezoidal ROC area (ties are diagonal segments; = sklearn's roc_auc_score).

    Each positive in group k beats the N - FP_B negatives ranked below the group and ties with
    its dFP negatives: AUROC = sum_k dTP (N - FP_A - dFP / 2) / (P N).
    """
    below = g.n_neg - g.fpa - 0.5 * g.dfp
    return float(_dot(g.dtp, below) / (g.n_pos * g.n_neg))



def auroc(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Area under the ROC curve (trapezoidal; ties are diagonal segments).

    Equal to scikit-learn's ``roc_auc_score`` for binary input.

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
        The area under the ROC curve, in [0, 1]: the probability that a random positive scores above
        a random negative, ties counting one half.

    Raises
    ------
    ValueError
        If the input is bad: NaN or infinite scores, lengths that differ, no rows, labels that are
        not binary, one class only, or negative or non-finite weights (the message names the
        problem).

    See Also
    --------
    roc_curve : The curve whose area this is.
    partial_auroc : The area up to a false positive rate.
    all_metrics : Every headline metric from one sort.

    Examples
    --------
    >>> from prspace.metrics import auroc
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> auroc(y, s)  # 8 of the 9 (positive, negative) pairs in the right order
    0.8888888888888888
    >>> auroc(y, [0.5] * 6)  # one tie group: the diagonal
    0.5
    >>> auroc(["a", "a", "b", "b", "a", "b"], s, pos_label="b")
    0.8888888888888888
    >>> from sklearn.metrics import roc_auc_score  # the oracle
    >>> abs(auroc(y, s) - roc_auc_score(y, s)) < 1e-15
    True
    """
    return _unit(_auroc_from(_segments(y_true, y_score, pos_label, sample_weight)))



def roc_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> ROCCurve:
    """ROC curve vertices from (0, 0) (threshold +inf) to (1, 1), one per distinct threshold.

    Unlike scikit-learn's default (``drop_intermediate=True``) no collinear vertex is dropped.

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
    ROCCurve
        ``fpr``, ``tpr`` and ``thresholds`` of every vertex.

    Raises
    ------
    ValueError
        If the input is bad: NaN or infinite scores, lengths that differ, no rows, labels that are
        not binary, one class only, or negative or non-finite weights (the message names the
        problem).

    See Also
    --------
    auroc : The curve's area.
    all_curves : The ROC, PR and PRG curves from one sort.
    prspace.display.RocCurveDisplay : Draws the curve.

    Examples
    --------
    >>> from prspace.metrics import roc_curve
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> c = roc_curve(y, s)
    >>> c.fpr.round(3).tolist(), c.tpr.round(3).tolist()
    ([0.0, 0.0, 0.0, 0.333, 0.333, 0.667, 1.0], [0.0, 0.333, 0.667, 0.667, 1.0, 1.0, 1.0])
    >>> c.thresholds.tolist()
    [inf, 0.9, 0.8, 0.4, 0.35, 0.2, 0.1]
    >>> import numpy as np, sklearn.metrics  # the oracle: scikit-learn's curve with every vertex kept
    >>> fpr, tpr, thresholds = sklearn.metrics.roc_curve(y, s, drop_intermediate=False)
    >>> np.allclose(c.fpr, fpr) and np.allclose(c.tpr, tpr) and np.array_equal(c.thresholds, thresholds)
    True
    """
    return _roc_from(_binary_curve(y_true, y_score, pos_label, sample_weight))


def _roc_from(c: _Curve) -> ROCCurve:
    return ROCCurve(
        fpr=_prepend0(c.fps) / c.n_neg,
        tpr=_prepend0(c.tps) / c.n_pos,
        thresholds=np.r_[np.inf, c.thresholds],
    )

