"""Ranks within a task, top-k agreement and rank correlations between two metrics
(conventions: :mod:`prspace.experiments.ranking`)."""


import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.metrics.names import RANKING_METRICS  # the one home of the metrics' names
from prspace.stats.distributions import kendall_tau_b, spearman_rho

PER_GROUP_COLUMNS = (
    "metric_a",
    "metric_b",
    "n_models",
    "top1_differs",
    "top3_differs",
    "spearman",
    "kendall",
)


def _check_columns(df: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{what} lacks column(s) {', '.join(missing)}; has {', '.join(map(str, df.columns))}")


def rank_models(
    df: pd.DataFrame,
    metrics: Sequence[str] = RANKING_METRICS,
    *,
    group: str = "task_id",
    model: str = "model_id",
    decimals: int = 12,
) -> pd.DataFrame:
    """Rank the models within each group by each metric (rank 1 = best, average ranks for ties).

    Parameters
    ----------
    df : one row per (group, model) with a column per metric (higher = better).
    metrics : the metric columns to rank by.
    group, model : the column naming the task and the model.
    decimals : metric values are rounded to this many decimals before ranking, so
        float noise does not break ties.

    Returns
    -------
    DataFrame with columns ``group, model`` and one float column per metric holding
    the rank, sorted by ``group, model``.  Rows with a missing metric value get a NaN
    rank for that metric and do not take part in its ranking.
    """
    metrics = list(metrics)
    _check_columns(df, [group, model, *metrics], "the metrics table")
    if df.duplicated([group, model]).any():
        dup = df.loc[df.duplicated([group, model]), [group, model]].iloc[0].tolist()
        raise ValueError(f"model {dup[1]!r} occurs twice in group {dup[0]!r}; one row per model and group")
    out = df[[group, model]].copy()
    for m in metrics:
        values = df[m].astype(np.float64).round(decimals)
        # descending: negate so that the largest value gets rank 1
        out[m] = (-values).groupby(df[group], sort=False).rank(method="average", na_option="keep")
    return out.sort_values([group, model], kind="stable", ignore_index=True)


def positions(ranks: np.ndarray) -> np.ndarray:
    """Competition ranks from average ranks: ``1 + #(strictly better)`` (ties share the best position)."""
    r = np.asarray(ranks, dtype=np.float64)
    return 1 + (r[None, :] < r[:, None]).sum(axis=1)


def top_k(ranks: pd.Series, k: int) -> dict[object, int]:
    """The top ``k`` of one ranking: ``{model: position}`` for the models with position <= k.

    ``ranks`` is indexed by model and holds average ranks (rank 1 = best); see the
    module docstring for the treatment of ties.
    """
    r = ranks.dropna()
    pos = positions(r.to_numpy())
    return {m: int(p) for m, p in zip(r.index, pos, strict=True) if p <= k}


def _corr(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    ok = ~(np.isnan(a) | np.isnan(b))
    a, b = a[ok], b[ok]
    if len(a) < 2 or np.all(a == a[0]) or np.all(b == b[0]):
        return float("nan"), float("nan")
    rho = float(spearman_rho(a, b))  # scipy.stats.spearmanr's and kendalltau's statistics, bit for bit
    tau = float(kendall_tau_b(a, b))
    return rho, tau


def disagreement(
    ranks: pd.DataFrame,
    metric_a: str,
    metric_b: str,
    *,
    group: str = "task_id",
    model: str = "model_id",
) -> pd.DataFrame:
    """Per-group disagreement between the rankings by two metrics.

    Parameters
    ----------
    ranks : output of :func:`rank_models` (must hold both metric columns).

    Returns
    -------
    One row per group, sorted by group, with columns ``group, metric_a, metric_b,
    n_models, top1_differs, top3_differs, spearman, kendall``: whether the best
    model / the ordered top three differ (see :func:`top_k` for ties), and
    Spearman's rho and Kendall's tau-b between the two rankings of all models.
    """
    _check_columns(ranks, [group, model, metric_a, metric_b], "the ranks table")
    rows = []
    for g, sub in ranks.groupby(group, sort=True):
        ra = sub.set_index(model)[metric_a]
        rb = sub.set_index(model)[metric_b]
        rho, tau = _corr(ra.to_numpy(np.float64), rb.to_numpy(np.float64))
        rows.append(
            {
                group: g,
                "metric_a": metric_a,
                "metric_b": metric_b,
                "n_models": int((ra.notna() & rb.notna()).sum()),
                "top1_differs": top_k(ra, 1) != top_k(rb, 1),
                "top3_differs": top_k(ra, 3) != top_k(rb, 3),
                "spearman": rho,
                "kendall": tau,
            }
        )
    return pd.DataFrame(rows, columns=[group, *PER_GROUP_COLUMNS])


def metric_pairs(metrics: Sequence[str] = RANKING_METRICS) -> list[tuple[str, str]]:
    """Every unordered pair of metrics, in the order given."""
    return list(itertools.combinations(list(metrics), 2))


def all_disagreements(
    ranks: pd.DataFrame,
    metrics: Sequence[str] = RANKING_METRICS,
    *,
    group: str = "task_id",
    model: str = "model_id",
) -> pd.DataFrame:
    """:func:`disagreement` for every pair of ``metrics``, stacked (pairs in :func:`metric_pairs` order)."""
    frames = [
        disagreement(ranks, a, b, group=group, model=model) for a, b in metric_pairs(metrics)
    ]
    return pd.concat(frames, ignore_index=True)


def pooled_rank_correlation(ranks: pd.DataFrame, metric_a: str, metric_b: str) -> float:
    """Pearson correlation of the within-task ranks pooled over all tasks' models.

    One reading of Flach & Kull's "pairwise correlations between the ranks across
    all tasks" (0.95 for AUPR vs AUPRG); equals the mean per-task Spearman's rho
    when every task has the same number of models and no ties.
    """
    a = ranks[metric_a].to_numpy(np.float64)
    b = ranks[metric_b].to_numpy(np.float64)
    ok = ~(np.isnan(a) | np.isnan(b))
    if ok.sum() < 2:
        return float("nan")
    return float(np.corrcoef(a[ok], b[ok])[0, 1])
