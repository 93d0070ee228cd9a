"""The noise floor of a ranking: how often a metric disagrees with itself on resampled test rows.

Flach & Kull (NIPS 2015, sec. 4) count the tasks where two metrics pick a different best model
(top-1) or ordered top three (top-3). Between near-tied models such a difference can be sampling
noise rather than a property of the metrics. This module measures that noise on a task's pooled
out-of-fold predictions (the schema of :mod:`prspace.core.schema`):

* **Stratified bootstrap with counts.** Resample ``b`` draws ``n_pos`` of the positive rows and
  ``n_neg`` of the negative rows with replacement, as multinomial counts ``w_b`` (one weight per
  row, ``rng.multinomial``): no row is copied. Every model's scores are sorted once per task
  (``np.unique`` gives each row its tie group); a resample's metrics come from the per-tie-group
  sums of ``w_b`` (all resamples at once: :func:`prspace.stats.replicates.weighted_metrics`, the
  engine the audit uses too) through :func:`prspace.metrics.metrics_from_group_counts_batch`, equal to
  ``all_metrics(y, s, sample_weight=w_b)``. With several CV repeats the same row weights apply to
  every repeat and the metric is averaged over repeats, as in the metrics table.
* **Floor** of a metric on a task: the share of resamples whose top-k (``top_k`` of
  :mod:`prspace.experiments.ranking`: models at competition positions <= k, ties as groups)
  differs from the top-k on all rows. A pairwise share of disagreement means something about the
  metrics only where it is clearly above the floors of its two metrics.
* **Distinguishable disagreement.** Where metrics ``a`` and ``b`` disagree on the top-k, take the
  first position (ties broken by model id) at which their orders differ: ``a`` prefers model A,
  ``b`` prefers model B. The disagreement is *distinguishable* when both one-sided paired
  percentile bootstrap tests at level ``alpha`` reject: the ``alpha`` quantile of ``a(A) - a(B)``
  and of ``b(B) - b(A)`` over the same resamples is > 0 (:func:`distinguishable`, the one decision
  rule). It is an intersection-union test (Berger 1982, Technometrics 24:295; Berger & Hsu 1996,
  Stat. Sci. 11:283): the null "no real reversal" is the union of "a(A) <= a(B)" and
  "b(B) <= b(A)", so rejecting only when each one-sided test rejects at ``alpha`` has size
  <= ``alpha`` without a multiplicity correction. Its false rate and power are calibrated by
  simulation in :mod:`prspace.experiments.noise.noise_calibration`.
* **Cross- vs self-disagreement, measured the same way.** Over ordered pairs of distinct
  resamples ``(b, b')``: ``top{k}_cross`` is the share whose top-k differs between metric ``a``
  on ``b`` and metric ``b`` on ``b'``; ``top{k}_self_a`` (``_self_b``) the share between metric
  ``a`` (``b``) on ``b`` and on ``b'``; ``top{k}_cross_minus_self`` = cross minus the mean of the
  two self shares. Both sides carry the noise of two independent resamples, so a positive
  difference is disagreement between the metrics beyond what either has with itself.

Resamples are seeded by ``(seed, crc32(task_id))``, so a task's floor does not depend on which
other tasks run.
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace import metrics as M
from prspace.core.contracts import over_tasks
from prspace.core.defaults import N_BOOT_REPLICATE
from prspace.core.errors import InputError
from prspace.experiments.ranking import metric_pairs
from prspace.stats.replicates import BOOT_METRICS, Block, weighted_metrics
from prspace.stats.resampling import (
    JACK_GROUPS,
    jackknife_groups,
    jackknife_weights,
    stratified_counts,
)

FLOOR_COLUMNS = ["task_id", "metric", "n_models", "n_boot", "top1_floor", "top3_floor"]
PAIR_COLUMNS = [
    "task_id", "metric_a", "metric_b", "n_models", "n_boot",
    "top1_differs", "top1_distinguishable", "top3_differs", "top3_distinguishable",
    "top1_cross", "top1_self_a", "top1_self_b", "top1_cross_minus_self",
    "top3_cross", "top3_self_a", "top3_self_b", "top3_cross_minus_self",
]
_NEED = {"task_id", "model_id", "repeat", "row_id", "y_true", "score"}
#: one-sided level of each component test of :func:`distinguishable` (config ``analysis.noise_alpha``)
ALPHA = 0.05


def _task_seed(seed: int, task_id: str) -> np.random.Generator:
    return np.random.default_rng([int(seed), zlib.crc32(str(task_id).encode())])


def group_counts(w: np.ndarray, group: np.ndarray, y: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per resample and tie group, the positive and negative weight: two ``(B, k)`` arrays.

    ``w`` is ``(B, n)`` row weights, ``group[i]`` row i's tie group (0 = highest score), ``y`` the
    rows' classes as 0/1. Row b equals ``np.bincount(group, w[b] * y, k)`` (and ``1 - y``).
    """
    if k == group.size:  # no ties: every row its own group, a permutation
        tp = np.empty((w.shape[0], k))
        fp = np.empty((w.shape[0], k))
        tp[:, group] = w * y
        fp[:, group] = w * (1 - y)
        return tp, fp
    order = np.argsort(group, kind="stable")
    g = group[order]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    present = g[starts]
    ws = w[:, order]
    yo = y[order]
    tp = np.zeros((w.shape[0], k))
    fp = np.zeros((w.shape[0], k))
    tp[:, present] = np.add.reduceat(ws * yo, starts, axis=1)
    fp[:, present] = np.add.reduceat(ws * (1 - yo), starts, axis=1)
    return tp, fp


