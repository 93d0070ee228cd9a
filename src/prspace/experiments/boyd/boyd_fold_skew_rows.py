"""Evidence rows of Boyd et al. section 4.1 (aggregation over cross-validation folds of different skew).

``boyd.sec4_1.averaging_optimistic`` tests Boyd's modal sentence ("can lead to") as how often: per task
1 when skewed folds raise (mean of per-fold AUPR - merged AUPR) by more than the AUPR margin above a
control with the same moves class for class (:func:`optimistic_beyond`), its mean the share of tasks,
read at the largest dispersion of fold skews (:func:`primary_dispersion`: where the paper's argument
bites hardest); the share at every other dispersion is this project's row
``px.boyd.sec4_1.optimistic_share_d<d>``, and the share optimistic by any amount at every dispersion
``px.boyd.sec4_1.any_optimism_d<d>`` (:func:`optimism_rows`); the detail states the mean at every
dispersion and why, with the single-model check of :mod:`prspace.experiments.boyd.boyd_mechanism`.
``px.boyd.sec4_1.fold_mean_below_merged`` (and ``_d<d>`` at the other dispersions; :func:`below_merged_rows`)
decides the direction the data show: the mean over tasks of that divergence below 0 (the fold mean
pessimistic: precision is concave in pi for a ranking better than random, Jensen).
``boyd.sec4_1.aucnpr_reduces_bias``: AUCNPR's fold-mean bias against AUPR's on the models' scale, at the
same dispersion. ``px.boyd.sec4_1.divergence_size_grows``: the *size* of the divergence against the
dispersion; ``px.boyd.sec4_1.aucnpr_reduces_rank_changes``: Kendall's tau lost to skew, AUPR against
AUCNPR. Intervals as every Boyd row's (:mod:`prspace.experiments.boyd.boyd_evidence_runs`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.core.claims import DIRECTION_MARGIN, decision_margin, primary_level
from prspace.experiments.boyd import fold_skew as fs
from prspace.experiments.boyd.boyd_evidence_runs import (
    exploratory_row,
    families,
    interval,
    primary_row,
)
from prspace.experiments.boyd.boyd_mechanism import mechanism_sentence


def fold_skew_task_effects(runs: pd.DataFrame) -> pd.DataFrame:
    """Per task at the largest dispersion (and per dispersion for the trends): the fold-skew effects.

    Columns ``task_id``, ``divergence`` (mean of per-fold AUPR minus merged AUPR, skewed minus
    stratified folds, averaged over models and seeds), ``slope`` (least-squares slope of that
    divergence against the dispersion), ``size_slope`` (the same for its size, |divergence|),
    ``scaled_bias_<m>`` (|bias of the mean of per-fold metric m| divided by the standard deviation
    of the models' values on the original folds) and ``kendall_loss_<m>`` (Kendall's tau with the
    original folds' order, stratified minus skewed) for m in aupr, aucnpr.
    """
    by_d = fold_skew_by_dispersion(runs)
    d_max = primary_dispersion(by_d["dispersion"].unique())
    top = by_d[by_d["dispersion"] == d_max].set_index("task_id").sort_index()
    full = runs[runs["design"] == fs.FULL].groupby(["task_id", "model_id"])[["mean_aupr", "mean_aucnpr"]].mean()
    spread = full.groupby(level="task_id").std(ddof=1)
    out = pd.DataFrame(index=top.index)
    out["dispersion"] = d_max
    out["divergence"] = top["divergence"]

    def slope(col: str) -> list[float]:
        return [float(np.polyfit(g["dispersion"], g[col], 1)[0]) if g["dispersion"].nunique() > 1 else float("nan")
                for _, g in by_d.groupby("task_id", sort=True)]

    out["slope"] = slope("divergence")
    out["size_slope"] = slope("size")
    for m in ("aupr", "aucnpr"):
        sd = spread[f"mean_{m}"].reindex(out.index)
        out[f"scaled_bias_{m}"] = (top[f"bias_{m}"].abs() / sd).where(sd > 0)
    ch = fs.rank_changes(runs[(runs["design"] == fs.FULL) | (runs["dispersion"] == d_max)])
    ch = ch[ch["aggregate"].isin(["mean_aupr", "mean_aucnpr"])]
    tau = ch.groupby(["task_id", "aggregate", "design"])["kendall"].mean().unstack("design")
    for m in ("aupr", "aucnpr"):
        out[f"kendall_loss_{m}"] = float("nan")  # fewer than three models: no Kendall's tau
        if set(fs.DESIGNS) <= set(tau.columns):
            loss = (tau["stratified"] - tau["skewed"]).unstack("aggregate")
            if f"mean_{m}" in loss:
                out[f"kendall_loss_{m}"] = loss[f"mean_{m}"].reindex(out.index)
    return out.reset_index()


def fold_skew_by_dispersion(runs: pd.DataFrame) -> pd.DataFrame:
    """Per task and dispersion: ``divergence`` (skewed minus stratified (mean of per-fold AUPR -
    merged AUPR), mean over models and seeds), its ``size`` |divergence|, and the fold-mean biases
    ``bias_aupr``, ``bias_aucnpr`` (skewed minus stratified)."""
    thinned = runs[runs["design"] != fs.FULL]
    keys = ["task_id", "dispersion", "seed", "repeat", "model_id"]
    sk = thinned[thinned["design"] == "skewed"].set_index(keys)
    st = thinned[thinned["design"] == "stratified"].set_index(keys).reindex(sk.index)
    d = pd.DataFrame({
        "divergence": (sk["mean_aupr"] - sk["pooled_aupr"]) - (st["mean_aupr"] - st["pooled_aupr"]),
        "bias_aupr": sk["mean_aupr"] - st["mean_aupr"], "bias_aucnpr": sk["mean_aucnpr"] - st["mean_aucnpr"],
    }).reset_index()
    by_d = d.groupby(["task_id", "dispersion"])[["divergence", "bias_aupr", "bias_aucnpr"]].mean().reset_index()
    by_d["size"] = by_d["divergence"].abs()
    return by_d


def primary_dispersion(dispersions: Sequence[float]) -> float:
    """The fold-skew dispersion of section 4.1's primary rows: the largest the study runs (0 when it
    runs none above 0). Why: Boyd's argument turns on "substantial variation in the skew of the
    folds", "since the different skews yield different AUCPR_MIN", and on "a single fold ... [of]
    substantially lower skew": on the spread of the folds' unachievable regions, which grows with the
    dispersion. The largest dispersion is where the argument bites hardest; the milder ones are this
    project's rows."""
    ds_ = [float(d) for d in dispersions if np.isfinite(float(d))]
    return max(ds_) if ds_ and max(ds_) > 0 else 0.0


