"""Every headline metric at once: :func:`all_metrics` from one sort of the scores, and the same
metrics from (weighted) counts per tie group, one count vector or a batch of resamples.

The metrics are those of :data:`prspace.metrics.names.METRIC_KEYS` (:data:`BATCH_METRICS` is that list), each
computed in both kernels: :func:`_headline` (one ranking's segments, through the family module's private
function) and :func:`_from_segments` (arrays of segments x resamples, the same operations on whole arrays);
both return them in that list's order.  ``tests/metrics/test_metric_keys.py`` checks that each kernel returns
every key of the list and that the two agree (``CONTRIBUTING.md``, "A metric").

One module for both kernels of every headline metric and their public entry points: the metric recipe
of ``CONTRIBUTING.md`` adds a metric to both kernels here, side by side, so that the two are read (and
tested) together."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from prspace.metrics._kernel import (
    _Curve,
    _log1p,
    _Segments,
    _segments,
    _segments_from_curve,
    _unit,
)
from prspace.metrics.boyd_minima import _aucnpr_from, _aupr_min_remembered, aupr_min
from prspace.metrics.names import METRIC_KEYS
from prspace.metrics.pr import _ap_from, _aupr_hyperbolic_full, _aupr_linear, _psi
from prspace.metrics.prg import _auprg_from
from prspace.metrics.roc import _auroc_from

__all__ = ["BATCH_METRICS", "all_metrics", "metrics_from_group_counts",
           "metrics_from_group_counts_batch", "metrics_from_untied_counts_batch"]


#: The metrics of both kernels (:func:`all_metrics`, :func:`metrics_from_group_counts_batch`): the one list
#: :data:`~prspace.metrics.names.METRIC_KEYS`, not a copy of it; ``keys`` picks a subset (the class counts
#: ``pi``, ``n_pos``, ``n_neg`` are always there).
BATCH_METRICS: tuple[str, ...] = METRIC_KEYS
#: the keys every result holds besides the metrics
_COUNTS = ("pi", "n_pos", "n_neg")


def _headline(g: _Segments, keys: Collection[str] | None = None) -> dict[str, float]:
    """Every headline metric of one ranking's segments (the dict of :func:`all_metrics`), or only
    ``keys`` of :data:`BATCH_METRICS` (with ``pi``, ``n_pos``, ``n_neg``)."""
    want = _wanted(keys)
    out: dict[str, float] = {}
    if "auroc" in want:
        out["auroc"] = _unit(_auroc_from(g))
    if "average_precision" in want:
        out["average_precision"] = _unit(_ap_from(g))
    if want & {"aupr", "aucnpr"}:
        area = _unit(_aupr_hyperbolic_full(g))
        out["aupr"] = area
    if "aupr_linear" in want:
        out["aupr_linear"] = _unit(_aupr_linear(g, 0.0, 1.0))
    if "aucnpr" in want:
        out["aucnpr"] = _aucnpr_from(g, 0.0, 1.0, area)
    if "auprg" in want:
        out["auprg"] = min(_auprg_from(g), 1.0)
    out.update({"pi": float(g.n_pos / (g.n_pos + g.n_neg)), "n_pos": float(g.n_pos), "n_neg": float(g.n_neg)})
    return {key: out[key] for key in (*_in_order(want), *_COUNTS)}


def all_metrics(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> dict[str, float]:
    """Every headline metric from one sort of the scores.

    Returns a dict with the keys of :data:`~prspace.metrics.names.METRIC_KEYS` (``auroc``,
    ``average_precision``, ``aupr`` (hyperbolic), ``aupr_linear``, ``aucnpr``, ``auprg``), then ``pi``,
    ``n_pos``, ``n_neg`` (weighted counts, as floats), each equal to the corresponding single-metric
    function.

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
    dict of str to float
        The metrics by key, then ``pi``, ``n_pos`` and ``n_neg``.

    Raises
    ------
    ValueError
        If the input is bad: NaN or infinite scores, lengths that differ, no rows, labels that are
        not binary, one class only, or negative or non-finite weights (the message names the
        problem).

    See Also
    --------
    metrics_from_group_counts : The same from counts per tie group.
    auroc : AUROC alone.
    auprg : AUPRG alone.

    Examples
    --------
    >>> from prspace.metrics import METRIC_KEYS, all_metrics
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> d = all_metrics(y, s)
    >>> {k: round(d[k], 4) for k in ("auroc", "average_precision", "aupr", "aupr_linear", "aucnpr", "auprg", "pi")}
    ... # doctest: +NORMALIZE_WHITESPACE
    {'auroc': 0.8889, 'average_precision': 0.9167, 'aupr': 0.9041, 'aupr_linear': 0.9028, 'aucnpr': 0.8617,
     'auprg': 0.7917, 'pi': 0.5}
    >>> list(d) == [*METRIC_KEYS, "pi", "n_pos", "n_neg"]  # every metric of the one list, in its order
    True
    """
    return _headline(_segments(y_true, y_score, pos_label, sample_weight))


def metrics_from_group_counts(tp: ArrayLike, fp: ArrayLike, keys: Collection[str] | None = None) -> dict[str, float]:
    """:func:`all_metrics` from (weighted) class counts per tie group, without sorting.

    ``tp[k]`` and ``fp[k]`` are the positive and negative weight of the rows holding the
    k-th highest distinct score (k = 0 is the highest). Resampling schemes that reweight
    rows (bootstrap counts, class reweighting) sort the scores once, map every row to its
    tie group (``np.unique(-scores, return_inverse=True)``) and pass
    ``np.bincount(group, weights=w * y)`` and ``np.bincount(group, weights=w * ~y)`` here;
    the result equals ``all_metrics(y, scores, sample_weight=w)``. Groups of zero weight
    are allowed. ``keys`` (a subset of :data:`BATCH_METRICS`) computes only those metrics, by the
    same operations.

    Parameters
    ----------
    tp : array-like of shape (n_groups,)
        Positive weight of the rows holding the k-th highest distinct score (k = 0 the highest).
    fp : array-like of shape (n_groups,)
        Negative weight of the same rows.
    keys : collection of str, default=None
        Metrics to compute, a subset of :data:`BATCH_METRICS`; None: all.

    Returns
    -------
    dict of str to float
        As :func:`all_metrics`.

    Raises
    ------
    ValueError
        If ``tp`` and ``fp`` are not arrays of the same non-zero length, a count is negative, only
        one class has positive weight, or a key is unknown.

    See Also
    --------
    all_metrics : The same from labels and scores.
    metrics_from_group_counts_batch : Many count vectors at once.

    Examples
    --------
    >>> from prspace.metrics import all_metrics, metrics_from_group_counts
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> tp, fp = [1, 1, 0, 1, 0, 0], [0, 0, 1, 0, 1, 1]  # per score from the highest: 0.9, 0.8, 0.4, ...
    >>> metrics_from_group_counts(tp, fp) == all_metrics(y, s)
    True
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
    return _headline(_segments_from_curve(c), keys)


