"""Confidence intervals: DeLong for AUROC, Boyd et al.'s for AUPR, a counts bootstrap for all.

* :func:`delong`: the AUROCs of k models scored on the same rows and their covariance
  matrix (DeLong, DeLong and Clarke-Pearson 1988), by the fast algorithm of Sun and Xu
  (IEEE SPL 21(11), 2014): the placement values come from three midrank computations per
  model, O(n log n) instead of O(m n).  ``V10_i = (T_Z(x_i) - T_X(x_i)) / n`` for the m
  positives, ``V01_j = 1 - (T_Z(y_j) - T_Y(y_j)) / m`` for the n negatives, where ``T_Z``,
  ``T_X``, ``T_Y`` are midranks among all rows, the positives and the negatives; then
  ``S = cov(V10) / m + cov(V01) / n``.  The same as R's pROC ``ci.auc(method="delong")``
  and ``roc.test(method="delong", paired=TRUE)``.
* :func:`boyd_intervals`: the binomial interval ``theta +- z sqrt(theta (1 - theta) / n)``
  and the logit interval ``expit(eta +- z / sqrt(n theta (1 - theta)))``, ``eta =
  logit(theta)``, with n the number of positives (Boyd, Eng and Page, ECML PKDD 2013,
  section 4).
* the stratified count bootstrap and jackknife of every metric are :mod:`prspace.stats.replicates`
  (the engine the studies use too); :func:`blocks` builds its :class:`~prspace.stats.replicates.Block`
  per task from the audit's frame.  Models scored on the same rows share each resample's counts,
  which makes the paired differences of :mod:`prspace.audit.inference.audit_pairwise` a paired bootstrap.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import expit, logit

from prspace.audit.intake import keys
from prspace.audit.intake.rows import n_distinct, task_groups
from prspace.core import memory
from prspace.stats.distributions import norm, student_t
from prspace.stats.replicates import BOOT_METRICS, Block, cluster_strata
from prspace.stats.resampling import jackknife_variance


def delong(y: np.ndarray, scores: np.ndarray, groups: list[np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """AUROCs of the k rows of ``scores`` (k x n) on labels ``y`` and their k x k covariance.  ``groups``: per
    row, its scores' tie groups (0 = highest score: ``np.unique(-score, return_inverse=True)[1]``, a
    :class:`~prspace.stats.replicates.Block`'s ``groups``), from which the ranks are read instead of sorting
    the scores again (the same tie groups, reversed: the same numbers); ``scores`` is then not read."""
    y = np.asarray(y, dtype=bool)
    if groups is None:
        scores = np.atleast_2d(np.asarray(scores, dtype=np.float64))
    k = scores.shape[0] if groups is None else len(groups)
    m = int(np.count_nonzero(y))
    n = y.size - m
    auc, v10, v01 = _components(scores, y, groups)
    if m < 2 or n < 2:  # one positive or one negative: DeLong's variance is undefined
        return auc, np.full((k, k), np.nan)
    cov = np.atleast_2d(_cov_in_place(v10)) / m + np.atleast_2d(_cov_in_place(v01)) / n
    return auc, cov


def _cov_in_place(x: np.ndarray) -> np.ndarray:
    """``np.cov(x)`` of a k x n float64 array (n >= 2) with numpy's operations, centring ``x`` itself (its values
    are lost) instead of a copy of it: the k x n negatives' components are not held twice."""
    avg = np.average(x, axis=1)
    x -= avg[:, None]
    c = np.dot(x, x.T.conj())
    c *= np.true_divide(1, x.shape[1] - 1)
    return c.squeeze()


