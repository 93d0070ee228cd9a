"""Metrics on reweighted rows: one engine for the bootstrap and the jackknife of the audit and the studies.

One module (over 400 lines): the bootstrap's and the jackknife's paths (unit weights, any weights, groups)
share one :class:`Block`, one column layout (:func:`_compressed_keys`) and one kernel call
(:func:`_metrics_of_columns`), and must stay bit for bit equal to each other.

A :class:`Block` holds models scored on the same examples (a task's models, or a model's CV repeats
beside each other: any list of rankings of one set of rows).  Every ranking is sorted once (its tie
groups, ``np.unique(-scores, return_inverse=True)``); a replicate is a vector of row weights
(bootstrap counts, jackknife 0/1 weights, times the rows' own weights), and its metrics come from the
per-tie-group class sums of those weights through :func:`prspace.metrics.metrics_from_group_counts_batch`,
all replicates at once, never from copied rows (Efron and Tibshirani 1993, ch. 6 and 11: resampling
examples; a row drawn ``c`` times weighs ``c``).

* :func:`weighted_metrics`: the metrics under any given weights (the studies pass their own random
  streams: :func:`prspace.stats.resampling.stratified_counts`, ``jackknife_weights``);
* :func:`bootstrap`: a stratified bootstrap (:class:`~prspace.stats.resampling.StratumSampler`,
  within class or class x fold: :data:`SCHEMES`) in chunks of resamples;
* :func:`jackknife`: the stratified jackknife (:func:`~prspace.stats.resampling.jackknife_groups`).

Class sums of integer weights are exact in any order, and the kernel sums segments one after the
other along the replicate axis, so merging the tie groups without positives (:func:`_compressed_keys`)
adds only exact zeros: the values equal ``metrics_from_group_counts_batch`` of the per-group
``np.bincount`` sums bit for bit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from scipy import sparse

from prspace import metrics as M
from prspace.metrics.names import REPORTED_METRICS
from prspace.stats.resampling import (
    JACK_GROUPS,
    StratumSampler,
    jackknife_groups,
    jackknife_weights,
)

__all__ = ["BOOT_METRICS", "SCHEMES", "Block", "bootstrap", "cluster_strata", "jackknife", "point_metrics", "strata_of", "replicate_chunks", "weighted_metrics"]

#: Metrics the bootstrap resamples (keys of :func:`prspace.metrics.metrics_from_group_counts`).
BOOT_METRICS = REPORTED_METRICS


@dataclasses.dataclass
class Block:
    """Models of one task scored on the same examples (or a single model on its own rows).

    ``y``, ``stratum``, ``weight`` per example; ``groups[k]`` maps example -> tie group of model k's scores (0 =
    highest score); ``scores[k]`` the scores per example; ``cache``: the audit's once per block (not an argument).
    """

    task: str
    models: list[str]
    y: np.ndarray
    stratum: np.ndarray
    weight: np.ndarray
    groups: list[np.ndarray]
    scores: list[np.ndarray]
    #: Grouped rows (``--group-col``): the group (patient, subject, site) of each example, codes
    #: 0..G-1, or None (rows resampled one by one).  With groups, :func:`bootstrap` and
    #: :func:`jackknife` resample whole groups (a cluster bootstrap / jackknife).
    cluster: np.ndarray | None = None
    #: Per group, the stratum its draws are made within (its fold when every group lies in one fold,
    #: else 0 for all: :func:`cluster_strata`).  Groups are never stratified by class: a group
    #: usually holds both classes, and it moves with all its rows.
    cluster_stratum: np.ndarray | None = None
    cache: dict = dataclasses.field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def paired(self) -> bool:
        return len(self.models) > 1

    @property
    def grouped(self) -> bool:
        return self.cluster is not None

    @property
    def n_clusters(self) -> int:
        return int(self.cluster.max()) + 1 if self.cluster is not None and self.cluster.size else 0


def cluster_strata(cluster: np.ndarray, fold_code: np.ndarray) -> tuple[np.ndarray, bool]:
    """Per group (``cluster`` codes 0..G-1 per row), the stratum its resampling draws within, and whether
    the groups nest in the folds: each group's fold (factorised) when every group lies in one fold
    (the fold then keeps its number of groups in every resample, as GroupKFold made it), else one
    stratum for all groups (a group spanning folds cannot be held to one)."""
    cluster = np.asarray(cluster, dtype=np.int64)
    fold_code = np.asarray(fold_code, dtype=np.int64)
    n = int(cluster.max()) + 1 if cluster.size else 0
    lo = np.full(n, np.iinfo(np.int64).max)
    hi = np.full(n, np.iinfo(np.int64).min)
    np.minimum.at(lo, cluster, fold_code)
    np.maximum.at(hi, cluster, fold_code)
    if n and (lo == hi).all():
        return np.unique(lo, return_inverse=True)[1].ravel().astype(np.int64), True
    return np.zeros(n, dtype=np.int64), False


def _compressed_keys(group: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, int]:
    """Per row ``2 column + y`` over the columns that matter for the metrics: every tie group
    holding a positive row keeps its own column (odd columns); the negative-only groups between
    two such groups (or after the last) are merged into one column (even columns), whose
    negatives count only through the cumulative FP below it, as in the row-wise kernel.
    A resample draws within each class, so a group without positive rows never gets any."""
    n_groups = int(group.max()) + 1
    has_pos = np.zeros(n_groups, dtype=bool)
    has_pos[group[y == 1]] = True
    before = np.cumsum(has_pos) - has_pos  # positive groups above each group
    column = np.where(has_pos, 2 * before + 1, 2 * before)
    width = 2 * int(has_pos.sum()) + 1
    # int32 when the columns allow it (half the memory of int64 a row; the same numbers): ``y`` is 0/1 (or bool)
    key = (2 * column).astype(np.int32 if 2 * width <= np.iinfo(np.int32).max else np.int64)[group]
    np.add(key, y, out=key, casting="unsafe")
    return key, 2 * width


#: Resampling schemes of :func:`bootstrap`: the strata within which rows are drawn.  ``"class"``
#: (the audit's default): rows within their class, folds ignored, so a resample's fold class
#: counts vary as they do between test sets drawn with unstratified folds; ``"class x fold"``:
#: rows within class and fold (every fold keeps its class counts; too narrow when the folds
#: were not stratified, ``docs/calibration.md``, "The audit's intervals and tests").
SCHEMES = ("class", "class x fold")


def strata_of(block: Block, scheme: str) -> np.ndarray:
    """The strata of ``scheme`` (:data:`SCHEMES`) for ``block``'s rows."""
    if scheme == "class":
        return block.y.astype(np.int64)
    if scheme == "class x fold":
        return block.stratum
    raise ValueError(f"unknown resampling scheme {scheme!r}; choose one of {', '.join(SCHEMES)}")


