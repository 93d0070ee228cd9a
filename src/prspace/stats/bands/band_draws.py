"""The resamples of :mod:`prspace.stats.bands` (step 2 of its docstring) and their curves on the grids: by rows
(:func:`_row_replicates`), by (tie group, class) cells (:func:`_tied_replicates`), by whole groups
(:func:`_grouped_replicates`), and in two stages by blocks of tie groups (:func:`_block_replicates`; the tree's
draws are :mod:`prspace.stats.bands.tree_draws`)."""

from __future__ import annotations

import numpy as np

from prspace.core.errors import InputError
from prspace.stats.bands.curve_kernels import _KERNELS, _ROW_KERNELS, _prg_rows, _search_rows
from prspace.stats.bands.tree_draws import _draw_in_cells
from prspace.stats.replicates import cluster_strata
from prspace.stats.resampling import StratumSampler


def _row_replicates(key: np.ndarray, w: np.ndarray, stratum: np.ndarray, size: int, grid: dict[str, np.ndarray],
                    curves: tuple[str, ...], n_boot: int, gen: np.random.Generator, *,
                    unit: bool) -> dict[str, np.ndarray]:
    """Step 2 by rows (module docstring): each resample's rows drawn within their strata
    (:class:`~prspace.stats.resampling.StratumSampler`), their counts (times the weights) summed per tie group
    and class."""
    sampler = StratumSampler(stratum, gen)
    key_o, w_o = key[sampler.order], w[sampler.order]
    reps = {c: np.empty((n_boot, grid[c].size)) for c in curves}
    tp0, fp0 = np.zeros(size // 2 + 1), np.zeros(size // 2 + 1)
    for b in range(n_boot):
        if unit:  # whole counts, exact in any order: each row's draws counted, then summed per key in row order
            g = np.bincount(key_o, weights=np.bincount(sampler.draws(), minlength=key_o.size), minlength=size).reshape(-1, 2)
        else:
            g = np.bincount(key_o, weights=sampler.counts() * w_o, minlength=size).reshape(-1, 2)
        np.cumsum(g[:, 1], out=tp0[1:])
        np.cumsum(g[:, 0], out=fp0[1:])
        for c in curves:
            reps[c][b] = _KERNELS[c](tp0, fp0, grid[c])
    return reps


def _tied_replicates(key: np.ndarray, stratum: np.ndarray, size: int, grid: dict[str, np.ndarray],
                     curves: tuple[str, ...], n_boot: int, gen: np.random.Generator) -> dict[str, np.ndarray]:
    """The replicates of step 2 when the scores hold few distinct values (ties): drawing ``n_s`` rows with
    replacement from a stratum of ``n_s`` rows gives each (tie group, class) cell of the stratum a count
    that is, jointly, multinomial(``n_s``, the cells' shares of the stratum), so the counts per cell are
    drawn directly (``Generator.multinomial``, all resamples of a stratum at once): the same bootstrap
    distribution as drawing the rows, at a cost in the cells, not the rows (another random stream)."""
    reps = {c: np.empty((n_boot, grid[c].size)) for c in curves}
    cells = [np.unique(key[stratum == s], return_counts=True) for s in np.unique(stratum)]
    chunk = max(1, 4_000_000 // size)  # the draws' chunks: another chunk would be another stream
    count = np.int32 if key.size < 2**31 else np.int64  # a cell's count is at most the rows
    for b0 in range(0, n_boot, chunk):
        m = min(chunk, n_boot - b0)
        g = np.zeros((m, size), dtype=count)
        filled = np.zeros(size, dtype=bool)
        for k, n in cells:
            drawn = gen.multinomial(int(n.sum()), n / n.sum(), size=m)
            if filled[k].any():  # a cell in two strata (tie group and class in several folds): summed
                g[:, k] += drawn
            else:
                g[:, k] = drawn
            filled[k] = True
            del drawn
        # the curves in pieces of KERNEL_ROWS resamples: each resample's row is computed alone (its cumulative
        # sums, binary search and elementwise operations), so the pieces give the same numbers in less memory
        for r0 in range(0, m, KERNEL_ROWS):
            part = g[r0 : r0 + KERNEL_ROWS]
            tp0, fp0 = np.zeros((len(part), size // 2 + 1)), np.zeros((len(part), size // 2 + 1))
            np.cumsum(part[:, 1::2], axis=1, dtype=np.float64, out=tp0[:, 1:])  # whole counts: exact in any order
            np.cumsum(part[:, 0::2], axis=1, dtype=np.float64, out=fp0[:, 1:])
            for c in curves:
                reps[c][b0 + r0 : b0 + r0 + len(part)] = _ROW_KERNELS[c](tp0, fp0, grid[c])
    return reps


#: Resamples per call of the tied bands' curve kernels (:func:`_tied_replicates`): their temporaries are about
#: ten arrays of this many rows x tie groups.
KERNEL_ROWS = 128


def _grouped_replicates(key: np.ndarray, w: np.ndarray, cluster: np.ndarray, code: np.ndarray, size: int,
                        grid: dict[str, np.ndarray], curves: tuple[str, ...], n_boot: int,
                        gen: np.random.Generator) -> dict[str, np.ndarray]:
    """The replicates of the cluster bootstrap (module docstring, "Grouped rows"): per resample the
    groups' multinomial counts within their strata, each row weighted by its group's count; resamples
    left with one class dropped."""
    gstrat, _ = cluster_strata(cluster, code)
    sampler = StratumSampler(gstrat, gen)
    reps = {c: np.empty((n_boot, grid[c].size)) for c in curves}
    tp0, fp0 = np.zeros(size // 2 + 1), np.zeros(size // 2 + 1)
    per = np.empty(gstrat.size)
    kept = np.ones(n_boot, dtype=bool)
    for b in range(n_boot):
        per[sampler.order] = sampler.counts()  # the counts come in stratum order
        g = np.bincount(key, weights=per[cluster] * w, minlength=size).reshape(-1, 2)
        np.cumsum(g[:, 1], out=tp0[1:])
        np.cumsum(g[:, 0], out=fp0[1:])
        if not (tp0[-1] > 0 and fp0[-1] > 0):
            kept[b] = False
            continue
        for c in curves:
            reps[c][b] = _KERNELS[c](tp0, fp0, grid[c])
    if kept.sum() < 2:
        raise InputError("fewer than two group resamples hold both classes; bands need groups of both classes")
    return {c: r[kept] for c, r in reps.items()}


def _block_sizes(n: int) -> int:
    """Rows per block of :func:`_block_replicates`: about ``sqrt(n / 40)`` (the cost of the blocks' multinomial
    draws, per block, against the rows drawn again in the few blocks the grid points fall in), at least 16."""
    return max(16, int(np.sqrt(n / 40.0)))


def _crossings(curve: str, tp: np.ndarray, fp: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """The index, in the points ``tp``/``fp`` (a subsequence of a resample's operating points holding its first and
    last), of the first point the kernel of ``curve`` at ``grid`` reads after its binary search (ROC: the first with
    FPR above the grid point; PR and PRG: the first with recall, recall gain, at or above it; PR at recall 0 also
    the first point with a positive): the curve's value at a grid point depends only on that point and the one
    before it (:func:`_roc_at`, :func:`_pr_at`, :func:`_prg_at`, with the same elementwise operations)."""
    if curve == "roc":
        return np.searchsorted(fp / fp[-1], grid, side="right")
    p = tp[-1]
    if curve == "pr":
        j = np.searchsorted(tp / p, grid, side="left")
        if grid[0] == 0.0:
            j = np.r_[j, np.argmax(tp > 0)]
        return j
    nn = fp[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        rg = np.where(tp > 0, 1.0 - (p / nn) * ((p - tp) / tp), -np.inf)
    rg[-1] = 1.0
    return np.searchsorted(rg, grid, side="left")


def _block_replicates(group: np.ndarray, yb: np.ndarray, stratum: np.ndarray, grid: dict[str, np.ndarray],
                      curves: tuple[str, ...], n_boot: int, gen: np.random.Generator) -> dict[str, np.ndarray]:
    """Step 2 of the audit's bands on many distinct scores, in two stages, drawing the same bootstrap as the rows
    (another random stream; module docstring, "Many distinct scores").  The tie groups (score order) are cut into
    blocks of about :func:`_block_sizes` rows; a stratum's rows drawn with replacement give its (block) cells
    counts that are jointly multinomial (the cells' shares of the stratum), and, given a cell's count, the rows
    drawn in it are that many uniform draws from its rows.  So each resample draws its cells' counts (all
    resamples at once, ``Generator.multinomial``); its operating points at the block ends are their cumulative
    sums; the points each curve's grid reads fall in a few blocks (:func:`_crossings` on the block ends), and only
    there are the rows drawn, giving every operating point inside them.  The kernels then run on the block ends
    and those blocks' points: a subsequence of the resample's operating points holding every point they read, so
    each value is the one the kernel gives on all the points (whole counts: the cumulative sums are exact)."""
    n = group.size
    n_groups = int(group.max()) + 1
    rows_in = np.bincount(group, minlength=n_groups)
    edges = np.searchsorted(np.cumsum(rows_in), np.arange(1, n // _block_sizes(n) + 1) * _block_sizes(n), "left")
    bstart = np.unique(np.r_[0, np.minimum(edges + 1, n_groups)])  # first tie group of each block
    bstart = bstart[bstart < n_groups]
    nb = bstart.size
    bend = np.r_[bstart[1:], n_groups]  # one past the last tie group of each block
    block_of = np.repeat(np.arange(nb), bend - bstart)  # per tie group
    strata = np.unique(stratum)
    s_code = np.searchsorted(strata, stratum)
    n_s = strata.size
    # the rows in (stratum, tie group) order: a cell (stratum, block) is one run of them
    order = np.lexsort((group, s_code))
    g_sorted = group[order]
    cell = s_code[order] * nb + block_of[g_sorted]
    cell_size = np.bincount(cell, minlength=n_s * nb)
    cell_start = np.r_[0, np.cumsum(cell_size)[:-1]]
    s_pos = np.array([bool(yb[s_code == k][0]) for k in range(n_s)])  # each stratum's class
    s_rows = cell_size.reshape(n_s, nb).sum(axis=1)
    reps = {c: np.empty((n_boot, grid[c].size)) for c in curves}
    chunk = max(1, min(n_boot, BLOCK_CHUNK))
    for b0 in range(0, n_boot, chunk):
        m = min(chunk, n_boot - b0)
        counts = np.empty((m, n_s, nb), dtype=np.int64)
        for k in range(n_s):
            counts[:, k, :] = gen.multinomial(int(s_rows[k]), cell_size[k * nb:(k + 1) * nb] / s_rows[k], size=m)
        tp_blk = counts[:, s_pos, :].sum(axis=1).astype(np.float64)
        fp_blk = counts[:, ~s_pos, :].sum(axis=1).astype(np.float64)
        tp_end = np.zeros((m, nb + 1))
        fp_end = np.zeros((m, nb + 1))
        np.cumsum(tp_blk, axis=1, out=tp_end[:, 1:])
        np.cumsum(fp_blk, axis=1, out=fp_end[:, 1:])
        hit = _hit_rows(tp_end, fp_end, grid, curves)
        rr, hb = np.nonzero(hit)  # the hit blocks, resample by resample
        # the rows drawn in the strata's cells hit: uniform within each (all resamples at once)
        tp_in, fp_in = _draw_in_cells(counts[rr, :, hb].T, hb, bstart, bend, cell_size, cell_start, g_sorted, s_pos,
                                      gen)
        del counts
        tp0, fp0, last = _compact_rows(tp_blk, fp_blk, hit, bstart, bend, tp_in, fp_in)
        for c in curves:
            if c == "prg":
                reps[c][b0:b0 + m] = _prg_rows(tp0, fp0, grid[c], last)
            else:  # the padding (copies of the final point) moves neither ROC's nor PR's search
                reps[c][b0:b0 + m] = _ROW_KERNELS[c](tp0, fp0, grid[c])
    return reps


#: Resamples :func:`_block_replicates` draws and runs the kernels on at once (their points padded to the longest):
#: at 10^5 rows about 20 MB, as one resample at a time (32: 45 MB, no faster).
BLOCK_CHUNK = 8


def _hit_rows(tp_end: np.ndarray, fp_end: np.ndarray, grid: dict[str, np.ndarray], curves: tuple[str, ...]
              ) -> np.ndarray:
    """:func:`_hit_blocks` of many resamples at once (rows of ``tp_end``/``fp_end``), as a (resamples, blocks) mask:
    the same searched values (:func:`_crossings`' elementwise operations), searched row by row."""
    m, nb = tp_end.shape[0], tp_end.shape[1] - 1
    hit = np.zeros((m, nb), dtype=bool)
    rows = np.arange(m)[:, None]
    p, nn = tp_end[:, -1:], fp_end[:, -1:]
    for c in curves:
        if c == "roc":
            idx = _search_rows(fp_end / nn, grid[c], "right")
        elif c == "pr":
            idx = _search_rows(tp_end / p, grid[c], "left")
            if grid[c][0] == 0.0:
                idx = np.c_[idx, np.argmax(tp_end > 0, axis=1)]
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                rg = np.where(tp_end > 0, 1.0 - (p / nn) * ((p - tp_end) / tp_end), -np.inf)
            rg[:, -1] = 1.0
            idx = _search_rows(rg, grid[c], "left")
        hit[rows, np.clip(idx - 1, 0, nb - 1)] = True
    return hit


def _compact_rows(tp_blk: np.ndarray, fp_blk: np.ndarray, hit: np.ndarray, bstart: np.ndarray, bend: np.ndarray,
                  tp_in: np.ndarray, fp_in: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_compact_points` of many resamples at once: ``tp_blk``, ``fp_blk`` (resamples, blocks) their counts
    per block, ``hit`` (resamples, blocks) the blocks whose tie groups are kept, ``tp_in``, ``fp_in`` the counts per
    tie group of the hit blocks (resample by resample, blocks in order).  Returns ``tp0``, ``fp0`` (resamples,
    longest + 1): each row its points from the origin, then copies of its final point up to the longest row's
    length, and ``last``, each row's index of its final point."""
    m, nb = tp_blk.shape
    n_el = np.ones((m, nb), dtype=np.int64)
    rr, hb = np.nonzero(hit)
    width = bend[hb] - bstart[hb]
    n_el[rr, hb] = width
    off = np.cumsum(n_el, axis=1)
    last = off[:, -1].copy()  # points per row = the index of its final point in tp0 (after the origin)
    off -= n_el  # first element of each block, per row
    tp_el, fp_el = np.zeros((m, int(last.max()))), np.zeros((m, int(last.max())))
    mr, mb = np.nonzero(~hit)
    at = off[mr, mb]
    tp_el[mr, at] = tp_blk[mr, mb]
    fp_el[mr, at] = fp_blk[mr, mb]
    inside = np.repeat(off[rr, hb] - np.r_[0, np.cumsum(width)[:-1]], width) + np.arange(int(width.sum()))
    row = np.repeat(rr, width)
    tp_el[row, inside] = tp_in
    fp_el[row, inside] = fp_in
    tp0, fp0 = np.zeros((m, tp_el.shape[1] + 1)), np.zeros((m, tp_el.shape[1] + 1))
    np.cumsum(tp_el, axis=1, out=tp0[:, 1:])  # whole counts: exact in any order; the padding adds zeros
    np.cumsum(fp_el, axis=1, out=fp0[:, 1:])
    return tp0, fp0, last


def _hit_blocks(tp_end: np.ndarray, fp_end: np.ndarray, grid: dict[str, np.ndarray], curves: tuple[str, ...]
                ) -> np.ndarray:
    """The blocks (sorted) holding every operating point the kernels of ``curves`` read, from the points at the
    block ends (``tp_end``/``fp_end``: the origin, then the end of each block): a point :func:`_crossings` finds
    at index i (the end of block i - 1) lies in block i - 1 in the whole curve too, and the point before it in
    the same block or at its start (the end of the block before: kept)."""
    nb = tp_end.size - 1
    hit = np.zeros(nb, dtype=bool)
    for c in curves:
        hit[np.clip(_crossings(c, tp_end, fp_end, grid[c]) - 1, 0, nb - 1)] = True
    return np.flatnonzero(hit)


def _compact_points(tp_blk: np.ndarray, fp_blk: np.ndarray, hb: np.ndarray, bstart: np.ndarray, bend: np.ndarray,
                    tp_in: np.ndarray, fp_in: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A resample's operating points at the block ends and at every tie group of the blocks ``hb``: ``tp_blk``,
    ``fp_blk`` its counts per block, ``tp_in``, ``fp_in`` its counts per tie group of those blocks (in order);
    cumulative, from the origin (the subsequence of its operating points the kernels read, exact: whole counts)."""
    nb = tp_blk.size
    n_el = np.ones(nb, dtype=np.int64)
    n_el[hb] = bend[hb] - bstart[hb]
    off = np.r_[0, np.cumsum(n_el)[:-1]]
    tp_el, fp_el = np.zeros(int(n_el.sum())), np.zeros(int(n_el.sum()))
    miss = np.ones(nb, dtype=bool)
    miss[hb] = False
    tp_el[off[miss]] = tp_blk[miss]
    fp_el[off[miss]] = fp_blk[miss]
    width = n_el[hb]
    inside = np.repeat(off[hb] - np.r_[0, np.cumsum(width)[:-1]], width) + np.arange(int(width.sum()))
    tp_el[inside] = tp_in
    fp_el[inside] = fp_in
    tp0, fp0 = np.zeros(tp_el.size + 1), np.zeros(fp_el.size + 1)
    np.cumsum(tp_el, out=tp0[1:])
    np.cumsum(fp_el, out=fp0[1:])
    return tp0, fp0