def _components(scores: np.ndarray, y: np.ndarray,
                groups: list[np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row of ``scores`` (k x n), the AUROC and DeLong's structural components of its positives
    (``V10``, k x m) and negatives (``V01``, k x n), from the midranks (ties averaged, as
    ``scipy.stats.rankdata``) of its positives then negatives among all, of its positives among the
    positives and of its negatives among the negatives: one sort per row (its tie groups) instead of
    three.  A midrank is ``rows below + (tied rows + 1) / 2``, a half-integer, exact in float64 however it
    is computed: the values are rankdata's.  One row at a time, so that only the components are held (not
    the three k x n midrank arrays as well); the same operations on each element as on the whole arrays."""
    k = scores.shape[0] if groups is None else len(groups)
    m = int(y.sum())
    n = y.size - m
    auc = np.empty(k)
    v10 = np.empty((k, m))
    v01 = np.empty((k, n))
    for i in range(k):
        if groups is None:
            _, inv, count = np.unique(scores[i], return_inverse=True, return_counts=True)
            inv = inv.ravel()
        else:  # tie groups from the highest score: reversed, np.unique's codes from the lowest (no sort)
            n_groups = int(groups[i].max()) + 1
            inv = (n_groups - 1) - groups[i].astype(np.int64)
            count = np.bincount(inv, minlength=n_groups)
        count_pos = np.bincount(inv[y], minlength=count.size)
        mids = []
        for c in (count, count_pos, count - count_pos):
            mids.append((np.cumsum(c) - c) + (c + 1) / 2.0)
        pos = inv[y]
        tz = mids[0][pos]
        auc[i] = (tz.sum() - m * (m + 1) / 2.0) / (m * n)
        np.subtract(tz, mids[1][pos], out=v10[i])
        v10[i] /= n
        del pos, tz
        neg = inv[~y]
        np.subtract(mids[0][neg], mids[2][neg], out=v01[i])  # 1 - (tz - ty) / m, row by row
        v01[i] /= m
        np.subtract(1.0, v01[i], out=v01[i])
    return auc, v10, v01


def block_delong(block: Block) -> tuple[np.ndarray, np.ndarray]:
    """:func:`delong` of a block's models (its labels and scores), computed once per block: the intervals
    (:mod:`prspace.audit.inference.uncertainty`) and the all-pairs tests (:mod:`prspace.audit.inference.audit_pairwise`) both read it."""
    fit = block.__dict__.get("_delong")
    if fit is None:
        fit = block.__dict__["_delong"] = delong(block.y, block.scores, groups=block.groups)
        memory.release()  # its k x n components, freed, handed back before the jackknives
    return fit


def normal_interval(estimate: float, variance: float, confidence: float) -> tuple[float, float]:
    """``estimate +- z sqrt(variance)`` clipped to [0, 1] (as pROC does)."""
    if not np.isfinite(variance):
        return float("nan"), float("nan")
    half = norm.ppf(0.5 + confidence / 2.0) * np.sqrt(max(variance, 0.0))
    return max(estimate - half, 0.0), min(estimate + half, 1.0)


def logit_interval(estimate: float, variance: float, confidence: float) -> tuple[float, float]:
    """``expit(logit(A) +- z sqrt(variance) / (A (1 - A)))``: the normal interval on the logit scale
    (delta method; Pepe 2003, section 5.2.3, for the AUROC), inside (0, 1) by construction, so it
    does not cross the bound the AUROC piles up against with few positives; NaN at A in {0, 1}."""
    if not (np.isfinite(variance) and 0.0 < estimate < 1.0):
        return float("nan"), float("nan")
    eta = logit(estimate)
    half = norm.ppf(0.5 + confidence / 2.0) * np.sqrt(max(variance, 0.0)) / (estimate * (1.0 - estimate))
    return float(expit(eta - half)), float(expit(eta + half))


#: Metrics of :data:`BOOT_METRICS` bounded by [0, 1] (AUPRG is not: it is negative below the
#: always-positive baseline), whose jackknife interval is built on the logit scale.
UNIT_METRICS = ("auroc", "average_precision", "aupr", "aucnpr")


def jackknife_interval(points: np.ndarray, replicates: np.ndarray, strata: np.ndarray,
                       confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Per-model jackknife-t intervals ``h^-1(h(theta) +- t_df se)``, ``h = logit`` for the
    :data:`UNIT_METRICS` (inside (0, 1) by construction) and the identity for AUPRG, with
    ``se^2 = sum_s (G_s - 1) / G_s sum_{g in s} (eta_g - mean_s eta)^2`` over the transformed
    stratified jackknife replicates ``eta_g = h(theta_(-g))`` (:func:`jackknife`) and
    Welch-Satterthwaite's df, as :func:`prspace.stats.pairwise.jackknife_pairs` (the jackknife variance
    errs upwards, Efron and Stein 1981).  ``points`` (models, :data:`BOOT_METRICS`),
    ``replicates`` (G, models, :data:`BOOT_METRICS`); NaN where a unit metric is 0 or 1 or a
    replicate is undefined."""
    eps = 1e-12
    unit = np.array([m in UNIT_METRICS for m in BOOT_METRICS])
    with np.errstate(divide="ignore", invalid="ignore"):
        eta = np.where(unit, logit(np.clip(points, eps, 1 - eps)), points)
        reps = np.where(unit, logit(np.clip(replicates, eps, 1 - eps)), replicates)
    var, spread = jackknife_variance(reps, strata)
    inside = ~unit | ((points > 0) & (points < 1))
    ok = inside & np.isfinite(reps).all(axis=0) & (var > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        half = student_t.isf((1 - confidence) / 2, np.where(ok, var**2 / spread, 1.0)) * np.sqrt(var)
        lo, hi = eta - half, eta + half
    lo = np.where(ok, np.where(unit, expit(lo), lo), np.nan)
    hi = np.where(ok, np.where(unit, expit(hi), hi), np.nan)
    return lo, hi


def boyd_intervals(theta: float, n_pos: float, confidence: float) -> dict[str, tuple[float, float]]:
    """Binomial and logit intervals for an AUPR estimate ``theta`` from ``n_pos`` positives."""
    z = norm.ppf(0.5 + confidence / 2.0)
    t = min(max(theta, 1e-12), 1 - 1e-12)
    half = z * np.sqrt(t * (1 - t) / n_pos)
    tau = 1.0 / np.sqrt(n_pos * t * (1 - t))
    eta = logit(t)
    return {
        "binomial": (max(theta - half, 0.0), min(theta + half, 1.0)),
        "logit": (float(expit(eta - z * tau)), float(expit(eta + z * tau))),
    }


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
    if not keys.any_na(g["row"]):
        fold_rank, row_rank = _sort_ranks(g["fold"]), _sort_ranks(g["row"])
        if fold_rank is None or row_rank is None:  # a text with NUL: the keys themselves
            text = (g["fold"].map(str) + "\x00" + g["row"].map(str)).to_numpy(dtype=object)
            per_key = [text[p] for p in per]
            if any(pd.Series(k).duplicated().any() for k in per_key):
                return None
            orders = [pd.Series(k).sort_values(kind="stable").index.to_numpy() for k in per_key]
            first = per_key[0][orders[0]]
            same = all(len(k) == len(first) and (k[o] == first).all() for k, o in zip(per_key, orders, strict=True))
            del first
            keyed = [p[o] for p, o in zip(per, orders, strict=True)]
            del per_key, orders, per
        else:  # one model at a time: its rows' keys, their order, its rows in that order (no array over all rows)
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
            keyed = per
            del first, per
    else:  # no row ids: the i-th row of every model is the same example
        keyed = per
        fold = g["fold"].to_numpy()
        same = all(len(p) == len(per[0]) and (fold[p] == fold[per[0]]).all() for p in per)
    if not same:
        return None
    y, w = g["y"].to_numpy(), g["weight"].to_numpy()
    if not all((y[k] == y[keyed[0]]).all() for k in keyed) or not all((w[k] == w[keyed[0]]).all() for k in keyed):
        return None
    return keyed


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
    from the sorted distinct scores and one binary search per row (int64)."""
    hashed = hashed_tie_groups(scores)
    if hashed is not None:
        return hashed
    values = np.unique(scores)
    codes = np.searchsorted(values, scores)
    return np.subtract(values.size - 1, codes, out=codes)  # in place: one array over every row, not two


def blocks(data: pd.DataFrame) -> tuple[list[Block], dict[str, bool], dict[str, bool]]:
    """Resampling blocks per task; per task whether its models were scored on the same test rows
    (comparable) and whether those rows could be paired (by row id, or by position)."""
    out, comparable, paired = [], {}, {}
    for task, g in task_groups(data):
        models = sorted(g["model"].unique())
        shared = _examples(g, models) if len(models) > 1 else None
        paired[task] = shared is not None
        comparable[task] = shared is not None or len(models) == 1 or _same_composition(g, models)
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

