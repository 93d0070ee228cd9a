"""The one curve kernel every metric reads: validation, the one sort, tie groups, segments.

Every metric of :mod:`prspace.metrics` is computed from one private curve kernel in the style
of scikit-learn's ``_binary_clf_curve``: the scores are sorted once, tied scores are grouped into one threshold,
and cumulative (weighted) true and false positive counts at the distinct thresholds are the
only thing any metric reads. :func:`all_metrics` therefore costs one sort plus a few linear
passes, however many metrics it returns.

Two forms of the kernel output exist:

* :class:`_Curve` (``_binary_curve``): counts at every distinct threshold, from one
  ``argsort``; the curves (:func:`pr_curve`, :func:`roc_curve`, :func:`prg_curve`) and the
  weighted metrics use it.
* :class:`_Segments` (``_segments``): only the tie groups that contain positives, each with the
  counts above it. Groups with negatives only are vertical moves (TP does not change), so no
  area needs them. Without weights this form is built without an argsort: one ``np.sort`` of
  all scores (values only, no gathers), a sort of the positives' scores, and a binary search
  of each distinct positive score in the sorted scores. This is the hot path.

The conventions (labels, scores, weights, errors) are stated in :mod:`prspace.metrics`.
The private helpers shared by the area modules (``_unit``, ``_dot``, ``_log1p``, ``_prepend0``,
``_blockwise``) live here too.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from prspace.metrics.labels import default_positives
from prspace.metrics.same_bits import log1p


class _Curve(NamedTuple):
    """Cumulative weighted counts at every distinct threshold (for the curves)."""

    tps: NDArray[np.float64]  # true positives at thresholds[k] (scores >= thresholds[k])
    fps: NDArray[np.float64]
    thresholds: NDArray[np.float64]  # distinct scores, decreasing
    n_pos: float
    n_neg: float


class _Segments(NamedTuple):
    """The kernel's output for the metrics: one entry per tie group that holds positives.

    In decreasing order of score, group k has ``dtp[k]`` > 0 positive and ``dfp[k]`` >= 0
    negative (weight), and ``tpa[k]``, ``fpa[k]`` are the cumulative counts of all groups
    ranked above it. Groups holding only negatives change FP but not TP, i.e. they are
    vertical moves in PR, ROC-area and PRG terms with zero width, so no area needs them: each
    area is a sum over these segments from (tpa, fpa) to (tpa + dtp, fpa + dfp).
    """

    tpa: NDArray[np.float64]
    fpa: NDArray[np.float64]
    dtp: NDArray[np.float64]
    dfp: NDArray[np.float64]
    n_pos: float
    n_neg: float


# --------------------------------------------------------------------------------------------
# Input validation and the curve kernel
# --------------------------------------------------------------------------------------------


def _as_1d(x: ArrayLike, name: str) -> np.ndarray:
    a = np.asarray(x)
    if a.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one value per example), got shape {a.shape}")
    return a


def _one_class_error(label: Any) -> ValueError:
    return ValueError(
        f"only one class present in y_true (every label is {label!r}): the class skew pi is "
        "0 or 1 and the metrics are undefined; evaluate on data holding both classes"
    )


def _y_true_positives(y: np.ndarray, pos_label: Any) -> np.ndarray:
    """Boolean mask of positives; raises unless ``y`` is binary with both classes present."""
    n = y.shape[0]
    if pos_label is None:
        if y.dtype == np.bool_:
            n_pos = np.count_nonzero(y)
            if n_pos == 0 or n_pos == n:
                raise _one_class_error(bool(y[0]))
            return default_positives(y)
        if y.dtype.kind not in "iuf":
            raise ValueError(
                f"y_true has labels of dtype {y.dtype}; with pos_label=None the labels must be "
                "{0, 1}, {-1, 1} or {False, True}: pass pos_label=<the positive label>"
            )
        pos = default_positives(y)
        if pos is not None and 0 < np.count_nonzero(pos) < n:
            return pos
        # Something is wrong: find out what, for the message.
        if y.dtype.kind == "f" and not np.isfinite(y).all():
            raise ValueError("y_true contains NaN or infinite labels; labels must be binary")
        values = np.unique(y)
        if values.shape[0] == 1:
            raise _one_class_error(values[0].item())
        shown = ", ".join(repr(v.item()) for v in values[:5]) + (", ..." if len(values) > 5 else "")
        raise ValueError(
            f"y_true has labels {{{shown}}}; with pos_label=None the labels must be {{0, 1}}, "
            "{-1, 1} or {False, True}: pass pos_label=<the positive label> for other binary "
            "labels"
        )
    pos = np.asarray(y == pos_label)
    if pos.shape != y.shape:
        raise ValueError(f"cannot compare y_true with pos_label={pos_label!r}")
    n_pos = np.count_nonzero(pos)
    if n_pos == 0:
        raise ValueError(
            f"pos_label={pos_label!r} does not occur in y_true: only one class present "
            "(pi = 0); check pos_label"
        )
    if n_pos == n:
        raise _one_class_error(pos_label)
    others = y[~pos]
    same = np.asarray(others == others[0])
    if same.shape != others.shape or not same.all():
        raise ValueError(
            "y_true is not binary: besides pos_label there is more than one other label"
        )
    return pos


def _scores(y_score: ArrayLike) -> np.ndarray:
    s = _as_1d(y_score, "y_score")
    if s.dtype.kind not in "iufb":
        raise ValueError(f"y_score must be numeric, got dtype {s.dtype}")
    return s.astype(np.float64, copy=False)


def _check_finite_scores(s: np.ndarray) -> None:
    # The sum of the scores is finite only if every score is finite (NaN and +-inf
    # propagate); only when it is not do we pay for an element-wise check.
    with np.errstate(over="ignore", invalid="ignore"):
        total = s.sum()
    if not np.isfinite(total):
        bad = ~np.isfinite(s)
        if bad.any():
            n_nan = int(np.isnan(s).sum())
            n_inf = int(bad.sum()) - n_nan
            raise ValueError(
                f"y_score contains {n_nan} NaN and {n_inf} infinite value(s) (first at index "
                f"{int(np.flatnonzero(bad)[0])}); scores must be finite"
            )


def _weights(sample_weight: ArrayLike, n: int) -> np.ndarray:
    w = _as_1d(sample_weight, "sample_weight")
    if w.dtype.kind not in "iufb":
        raise ValueError(f"sample_weight must be numeric, got dtype {w.dtype}")
    w = w.astype(np.float64, copy=False)
    if w.shape[0] != n:
        raise ValueError(
            f"sample_weight has {w.shape[0]} values but y_true has {n}; give one weight per row"
        )
    with np.errstate(over="ignore", invalid="ignore"):
        total = w.sum()
    if not np.isfinite(total) and not np.isfinite(w).all():
        raise ValueError("sample_weight contains NaN or infinite values; weights must be finite")
    if w.min() < 0:
        raise ValueError(
            f"sample_weight contains negative values (min {float(w.min())!r}); weights must be >= 0"
        )
    return w


def _validate(
    y_true: ArrayLike, y_score: ArrayLike, pos_label: Any, sample_weight: ArrayLike | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Checked (positive mask, float64 scores, weights or None); zero-weight rows dropped."""
    y = _as_1d(y_true, "y_true")
    s = _scores(y_score)
    n = y.shape[0]
    if s.shape[0] != n:
        raise ValueError(
            f"y_true and y_score have different lengths ({n} and {s.shape[0]}); give one "
            "score per label"
        )
    if n == 0:
        raise ValueError("empty input: y_true and y_score have no rows")
    _check_finite_scores(s)
    pos = _y_true_positives(y, pos_label)
    if sample_weight is None:
        return pos, s, None
    w = _weights(sample_weight, n)
    if np.all(w == 1.0):  # unit weights: the unweighted kernel (integer counts, the same numbers)
        return pos, s, None
    keep = w > 0
    if not keep.all():
        pos, s, w = pos[keep], s[keep], w[keep]
        if s.shape[0] == 0:
            raise ValueError("every sample_weight is 0: no rows left to evaluate")
    # whether both classes keep positive weight is checked on the cumulative sums
    return pos, s, w