def optimistic_beyond(divergence: Sequence[float] | np.ndarray, margin: float = DIRECTION_MARGIN) -> np.ndarray:
    """Per task 1.0 where skewed folds make averaging more optimistic than the control's even folds do
    by more than ``margin`` (``divergence``: skewed minus control (mean of per-fold AUPR - merged
    AUPR), mean over models and seeds), 0.0 where not, NaN where the divergence is missing: its mean
    over tasks is the share of tasks where averaging is optimistic beyond ``margin`` because of skew.
    ``margin`` 0 counts optimism of any size."""
    v = np.asarray(divergence, np.float64)
    return np.where(np.isfinite(v), (v > float(margin)).astype(np.float64), np.nan)


def boundary_note(values: np.ndarray, fam: np.ndarray, level: float) -> str:
    """For a share every task gives alike (all 0 or all 1): the family bootstrap cannot vary it, so its
    interval is one point; the exact (Clopper-Pearson) bound at ``level`` with the families as the
    independent units says how far the share could be from it. Empty otherwise."""
    v = np.asarray(values, np.float64)
    ok = np.isfinite(v)
    if not ok.any() or np.unique(v[ok]).size > 1:
        return ""
    n = len(set(np.asarray(fam)[ok]))
    edge = 1.0 - ((1.0 - level) / 2.0) ** (1.0 / n)  # Clopper-Pearson end for 0 (or 1) of n
    val = float(v[ok][0])
    span = f"[0, {edge:.3f}]" if val == 0 else f"[{1 - edge:.3f}, 1]"
    return (f" Every task gives {val:g}, so the bootstrap over families gives the one-point interval [{val:g}, {val:g}]; "
            f"with the {n} families as independent units the exact (Clopper-Pearson) {level:.2%} interval is {span}.")


