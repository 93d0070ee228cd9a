"""Operating points of the ROC and PR curves: partial AUROC, sensitivity at a fixed specificity, precision at a
fixed recall, and the threshold table (pROC's ``coords``), from the kernel's tie groups.

Every function reads the cumulative counts at the distinct thresholds (:func:`prspace.metrics._kernel._binary_curve`,
ties one threshold) or, for many resamples at once, the per-tie-group counts ``tp``, ``fp`` of shape
``(B, K)`` (groups in decreasing order of score), as :func:`prspace.metrics.metrics_from_group_counts_batch`.

* **Partial AUROC** up to ``max_fpr`` (McClish 1989, "Analyzing a portion of the ROC curve", Med. Decis. Making
  9: 190-195): the area of the ROC curve over false positive rates ``[0, max_fpr]`` (the curve interpolated
  linearly at ``max_fpr``), standardised as ``(1 + (A - A_min) / (A_max - A_min)) / 2`` with ``A_min = max_fpr^2 /
  2`` (the diagonal's area) and ``A_max = max_fpr``: 0.5 for a random ranking, 1 for a perfect one.  This is
  scikit-learn's ``roc_auc_score(max_fpr=...)`` and pROC's ``auc(..., partial.auc = c(1, 1 - max_fpr),
  partial.auc.focus = "specificity", partial.auc.correct = TRUE)``.
* **Sensitivity at specificity s**: the largest true positive rate of a threshold whose specificity (1 - FPR) is at
  least ``s`` (what a threshold can achieve; Keras's ``SensitivityAtSpecificity``).  pROC's ``coords(x = s, input
  = "specificity")`` interpolates between the curve's points instead; the two agree where a threshold has
  specificity exactly ``s``.
* **Precision at recall r**: the largest precision of a threshold whose recall is at least ``r`` (Keras's
  ``PrecisionAtRecall``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from prspace.metrics._kernel import _binary_curve

__all__ = ["Coords", "coords", "partial_auroc", "partial_auroc_from_counts", "precision_at_recall",
           "precision_at_recall_from_counts", "sensitivity_at_specificity", "sensitivity_at_specificity_from_counts"]


def _cumulative(tp: ArrayLike, fp: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Cumulative counts with a leading 0 (the point before any threshold): ``(B, K + 1)`` each."""
    tp, fp = np.atleast_2d(np.asarray(tp, dtype=np.float64)), np.atleast_2d(np.asarray(fp, dtype=np.float64))
    if tp.shape != fp.shape or tp.ndim != 2:
        raise ValueError("tp and fp must be arrays (resamples x tie groups) of the same shape")
    zero = np.zeros((tp.shape[0], 1))
    return np.hstack([zero, np.cumsum(tp, axis=1)]), np.hstack([zero, np.cumsum(fp, axis=1)])


def _check_rate(x: float, name: str, *, open_low: bool = False) -> float:
    x = float(x)
    if not (0.0 < x <= 1.0 if open_low else 0.0 <= x <= 1.0):
        raise ValueError(f"{name} must lie in {'(0, 1]' if open_low else '[0, 1]'}, got {x}")
    return x


def partial_auroc_from_counts(tp: ArrayLike, fp: ArrayLike, max_fpr: float, *, standardized: bool = True) -> np.ndarray:
    """Partial AUROC over FPR ``[0, max_fpr]`` (module docstring) of each row of the group counts, McClish-standardised
    unless ``standardized=False`` (then the raw area, at most ``max_fpr``)."""
    m = _check_rate(max_fpr, "max_fpr", open_low=True)
    TP, FP = _cumulative(tp, fp)
    x, y = FP / FP[:, -1:], TP / TP[:, -1:]
    x0, x1, y0, y1 = x[:, :-1], x[:, 1:], y[:, :-1], y[:, 1:]
    with np.errstate(invalid="ignore", divide="ignore"):
        ym = np.where(x1 > x0, y0 + (y1 - y0) * (m - x0) / (x1 - x0), y1)
    full = (x1 <= m)
    part = (x0 < m) & ~full
    area = np.where(full, (x1 - x0) * (y0 + y1) / 2, 0.0) + np.where(part, (m - x0) * (y0 + ym) / 2, 0.0)
    a = area.sum(axis=1)
    if not standardized or m == 1.0:
        return a
    lo, hi = 0.5 * m * m, m
    return 0.5 * (1 + (a - lo) / (hi - lo))


