"""Rank models by several metrics and measure how much the rankings disagree.

Reproduces the analysis of Flach & Kull (NIPS 2015), section 4: within each task
the models are ranked by AUPR, AUPRG and AUROC, and for every pair of metrics one
counts the tasks where the best model differs (top-1), where the ordered top three
differ (top-3), and correlates the ranks (Spearman, Kendall).  Boyd et al. (ICML
2012, section 4.2) add the across-task view: averaging AUPR over tasks of different
skew mixes scores of different ranges, AUCNPR normalises the range away, so the
learners' order by mean AUPR can differ from their order by mean AUCNPR.

All functions are pure: pandas DataFrames in, DataFrames out, sorted rows, no I/O.

Conventions
-----------
* **Rank 1 is best.**  Every metric here is "higher is better".  Ties get the
  average of the ranks they span (``scipy.stats.rankdata(method="average")``).
* **Float noise is not a difference.**  Metric values are rounded to ``decimals``
  (default 12) before ranking, so two models whose AUPR differ by a rounding error
  tie.  This matters for AUPR vs AUCNPR: AUCNPR is a strictly increasing function of
  AUPR within a task (Boyd et al., eq. for AUCNPR with a fixed ``pi``), so the two
  must order the models identically.
* **Top-k with ties** (:func:`top_k`): a model's *position* is its competition rank
  ``1 + #(models strictly better)``.  The top-k of a metric is the mapping
  ``model -> position`` for the models with position <= k.  Two metrics *agree on
  the top k* when these mappings are identical: the same models, at the same
  positions.  Without ties this is exactly "the same best model" (k=1) and "the same
  ordered top three" (k=3, as in the paper: "they agree on top, second and third
  method").  With ties, a tie at the top under one metric but not the other counts
  as a disagreement; a tie shared by both metrics counts as agreement.
* **Rank correlations** per task are Spearman's rho (Pearson correlation of the
  average ranks) and Kendall's tau-b over all models of the task.  They are NaN when
  one metric ties all models (no order to correlate).  Across tasks, the paper's
  "correlation between AUPR-ranks and AUPRG-ranks" is reproduced two ways
  (:func:`pooled_rank_correlation`, and the mean of the per-task Spearman's rho);
  without ties and with equally many models per task they are identical, because
  every task's ranks then have the same mean and variance.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.metrics import METRIC_LABELS  # re-exported: the display names live in prspace.metrics

#: The metrics the study ranks by (keys of :func:`prspace.metrics.all_metrics`).
RANKING_METRICS: tuple[str, ...] = ("aupr", "average_precision", "auprg", "auroc", "aucnpr")


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
    from scipy import stats  # imported here: scipy.stats is slow to import and only needed here

    ok = ~(np.isnan(a) | np.isnan(b))
    a, b = a[ok], b[ok]
    if len(a) < 2 or np.all(a == a[0]) or np.all(b == b[0]):
        return float("nan"), float("nan")
    rho = float(stats.spearmanr(a, b).statistic)
    tau = float(stats.kendalltau(a, b, variant="b").statistic)
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


def bootstrap_ci(
    values: np.ndarray,
    *,
    n_boot: int = 1000,
    seed: int = 0,
    level: float = 0.95,
    indices: np.ndarray | None = None,
) -> tuple[float, float, float]:
    """Mean of ``values`` (NaNs ignored) with a percentile bootstrap interval over its entries.

    ``indices`` (shape ``(n_boot, len(values))``) lets several statistics share the
    same resamples of tasks; otherwise they are drawn from ``numpy.random.default_rng(seed)``.
    Returns ``(mean, low, high)``; NaNs if no value is finite.
    """
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0 or np.all(np.isnan(v)):
        return float("nan"), float("nan"), float("nan")
    if indices is None:
        indices = np.random.default_rng(seed).integers(0, v.size, size=(n_boot, v.size))
    boot = np.nanmean(v[indices], axis=1) if np.isnan(v).any() else v[indices].mean(axis=1)
    alpha = (1 - level) / 2
    lo, hi = np.nanquantile(boot, [alpha, 1 - alpha])
    return float(np.nanmean(v)), float(lo), float(hi)


SUMMARY_STATS = ("top1", "top3", "spearman", "kendall")

#: A task is *saturated* when at least this many models tie at AUROC = AUPR = AUPRG = 1:
#: every metric then ties them at the top, which counts as agreement of any two metrics.
SATURATED_MIN_MODELS = 2
SATURATION_METRICS = ("auroc", "aupr", "auprg")


def saturation(df: pd.DataFrame, *, group: str = "task_id", decimals: int = 12) -> pd.DataFrame:
    """Per group: ``n_saturated`` (models with AUROC = AUPR = AUPRG = 1 after rounding to
    ``decimals``) and ``saturated`` (``n_saturated >= SATURATED_MIN_MODELS``: perfect models tie)."""
    _check_columns(df, [group, *SATURATION_METRICS], "the metrics table")
    perfect = np.ones(len(df), dtype=bool)
    for m in SATURATION_METRICS:
        perfect &= df[m].astype(np.float64).round(decimals).to_numpy() == 1.0
    n = pd.Series(perfect, index=df.index).groupby(df[group], sort=True).sum().astype(int)
    out = pd.DataFrame({group: n.index, "n_saturated": n.to_numpy()})
    out["saturated"] = out["n_saturated"] >= SATURATED_MIN_MODELS
    return out


def cluster_bootstrap_ci(
    values: np.ndarray,
    clusters: np.ndarray | None = None,
    *,
    n_boot: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> tuple[float, float, float]:
    """Mean of ``values`` over tasks with a percentile bootstrap interval that resamples *clusters*.

    Tasks derived from one source dataset (a family: ``keel-yeast1``, ``keel-yeast3``, ...) are
    not independent, so whole families are drawn with replacement and the statistic of a
    resample is the mean over all tasks of the drawn families (sum of their values / number of
    their tasks; NaNs ignored). With every task its own cluster this is the ordinary bootstrap.
    The resamples come from ``numpy.random.default_rng(seed)``, so statistics sharing a seed and
    clusters share resamples. Returns ``(mean, low, high)``; NaNs if no value is finite.
    """
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0 or np.all(np.isnan(v)):
        return float("nan"), float("nan"), float("nan")
    if clusters is None:
        clusters = np.arange(v.size)
    _, cid = np.unique(np.asarray(clusters).astype(str), return_inverse=True)
    ok = ~np.isnan(v)
    n_c = int(cid.max()) + 1
    sums = np.bincount(cid[ok], v[ok], n_c)
    counts = np.bincount(cid[ok], minlength=n_c).astype(np.float64)
    idx = np.random.default_rng(seed).integers(0, n_c, size=(n_boot, n_c))
    with np.errstate(invalid="ignore", divide="ignore"):
        boot = sums[idx].sum(axis=1) / counts[idx].sum(axis=1)
    alpha = (1 - level) / 2
    lo, hi = np.nanquantile(boot, [alpha, 1 - alpha])
    return float(np.nanmean(v)), float(lo), float(hi)


def summarise_disagreement(
    per_group: pd.DataFrame,
    *,
    ranks: pd.DataFrame | None = None,
    tasks: pd.DataFrame | None = None,
    floors: pd.DataFrame | None = None,
    noise_pairs: pd.DataFrame | None = None,
    n_boot: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> pd.DataFrame:
    """Share of tasks with top-1 / top-3 disagreement and mean rank correlations, with intervals.

    Parameters
    ----------
    per_group : output of :func:`disagreement` / :func:`all_disagreements`.
    ranks : optional output of :func:`rank_models`; adds ``pooled_spearman``
        (:func:`pooled_rank_correlation`).
    tasks : optional task table with ``task_id`` and optionally ``family`` (the cluster of the
        bootstrap; default: each task its own) and ``saturated`` (see :func:`saturation`).
    floors, noise_pairs : optional outputs of
        :func:`prspace.experiments.noise_floor.noise_floor_task` (stacked over tasks).
    n_boot, seed, level : the percentile cluster bootstrap over families of tasks
        (:func:`cluster_bootstrap_ci`; the same resamples serve every statistic and pair).

    Returns
    -------
    One row per metric pair with ``metric_a, metric_b, n_tasks, n_families,
    n_tasks_unsaturated``; for ``top1, top3``: ``<s>_share, <s>_lo, <s>_hi`` (all tasks),
    ``<s>_share_unsat, <s>_unsat_lo, <s>_unsat_hi`` (saturated tasks left out), with noise
    data ``<s>_floor`` (mean over tasks of the two metrics' per-task floors, averaged),
    ``<s>_floor_unsat`` and ``<s>_distinguishable`` (share of the disagreeing tasks whose
    disagreement is distinguishable); for ``spearman, kendall``: ``<s>_mean, <s>_lo, <s>_hi``
    and ``<s>_mean_unsat``; ``spearman_q25, spearman_median, spearman_q75`` and, with
    ``ranks``, ``pooled_spearman``.
    """
    _check_columns(per_group, PER_GROUP_COLUMNS, "the per-task disagreement table")
    group = per_group.columns[0]
    info = pd.DataFrame({group: per_group[group].unique()})
    if tasks is not None:
        keep = [c for c in ("family", "saturated") if c in tasks.columns]
        info = info.merge(tasks[[group, *keep]].drop_duplicates(group), on=group, how="left")
    if "family" not in info.columns:
        info["family"] = info[group]
    info["family"] = info["family"].where(info["family"].notna(), info[group]).astype(str)
    if "saturated" not in info.columns:
        info["saturated"] = False
    info["saturated"] = info["saturated"].fillna(False).astype(bool)
    fam = info.set_index(group)["family"]
    sat = info.set_index(group)["saturated"]
    floor_of = None
    if floors is not None and len(floors):
        floor_of = floors.set_index([group, "metric"])[["top1_floor", "top3_floor"]]
    pairs = list(dict.fromkeys(zip(per_group["metric_a"], per_group["metric_b"], strict=True)))
    rows = []
    for a, b in pairs:
        sub = per_group[(per_group["metric_a"] == a) & (per_group["metric_b"] == b)].sort_values(group)
        ids = sub[group].to_numpy()
        clusters = fam.reindex(ids).to_numpy()
        unsat = ~sat.reindex(ids).to_numpy(dtype=bool)
        row: dict[str, object] = {"metric_a": a, "metric_b": b, "n_tasks": len(sub),
                                  "n_families": int(pd.Series(clusters).nunique()),
                                  "n_tasks_unsaturated": int(unsat.sum())}

        def ci(v: np.ndarray, mask: np.ndarray | None = None, clusters: np.ndarray = clusters) -> tuple[float, float, float]:
            if mask is None:
                return cluster_bootstrap_ci(v, clusters, n_boot=n_boot, seed=seed, level=level)
            return cluster_bootstrap_ci(v[mask], clusters[mask], n_boot=n_boot, seed=seed, level=level)

        for stat, col in (("top1", "top1_differs"), ("top3", "top3_differs")):
            v = sub[col].to_numpy(np.float64)
            m, lo, hi = ci(v)
            mu, lou, hiu = ci(v, unsat)
            row |= {f"{stat}_share": m, f"{stat}_lo": lo, f"{stat}_hi": hi,
                    f"{stat}_share_unsat": mu, f"{stat}_unsat_lo": lou, f"{stat}_unsat_hi": hiu}
            if floor_of is not None:
                fa = floor_of[f"{stat}_floor"].reindex(pd.MultiIndex.from_arrays([ids, [a] * len(ids)])).to_numpy()
                fb = floor_of[f"{stat}_floor"].reindex(pd.MultiIndex.from_arrays([ids, [b] * len(ids)])).to_numpy()
                f = (fa + fb) / 2
                row[f"{stat}_floor"] = float(np.nanmean(f)) if np.isfinite(f).any() else float("nan")
                row[f"{stat}_floor_unsat"] = float(np.nanmean(f[unsat])) if np.isfinite(f[unsat]).any() else float("nan")
            if noise_pairs is not None and len(noise_pairs):
                npq = noise_pairs[(noise_pairs.metric_a == a) & (noise_pairs.metric_b == b)]
                d = npq[npq[f"{stat}_differs"].astype(bool)][f"{stat}_distinguishable"]
                d = d[d.notna()].astype(bool)
                row[f"{stat}_distinguishable"] = float(d.mean()) if len(d) else float("nan")
                row[f"{stat}_n_distinguishable"] = int(d.sum())
        for stat in ("spearman", "kendall"):
            v = sub[stat].to_numpy(np.float64)
            m, lo, hi = ci(v)
            row |= {f"{stat}_mean": m, f"{stat}_lo": lo, f"{stat}_hi": hi,
                    f"{stat}_mean_unsat": float(np.nanmean(v[unsat])) if np.isfinite(v[unsat]).any() else float("nan")}
        rho = sub["spearman"].to_numpy(np.float64)
        rho = rho[~np.isnan(rho)]
        q = np.quantile(rho, [0.25, 0.5, 0.75]) if rho.size else [np.nan] * 3
        row |= {"spearman_q25": float(q[0]), "spearman_median": float(q[1]), "spearman_q75": float(q[2])}
        if ranks is not None:
            row["pooled_spearman"] = pooled_rank_correlation(ranks, a, b)
        rows.append(row)
    return pd.DataFrame(rows)


def quartile_groups(per_group: pd.DataFrame, metric_a: str, metric_b: str, *, group: str = "task_id") -> tuple[object, object]:
    """The groups at the lower and upper quartile of the per-group Spearman's rho between two metrics.

    As Flach & Kull's Figure 4 (right): the task whose rho is closest to the 25th
    and to the 75th percentile (``numpy.quantile``, linear), ties broken by group
    name; the two are different tasks whenever there are two.  Tasks with an
    undefined rho are ignored.
    """
    sub = per_group[(per_group["metric_a"] == metric_a) & (per_group["metric_b"] == metric_b)]
    sub = sub[sub["spearman"].notna()].sort_values(group, kind="stable")
    if sub.empty:
        raise ValueError(f"no task has a defined rank correlation between {metric_a} and {metric_b}")
    rho = sub["spearman"].to_numpy(np.float64)
    dist_lo = np.abs(rho - np.quantile(rho, 0.25))
    dist_hi = np.abs(rho - np.quantile(rho, 0.75))
    i_lo = int(np.argmin(dist_lo))
    if len(rho) > 1:  # two different tasks whenever there are two
        dist_hi[i_lo] = np.inf
    i_hi = int(np.argmin(dist_hi))
    return sub[group].iloc[i_lo], sub[group].iloc[i_hi]


def learner_ranking_across_tasks(
    df: pd.DataFrame,
    metrics: Sequence[str] = ("aupr", "aucnpr", "auprg"),
    *,
    group: str = "task_id",
    learner: str = "flow_name",
    min_share: float = 1.0,
    decimals: int = 12,
) -> pd.DataFrame:
    """Rank learners across tasks by their mean metric (Boyd et al. 2012, section 4.2).

    Averaging AUPR over tasks of different skew mixes scores whose ranges differ
    (the minimum AUPR grows with ``pi``); AUCNPR rescales each task to [0, 1] first.
    This function shows whether that changes the learners' order.

    Parameters
    ----------
    df : one row per (group, learner) with metric columns (the study's metrics table).
    metrics : the metrics to average.
    learner : the column that identifies a learner across tasks (local learners: the
        model id or flow name; OpenML: the flow).
    min_share : keep only learners present in at least this share of the groups
        (default 1: only learners evaluated on every task, so the means are comparable).

    Returns
    -------
    One row per learner with ``learner, n_tasks``, for each metric ``mean_<m>`` (mean
    over tasks), ``rank_mean_<m>`` (the learner's rank by that mean, 1 = best, average
    ranks for ties) and ``mean_rank_<m>`` (its mean within-task rank among the kept
    learners); sorted by ``rank_mean_<first metric>`` then learner.
    """
    metrics = list(metrics)
    _check_columns(df, [group, learner, *metrics], "the metrics table")
    n_groups = df[group].nunique()
    counts = df.groupby(learner)[group].nunique()
    keep = counts.index[counts >= min_share * n_groups - 1e-9]
    sub = df[df[learner].isin(keep)]
    if sub.empty:
        raise ValueError(f"no {learner} occurs in at least {min_share:.0%} of the {n_groups} tasks")
    within = rank_models(sub, metrics, group=group, model=learner, decimals=decimals)
    out = pd.DataFrame({learner: sorted(keep)})
    out["n_tasks"] = out[learner].map(counts).astype(int)
    for m in metrics:
        means = sub.groupby(learner)[m].mean()
        out[f"mean_{m}"] = out[learner].map(means).astype(np.float64)
        out[f"rank_mean_{m}"] = (-out[f"mean_{m}"].round(decimals)).rank(method="average")
        out[f"mean_rank_{m}"] = out[learner].map(within.groupby(learner)[m].mean()).astype(np.float64)
    return out.sort_values([f"rank_mean_{metrics[0]}", learner], kind="stable", ignore_index=True)


def learner_order_agreement(learners: pd.DataFrame, metrics: Sequence[str] = ("aupr", "aucnpr", "auprg"), *, learner: str = "flow_name") -> pd.DataFrame:
    """For every pair of metrics: do the across-task orders of the learners agree?

    Input: output of :func:`learner_ranking_across_tasks`.  One row per pair with
    ``metric_a, metric_b, n_learners, best_a, best_b, top1_differs, top3_differs,
    spearman, kendall`` computed on the ``rank_mean_<m>`` columns.
    """
    rows = []
    for a, b in metric_pairs(metrics):
        ra = learners.set_index(learner)[f"rank_mean_{a}"]
        rb = learners.set_index(learner)[f"rank_mean_{b}"]
        rho, tau = _corr(ra.to_numpy(np.float64), rb.to_numpy(np.float64))
        ta, tb = top_k(ra, 1), top_k(rb, 1)
        rows.append(
            {
                "metric_a": a,
                "metric_b": b,
                "n_learners": len(learners),
                "best_a": ", ".join(sorted(map(str, ta))),
                "best_b": ", ".join(sorted(map(str, tb))),
                "top1_differs": ta != tb,
                "top3_differs": top_k(ra, 3) != top_k(rb, 3),
                "spearman": rho,
                "kendall": tau,
            }
        )
    return pd.DataFrame(rows)


def flipped_pairs(
    df: pd.DataFrame,
    metric_a: str = "aupr",
    metric_b: str = "auprg",
    *,
    group: str = "task_id",
    model: str = "model_id",
    decimals: int = 12,
) -> pd.DataFrame:
    """Pairs of models in the same group whose order flips between two metrics.

    Model ``first`` is strictly better than ``second`` by ``metric_a`` and strictly
    worse by ``metric_b`` (as AdaBoost and Logistic Regression in Flach & Kull's
    Figure 5).  Columns ``group, first, second, <metric_a>_first, <metric_a>_second,
    <metric_b>_first, <metric_b>_second, best_position`` where ``best_position`` is
    the better of the two models' positions under ``metric_b`` (small = a flip among
    the top models); sorted by ``best_position, group, first, second``.
    """
    _check_columns(df, [group, model, metric_a, metric_b], "the metrics table")
    rows = []
    for g, sub in df.groupby(group, sort=True):
        sub = sub.sort_values(model, kind="stable")
        a = sub[metric_a].to_numpy(np.float64).round(decimals)
        b = sub[metric_b].to_numpy(np.float64).round(decimals)
        names = sub[model].to_numpy()
        pos_b = positions(np.where(np.isnan(b), -np.inf, -b))
        flip = (a[:, None] > a[None, :]) & (b[:, None] < b[None, :])
        for i, j in zip(*np.nonzero(flip), strict=True):
            rows.append(
                {
                    group: g,
                    "first": names[i],
                    "second": names[j],
                    f"{metric_a}_first": a[i],
                    f"{metric_a}_second": a[j],
                    f"{metric_b}_first": b[i],
                    f"{metric_b}_second": b[j],
                    "best_position": int(min(pos_b[i], pos_b[j])),
                }
            )
    cols = [group, "first", "second", f"{metric_a}_first", f"{metric_a}_second",
            f"{metric_b}_first", f"{metric_b}_second", "best_position"]
    out = pd.DataFrame(rows, columns=cols)
    return out.sort_values(["best_position", group, "first", "second"], kind="stable", ignore_index=True)


#: Flach & Kull (NIPS 2015), section 4: 886 OpenML tasks, 30 models from distinct flows
#: each; share of tasks where the best model (top-1) / the ordered top three (top-3)
#: differ, and "the correlation between [the metrics'] ranks" across all tasks (the paper
#: does not say which correlation).  Figure 4 (left) counts 25,980 models, not 886 x 30.
PAPER_SOURCE = "Flach & Kull 2015, sec. 4: OpenML, 886 tasks x 30 models (distinct flows), minority class positive"
PAPER_N_TASKS = 886
PAPER_N_MODELS = 30
PAPER_N_MODELS_TOTAL = 25980
PAPER_RESULTS: dict[tuple[str, str], dict[str, float]] = {
    ("aupr", "auprg"): {"top1": 0.24, "top3": 0.58, "spearman": 0.95},
    ("aupr", "auroc"): {"top1": 0.29, "top3": 0.65, "spearman": 0.95},
    ("auprg", "auroc"): {"top1": 0.22, "top3": 0.57, "spearman": 0.96},
}
#: Figure 4 (right): the per-task rank correlations of AUPR and AUPRG at the lower and upper
#: quartile over tasks (tasks 3872 white-clover and 3896 ada-agnostic).
PAPER_QUARTILES: dict[tuple[str, str], tuple[float, float]] = {("aupr", "auprg"): (0.944, 0.991)}

#: How ties count, stated in the scorecard.
TIE_CONVENTION = (
    "Ties: values equal after rounding to 12 decimals tie; a tie shares the average rank; two metrics "
    "agree on the top k when the same models hold the same competition positions (1 + number strictly "
    "better) <= k, so a tie at the top under one metric only is a disagreement, a tie shared by both is "
    "agreement. Saturated tasks (at least 2 models at AUROC = AUPR = AUPRG = 1) therefore always count "
    "as agreement; 'without saturated' leaves them out."
)

SCORECARD_COLUMNS = (
    "comparison",
    "statistic",
    "paper",
    "this_run",
    "ci_lo",
    "ci_hi",
    "noise_floor",
    "without_saturated",
    "distinguishable",
    "paper_source",
    "this_source",
)


def scorecard(summary: pd.DataFrame, per_group: pd.DataFrame, *, source: str, group: str = "task_id") -> pd.DataFrame:
    """The paper's numbers beside this run's, each labelled with its source.

    Parameters
    ----------
    summary : output of :func:`summarise_disagreement` (with ``pooled_spearman``).
    per_group : the per-task table it was made from (for the number of models).
    source : what this run is (e.g. "local: 30 learners on 40 datasets of ...").

    Returns
    -------
    Rows: the number of tasks, of models per task and in all, then for each of the paper's
    three pairs (AUPR-AUPRG, AUPR-AUROC, AUPRG-AUROC) the top-1 and top-3 disagreement shares
    (with the cluster-bootstrap interval over families, the noise floor, the share without
    saturated tasks and the share of disagreements that are distinguishable) and the rank
    correlation (the paper's is unnamed; this run: mean per-task Spearman, the pooled-rank
    reading, and the per-task quartiles beside the paper's Figure 4 quartiles).
    Columns :data:`SCORECARD_COLUMNS`.
    """
    rows: list[dict[str, object]] = []
    nan = float("nan")

    def add(comparison: str, statistic: str, paper: float, this: float, lo: float = nan, hi: float = nan,
            floor: float = nan, unsat: float = nan, dist: float = nan) -> None:
        rows.append({"comparison": comparison, "statistic": statistic, "paper": paper, "this_run": this,
                     "ci_lo": lo, "ci_hi": hi, "noise_floor": floor, "without_saturated": unsat,
                     "distinguishable": dist, "paper_source": PAPER_SOURCE, "this_source": source})

    n_tasks = per_group[group].nunique()
    models = per_group.drop_duplicates(group)["n_models"]
    add("all", "tasks", PAPER_N_TASKS, float(n_tasks))
    add("all", "models per task (median)", PAPER_N_MODELS, float(models.median()) if len(models) else nan)
    add("all", "models in all (paper: Figure 4 count; 886 x 30 would be 26,580)", PAPER_N_MODELS_TOTAL,
        float(models.sum()) if len(models) else nan)
    if "n_families" in summary.columns and len(summary):
        add("all", "families of tasks (clusters of the bootstrap)", nan, float(summary["n_families"].iloc[0]))
        add("all", "tasks without saturated", nan, float(summary["n_tasks_unsaturated"].iloc[0]))
    for (a, b), paper in PAPER_RESULTS.items():
        hit = summary[((summary.metric_a == a) & (summary.metric_b == b)) | ((summary.metric_a == b) & (summary.metric_b == a))]
        label = f"{METRIC_LABELS[a]} vs {METRIC_LABELS[b]}"
        if hit.empty:
            continue
        s = hit.iloc[0]
        for k in ("top1", "top3"):
            add(label, f"top-{k[-1]} disagreement (share of tasks)", paper[k], s[f"{k}_share"], s[f"{k}_lo"], s[f"{k}_hi"],
                s.get(f"{k}_floor", nan), s.get(f"{k}_share_unsat", nan), s.get(f"{k}_distinguishable", nan))
        add(label, "rank correlation (paper: unnamed; this run: mean per-task Spearman)", paper["spearman"],
            s.spearman_mean, s.spearman_lo, s.spearman_hi, unsat=s.get("spearman_mean_unsat", nan))
        if "pooled_spearman" in s.index:
            add(label, "rank correlation (paper: unnamed; this run: ranks pooled over tasks)", paper["spearman"], s.pooled_spearman)
        q = PAPER_QUARTILES.get((a, b), (nan, nan))
        add(label, "per-task rank correlation, lower quartile (this run: Spearman)", q[0], s.spearman_q25)
        add(label, "per-task rank correlation, upper quartile (this run: Spearman)", q[1], s.spearman_q75)
    return pd.DataFrame(rows, columns=list(SCORECARD_COLUMNS))


WINNER_CRITERIA = ("mean", "median", "mean_rank")


def learner_winners(
    df: pd.DataFrame,
    metrics: Sequence[str] = ("aupr", "aucnpr", "auprg", "auroc"),
    *,
    group: str = "task_id",
    learner: str = "flow_id",
    decimals: int = 12,
) -> pd.DataFrame:
    """The best learner across tasks by mean, median and mean within-task rank, with its margin.

    Only learners evaluated on every task take part. For each metric and criterion: the winner
    and the runner-up, their values and the margin between them, and how many tasks, left out
    one at a time, change the winner (``n_tasks_flip``; ``flip_tasks`` names up to five). A
    mean of AUPRG is fragile: AUPRG is unbounded below, so one task with a negative AUPRG can
    decide it; the median and the mean rank are not moved by one extreme value.
    """
    _check_columns(df, [group, learner, *metrics], "the metrics table")
    n_groups = df[group].nunique()
    counts = df.groupby(learner)[group].nunique()
    keep = sorted(counts.index[counts == n_groups])
    sub = df[df[learner].isin(keep)]
    rows = []
    for m in metrics:
        tasks = sub[group].drop_duplicates().sort_values().to_numpy()
        X = sub.pivot(index=group, columns=learner, values=m).reindex(index=tasks, columns=keep).to_numpy(np.float64)
        R = pd.DataFrame(-np.round(X, decimals)).rank(axis=1, method="average").to_numpy()
        for crit in WINNER_CRITERIA:
            def stat(rows_mask: np.ndarray, crit: str = crit, X: np.ndarray = X, R: np.ndarray = R) -> np.ndarray:
                if crit == "mean":
                    return np.round(X[rows_mask].mean(axis=0), decimals)
                if crit == "median":
                    return np.round(np.median(X[rows_mask], axis=0), decimals)
                return -np.round(R[rows_mask].mean(axis=0), decimals)  # lower mean rank is better
            allrows = np.ones(len(tasks), dtype=bool)
            v = stat(allrows)
            order = np.lexsort((np.asarray(keep, dtype=str), -v))
            w, r = order[0], order[1] if len(order) > 1 else order[0]
            flips = []
            for t in range(len(tasks)):
                mask = allrows.copy()
                mask[t] = False
                vt = stat(mask)
                if np.lexsort((np.asarray(keep, dtype=str), -vt))[0] != w:
                    flips.append(str(tasks[t]))
            sign = -1.0 if crit == "mean_rank" else 1.0
            rows.append({"metric": m, "criterion": crit, "n_learners": len(keep), "n_tasks": len(tasks),
                         "winner": keep[w], "runner_up": keep[r], "winner_value": sign * v[w],
                         "runner_up_value": sign * v[r], "margin": float(v[w] - v[r]),
                         "n_tasks_flip": len(flips), "flip_tasks": ", ".join(flips[:5])})
    return pd.DataFrame(rows)


def one_model_per_family(df: pd.DataFrame, families: pd.Series, *, model: str = "model_id") -> pd.DataFrame:
    """The rows of one model per learner family (hyperparameter variants of one method).

    ``families`` maps ``df[model]`` to a family (e.g. ``logreg-C0.1``, ``logreg-C1`` ->
    ``logreg``). The representative of a family is its model id that sorts first: fixed across
    tasks and chosen without looking at any metric, so no metric is favoured.
    """
    fam = df[model].map(families).fillna(df[model]).astype(str)
    rep = pd.Series(df[model].astype(str).to_numpy(), index=fam.to_numpy()).groupby(level=0).min()
    return df[df[model].astype(str).isin(set(rep.to_numpy()))]


def panel_sensitivity(
    df: pd.DataFrame,
    families: pd.Series,
    metrics: Sequence[str],
    *,
    tasks: pd.DataFrame | None = None,
    n_boot: int = 1000,
    seed: int = 0,
) -> pd.DataFrame:
    """Disagreement shares with every model and with one model per learner family, side by side.

    Near-duplicate models (variants of one method) make near-ties; if the shares move when only
    one model per family is kept, the panel, not the metrics, drives part of the disagreement.
    One row per metric pair: ``n_models_all``, ``n_models_family`` (median per task) and for
    ``top1, top3`` the shares ``<s>_all`` and ``<s>_family`` with the latter's cluster-bootstrap
    interval, and the mean per-task Spearman of both.
    """
    full = summarise_disagreement(all_disagreements(rank_models(df, metrics), metrics), tasks=tasks,
                                  n_boot=n_boot, seed=seed)
    sub = one_model_per_family(df, families)
    per = all_disagreements(rank_models(sub, metrics), metrics)
    fam = summarise_disagreement(per, tasks=tasks, n_boot=n_boot, seed=seed)
    n_all = float(df.groupby("task_id")["model_id"].nunique().median())
    n_fam = float(sub.groupby("task_id")["model_id"].nunique().median())
    rows = []
    for (_, f), (_, a) in zip(fam.iterrows(), full.iterrows(), strict=True):
        rows.append({"metric_a": f.metric_a, "metric_b": f.metric_b, "n_models_all": n_all, "n_models_family": n_fam,
                     "top1_all": a.top1_share, "top1_family": f.top1_share, "top1_family_lo": f.top1_lo,
                     "top1_family_hi": f.top1_hi, "top3_all": a.top3_share, "top3_family": f.top3_share,
                     "top3_family_lo": f.top3_lo, "top3_family_hi": f.top3_hi,
                     "spearman_all": a.spearman_mean, "spearman_family": f.spearman_mean})
    return pd.DataFrame(rows)
