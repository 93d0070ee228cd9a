"""Panel draws: how much Flach & Kull's primary estimates move with the panel of models.

Flach & Kull drew, per task, "30 randomly selected models from different flows"; this project runs
one fixed panel of learners on every task, so the panel's own variation lies outside every interval
(:mod:`prspace.verdicts.differences`). This experiment mimics the random draw inside the panel: per
draw and per task, ``panel_size`` of the task's models are drawn without replacement (independently
per task), the models are re-ranked by AUPR, AUPRG and AUROC, and the nine mean-type primary
estimates are recomputed: the six shares of tasks whose two metrics disagree on the best model /
the ordered top three, and the three mean per-task Spearman correlations. The table gives each
estimate on the whole panel and its 5th, 50th and 95th percentile (and SD) over the draws.

Ranking conventions are those of :mod:`prspace.experiments.ranking` (values rounded to 12 decimals;
top-k positions are competition ranks ``1 + #better`` and two metrics agree on the top k when the
same models hold the same positions; Spearman on average ranks, NaN when a metric ties every
model), vectorised over draws; ``tests/experiments/fk/test_panel_draws.py`` checks a draw against
:func:`prspace.experiments.ranking.all_disagreements`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from prspace.core.errors import InputError

PAIRS: tuple[tuple[str, str], ...] = (("aupr", "auprg"), ("aupr", "auroc"), ("auprg", "auroc"))
METRICS = ("aupr", "auprg", "auroc")
#: Percentiles of each estimate over the draws.
PERCENTILES = (5, 50, 95)
COLUMNS = ["claim_id", "statistic", "estimate_all", "p05", "p50", "p95", "sd", "min", "max", "n_draws", "panel_size",
           "n_tasks"]
DECIMALS = 12


def _positions(x: np.ndarray) -> np.ndarray:
    """Competition positions ``1 + #(strictly larger)`` along the last axis (x: ... x models)."""
    return 1 + (x[..., None, :] > x[..., :, None]).sum(axis=-1)


def _avg_ranks(x: np.ndarray) -> np.ndarray:
    """Average ranks, rank 1 = best (largest), along the last axis."""
    better = (x[..., None, :] > x[..., :, None]).sum(axis=-1)
    equal = (x[..., None, :] == x[..., :, None]).sum(axis=-1)
    return better + (equal + 1) / 2.0


def task_statistics(values: np.ndarray, draws: np.ndarray) -> dict[str, np.ndarray]:
    """Per draw, for one task: ``top1|a_b``, ``top3|a_b`` (1.0 when the two metrics disagree) and
    ``spearman|a_b``. ``values``: models x metrics (in :data:`METRICS` order, rounded); ``draws``:
    draws x panel indices of the models."""
    x = values[draws]  # draws x k x metrics
    pos = {m: _positions(x[..., j]) for j, m in enumerate(METRICS)}
    rk = {m: _avg_ranks(x[..., j]) for j, m in enumerate(METRICS)}
    out: dict[str, np.ndarray] = {}
    for a, b in PAIRS:
        for k in (1, 3):
            ta, tb = pos[a] <= k, pos[b] <= k
            same = (ta == tb) & (~ta | (pos[a] == pos[b]))
            out[f"top{k}|{a}_{b}"] = (~same.all(axis=-1)).astype(np.float64)
        ra, rb = rk[a] - rk[a].mean(axis=-1, keepdims=True), rk[b] - rk[b].mean(axis=-1, keepdims=True)
        den = np.sqrt((ra * ra).sum(axis=-1) * (rb * rb).sum(axis=-1))
        with np.errstate(invalid="ignore", divide="ignore"):
            out[f"spearman|{a}_{b}"] = np.where(den > 0, (ra * rb).sum(axis=-1) / den, np.nan)
    return out


def panel_draws(metrics: pd.DataFrame, *, n_draws: int, panel_size: int, seed: int,
                task_ids: list[str] | None = None) -> pd.DataFrame:
    """The table (:data:`COLUMNS`): per primary estimate, its value on every model and its spread
    over ``n_draws`` random panels of ``panel_size`` models per task (tasks with fewer models keep
    all). Seeded per task: ``numpy.random.default_rng([seed, task index])``."""
    need = {"task_id", "model_id", *METRICS}
    if missing := need - set(metrics.columns):
        raise InputError(f"the metrics table lacks column(s) {sorted(missing)}; rerun `prspace step collect`")
    if n_draws < 1 or panel_size < 2:
        raise InputError(f"n_draws must be >= 1 and panel_size >= 2, got {n_draws} and {panel_size}")
    ids = sorted(metrics["task_id"].astype(str).unique()) if task_ids is None else list(task_ids)
    keys = [f"{s}|{a}_{b}" for a, b in PAIRS for s in ("top1", "top3", "spearman")]
    per_draw = {k: np.zeros((n_draws, len(ids))) for k in keys}
    full = {k: np.zeros(len(ids)) for k in keys}
    by_task = dict(tuple(metrics.groupby(metrics["task_id"].astype(str), sort=False)))
    for i, t in enumerate(ids):
        g = by_task[t].dropna(subset=list(METRICS)).sort_values("model_id")
        v = np.round(g[list(METRICS)].to_numpy(np.float64), DECIMALS)
        m = len(v)
        k = min(panel_size, m)
        rng = np.random.default_rng([int(seed), i])
        draws = np.argsort(rng.random((n_draws, m)), axis=1)[:, :k]
        stats = task_statistics(v, draws)
        whole = task_statistics(v, np.arange(m)[None, :])
        for key in keys:
            per_draw[key][:, i] = stats[key]
            full[key][i] = whole[key][0]
    rows = []
    for a, b in PAIRS:
        for s, name in (("top1", "share: different best model"), ("top3", "share: different ordered top three"),
                        ("spearman", "mean per-task Spearman")):
            key = f"{s}|{a}_{b}"
            with np.errstate(invalid="ignore"):
                est = np.nanmean(per_draw[key], axis=1)
            p = np.nanpercentile(est, PERCENTILES)
            rows.append({"claim_id": f"fk.{a}_{b}.{s}", "statistic": name, "estimate_all": float(np.nanmean(full[key])),
                         "p05": p[0], "p50": p[1], "p95": p[2], "sd": float(np.nanstd(est, ddof=1)) if n_draws > 1 else 0.0,
                         "min": float(np.nanmin(est)), "max": float(np.nanmax(est)), "n_draws": n_draws,
                         "panel_size": panel_size, "n_tasks": len(ids)})
    return pd.DataFrame(rows, columns=COLUMNS)
