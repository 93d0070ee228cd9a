"""The gains of a contingency table (Flach and Kull 2015): precision gain and recall gain (Definition 1)
and the F-Gain score (Theorem 2), vectorised over arrays of tables."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["precision_gain", "recall_gain", "fg_score"]


def _counts(tp: ArrayLike, fn: ArrayLike, fp: ArrayLike, tn: ArrayLike):
    arrs = [np.asarray(v, dtype=np.float64) for v in (tp, fn, fp, tn)]
    for name, v in zip(("tp", "fn", "fp", "tn"), arrs, strict=True):
        if not np.all(np.isfinite(v)) or np.any(v < 0):
            raise ValueError(f"{name} must be finite and non-negative")
    tp_, fn_, fp_, tn_ = np.broadcast_arrays(*arrs)
    if np.any(tp_ + fn_ == 0) or np.any(fp_ + tn_ == 0):
        raise ValueError(
            "each contingency table needs at least one positive (tp + fn > 0) and one "
            "negative (fp + tn > 0); the gains are undefined otherwise"
        )
    return tp_, fn_, fp_, tn_


def _scalar_or_array(x: np.ndarray) -> Any:
    return float(x) if x.ndim == 0 else x


def precision_gain(tp: ArrayLike, fn: ArrayLike, fp: ArrayLike, tn: ArrayLike) -> Any:
    """Precision gain (Flach and Kull 2015, Definition 1), vectorised.

    precG = (prec - pi) / ((1 - pi) prec) = 1 - pi / (1 - pi) * FP / TP. TP = 0 gives -inf
    (or NaN if FP = 0 too); the all-positive table (tn + fn = 0) gives exactly 0.

    Parameters
    ----------
    tp : array-like
        True positives.
    fn : array-like
        False negatives.
    fp : array-like
        False positives.
    tn : array-like
        True negatives.

    Returns
    -------
    float or ndarray
        Precision gain: a float for scalar counts.

    Raises
    ------
    ValueError
        If a count is negative or not finite, or there are no positives (tp + fn = 0) or no
        negatives (fp + tn = 0).

    See Also
    --------
    recall_gain : The recall gain of the same table.
    fg_score : The F-Gain score.

    References
    ----------
    Flach, P. and Kull, M. (2015). Precision-Recall-Gain curves: PR analysis done right. NIPS.

    Examples
    --------
    >>> from prspace.metrics import precision_gain
    >>> precision_gain(tp=2, fn=1, fp=1, tn=2)  # precision 2/3 at pi = 1/2
    0.5
    >>> precision_gain([2, 3], [1, 0], [1, 3], [2, 0]).tolist()  # the second: all positive
    [0.5, 0.0]
    """
    tp_, fn_, fp_, tn_ = _counts(tp, fn, fp, tn)
    with np.errstate(divide="ignore", invalid="ignore"):
        g = 1.0 - ((tp_ + fn_) / (fp_ + tn_)) * (fp_ / tp_)
    g = np.where(tn_ + fn_ == 0, 0.0, g)
    return _scalar_or_array(g)


def recall_gain(tp: ArrayLike, fn: ArrayLike, fp: ArrayLike, tn: ArrayLike) -> Any:
    """Recall gain (Flach and Kull 2015, Definition 1), vectorised.

    recG = (rec - pi) / ((1 - pi) rec) = 1 - pi / (1 - pi) * FN / TP. TP = 0 gives -inf; the
    all-positive table (tn + fn = 0) gives exactly 1.

    Parameters
    ----------
    tp : array-like
        True positives.
    fn : array-like
        False negatives.
    fp : array-like
        False positives.
    tn : array-like
        True negatives.

    Returns
    -------
    float or ndarray
        Recall gain: a float for scalar counts.

    Raises
    ------
    ValueError
        If a count is negative or not finite, or there are no positives (tp + fn = 0) or no
        negatives (fp + tn = 0).

    See Also
    --------
    precision_gain : The precision gain of the same table.
    fg_score : The F-Gain score.

    References
    ----------
    Flach, P. and Kull, M. (2015). Precision-Recall-Gain curves: PR analysis done right. NIPS.

    Examples
    --------
    >>> from prspace.metrics import recall_gain
    >>> recall_gain(tp=2, fn=1, fp=1, tn=2)  # recall 2/3 at pi = 1/2
    0.5
    >>> recall_gain([2, 3], [1, 0], [1, 3], [2, 0]).tolist()
    [0.5, 1.0]
    """
    tp_, fn_, fp_, tn_ = _counts(tp, fn, fp, tn)
    with np.errstate(divide="ignore", invalid="ignore"):
        g = 1.0 - ((tp_ + fn_) / (fp_ + tn_)) * (fn_ / tp_)
    g = np.where(tn_ + fn_ == 0, 1.0, g)
    return _scalar_or_array(g)


def fg_score(tp: ArrayLike, fn: ArrayLike, fp: ArrayLike, tn: ArrayLike, beta: float = 1.0) -> Any:
    """F-Gain score FG_beta (Flach and Kull 2015, Theorem 2), vectorised.

    FG_beta = (F_beta - pi) / ((1 - pi) F_beta) = 1 - pi / (1 - pi) * (FP + beta^2 FN) /
    ((1 + beta^2) TP), and precG + beta^2 recG = (1 + beta^2) FG_beta.

    Parameters
    ----------
    tp : array-like
        True positives.
    fn : array-like
        False negatives.
    fp : array-like
        False positives.
    tn : array-like
        True negatives.
    beta : float, default=1.0
        Weight of recall, positive and finite.

    Returns
    -------
    float or ndarray
        FG_beta: a float for scalar counts.

    Raises
    ------
    ValueError
        If a count is bad (as :func:`precision_gain`) or ``beta`` is not positive and finite.

    See Also
    --------
    precision_gain : Precision gain.
    recall_gain : Recall gain.

    References
    ----------
    Flach, P. and Kull, M. (2015). Precision-Recall-Gain curves: PR analysis done right. NIPS.

    Examples
    --------
    >>> from prspace.metrics import fg_score
    >>> fg_score(tp=2, fn=1, fp=1, tn=2)  # (precG + recG) / 2
    0.5
    >>> round(fg_score(tp=3, fn=0, fp=1, tn=2, beta=2.0), 6)  # (precG + 4 recG) / 5 = (2/3 + 4) / 5
    0.933333
    """
    beta = float(beta)
    if not (np.isfinite(beta) and beta > 0):
        raise ValueError(f"beta must be a positive finite number, got {beta!r}")
    tp_, fn_, fp_, tn_ = _counts(tp, fn, fp, tn)
    b2 = beta * beta
    with np.errstate(divide="ignore", invalid="ignore"):
        g = 1.0 - ((tp_ + fn_) / (fp_ + tn_)) * ((fp_ + b2 * fn_) / ((1.0 + b2) * tp_))
    return _scalar_or_array(g)