def bootstrap_metrics(
    predictions: pd.DataFrame,
    *,
    metrics: Sequence[str],
    n_boot: int = N_BOOT_REPLICATE,
    seed: int = 0,
) -> tuple[list[str], dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Every model's metrics on all rows and on ``n_boot`` stratified bootstrap resamples.

    Returns ``(models, full, boot)``: model ids (sorted); ``full[m]`` of shape ``(n_models,)``;
    ``boot[m]`` of shape ``(n_boot, n_models)``.
    """
    if n_boot < 1:
        raise InputError(f"n_boot must be >= 1, got {n_boot}")
    y_rows = _row_classes(predictions)
    w = stratified_counts(y_rows, n_boot, _task_seed(seed, str(predictions["task_id"].iloc[0])))
    return _replicate_metrics(predictions, metrics, w)


def jackknife_metrics(
    predictions: pd.DataFrame,
    *,
    metrics: Sequence[str],
    seed: int = 0,
    max_groups: int = JACK_GROUPS,
) -> tuple[list[str], dict[str, np.ndarray], dict[str, np.ndarray], np.ndarray]:
    """Every model's metrics on all rows and on the class-stratified jackknife of the task's rows
    (:func:`prspace.stats.resampling.jackknife_groups`: a row leaves every repeat at once; random groups,
    seeded as the bootstrap, above ``max_groups`` rows).  Returns ``(models, full, jack, strata)``;
    ``jack[m]`` of shape ``(G, n_models)``, ``strata`` the class (0/1) of each replicate."""
    y_rows = _row_classes(predictions)
    groups, strata = jackknife_groups(y_rows.astype(np.int64), max_groups=max_groups,
                                      rng=_task_seed(seed, str(predictions["task_id"].iloc[0])))
    models, full, jack = _replicate_metrics(predictions, metrics, jackknife_weights(groups, y_rows.size))
    return models, full, jack, strata


def _row_classes(predictions: pd.DataFrame) -> np.ndarray:
    """The class of each row (sorted row ids), from any model and repeat (the schema fixes it per row)."""
    missing = _NEED - set(predictions.columns)
    if missing:
        raise InputError(f"predictions lack column(s) {sorted(missing)}; read them with prspace.core.schema.read_predictions")
    row_ids = np.sort(pd.unique(predictions["row_id"]))
    first = predictions.drop_duplicates("row_id").set_index("row_id")["y_true"].reindex(row_ids)
    return first.to_numpy(dtype=bool)


def _replicate_metrics(predictions: pd.DataFrame, metrics: Sequence[str], w: np.ndarray,
                       ) -> tuple[list[str], dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Every model's metrics (CV repeats averaged) on all rows and under each row of weights ``w``
    (replicates x rows, rows in sorted row-id order): per repeat, one
    :class:`~prspace.stats.replicates.Block` of the models (:func:`prspace.stats.replicates.weighted_metrics`)."""
    unknown = [m for m in metrics if m not in BOOT_METRICS]
    if unknown:
        raise InputError(f"unknown metric(s) {unknown}; choose from {', '.join(BOOT_METRICS)}")
    models = sorted(map(str, pd.unique(predictions["model_id"])))
    row_ids = np.sort(pd.unique(predictions["row_id"]))
    y_rows = _row_classes(predictions)
    repeats = sorted(pd.unique(predictions["repeat"]))
    cols = [BOOT_METRICS.index(m) for m in metrics]
    full = {m: np.zeros(len(models)) for m in metrics}
    boot = {m: np.zeros((w.shape[0], len(models))) for m in metrics}
    for r in repeats:
        block, pos = _repeat_block(predictions[predictions["repeat"] == r], models, row_ids, y_rows)
        for j, group in enumerate(block.groups):
            yf = block.y.astype(np.float64)
            k = int(group.max()) + 1
            res = M.metrics_from_group_counts(np.bincount(group, yf, k), np.bincount(group, 1 - yf, k))
            for m in metrics:
                full[m][j] += res[m] / len(repeats)
        res_b = weighted_metrics(block, w[:, pos])
        for j in range(len(models)):
            for m, c in zip(metrics, cols, strict=True):
                boot[m][:, j] += res_b[:, j, c] / len(repeats)
    return models, full, boot


def _repeat_block(rows: pd.DataFrame, models: list[str], row_ids: np.ndarray, y_rows: np.ndarray,
                  ) -> tuple[Block, np.ndarray]:
    """The models of one CV repeat as a :class:`~prspace.stats.replicates.Block` over the repeat's rows
    (sorted by row id), and those rows' positions among all ``row_ids``."""
    ids = np.sort(pd.unique(rows["row_id"]))
    groups, scores = [], []
    for model, g in rows.groupby(rows["model_id"].astype(str), sort=True):
        assert model == models[len(groups)]
        at = np.searchsorted(ids, g["row_id"].to_numpy())
        score = np.empty(ids.size)
        score[at] = g["score"].to_numpy(np.float64)
        groups.append(np.unique(-score, return_inverse=True)[1].ravel())
        scores.append(score)
    pos = np.searchsorted(row_ids, ids)
    y = y_rows[pos]
    block = Block(str(rows["task_id"].iloc[0]), models, y, y.astype(np.int64), np.ones(ids.size), groups, scores)
    return block, pos


def _positions(values: np.ndarray, decimals: int = 12) -> np.ndarray:
    """Competition positions (1 + #strictly better) along the last axis; NaN counts as worst."""
    v = np.round(np.where(np.isnan(values), -np.inf, values), decimals)
    return 1 + (v[..., None, :] > v[..., :, None]).sum(axis=-1)


def topk_differs(pos_a: np.ndarray, pos_b: np.ndarray, k: int) -> np.ndarray:
    """Whether two rankings' top-k (models at positions <= k, with their positions) differ; broadcasts."""
    ina, inb = pos_a <= k, pos_b <= k
    return np.any((ina != inb) | (ina & (pos_a != pos_b)), axis=-1)


def _order(values: np.ndarray, models: list[str], decimals: int = 12) -> list[int]:
    v = np.round(np.where(np.isnan(values), -np.inf, values), decimals)
    return sorted(range(len(models)), key=lambda i: (-v[i], models[i]))


def excludes_zero(diff: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """One-sided percentile bootstrap test of ``diff > 0`` at level ``alpha`` (resamples on the
    last axis): whether ``quantile(diff, alpha)`` is > 0, i.e. the one-sided ``1 - alpha``
    interval ``[quantile(diff, alpha), inf)`` excludes 0."""
    if not (0.0 < alpha < 0.5):
        raise InputError(f"the one-sided alpha must lie in (0, 0.5), got {alpha}")
    return np.quantile(np.asarray(diff, dtype=np.float64), alpha, axis=-1) > 0


def distinguishable(boot_a_A: np.ndarray, boot_a_B: np.ndarray, boot_b_A: np.ndarray, boot_b_B: np.ndarray,
                    alpha: float = ALPHA) -> np.ndarray:
    """THE decision rule of a distinguishable disagreement (the noise floor and its calibration
    call only this): metric a prefers model A, metric b prefers model B, and both one-sided
    paired percentile bootstrap tests at level ``alpha`` reject, of ``a(A) - a(B) > 0`` and of
    ``b(B) - b(A) > 0`` over the same resamples (last axis). An intersection-union test (Berger
    1982): its size is <= ``alpha``, with no multiplicity correction. Broadcasts over leading axes."""
    return excludes_zero(boot_a_A - boot_a_B, alpha) & excludes_zero(boot_b_B - boot_b_A, alpha)


def _topk_codes(pos: np.ndarray, k: int) -> np.ndarray:
    """Per resample (row), the top-k as a vector: each model's position if <= k, else 0."""
    return np.where(pos <= k, pos, 0)


def resample_pair_disagreement(pos_x: np.ndarray, pos_y: np.ndarray, k: int) -> float:
    """Share of ordered resample pairs ``(b, b')``, ``b != b'``, whose top-k differ: ranking
    ``pos_x[b]`` against ``pos_y[b']`` (positions, resamples x models).

    With ``pos_x`` and ``pos_y`` from one metric this is its self-disagreement; from two metrics,
    their cross-metric disagreement measured the same way (independent resamples on each side).
    Exact, by counting equal top-k vectors (no ``B x B`` loop)."""
    nb = pos_x.shape[0]
    if nb < 2:
        return float("nan")
    cx, cy = _topk_codes(pos_x, k), _topk_codes(pos_y, k)
    _, codes = np.unique(np.concatenate([cx, cy]), axis=0, return_inverse=True)
    codes = codes.ravel()
    ix, iy = codes[:nb], codes[nb:]
    n_codes = int(codes.max()) + 1
    same_all = float(np.dot(np.bincount(ix, minlength=n_codes).astype(np.float64),
                            np.bincount(iy, minlength=n_codes).astype(np.float64)))
    same = same_all - float(np.count_nonzero(ix == iy))  # b = b' is not a pair
    return 1.0 - same / (nb * (nb - 1))


def pair_decision(full_a: np.ndarray, full_b: np.ndarray, boot_a: np.ndarray, boot_b: np.ndarray,
                  models: Sequence[str], k: int, alpha: float = ALPHA) -> tuple[bool, float | bool]:
    """``(differs, distinguishable)`` for metrics a and b on one task's models.

    ``full_*``: values on all rows, shape ``(n_models,)``; ``boot_*``: ``(n_boot, n_models)``.
    ``differs``: the two top-k differ (:func:`topk_differs`). Where they do, take the first
    position (ties broken by model id) at which the two orders differ: a prefers model A, b
    model B, decided by :func:`distinguishable`; NaN where the top-k agree, False where the
    orders agree and only ties differ (tied models are not distinguishable).
    """
    differs = bool(topk_differs(_positions(full_a), _positions(full_b), k))
    if not differs:
        return False, float("nan")
    models = list(models)
    oa, ob = _order(full_a, models), _order(full_b, models)
    i = next((i for i in range(min(k, len(models))) if oa[i] != ob[i]), None)
    if i is None:
        return True, False
    A, B = oa[i], ob[i]
    return True, bool(distinguishable(boot_a[:, A], boot_a[:, B], boot_b[:, A], boot_b[:, B], alpha))


def noise_floor_task(
    predictions: pd.DataFrame,
    *,
    metrics: Sequence[str],
    n_boot: int = N_BOOT_REPLICATE,
    seed: int = 0,
    alpha: float = ALPHA,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One task's floors (rows :data:`FLOOR_COLUMNS`) and pairwise distinguishability (:data:`PAIR_COLUMNS`)."""
    task_id = str(predictions["task_id"].iloc[0])
    models, full, boot = bootstrap_metrics(predictions, metrics=metrics, n_boot=n_boot, seed=seed)
    n = len(models)
    pos_full = {m: _positions(full[m]) for m in metrics}
    pos_boot = {m: _positions(boot[m]) for m in metrics}
    floors = []
    for m in metrics:
        floors.append({
            "task_id": task_id, "metric": m, "n_models": n, "n_boot": n_boot,
            "top1_floor": float(topk_differs(pos_boot[m], pos_full[m][None, :], 1).mean()),
            "top3_floor": float(topk_differs(pos_boot[m], pos_full[m][None, :], 3).mean()),
        })
    pairs = []
    for a, b in metric_pairs(metrics):
        row: dict[str, object] = {"task_id": task_id, "metric_a": a, "metric_b": b, "n_models": n, "n_boot": n_boot}
        for k in (1, 3):
            differs, dist = pair_decision(full[a], full[b], boot[a], boot[b], models, k, alpha)
            row[f"top{k}_differs"] = differs
            row[f"top{k}_distinguishable"] = dist
        for k in (1, 3):
            cross = resample_pair_disagreement(pos_boot[a], pos_boot[b], k)
            self_a = resample_pair_disagreement(pos_boot[a], pos_boot[a], k)
            self_b = resample_pair_disagreement(pos_boot[b], pos_boot[b], k)
            row.update({f"top{k}_cross": cross, f"top{k}_self_a": self_a, f"top{k}_self_b": self_b,
                        f"top{k}_cross_minus_self": cross - (self_a + self_b) / 2})
        pairs.append(row)
    return pd.DataFrame(floors, columns=FLOOR_COLUMNS), pd.DataFrame(pairs, columns=PAIR_COLUMNS)


def study_noise_floors(status_paths: Sequence[str], *, metrics: Sequence[str], n_boot: int, seed: int = 0,
                       alpha: float = ALPHA, jobs: int = 1) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`noise_floor_task` of every task with predictions (status files, in sorted order): the
    floors (:data:`FLOOR_COLUMNS`) and the pairs (:data:`PAIR_COLUMNS`) stacked, empty when no task
    has predictions.  ``n_boot`` >= 1 and ``alpha`` in (0, 0.5) (a one-sided level), else
    :class:`InputError`.  ``jobs`` > 1: the tasks in that many processes
    (:func:`prspace.core.contracts.over_tasks`; each task seeds its own draws, so the same tables)."""
    if n_boot < 1:
        raise InputError(f"--n-boot must be at least 1, got {n_boot}")
    if not (0.0 < alpha < 0.5):
        raise InputError(f"--alpha must lie in (0, 0.5) (a one-sided level such as 0.05), got {alpha}")
    done = over_tasks(functools.partial(_task_floors, metrics=list(metrics), n_boot=n_boot, seed=seed, alpha=alpha),
                      status_paths, jobs=jobs, progress="noise floor")
    floors, pairs = [f for f, _ in done], [p for _, p in done]
    return (pd.concat(floors, ignore_index=True) if floors else pd.DataFrame(columns=FLOOR_COLUMNS),
            pd.concat(pairs, ignore_index=True) if pairs else pd.DataFrame(columns=PAIR_COLUMNS))


def _task_floors(_status: object, predictions: pd.DataFrame, _info: object, **kw: object,
                 ) -> tuple[pd.DataFrame, pd.DataFrame]:
    return noise_floor_task(predictions, **kw)