def sensitivity_at_specificity_from_counts(tp: ArrayLike, fp: ArrayLike, specificity: float) -> np.ndarray:
    """Largest TPR of a threshold with specificity at least ``specificity``, per row of the group counts."""
    s = _check_rate(specificity, "specificity")
    TP, FP = _cumulative(tp, fp)
    ok = 1.0 - FP / FP[:, -1:] >= s - 1e-12
    return np.where(ok, TP / TP[:, -1:], -np.inf).max(axis=1)


def precision_at_recall_from_counts(tp: ArrayLike, fp: ArrayLike, recall: float) -> np.ndarray:
    """Largest precision of a threshold with recall at least ``recall`` (> 0), per row of the group counts."""
    r = _check_rate(recall, "recall", open_low=True)
    TP, FP = _cumulative(tp, fp)
    TP, FP = TP[:, 1:], FP[:, 1:]
    ok = TP / TP[:, -1:] >= r - 1e-12
    with np.errstate(invalid="ignore", divide="ignore"):
        prec = np.where(ok & (TP + FP > 0), TP / (TP + FP), -np.inf)
    return prec.max(axis=1)


def _counts(y_true: ArrayLike, y_score: ArrayLike, pos_label: Any, sample_weight: ArrayLike | None):
    c = _binary_curve(y_true, y_score, pos_label, sample_weight)
    return np.diff(c.tps, prepend=0.0)[None, :], np.diff(c.fps, prepend=0.0)[None, :], c


def partial_auroc(y_true: ArrayLike, y_score: ArrayLike, *, max_fpr: float, standardized: bool = True,
                  pos_label: Any = None, sample_weight: ArrayLike | None = None) -> float:
    """Partial AUROC up to ``max_fpr``, McClish-standardised (module docstring).

    Equal to scikit-learn's ``roc_auc_score(y_true, y_score, max_fpr=max_fpr)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels: {0, 1}, {-1, 1} or {False, True} (the greater is the positive class), or any
        two labels with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores, larger meaning more positive: only their order matters, and tied scores form one
        threshold.
    max_fpr : float
        The largest false positive rate, in (0, 1].
    standardized : bool, default=True
        McClish's standardisation (0.5 random, 1 perfect); False: the raw area, at most ``max_fpr``.
    pos_label : int, float, bool or str, default=None
        The label of the positive class; None: the greater of {0, 1}, {-1, 1} or {False, True}.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite row weights (a row of weight 0 is dropped; an integer weight equals
        repeating the row); None weighs every row 1.

    Returns
    -------
    float
        The partial area.

    Raises
    ------
    ValueError
        If the input is bad (as :func:`auroc`) or ``max_fpr`` is not in (0, 1].

    See Also
    --------
    auroc : The whole area.
    sensitivity_at_specificity : The curve at one specificity.

    References
    ----------
    McClish, D. K. (1989). Analyzing a portion of the ROC curve. Medical Decision Making 9: 190-195.

    Examples
    --------
    >>> from prspace.metrics import partial_auroc
    >>> y, s = [0, 0, 1, 1, 0, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.7, 0.6]
    >>> from sklearn.metrics import roc_auc_score  # the oracle
    >>> abs(partial_auroc(y, s, max_fpr=0.3) - roc_auc_score(y, s, max_fpr=0.3)) < 1e-12
    True
    """
    tp, fp, _ = _counts(y_true, y_score, pos_label, sample_weight)
    return float(partial_auroc_from_counts(tp, fp, max_fpr, standardized=standardized)[0])


def sensitivity_at_specificity(y_true: ArrayLike, y_score: ArrayLike, *, specificity: float, pos_label: Any = None,
                               sample_weight: ArrayLike | None = None) -> float:
    """The largest sensitivity (TPR) of a threshold whose specificity is at least ``specificity``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels: {0, 1}, {-1, 1} or {False, True} (the greater is the positive class), or any
        two labels with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores, larger meaning more positive: only their order matters, and tied scores form one
        threshold.
    specificity : float
        The smallest specificity, in [0, 1].
    pos_label : int, float, bool or str, default=None
        The label of the positive class; None: the greater of {0, 1}, {-1, 1} or {False, True}.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite row weights (a row of weight 0 is dropped; an integer weight equals
        repeating the row); None weighs every row 1.

    Returns
    -------
    float
        The largest sensitivity.

    Raises
    ------
    ValueError
        If the input is bad (as :func:`auroc`) or ``specificity`` is not in [0, 1].

    See Also
    --------
    roc_curve : The ROC curve's vertices.
    precision_at_recall : The PR counterpart.

    Examples
    --------
    >>> from prspace.metrics import sensitivity_at_specificity
    >>> y, s = [0, 0, 1, 1, 0, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.7, 0.6]
    >>> sensitivity_at_specificity(y, s, specificity=0.75)  # threshold 0.6: 3 of 4 positives, 3 of 4 negatives below
    0.75
    """
    tp, fp, _ = _counts(y_true, y_score, pos_label, sample_weight)
    return float(sensitivity_at_specificity_from_counts(tp, fp, specificity)[0])


