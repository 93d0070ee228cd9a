"""The curves of :mod:`prspace.stats.bands` at grid points, from cumulative counts: one resample's
(:data:`_KERNELS`) and many resamples' at once (:data:`_ROW_KERNELS`, every value the one the single kernel
gives; only the binary search runs per row).  The interpolation is the package docstring's, step 3."""

from __future__ import annotations

import numpy as np

# --------------------------------------------------------------------------------------------
# The curves at grid points, from cumulative counts (TP0, FP0: k = 0 .. K, starting at 0)
# --------------------------------------------------------------------------------------------


def _roc_at(tp0: np.ndarray, fp0: np.ndarray, grid: np.ndarray) -> np.ndarray:
    x, y = fp0 / fp0[-1], tp0 / tp0[-1]
    i = np.searchsorted(x, grid, side="right") - 1  # last point with FPR <= f: the upper end
    j = np.minimum(i + 1, x.size - 1)
    exact = x[i] == grid
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(exact, 0.0, (grid - x[i]) / (x[j] - x[i]))
    return y[i] + t * (y[j] - y[i])


def _fp_where_tp(tp0: np.ndarray, fp0: np.ndarray, j: np.ndarray, tp: np.ndarray, exact: np.ndarray) -> np.ndarray:
    """FP on the contingency-table interpolation where TP = ``tp`` is first reached (in segment j - 1 -> j)."""
    a = np.maximum(j - 1, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = (fp0[j] - fp0[a]) / (tp0[j] - tp0[a])
        fp = fp0[a] + (tp - tp0[a]) * slope
    return np.where(exact, fp0[j], fp)


def _pr_at(tp0: np.ndarray, fp0: np.ndarray, grid: np.ndarray) -> np.ndarray:
    p = tp0[-1]
    rec = tp0 / p
    j = np.searchsorted(rec, grid, side="left")  # first point with recall >= r: the upper end
    exact = rec[j] == grid
    tp = grid * p
    fp = _fp_where_tp(tp0, fp0, j, tp, exact)
    tp = np.where(exact, tp0[j], tp)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = tp / (tp + fp)
    zero = grid == 0.0
    if zero.any():  # recall 0: the limit from the right (first-point rule)
        k = int(np.argmax(tp0 > 0))
        first = 0.0 if fp0[k - 1] > 0 else tp0[k] / (tp0[k] + fp0[k])
        out = np.where(zero, first, out)
    return out


def _prg_at(tp0: np.ndarray, fp0: np.ndarray, grid: np.ndarray) -> np.ndarray:
    p, nn = tp0[-1], fp0[-1]
    r = p / nn
    with np.errstate(divide="ignore", invalid="ignore"):
        rg = np.where(tp0 > 0, 1.0 - r * ((p - tp0) / tp0), -np.inf)
    rg[-1] = 1.0  # the all-positive point is exactly (1, 0); rounding must not move it
    j = np.searchsorted(rg, grid, side="left")  # first point with recall gain >= g
    exact = rg[j] == grid
    tp = p * p / (p + (1.0 - grid) * nn)  # recall gain g <=> TP = P^2 / (P + (1 - g) N)
    fp = _fp_where_tp(tp0, fp0, j, tp, exact)
    tp = np.where(exact, tp0[j], tp)
    out = 1.0 - r * (fp / tp)
    return np.where(exact & (j == tp0.size - 1), 0.0, out)


_KERNELS = {"roc": _roc_at, "pr": _pr_at, "prg": _prg_at}


# The same curves for many resamples at once (rows of ``tp0``, ``fp0``: (resamples, K + 1)): every value is the
# one the kernel above gives for that row (the same elementwise operations; only the binary search runs per row).


def _at(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    return np.take_along_axis(a, idx, axis=1)


def _search_rows(a: np.ndarray, grid: np.ndarray, side: str) -> np.ndarray:
    out = np.empty((a.shape[0], grid.size), dtype=np.intp)
    for r in range(a.shape[0]):
        out[r] = np.searchsorted(a[r], grid, side=side)
    return out


def _roc_rows(tp0: np.ndarray, fp0: np.ndarray, grid: np.ndarray) -> np.ndarray:
    x, y = fp0 / fp0[:, -1:], tp0 / tp0[:, -1:]
    i = _search_rows(x, grid, "right") - 1
    j = np.minimum(i + 1, x.shape[1] - 1)
    xi, xj = _at(x, i), _at(x, j)
    exact = xi == grid
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(exact, 0.0, (grid - xi) / (xj - xi))
    yi = _at(y, i)
    return yi + t * (_at(y, j) - yi)


def _fp_where_tp_rows(tp0: np.ndarray, fp0: np.ndarray, j: np.ndarray, tp: np.ndarray,
                      exact: np.ndarray) -> np.ndarray:
    a = np.maximum(j - 1, 0)
    fa, fj, ta = _at(fp0, a), _at(fp0, j), _at(tp0, a)
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = (fj - fa) / (_at(tp0, j) - ta)
        fp = fa + (tp - ta) * slope
    return np.where(exact, fj, fp)


def _pr_rows(tp0: np.ndarray, fp0: np.ndarray, grid: np.ndarray) -> np.ndarray:
    p = tp0[:, -1:]
    rec = tp0 / p
    j = _search_rows(rec, grid, "left")
    exact = _at(rec, j) == grid
    tp = grid * p
    fp = _fp_where_tp_rows(tp0, fp0, j, tp, exact)
    tp = np.where(exact, _at(tp0, j), tp)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = tp / (tp + fp)
    zero = grid == 0.0
    if zero.any():
        k = np.argmax(tp0 > 0, axis=1)[:, None]
        tk, fk = _at(tp0, k), _at(fp0, k)
        with np.errstate(divide="ignore", invalid="ignore"):
            first = np.where(_at(fp0, k - 1) > 0, 0.0, tk / (tk + fk))
        out = np.where(zero, first, out)
    return out


def _prg_rows(tp0: np.ndarray, fp0: np.ndarray, grid: np.ndarray, last: np.ndarray | None = None) -> np.ndarray:
    """``last``: each row's index of its final point (rows padded after it with copies of it, as
    :func:`_compact_rows` gives them); None: the last column."""
    p, nn = tp0[:, -1:], fp0[:, -1:]
    r = p / nn
    with np.errstate(divide="ignore", invalid="ignore"):
        rg = np.where(tp0 > 0, 1.0 - r * ((p - tp0) / tp0), -np.inf)
    rg[:, -1] = 1.0
    end = tp0.shape[1] - 1 if last is None else last[:, None]
    if last is not None:
        rg[np.arange(rg.shape[0]), last] = 1.0
    j = _search_rows(rg, grid, "left")
    exact = _at(rg, j) == grid
    tp = p * p / (p + (1.0 - grid) * nn)
    fp = _fp_where_tp_rows(tp0, fp0, j, tp, exact)
    tp = np.where(exact, _at(tp0, j), tp)
    out = 1.0 - r * (fp / tp)
    return np.where(exact & (j == end), 0.0, out)


_ROW_KERNELS = {"roc": _roc_rows, "pr": _pr_rows, "prg": _prg_rows}
