"""Every curve of one model's scores from one sort: ROC, PR and PRG (:func:`all_curves`)."""

from __future__ import annotations

from typing import Any

from numpy.typing import ArrayLike

from prspace.metrics._kernel import _binary_curve
from prspace.metrics.pr import PRCurve, _pr_from
from prspace.metrics.prg import PRGCurve, _prg_curve_from
from prspace.metrics.roc import ROCCurve, _roc_from

__all__ = ["all_curves"]


def all_curves(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> tuple[ROCCurve, PRCurve, PRGCurve]:
    """The ROC, PR and PRG curves from one sort of the scores.

    Each is equal to
    :func:`~prspace.metrics.roc_curve`, :func:`~prspace.metrics.pr_curve` and
    :func:`~prspace.metrics.prg_curve` of the same arguments (the kernel's tie groups computed once,
    not three times: a figure of a model's three curves at 10^6 rows sorts once).

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
    roc : ROCCurve
        As :func:`~prspace.metrics.roc_curve`.
    pr : PRCurve
        As :func:`~prspace.metrics.pr_curve`.
    prg : PRGCurve
        As :func:`~prspace.metrics.prg_curve`.

    Raises
    ------
    ValueError
        If the input is bad: NaN or infinite scores, lengths that differ, no rows, labels that are
        not binary, one class only, or negative or non-finite weights (the message names the
        problem).

    See Also
    --------
    roc_curve : The ROC curve alone.
    pr_curve : The PR curve alone.
    prg_curve : The PRG curve alone.

    Examples
    --------
    >>> import numpy as np
    >>> from prspace.metrics import all_curves, pr_curve, prg_curve, roc_curve
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> roc, pr, prg = all_curves(y, s)
    >>> roc.tpr.round(3).tolist(), pr.precision.round(3).tolist()
    ([0.0, 0.333, 0.667, 0.667, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 0.667, 0.75, 0.6, 0.5])
    >>> all(np.array_equal(a, b, equal_nan=True) for one, other in zip((roc, pr, prg),
    ...     (roc_curve(y, s), pr_curve(y, s), prg_curve(y, s))) for a, b in zip(one, other))
    True
    """
    c = _binary_curve(y_true, y_score, pos_label, sample_weight)
    return _roc_from(c), _pr_from(c), _prg_curve_from(c)