_CONTROL = "against a control making the same moves class for class (fold skews unchanged)"


def _design(d: float) -> str:
    return (f"at dispersion d = {d:g}: in each pair of folds a share d of one fold's positives swapped with as many "
            f"negatives of the other (every row and every fold's size kept), {_CONTROL}")


_WHY = ("for models that rank better than random the fold mean is pessimistic, not optimistic. Why: at a fixed ROC "
        "point (TPR t, FPR f) precision pi t / (pi t + (1 - pi) f) is concave in the skew pi when t > f, so the mean over "
        "folds of precision is below precision at the merged skew (Jensen); Boyd argue from the floor AUCPR_MIN(pi), "
        "which is convex in pi and which a ranking reaches only near the worst (t < f)")


def optimism_rows(div: pd.DataFrame, fam: np.ndarray, *, n_resamples: int, seed: int, common: dict[str, object],
                  fold_pi_sd: dict[float, float] | None = None, mechanism: str = "") -> list[dict[str, object]]:
    """Section 4.1's "can lead to" as how often, from ``div`` (index: tasks in the order of ``fam``;
    columns: dispersions; cells: skewed minus control (mean of per-fold AUPR - merged AUPR), mean over
    models and seeds): the primary row (:func:`optimistic_beyond` at :func:`primary_dispersion`, the
    share of tasks), this project's share rows at every other dispersion and its rows of optimism of any
    size at every dispersion. ``fold_pi_sd``: the skewed folds' realised pi SD by dispersion;
    ``mechanism``: the single-model check's sentence."""
    ds_sorted = [d for d in sorted(float(d) for d in div.columns) if d > 0] or [0.0]  # d = 0 moves nothing
    d_p = primary_dispersion(ds_sorted)
    m = DIRECTION_MARGIN
    cid = "boyd.sec4_1.averaging_optimistic"
    sd = fold_pi_sd or {}
    rs = dict(n_resamples=n_resamples, seed=seed, common=common)

    def col(d: float) -> np.ndarray:
        return div[d].to_numpy(np.float64)

    def sd_text(d: float) -> str:
        return f" (fold pi SD {sd[d]:.2f})" if d in sd and np.isfinite(sd[d]) else ""

    by_d = "; ".join(f"d = {d:g}{sd_text(d)}: beyond {m:g} {np.nanmean(optimistic_beyond(col(d))):.0%}, by any amount "
                     f"{np.nanmean(optimistic_beyond(col(d), 0.0)):.0%}, mean {np.nanmean(col(d)):+.4f}" for d in ds_sorted)
    rows = [primary_row(
        cid, optimistic_beyond(col(d_p)), fam, **rs,
        detail=(f"Boyd's 'can lead to' is modal, so the row counts how often: per task 1 when skewed folds raise (mean "
                f"of per-fold AUPR - merged AUPR) by more than {m:g} (the AUPR margin: 'overly' optimistic) above the "
                f"control, mean over models and seeds first, else 0; the mean over tasks is the share of tasks where "
                f"averaging is overly optimistic because of the skew (the share's margin: {decision_margin(cid):g}). "
                f"Read at d = {d_p:g}, the largest dispersion tested: Boyd's argument turns on 'substantial variation in "
                "the skew of the folds' and on a fold whose unachievable region differs, which the largest dispersion "
                f"spreads most; the folds are made {_design(d_p)}. The other dispersions are this project's rows "
                "px.boyd.sec4_1.optimistic_share_d*, and optimism of any size px.boyd.sec4_1.any_optimism_d*. Share of "
                f"tasks and mean over tasks by dispersion: {by_d}. Finding: {_WHY} (this project's rows "
                f"px.boyd.sec4_1.fold_mean_below_merged, and _d<d> at the other dispersions, decide that direction with "
                f"95% intervals). Check on a single simulated model: "
                f"{mechanism}.{boundary_note(optimistic_beyond(col(d_p)), fam, primary_level())}"))]
    for d in ds_sorted:
        if d != d_p:
            rows.append(exploratory_row(
                f"px.boyd.sec4_1.optimistic_share_d{d:g}", optimistic_beyond(col(d)), fam, **rs,
                claim_text=(f"Share of tasks where folds of different skew make the mean of per-fold AUPR exceed the merged "
                            f"AUPR by more than {m:g} beyond what even folds do, at fold-skew dispersion d = {d:g} "
                            "(Boyd's sec. 4.1 'can lead to' at a milder dispersion than the primary row's)"),
                detail=f"as boyd.sec4_1.averaging_optimistic, {_design(d)}{sd_text(d)}"))
        rows.append(exploratory_row(
            f"px.boyd.sec4_1.any_optimism_d{d:g}", optimistic_beyond(col(d), 0.0), fam, **rs,
            claim_text=(f"Share of tasks where folds of different skew make the mean of per-fold AUPR exceed the merged AUPR "
                        f"by any amount beyond what even folds do, at fold-skew dispersion d = {d:g}"),
            detail=(f"as boyd.sec4_1.averaging_optimistic with margin 0: any excess counts, however small (an excess "
                    f"within {m:g} is not 'overly' optimistic, and part of it is the noise of the folds' random "
                    f"reassignment); {_design(d)}{sd_text(d)}")))
    return rows