def metrics_from_group_counts_batch(tp: ArrayLike, fp: ArrayLike, keys: Collection[str] | None = None, *,
                                    alone: bool = False) -> dict[str, np.ndarray]:
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

    ``keys`` (a subset of :data:`BATCH_METRICS`; default all) computes only those metrics (with
    ``pi``, ``n_pos``, ``n_neg``), each by the same operations as with all keys, so bit for bit the
    same values: a simulation that decides on two metrics does not pay for six.

    ``alone``: every resample's values bit for bit those of a call on that resample alone (``B = 1``, whose sums
    numpy adds pairwise down its one contiguous column, where a batch adds its rows one after the other), for
    resamples that hold positives in the same tie groups (a ValueError otherwise): a jackknife of millions of
    rows, whose replicates its chunked path scores one at a time, is scored in one call.

    Parameters
    ----------
    tp : array-like of shape (B, K)
        Positive weight of each tie group in each resample.
    fp : array-like of shape (B, K)
        Negative weight of each tie group in each resample.
    keys : collection of str, default=None
        Metrics to compute; None: all.
    alone : bool, default=False
        Each resample's values bit for bit those of a call on it alone.

    Returns
    -------
    dict of str to ndarray
        Each metric (and ``pi``, ``n_pos``, ``n_neg``) as an array of shape (B,).

    Raises
    ------
    ValueError
        If the counts are not 2-d arrays of one shape, a count is negative, a resample holds one
        class only, a key is unknown, or ``alone=True`` with positives in different tie groups.

    See Also
    --------
    metrics_from_group_counts : One count vector.
    metrics_from_untied_counts_batch : Rows without ties, from their weights.

    Examples
    --------
    >>> import numpy as np
    >>> from prspace.metrics import metrics_from_group_counts_batch
    >>> tp = np.array([[1, 1, 0, 1, 0, 0], [2, 0, 0, 1, 0, 0]], dtype=float)  # two resamples
    >>> fp = np.array([[0, 0, 1, 0, 1, 1], [0, 0, 2, 0, 1, 0]], dtype=float)
    >>> metrics_from_group_counts_batch(tp, fp, keys=["auroc"])["auroc"].round(4).tolist()
    [0.8889, 0.7778]
    """
    want = _wanted(keys)
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
    _check_classes(p, nn)
    if alone and nb > 1 and not np.array_equal(tp_.any(axis=0), tp_.all(axis=0)):
        raise ValueError("alone=True needs every resample to hold positives in the same tie groups")
    # Only groups holding positives in some resample can be segments: the others are vertical
    # moves whose negatives count through the cumulative FP of the groups below them.
    idx = np.flatnonzero(tp_.any(axis=0))
    tpa, fpa = tp0[idx], fp0[idx]
    dtp = tp0[idx + 1] - tpa  # = np.diff(tp0, axis=0)[idx]
    dfp = fp0[idx + 1] - fpa
    return _from_segments(tpa, fpa, dtp, dfp, p, nn, want, alone=alone)


def _wanted(keys: Collection[str] | None) -> set[str]:
    want = set(BATCH_METRICS) if keys is None else set(keys)
    if not want <= set(BATCH_METRICS):
        raise ValueError(f"unknown metric(s) {sorted(want - set(BATCH_METRICS))}; choose from {list(BATCH_METRICS)}")
    return want


def _in_order(want: Collection[str]) -> list[str]:
    """The keys of ``want`` in the order of :data:`BATCH_METRICS` (the order of every kernel's result)."""
    return [key for key in BATCH_METRICS if key in want]


def _check_classes(p: np.ndarray, nn: np.ndarray) -> None:
    if not (np.all(p > 0) and np.all(nn > 0)):
        raise ValueError("only one class present with positive weight in some resample; the metrics are undefined")


def metrics_from_untied_counts_batch(w: ArrayLike, y: ArrayLike, order: ArrayLike,
                                     keys: Collection[str] | None = None) -> dict[str, np.ndarray]:
    """:func:`metrics_from_group_counts_batch` of rows whose scores have no ties, from the rows' integer weights.

    The weights: ``w`` ``(B, n)`` (bootstrap counts, jackknife 0/1 weights), ``y`` the rows'
    classes (0/1), ``order`` the rows by decreasing score; or ``S`` such rankings of the same rows
    at once (``w`` ``(S, B, n)``, ``order`` ``(S, n)``; each metric then ``(S, B)``).

    Every tie group is one row, so a segment is one positive row: its ``dTP`` is the row's weight,
    ``TP_A`` the weight of the positives above it and ``FP_A`` that of the negatives above it
    (``dFP = 0``). Integer sums are exact in any order, and a ranking's columns gain only rows
    without segments from the others (adding exact zeros), so the values are bit for bit those of
    ``metrics_from_group_counts_batch(*group_counts(w, group, y, n), keys)``, at the cost of one
    pass over the positives and one over the negatives instead of the per-group counts of both
    classes and their running sums (the simulations of :mod:`prspace.experiments.noise.noise_calibration`).

    Parameters
    ----------
    w : array-like of shape (B, n) or (S, B, n)
        Integer row weights of each resample (of each ranking).
    y : array-like of shape (n,)
        The rows' classes, 0 or 1.
    order : array-like of shape (n,) or (S, n)
        The rows by decreasing score (for each ranking).
    keys : collection of str, default=None
        Metrics to compute; None: all.

    Returns
    -------
    dict of str to ndarray
        Each metric as an array of shape (B,), or (S, B).

    Raises
    ------
    ValueError
        If the weights are negative or the shapes do not match, a resample holds one class only, or
        a key is unknown.

    See Also
    --------
    metrics_from_group_counts_batch : The same from counts per tie group.

    Examples
    --------
    >>> import numpy as np
    >>> from prspace.metrics import metrics_from_untied_counts_batch
    >>> y, s = np.array([0, 0, 1, 1, 0, 1]), np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> w = np.array([[1, 1, 1, 1, 1, 1], [2, 0, 1, 1, 1, 1]])  # the rows' weights in two resamples
    >>> metrics_from_untied_counts_batch(w, y, np.argsort(-s), keys=["auroc"])["auroc"].round(4).tolist()
    [0.8889, 1.0]
    """
    want = _wanted(keys)
    w_ = np.asarray(w, dtype=np.float64)
    order_ = np.asarray(order)
    stacked = w_.ndim == 3
    if not stacked:
        w_, order_ = w_[None], order_[None]
    yv = np.asarray(y) > 0
    if w_.ndim != 3 or order_.shape != (w_.shape[0], yv.size) or w_.shape[2] != yv.size or np.any(w_ < 0):
        raise ValueError("w must be non-negative (resamples x rows), or (rankings x resamples x rows) with one order "
                         "per ranking, one column per row of y")
    n_s, nb, _ = w_.shape
    yo = yv[order_]  # (S, n): the class of each rank
    n_pos = int(yv.sum())
    rows_pos = order_[yo].reshape(n_s, n_pos)
    rows_neg = order_[~yo].reshape(n_s, yv.size - n_pos)

    def by_rank(rows: np.ndarray, cums: np.ndarray, vals: np.ndarray | None = None) -> None:
        """Fill ``cums`` (ranks, S * B) with the weights' running sum down the ranks (summed along
        each resample's contiguous row, laid out with the resamples contiguous), ``vals`` with the weights."""
        for s in range(n_s):
            blk = w_[s][:, rows[s]]
            if vals is not None:
                vals[:, s * nb:(s + 1) * nb] = blk.T
            cums[:, s * nb:(s + 1) * nb] = np.cumsum(blk, axis=1).T

    pos, tpb = np.empty((n_pos, n_s * nb)), np.empty((n_pos, n_s * nb))
    by_rank(rows_pos, tpb, pos)
    fp0 = np.zeros((rows_neg.shape[1] + 1, n_s * nb))
    by_rank(rows_neg, fp0[1:])
    p = tpb[-1] if n_pos else np.zeros(n_s * nb)
    nn = fp0[-1]
    _check_classes(p, nn)
    keep = pos.any(axis=1)
    dtp = pos[keep]
    tpa = tpb[keep] - dtp
    neg_above = np.cumsum(~yo, axis=1)[yo].reshape(n_s, n_pos)  # negatives ranked above each positive
    fpa = np.empty_like(dtp)
    for s in range(n_s):
        fpa[:, s * nb:(s + 1) * nb] = fp0[:, s * nb:(s + 1) * nb][neg_above[s][keep]]
    out = _from_segments(tpa, fpa, dtp, np.zeros_like(dtp), p, nn, want)
    return {key: v.reshape(n_s, nb) for key, v in out.items()} if stacked else out


def _aupr_min_of(pi: np.ndarray) -> np.ndarray:
    """``np.asarray(aupr_min(pi), dtype=np.float64)``; for one resample (``pi`` of one value) remembered per
    value (:func:`prspace.metrics.boyd_minima._aupr_min_remembered`, evaluated as a one-value array: the same
    bits as the call)."""
    if pi.shape != (1,):
        return np.asarray(aupr_min(pi), dtype=np.float64)
    return _aupr_min_remembered(float(pi[0]), 0.0, 1.0, as_array=True)


def _down(x: np.ndarray, alone: bool) -> np.ndarray:
    """``x.sum(axis=0)`` (``x``: segments x resamples), the resamples' sums added down the segments one after
    the other; ``alone``: each resample's column summed as numpy sums it in a call on that resample alone (a
    contiguous column: pairwise summation), the bits of such calls (``metrics_from_group_counts_batch(...,
    alone=True)``)."""
    return np.ascontiguousarray(x.T).sum(axis=1) if alone else x.sum(axis=0)


def _from_segments(tpa: np.ndarray, fpa: np.ndarray, dtp: np.ndarray, dfp: np.ndarray, p: np.ndarray,
                   nn: np.ndarray, want: set[str], *, alone: bool = False) -> dict[str, np.ndarray]:
    """The batch kernel's metrics from its candidate segments ``(k, B)``: start counts ``tpa``,
    ``fpa`` and steps ``dtp``, ``dfp`` (a segment where ``dtp > 0``), class totals ``p``, ``nn``."""
    seg = dtp > 0  # the segments of _Segments; the rest add no area
    tpb = tpa + dtp
    fpb = fpa + dfp
    pi = p / (p + nn)
    out: dict[str, np.ndarray] = {}
    with np.errstate(divide="ignore", invalid="ignore"):
        if "auroc" in want:  # _auroc_from
            below = nn - fpa - 0.5 * dfp
            auroc = _down(np.where(seg, dtp * below, 0.0), alone) / (p * nn)
            out["auroc"] = np.clip(auroc, 0.0, 1.0)
        if want & {"average_precision", "aupr_linear"}:
            pb = tpb / (tpb + fpa + dfp)
        if "average_precision" in want:  # _ap_from
            ap = _down(np.where(seg, dtp * pb, 0.0), alone) / p
            out["average_precision"] = np.clip(ap, 0.0, 1.0)
        if want & {"aupr", "aucnpr"}:  # _aupr_hyperbolic_full: origin segments have constant precision
            d = dtp + dfp
            ba = tpa + fpa
            origin = seg & (ba == 0)
            zs = np.where(seg & ~origin, d / ba, np.where(origin, d, 1.0))
            log_z = _log1p(zs)  # not np.log1p: its bits follow the CPU (the C library's loop, or SVML)
            inner = _psi(zs, log_z)
            inner *= dtp
            log_z *= tpa
            inner += log_z
            inner = np.where(origin, dtp, inner)
            area = np.clip(_down(np.where(seg, (dtp / d) * inner, 0.0), alone) / p, 0.0, 1.0)
            if "aupr" in want:
                out["aupr"] = area
            if "aucnpr" in want:
                lo = np.concatenate([_aupr_min_of(pi[j : j + 1]) for j in range(pi.size)]) if alone else _aupr_min_of(pi)
                out["aucnpr"] = np.clip((area - lo) / (1.0 - lo), 0.0, 1.0)
        if "aupr_linear" in want:  # _aupr_linear: the start point takes the first threshold's precision
            ba = tpa + fpa
            pa = np.where(ba > 0, tpa / ba, pb)
            lin = _down(np.where(seg, dtp * (pa + pb), 0.0), alone) / (2.0 * p)
            out["aupr_linear"] = np.clip(lin, 0.0, 1.0)
        if "auprg" in want:
            out["auprg"] = _auprg_batch(seg, tpa, fpa, tpb, fpb, p, nn, alone)
    out.update({"pi": pi, "n_pos": p.copy(), "n_neg": nn.copy()})
    return {key: out[key] for key in (*_in_order(want), *_COUNTS)}


def _auprg_batch(seg: np.ndarray, tpa: np.ndarray, fpa: np.ndarray, tpb: np.ndarray, fpb: np.ndarray,
                 p: np.ndarray, nn: np.ndarray, alone: bool = False) -> np.ndarray:
    """AUPRG of every resample (columns) from the segments' end points (_prg_start, _auprg_block)."""
    nb = p.size
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
    rows = np.arange(seg.shape[0])[:, None]
    start = rows == first[None, :]
    rga = np.where(start, 0.0, rga)
    pga = np.where(start, y0[None, :], pga)
    tail = seg & (rows >= first[None, :])
    return np.minimum(_down(np.where(tail, (rgb - rga) * (pgb + pga), 0.0), alone) / 2.0, 1.0)
