"""Aggregation over cross-validation folds of different skew (Boyd et al. 2012, section 4.1).

When folds cannot be stratified (relational domains, grouped data), their skews differ, and so
do their unachievable regions: AUCPR_MIN(pi_fold) (Theorem 2). The mean of per-fold AUCPR then
mixes scores of different ranges; Boyd et al. recommend the mean of per-fold AUCNPR, or a single
curve on the merged (pooled) folds when the scores are calibrated.

:func:`fold_skew_experiment` measures this on real cross-validated predictions (the schema of
:mod:`prspace.core.schema`). For a dispersion ``d`` in [0, 1) and a seed it reassigns rows between
the folds of a cross-validation repeat, *keeping every row and every fold's size*, so the only
thing that changes is how the positives spread over the folds (sample size is held fixed, and
skew is isolated from thinning):

* the folds are shuffled and paired (fold ``A_i`` with ``B_i``; with an odd number of folds one
  fold stays as it is);
* ``skewed``: in every pair, ``s = round(d * P_B)`` positives of ``B`` swap places with ``s``
  negatives of ``A`` (``P_B``: the positives of ``B``). ``A``'s skew rises to about ``pi (1 + d)``,
  ``B``'s falls to about ``pi (1 - d)``; both folds keep their size;
* ``stratified`` (the control): the same moves, each answered by a move of the same class back
  (``s`` positives of ``A`` to ``B``, ``s`` negatives of ``B`` to ``A``): as many rows change fold
  and every fold receives rows scored by its partner's model, but every fold keeps its skew.

At least one row of each class stays in every fold. Every design holds the same rows with the
same scores, so the pooled (merged) aggregates are identical across designs by construction, and
the mean over folds is the only aggregate that can move: the *bias* of an aggregate at dispersion
``d`` is its value on the skewed folds minus its value on the stratified folds, for the same
models; :func:`fold_skew_summary` averages it.

The models' order by each aggregate is also compared with their order on the original folds
(design ``full``, computed once per repeat): the share of best-model changes on the stratified
folds is what reassigning rows alone does, the *excess* on the skewed folds is what the skew adds.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from prspace import metrics
from prspace.core.contracts import task_predictions
from prspace.core.defaults import N_BOOT
from prspace.core.errors import InputError
from prspace.experiments.ranking import bootstrap_ci, rank_models, top_k
from prspace.metrics.names import BOYD_METRICS

METRICS = BOYD_METRICS
AGGREGATES = tuple(f"mean_{m}" for m in METRICS) + tuple(f"pooled_{m}" for m in METRICS)
AGGREGATE_LABELS = {
    **{f"mean_{m}": f"mean of per-fold {metrics.METRIC_LABELS[m]}" for m in METRICS},
    **{f"pooled_{m}": f"pooled {metrics.METRIC_LABELS[m]}" for m in METRICS},
}
DESIGNS = ("skewed", "stratified")
FULL = "full"  # reference design: the original folds (dispersion NaN, seed -1)

RUN_COLUMNS = [
    "task_id", "task_pi", "dispersion", "seed", "repeat", "design", "model_id",
    "n_folds", "n_rows", "pooled_pi", "fold_pi_min", "fold_pi_max", "fold_pi_sd", *AGGREGATES,
]


def reassign_folds(
    y: np.ndarray, fold: np.ndarray, *, dispersion: float, design: str, rng: np.random.Generator,
) -> np.ndarray:
    """The fold of every row after the swaps of one design (see the module docstring).

    Every row is kept and every fold keeps its size; ``skewed`` moves a share ``dispersion`` of
    the positives of one fold of each pair into its partner (swapped with as many negatives),
    ``stratified`` makes the same moves and answers each with a move of the same class back.
    """
    if not 0 <= dispersion < 1:
        raise InputError(f"fold-skew dispersion must be in [0, 1), got {dispersion}; it is the share of a fold's positives moved")
    if design not in DESIGNS:
        raise InputError(f"design must be one of {DESIGNS}, got {design!r}")
    y = np.asarray(y, dtype=bool)
    fold = np.asarray(fold)
    new = fold.copy()
    folds = rng.permutation(np.unique(fold))
    half = folds.size // 2
    for a, b in zip(folds[:half], folds[half : 2 * half], strict=True):
        pos_a, neg_a = np.flatnonzero((fold == a) & y), np.flatnonzero((fold == a) & ~y)
        pos_b, neg_b = np.flatnonzero((fold == b) & y), np.flatnonzero((fold == b) & ~y)
        s = int(np.floor(dispersion * pos_b.size + 0.5))
        s = max(0, min(s, pos_b.size - 1, neg_a.size - 1))
        if design == "stratified":
            s = min(s, pos_a.size - 1, neg_b.size - 1)
        if s == 0:
            continue
        new[rng.choice(pos_b, size=s, replace=False)] = a
        new[rng.choice(neg_a, size=s, replace=False)] = b
        if design == "stratified":
            new[rng.choice(pos_a, size=s, replace=False)] = b
            new[rng.choice(neg_b, size=s, replace=False)] = a
    return new


def _aggregates(y: np.ndarray, s: np.ndarray, fold: np.ndarray, pooled: dict[str, float] | None = None) -> dict[str, float]:
    """``mean_<metric>`` over the folds (folds with one class only are skipped) and
    ``pooled_<metric>`` on all rows (``pooled``: already computed for these rows and scores)."""
    out: dict[str, float] = {}
    if pooled is None:
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
) -> pd.DataFrame:
    """Aggregates of every model on skewed and on stratified test folds.

    Parameters
    ----------
    predictions
        One task's predictions in the canonical form of :func:`prspace.core.schema.read_predictions`.
    dispersions
        Shares ``d`` of a fold's positives moved into its partner fold (see the module docstring).
    seeds
        Number of random reassignments per dispersion; reassignment ``j`` of repeat ``r`` at
        dispersion index ``i`` uses seed ``(seed, i, j, r)``, the same for both designs' pairings.
    max_repeats
        Use at most this many cross-validation repeats (``None``: all).

    Returns
    -------
    DataFrame with :data:`RUN_COLUMNS`, one row per dispersion x seed x repeat x design x model,
    plus per repeat and model one row of design ``full`` (dispersion NaN, seed -1).
    """
    need = {"task_id", "model_id", "repeat", "fold", "row_id", "y_true", "score"}
    missing = need - set(predictions.columns)
    if missing:
        raise InputError(f"predictions lack column(s) {sorted(missing)}; read them with prspace.core.schema.read_predictions")
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
        # every design holds the same rows and scores: the pooled metrics are computed once
        pooled = {m: metrics.all_metrics(y, scores[m]) for m in models}
        for m in models:
            rows.append({**base_full, "model_id": m, **_aggregates(y, scores[m], fold, pooled[m])})
        for i, d in enumerate(dispersions):
            for j in range(seeds):
                for design in DESIGNS:
                    fk = reassign_folds(y, fold, dispersion=float(d), design=design,
                                        rng=np.random.default_rng([seed, i, j, int(r)]))
                    pis = np.array([y[fk == f].mean() for f in np.unique(fk)])
                    base = {
                        "task_id": task_id, "task_pi": task_pi, "dispersion": float(d), "seed": j, "repeat": int(r),
                        "design": design, "n_folds": int(pis.size), "n_rows": int(y.size), "pooled_pi": task_pi,
                        "fold_pi_min": float(pis.min()), "fold_pi_max": float(pis.max()),
                        "fold_pi_sd": float(pis.std(ddof=1)) if pis.size > 1 else 0.0,
                    }
                    for m in models:
                        rows.append({**base, "model_id": m, **_aggregates(y, scores[m], fk, pooled[m])})
    return pd.DataFrame(rows, columns=RUN_COLUMNS)


def task_runs(status_path: str | Path, **kw: Any) -> tuple[pd.DataFrame, str]:
    """One task's runs of :func:`fold_skew_experiment` (keywords ``kw``) from its status JSON, and a
    note saying what they are: no runs (empty, :data:`RUN_COLUMNS`) for a skipped task, the note
    giving its reason."""
    st, df, info = task_predictions(status_path)
    if df is None:
        return pd.DataFrame(columns=RUN_COLUMNS), f"skipped: {st.reason}"
    return fold_skew_experiment(df, **kw), f"task {info.task_id}; {info.provenance}"


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
    from scipy.stats import kendalltau  # lazy: ~0.5 CPU s a process that never calls it
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
                **dict(zip(("bias_lo", "bias_hi"), bootstrap_ci(v, n_boot=N_BOOT, seed=0)[1:], strict=True)),
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
