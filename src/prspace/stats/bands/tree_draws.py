"""The two-stage draws of :mod:`prspace.stats.bands` on many rows of distinct scores down a binary tree of leaves
(the package docstring, "Many distinct scores"): :func:`_tree_replicates`, its descent :func:`_tree_points`."""

from __future__ import annotations

import numpy as np

from prspace.stats.bands.curve_kernels import _KERNELS

#: Rows per leaf of :func:`_tree_replicates`' tree (consecutive tie groups; a tie group is never cut).
LEAF_ROWS = 16


def _search_values(curve: str, tp: np.ndarray, fp: np.ndarray, p: float, nn: float, last: np.ndarray) -> np.ndarray:
    """What the kernel of ``curve`` binary-searches, at operating points ``tp``/``fp`` (``last``: the final point,
    everything positive), with the kernel's own operations: ROC's FPR, PR's recall, PRG's recall gain."""
    if curve == "roc":
        return fp / nn
    if curve == "pr":
        return tp / p
    with np.errstate(divide="ignore", invalid="ignore"):
        rg = np.where(tp > 0, 1.0 - (p / nn) * ((p - tp) / tp), -np.inf)
    return np.where(last, 1.0, rg)


def _draw_in_cells(counts: np.ndarray, at: np.ndarray, bstart: np.ndarray, bend: np.ndarray, size: np.ndarray,
                   start: np.ndarray, g_sorted: np.ndarray, s_pos: np.ndarray, gen: np.random.Generator
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The second stage of the two-stage draws (:func:`_tree_replicates`' leaves and
    :func:`~prspace.stats.bands.band_draws._block_replicates`' blocks alike): given a cell's count, the rows drawn
    in it are that many uniform draws from its rows.  ``at`` the cells' leaves (or blocks), as many as their
    resamples, in order; ``counts`` (strata, ``at.size``) each stratum's draws in them; ``size``, ``start`` per
    (stratum, leaf) cell its rows and where they start in ``g_sorted`` (each row's tie group, the rows in (stratum,
    tie group) order); ``s_pos`` each stratum's class.  Returns the positives and negatives drawn per tie group of
    those leaves (in order: their first tie group ``bstart``, one past their last ``bend``), all at once."""
    n_s, nb = counts.shape[0], bstart.size
    width = bend[at] - bstart[at]
    shift = np.r_[0, np.cumsum(width)[:-1]] - bstart[at]  # tie group -> its place among these leaves'
    tp_in, fp_in = np.zeros(int(width.sum())), np.zeros(int(width.sum()))
    for k in range(n_s):
        c = counts[k]
        cells = k * nb + at
        u = gen.random(int(c.sum()))
        u *= np.repeat(size[cells], c)
        pos = u.astype(np.int64)
        pos += np.repeat(start[cells], c)
        local = g_sorted[pos]
        local += np.repeat(shift, c)
        (tp_in if s_pos[k] else fp_in)[:] += np.bincount(local, minlength=tp_in.size)
    return tp_in, fp_in


def _tree_points(m: int, prefix: np.ndarray, s_pos: np.ndarray, bstart: np.ndarray, bend: np.ndarray,
                 grid: dict[str, np.ndarray], curves: tuple[str, ...], left_counts, leaf_counts
                 ) -> list[tuple[np.ndarray, np.ndarray]]:
    """The operating points the kernels read, of ``m`` resamples (module docstring, "Many distinct scores"): from
    the root (every leaf, each stratum's rows all drawn) each node holding a point the kernels read is split in two
    halves of leaves, ``left_counts(k, node, lo, mid, hi, count)`` giving stratum k's draws in the left half
    (the binomial); a half holding none is one operating point (its end); a leaf holding one gives every tie
    group's point, ``leaf_counts(node, leaf, counts)`` their draws: per tie group of those leaves (in order) the
    positives and negatives.  Returns per resample ``(tp0, fp0)``: a subsequence of its operating points holding
    every point the kernels read (and its first and last), in order.  ``prefix``: (strata, leaves + 1) the rows of
    each stratum before each leaf; ``s_pos`` each stratum's class."""
    n_s, nb = prefix.shape[0], prefix.shape[1] - 1
    p, nn = float(prefix[s_pos, -1].sum()), float(prefix[~s_pos, -1].sum())
    side = {c: "left" if c == "roc" else "right" for c in curves}  # ROC: a <= f < b; PR, PRG: a < r <= b
    zero = "pr" in curves and grid["pr"][0] == 0.0  # PR at recall 0: the first point with a positive

    def place(tp: np.ndarray, fp: np.ndarray, last: bool) -> list[np.ndarray]:
        """Per curve, the grid points at or below (ROC) / below (PR, PRG) each point's searched value."""
        flag = np.full(tp.shape, last)
        return [np.searchsorted(grid[c], _search_values(c, tp, fp, p, nn, flag), side[c]) for c in curves]

    node = np.arange(m)  # resample of each active node
    lo, hi = np.zeros(m, dtype=np.int64), np.full(m, nb, dtype=np.int64)
    cnt = np.repeat(prefix[:, -1:], m, axis=1)  # (strata, nodes)
    tp_b, fp_b = np.zeros(m), np.zeros(m)  # the points before each node
    tp_e = np.full(m, p)  # the positives up to each node's end
    ia, ib = place(tp_b, fp_b, False), place(np.full(m, p), np.full(m, nn), True)  # at each node's start and end
    done_res, done_key, done_tp, done_fp = [], [], [], []
    leaf_res, leaf_at, leaf_cnt = [], [], []
    while node.size:
        leaf = hi - lo == 1
        if leaf.any():
            leaf_res.append(node[leaf])
            leaf_at.append(lo[leaf])
            leaf_cnt.append(cnt[:, leaf])
            keep = ~leaf
            node, lo, hi, cnt, tp_b, fp_b, tp_e = (node[keep], lo[keep], hi[keep], cnt[:, keep], tp_b[keep],
                                                   fp_b[keep], tp_e[keep])
            ia, ib = [x[keep] for x in ia], [x[keep] for x in ib]
            if not node.size:
                break
        mid = (lo + hi) // 2
        left = np.stack([left_counts(k, node, lo, mid, hi, cnt[k]) for k in range(n_s)])
        tp_m = tp_b + left[s_pos].sum(axis=0)
        fp_m = fp_b + left[~s_pos].sum(axis=0)
        im = place(tp_m, fp_m, False)  # the point between the halves (never the last: mid < hi)
        read_l = np.zeros(node.size, dtype=bool)
        read_r = np.zeros(node.size, dtype=bool)
        for k in range(len(curves)):
            read_l |= im[k] > ia[k]
            read_r |= ib[k] > im[k]
        if zero:
            read_l |= (tp_b == 0) & (tp_m > 0)
            read_r |= (tp_m == 0) & (tp_e > 0)
        fp_e = fp_b + cnt[~s_pos].sum(axis=0)
        # a half holding no point the kernels read: one operating point, its end
        for out, key, t0, f0, t1, f1 in ((~read_l, lo, tp_b, fp_b, tp_m, fp_m), (~read_r, mid, tp_m, fp_m, tp_e, fp_e)):
            done_res.append(node[out])
            done_key.append(bstart[key[out]])
            done_tp.append(t1[out] - t0[out])
            done_fp.append(f1[out] - f0[out])
        node = np.r_[node[read_l], node[read_r]]
        lo, hi = np.r_[lo[read_l], mid[read_r]], np.r_[mid[read_l], hi[read_r]]
        cnt = np.concatenate([left[:, read_l], (cnt - left)[:, read_r]], axis=1)
        tp_b, fp_b = np.r_[tp_b[read_l], tp_m[read_r]], np.r_[fp_b[read_l], fp_m[read_r]]
        tp_e = np.r_[tp_m[read_l], tp_e[read_r]]
        ia, ib = ([np.r_[x[read_l], y[read_r]] for x, y in zip(ia, im, strict=True)],
                  [np.r_[x[read_l], y[read_r]] for x, y in zip(im, ib, strict=True)])
    res = np.concatenate(done_res) if done_res else np.zeros(0, np.int64)
    key = np.concatenate(done_key) if done_key else np.zeros(0, np.int64)
    tp, fp = (np.concatenate(done_tp), np.concatenate(done_fp)) if done_tp else (np.zeros(0), np.zeros(0))
    del done_res, done_key, done_tp, done_fp  # their pieces: joined
    if leaf_res:
        l_res, l_at = np.concatenate(leaf_res), np.concatenate(leaf_at)
        l_cnt = np.concatenate(leaf_cnt, axis=1)
        del leaf_res, leaf_at, leaf_cnt
        order = np.lexsort((l_at, l_res))
        l_res, l_at, l_cnt = l_res[order], l_at[order], l_cnt[:, order]
        width = bend[l_at] - bstart[l_at]
        g_tp, g_fp = leaf_counts(l_res, l_at, l_cnt)
        res = np.r_[res, np.repeat(l_res, width)]
        key = np.r_[key, np.repeat(bstart[l_at] - np.r_[0, np.cumsum(width)[:-1]], width) + np.arange(width.sum())]
        tp, fp = np.r_[tp, g_tp], np.r_[fp, g_fp]
    order = np.lexsort((key, res))
    res, tp, fp = res[order], tp[order], fp[order]
    del key, order
    cut = np.searchsorted(res, np.arange(m + 1))
    del res
    out = []
    for r in range(m):
        a, b = cut[r], cut[r + 1]
        tp0, fp0 = np.zeros(b - a + 1), np.zeros(b - a + 1)
        np.cumsum(tp[a:b], out=tp0[1:])
        np.cumsum(fp[a:b], out=fp0[1:])
        out.append((tp0, fp0))
    return out


def _tree_replicates(group: np.ndarray, yb: np.ndarray, stratum: np.ndarray, grid: dict[str, np.ndarray],
                     curves: tuple[str, ...], n_boot: int, gen: np.random.Generator) -> dict[str, np.ndarray]:
    """Step 2 of the audit's bands on many distinct scores (module docstring, "Many distinct scores"): the tie
    groups cut into leaves of about :data:`LEAF_ROWS` rows, a stratum's draws split between the two halves of a
    node by a binomial with the halves' shares of its rows (the row draws' distribution), only where a point the
    kernels read lies (:func:`_tree_points`), and in a leaf holding one the rows drawn uniformly within it:
    :func:`_tree_draws` on :func:`_tree_cells`."""
    return _tree_draws(_tree_cells(group, yb, stratum), grid, curves, n_boot, gen)


def _tree_cells(group: np.ndarray, yb: np.ndarray, stratum: np.ndarray) -> dict[str, np.ndarray]:
    """The tree's leaves and cells (:func:`_tree_replicates`): per leaf its first tie group and one past its last
    (``bstart``, ``bend``); per (stratum, leaf) cell its rows (``size``), where they start (``start``) in
    ``g_sorted`` (each row's tie group, the rows in (stratum, tie group) order: a cell is one run of them), each
    stratum's rows before each leaf (``prefix``) and each stratum's class (``s_pos``).  The descent reads these
    only, not the rows' own arrays; made with few arrays of the rows alive at once."""
    n = group.size
    n_groups = int(group.max()) + 1
    cum = np.cumsum(np.bincount(group, minlength=n_groups))
    edges = np.searchsorted(cum, np.arange(1, n // LEAF_ROWS + 1) * LEAF_ROWS, "left")
    del cum
    bstart = np.unique(np.r_[0, np.minimum(edges + 1, n_groups)])
    bstart = bstart[bstart < n_groups]
    nb = bstart.size
    bend = np.r_[bstart[1:], n_groups]
    strata = np.unique(stratum)
    s_code = np.searchsorted(strata, stratum)
    n_s = strata.size
    cell = np.repeat(np.arange(nb), bend - bstart)[group]  # each row's leaf
    cell += s_code * nb  # its (stratum, leaf) cell
    size = np.bincount(cell, minlength=n_s * nb)
    # g_sorted: the rows' tie groups sorted by (stratum, tie group), as group[np.lexsort((group, s_code))]: the
    # cell's buffer holds the pair as one number, sorted in place, then the stratum taken off
    np.multiply(s_code, n_groups, out=cell)
    cell += group
    cell.sort()
    g_sorted = cell
    at = np.r_[0, np.cumsum(np.bincount(s_code, minlength=n_s))]
    for k in range(1, n_s):
        g_sorted[at[k]:at[k + 1]] -= k * n_groups
    start = np.r_[0, np.cumsum(size)[:-1]]
    prefix = np.zeros((n_s, nb + 1), dtype=np.int64)
    np.cumsum(size.reshape(n_s, nb), axis=1, out=prefix[:, 1:])
    s_pos = np.zeros(n_s, dtype=bool)
    s_pos[s_code[yb]] = True  # each stratum's class
    return {"bstart": bstart, "bend": bend, "size": size, "start": start, "g_sorted": g_sorted, "prefix": prefix,
            "s_pos": s_pos}


def _tree_draws(cells: dict[str, np.ndarray], grid: dict[str, np.ndarray], curves: tuple[str, ...],
                n_boot: int, gen: np.random.Generator) -> dict[str, np.ndarray]:
    """The resamples of :func:`_tree_replicates` on the tree of :func:`_tree_cells`."""
    bstart, bend, size, start, g_sorted, prefix, s_pos = (cells[k] for k in ("bstart", "bend", "size", "start",
                                                                            "g_sorted", "prefix", "s_pos"))

    def left_counts(k, node, lo, mid, hi, count):
        rows = prefix[k, hi] - prefix[k, lo]
        share = np.divide(prefix[k, mid] - prefix[k, lo], rows, out=np.zeros(rows.size), where=rows > 0)
        return gen.binomial(count, share)

    def leaf_counts(res, at, counts):
        return _draw_in_cells(counts, at, bstart, bend, size, start, g_sorted, s_pos, gen)

    reps = {c: np.empty((n_boot, grid[c].size)) for c in curves}
    for b0 in range(0, n_boot, TREE_CHUNK):
        m = min(TREE_CHUNK, n_boot - b0)
        for r, (tp0, fp0) in enumerate(_tree_points(m, prefix, s_pos, bstart, bend, grid, curves, left_counts,
                                                    leaf_counts)):
            for c in curves:
                reps[c][b0 + r] = _KERNELS[c](tp0, fp0, grid[c])
    return reps


#: Resamples :func:`_tree_replicates` descends at once.
TREE_CHUNK = 64
