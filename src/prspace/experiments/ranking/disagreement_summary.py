"""Across tasks: the share of tasks where two metrics disagree, with cluster-bootstrap intervals
over task families (:mod:`prspace.stats.family_bootstrap`),
saturated tasks, and the quartile tasks of the rank correlation."""

import numpy as np
import pandas as pd

from prspace.core.defaults import N_BOOT
from prspace.experiments.ranking.ranks import (
    PER_GROUP_COLUMNS,
    _check_columns,
    pooled_rank_correlation,
)
from prspace.stats.family_bootstrap import cluster_bootstrap_ci

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


def summarise_disagreement(
    per_group: pd.DataFrame,
    *,
    ranks: pd.DataFrame | None = None,
    tasks: pd.DataFrame | None = None,
    floors: pd.DataFrame | None = None,
    noise_pairs: pd.DataFrame | None = None,
    n_boot: int = N_BOOT,
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
        :func:`prspace.experiments.noise.noise_floor.noise_floor_task` (stacked over tasks).
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