BELOW = "px.boyd.sec4_1.fold_mean_below_merged"

_JENSEN = ("for a ranking better than random, precision at a fixed ROC point (TPR t > FPR f), pi t / (pi t + (1 - pi) f), "
           "is concave in the skew pi, so by Jensen's inequality the mean over folds of different skew of per-fold AUPR "
           "falls below the AUPR of the merged folds")


def below_merged_rows(div: pd.DataFrame, fam: np.ndarray, *, n_resamples: int, seed: int, common: dict[str, object],
                      fold_pi_sd: dict[float, float] | None = None, mechanism: str = "") -> list[dict[str, object]]:
    """This project's rows deciding the *direction* of section 4.1's effect: per task the divergence (``div``:
    skewed minus control (mean of per-fold AUPR - merged AUPR), mean over models and seeds; index: tasks in the
    order of ``fam``; columns: dispersions), its mean over tasks claimed below 0 (direction -1), 95% family
    interval. :data:`BELOW` at :func:`primary_dispersion` (its detail: why, the mean with its interval at every
    dispersion, the tasks optimistic beyond the AUPR margin, the single-model check ``mechanism``), and
    ``BELOW + "_d<d>"`` at every other dispersion."""
    ds_sorted = [d for d in sorted(float(d) for d in div.columns) if d > 0] or [0.0]
    d_p = primary_dispersion(ds_sorted)
    sd = fold_pi_sd or {}
    rs = dict(n_resamples=n_resamples, seed=seed, common=common)
    m = DIRECTION_MARGIN

    def col(d: float) -> np.ndarray:
        return div[d].to_numpy(np.float64)

    def sd_text(d: float) -> str:
        return f" (fold pi SD {sd[d]:.2f})" if d in sd and np.isfinite(sd[d]) else ""

    def claim_text(d: float) -> str:
        return (f"Folds of different skew pull the mean of per-fold AUPR below the merged AUPR, beyond what even folds "
                f"do, at fold-skew dispersion d = {d:g} (the direction of Boyd's sec. 4.1 effect; below 0: pessimistic)")

    def count(d: float) -> str:
        v = col(d)
        ok = np.isfinite(v)
        return f"{int((v[ok] > m).sum())} of {int(ok.sum())}"

    ivs = {d: interval(col(d), fam, n_resamples=n_resamples, seed=seed, level=0.95) for d in ds_sorted}
    by_d = "; ".join(f"d = {d:g}{sd_text(d)}: {ivs[d].estimate:+.4f} [{ivs[d].lo:+.4f}, {ivs[d].hi:+.4f}], optimistic "
                     f"beyond {m:g} in {count(d)} tasks" for d in ds_sorted)
    per_task = ("per task skewed minus control (mean of per-fold AUPR - merged AUPR), mean over models and seeds first "
                "(below 0: averaging the folds is pessimistic)")
    rows = [exploratory_row(
        BELOW, col(d_p), fam, **rs, direction=-1.0, claim_text=claim_text(d_p),
        detail=(f"this project's question: Boyd's sec. 4.1 says averaging over folds of different skew can be "
                f"optimistic (boyd.sec4_1.averaging_optimistic counts how often); this row decides which way the mean "
                f"moves. {per_task[0].upper()}{per_task[1:]}, read at the largest dispersion tested, {_design(d_p)}. "
                f"Why below 0: "
                f"{_JENSEN}. Mean over tasks [95% family interval] by dispersion: {by_d}. Check on a single simulated "
                f"model (boyd_fold_skew_mechanism): {mechanism}"))]
    for d in ds_sorted:
        if d != d_p:
            rows.append(exploratory_row(
                f"{BELOW}_d{d:g}", col(d), fam, **rs, direction=-1.0, claim_text=claim_text(d),
                detail=f"as {BELOW} ({per_task}), {_design(d)}{sd_text(d)}; optimistic beyond {m:g} in {count(d)} tasks"))
    return rows


