"""Aggregation over cross-validation folds of different skew (Boyd et al. 2012, section 4.1).

When folds cannot be stratified (relational domains, grouped data), their skews differ, and so
do their unachievable regions: AUCPR_MIN(pi_fold) (Theorem 2). The mean of per-fold AUCPR then
mixes scores of different ranges; Boyd et al. recommend the mean of per-fold AUCNPR, or a single
curve on the merged (pooled) folds when the scores are calibrated.

:func:`fold_skew_experiment` measures this on real cross-validated predictions (the schema of
:mod:`prspace.schema`). For a dispersion ``d`` in [0, 1) and a seed, it makes two designs of
test folds from every cross-validation repeat, both dropping the same number of rows:

Default design (``fixed_positives=True``): only negatives are dropped, so every fold keeps every
positive in both designs and the skew is not mixed with the small-sample bias of folds left with
few positives (the earlier design below kept about 10% of a skewed fold's positives at d = 0.9):

* ``skewed``: the folds are shuffled; half of them lose a fraction ``d`` of their negatives (their
  pi rises), the others keep every row. Fold skews spread apart.
* ``stratified``: every fold loses a fraction ``d / 2`` of its negatives: the same number of rows
  and the same pooled pi as the skewed design, with equal pi in every fold.

Earlier design (``fixed_positives=False``): skewed, half of the folds lose a fraction ``d`` of
their positives, the other half ``d`` of their negatives (pooled pi stays the task's);
stratified, every fold loses ``d / 2`` of each class.

At least one row of each class is kept in every fold. On both designs it computes, for every
model, the aggregates ``mean_<metric>`` (mean over folds of the per-fold metric) for AUPR,
AUCNPR, AUPRG and AUROC, and ``pooled_<metric>`` (the metric of all folds' rows together). The
*bias* of an aggregate at dispersion ``d`` is its value on the skewed folds minus its value on the
stratified folds, for the same models; :func:`fold_skew_summary` averages it.

Both designs thin the data, and thinning alone reorders near-tied models. So the models' order by
each aggregate is compared with their order on the whole data (design ``full``: all rows, the
original folds, computed once per repeat): the share of best-model changes on the stratified
folds is the noise floor of thinning, and the *excess* on the skewed folds is what the skew adds.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace import metrics
from prspace.errors import InputError
from prspace.experiments.ranking import bootstrap_ci, rank_models, top_k

METRICS = ("aupr", "aucnpr", "auprg", "auroc")
AGGREGATES = tuple(f"mean_{m}" for m in METRICS) + tuple(f"pooled_{m}" for m in METRICS)
AGGREGATE_LABELS = {
    **{f"mean_{m}": f"mean of per-fold {lab}" for m, lab in zip(METRICS, ("AUPR", "AUCNPR", "AUPRG", "AUROC"), strict=True)},
    **{f"pooled_{m}": f"pooled {lab}" for m, lab in zip(METRICS, ("AUPR", "AUCNPR", "AUPRG", "AUROC"), strict=True)},
}
DESIGNS = ("skewed", "stratified")
FULL = "full"  # reference design: every row, the original folds (dispersion NaN, seed -1)

RUN_COLUMNS = [
    "task_id", "task_pi", "dispersion", "seed", "repeat", "design", "model_id",
    "n_folds", "n_rows", "pooled_pi", "fold_pi_min", "fold_pi_max", "fold_pi_sd", *AGGREGATES,
]


def drop_for_skew(
    y: np.ndarray, fold: np.ndarray, *, dispersion: float, design: str, rng: np.random.Generator,
    fixed_positives: bool = True,
) -> np.ndarray:
    """Boolean mask of the rows kept in one cross-validation repeat (see the module docstring).

    ``fixed_positives`` (default): only negatives are dropped, so every fold keeps all its
    positives in both designs and skew is not mixed with the small-sample bias of folds with
    few positives; skewed: half of the folds lose a share ``d`` of their negatives, stratified:
    every fold loses ``d / 2`` of them (the same rows in total, the same pooled pi).
    ``fixed_positives=False``: the earlier design, which also drops positives.
    """
    if not 0 <= dispersion < 1:
        raise InputError(f"fold-skew dispersion must be in [0, 1), got {dispersion}; it is the share of a class dropped")
    if design not in DESIGNS:
        raise InputError(f"design must be one of {DESIGNS}, got {design!r}")
    y = np.asarray(y, dtype=bool)
    fold = np.asarray(fold)
    keep = np.ones(y.size, dtype=bool)
    folds = np.unique(fold)
    order = rng.permutation(folds)
    half = folds.size // 2
    drop_pos_folds = set(order[:half].tolist())
    drop_neg_folds = set(order[half : 2 * half].tolist())
    for f in folds:
        in_fold = fold == f
        if fixed_positives:
            shares = {True: 0.0, False: (dispersion if f in drop_pos_folds else 0.0) if design == "skewed" else dispersion / 2}
        elif design == "skewed":
            shares = {True: dispersion if f in drop_pos_folds else 0.0, False: dispersion if f in drop_neg_folds else 0.0}
        else:
            shares = {True: dispersion / 2, False: dispersion / 2}
        for cls, share in shares.items():
            idx = np.flatnonzero(in_fold & (y == cls))
            n_drop = min(int(round(share * idx.size)), idx.size - 1)
            if n_drop > 0:
                keep[rng.choice(idx, size=n_drop, replace=False)] = False
    return keep


def _aggregates(y: np.ndarray, s: np.ndarray, fold: np.ndarray) -> dict[str, float]:
    out: dict[str, float] = {}
    pooled = metrics.all_metrics(y, s)
    per_fold = []
    for f in np.unique(fold):
        m = fold == f
        yf = y[m]
        if yf.all() or not yf.any():
            continue
        per_fold.append(metrics.all_metrics(yf, s[m]))
    for k in METRICS:
        out[f"mean_{k}"] = float(np.mean([p[k] for p in per_fold])) if per_fold else float("nan")
        out[f"pooled_{k}"] = float(pooled[k])
    return out


def fold_skew_experiment(
    predictions: pd.DataFrame,
    *,
    dispersions: Sequence[float] = (0.25, 0.5, 0.75, 0.9),
    seeds: int = 3,
    seed: int = 0,
    max_repeats: int | None = 1,
    fixed_positives: bool = True,
) -> pd.DataFrame:
    """Aggregates of every model on skewed and on stratified test folds.

    Parameters
    ----------
    predictions
        One task's predictions in the canonical form of :func:`prspace.schema.read_predictions`.
    dispersions
        Shares ``d`` of a class dropped from half of the folds (see the module docstring).
    seeds
        Number of random drops per dispersion; drop ``j`` of repeat ``r`` at dispersion index
        ``i`` uses seed ``(seed, i, j, r)``, the same for both designs' fold shuffles.
    max_repeats
        Use at most this many cross-validation repeats (``None``: all).
    fixed_positives
        Drop negatives only, so both designs keep every positive (see :func:`drop_for_skew`).

    Returns
    -------
    DataFrame with :data:`RUN_COLUMNS`, one row per dispersion x seed x repeat x design x model,
    plus per repeat and model one row of design ``full`` (dispersion NaN, seed -1).
    """
    need = {"task_id", "model_id", "repeat", "fold", "row_id", "y_true", "score"}
    missing = need - set(predictions.columns)
    if missing:
        raise InputError(f"predictions lack column(s) {sorted(missing)}; read them with prspace.schema.read_predictions")
    task_id = str(predictions["task_id"].iloc[0])
    repeats = sorted(predictions["repeat"].unique())
    if max_repeats is not None:
        repeats = repeats[:max_repeats]
    rows = []
    for r in repeats:
        pr = predictions[predictions["repeat"] == r].sort_values(["model_id", "row_id"], kind="stable")
        models = list(pd.unique(pr["model_id"]))
        ref = pr[pr["model_id"] == models[0]]
        y = ref["y_true"].to_numpy(dtype=bool)
        fold = ref["fold"].to_numpy()
        if np.unique(fold).size < 2:
            raise InputError(f"task {task_id}: repeat {r} has a single fold; the fold-skew experiment needs cross-validated predictions")
        scores = {m: g["score"].to_numpy(dtype=np.float64) for m, g in pr.groupby("model_id", sort=False)}
        task_pi = float(y.mean())
        pis_full = np.array([y[fold == f].mean() for f in np.unique(fold)])
        base_full = {
            "task_id": task_id, "task_pi": task_pi, "dispersion": float("nan"), "seed": -1, "repeat": int(r),
            "design": FULL, "n_folds": int(pis_full.size), "n_rows": int(y.size), "pooled_pi": task_pi,
            "fold_pi_min": float(pis_full.min()), "fold_pi_max": float(pis_full.max()),
            "fold_pi_sd": float(pis_full.std(ddof=1)),
        }
        for m in models:
            rows.append({**base_full, "model_id": m, **_aggregates(y, scores[m], fold)})
        for i, d in enumerate(dispersions):
            for j in range(seeds):
                for design in DESIGNS:
                    keep = drop_for_skew(y, fold, dispersion=float(d), design=design, rng=np.random.default_rng([seed, i, j, int(r)]),
                                         fixed_positives=fixed_positives)
                    yk, fk = y[keep], fold[keep]
                    pis = np.array([yk[fk == f].mean() for f in np.unique(fk)])
                    base = {
                        "task_id": task_id, "task_pi": task_pi, "dispersion": float(d), "seed": j, "repeat": int(r),
                        "design": design, "n_folds": int(pis.size), "n_rows": int(keep.sum()), "pooled_pi": float(yk.mean()),
                        "fold_pi_min": float(pis.min()), "fold_pi_max": float(pis.max()),
                        "fold_pi_sd": float(pis.std(ddof=1)) if pis.size > 1 else 0.0,
                    }
                    for m in models:
                        rows.append({**base, "model_id": m, **_aggregates(yk, scores[m][keep], fk)})
    return pd.DataFrame(rows, columns=RUN_COLUMNS)


def fold_skew_bias(runs: pd.DataFrame) -> pd.DataFrame:
    """Per task x dispersion x seed x repeat x model: skewed minus stratified, for every aggregate."""
    runs = runs[runs["design"] != FULL]
    keys = ["task_id", "dispersion", "seed", "repeat", "model_id"]
    sk = runs[runs["design"] == "skewed"].set_index(keys)
    st = runs[runs["design"] == "stratified"].set_index(keys)
    diff = sk[list(AGGREGATES)] - st[list(AGGREGATES)].reindex(sk.index)
    diff["fold_pi_sd"] = sk["fold_pi_sd"]
    diff["task_pi"] = sk["task_pi"]
    return diff.reset_index()


def rank_changes(runs: pd.DataFrame) -> pd.DataFrame:
    """Per task x dispersion x seed x repeat, design and aggregate: does the models' order change?

    Models are ranked (rank 1 = best, :func:`prspace.experiments.ranking.rank_models`) by each
    aggregate on the thinned folds of each design and on the whole data (design ``full``);
    ``top1_changed`` says whether the best model differs from the best on the whole data,
    ``kendall`` is Kendall's tau-b between the two orders (NaN with fewer than three models or
    when an order is all ties).
    """
    from scipy.stats import kendalltau

    keys = ["task_id", "dispersion", "seed", "repeat"]
    cols = [*keys, "design", "aggregate", "n_models", "top1_changed", "kendall"]
    full_rows = runs[runs["design"] == FULL]
    if full_rows.empty:
        return pd.DataFrame(columns=cols)
    full_ranks = {
        (str(t), int(r)): rank_models(g, AGGREGATES, group="task_id", model="model_id").set_index("model_id")
        for (t, r), g in full_rows.groupby(["task_id", "repeat"], sort=True)
    }
    thinned = runs[runs["design"] != FULL]
    rows = []
    for key, g in thinned.groupby(keys, sort=True):
        if g["model_id"].nunique() < 2:
            continue
        ref = full_ranks[(key[0], int(key[3]))]
        ranks = rank_models(g, AGGREGATES, group="design", model="model_id")
        for design, rg in ranks.groupby("design", sort=True):
            rg = rg.set_index("model_id")
            rf = ref.reindex(rg.index)
            for a in AGGREGATES:
                tau = float("nan")
                if len(rg) >= 3 and rg[a].nunique() > 1 and rf[a].nunique() > 1:
                    tau = float(kendalltau(rg[a], rf[a]).statistic)
                rows.append({**dict(zip(keys, key, strict=True)), "design": design, "aggregate": a, "n_models": len(rg),
                             "top1_changed": top_k(rg[a], 1) != top_k(rf[a], 1), "kendall": tau})
    return pd.DataFrame(rows, columns=cols)


def fold_skew_summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Per dispersion and aggregate: bias (mean, sd over tasks) and changes of the models' order.

    Bias is averaged over models, seeds and repeats within a task first, so every task weighs the
    same; ``bias_sd_tasks`` is the standard deviation of the per-task biases; ``bias_share_positive``
    the share of tasks whose bias is positive (optimistic). ``fold_pi_sd`` is the realised spread of
    the skewed folds' pi (mean over tasks). ``top1_change_<design>``: share of task x seed x repeat
    whose best model on the thinned folds differs from the best on the whole data;
    ``top1_change_excess`` = skewed minus stratified (what the skew adds to thinning);
    ``kendall_<design>``: mean Kendall's tau with the order on the whole data; ``kendall_loss`` =
    stratified minus skewed (the agreement the skew costs). ``abs_bias_mean``: mean over tasks of
    the absolute per-task bias (the sign differs between tasks; the size is what misleads).
    """
    diff = fold_skew_bias(runs)
    per_task = diff.groupby(["dispersion", "task_id"])[[*AGGREGATES, "fold_pi_sd"]].mean()
    changes = rank_changes(runs)
    rows = []
    for d, g in per_task.groupby(level="dispersion"):
        ch = changes[changes["dispersion"] == d]
        for a in AGGREGATES:
            v = g[a].to_numpy(np.float64)
            c = ch[ch["aggregate"] == a]
            row = {
                "dispersion": d, "aggregate": a, "label": AGGREGATE_LABELS[a], "n_tasks": int(v.size),
                "fold_pi_sd": float(g["fold_pi_sd"].mean()),
                "bias_mean": float(np.nanmean(v)),
                "bias_sd_tasks": float(np.nanstd(v, ddof=1)) if v.size > 1 else float("nan"),
                "bias_share_positive": float(np.mean(v > 0)),
                **dict(zip(("bias_lo", "bias_hi"), bootstrap_ci(v, n_boot=1000, seed=0)[1:], strict=True)),
                "abs_bias_mean": float(np.nanmean(np.abs(v))),
            }
            for design in DESIGNS:
                cd = c[c["design"] == design]
                row[f"top1_change_{design}"] = float(cd["top1_changed"].mean()) if len(cd) else float("nan")
                row[f"kendall_{design}"] = float(cd["kendall"].mean()) if cd["kendall"].notna().any() else float("nan")
            # the sign of the bias is a finding only where its bootstrap interval over tasks excludes 0
            row["bias_sign"] = ("optimistic" if row["bias_lo"] > 0 else "pessimistic" if row["bias_hi"] < 0 else "not shown")
            row["top1_change_excess"] = row["top1_change_skewed"] - row["top1_change_stratified"]
            row["kendall_loss"] = row["kendall_stratified"] - row["kendall_skewed"]
            rows.append(row)
    return pd.DataFrame(rows)


def fold_skew_per_task(runs: pd.DataFrame) -> pd.DataFrame:
    """Per task and dispersion: the signed bias of each aggregate (skewed minus stratified folds),
    mean over models, seeds and repeats; columns ``task_id, task_pi, dispersion`` and the aggregates."""
    keys = ["task_id", "task_pi", "dispersion"]
    return fold_skew_bias(runs).groupby(keys)[list(AGGREGATES)].mean().reset_index()