def _curve_from(pos: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> _Curve:
    """Sort once (argsort, descending), group ties, accumulate counts per distinct threshold."""
    n = s.shape[0]
    order = np.argsort(s)[::-1]  # the order within tied scores is irrelevant: ties are grouped
    # The sorted values equal s[order]; numpy's value sort is cheaper than that random gather.
    s_sorted = np.sort(s)[::-1]
    pos_sorted = pos[order]
    ends = np.flatnonzero(s_sorted[1:] != s_sorted[:-1])  # last index of each tie group
    ends = np.append(ends, n - 1)
    if w is None:
        tps_i = np.cumsum(pos_sorted)[ends]
        fps = (ends + 1 - tps_i).astype(np.float64)
        tps = tps_i.astype(np.float64)
    else:
        w_sorted = w[order]
        tps = np.cumsum(np.where(pos_sorted, w_sorted, 0.0))[ends]
        fps = np.cumsum(np.where(pos_sorted, 0.0, w_sorted))[ends]
    if not (tps[-1] > 0 and fps[-1] > 0):
        raise ValueError(
            "only one class present with positive sample_weight (weighted pi is "
            f"{'0' if tps[-1] == 0 else '1'}); the metrics are undefined"
        )
    return _Curve(tps, fps, s_sorted[ends], float(tps[-1]), float(fps[-1]))


def _binary_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> _Curve:
    """Every distinct threshold with its cumulative counts (curves and the weighted case)."""
    return _curve_from(*_validate(y_true, y_score, pos_label, sample_weight))


def _segments_from_curve(c: _Curve) -> _Segments:
    tp0 = _prepend0(c.tps)
    fp0 = _prepend0(c.fps)
    dtp = np.diff(tp0)
    m = dtp > 0
    return _Segments(tp0[:-1][m], fp0[:-1][m], dtp[m], np.diff(fp0)[m], c.n_pos, c.n_neg)


def _segments_unweighted(pos: np.ndarray, s: np.ndarray) -> _Segments:
    """The metrics kernel without weights: one value sort instead of an argsort.

    ``np.sort`` of all scores (no argsort, no gathers) plus a sort of the positives' scores;
    each distinct positive score u is located in the sorted scores by binary search, which
    gives the numbers of scores above u and tied with u; the positives above and tied with u
    come from the sorted positives. Counts are exact integers.
    """
    n = s.shape[0]
    s_all = np.sort(s)
    s_pos = np.sort(s[pos])
    n_pos = s_pos.shape[0]
    # ascending tie groups of the positives: group i holds s_pos[bounds[i]:bounds[i + 1]]
    bounds = np.flatnonzero(s_pos[1:] != s_pos[:-1])
    bounds += 1
    bounds = np.concatenate(([0], bounds, [n_pos]))
    u = s_pos[bounds[:-1]]
    stops = bounds[1:]  # positives with score <= u; above u: n_pos - stops
    dtp = np.diff(bounds)
    left = np.searchsorted(s_all, u, side="left")  # scores below u
    if np.any(s_all[1:] == s_all[:-1]):
        right = np.searchsorted(s_all, u, side="right")
    else:
        right = left + 1
    tpa = n_pos - stops
    fpa = (n - right) - tpa
    dfp = (right - left) - dtp
    # reverse to decreasing score
    return _Segments(
        tpa[::-1].astype(np.float64),
        fpa[::-1].astype(np.float64),
        dtp[::-1].astype(np.float64),
        dfp[::-1].astype(np.float64),
        float(n_pos),
        float(n - n_pos),
    )


def _segments(
    y_true: ArrayLike,
    y_score: ArrayLike,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> _Segments:
    pos, s, w = _validate(y_true, y_score, pos_label, sample_weight)
    if w is None:
        return _segments_unweighted(pos, s)
    return _segments_from_curve(_curve_from(pos, s, w))


def _check_recall_range(recall_range: tuple[float, float]) -> tuple[float, float]:
    try:
        a, b = (float(v) for v in recall_range)
    except (TypeError, ValueError):
        raise ValueError(f"recall_range must be a pair (a, b), got {recall_range!r}") from None
    if not (np.isfinite(a) and np.isfinite(b) and 0.0 <= a < b <= 1.0):
        raise ValueError(f"recall_range must satisfy 0 <= a < b <= 1, got ({a!r}, {b!r})")
    return a, b


# --------------------------------------------------------------------------------------------
# Areas, from the segments
# --------------------------------------------------------------------------------------------


def _unit(x: float, hi: float = 1.0) -> float:
    """Clip rounding noise (e.g. 1 + 4e-16 for a perfect ranking) to the metric's range."""
    return min(max(x, 0.0), hi)


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    # Not np.dot: BLAS threads cost far more than they save on a shared, loaded machine.
    a = a * b
    return float(a.sum())


#: ``log(1 + x)`` with the same bits on every machine (issue 60), for the area modules: the one log series,
#: :func:`prspace.metrics.same_bits.log1p` (``np.log1p``'s bits follow the CPU's C library loop or SVML).
_log1p = log1p


def _prepend0(x: np.ndarray) -> np.ndarray:
    out = np.empty(x.shape[0] + 1, dtype=np.float64)
    out[0] = 0.0
    out[1:] = x
    return out


_CHUNK = 1 << 14  # segments per block: the temporaries of one block stay in cache


def _chunks(g: _Segments):
    k = g.dtp.shape[0]
    if k <= _CHUNK:
        yield g
        return
    for i in range(0, k, _CHUNK):
        sl = slice(i, i + _CHUNK)
        yield _Segments(g.tpa[sl], g.fpa[sl], g.dtp[sl], g.dfp[sl], g.n_pos, g.n_neg)


def _blockwise(area=None, *, reduce=sum):
    """Evaluate a per-segment metric block by block (same value, fewer cache misses), the blocks' values
    combined by ``reduce``: their ``sum`` (the default, ``@_blockwise``) for an area, which adds over the
    segments; a metric that does not add needs its own combination, e.g. ``@_blockwise(reduce=max)`` for a
    maximum over the segments (a sum of the blocks' maxima would be wrong, silently, on inputs of more than
    ``_CHUNK`` segments only)."""
    if area is None:
        return lambda f: _blockwise(f, reduce=reduce)

    def run(g: _Segments, *args):
        if g.dtp.shape[0] <= _CHUNK:
            return area(g, *args)
        return float(reduce(area(sub, *args) for sub in _chunks(g)))

    run.__doc__ = area.__doc__
    run.__name__ = area.__name__
    return run

