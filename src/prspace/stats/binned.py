"""Scores binned for the resampling: the jackknife's and the bootstrap's replicates of many untied scores, a few
thousand columns.

A jackknife replicate's metrics come from the class counts of every tie group holding a positive
(:func:`prspace.stats.replicates._compressed_keys`): with untied scores that is one column per positive,
and the kernel's work grows with positives x replicates (at 10^6 rows and 5% positives, 50,000 columns
for each of some 500 replicates, per model, four times per audit).  The jackknife-t interval and the
jackknife's paired tests read the replicates only through their spread (the stratified jackknife
variance, :func:`prspace.stats.resampling.jackknife_variance`); the point estimates and the differences
they are centred on are computed from the exact scores elsewhere; the audit's bootstrap replicates are shifted by
each model's exact point minus its binned one (:func:`prspace.audit.inference.uncertainty._binned_bootstrap`).  So the replicates may be computed on
scores merged into at most :data:`JACK_BINS` bins of consecutive positive tie groups (equal numbers of
positive groups per bin; the negatives between two positive groups of one bin are tied with them): every
row keeps its class and its place up to one bin, and a left-out row's influence on each metric moves by
at most about ``1 / bins`` of the metric's range.

The audit measures what this costs (``benchmarks/bench_jack_bins.py``, ``docs/benchmarks.md``): the
ends of every jackknife-t interval computed from binned scores move by less than a tenth of the
interval's half-width; the tests check it on data made in the test (``tests/stats/test_binned.py``).
Blocks with at most :data:`JACK_BINS` positive tie groups are left exact (every test and simulation
at the sizes of the calibration tables).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from prspace import metrics as M
from prspace.stats.replicates import Block, _compressed_keys

__all__ = ["JACK_BINS", "binned_block", "binned_groups", "left_out_replicates", "left_out_replicates_sets"]

#: Most bins of positive tie groups a jackknife replicate is computed on (:func:`binned_block`).
JACK_BINS = 2048


def binned_groups(group: np.ndarray, y: np.ndarray, bins: int) -> np.ndarray:
    """Tie-group codes (0 = highest score, consecutive) with the positive tie groups merged into at most
    ``bins`` bins of consecutive groups (equal numbers of positive groups per bin), the negative-only
    groups between two positive groups of one bin merged into it: new codes, 0 = highest, consecutive.
    ``group`` unchanged (a copy) when it has at most ``bins`` positive groups."""
    group = np.asarray(group)
    n_groups = int(group.max()) + 1 if group.size else 0
    has_pos = np.zeros(n_groups, dtype=bool)
    has_pos[group[np.asarray(y) == 1]] = True
    n_pos = int(has_pos.sum())
    if n_pos <= bins:
        return group.copy()
    before = np.cumsum(has_pos) - has_pos  # positive groups above each group
    pos_bin = np.arange(n_pos, dtype=np.int64) * bins // n_pos  # bin of the p-th positive group
    # a negative-only group between positive groups p - 1 and p joins their bin when both are in one
    above = pos_bin[np.clip(before - 1, 0, n_pos - 1)]
    below = pos_bin[np.clip(before, 0, n_pos - 1)]
    inside = ~has_pos & (before > 0) & (before < n_pos) & (above == below)
    merged = has_pos | inside
    # a new code starts at every group except a merged one whose predecessor is in the same bin
    bin_of = np.where(merged, below, -1)
    new = np.ones(n_groups, dtype=bool)
    new[1:] = ~(merged[1:] & merged[:-1] & (bin_of[1:] == bin_of[:-1]))
    code = np.cumsum(new) - 1
    return code.astype(group.dtype if group.dtype.kind in "iu" else np.int64, copy=False)[group]


def binned_block(block: Block, bins: int = JACK_BINS) -> Block:
    """``block`` with each model's tie groups binned (:func:`binned_groups`) for its jackknife replicates; the
    block itself when no model has more than ``bins`` positive tie groups.  Scores, labels, weights and
    strata are unchanged (the jackknife reads only the tie groups)."""
    groups = [binned_groups(g, block.y, bins) for g in block.groups]
    if all(int(b.max(initial=-1)) == int(g.max(initial=-1)) for b, g in zip(groups, block.groups, strict=True)):
        return block
    return dataclasses.replace(block, groups=groups)


def left_out_replicates(y: np.ndarray, scores: list[np.ndarray], part: np.ndarray, n_parts: int, metric: str, *,
                        bins: int = JACK_BINS) -> np.ndarray:
    """``metric`` of each model of ``scores`` (unit weights) on all rows (row 0, from the exact scores) and with
    each part of rows left out (rows 1..``n_parts``: ``part`` gives each row's part, 0..n_parts - 1), from the
    class counts of the (binned, :func:`binned_groups`) tie groups: a left-out replicate's counts are the whole
    set's minus its part's (one ``bincount`` per model, no row weights per replicate), and only ``metric`` is
    computed; a replicate left with one class is NaN.  The values equal :func:`prspace.stats.replicates.weighted_metrics` of the 0/1 weights up to the
    order of summation when no model has more than ``bins`` positive tie groups.  Shape (1 + n_parts, models)."""
    y = np.asarray(y, dtype=bool)
    y01 = y.astype(np.int64)
    part = np.asarray(part, dtype=np.int64)
    out = np.empty((n_parts + 1, len(scores)))

    def values(both: np.ndarray) -> np.ndarray:  # (replicates, 2 columns) -> metric per replicate; one class: NaN
        tp, fp = both[:, 1::2], both[:, 0::2]
        ok = (tp.sum(axis=1) > 0) & (fp.sum(axis=1) > 0)
        res = np.full(both.shape[0], np.nan)
        if ok.any():
            res[ok] = M.metrics_from_group_counts_batch(tp[ok], fp[ok], keys=[metric])[metric]
        return res

    for k, s in enumerate(scores):
        exact = np.unique(-np.asarray(s), return_inverse=True)[1].ravel()
        coarse = binned_groups(exact, y01, bins)
        for g, first in ((coarse, True), (exact, False)):
            if not first and int(coarse.max()) == int(exact.max()):
                break  # not binned: row 0 is already exact
            key, width = _compressed_keys(g, y01)
            full = np.bincount(key, minlength=width).astype(np.float64)
            out[0, k] = values(full[None, :])[0]
            if first:
                per = np.bincount(part * width + key, minlength=n_parts * width).reshape(n_parts, width)
                out[1:, k] = values(full[None, :] - per)
    return out


def _set_order(sets: np.ndarray, s: np.ndarray) -> np.ndarray:
    """The rows in order of set, then decreasing score (ties in any order: only the tie groups are read).  Sets
    laid out as ``np.repeat(np.arange(k), n)`` (the planned test sets side by side) are sorted row by row of a
    ``(k, n)`` view, several times faster than one ``np.lexsort`` of every row; any other layout by ``np.lexsort``."""
    k = int(sets[-1]) + 1 if sets.size else 0
    if k and sets.size % k == 0:
        n = sets.size // k
        if np.array_equal(sets[::n], np.arange(k)) and np.array_equal(sets, np.repeat(np.arange(k), n)):
            return (np.argsort(-s.reshape(k, n), axis=1) + (np.arange(k) * n)[:, None]).ravel()
    return np.lexsort((-s, sets))


def _set_tie_groups(sets: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The tie groups of the scores ``s`` within each test set (``sets``: each row's set): one code per (set,
    distinct score), consecutive over all sets, in order of set then decreasing score (each set's codes are its
    ``np.unique(-s, return_inverse=True)`` shifted by the codes of the sets before it), and each code's set."""
    order = _set_order(sets, s)
    ss, vs = sets[order], -s[order]
    new = np.ones(order.size, dtype=bool)
    new[1:] = (ss[1:] != ss[:-1]) | (vs[1:] != vs[:-1])
    code = np.empty(order.size, dtype=np.int64)
    code[order] = np.cumsum(new) - 1
    return code, ss[new]


def _set_positive_groups(code: np.ndarray, code_set: np.ndarray, y: np.ndarray,
                         n_sets: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per code of :func:`_set_tie_groups`: whether it holds a positive, and the positive codes above it in its
    set; per set, its positive codes."""
    has_pos = np.zeros(code_set.size, dtype=bool)
    has_pos[code[y]] = True
    cum = np.cumsum(has_pos)
    first = np.searchsorted(code_set, np.arange(n_sets))  # each set's first code (code_set is sorted)
    before = cum - has_pos - np.r_[0, cum][first][code_set]
    return has_pos, before, np.bincount(code_set[has_pos], minlength=n_sets)


def _set_binned(code: np.ndarray, code_set: np.ndarray, y: np.ndarray, n_sets: int,
                bins: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`binned_groups` of every set's tie groups at once (codes as :func:`_set_tie_groups`): the new codes of
    the rows and each new code's set; a set with at most ``bins`` positive groups keeps its groups."""
    has_pos, before, n_pos = _set_positive_groups(code, code_set, y, n_sets)
    binned = n_pos > bins
    if not binned.any():
        return code, code_set
    npc = np.maximum(n_pos[code_set], 1)  # the code's set's positive groups
    above = np.clip(before - 1, 0, npc - 1) * bins // npc  # bin of the positive group above (as binned_groups)
    below = np.clip(before, 0, npc - 1) * bins // npc
    inside = ~has_pos & (before > 0) & (before < npc) & (above == below)
    merged = has_pos | inside
    bin_of = np.where(merged, below, -1)
    new = np.ones(code_set.size, dtype=bool)
    new[1:] = ~(merged[1:] & merged[:-1] & (bin_of[1:] == bin_of[:-1]) & (code_set[1:] == code_set[:-1]))
    new |= ~binned[code_set]
    recode = np.cumsum(new) - 1
    return recode[code], code_set[new]


def _set_keys(code: np.ndarray, code_set: np.ndarray, y: np.ndarray, n_sets: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`prspace.stats.replicates._compressed_keys` within each set: each row's key in its set's columns, and
    each set's number of keys (``2 width``)."""
    has_pos, before, n_pos = _set_positive_groups(code, code_set, y, n_sets)
    column = np.where(has_pos, 2 * before + 1, 2 * before)
    return 2 * column[code] + y.astype(np.int64), 2 * (2 * n_pos + 1)


def _kernel_values(tp: np.ndarray, fp: np.ndarray, metric: str) -> np.ndarray:
    """``metric`` of each column of the count arrays ``tp``, ``fp`` (tie-group columns x resamples, each row
    contiguous: the kernel's running sums then add contiguous rows); a column with one class: NaN."""
    ok = (tp.sum(axis=0) > 0) & (fp.sum(axis=0) > 0)
    res = np.full(tp.shape[1], np.nan)
    if ok.all():
        res[:] = M.metrics_from_group_counts_batch(tp.T, fp.T, keys=[metric])[metric]
    elif ok.any():
        res[ok] = M.metrics_from_group_counts_batch(tp[:, ok].T, fp[:, ok].T, keys=[metric])[metric]
    return res


def left_out_replicates_sets(y: np.ndarray, scores: list[np.ndarray], sets: np.ndarray, n_sets: int,
                             part: np.ndarray, n_parts: int, metric: str, *, bins: int = JACK_BINS) -> np.ndarray:
    """:func:`left_out_replicates` of ``n_sets`` test sets at once, in one kernel call (plus one for the exact row 0
    of the sets whose tie groups were binned): the rows of every set side by side (``sets``: each row's set,
    0..n_sets - 1, every set holding rows; ``y``, ``scores`` and ``part`` per row, ``part`` within the row's set).
    Each set's counts fill its own tie-group columns and the columns past its width stay zero: a column without
    positives in a resample adds no area (the kernel masks it) and its negatives count only through the running
    false positives below it, so every value is the one :func:`left_out_replicates` gives the set alone (the
    left-out rows bit for bit; row 0 up to the order of summation).  Shape (n_sets, 1 + n_parts, models)."""
    y = np.asarray(y, dtype=bool)
    sets = np.asarray(sets, dtype=np.int64)
    part = np.asarray(part, dtype=np.int64)
    k = len(scores)
    coarse, exact, keys = [], [], []
    for s in scores:
        code, code_set = _set_tie_groups(sets, np.asarray(s, dtype=np.float64))
        exact.append((code, code_set))
        coarse.append(_set_binned(code, code_set, y, n_sets, bins))
        keys.append(_set_keys(*coarse[-1], y, n_sets))
    w2 = int(max(int(width.max()) for _, width in keys))
    # counts laid out (key, model, set, part): a resample is a column, each key a contiguous row
    idx = np.concatenate([((key * k + m) * n_sets + sets) * n_parts + part for m, (key, _) in enumerate(keys)])
    per = np.bincount(idx, minlength=w2 * k * n_sets * n_parts).astype(np.float64).reshape(w2, k, n_sets, n_parts)
    counts = np.empty((w2, k, n_sets, n_parts + 1))
    per.sum(axis=3, out=counts[..., 0])
    np.subtract(counts[..., :1], per, out=counts[..., 1:])
    del per
    flat = counts.reshape(w2, -1)
    out = _kernel_values(flat[1::2], flat[0::2], metric).reshape(k, n_sets, n_parts + 1).transpose(1, 2, 0).copy()
    # row 0 from the exact scores where a set's tie groups were binned
    pairs = [(m, np.flatnonzero(np.bincount(exact[m][1], minlength=n_sets) != np.bincount(coarse[m][1],
                                                                                         minlength=n_sets)))
             for m in range(k)]
    pairs = [(m, b) for m, b in pairs if b.size]
    if pairs:
        rows, cols, widths = [], [], []
        col0 = 0
        for m, binned_sets in pairs:
            key, width = _set_keys(*exact[m], y, n_sets)
            slot = np.full(n_sets, -1)
            slot[binned_sets] = col0 + np.arange(binned_sets.size)
            keep = slot[sets] >= 0
            rows.append(key[keep])
            cols.append(slot[sets][keep])
            widths.append(int(width[binned_sets].max()))
            col0 += binned_sets.size
        we = max(widths)
        full = np.bincount(np.concatenate(rows) * col0 + np.concatenate(cols),
                           minlength=we * col0).astype(np.float64).reshape(we, col0)
        vals = _kernel_values(full[1::2], full[0::2], metric)
        col0 = 0
        for m, binned_sets in pairs:
            out[binned_sets, 0, m] = vals[col0 : col0 + binned_sets.size]
            col0 += binned_sets.size
    return out
