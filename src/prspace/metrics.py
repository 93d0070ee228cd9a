"""Ranking metrics and curves for binary classifiers: ROC, PR, PR-Gain and Boyd's minima.

Every metric is computed from one private curve kernel in the style of scikit-learn's
``_binary_clf_curve``: the scores are sorted once, tied scores are grouped into one threshold,
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

Conventions
-----------
* ``y_true``: with ``pos_label=None`` the labels must be {0, 1}, {-1, 1} or {False, True}; the
  greater label is the positive class. With ``pos_label`` given, ``y_true == pos_label`` is
  positive and there must be exactly one other label.
* ``y_score``: larger means "more positive". Only the order matters (all metrics are invariant
  under strictly increasing transforms of the scores). Tied scores form one threshold.
* ``sample_weight``: non-negative finite weights; rows of weight 0 are dropped (so an integer
  weight equals repeating the row that many times). Counts, ``pi``, ``n_pos`` and ``n_neg`` are
  weighted.
* Bad input (NaN/inf scores, lengths that differ, empty input, non-binary labels, only one
  class present, negative or non-finite weights) raises :class:`ValueError` naming the problem.

PR curve conventions (see :func:`aupr`): the curve starts at recall 0 with the
precision of the first threshold (a first threshold with ``tp = 0`` has precision 0), and
consecutive thresholds are joined by the interpolation chosen.

References
----------
* Davis, J. and Goadrich, M. (2006). The relationship between precision-recall and ROC curves.
  ICML. (Hyperbolic PR interpolation.)
* Boyd, K., Santos Costa, V., Davis, J. and Page, D. (2012). Unachievable region in
  precision-recall space and its effect on empirical evaluation. ICML. (Theorems 1-3,
  Corollary 4, AUCNPR.)
* Flach, P. and Kull, M. (2015). Precision-Recall-Gain curves: PR analysis done right. NIPS.
  (Definition 1, Theorems 2-4; reference code ``pyprg``.)

This module imports nothing else of ``prspace`` (see ``docs/architecture.md``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "ROCCurve",
    "PRCurve",
    "PRGCurve",
    "MinPRCurve",
    "PRGHull",
    "all_metrics",
    "auroc",
    "average_precision",
    "aupr",
    "aupr_min",
    "ap_min",
    "aucnpr",
    "precision_gain",
    "recall_gain",
    "fg_score",
    "prg_curve",
    "auprg",
    "expected_fg1",
    "prg_convex_hull",
    "pr_curve",
    "roc_curve",
    "min_pr_curve",
    "interpolate_pr_curve",
    "AUPR_ESTIMATORS",
    "aupr_estimators",
    "metrics_from_group_counts",
    "metrics_from_group_counts_batch",
]

_INTERPOLATIONS = ("hyperbolic", "linear", "step")


# --------------------------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------------------------


class ROCCurve(NamedTuple):
    """ROC curve vertices, starting at (0, 0) with threshold ``+inf``."""

    fpr: NDArray[np.float64]
    tpr: NDArray[np.float64]
    thresholds: NDArray[np.float64]


class PRCurve(NamedTuple):
    """PR curve vertices in order of increasing recall (decreasing threshold).

    The first vertex is the added start point at recall 0 with the precision of the first
    threshold (threshold ``+inf``; ``tp = fp = 0``). ``tp`` and ``fp`` are the (weighted)
    cumulative counts at each vertex; :func:`interpolate_pr_curve` uses them to draw the
    hyperbolic interpolation.
    """

    recall: NDArray[np.float64]
    precision: NDArray[np.float64]
    thresholds: NDArray[np.float64]
    tp: NDArray[np.float64]
    fp: NDArray[np.float64]


class PRGCurve(NamedTuple):
    """Precision-Recall-Gain curve in order of increasing recall gain.

    Contains every threshold with ``tp > 0`` (where the gains are finite; recall gain may be
    negative) plus the crossing points the reference implementation inserts: where the curve
    crosses recall gain 0 and where it crosses precision gain 0 at non-negative recall gain.
    Crossing points have ``is_crossing`` True and threshold NaN.
    """

    recall_gain: NDArray[np.float64]
    precision_gain: NDArray[np.float64]
    thresholds: NDArray[np.float64]
    is_crossing: NDArray[np.bool_]


class MinPRCurve(NamedTuple):
    """Boyd et al. (2012) minimum PR curve, precision = pi r / (1 - pi + pi r)."""

    recall: NDArray[np.float64]
    precision: NDArray[np.float64]


class PRGHull(NamedTuple):
    """Pareto part of the upper convex hull of a PRG curve (Flach and Kull section 3.4).

    ``recall_gain``/``precision_gain``/``thresholds`` are the hull vertices from the one with
    the highest precision gain (the rightmost, if several) to the highest one at recall gain 1.
    ``f_calibrated[k]`` is the F-calibrated score of the segment between vertices k and k+1:
    d = 1 / (1 + beta^2) where -beta^2 is the segment's slope (Theorem 4); vertex k is optimal
    for F_beta with d between ``f_calibrated[k-1]`` and ``f_calibrated[k]``.
    """

    recall_gain: NDArray[np.float64]
    precision_gain: NDArray[np.float64]
    thresholds: NDArray[np.float64]
    f_calibrated: NDArray[np.float64]


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


def _positive_mask(y: np.ndarray, pos_label: Any) -> np.ndarray:
    """Boolean mask of positives; raises unless ``y`` is binary with both classes present."""
    n = y.shape[0]
    if pos_label is None:
        if y.dtype == np.bool_:
            n_pos = np.count_nonzero(y)
            if n_pos == 0 or n_pos == n:
                raise _one_class_error(bool(y[0]))
            return y
        if y.dtype.kind not in "iuf":
            raise ValueError(
                f"y_true has labels of dtype {y.dtype}; with pos_label=None the labels must be "
                "{0, 1}, {-1, 1} or {False, True}: pass pos_label=<the positive label>"
            )
        pos = y == 1
        n_pos = np.count_nonzero(pos)
        if 0 < n_pos < n:
            rest = n - n_pos
            if np.count_nonzero(y == 0) == rest or (
                y.dtype.kind != "u" and np.count_nonzero(y == -1) == rest
            ):
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
    pos = _positive_mask(y, pos_label)
    if sample_weight is None:
        return pos, s, None
    w = _weights(sample_weight, n)
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


def _blockwise(area):
    """Evaluate an additive per-segment area block by block (same value, fewer cache misses)."""

    def run(g: _Segments, *args):
        if g.dtp.shape[0] <= _CHUNK:
            return area(g, *args)
        return float(sum(area(sub, *args) for sub in _chunks(g)))

    run.__doc__ = area.__doc__
    run.__name__ = area.__name__
    return run


@_blockwise
def _auroc_from(g: _Segments) -> float:
    """Trapezoidal ROC area (ties are diagonal segments; = sklearn's roc_auc_score).

    Each positive in group k beats the N - FP_B negatives ranked below the group and ties with
    its dFP negatives: AUROC = sum_k dTP (N - FP_A - dFP / 2) / (P N).
    """
    below = g.n_neg - g.fpa - 0.5 * g.dfp
    return float(_dot(g.dtp, below) / (g.n_pos * g.n_neg))


@_blockwise
def _ap_from(g: _Segments) -> float:
    """Step-wise AP = sum_k (R_k - R_{k-1}) P_k (= sklearn's average_precision_score)."""
    tpb = g.tpa + g.dtp
    prec = tpb / (tpb + g.fpa + g.dfp)
    return float(_dot(g.dtp, prec) / g.n_pos)


_PSI_TERMS = 12  # series terms for psi(x) = 1 - ln(1 + x) / x below x = 0.05


def _psi(x: np.ndarray) -> np.ndarray:
    """psi(x) = 1 - ln(1 + x) / x = x/2 - x^2/3 + x^3/4 - ..., accurate for every x > 0."""
    out = np.log1p(x)
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
    log_term = np.log1p(z)
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
    area = (xb - xa) * (dtp / d) + k * np.log1p(ratio)
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


def _gains(tp: np.ndarray, fp: np.ndarray, p: float, nn: float) -> tuple[np.ndarray, np.ndarray]:
    """Recall and precision gain (Flach and Kull Definition 1) from cumulative counts."""
    r = p / nn
    with np.errstate(divide="ignore", invalid="ignore"):
        rg = 1.0 - r * ((p - tp) / tp)
        pg = 1.0 - r * (fp / tp)
    # The all-positive point (tn + fn = 0) is exactly (1, 0), as in the reference code.
    last = (tp == p) & (fp == nn)
    rg[last] = 1.0
    pg[last] = 0.0
    return rg, pg


def _prg_crossing(tpa: float, fpa: float, tpb: float, fpb: float, p: float, nn: float) -> float:
    """Precision gain where recall gain is 0 on the segment A -> B (rg_A < 0 < rg_B).

    Recall gain is 0 where TP = P^2 / (P + N); the contingency table is interpolated linearly
    between A and B to reach it, as the reference code does. By Flach and Kull's Theorem 1 this
    point lies on the straight PRG segment between A and B (when A has finite gains).
    """
    tp_star = p * p / (p + nn)
    alpha = (tp_star - tpa) / (tpb - tpa)
    tp_i = tpa + alpha * (tpb - tpa)
    fp_i = fpa + alpha * (fpb - fpa)
    return float(1.0 - (p / nn) * (fp_i / tp_i))


def _prg_start(g: _Segments) -> tuple[int, float, bool]:
    """(k, y0, crossing): segment k is the first whose end B has recall gain >= 0; y0 is the
    precision gain at recall gain 0; crossing tells whether that point lies inside segment k
    (True) or is B itself (False)."""
    p, nn = g.n_pos, g.n_neg
    tp_star = p * p / (p + nn)  # recall gain is 0 here
    # TP at the end of segment i is the TP at the start of segment i + 1: locate the sign
    # change by binary search, then decide with the gain formula itself near the boundary.
    nxt = g.tpa[1:]
    lo = int(np.searchsorted(nxt, tp_star * (1.0 - 1e-9), side="left"))
    hi = int(np.searchsorted(nxt, tp_star * (1.0 + 1e-9), side="right"))
    tpb = g.tpa[lo : hi + 1] + g.dtp[lo : hi + 1]  # > 0
    rgb = 1.0 - (p / nn) * ((p - tpb) / tpb)
    rgb[tpb == p] = 1.0
    j = int(np.argmax(rgb >= 0.0))  # exists: segment hi ends above the band (or at TP = P)
    k = lo + j
    fpb = g.fpa[k] + g.dfp[k]
    if rgb[j] > 0.0:
        return k, _prg_crossing(g.tpa[k], g.fpa[k], tpb[j], fpb, p, nn), True
    _, pgb = _gains(tpb[j : j + 1], np.array([fpb]), p, nn)
    return k, float(pgb[0]), False


def _auprg_block(g: _Segments, y0: float | None) -> float:
    """Trapezoids over the segments of ``g``; with ``y0`` the first starts at (0, y0)."""
    p, nn = g.n_pos, g.n_neg
    r = p / nn
    tpb = g.tpa + g.dtp  # > 0
    fpb = g.fpa + g.dfp
    rgb = 1.0 - r * ((p - tpb) / tpb)
    pgb = 1.0 - r * (fpb / tpb)
    if tpb[-1] == p and fpb[-1] == nn:  # the all-positive point is exactly (1, 0)
        rgb[-1], pgb[-1] = 1.0, 0.0
    first = 0 if y0 is None else 1  # only the very first segment can start at TP = 0
    tpa, fpa = g.tpa[first:], g.fpa[first:]
    rga = np.empty_like(rgb)
    pga = np.empty_like(pgb)
    rga[first:] = 1.0 - r * ((p - tpa) / tpa)
    pga[first:] = 1.0 - r * (fpa / tpa)
    if y0 is not None:
        rga[0], pga[0] = 0.0, y0  # the first segment starts at the crossing of recall gain 0
    rgb -= rga
    pgb += pga
    return _dot(rgb, pgb) / 2.0


def _auprg_from(g: _Segments) -> float:
    """Trapezoidal area under the PRG curve over recall gain in [0, 1] (Flach and Kull 3.3).

    Negative precision gains count negatively; the curve starts at the point where recall gain
    is 0 (see :func:`_prg_crossing`), matching ``calc_auprg(create_prg_curve(...))`` of
    ``pyprg``. Moves between segments (negative-only tie groups) are vertical: zero area.
    """
    k, y0, _ = _prg_start(g)
    tail = _Segments(g.tpa[k:], g.fpa[k:], g.dtp[k:], g.dfp[k:], g.n_pos, g.n_neg)
    total = 0.0
    for i, sub in enumerate(_chunks(tail)):
        total += _auprg_block(sub, y0 if i == 0 else None)
    return float(total)


def _expected_fg1_from(auprg_value: float, y0: float, pi: float) -> float:
    """Flach and Kull Theorem 3 (see :func:`expected_fg1`)."""
    width = 1.0 - pi * (1.0 - y0)  # pi (1 - pi) times the length of the Delta range
    if abs(width) <= 1e-12:
        raise ValueError(
            "expected FG1 is undefined for this ranking: every operating point on its PRG "
            "curve has the same Delta = recG / pi - precG / (1 - pi), so Delta cannot be "
            "uniform on an interval (Flach and Kull Theorem 3)"
        )
    return (auprg_value / 2.0 + 0.25 - pi * (1.0 - y0 * y0) / 4.0) / width


# --------------------------------------------------------------------------------------------
# Boyd et al. (2012) minima
# --------------------------------------------------------------------------------------------


def aupr_min(pi: ArrayLike, recall_range: tuple[float, float] = (0.0, 1.0)) -> Any:
    """Minimum area under the PR curve for class skew ``pi`` (Boyd et al. 2012).

    The area under the minimum PR curve p = pi r / (1 - pi + pi r) (Theorem 1) over recall in
    [a, b] (Theorem 2 for [0, 1], Corollary 4 in general):

        AUCPR_MIN = (b - a) + (1 - pi) / pi * ln((pi (a - 1) + 1) / (pi (b - 1) + 1)),

    which for [0, 1] is 1 + (1 - pi) ln(1 - pi) / pi. Vectorised over ``pi`` in (0, 1]; returns
    a float for scalar ``pi``.
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


def auroc(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Area under the ROC curve (trapezoidal; ties are diagonal segments).

    Equal to scikit-learn's ``roc_auc_score`` for binary input.
    """
    return _unit(_auroc_from(_segments(y_true, y_score, pos_label, sample_weight)))


def average_precision(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Step-wise average precision AP = sum_k (R_k - R_{k-1}) P_k over distinct thresholds.

    Equal to scikit-learn's ``average_precision_score``.
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
    """
    a, b = _check_recall_range(recall_range)
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"interpolation must be one of {_INTERPOLATIONS}, got {interpolation!r}")
    g = _segments(y_true, y_score, pos_label, sample_weight)
    return _unit(_aupr_from(g, interpolation, a, b), b - a)


def _aucnpr_from(g: _Segments, a: float, b: float, area: float | None = None) -> float:
    pi = g.n_pos / (g.n_pos + g.n_neg)
    if area is None:
        area = _aupr_from(g, "hyperbolic", a, b)
    lo = aupr_min(pi, (a, b))
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
    """
    a, b = _check_recall_range(recall_range)
    return _aucnpr_from(_segments(y_true, y_score, pos_label, sample_weight), a, b)


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
    """
    beta = float(beta)
    if not (np.isfinite(beta) and beta > 0):
        raise ValueError(f"beta must be a positive finite number, got {beta!r}")
    tp_, fn_, fp_, tn_ = _counts(tp, fn, fp, tn)
    b2 = beta * beta
    with np.errstate(divide="ignore", invalid="ignore"):
        g = 1.0 - ((tp_ + fn_) / (fp_ + tn_)) * ((fp_ + b2 * fn_) / ((1.0 + b2) * tp_))
    return _scalar_or_array(g)


def _prg_curve_from(c: _Curve) -> PRGCurve:
    first = int(np.argmax(c.tps > 0))  # thresholds with finite gains
    rg, pg = _gains(c.tps[first:], c.fps[first:], c.n_pos, c.n_neg)
    thr = c.thresholds[first:]
    k = int(np.argmax(rg >= 0.0))  # first point with recall gain >= 0 (the last has rg = 1)
    inserted = bool(rg[k] > 0.0)
    if inserted:
        j = first + k  # index in the full curve; the point before it may be the origin
        tpa = c.tps[j - 1] if j > 0 else 0.0
        fpa = c.fps[j - 1] if j > 0 else 0.0
        y0 = _prg_crossing(tpa, fpa, c.tps[j], c.fps[j], c.n_pos, c.n_neg)
    cross = np.zeros(rg.shape[0], dtype=bool)
    if inserted:
        rg = np.insert(rg, k, 0.0)
        pg = np.insert(pg, k, y0)
        thr = np.insert(thr, k, np.nan)
        cross = np.insert(cross, k, True)
    start = k
    # Crossings of precision gain 0 on segments with non-negative recall gain.
    x, y = rg[start:], pg[start:]
    seg = np.flatnonzero(y[:-1] * y[1:] < 0)
    if seg.size:
        x0, x1, y0s, y1s = x[seg], x[seg + 1], y[seg], y[seg + 1]
        xc = x0 + (-y0s) / (y1s - y0s) * (x1 - x0)
        at = start + seg + 1
        rg = np.insert(rg, at, xc)
        pg = np.insert(pg, at, 0.0)
        thr = np.insert(thr, at, np.nan)
        cross = np.insert(cross, at, True)
    return PRGCurve(rg, pg, thr, cross)


def prg_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> PRGCurve:
    """Precision-Recall-Gain curve (Flach and Kull 2015), see :class:`PRGCurve`.

    Points are the thresholds with TP > 0 in order of increasing recall gain, plus the crossing
    points of ``create_prg_curve`` in the reference code: at recall gain 0 (by interpolating
    the contingency tables) and at precision gain 0 where recall gain >= 0. A plot clips to
    the unit square; the area :func:`auprg` uses every point with recall gain >= 0.
    """
    return _prg_curve_from(_binary_curve(y_true, y_score, pos_label, sample_weight))


def auprg(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Area under the PRG curve over recall gain in [0, 1] (Flach and Kull 2015, section 3.3).

    Trapezoids between consecutive points with recall gain >= 0, starting at the crossing of
    recall gain 0; negative precision gains count negatively. Equal to the reference
    ``calc_auprg(create_prg_curve(y_true, y_score))`` (PyPI ``pyprg``), ties included.
    """
    return min(_auprg_from(_segments(y_true, y_score, pos_label, sample_weight)), 1.0)


def expected_fg1(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Expected FG1 score for operating points with Delta uniform (Flach and Kull Theorem 3).

    E[FG1] = (AUPRG / 2 + 1/4 - pi (1 - y0^2) / 4) / (1 - pi (1 - y0)), where y0 is the
    precision gain where recall gain is 0. For y0 = 1 this is AUPRG / 2 + 1/4. Delta =
    recG / pi - precG / (1 - pi) ranges over [-y0 / (1 - pi), 1 / pi]; when that range is empty
    (e.g. the worst ranking, whose points all have Delta = 1 / pi) a ValueError is raised.
    """
    g = _segments(y_true, y_score, pos_label, sample_weight)
    _, y0, _ = _prg_start(g)
    pi = g.n_pos / (g.n_pos + g.n_neg)
    return float(_expected_fg1_from(_auprg_from(g), y0, pi))


def prg_convex_hull(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> PRGHull:
    """Pareto front of the PRG convex hull and its F-calibrated scores (Flach and Kull 3.4).

    The upper convex hull of the PRG points (thresholds with TP > 0) is built by Andrew's
    monotone chain; only the part from the highest precision gain to recall gain 1 is kept
    (every point there is F_beta-optimal for some beta). Segment slopes -beta^2 give the
    calibrated scores d = 1 / (1 + beta^2) (Theorem 4), decreasing along the hull.
    """
    c = _binary_curve(y_true, y_score, pos_label, sample_weight)
    first = int(np.argmax(c.tps > 0))
    rg, pg = _gains(c.tps[first:], c.fps[first:], c.n_pos, c.n_neg)
    thr = c.thresholds[first:]
    # Points are sorted by rg (non-decreasing); for equal rg keep the highest pg.
    # within equal rg, pg decreases with the threshold index: the first is the highest
    keep = np.r_[True, rg[1:] != rg[:-1]]
    rg, pg, thr = rg[keep], pg[keep], thr[keep]
    # Only Pareto points (no other point with higher recall gain has a precision gain as high)
    # can be vertices right of the top vertex: filter them first, so the Python loop below is
    # short even for millions of thresholds.
    best_right = np.maximum.accumulate(pg[::-1])[::-1]
    pareto = np.r_[pg[:-1] > best_right[1:], True]
    rg, pg, thr = rg[pareto], pg[pareto], thr[pareto]
    hull: list[int] = []
    for i in range(rg.shape[0]):
        while len(hull) >= 2:
            o, a_ = hull[-2], hull[-1]
            cross = (rg[a_] - rg[o]) * (pg[i] - pg[o]) - (pg[a_] - pg[o]) * (rg[i] - rg[o])
            if cross >= 0:  # a_ is not strictly above the chord o -> i
                hull.pop()
            else:
                break
        hull.append(i)
    idx = np.asarray(hull)
    top = int(np.flatnonzero(pg[idx] == pg[idx].max())[-1])  # the rightmost top vertex
    idx = idx[top:]
    hx, hy = rg[idx], pg[idx]
    slope = np.diff(hy) / np.diff(hx)
    d = 1.0 / (1.0 - slope)
    return PRGHull(hx, hy, thr[idx], d)


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
    """
    c = _binary_curve(y_true, y_score, pos_label, sample_weight)
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


def roc_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> ROCCurve:
    """ROC curve vertices from (0, 0) (threshold +inf) to (1, 1), one per distinct threshold.

    Unlike scikit-learn's default (``drop_intermediate=True``) no collinear vertex is dropped.
    """
    c = _binary_curve(y_true, y_score, pos_label, sample_weight)
    return ROCCurve(
        fpr=_prepend0(c.fps) / c.n_neg,
        tpr=_prepend0(c.tps) / c.n_pos,
        thresholds=np.r_[np.inf, c.thresholds],
    )


#: Display names of the keys of :func:`all_metrics`, for tables, figures and sentences: the one
#: place a metric's label is written.
METRIC_LABELS: dict[str, str] = {
    "aupr": "AUPR",
    "average_precision": "AP",
    "auprg": "AUPRG",
    "auroc": "AUROC",
    "aucnpr": "AUCNPR",
    "aupr_linear": "AUPR (linear)",
}


def all_metrics(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> dict[str, float]:
    """Every headline metric from one sort of the scores.

    Returns a dict with keys ``auroc``, ``average_precision``, ``aupr`` (hyperbolic),
    ``aupr_linear``, ``aucnpr``, ``auprg``, ``pi``, ``n_pos``, ``n_neg`` (weighted counts, as
    floats), each equal to the corresponding single-metric function.
    """
    g = _segments(y_true, y_score, pos_label, sample_weight)
    area = _unit(_aupr_hyperbolic_full(g))
    pi = g.n_pos / (g.n_pos + g.n_neg)
    return {
        "auroc": _unit(_auroc_from(g)),
        "average_precision": _unit(_ap_from(g)),
        "aupr": area,
        "aupr_linear": _unit(_aupr_linear(g, 0.0, 1.0)),
        "aucnpr": _aucnpr_from(g, 0.0, 1.0, area),
        "auprg": min(_auprg_from(g), 1.0),
        "pi": float(pi),
        "n_pos": float(g.n_pos),
        "n_neg": float(g.n_neg),
    }


# --------------------------------------------------------------------------------------------
# Every AUPR estimator side by side, and the metrics from resampled counts
# --------------------------------------------------------------------------------------------

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
    return (
        float(_dot(width, lower + p_max) / 2.0),
        float(_dot(width, med_left + p_med) / 2.0),
    )


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
    """
    c = _binary_curve(y_true, y_score, pos_label, sample_weight)
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


def metrics_from_group_counts(tp: ArrayLike, fp: ArrayLike) -> dict[str, float]:
    """:func:`all_metrics` from (weighted) class counts per tie group, without sorting.

    ``tp[k]`` and ``fp[k]`` are the positive and negative weight of the rows holding the
    k-th highest distinct score (k = 0 is the highest). Resampling schemes that reweight
    rows (bootstrap counts, class reweighting) sort the scores once, map every row to its
    tie group (``np.unique(-scores, return_inverse=True)``) and pass
    ``np.bincount(group, weights=w * y)`` and ``np.bincount(group, weights=w * ~y)`` here;
    the result equals ``all_metrics(y, scores, sample_weight=w)``. Groups of zero weight
    are allowed.
    """
    tps = np.cumsum(np.asarray(tp, dtype=np.float64))
    fps = np.cumsum(np.asarray(fp, dtype=np.float64))
    if tps.ndim != 1 or tps.shape != fps.shape or tps.size == 0:
        raise ValueError("tp and fp must be 1-d arrays of the same, non-zero length")
    if np.any(np.diff(tps) < 0) or np.any(np.diff(fps) < 0) or tps[0] < 0 or fps[0] < 0:
        raise ValueError("group counts must be non-negative")
    if not (tps[-1] > 0 and fps[-1] > 0):
        raise ValueError("only one class present with positive weight; the metrics are undefined")
    c = _Curve(tps, fps, np.arange(tps.size, 0, -1, dtype=np.float64), float(tps[-1]), float(fps[-1]))
    g = _segments_from_curve(c)
    area = _unit(_aupr_hyperbolic_full(g))
    return {
        "auroc": _unit(_auroc_from(g)),
        "average_precision": _unit(_ap_from(g)),
        "aupr": area,
        "aupr_linear": _unit(_aupr_linear(g, 0.0, 1.0)),
        "aucnpr": _aucnpr_from(g, 0.0, 1.0, area),
        "auprg": min(_auprg_from(g), 1.0),
        "pi": float(g.n_pos / (g.n_pos + g.n_neg)),
        "n_pos": float(g.n_pos),
        "n_neg": float(g.n_neg),
    }


def metrics_from_group_counts_batch(tp: ArrayLike, fp: ArrayLike) -> dict[str, np.ndarray]:
    """:func:`metrics_from_group_counts` for ``B`` count vectors over the same ``K`` tie groups at once.

    ``tp`` and ``fp`` have shape ``(B, K)``: row ``b`` holds the positive and negative weight of
    every tie group (k = 0 the highest score) in resample ``b``. Returns the keys of
    :func:`metrics_from_group_counts`, each an array of shape ``(B,)`` equal to the row-wise
    result (up to the order of floating-point summation, ~1e-15). Every operation is the
    row-wise one, done on whole arrays (groups along the first axis, resamples along the
    second, contiguous): groups without positives in any resample are left out (their
    negatives count in the cumulative FP below them), groups without positives in one resample
    are masked in its column (vertical moves, no area), and AUPRG's start (the first segment
    reaching recall gain 0) is found per resample with ``argmax``. A bootstrap of a task's test
    rows (``B`` resamples of multinomial counts) thus costs a few passes over one array
    instead of ``B`` calls.
    """
    tp_ = np.asarray(tp, dtype=np.float64)
    fp_ = np.asarray(fp, dtype=np.float64)
    if tp_.ndim != 2 or tp_.shape != fp_.shape or tp_.shape[1] == 0:
        raise ValueError("tp and fp must be 2-d arrays (resamples x tie groups) of the same shape, with >= 1 group")
    if np.any(tp_ < 0) or np.any(fp_ < 0):
        raise ValueError("group counts must be non-negative")
    nb, k = tp_.shape
    # cumulative counts with a leading 0, exactly as the row-wise kernel (_segments_from_curve);
    # (K + 1, B) layout: the running sums add contiguous rows
    tp0 = np.zeros((k + 1, nb))
    fp0 = np.zeros((k + 1, nb))
    np.cumsum(tp_.T, axis=0, out=tp0[1:])
    np.cumsum(fp_.T, axis=0, out=fp0[1:])
    p = tp0[-1]  # (B,)
    nn = fp0[-1]
    if not (np.all(p > 0) and np.all(nn > 0)):
        raise ValueError("only one class present with positive weight in some resample; the metrics are undefined")
    # Only groups holding positives in some resample can be segments: the others are vertical
    # moves whose negatives count through the cumulative FP of the groups below them.
    idx = np.flatnonzero(tp_.any(axis=0))
    k = idx.size
    tpa, fpa = tp0[idx], fp0[idx]
    dtp = tp0[idx + 1] - tpa  # = np.diff(tp0, axis=0)[idx]
    dfp = fp0[idx + 1] - fpa
    seg = dtp > 0  # the segments of _Segments; the rest add no area
    tpb = tpa + dtp
    fpb = fpa + dfp
    d = dtp + dfp
    ba = tpa + fpa
    with np.errstate(divide="ignore", invalid="ignore"):
        # AUROC (_auroc_from)
        below = nn - fpa - 0.5 * dfp
        auroc = np.where(seg, dtp * below, 0.0).sum(axis=0) / (p * nn)
        # average precision (_ap_from)
        pb = tpb / (tpb + fpa + dfp)
        ap = np.where(seg, dtp * pb, 0.0).sum(axis=0) / p
        # hyperbolic AUPR (_aupr_hyperbolic_full): origin segments have constant precision
        origin = seg & (ba == 0)
        zs = np.where(seg & ~origin, d / ba, np.where(origin, d, 1.0))
        inner = _psi(zs.ravel()).reshape(zs.shape)
        inner *= dtp
        log_term = np.log1p(zs)
        log_term *= tpa
        inner += log_term
        inner = np.where(origin, dtp, inner)
        area = np.where(seg, (dtp / d) * inner, 0.0).sum(axis=0) / p
        # linear AUPR (_aupr_linear): the start point takes the first threshold's precision
        pa = np.where(ba > 0, tpa / ba, pb)
        lin = np.where(seg, dtp * (pa + pb), 0.0).sum(axis=0) / (2.0 * p)
        # AUPRG (_prg_start, _auprg_block)
        r = p / nn
        rgb = 1.0 - r * ((p - tpb) / tpb)
        pgb = 1.0 - r * (fpb / tpb)
        rgb_start = np.where(tpb == p, 1.0, rgb)  # _prg_start's recall gain at B
        first = np.argmax(seg & (rgb_start >= 0.0), axis=0)  # exists: the last segment reaches TP = P
        cols = np.arange(nb)
        tk, fk, tbk, fbk = tpa[first, cols], fpa[first, cols], tpb[first, cols], fpb[first, cols]
        tp_star = p * p / (p + nn)
        alpha = (tp_star - tk) / (tbk - tk)
        tp_i = tk + alpha * (tbk - tk)
        fp_i = fk + alpha * (fbk - fk)
        y_cross = 1.0 - (p / nn) * (fp_i / tp_i)
        y_end = np.where((tbk == p) & (fbk == nn), 0.0, 1.0 - (p / nn) * (fbk / tbk))
        y0 = np.where(rgb_start[first, cols] > 0.0, y_cross, y_end)
        allpos = (tpb == p) & (fpb == nn)  # the all-positive point is exactly (1, 0)
        rgb = np.where(allpos, 1.0, rgb)
        pgb = np.where(allpos, 0.0, pgb)
        rga = 1.0 - r * ((p - tpa) / tpa)
        pga = 1.0 - r * (fpa / tpa)
        rows = np.arange(k)[:, None]
        start = rows == first[None, :]
        rga = np.where(start, 0.0, rga)
        pga = np.where(start, y0[None, :], pga)
        tail = seg & (rows >= first[None, :])
        auprg = np.where(tail, (rgb - rga) * (pgb + pga), 0.0).sum(axis=0) / 2.0
    area = np.clip(area, 0.0, 1.0)
    pi = p / (p + nn)
    lo = np.asarray(aupr_min(pi), dtype=np.float64)
    return {
        "auroc": np.clip(auroc, 0.0, 1.0),
        "average_precision": np.clip(ap, 0.0, 1.0),
        "aupr": area,
        "aupr_linear": np.clip(lin, 0.0, 1.0),
        "aucnpr": np.clip((area - lo) / (1.0 - lo), 0.0, 1.0),
        "auprg": np.minimum(auprg, 1.0),
        "pi": pi,
        "n_pos": p.copy(),
        "n_neg": nn.copy(),
    }