def fold_skew_rows(runs: pd.DataFrame, tasks: pd.DataFrame | None, *, n_resamples: int, seed: int,
                   mechanism: pd.DataFrame | None = None) -> list[dict[str, object]]:
    """Section 4.1: averaging vs merging folds of different skew (:func:`optimism_rows`), and AUCNPR
    against AUCPR at the same dispersion."""
    if runs is None or runs.empty:
        return []
    eff = fold_skew_task_effects(runs)
    by_d = fold_skew_by_dispersion(runs)
    fam = families(eff["task_id"], tasks)
    common = {"n_tasks": float(len(eff)), "n_families": float(len(set(fam)))}
    rs = dict(n_resamples=n_resamples, seed=seed, common=common)
    d_p = float(eff["dispersion"].iloc[0])  # primary_dispersion: the primary rows' d
    div = by_d.pivot_table(index="task_id", columns="dispersion", values="divergence").reindex(eff["task_id"])
    sk = runs[runs["design"] == "skewed"]
    pi_sd = sk.groupby(["dispersion", "task_id"])["fold_pi_sd"].mean().groupby(level="dispersion").mean()
    sd_by_d = {float(d): float(v) for d, v in pi_sd.items()}
    mech = mechanism_sentence(mechanism)
    rows = optimism_rows(div, fam, **rs, fold_pi_sd=sd_by_d, mechanism=mech)
    rows += below_merged_rows(div, fam, **rs, fold_pi_sd=sd_by_d, mechanism=mech)
    rows.append(primary_row(
        "boyd.sec4_1.aucnpr_reduces_bias", (eff["scaled_bias_aupr"] - eff["scaled_bias_aucnpr"]).to_numpy(), fam, **rs,
        detail=(f"per task |bias of the mean of per-fold AUPR| / sd of the models' AUPR minus the same for AUCNPR (AUCNPR "
                f"stretches AUPR by 1/(1 - AUCPR_MIN), so raw biases are not comparable); mean scaled bias AUPR "
                f"{eff['scaled_bias_aupr'].mean():.3f}, AUCNPR {eff['scaled_bias_aucnpr'].mean():.3f}; at the dispersion "
                f"of boyd.sec4_1.averaging_optimistic, {_design(d_p)}")))
    sizes = by_d.groupby("dispersion")["size"].mean()
    rows.append(exploratory_row(
        "px.boyd.sec4_1.divergence_size_grows", eff["size_slope"].to_numpy(), fam, **rs,
        claim_text="The size of the gap between averaging per-fold AUPR and merging the folds grows as the folds' skews spread",
        detail=("per task the least-squares slope of |divergence| (|skewed minus control (mean of per-fold AUPR - merged "
                "AUPR)|, mean over models and seeds before the absolute value) against the dispersion d; mean size over "
                f"tasks by d: {', '.join(f'{d:g}: {v:.3f}' for d, v in sizes.items())}")))
    rows.append(exploratory_row(
        "px.boyd.sec4_1.aucnpr_reduces_rank_changes", (eff["kendall_loss_aupr"] - eff["kendall_loss_aucnpr"]).to_numpy(),
        fam, **rs,
        claim_text="Under fold skew, averaging per-fold AUCNPR reorders the models less than averaging per-fold AUPR",
        detail=(f"per task the Kendall's tau lost to skew (tau with the original folds' order, control minus skewed) by the "
                f"mean of per-fold AUPR minus that by the mean of per-fold AUCNPR (above 0: AUCNPR reorders less); mean "
                f"loss AUPR {eff['kendall_loss_aupr'].mean():.3f}, AUCNPR {eff['kendall_loss_aucnpr'].mean():.3f}; {_design(d_p)}")))
    return rows
