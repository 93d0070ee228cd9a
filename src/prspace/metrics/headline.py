"""Every headline metric at once: :func:`all_metrics` from one sort of the scores, and the same
metrics from (weighted) counts per tie group, one count vector or a batch of resamples."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from prspace.metrics._kernel import _Curve, _Segments, _segments, _segments_from_curve, _unit
from prspace.metrics.boyd import _aucnpr_from, aupr_min
from prspace.metrics.pr import _ap_from, _aupr_hyperbolic_full, _aupr_linear, _psi
from prspace.metrics.prg import _auprg_from
from prspace.metrics.roc import _auroc_from

__all__ = ["all_metrics", "metrics_from_group_counts", "metrics_from_group_counts_batch"]


def _headline(g: _Segments) -> dict[str, float]:
    """Every headline metric of one ranking's segments (the dict of :func:`all_metrics`)."""
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
    return _headline(_segments(y_true, y_score, pos_label, sample_weight))


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
    return _headline(_segments_from_curve(c))


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
