"""Evidence rows of Boyd et al. sections 4.1 and 4.3 from this study's runs (fold skew, downsampling).

Each primary claim (:mod:`prspace.core.claims`, role ``primary``) is a direction: the mean
over tasks of a per-task effect, with a cluster-bootstrap interval over families of tasks at the
simultaneous level :func:`prspace.core.claims.primary_level` and its Monte Carlo error
(:func:`prspace.experiments.boyd.boyd_intervals.family_interval`). This project's own questions are
exploratory rows (``paper = "prspace"``, ids ``px.boyd.*``) at 95%.

Section 4.1 (:func:`fold_skew_rows`): ``boyd.sec4_1.averaging_optimistic`` tests Boyd's modal sentence
("can lead to") at the mildest dispersion of fold skews, skewed folds against a control with the same
moves class for class; each stronger dispersion is this project's row ``px.boyd.sec4_1.optimistic_at_d<d>``;
the detail states what the data find at every dispersion and why, with the single-model check of
:mod:`prspace.experiments.boyd.boyd_mechanism`.
``boyd.sec4_1.aucnpr_reduces_bias``: AUCNPR's fold-mean bias against AUPR's on the models' scale.
``px.boyd.sec4_1.divergence_size_grows``: the *size* of the divergence against the dispersion;
``px.boyd.sec4_1.aucnpr_reduces_rank_changes``: Kendall's tau lost to skew, AUPR against AUCNPR.

Section 4.3 (:func:`downsampling_rows`): AUPR rises on a test set downsampled to 1:1
(``aupr_rises``; by construction when the ROC curve is unchanged, which the detail says and
measures), more so as the ratio nears 1:1 (``gap_grows_with_pi``, over the downsampled ratios
only), AUCNPR moves less (``aucnpr_moves_less``) and has less variance over the ratios
(``aucnpr_less_variance``) but still moves (``aucnpr_still_moves``), by more than a factor of two
(``aucnpr_more_than_twice``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.core.claims import BOYD, claim, primary_level
from prspace.core.evidence import evidence_row
from prspace.experiments.boyd import downsampling as ds
from prspace.experiments.boyd import fold_skew as fs
from prspace.experiments.boyd.boyd_intervals import Interval, family_interval, simulated_coverage
from prspace.experiments.boyd.boyd_mechanism import mechanism_sentence
from prspace.experiments.skew.skew_explanation import task_families

EXPLORATORY = "prspace"
#: The largest Monte Carlo error of an interval end a row may carry without saying so.
MC_TARGET = 0.002


def families(task_ids: Sequence[object], tasks: pd.DataFrame | None) -> np.ndarray:
    """Each task's family (the bootstrap cluster; a task without one is its own)."""
    return task_families(task_ids, tasks)


#: Key of an interval row's resampled values (``(values, families)``), kept out of the evidence
#: columns (:func:`prspace.verdicts.rule.evidence_frame` drops it) and written by :func:`values_table`.
VALUES_KEY = "_values"

#: At most this many times the configured resamples when an interval end's error is above MC_TARGET.
MC_GROWTH = 16


def interval(values: np.ndarray, fam: np.ndarray, *, n_resamples: int, seed: int, level: float) -> Interval:
    """:func:`family_interval` with ``n_resamples``, four times as many while the Monte Carlo
    error of an end is above :data:`MC_TARGET` (at most :data:`MC_GROWTH` times; deterministic:
    the same seed and batches, more resamples per batch)."""
    n = int(n_resamples)
    iv = family_interval(values, fam, n_resamples=n, seed=seed, level=level)
    while np.isfinite(iv.mc_error) and iv.mc_error > MC_TARGET and n * 4 <= MC_GROWTH * n_resamples:
        n *= 4
        iv = family_interval(values, fam, n_resamples=n, seed=seed, level=level)
    return iv


def _mc_note(iv: Interval) -> str:
    if np.isfinite(iv.mc_error) and iv.mc_error > MC_TARGET:
        return (f" Monte Carlo error of an interval end {iv.mc_error:.4f} > {MC_TARGET} even with {iv.n_resamples} "
                "resamples: raise boyd.evidence.n_resamples.")
    return ""


