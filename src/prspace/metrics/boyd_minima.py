"""Boyd et al. (2012): the unachievable region of PR space (minimum PR curve, AUPR_MIN, AP_MIN)
and the normalised area AUCNPR (Theorems 1-3 and Corollary 4 of section 2, AUCNPR of section 3)."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from prspace.metrics._kernel import _check_recall_range, _Segments, _segments, _unit
from prspace.metrics.pr import MinPRCurve, _aupr_from

__all__ = ["MinPRCurve", "aupr_min", "ap_min", "min_pr_curve", "aucnpr"]




# --------------------------------------------------------------------------------------------


def aupr_min(pi: ArrayLike, recall_range: tuple[float, float] = (0.0, 1.0)) -> Any:
    """Minimum area under the PR curve for class skew ``pi`` (Boyd et al. 2012).

    The area under the minimum PR curve p = pi r / (1 - pi + pi r) (Theorem 1) over recall in
    [a, b] (Theorem 2 for [0, 1], Corollary 4 in general):

        AUCPR_MIN = (b - a) + (1 - pi) / pi * ln((pi (a - 1) + 1) / (pi (b - 1) + 1)),

    which for [0, 1] is 1 + (1 - pi) ln(1 - pi) / pi. Vectorised over ``pi`` in (0, 1]; returns
    a float for scalar ``pi``.

    Parameters
    ----------
    pi : float or array-like
        Class skew (fraction of positives), in (0, 1].
    recall_range : tuple of float, default=(0.0, 1.0)
        The recalls [a, b] integrated over (0 <= a < b <= 1).

    Returns
    -------
    float or ndarray
        AUPR_MIN: a float for scalar ``pi``, else an array of its shape.

    Raises
    ------
    ValueError
        If a skew is not in (0, 1] or ``recall_range`` is not 0 <= a < b <= 1.

    See Also
    --------
    min_pr_curve : The curve whose area this is.
    ap_min : The minimum average precision.
    aucnpr : AUPR normalised by this minimum.

    References
    ----------
    Boyd, K., Santos Costa, V., Davis, J. and Page, D. (2012). Unachievable region in precision-
    recall space and its effect on empirical evaluation. ICML. Theorems 1-2 and Corollary 4.

    Examples
    --------
    >>> from prspace.metrics import aupr_min
    >>> round(aupr_min(0.5), 6)  # 1 - ln 2
    0.306853
    >>> round(aupr_min(0.1), 6), round(aupr_min(0.1, recall_range=(0.0, 0.5)), 6)
    (0.051755, 0.013395)
    >>> aupr_min(1.0)
    1.0
    """
    a, b = _check_recall_range(recall_range)
    pi_arr = np.asarray(pi, dtype=np.float64)
    if not np.all((pi_arr > 0.0) & (pi_arr <= 1.0)):
        raise ValueError("pi must lie in (0, 1]: pi = 0 means no positives and no PR curve")
    with np.errstate(divide="ignore", invalid="ignore"):
        log_ratio = np.log1p(-pi_arr * (1.0 - a)) - np.log1p(-pi_arr * (1.0 - b))
        out = (b - a) + (1.0 - pi_arr) / pi_arr * log_ratio
    out = np.where(pi_arr == 1.0, b - a, out)  # all positives: the minimum curve is p = 1
    # For small pi the two terms above cancel (relative error ~ 1e-16 / pi). There, with
    # q = pi / (1 - pi), integrate q r / (1 + q r) = sum_k (-1)^(k+1) (q r)^k term by term.
    small = pi_arr < 0.2
    if np.any(small):
        q = pi_arr[small] / (1.0 - pi_arr[small]) if out.ndim else pi_arr / (1.0 - pi_arr)
        series = np.zeros_like(q)
        for k in range(32, 0, -1):  # q < 0.25: the first omitted term is below 1e-19
            series += (-1.0) ** (k + 1) * q**k * (b ** (k + 1) - a ** (k + 1)) / (k + 1)
        if out.ndim:
            out[small] = series
        else:
            out = series
    if out.ndim == 0:
        return float(out)
    return out


def ap_min(n_pos: int, n_neg: int) -> float:
    """Minimum average precision (Boyd et al. 2012, Theorem 3).

    AP_MIN = (1 / pos) sum_{i=1}^{pos} i / (i + neg): every negative ranked above every
    positive. ``n_pos`` >= 1 and ``n_neg`` >= 0 must be integers (the sum has pos terms).

    Parameters
    ----------
    n_pos : int
        Number of positives, at least 1.
    n_neg : int
        Number of negatives, at least 0.

    Returns
    -------
    float
        AP_MIN, in (0, 1].

    Raises
    ------
    ValueError
        If a count is not a whole number or out of range.

    See Also
    --------
    aupr_min : The minimum area under the PR curve.
    average_precision : Average precision.

    References
    ----------
    Boyd et al. (2012), Theorem 3.

    Examples
    --------
    >>> from prspace.metrics import ap_min
    >>> round(ap_min(3, 3), 6)  # (1/4 + 2/5 + 3/6) / 3
    0.383333
    >>> ap_min(2, 0)
    1.0
    """
    for name, v, low in (("n_pos", n_pos, 1), ("n_neg", n_neg, 0)):
        if not np.isscalar(v) or isinstance(v, (bool, np.bool_)):
            raise ValueError(f"{name} must be an integer scalar, got {v!r}")
        if not float(v).is_integer() or v < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {v!r}")
    pos, neg = int(n_pos), int(n_neg)
    i = np.arange(1, pos + 1, dtype=np.float64)
    return float(np.sum(i / (i + neg)) / pos)


def min_pr_curve(pi: float, recall: ArrayLike | None = None) -> MinPRCurve:
    """Boyd et al. (2012) Theorem 1: the minimum precision pi r / (1 - pi + pi r) at recall r.

    ``recall`` defaults to 201 points evenly spaced in [0, 1].

    Parameters
    ----------
    pi : float
        Class skew, in (0, 1].
    recall : array-like, default=None
        Recalls in [0, 1]; None: 201 points evenly spaced.

    Returns
    -------
    MinPRCurve
        ``recall`` and the minimum ``precision``.

    Raises
    ------
    ValueError
        If ``pi`` is not in (0, 1] or a recall is not in [0, 1].

    See Also
    --------
    aupr_min : The area under this curve.
    prspace.display.PrecisionRecallDisplay : Shades the region under it.

    Examples
    --------
    >>> from prspace.metrics import min_pr_curve
    >>> c = min_pr_curve(0.5, [0.0, 0.5, 1.0])
    >>> c.precision.round(6).tolist()
    [0.0, 0.333333, 0.5]
    """
    pi = float(pi)
    if not (0.0 < pi <= 1.0):
        raise ValueError(f"pi must lie in (0, 1], got {pi!r}")
    r = np.linspace(0.0, 1.0, 201) if recall is None else np.asarray(recall, dtype=np.float64)
    if r.size and not (np.all(np.isfinite(r)) and r.min() >= 0.0 and r.max() <= 1.0):
        raise ValueError("recall values must lie in [0, 1]")
    return MinPRCurve(r, pi * r / (1.0 - pi + pi * r))


# --------------------------------------------------------------------------------------------
# Public metrics
# --------------------------------------------------------------------------------------------



@functools.lru_cache(maxsize=4096)
def _aupr_min_remembered(pi: float, a: float, b: float, *, as_array: bool = False) -> Any:
    """:func:`aupr_min` of one skew over recall ``[a, b]``, remembered: the one home of its memo.  A study
    scores every model on the same folds (Boyd's fold-skew runs: 30 models x 250 folds a task, a few distinct
    skews; a jackknife of millions of rows scores its replicates one at a time, a few skews among thousands),
    and the 32-term series of a small ``pi`` cost as much as the rest of the kernel.

    ``as_array``: evaluated as a one-value float64 array (read-only), as the batch kernel of
    :mod:`prspace.metrics.headline` evaluates it; without it as a float, as :func:`_aucnpr_from` does.  The
    two evaluations run numpy's vector loops or its scalar arithmetic and can differ in the last bit (4 of
    24,997 skews on an AVX-512 machine, 2026-11-28), so each caller keeps the bits of its own call.
    """
    if not as_array:
        return aupr_min(pi, (a, b))
    out = np.asarray(aupr_min(np.array([pi], dtype=np.float64), (a, b)), dtype=np.float64)
    out.setflags(write=False)
    return out


def _aucnpr_from(g: _Segments, a: float, b: float, area: float | None = None) -> float:
    pi = g.n_pos / (g.n_pos + g.n_neg)
    if area is None:
        area = _aupr_from(g, "hyperbolic", a, b)
    lo = _aupr_min_remembered(float(pi), float(a), float(b))
    return _unit(float((area - lo) / ((b - a) - lo)))


def aucnpr(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    recall_range: tuple[float, float] = (0.0, 1.0),
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Normalised AUPR (Boyd et al. 2012, section 3).

    AUCNPR = (AUPR - AUPR_MIN) / (AUPR_MAX - AUPR_MIN) with the hyperbolic AUPR over recall
    in [a, b], AUPR_MAX = b - a and AUPR_MIN = :func:`aupr_min` at the (weighted) skew pi.
    The worst ranking scores 0 and the perfect ranking 1.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels: {0, 1}, {-1, 1} or {False, True} (the greater is the positive class), or any
        two labels with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores, larger meaning more positive: only their order matters, and tied scores form one
        threshold.
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
        AUCNPR, in [0, 1].

    Raises
    ------
    ValueError
        If the input is bad (as :func:`auroc`) or ``recall_range`` is not 0 <= a < b <= 1.

    See Also
    --------
    aupr : The hyperbolic AUPR.
    aupr_min : The minimum it is normalised by.

    References
    ----------
    Boyd et al. (2012), section 3.

    Examples
    --------
    >>> from prspace.metrics import aucnpr, aupr, aupr_min
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> round(aucnpr(y, s), 6)
    0.861654
    >>> round((aupr(y, s) - aupr_min(0.5)) / (1 - aupr_min(0.5)), 6)  # the definition
    0.861654
    """
    a, b = _check_recall_range(recall_range)
    return _aucnpr_from(_segments(y_true, y_score, pos_label, sample_weight), a, b)


