"""The audit's frame as the paired resampling reads it: one :class:`~prspace.stats.replicates.Block`
per task (:func:`blocks`), its scores' tie groups (:func:`tie_groups`), and DeLong's AUROCs and
covariance of a block's models computed once (:func:`block_delong`).

The intervals built on them are :mod:`prspace.stats.intervals` (DeLong's, the jackknife-t, Boyd et
al.'s); the stratified count bootstrap and jackknife of every metric are
:mod:`prspace.stats.replicates` (the engine the studies use too).  Models scored on the same rows
share each resample's counts, which makes the paired differences of
:mod:`prspace.audit.inference.audit_pairwise` a paired bootstrap.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from prspace.audit.intake import keys
from prspace.audit.intake.rows import n_distinct, task_groups
from prspace.core import memory
from prspace.stats.bands import tie_groups as sorted_tie_groups
from prspace.stats.binned import JACK_BINS, binned_block
from prspace.stats.delong import delong
from prspace.stats.replicates import Block, cluster_strata


def block_delong(block: Block) -> tuple[np.ndarray, np.ndarray]:
    """:func:`delong` of a block's models (its labels and scores), computed once per block: the intervals
    (:mod:`prspace.audit.inference.uncertainty`) and the all-pairs tests (:mod:`prspace.audit.inference.audit_pairwise`) both read it."""
    fit = block.cache.get("delong")
    if fit is None:
        fit = block.cache["delong"] = delong(block.y, block.scores, groups=block.groups)
        memory.release()  # its k x n components, freed, handed back before the jackknives
    return fit


def jack_block(block: Block) -> Block:
    """The block the audit's jackknives and bootstrap run on, made once per block: its scores binned when a model has more
    positive tie groups than :data:`prspace.stats.binned.JACK_BINS` (:func:`prspace.stats.binned.binned_block`;
    the jackknife reads only the replicates' spread, the points stay exact), else the block itself."""
    jb = block.cache.get("jack_block")
    if jb is None:
        jb = block.cache["jack_block"] = binned_block(block)
    return jb


def binned_lines(tasks: list[str], multi: bool) -> list[str]:
    """The line that says which tasks' resampling replicates came from binned scores (:func:`jack_block`)."""
    if not tasks:
        return []
    where = f" (task{'s' if len(tasks) > 1 else ''} {', '.join(map(str, tasks))})" if multi else ""
    return [f"jackknife and bootstrap replicates{where} on the scores binned into {JACK_BINS:,} bins of positive tie "
            "groups, the bootstrap's shifted to the exact points (every point estimate and difference exact; the "
            "interval ends move by less than a tenth of their half-width: benchmarks/bench_jack_bins.py, "
            "docs/benchmarks.md)"]


def _sort_ranks(values: pd.Series) -> tuple[np.ndarray, np.ndarray] | None:
    """``(rank, code)``: the rank of each distinct value's ``str(value)`` among the column's distinct texts
    (ties share a rank) and each row's code (``rank[code]`` is a row's rank; :func:`_examples` reads it a
    model's rows at a time, not as one array over every row), or None when a text holds NUL (the joined key
    of :func:`_examples` could then not be split back) or the column mixes missing values with others
    (factorize would not keep None's text apart from NaN's)."""
    if keys.any_na(values):  # no folds (None in every row): one text, one rank
        na = values.isna().to_numpy()
        if na.all() and len({str(v) for v in values.to_numpy(dtype=object)}) == 1:
            return np.zeros(1, dtype=np.int64), np.zeros(len(values), dtype=np.int8)
        return None
    code, uniques = keys.factorize(values)
    ints = np.asarray(uniques) if isinstance(uniques.dtype, np.dtype) and uniques.dtype.kind in "iu" else None
    texts = [] if ints is not None else [str(v) for v in uniques]
    if any("\x00" in t for t in texts):
        return None
    longest = max(map(len, texts), default=0)
    if ints is not None and len(ints) and ints.min() >= 0 and len(str(ints.max())) <= 17:
        return _text_ranks_of_naturals(ints), code
    if ints is not None or len(texts) * max(longest, 1) <= 16_000_000:  # numpy's fixed-width text sorts by code
        # point, as str does; integer row ids: numpy's text of each is str()'s, made without a Python str each
        if ints is not None:  # as wide as the longest text (astype(str) would take 21 characters each), and as
            # bytes (an integer's text is ASCII: the same order, a quarter of the memory of the unicode text: 42
            # instead of 168 MB for 6 x 10^6 row ids, and again for each side of the comparison below)
            longest = max(len(str(ints.min())), len(str(ints.max())))
            fixed = ints.astype(f"S{longest}")
        else:
            fixed = np.array(texts, dtype=f"<U{max(longest, 1)}")
        order = np.argsort(fixed, kind="stable")
        new = np.ones(len(fixed), dtype=bool)
        new[1:] = fixed[order[1:]] != fixed[order[:-1]]  # two values with one text: one rank
        rank = np.empty(len(fixed), dtype=np.int64)
        rank[order] = np.cumsum(new) - 1
        return rank, code
    order = sorted(range(len(texts)), key=texts.__getitem__)
    rank = np.empty(len(texts), dtype=np.int64)
    rank[order] = np.arange(len(texts))
    if len(set(texts)) < len(texts):  # two values with one text: one rank
        first: dict[str, int] = {}
        rank = np.array([first.setdefault(texts[i], int(rank[i])) for i in range(len(texts))], dtype=np.int64)
    return rank, code


def _text_ranks_of_naturals(ints: np.ndarray) -> np.ndarray:
    """The rank of each of distinct integers >= 0 (at most 17 digits) among their decimal texts, from numbers
    alone: a text sorts as its digits read as a fraction, then the shorter first (a prefix sorts first), so its
    key is ``v 10^(L - d) (L + 1) + d`` for ``d`` digits of at most ``L``; distinct integers have distinct texts
    and keys (no ties, so any sort gives the one order).  The ranks :func:`_sort_ranks` gets from numpy's
    fixed-width texts, without them (a third of the time at 6 x 10^6 row ids)."""
    ints = ints.astype(np.int64, copy=False)
    width = len(str(int(ints.max())))
    digits = np.ones(ints.size, dtype=np.int8)
    for j in range(1, width):
        digits += ints >= 10**j
    scale = 10 ** np.arange(width, -1, -1, dtype=np.int64)  # scale[d] = 10^(L - d)
    key = scale[digits]
    key *= ints
    key *= width + 1
    key += digits
    order = np.argsort(key)
    del key, digits
    rank = np.empty(ints.size, dtype=np.int64)
    rank[order] = np.arange(ints.size)
    return rank


def _examples(g: pd.DataFrame, models: list[str]) -> list[np.ndarray] | None:
    """Each model's rows in one shared example order (positions in ``g``), or None when the models' rows
    differ.

    With row ids, a row's key is its text ``fold + NUL + row``, and each model's rows are sorted by it
    (stable); the key is not built per row: NUL sorts before any other character, so the texts sort as
    the pairs (fold text, row text), and their ranks among the distinct texts sort the same way."""
    per = _model_rows(g, models)
    if keys.any_na(g["row"]):  # no row ids: the i-th row of every model is the same example
        fold = g["fold"].to_numpy()
        found = per, all(len(p) == len(per[0]) and (fold[p] == fold[per[0]]).all() for p in per)
    else:
        fold_rank, row_rank = _sort_ranks(g["fold"]), _sort_ranks(g["row"])
        if fold_rank is None or row_rank is None:  # a text with NUL: the keys themselves
            found = _keyed_by_text(g, per)
        else:
            found = _keyed_by_ranks(per, fold_rank, row_rank)
    del per
    if found is None or not found[1]:
        return None
    keyed = found[0]
    y, w = g["y"].to_numpy(), g["weight"].to_numpy()
    if not all((y[k] == y[keyed[0]]).all() for k in keyed) or not all((w[k] == w[keyed[0]]).all() for k in keyed):
        return None
    return keyed


def _keyed_by_text(g: pd.DataFrame, per: list[np.ndarray]) -> tuple[list[np.ndarray], bool] | None:
    """:func:`_examples` by the texts ``fold + NUL + row`` themselves (a text holds a NUL): each model's rows
    in the order of their keys, and whether every model has the same keys; None when a model repeats a key."""
    text = (g["fold"].map(str) + "\x00" + g["row"].map(str)).to_numpy(dtype=object)
    per_key = [text[p] for p in per]
    if any(pd.Series(k).duplicated().any() for k in per_key):
        return None
    orders = [pd.Series(k).sort_values(kind="stable").index.to_numpy() for k in per_key]
    first = per_key[0][orders[0]]
    same = all(len(k) == len(first) and (k[o] == first).all() for k, o in zip(per_key, orders, strict=True))
    del first
    keyed = [p[o] for p, o in zip(per, orders, strict=True)]
    del per_key, orders
    return keyed, same


def _keyed_by_ranks(per: list[np.ndarray], fold_rank: tuple[np.ndarray, np.ndarray],
                    row_rank: tuple[np.ndarray, np.ndarray]) -> tuple[list[np.ndarray], bool] | None:
    """:func:`_examples` by the ranks of the fold and row texts (:func:`_sort_ranks`), one model at a time: its
    rows' keys, their order, its rows in that order (no array over all rows); ``per`` is reordered in place.
    None when a model repeats a key."""
    (f_rank, f_code), (r_rank, r_code) = fold_rank, row_rank
    span, n_folds = int(r_rank.max()) + 1, int(f_rank.max()) + 1
    first, same = None, True
    for i, p in enumerate(per):
        k = f_rank[f_code[p]]
        k *= span
        k += r_rank[r_code[p]]
        if n_distinct(k, n_folds * span) < len(k):
            return None
        o = np.argsort(k, kind="stable")
        k = k[o]
        if first is None:
            first = k
        elif not (len(k) == len(first) and (k == first).all()):
            same = False
        per[i] = p[o]
        del k, o, p
    del first
    return per, same


def _model_rows(g: pd.DataFrame, models: list[str]) -> list[np.ndarray]:
    """Per model, the positions of its rows in ``g`` (in ``g``'s order)."""
    code, values = keys.factorize(g["model"])
    where = {v: i for i, v in enumerate(values)}
    return [np.flatnonzero(code == where[m]) for m in models]


def _text_codes(col: pd.Series, rows: np.ndarray) -> np.ndarray:
    """``pd.factorize(col.iloc[rows].map(str))[0]``: the rows' codes of their values' texts, in order of first
    appearance; without a missing value, from the column's (remembered) codes and one text per value."""
    if keys.any_na(col):
        return pd.factorize(col.iloc[rows].map(str))[0]
    code, uniques = keys.factorize(col)
    text_code = pd.factorize(np.array([str(v) for v in uniques], dtype=object))[0]  # values with one text: one code
    return pd.factorize(text_code[code[rows]])[0]


def _same_composition(g: pd.DataFrame, models: list[str]) -> bool:
    """Without row ids, rows in different orders: the same rows per fold and class, weights included."""
    if g["row"].notna().all():
        return False  # row ids decide, and they differ
    counts = g.groupby(["model", g["fold"].map(str), "y"])["weight"].agg(["size", "sum"])
    per = [counts.loc[m] for m in models]
    return all(p.equals(per[0]) for p in per)


#: Scores whose first :data:`TIE_PROBE` rows hold at most :data:`TIE_HASHED` distinct values are coded by hashing
#: (:func:`tie_groups`): tied scores (rounded probabilities, trees, k-NN), a few thousand distinct values at most.
TIE_PROBE, TIE_HASHED = 1 << 16, 4096


def hashed_tie_groups(scores: np.ndarray) -> np.ndarray | None:
    """:func:`tie_groups` of tied scores (at most :data:`TIE_HASHED` distinct values, seen first in the first
    :data:`TIE_PROBE` rows), int32, from ``pd.factorize`` (a hash, no sort of every row; it codes 0.0 and -0.0
    alike, as ``==`` and the sort do) and the rank of each distinct value; None for other scores."""
    if not scores.size or len(pd.unique(scores[:TIE_PROBE])) > TIE_HASHED:
        return None
    code, uniques = pd.factorize(scores)
    if len(uniques) > TIE_HASHED or code.min() < 0:  # (no NaN: the canonical frame's scores are finite)
        return None
    rank = np.empty(len(uniques), dtype=np.int32)
    rank[np.argsort(uniques)] = np.arange(len(uniques) - 1, -1, -1, dtype=np.int32)
    return rank[code]


def tie_groups(scores: np.ndarray) -> np.ndarray:
    """Each score's tie group, 0 = the highest score: ``np.unique(-scores, return_inverse=True)[1]``, the same
    codes (negation is exact and reverses the order).  Tied scores: :func:`hashed_tie_groups` (int32); others
    one argsort and a scatter (:func:`prspace.stats.bands.tie_groups`, int64; a binary search per row before:
    10 s a model at 6 x 10^6 untied rows, its reads scattered over an array larger than the cache)."""
    hashed = hashed_tie_groups(scores)
    return hashed if hashed is not None else sorted_tie_groups(scores)


def blocks(data: pd.DataFrame, *, pairing_only: bool = False) -> tuple[list[Block], dict[str, bool], dict[str, bool]]:
    """Resampling blocks per task; per task whether its models were scored on the same test rows
    (comparable) and whether those rows could be paired (by row id, or by position). ``pairing_only``
    (``--metrics-only``, which resamples nothing): no block is built (no tie groups found), only the two
    per-task answers."""
    out, comparable, paired = [], {}, {}
    for task, g in task_groups(data):
        models = sorted(g["model"].unique())
        shared = _examples(g, models) if len(models) > 1 else None
        paired[task] = shared is not None
        comparable[task] = shared is not None or len(models) == 1 or _same_composition(g, models)
        if pairing_only:
            continue
        sets = [(models, shared)] if shared is not None else [
            ([m], [p]) for m, p in zip(models, _model_rows(g, models), strict=True)
        ]
        y_all, w_all, s_all = g["y"].to_numpy(bool), g["weight"].to_numpy(np.float64), g["score"].to_numpy(np.float64)
        for names, rows in sets:
            f0 = rows[0]
            fold_code = _text_codes(g["fold"], f0)  # no folds: one code ("None")
            stratum = 2 * fold_code  # 2 fold + y, made in place (one array over every row, not three)
            stratum += y_all[f0]
            groups, scores = [], []
            for r in rows:
                s = s_all[r]
                g_codes = tie_groups(s)  # held as int32 (the same numbers; half the memory of int64 a row)
                groups.append(g_codes.astype(np.int32, copy=False) if s.size < np.iinfo(np.int32).max else g_codes)
                del g_codes
                scores.append(s)
            # unit weights stay one read-only 1.0 seen by every row (:func:`prspace.audit.intake.inputs.prepare`)
            weight = np.broadcast_to(w_all[:1], f0.shape) if w_all.strides == (0,) and w_all.size else w_all[f0]
            cluster = cstrat = None
            if "group" in g.columns:  # --group-col: the rows of a group are resampled together
                cluster = pd.factorize(g["group"].iloc[f0].map(str))[0].astype(np.int64)
                cstrat, _ = cluster_strata(cluster, fold_code)
            out.append(Block(task, names, y_all[f0], stratum, weight, groups, scores, cluster, cstrat))
    return out, comparable, paired

