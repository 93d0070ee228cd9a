"""DeLong's variance of AUROCs: the AUROCs of k models scored on the same rows and their covariance
matrix (DeLong, DeLong and Clarke-Pearson 1988), by the fast algorithm of Sun and Xu (IEEE SPL
21(11), 2014).

The placement values come from three midrank computations per model, O(n log n) instead of
O(m n): ``V10_i = (T_Z(x_i) - T_X(x_i)) / n`` for the m positives, ``V01_j = 1 - (T_Z(y_j) -
T_Y(y_j)) / m`` for the n negatives, where ``T_Z``, ``T_X``, ``T_Y`` are midranks among all rows,
the positives and the negatives; then ``S = cov(V10) / m + cov(V01) / n``.  The same as R's pROC
``ci.auc(method="delong")`` and ``roc.test(method="delong", paired=TRUE)``
(``tests/audit/test_audit_stats.py`` checks it against pROC).  Its intervals are
:func:`prspace.stats.intervals.normal_interval` and :func:`~prspace.stats.intervals.logit_interval`;
its paired tests :func:`prspace.stats.pairwise.delong_pairs`.
"""

from __future__ import annotations

import numpy as np


def delong(y: np.ndarray, scores: np.ndarray, groups: list[np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """AUROCs of the k rows of ``scores`` (k x n) on labels ``y`` and their k x k covariance.  ``groups``: per
    row, its scores' tie groups (0 = highest score: ``np.unique(-score, return_inverse=True)[1]``, a
    :class:`~prspace.stats.replicates.Block`'s ``groups``), from which the ranks are read instead of sorting
    the scores again (the same tie groups, reversed: the same numbers); ``scores`` is then not read."""
    y = np.asarray(y, dtype=bool)
    if groups is None:
        scores = np.atleast_2d(np.asarray(scores, dtype=np.float64))
    k = scores.shape[0] if groups is None else len(groups)
    m = int(np.count_nonzero(y))
    n = y.size - m
    auc, v10, v01 = _components(scores, y, groups)
    if m < 2 or n < 2:  # one positive or one negative: DeLong's variance is undefined
        return auc, np.full((k, k), np.nan)
    cov = np.atleast_2d(_cov_in_place(v10)) / m + np.atleast_2d(_cov_in_place(v01)) / n
    return auc, cov


def _cov_in_place(x: np.ndarray) -> np.ndarray:
    """``np.cov(x)`` of a k x n float64 array (n >= 2) with numpy's operations, centring ``x`` itself (its values
    are lost) instead of a copy of it: the k x n negatives' components are not held twice."""
    avg = np.average(x, axis=1)
    x -= avg[:, None]
    c = np.dot(x, x.T.conj())
    c *= np.true_divide(1, x.shape[1] - 1)
    return c.squeeze()


def _components(scores: np.ndarray, y: np.ndarray,
                groups: list[np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row of ``scores`` (k x n), the AUROC and DeLong's structural components of its positives
    (``V10``, k x m) and negatives (``V01``, k x n), from the midranks (ties averaged, as
    ``scipy.stats.rankdata``) of its positives then negatives among all, of its positives among the
    positives and of its negatives among the negatives: one sort per row (its tie groups) instead of
    three.  A midrank is ``rows below + (tied rows + 1) / 2``, a half-integer, exact in float64 however it
    is computed: the values are rankdata's.  One row at a time, so that only the components are held (not
    the three k x n midrank arrays as well); the same operations on each element as on the whole arrays."""
    k = scores.shape[0] if groups is None else len(groups)
    m = int(y.sum())
    n = y.size - m
    auc = np.empty(k)
    v10 = np.empty((k, m))
    v01 = np.empty((k, n))
    for i in range(k):
        if groups is None:
            _, inv, count = np.unique(scores[i], return_inverse=True, return_counts=True)
            inv = inv.ravel()
        else:  # tie groups from the highest score: reversed, np.unique's codes from the lowest (no sort)
            n_groups = int(groups[i].max()) + 1
            inv = (n_groups - 1) - groups[i].astype(np.int64)
            count = np.bincount(inv, minlength=n_groups)
        count_pos = np.bincount(inv[y], minlength=count.size)
        mids = []
        for c in (count, count_pos, count - count_pos):
            mids.append((np.cumsum(c) - c) + (c + 1) / 2.0)
        pos = inv[y]
        tz = mids[0][pos]
        auc[i] = (tz.sum() - m * (m + 1) / 2.0) / (m * n)
        np.subtract(tz, mids[1][pos], out=v10[i])
        v10[i] /= n
        del pos, tz
        neg = inv[~y]
        np.subtract(mids[0][neg], mids[2][neg], out=v01[i])  # 1 - (tz - ty) / m, row by row
        v01[i] /= m
        np.subtract(1.0, v01[i], out=v01[i])
    return auc, v10, v01