def point_metrics(block: Block) -> np.ndarray:
    """:data:`BOOT_METRICS` of every model on all rows (weights respected): array (models, metrics)."""
    order = np.arange(block.y.size)
    out = np.empty((1, len(block.models), len(BOOT_METRICS)))
    _metrics_of_counts(_column_sums(block, order), block.weight[None, :].astype(np.float64), out)
    return out[0]


#: Cells (replicates x rows) :func:`weighted_metrics` scores at a time: 16 MB of float64, under glibc's largest mmap
#: threshold (:mod:`prspace.core.memory`), so chunks reuse freed memory instead of faulting in pages.  The loopback
#: draw's largest task (236,064 rows, 30 models, 200 resamples): 151 s (72 s system) in one call, 76 s in chunks.
CHUNK_CELLS = 1 << 21


def replicate_chunks(n_replicates: int, n_rows: int, *, cells: int = CHUNK_CELLS) -> list[slice]:
    """Consecutive slices of ``range(n_replicates)`` of about ``cells // n_rows`` replicates each, near-equal in size
    and none of a single replicate unless ``n_replicates`` is 1: the batch kernel adds a lone column's segments
    pairwise (``alone``), two or more one after the other, so every chunk gives the bits of the whole batch.

    >>> replicate_chunks(10, 1_000_000)
    [slice(0, 2, None), slice(2, 4, None), slice(4, 6, None), slice(6, 8, None), slice(8, 10, None)]
    """
    if n_replicates <= 1:
        return [slice(0, n_replicates)]
    n_chunks = min(-(-n_replicates // max(2, cells // max(n_rows, 1))), n_replicates // 2)
    bounds = np.linspace(0, n_replicates, n_chunks + 1).round().astype(int)
    return [slice(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def weighted_metrics(block: Block, weights: np.ndarray) -> np.ndarray:
    """:data:`BOOT_METRICS` of every model under each row of ``weights`` (replicates, rows), times
    the block's weights: array (replicates, models, metrics); a replicate left with one class: NaN.
    Scored :data:`CHUNK_CELLS` at a time (:func:`replicate_chunks`: the same bits as all at once)."""
    w = np.atleast_2d(np.asarray(weights, dtype=np.float64))
    out = np.empty((w.shape[0], len(block.models), len(BOOT_METRICS)))
    sums = _column_sums(block, np.arange(block.y.size))
    for part in replicate_chunks(w.shape[0], w.shape[1]):
        _metrics_of_counts(sums, w[part] * block.weight, out[part])
    return out


def bootstrap(block: Block, *, n_boot: int, rng: np.random.Generator, chunk: int = 0,
              scheme: str = "class x fold", tick: Callable[[int], object] | None = None) -> np.ndarray:
    """Replicates of :data:`BOOT_METRICS`: array (n_boot, n_models, n_metrics).

    ``scheme`` (:data:`SCHEMES`): the strata the rows are drawn within (the studies' and earlier
    audits' ``"class x fold"`` by default; the audit passes ``"class"``).

    One sort per model (its tie groups, ``Block.groups``) and count resampling vectorised
    over resamples: a chunk of resamples is drawn at once (the same random stream, hence the
    same counts, as :class:`~prspace.stats.resampling.StratumSampler` drawing them one by one); per
    model, one sparse 0/1 matrix product (rows summed in row order, as ``np.bincount`` of the
    loop) gives every resample's positives and negatives per column (:func:`_compressed_keys`: the tie groups
    holding positives, and the merged runs of negative-only groups between them), and
    :func:`prspace.metrics.metrics_from_group_counts_batch` turns them into the metrics of
    all resamples at once.  A resample left with one class (zero weights) gives NaN.
    ``tick``: called with the number of resamples done after each chunk (a progress bar's ``update``).
    """
    if block.grouped:
        return _cluster_bootstrap(block, n_boot=n_boot, rng=rng, chunk=chunk, tick=tick)
    sampler = StratumSampler(strata_of(block, scheme), rng)
    order = sampler.order
    weight = block.weight[order]
    unit = bool(np.all(weight == 1.0))
    n = order.size
    out = np.empty((n_boot, len(block.models), len(BOOT_METRICS)))
    step = chunk or max(1, min(n_boot, 2_500_000 // max(n, 1)))
    if unit:
        _unit_bootstrap(block, sampler, n_boot, step, out, tick)
        return out
    sums = _column_sums(block, order)
    for start in range(0, n_boot, step):
        size = min(step, n_boot - start)
        c = sampler.counts_batch(size)  # (size, n)
        if not unit:
            c *= weight
        _metrics_of_counts(sums, c, out[start : start + size])
        if tick is not None:
            tick(size)
    return out


#: The per-row draw counts of :func:`_unit_bootstrap`: one byte a row (a wrapped count is detected and redone).
ROW_COUNT_DTYPE = np.uint8
#: Rows summed at a time into the models' columns by :func:`_unit_bootstrap`: the counts made float64 and each
#: model's keys made the platform's integer (as ``np.bincount`` does) a chunk at a time, in cache, instead of
#: over every row at once (three 48 MB key conversions a resample at 6 x 10^6 rows, each a new array).
SUM_ROWS = 1 << 16


def _unit_bootstrap(block: Block, sampler: StratumSampler, n_boot: int, step: int, out: np.ndarray,
                    tick: Callable[[int], object] | None) -> None:
    """:func:`bootstrap` of a block with unit weights: each resample's draws counted per row once (shared by
    the models), then summed in row order into each model's columns of :func:`_compressed_keys` (a weighted
    ``bincount``, :data:`SUM_ROWS` rows at a time).  Whole numbers (exact in float64, in any order of
    summation): they, and the metrics, equal bit for bit those of :meth:`StratumSampler.counts_batch` (the same
    random stream) summed by :func:`_metrics_of_counts`.

    One resample at a time (:meth:`StratumSampler.count_into`: the stream of ``draws_batch``, :data:`SUM_ROWS`
    draws at a time), its draws counted into one byte per row (``np.add.at``: a table an eighth of
    ``bincount``'s, which is what the random increments of a large block wait on); a row drawn 256 times or
    more wraps its byte, which the resample's total (not ``n`` then) shows, and that resample is drawn again
    from the generator's state before it (:meth:`StratumSampler.draws`) and counted with ``bincount``."""
    order = sampler.order
    n, y = order.size, block.y[order]  # labels as bool: only the keys read them
    keys = [_compressed_keys(g[order], y) for g in block.groups]
    most = max(1, min(n, SUM_ROWS))
    u, drawn = np.empty(most), np.empty(most, dtype=np.int64)  # the draws' work arrays, a chunk long
    per_row = np.zeros(n, dtype=ROW_COUNT_DTYPE)
    chunk = np.empty(most)  # a chunk's counts as the weights of the models' bincounts
    for start in range(0, n_boot, step):
        size = min(step, n_boot - start)
        cols = [np.empty((width, size)) for _key, width in keys]
        for r in range(size):
            state = sampler.rng.bit_generator.state
            per_row.fill(0)
            sampler.count_into(per_row, u, drawn)
            _sum_columns(keys, per_row, chunk, cols, r)
            if cols[0][:, r].sum() != n:  # a row's byte wrapped: the resample drawn again and counted in int64
                again = np.random.Generator(type(sampler.rng.bit_generator)())
                again.bit_generator.state = state
                _sum_columns(keys, np.bincount(sampler.draws(again), minlength=n), chunk, cols, r)
        for k, both in enumerate(cols):
            _metrics_of_columns(both, out[start : start + size, k])
        if tick is not None:
            tick(size)


def _sum_columns(keys: list[tuple[np.ndarray, int]], counts: np.ndarray, chunk: np.ndarray, cols: list[np.ndarray],
                 r: int) -> None:
    """Column ``r`` of every model's ``cols``: the per-row ``counts`` summed into its ``keys``' columns, a chunk of
    rows at a time (``chunk``: a float64 work array of :data:`SUM_ROWS` or fewer)."""
    for c in cols:
        c[:, r] = 0.0
    n, most = counts.size, chunk.size
    for a in range(0, n, most):
        weights = chunk[: min(most, n - a)]
        np.copyto(weights, counts[a : a + most])
        for (key, width), c in zip(keys, cols, strict=True):
            c[:, r] += np.bincount(key[a : a + most], weights=weights, minlength=width)


def _cluster_bootstrap(block: Block, *, n_boot: int, rng: np.random.Generator, chunk: int = 0,
                       tick: Callable[[int], object] | None = None) -> np.ndarray:
    """The cluster bootstrap of a grouped block: per resample, the groups are drawn with replacement
    within their strata (:attr:`Block.cluster_stratum`: the fold where groups nest in folds), and every
    row weighs its group's count (times its own weight).  The classes are not stratified (a group
    holds rows of both), so a resample's class counts vary with the groups drawn; one left with a
    single class gives NaN."""
    sampler = StratumSampler(block.cluster_stratum, rng)
    n = block.y.size
    sums = _column_sums(block, np.arange(n))
    out = np.empty((n_boot, len(block.models), len(BOOT_METRICS)))
    per = np.empty((0, block.n_clusters))
    step = chunk or max(1, min(n_boot, 2_500_000 // max(n, 1)))
    for start in range(0, n_boot, step):
        size = min(step, n_boot - start)
        cc = sampler.counts_batch(size)  # (size, G), groups in stratum order
        if per.shape[0] != size:
            per = np.empty((size, block.n_clusters))
        per[:, sampler.order] = cc
        _metrics_of_counts(sums, per[:, block.cluster] * block.weight, out[start : start + size])
        if tick is not None:
            tick(size)
    return out


def _column_sums(block: Block, order: np.ndarray) -> list[sparse.csr_matrix]:
    """Per model, the 0/1 matrix (columns x rows, rows in ``order``) that sums a replicate's
    counts into the columns of :func:`_compressed_keys`."""
    y = block.y[order].astype(np.int64)
    n = y.size
    sums = []
    for g in block.groups:
        key, width = _compressed_keys(g[order], y)
        sums.append(sparse.csr_matrix((np.ones(n), (key, np.arange(n))), shape=(width, n)))
    return sums


def _metrics_of_counts(sums: list[sparse.csr_matrix], c: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out`` (replicates, models, :data:`BOOT_METRICS`) from per-row weights ``c``
    (replicates, rows in the order of ``sums``); a replicate left with one class gives NaN."""
    ct = np.ascontiguousarray(c.T)  # (n, size): rows summed in row order, as np.bincount does
    for k, a in enumerate(sums):
        _metrics_of_columns(a @ ct, out[:, k])  # (columns, size): row 2 column + y


def _metrics_of_columns(both: np.ndarray, block_out: np.ndarray, *, alone: bool = False) -> None:
    """Fill ``block_out`` (replicates, :data:`BOOT_METRICS`) of one model from its column counts ``both``
    (columns of :func:`_compressed_keys`, replicates; C order); a replicate left with one class gives NaN.
    ``alone``: each replicate's values those of a call on it alone (``metrics_from_group_counts_batch``'s)."""
    tp, fp = both[1::2].T, both[0::2].T
    ok = (tp.sum(axis=1) > 0) & (fp.sum(axis=1) > 0)
    if ok.all():
        m = M.metrics_from_group_counts_batch(tp, fp, alone=alone)
        block_out[:] = np.column_stack([m[name] for name in BOOT_METRICS])
        return
    block_out[~ok] = np.nan
    if ok.any():
        m = M.metrics_from_group_counts_batch(tp[ok], fp[ok])
        block_out[ok] = np.column_stack([m[name] for name in BOOT_METRICS])


#: A stratum of at most this many rows is left out one row at a time (no randomness): the positives of
#: a skewed task, which move AP, AUPR and AUCNPR most, are never cut into a few random groups (with
#: 10 positives per fold cut into 2 groups the AP interval moved with the seed, issue 40).
DELETE_ONE_ROWS = 50
#: Fewest random groups of a larger stratum (its share of ``max_groups`` when that is more).
MIN_GROUPS = 50


def _stratum_rows(stratum: np.ndarray) -> Iterator[tuple[Any, np.ndarray]]:
    """Each distinct stratum (ascending) with its rows, ``np.flatnonzero(stratum == s)``: from one stable sort
    of the strata (a radix sort of small non-negative integers), not a pass over every row per stratum."""
    values = np.unique(stratum)
    if stratum.dtype.kind in "iu" and values.size and values[0] >= 0 and values[-1] < 2**16:
        order = np.argsort(stratum.astype(np.uint16), kind="stable")
        cuts = np.searchsorted(stratum[order], values, side="right")
        start = 0
        for s, stop in zip(values, cuts, strict=True):
            yield s, order[start:stop]
            start = stop
        return
    for s in values:
        yield s, np.flatnonzero(stratum == s)


def stable_groups(stratum: np.ndarray, *, max_groups: int = JACK_GROUPS,
                  rng: np.random.Generator | None = None) -> tuple[list[np.ndarray], np.ndarray]:
    """The rows each jackknife replicate leaves out, and the stratum of each replicate: with at most
    ``max_groups`` rows, or in a stratum of at most :data:`DELETE_ONE_ROWS` rows, one row at a time;
    a larger stratum of ``n_s`` rows is cut at random (``rng``) into ``max(MIN_GROUPS, round(max_groups
    n_s / n))`` groups of nearly equal size.  Only those large strata depend on the seed, and a group
    of them holds at most ``1 / MIN_GROUPS`` of its stratum."""
    stratum = np.asarray(stratum)
    n = stratum.size
    if n <= max_groups:
        return jackknife_groups(stratum, max_groups=max_groups, rng=rng)
    groups: list[np.ndarray] = []
    of: list[int] = []
    for s, rows in _stratum_rows(stratum):
        if rows.size <= DELETE_ONE_ROWS:
            parts = [rows[i : i + 1] for i in range(rows.size)]
        else:
            if rng is None:
                raise ValueError("a delete-a-group jackknife needs an rng")
            count = int(min(rows.size, max(MIN_GROUPS, round(max_groups * rows.size / n))))
            parts = [np.sort(p) for p in np.array_split(rng.permutation(rows), count)]
        groups += parts
        of += [int(s)] * len(parts)
    return groups, np.asarray(of, dtype=np.int64)


def jackknife(block: Block, *, max_groups: int = JACK_GROUPS, rng: np.random.Generator | None = None,
              chunk: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Stratified jackknife replicates of :data:`BOOT_METRICS`: ``(replicates (G, models, metrics),
    stratum of each replicate (G,))``; replicate g leaves out the g-th group of rows of one stratum
    (class x fold; :func:`stable_groups`), scored with one sort per model and the batch kernel,
    as :func:`bootstrap`.  Sample weights are respected (a left-out row takes its weight with it).
    A replicate left with one class gives NaN.
    """
    if block.grouped:
        return _cluster_jackknife(block, max_groups=max_groups, rng=rng, chunk=chunk)
    groups, of = stable_groups(block.stratum, max_groups=max_groups, rng=rng)
    if np.all(block.weight == 1.0):
        return _unit_jackknife(block, groups, chunk=chunk), of
    order = np.argsort(block.stratum, kind="stable")
    n = order.size
    sums = _column_sums(block, order)
    n_rep = len(groups)
    out = np.empty((n_rep, len(block.models), len(BOOT_METRICS)))
    step = chunk or max(1, min(n_rep, 2_500_000 // max(n, 1)))
    for start in range(0, n_rep, step):
        size = min(step, n_rep - start)
        c = jackknife_weights(groups[start : start + size], n) * block.weight  # rows in their own order
        _metrics_of_counts(sums, c[:, order], out[start : start + size])
    return out, of


#: Most cells (columns x replicates) of one batch of :func:`_unit_jackknife` handed to the kernel: its arrays
#: stay a few MB however many rows the block has (500,000 cells held about 31 MB of the kernel's temporaries,
#: the peak of an audit of 10^5 rows; 125,000 about 8 MB, the values the same).
JACK_BATCH_CELLS = 125_000


def _unit_jackknife(block: Block, groups: list[np.ndarray], *, chunk: int = 0) -> np.ndarray:
    """:func:`jackknife`'s replicates of a block with unit weights, without a pass over every row per
    replicate: a replicate's column counts are the whole block's minus those of the rows it leaves out.
    The counts are whole numbers (exact in float64), so they, and the metrics, equal bit for bit the
    sums of 0/1 weights over every row (:func:`_metrics_of_counts`, the weighted path).

    The kernel is called on batches of many replicates (:data:`JACK_BATCH_CELLS`), not on the weighted
    path's chunks of ``2.5e6 / rows`` replicates (two at a million rows: thousands of calls).  Its
    values do not depend on the batch (its sums add the columns one after the other for each replicate,
    and a column without positives in one replicate adds an exact zero) except for a call on a single
    replicate, whose sums numpy adds pairwise: a replicate the chunked path scores alone (a chunk of one,
    or the only replicate of its chunk with both classes) is scored alone here too, so every value is
    bit for bit the chunked path's."""
    n = block.y.size
    keys = [_compressed_keys(g, block.y) for g in block.groups]  # row order: a row's column does not depend on it
    n_rep = len(groups)
    out = np.empty((n_rep, len(block.models), len(BOOT_METRICS)))
    step = chunk or max(1, min(n_rep, 2_500_000 // max(n, 1)))  # the chunks of the weighted path
    for k, (key, width) in enumerate(keys):
        full = np.bincount(key, minlength=width).astype(np.float64)
        batch = step * max(1, JACK_BATCH_CELLS // (width * step))  # whole chunks
        for start in range(0, n_rep, batch):
            part = groups[start : start + batch]
            both = np.repeat(full[:, None], len(part), axis=1)  # (columns, size), C order
            for j, rows in enumerate(part):
                both[:, j] -= np.bincount(key[rows], minlength=width)
            _metrics_in_chunks(both, out[start : start + len(part), k], step)
    return out


def _metrics_in_chunks(both: np.ndarray, block_out: np.ndarray, step: int) -> None:
    """:func:`_metrics_of_columns` of every replicate of ``both`` (columns, replicates) in one call, the
    same values as calls on its chunks of ``step`` replicates: a replicate such a call would score alone
    (pairwise sums) is scored alone."""
    size = both.shape[1]
    ok = (both[1::2].sum(axis=0) > 0) & (both[0::2].sum(axis=0) > 0)
    chunk_of = np.arange(size) // step
    alone = ok & (np.bincount(chunk_of, weights=ok, minlength=chunk_of[-1] + 1)[chunk_of] == 1)
    together = ok & ~alone
    block_out[~ok] = np.nan
    if together.any():
        cols = np.flatnonzero(together)
        res = np.empty((len(cols), block_out.shape[1]))
        _metrics_of_columns(np.ascontiguousarray(both[:, cols]), res)
        block_out[cols] = res
    single = np.flatnonzero(alone)
    if single.size > 1:  # those holding positives in every tie group any of them does: one call, each as alone
        has = both[1::2][:, single] > 0
        common = (has == has.any(axis=1)[:, None]).all(axis=0)
        if common.sum() > 1:
            cols = single[common]
            res = np.empty((len(cols), block_out.shape[1]))
            _metrics_of_columns(np.ascontiguousarray(both[:, cols]), res, alone=True)
            block_out[cols] = res
            single = single[~common]
    for j in single:
        res = np.empty((1, block_out.shape[1]))
        _metrics_of_columns(np.ascontiguousarray(both[:, [j]]), res)
        block_out[[j]] = res
def _cluster_jackknife(block: Block, *, max_groups: int = JACK_GROUPS, rng: np.random.Generator | None = None,
                       chunk: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The jackknife of a grouped block: replicate g leaves out every row of one group (up to
    ``max_groups`` groups; more are cut at random into sets of groups within strata,
    :func:`stable_groups` over the groups), strata :attr:`Block.cluster_stratum` (never the class)."""
    parts, of = stable_groups(block.cluster_stratum, max_groups=max_groups, rng=rng)
    n = block.y.size
    sums = _column_sums(block, np.arange(n))
    n_rep = len(parts)
    out = np.empty((n_rep, len(block.models), len(BOOT_METRICS)))
    step = chunk or max(1, min(n_rep, 2_500_000 // max(n, 1)))
    for start in range(0, n_rep, step):
        size = min(step, n_rep - start)
        per = jackknife_weights(parts[start : start + size], block.n_clusters)  # (size, G)
        _metrics_of_counts(sums, per[:, block.cluster] * block.weight, out[start : start + size])
    return out, of