def precision_at_recall(y_true: ArrayLike, y_score: ArrayLike, *, recall: float, pos_label: Any = None,
                        sample_weight: ArrayLike | None = None) -> float:
    """The largest precision of a threshold whose recall is at least ``recall``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels: {0, 1}, {-1, 1} or {False, True} (the greater is the positive class), or any
        two labels with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores, larger meaning more positive: only their order matters, and tied scores form one
        threshold.
    recall : float
        The smallest recall, in [0, 1].
    pos_label : int, float, bool or str, default=None
        The label of the positive class; None: the greater of {0, 1}, {-1, 1} or {False, True}.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite row weights (a row of weight 0 is dropped; an integer weight equals
        repeating the row); None weighs every row 1.

    Returns
    -------
    float
        The largest precision.

    Raises
    ------
    ValueError
        If the input is bad (as :func:`auroc`) or ``recall`` is not in [0, 1].

    See Also
    --------
    pr_curve : The PR curve's vertices.
    sensitivity_at_specificity : The ROC counterpart.

    Examples
    --------
    >>> from prspace.metrics import precision_at_recall
    >>> y, s = [0, 0, 1, 1, 0, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.7, 0.6]
    >>> precision_at_recall(y, s, recall=0.5)  # threshold 0.8: 2 positives, no negative
    1.0
    """
    tp, fp, _ = _counts(y_true, y_score, pos_label, sample_weight)
    return float(precision_at_recall_from_counts(tp, fp, recall)[0])


class Coords(NamedTuple):
    """The threshold table (pROC's ``coords(roc, "all")``), one entry per distinct score.

    One entry per distinct score, decreasing; a row is predicted positive when its score is at least
    ``threshold``.

    Parameters
    ----------
    threshold : ndarray of shape (n_thresholds,)
        Each distinct score, decreasing.
    tp, fp, tn, fn : ndarray of shape (n_thresholds,)
        The (weighted) confusion counts at each threshold.
    sensitivity, specificity : ndarray of shape (n_thresholds,)
        True positive rate and 1 - false positive rate.
    precision, npv : ndarray of shape (n_thresholds,)
        Positive and negative predictive value (NaN where nothing is predicted negative).

    See Also
    --------
    coords : Computes the table.

    Examples
    --------
    >>> from prspace.metrics import Coords, coords
    >>> c = coords([0, 1, 1, 0], [0.2, 0.9, 0.5, 0.5])
    >>> isinstance(c, Coords), c.tp.tolist()
    (True, [1.0, 2.0, 2.0])
    """

    threshold: NDArray[np.float64]
    tp: NDArray[np.float64]
    fp: NDArray[np.float64]
    tn: NDArray[np.float64]
    fn: NDArray[np.float64]
    sensitivity: NDArray[np.float64]
    specificity: NDArray[np.float64]
    precision: NDArray[np.float64]
    npv: NDArray[np.float64]


def coords(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Any = None,
           sample_weight: ArrayLike | None = None) -> Coords:
    """Every threshold's confusion counts and rates (:class:`Coords`).

    ``pandas.DataFrame(coords(y, s)._asdict())`` is pROC's table. NPV of the last threshold (nothing
    predicted negative) is NaN.

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
    Coords
        The threshold table.

    Raises
    ------
    ValueError
        If the input is bad: NaN or infinite scores, lengths that differ, no rows, labels that are
        not binary, one class only, or negative or non-finite weights (the message names the
        problem).

    See Also
    --------
    roc_curve : The ROC curve's vertices.
    sensitivity_at_specificity : One operating point.

    Examples
    --------
    >>> from prspace.metrics import coords
    >>> c = coords([0, 1, 1, 0], [0.2, 0.9, 0.5, 0.5])
    >>> c.threshold.tolist(), c.sensitivity.tolist(), c.specificity.tolist()
    ([0.9, 0.5, 0.2], [0.5, 1.0, 1.0], [1.0, 0.5, 0.0])
    """
    _, _, c = _counts(y_true, y_score, pos_label, sample_weight)
    tp, fp = c.tps, c.fps
    fn, tn = c.n_pos - tp, c.n_neg - fp
    with np.errstate(invalid="ignore", divide="ignore"):
        npv = np.where(tn + fn > 0, tn / (tn + fn), np.nan)
    return Coords(c.thresholds.astype(np.float64), tp, fp, tn, fn, tp / c.n_pos, tn / c.n_neg, tp / (tp + fp), npv)