@functools.lru_cache(maxsize=64)
def _coverage(n_families: int, level: float, seed: int) -> float:
    return simulated_coverage(n_families, level=level, seed=seed)


def coverage_note(n_families: int, level: float, seed: int) -> str:
    """The interval's calibration: its simulated coverage at this many families
    (:func:`prspace.experiments.boyd.boyd_intervals.simulated_coverage`)."""
    if n_families < 2:
        return " Calibration: fewer than 2 families, no interval to calibrate."
    cov = _coverage(int(n_families), float(level), int(seed))
    return (f" Calibration: a {level:.2%} family interval from {n_families} families covers the true mean in {cov:.1%} "
            "of 400 simulated studies (normal values, one task per family)"
            + (": below its level, so read the verdict with that coverage." if cov < level - 0.005 else "."))


def primary_row(claim_id: str, values: np.ndarray, fam: np.ndarray, *, n_resamples: int, seed: int, detail: str,
                common: dict[str, object]) -> dict[str, object]:
    """A primary Boyd row: the registry's claim (quoted), a direction, the simultaneous interval
    with its Monte Carlo error and its simulated coverage at this many families."""
    c = claim(claim_id)
    if c is None or c.paper != BOYD or c.role != "primary":
        raise ValueError(f"{claim_id} is not a primary Boyd claim of prspace.core.claims")
    level = primary_level()
    iv = interval(values, fam, n_resamples=n_resamples, seed=seed, level=level)
    n_fam = len(set(np.asarray(fam)[np.isfinite(np.asarray(values, np.float64))]))
    row = evidence_row(paper=BOYD, claim_id=claim_id, claim=f"{c.quote} ({c.where})", kind="direction",
                       paper_value=float(c.direction), **iv.row(),
                       detail=detail.rstrip(". ") + "." + _mc_note(iv) + coverage_note(n_fam, level, seed), **common)
    return {**row, VALUES_KEY: (np.asarray(values, np.float64), np.asarray(fam).astype(str))}


def exploratory_row(claim_id: str, values: np.ndarray, fam: np.ndarray, *, n_resamples: int, seed: int, claim_text: str,
                    detail: str, common: dict[str, object], kind: str = "direction", direction: float = 1.0) -> dict[str, object]:
    """This project's own question (``paper = "prspace"``), 95% interval."""
    iv = interval(values, fam, n_resamples=n_resamples, seed=seed, level=0.95)
    pv = direction if kind == "direction" else float("nan")
    row = evidence_row(paper=EXPLORATORY, claim_id=claim_id, claim=claim_text, kind=kind, paper_value=pv, **iv.row(),
                       detail=detail.rstrip(". ") + "." + _mc_note(iv), **common)
    return {**row, VALUES_KEY: (np.asarray(values, np.float64), np.asarray(fam).astype(str))}


def values_table(rows: Sequence[dict[str, object]]) -> pd.DataFrame:
    """The per-task values every interval row of ``rows`` resampled (``claim_id, family, value``,
    in the rows' order): committed beside ``boyd_evidence.csv`` so that its intervals can be
    recomputed, under any seed, without the study's runs (``tests/experiments/boyd/test_boyd_seeds.py``)."""
    frames = [pd.DataFrame({"claim_id": r["claim_id"], "family": r[VALUES_KEY][1], "value": r[VALUES_KEY][0]})
              for r in rows if VALUES_KEY in r]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["claim_id", "family", "value"])


# --- section 4.3: downsampling --------------------------------------------------------------------


def eligible_tasks(tasks: pd.DataFrame | None, *, max_pi: float, min_positives: int) -> tuple[int, int]:
    """(tasks of the study eligible for downsampling, tasks of the study); (-1, -1) without a table."""
    if tasks is None or not {"pi", "n_pos"} <= set(tasks.columns):
        return -1, -1
    ok = tasks[tasks["status"] == "ok"] if "status" in tasks else tasks
    return int(((ok["pi"] <= max_pi) & (ok["n_pos"] >= min_positives)).sum()), len(ok)


