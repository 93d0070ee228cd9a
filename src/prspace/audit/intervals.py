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
* :func:`bootstrap`: a stratified bootstrap that sorts each model's scores once and draws
  each resample as counts per row; the metrics then come from per-tie-group sums of those
  counts (:func:`prspace.metrics.metrics_from_group_counts_batch`, all resamples at once),
  never from copied rows.  Strata are the class (the audit's default) or class x fold
  (:data:`SCHEMES`; a resample then keeps every fold's class counts).  Models scored on the same rows share each resample's counts, which makes
  the paired differences of :mod:`prspace.audit.paired` a paired bootstrap.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.special import expit, logit
from scipy.stats import norm, rankdata
from scipy.stats import t as student_t

from prspace import metrics as M
from prspace.metrics.names import REPORTED_METRICS
from prspace.stats.resampling import (
    JACK_GROUPS,
    StratumSampler,
    jackknife_groups,
    jackknife_variance,
    jackknife_weights,
)

#: Metrics the bootstrap resamples (keys of :func:`prspace.metrics.metrics_from_group_counts`).
BOOT_METRICS = REPORTED_METRICS


def delong(y: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """AUROCs of the k rows of ``scores`` (k x n) on labels ``y`` and their k x k covariance."""
    scores = np.atleast_2d(np.asarray(scores, dtype=np.float64))
    y = np.asarray(y, dtype=bool)
    pos, neg = scores[:, y], scores[:, ~y]
    m, n = pos.shape[1], neg.shape[1]
    tz = rankdata(np.concatenate([pos, neg], axis=1), axis=1)
    tx = rankdata(pos, axis=1)
    ty = rankdata(neg, axis=1)
    auc = (tz[:, :m].sum(axis=1) - m * (m + 1) / 2.0) / (m * n)
    v10 = (tz[:, :m] - tx) / n
    v01 = 1.0 - (tz[:, m:] - ty) / m
    k = scores.shape[0]
    if m < 2 or n < 2:  # one positive or one negative: DeLong's variance is undefined
        return auc, np.full((k, k), np.nan)
    cov = np.atleast_2d(np.cov(v10)) / m + np.atleast_2d(np.cov(v01)) / n
    return auc, cov


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


@dataclasses.dataclass
class Block:
    """Models of one task scored on the same examples (or a single model on its own rows).

    ``y``, ``stratum``, ``weight`` per example; ``groups[k]`` maps example -> tie group of
    model k's scores (0 = highest score); ``scores[k]`` the scores per example.
    """

    task: str
    models: list[str]
    y: np.ndarray
    stratum: np.ndarray
    weight: np.ndarray
    groups: list[np.ndarray]
    scores: list[np.ndarray]

    @property
    def paired(self) -> bool:
        return len(self.models) > 1


def _examples(g: pd.DataFrame, models: list[str]) -> list[pd.DataFrame] | None:
    """Each model's rows in one shared example order, or None when the models' rows differ."""
    per = [g[g["model"] == m] for m in models]
    if g["row"].notna().all():
        keyed = [p.assign(_k=p["fold"].map(str) + "\x00" + p["row"].map(str)) for p in per]
        if any(k["_k"].duplicated().any() for k in keyed):
            return None
        keyed = [k.sort_values("_k", kind="stable") for k in keyed]
        first = keyed[0]["_k"].to_numpy()
        same = all(len(k) == len(first) and (k["_k"].to_numpy() == first).all() for k in keyed)
    else:  # no row ids: the i-th row of every model is the same example
        keyed = per
        first = per[0]
        same = all(
            len(p) == len(first) and (p["fold"].to_numpy() == first["fold"].to_numpy()).all()
            for p in per
        )
    if not same:
        return None
    ys = [k["y"].to_numpy() for k in keyed]
    ws = [k["weight"].to_numpy() for k in keyed]
    if not all((y == ys[0]).all() for y in ys) or not all((w == ws[0]).all() for w in ws):
        return None
    return keyed


def _same_composition(g: pd.DataFrame, models: list[str]) -> bool:
    """Without row ids, rows in different orders: the same rows per fold and class, weights included."""
    if g["row"].notna().all():
        return False  # row ids decide, and they differ
    counts = g.groupby(["model", g["fold"].map(str), "y"])["weight"].agg(["size", "sum"])
    per = [counts.loc[m] for m in models]
    return all(p.equals(per[0]) for p in per)


def blocks(data: pd.DataFrame) -> tuple[list[Block], dict[str, bool], dict[str, bool]]:
    """Resampling blocks per task; per task whether its models were scored on the same test rows
    (comparable) and whether those rows could be paired (by row id, or by position)."""
    out, comparable, paired = [], {}, {}
    for task, g in data.groupby("task", sort=True):
        models = sorted(g["model"].unique())
        shared = _examples(g, models) if len(models) > 1 else None
        paired[task] = shared is not None
        comparable[task] = shared is not None or len(models) == 1 or _same_composition(g, models)
        sets = [(models, shared)] if shared is not None else [
            ([m], [g[g["model"] == m]]) for m in models
        ]
        for names, frames in sets:
            f0 = frames[0]
            fold_code = pd.factorize(f0["fold"].map(str))[0]  # no folds: one code ("None")
            stratum = 2 * fold_code + f0["y"].to_numpy(np.int64)
            groups, scores = [], []
            for f in frames:
                s = f["score"].to_numpy(np.float64)
                groups.append(np.unique(-s, return_inverse=True)[1].ravel())
                scores.append(s)
            out.append(Block(task, names, f0["y"].to_numpy(bool), stratum,
                             f0["weight"].to_numpy(np.float64), groups, scores))
    return out, comparable, paired


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
    return 2 * column[group] + y, 2 * width


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


def weighted_metrics(block: Block, weights: np.ndarray) -> np.ndarray:
    """:data:`BOOT_METRICS` of every model under each row of ``weights`` (replicates, rows), times
    the block's weights: array (replicates, models, metrics); a replicate left with one class: NaN."""
    w = np.atleast_2d(np.asarray(weights, dtype=np.float64)) * block.weight
    out = np.empty((w.shape[0], len(block.models), len(BOOT_METRICS)))
    _metrics_of_counts(_column_sums(block, np.arange(block.y.size)), w, out)
    return out


def bootstrap(block: Block, *, n_boot: int, rng: np.random.Generator, chunk: int = 0,
              scheme: str = "class x fold") -> np.ndarray:
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
    """
    sampler = StratumSampler(strata_of(block, scheme), rng)
    order = sampler.order
    weight = block.weight[order]
    unit = bool(np.all(weight == 1.0))
    n = order.size
    sums = _column_sums(block, order)
    out = np.empty((n_boot, len(block.models), len(BOOT_METRICS)))
    step = chunk or max(1, min(n_boot, 2_500_000 // max(n, 1)))
    for start in range(0, n_boot, step):
        size = min(step, n_boot - start)
        c = sampler.counts_batch(size)  # (size, n)
        if not unit:
            c *= weight
        _metrics_of_counts(sums, c, out[start : start + size])
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
        both = a @ ct  # (columns, size): row 2 column + y
        tp, fp = both[1::2].T, both[0::2].T
        ok = (tp.sum(axis=1) > 0) & (fp.sum(axis=1) > 0)
        block_out = out[:, k]
        if ok.all():
            m = M.metrics_from_group_counts_batch(tp, fp)
            block_out[:] = np.column_stack([m[name] for name in BOOT_METRICS])
            continue
        block_out[~ok] = np.nan
        if ok.any():
            m = M.metrics_from_group_counts_batch(tp[ok], fp[ok])
            block_out[ok] = np.column_stack([m[name] for name in BOOT_METRICS])


def jackknife(block: Block, *, max_groups: int = JACK_GROUPS, rng: np.random.Generator | None = None,
              chunk: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Stratified jackknife replicates of :data:`BOOT_METRICS`: ``(replicates (G, models, metrics),
    stratum of each replicate (G,))``; replicate g leaves out the g-th group of rows of one stratum
    (class x fold; :func:`prspace.stats.resampling.jackknife_groups`), scored with one sort per model and the batch kernel,
    as :func:`bootstrap`.  Sample weights are respected (a left-out row takes its weight with it).
    A replicate left with one class gives NaN.
    """
    groups, of = jackknife_groups(block.stratum, max_groups=max_groups, rng=rng)
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


def percentile(replicates: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval along axis 0 (NaN replicates, from one-class resamples, ignored)."""
    a = (1.0 - confidence) / 2.0
    return np.nanquantile(replicates, a, axis=0), np.nanquantile(replicates, 1.0 - a, axis=0)