def downsampling_rows(runs: pd.DataFrame, tasks: pd.DataFrame | None, *, n_resamples: int, seed: int,
                      max_pi: float = 0.1, min_positives: int = 25, scope: str = "") -> list[dict[str, object]]:
    """AUPR and AUCNPR on test folds downsampled to the training ratio minus on the original folds
    (Boyd's Table 3 per task: the mean over learners, repeats and folds)."""
    if runs is None or runs.empty:
        return []
    keys = ["task_id", "learner", "repeat", "fold", "train_k"]
    down = runs[runs["test"] == "downsampled"].set_index(keys)
    orig = runs[runs["test"] == "original"].set_index(keys).reindex(down.index)
    g = pd.DataFrame({"test_pi": down["test_pi"], "gap_aupr": down["aupr"] - orig["aupr"],
                      "gap_aucnpr": down["aucnpr"] - orig["aucnpr"], "down_aucnpr": down["aucnpr"],
                      "orig_aucnpr": orig["aucnpr"], "down_aupr": down["aupr"], "orig_aupr": orig["aupr"],
                      "gap_auroc": (down["auroc"] - orig["auroc"]) if "auroc" in runs.columns else np.nan}).reset_index()
    cols = ["test_pi", "gap_aupr", "gap_aucnpr", "down_aucnpr", "orig_aucnpr", "down_aupr", "orig_aupr", "gap_auroc"]
    per = g.groupby(["task_id", "train_k"])[cols].mean().reset_index()
    sub = per[per["train_k"] != ds.ORIGINAL]
    k_min = float(sub["train_k"].min())
    at = per[per["train_k"] == k_min].set_index("task_id").sort_index()
    fam = families(at.index, tasks)
    common = {"n_tasks": float(len(at)), "n_families": float(len(set(fam)))}
    n_el, n_all = eligible_tasks(tasks, max_pi=max_pi, min_positives=min_positives)
    n_learners = runs["learner"].nunique()
    n_rep = runs["repeat"].nunique()
    reach = (f"Scope: {len(at)} tasks in {len(set(fam))} families"
             + (f", {n_el} of the study's {n_all} tasks eligible (pi <= {max_pi:g}, >= {min_positives} positives)"
                if n_el >= 0 else "")
             + f"; {n_learners} learners, {n_rep} repeat(s) of cross-validation. {scope}").rstrip()
    ratio = ds.ratio_label(k_min)
    p1 = ds.BOYD_TABLE3[0]
    rs = dict(n_resamples=n_resamples, seed=seed, common=common)
    construction = (f"This follows by construction: the downsampled test set keeps every positive and a random share of "
                    f"the negatives, so the ROC curve of each model is unchanged up to sampling (mean AUROC difference "
                    f"downsampled - original {at['gap_auroc'].mean():+.4f}), and at a fixed ROC point precision "
                    "pi TPR / (pi TPR + (1 - pi) FPR) rises with pi (Theorem 1's arithmetic); the row checks the "
                    "construction and measures the size, it is not an empirical law")
    rows = [primary_row(
        "boyd.sec4_3.aupr_rises", at["gap_aupr"].to_numpy(), fam, **rs,
        detail=(f"per task the mean over learners, repeats and folds of downsampled minus original AUPR at training ratio "
                f"{ratio} (downsampled test pi {at['test_pi'].mean():.2f} on average; mean AUPR {at['down_aupr'].mean():.3f} "
                f"vs {at['orig_aupr'].mean():.3f}); Boyd's Table 3 at 1:1 (SAYU, one task): {p1[1] - p1[3]:+.3f}. "
                f"{construction}. {reach}"))]
    ks = sorted(sub["train_k"].unique())
    anchored = len(ks) < 2
    slopes = []
    for t in at.index:
        pt = per[per["task_id"] == t]
        pt = pt if anchored else pt[pt["train_k"] != ds.ORIGINAL]
        x, yv = pt["test_pi"].to_numpy(np.float64), pt["gap_aupr"].to_numpy(np.float64)
        slopes.append(float(np.polyfit(x, yv, 1)[0]) if np.unique(x).size > 1 else float("nan"))
    rows.append(primary_row(
        "boyd.sec4_3.gap_grows_with_pi", np.asarray(slopes), fam, **rs,
        detail=("per task the least-squares slope of the AUPR difference against the downsampled test pi over the training "
                f"ratios {', '.join(ds.ratio_label(k) for k in ks)}"
                + (" and the original (difference 0 by definition: with one downsampled ratio the slope is anchored by it)"
                   if anchored else " (the original ratio, whose difference is 0 by definition, is left out so that it "
                   "cannot anchor the slope)")
                + f". {reach}")))
    rows.append(primary_row(
        "boyd.sec4_3.aucnpr_moves_less", (at["gap_aupr"] - at["gap_aucnpr"]).to_numpy(), fam, **rs,
        detail=(f"per task (downsampled - original AUPR) - (downsampled - original AUCNPR) at {ratio}; Boyd's Table 3 at "
                f"1:1: {(p1[1] - p1[3]) - (p1[2] - p1[4]):+.3f}. Largely by construction: AUCNPR subtracts AUCPR_MIN(pi), "
                f"which rises with pi, from both sides of the rise. {reach}")))
    allk = per.groupby("task_id")
    var_gap = (allk["down_aupr"].var(ddof=1) - allk["down_aucnpr"].var(ddof=1)).reindex(at.index)
    pr_col = np.array([r[1] for r in ds.BOYD_TABLE3])
    npr_col = np.array([r[2] for r in ds.BOYD_TABLE3])
    rows.append(primary_row(
        "boyd.sec4_3.aucnpr_less_variance", var_gap.to_numpy(np.float64), fam, **rs,
        detail=(f"per task the variance over the {per['train_k'].nunique()} training ratios (the original included, as in "
                "Table 3) of the downsampled test set's mean AUPR minus that of its mean AUCNPR; mean variance AUPR "
                f"{allk['down_aupr'].var(ddof=1).mean():.4f}, AUCNPR {allk['down_aucnpr'].var(ddof=1).mean():.4f}. Boyd's "
                f"Table 3 downsampled columns: variance AUCPR {pr_col.var(ddof=1):.4f}, AUCNPR {npr_col.var(ddof=1):.4f} "
                f"(difference {pr_col.var(ddof=1) - npr_col.var(ddof=1):+.4f}). {reach}")))
    factor = at["down_aucnpr"].mean() / at["orig_aucnpr"].mean()
    rows.append(primary_row(
        "boyd.sec4_3.aucnpr_still_moves", at["gap_aucnpr"].to_numpy(), fam, **rs,
        detail=(f"per task downsampled minus original AUCNPR at {ratio} (Boyd's 'sizable difference' is AUCNPR's: "
                f"Table 3 at 1:1 {p1[2]:.3f} vs {p1[4]:.3f}, {p1[2] - p1[4]:+.3f}). {reach}")))
    rows.append(primary_row(
        "boyd.sec4_3.aucnpr_more_than_twice", (at["down_aucnpr"] - 2.0 * at["orig_aucnpr"]).to_numpy(), fam, **rs,
        detail=(f"per task downsampled AUCNPR at {ratio} minus twice the original AUCNPR; above 0 on average: the mean "
                f"downsampled AUCNPR is more than twice the mean original. Here {at['down_aucnpr'].mean():.3f} vs "
                f"{at['orig_aucnpr'].mean():.3f} (x{factor:.2f}); Boyd's Table 3 at 1:1 (SAYU, one task): {p1[2]:.3f} vs "
                f"{p1[4]:.3f} (x{p1[2] / p1[4]:.2f}). {reach}")))
    return rows


# --- section 4.1: fold skew -------------------------------------------------------------------------


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
    d_max = float(by_d["dispersion"].max())
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


def fold_skew_rows(runs: pd.DataFrame, tasks: pd.DataFrame | None, *, n_resamples: int, seed: int,
                   mechanism: pd.DataFrame | None = None) -> list[dict[str, object]]:
    """Section 4.1: averaging vs merging folds of different skew, and AUCNPR against AUCPR."""
    if runs is None or runs.empty:
        return []
    eff = fold_skew_task_effects(runs)
    by_d = fold_skew_by_dispersion(runs)
    fam = families(eff["task_id"], tasks)
    common = {"n_tasks": float(len(eff)), "n_families": float(len(set(fam)))}
    rs = dict(n_resamples=n_resamples, seed=seed, common=common)
    d_max = float(eff["dispersion"].iloc[0])
    control = ("against a control making the same moves class for class (fold skews unchanged)")

    def design(d: float) -> str:
        return (f"at dispersion d = {d:g}: in each pair of folds a share d of one fold's positives swapped with as many "
                f"negatives of the other (every row and every fold's size kept), {control}")

    div = by_d.pivot_table(index="task_id", columns="dispersion", values="divergence").reindex(eff["task_id"])
    ds_sorted = [d for d in sorted(float(d) for d in div.columns) if d > 0] or [0.0]  # d = 0 moves nothing
    d_min = ds_sorted[0]
    means = ", ".join(f"d = {d:g}: {div[d].mean():+.4f} (negative in {(div[d] < 0).mean():.0%} of tasks)" for d in ds_sorted)
    at_min = div[d_min].to_numpy(np.float64)
    rows = [primary_row(
        "boyd.sec4_1.averaging_optimistic", at_min, fam, **rs,
        detail=(f"Boyd's 'can lead to' is modal, so it is tested at every dispersion of fold skews ({len(ds_sorted)}) and "
                f"this row reports the mildest, d = {d_min:g} (fold pi SD closest to what stratification leaves); the "
                f"others are this project's rows px.boyd.sec4_1.optimistic_at_d*. Per task (mean of per-fold AUPR - "
                f"merged AUPR) on skewed folds minus the same on the control, averaged over models and seeds; "
                f"{design(d_min)}. Mean over tasks by dispersion: {means}. Finding: for models that rank better than random "
                "the fold mean is pessimistic, not optimistic, at every dispersion tested. Why: at a fixed ROC point (TPR "
                "t, FPR f) precision pi t / (pi t + (1 - pi) f) is concave in the skew pi when t > f, so the mean over "
                "folds of precision is below precision at the merged skew (Jensen); Boyd argue from the floor "
                "AUCPR_MIN(pi), which is convex in pi and which a ranking reaches only near the worst (t < f). Check on a "
                f"single simulated model: {mechanism_sentence(mechanism)}"))]
    for d in ds_sorted[1:]:
        rows.append(exploratory_row(
            f"px.boyd.sec4_1.optimistic_at_d{d:g}", div[d].to_numpy(np.float64), fam, **rs,
            claim_text=(f"Averaging per-fold AUPR is optimistic against merging the folds at fold-skew dispersion d = {d:g} "
                        "(Boyd's sec. 4.1 sentence at a stronger dispersion)"),
            detail=f"as boyd.sec4_1.averaging_optimistic, {design(d)}"))
    rows.append(primary_row(
        "boyd.sec4_1.aucnpr_reduces_bias", (eff["scaled_bias_aupr"] - eff["scaled_bias_aucnpr"]).to_numpy(), fam, **rs,
        detail=(f"per task |bias of the mean of per-fold AUPR| / sd of the models' AUPR minus the same for AUCNPR (AUCNPR "
                f"stretches AUPR by 1/(1 - AUCPR_MIN), so raw biases are not comparable); mean scaled bias AUPR "
                f"{eff['scaled_bias_aupr'].mean():.3f}, AUCNPR {eff['scaled_bias_aucnpr'].mean():.3f}; {design(d_max)}")))
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
                f"loss AUPR {eff['kendall_loss_aupr'].mean():.3f}, AUCNPR {eff['kendall_loss_aucnpr'].mean():.3f}; {design(d_max)}")))
    return rows
