"""Evidence rows for every claim of Boyd et al. (ICML 2012) this project tests.

One row per claim (:func:`prspace.verdicts.rule.evidence_row`, ``paper="boyd-2012"``); only
:mod:`prspace.verdicts.rule` decides what a row means (``docs/verdicts.md``). The rows:

* ``boyd.thm1`` ... ``boyd.cor4`` (kind ``exact``): Theorems 1-3 and Corollary 4, the paper's
  closed forms written out here again, against what :mod:`prspace.metrics` computes from labels and
  scores: the worst ranking (every negative above every positive) at many skews and sizes, and
  random rankings for Theorem 1's bound; ``estimate`` is the largest deviation.
* ``boyd.table3`` (exact): Table 3's AUCNPR column against the AUCNPR its AUCPR column and skews
  give by Theorem 2; tolerance: the rounding of three published decimals, propagated.
* ``boyd.table2.*``: Table 2's mean row (exact), the skews the text states against the table
  (exact), and on this study's tasks the size of the change from mean AUPR to mean AUCNPR over
  tasks (direction).
* ``boyd.sec4_1.*``: averaging per-fold AUPR against merging the folds when the folds' skews
  differ (the fold-skew runs of :mod:`prspace.experiments.fold_skew`, same rows and fold sizes),
  and whether averaging AUCNPR reduces the effect on scale-free measures.
* ``boyd.sec4_2.*``: the learners' order by mean AUPR against mean AUCNPR over tasks (Kendall's
  tau, the winner's margin).
* ``boyd.sec4_3.*``: downsampling (:mod:`prspace.experiments.downsampling`): AUPR rises on a test
  set downsampled toward 1:1; AUCNPR moves less, but is it stable?

Intervals are 95% cluster-bootstrap intervals over families of tasks
(:func:`prspace.experiments.ranking.cluster_bootstrap_ci`, seed and resamples from the study's
config); a task without a family is its own.

One module of about 420 lines on purpose: one evidence row per claim of one paper, in the
paper's order, so that the claims tested and how each is decided are read in one place.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.stats import kendalltau

from prspace import metrics
from prspace.errors import InputError
from prspace.experiments import aggregation as ag
from prspace.experiments import downsampling as ds
from prspace.experiments import fold_skew as fs
from prspace.experiments.boyd_tables import read_runs
from prspace.experiments.ranking import cluster_bootstrap_ci, cluster_resamples
from prspace.verdicts.rule import evidence_row

PAPER = "boyd-2012"

#: Sizes (positives, negatives) at which the theorems are checked on real label vectors.
THEORY_SIZES: tuple[tuple[int, int], ...] = tuple((p, n) for p in (1, 2, 5, 20, 100) for n in (1, 3, 19, 99, 999))
#: Recall ranges [a, b] at which Corollary 4 is checked.
THEORY_RANGES: tuple[tuple[float, float], ...] = ((0.0, 1.0), (0.5, 1.0), (0.8, 1.0), (0.2, 0.7), (0.0, 0.3))
#: Random rankings per size for Theorem 1's bound.
THEORY_RANDOM = 5
#: Decimals of the published Tables 2 and 3 (half a unit of the last is their rounding).
PUBLISHED_DECIMALS = 3


# --- closed forms, written out from the paper (independent of prspace.metrics) ----------------


def theorem1_bound(pi: float, recall: np.ndarray) -> np.ndarray:
    """Theorem 1: p >= pi r / (1 - pi + pi r)."""
    return pi * recall / (1.0 - pi + pi * recall)


def theorem2_area(pi: float) -> float:
    """Theorem 2: AUCPR_MIN = 1 + (1 - pi) ln(1 - pi) / pi (pi < 1)."""
    return 1.0 + (1.0 - pi) * np.log(1.0 - pi) / pi


def theorem3_ap(pos: int, neg: int) -> float:
    """Theorem 3: AP_MIN = (1 / pos) sum_{i=1}^{pos} i / (i + neg), summed term by term."""
    return sum(i / (i + neg) for i in range(1, pos + 1)) / pos


def corollary4_area(pi: float, a: float, b: float) -> float:
    """Corollary 4: AUCPR_MIN over recall in [a, b] = b - a + (1 - pi)/pi ln((pi (a-1) + 1) / (pi (b-1) + 1))."""
    return b - a + (1.0 - pi) / pi * np.log((pi * (a - 1.0) + 1.0) / (pi * (b - 1.0) + 1.0))


def _worst(pos: int, neg: int) -> tuple[np.ndarray, np.ndarray]:
    """Labels and scores of the worst strict ranking: every negative above every positive, no ties
    (Theorem 3 labels the positives one at a time)."""
    y = np.r_[np.ones(pos, bool), np.zeros(neg, bool)]
    return y, np.arange(y.size, dtype=np.float64)


def theory_rows(seed: int = 0) -> list[dict[str, object]]:
    """Theorems 1-3 and Corollary 4: closed form against prspace.metrics on the worst ranking."""
    rng = np.random.default_rng([seed, 1])
    dev1 = dev2 = dev3 = dev4 = 0.0
    pis = []
    for pos, neg in THEORY_SIZES:
        pi = pos / (pos + neg)
        pis.append(pi)
        y, s = _worst(pos, neg)
        # Theorem 1: the worst ranking's (interpolated) curve lies on the bound, random ones above it
        worst = metrics.interpolate_pr_curve(metrics.pr_curve(y, s))
        on = worst.recall > 0
        dev1 = max(dev1, float(np.max(np.abs(worst.precision[on] - theorem1_bound(pi, worst.recall[on])))))
        for _ in range(THEORY_RANDOM):
            c = metrics.interpolate_pr_curve(metrics.pr_curve(y, rng.random(y.size)))
            dev1 = max(dev1, float(np.max(theorem1_bound(pi, c.recall) - c.precision, initial=0.0)))
        dev2 = max(dev2, abs(metrics.aupr(y, s) - theorem2_area(pi)))
        dev3 = max(dev3, abs(metrics.average_precision(y, s) - theorem3_ap(pos, neg)))
        for a, b in THEORY_RANGES:
            dev4 = max(dev4, abs(metrics.aupr(y, s, recall_range=(a, b)) - corollary4_area(pi, a, b)))
    span = f"{len(THEORY_SIZES)} label vectors, pi {min(pis):.4f} to {max(pis):.2f}"
    return [
        evidence_row(paper=PAPER, claim_id="boyd.thm1", kind="exact", estimate=dev1,
                     claim="Theorem 1: precision p >= pi r / (1 - pi + pi r) at every recall r, with equality for the worst ranking",
                     detail=(f"{span}: largest distance of the worst ranking's interpolated PR curve from the bound, and largest "
                             f"shortfall below it of {THEORY_RANDOM} random rankings each (prspace.metrics.pr_curve, "
                             "interpolate_pr_curve)")),
        evidence_row(paper=PAPER, claim_id="boyd.thm2", kind="exact", estimate=dev2,
                     claim="Theorem 2: the minimum AUCPR is 1 + (1 - pi) ln(1 - pi) / pi",
                     detail=f"{span}: prspace.metrics.aupr of the worst ranking against the closed form"),
        evidence_row(paper=PAPER, claim_id="boyd.thm3", kind="exact", estimate=dev3,
                     claim="Theorem 3: the minimum average precision is (1/pos) sum_i i / (i + neg)",
                     detail=f"{span}: prspace.metrics.average_precision of the worst ranking against the sum"),
        evidence_row(paper=PAPER, claim_id="boyd.cor4", kind="exact", estimate=dev4,
                     claim="Corollary 4: over recall in [a, b] the minimum AUCPR is b - a + (1 - pi)/pi ln((pi(a-1)+1)/(pi(b-1)+1))",
                     detail=(f"{span}, recall ranges {', '.join(f'[{a:g}, {b:g}]' for a, b in THEORY_RANGES)}: "
                             "prspace.metrics.aupr(recall_range) of the worst ranking against the closed form")),
    ]


# --- published tables ---------------------------------------------------------------------------


def table_rows() -> list[dict[str, object]]:
    """Table 3 (AUCNPR from AUCPR and skew), Table 2's mean row and the skews its text states."""
    half = 0.5 * 10.0 ** -PUBLISHED_DECIMALS
    t3 = ds.table3_check()
    # both published numbers are rounded: |error| <= half + half / (1 - AUCPR_MIN)
    bound3 = half + half / (1.0 - t3["aucpr_min"].to_numpy(np.float64))
    dev3 = float(t3["difference"].abs().max())
    rows = [evidence_row(
        paper=PAPER, claim_id="boyd.table3", kind="exact", estimate=dev3, tolerance=float(bound3.min()),
        claim="Table 3: each published AUCNPR is (AUCPR - AUCPR_MIN) / (1 - AUCPR_MIN) at its test skew 1/(1+k)",
        detail=(f"{len(t3)} published cells; tolerance = the rounding of {PUBLISHED_DECIMALS} decimals propagated through "
                "the formula (the smallest over the cells)"))]
    pr = np.array([r[1] for r in ag.BOYD_TABLE2])
    npr = np.array([r[2] for r in ag.BOYD_TABLE2])
    dev_mean = max(abs(pr.mean() - ag.BOYD_TABLE2_MEAN[0]), abs(npr.mean() - ag.BOYD_TABLE2_MEAN[1]))
    rows.append(evidence_row(
        paper=PAPER, claim_id="boyd.table2.mean_row", kind="exact", estimate=dev_mean, tolerance=2 * half,
        claim="Table 2: the mean row is the mean of the predicates' AUCPR and AUCNPR",
        detail=(f"recomputed means {pr.mean():.4f} and {npr.mean():.4f} against the published {ag.BOYD_TABLE2_MEAN[0]} and "
                f"{ag.BOYD_TABLE2_MEAN[1]}; tolerance: rounding of the rows and of the mean row")))
    t2 = ag.table2_check()
    stated = t2[np.isfinite(t2["stated_pi"].to_numpy(np.float64))]
    dev = (stated["aucnpr_at_stated_pi"] - stated["aucnpr_published"]).abs()
    bound2 = half + half / (1.0 - np.asarray(metrics.aupr_min(stated["stated_pi"].to_numpy(np.float64))))
    implied = ", ".join(f"{p} {ip:.3f} (text: {sp:g})" for p, ip, sp in
                        zip(stated["predicate"], stated["implied_pi"], stated["stated_pi"], strict=True))
    rows.append(evidence_row(
        paper=PAPER, claim_id="boyd.table2.stated_skews", kind="exact", estimate=float(dev.max()),
        tolerance=float(bound2.min()),
        claim="Table 2: the skews section 4.2 states (gender close to 0.5, genre close to 0.05) give the published AUCNPR",
        detail=(f"AUCNPR at the stated skew from the published AUCPR (Theorem 2) against the published AUCNPR; the pairs "
                f"imply pi {implied}. The text says 'close to', and per-fold averaged AUCNPR need not equal AUCNPR at one "
                "skew, so a difference here reads as loose wording or fold averaging, not as an error of Theorem 2")))
    return rows


# --- this study: aggregation over tasks (Table 2 generalised, section 4.2) ----------------------


def _families(task_ids: Sequence[object], tasks: pd.DataFrame | None) -> np.ndarray:
    from prspace.experiments.controlled_skew import task_families

    return task_families(task_ids, tasks)


def _boot_weights(clusters: np.ndarray, n_boot: int, seed: int) -> np.ndarray:
    """Per resample and task, how often its family was drawn: the resamples of
    :func:`prspace.experiments.ranking.cluster_bootstrap_ci` with the same seed (both draw them
    with :func:`~prspace.experiments.ranking.cluster_resamples`); as weights, because Kendall's
    tau and the winner margin are not means of per-task values, which is all that function takes."""
    cid, idx = cluster_resamples(clusters, n_boot=n_boot, seed=seed)
    counts = np.stack([np.bincount(r, minlength=idx.shape[1]) for r in idx])
    return counts[:, cid].astype(np.float64)


def _ci(values: np.ndarray, clusters: np.ndarray, n_boot: int, seed: int) -> tuple[float, float, float]:
    return cluster_bootstrap_ci(np.asarray(values, np.float64), clusters, n_boot=n_boot, seed=seed)


def aggregation_rows(df: pd.DataFrame, tasks: pd.DataFrame | None, *, learner: str, n_boot: int, seed: int) -> list[dict[str, object]]:
    """Table 2 generalised and section 4.2 on this study's metrics table (one row per task x learner)."""
    ag._check(df, learner)
    counts = df.groupby(learner)["task_id"].nunique()
    n_all = df["task_id"].nunique()
    keep = counts.index[counts == n_all]
    sub = df[df[learner].isin(keep)]
    X = {m: sub.pivot_table(index="task_id", columns=learner, values=m, aggfunc="mean").sort_index() for m in ("aupr", "aucnpr")}
    task_ids = X["aupr"].index.to_numpy()
    fam = _families(task_ids, tasks)
    common = {"paper": PAPER, "n_tasks": float(len(task_ids)), "n_families": float(len(set(fam)))}
    A, N = X["aupr"].to_numpy(np.float64), X["aucnpr"][X["aupr"].columns].to_numpy(np.float64)
    names = list(X["aupr"].columns)
    rows = []
    # size of the change: mean AUPR minus mean AUCNPR over tasks (learners averaged within a task)
    gap = (A - N).mean(axis=1)
    est, lo, hi = _ci(gap, fam, n_boot, seed)
    rows.append(evidence_row(
        claim_id="boyd.table2.more_conservative", kind="direction", paper_value=1.0, estimate=est, ci_lo=lo, ci_hi=hi,
        claim=(f"Averaged over tasks, AUCNPR gives a more conservative (lower) estimate than AUCPR (Table 2: mean "
               f"{ag.BOYD_TABLE2_MEAN[0]:.3f} vs {ag.BOYD_TABLE2_MEAN[1]:.3f})"),
        detail=(f"mean over tasks of (AUPR - AUCNPR), the {len(names)} learners evaluated on every task averaged within a task; "
                f"mean AUPR {A.mean():.3f}, mean AUCNPR {N.mean():.3f}"), **common))
    # section 4.2: the learners' order by mean AUPR vs by mean AUCNPR over tasks
    ma, mn = A.mean(axis=0), N.mean(axis=0)
    tau = float(kendalltau(ma, mn).statistic)
    W = _boot_weights(fam, n_boot, seed)
    wsum = W.sum(axis=1, keepdims=True)
    ba, bn = (W @ A) / wsum, (W @ N) / wsum
    taus = np.array([kendalltau(ba[i], bn[i]).statistic for i in range(n_boot)], dtype=np.float64)
    lo_t, hi_t = np.nanquantile(1.0 - taus, [0.025, 0.975])
    rows.append(evidence_row(
        claim_id="boyd.sec4_2.order_changes", kind="direction", paper_value=1.0, estimate=1.0 - tau, ci_lo=float(lo_t),
        ci_hi=float(hi_t),
        claim="Averaging AUCNPR instead of AUCPR over tasks of different skew changes the learners' order (1 - Kendall's tau > 0)",
        detail=(f"Kendall's tau between the {len(names)} learners' mean AUPR and mean AUCNPR over tasks = {tau:.3f}; interval: "
                "the same on cluster-bootstrap resamples of families. 1 - tau cannot be below 0, so this row can hold or "
                "be undecided (the orders may be identical), not be contradicted"), **common))
    w = int(np.argmax(ma))
    others = [i for i in range(len(names)) if i != w]
    r = others[int(np.argmax(mn[others]))]
    margin = N[:, w] - N[:, r]
    est, lo, hi = _ci(margin, fam, n_boot, seed)
    rows.append(evidence_row(
        claim_id="boyd.sec4_2.winner_changes", kind="direction", paper_value=-1.0, estimate=est, ci_lo=lo, ci_hi=hi,
        claim="The learner with the best mean AUPR over tasks is not the best by mean AUCNPR (its AUCNPR margin is negative)",
        detail=(f"margin = mean AUCNPR of the best learner by mean AUPR ({names[w]}) minus that of the best other learner by "
                f"mean AUCNPR ({names[r]}); below 0: averaging AUCNPR changes the winner, above 0: it keeps it"), **common))
    return rows


# --- this study: downsampling (section 4.3, Table 3 generalised) --------------------------------


def downsampling_rows(runs: pd.DataFrame, tasks: pd.DataFrame | None, *, n_boot: int, seed: int) -> list[dict[str, object]]:
    """AUPR and AUCNPR on test folds downsampled to the training ratio minus on the original folds."""
    if runs is None or runs.empty:
        return []
    keys = ["task_id", "learner", "repeat", "fold", "train_k"]
    down = runs[runs["test"] == "downsampled"].set_index(keys)
    orig = runs[runs["test"] == "original"].set_index(keys).reindex(down.index)
    g = pd.DataFrame({"test_pi": down["test_pi"], "gap_aupr": down["aupr"] - orig["aupr"],
                      "gap_aucnpr": down["aucnpr"] - orig["aucnpr"]}).reset_index()
    per = g.groupby(["task_id", "train_k"])[["test_pi", "gap_aupr", "gap_aucnpr"]].mean().reset_index()
    sub = per[per["train_k"] != ds.ORIGINAL]
    k_min = float(sub["train_k"].min())
    at = per[per["train_k"] == k_min].set_index("task_id").sort_index()
    fam = _families(at.index, tasks)
    common = {"paper": PAPER, "n_tasks": float(len(at)), "n_families": float(len(set(fam)))}
    ratio = ds.ratio_label(k_min)
    rows = []
    est, lo, hi = _ci(at["gap_aupr"], fam, n_boot, seed)
    rows.append(evidence_row(
        claim_id="boyd.sec4_3.aupr_rises", kind="direction", paper_value=1.0, estimate=est, ci_lo=lo, ci_hi=hi,
        claim=f"AUCPR on a test set downsampled to {ratio} is higher than on the original test set, with no better model",
        detail=(f"per task the mean over learners, repeats and folds of downsampled minus original AUPR at training ratio "
                f"{ratio} (test pi {at['test_pi'].mean():.2f} on average); Boyd's Table 3 at 1:1: "
                f"{ds.BOYD_TABLE3[0][1] - ds.BOYD_TABLE3[0][3]:+.3f}"), **common))
    slopes = []
    for t in at.index:
        pt = per[per["task_id"] == t]
        x, yv = pt["test_pi"].to_numpy(np.float64), pt["gap_aupr"].to_numpy(np.float64)
        slopes.append(float(np.polyfit(x, yv, 1)[0]) if np.unique(x).size > 1 else float("nan"))
    est, lo, hi = _ci(np.asarray(slopes), fam, n_boot, seed)
    rows.append(evidence_row(
        claim_id="boyd.sec4_3.gap_grows_with_pi", kind="direction", paper_value=1.0, estimate=est, ci_lo=lo, ci_hi=hi,
        claim="The downsampled-minus-original AUCPR difference grows as the ratio approaches 1:1 (as the test skew pi rises)",
        detail=("per task the least-squares slope of the AUPR difference against the downsampled test pi over the training "
                f"ratios {', '.join(ds.ratio_label(k) for k in sorted(sub['train_k'].unique()))} and the original (difference 0)"),
        **common))
    diff = at["gap_aupr"] - at["gap_aucnpr"]
    est, lo, hi = _ci(diff, fam, n_boot, seed)
    rows.append(evidence_row(
        claim_id="boyd.sec4_3.aucnpr_moves_less", kind="difference", estimate=est, ci_lo=lo, ci_hi=hi,
        claim=f"AUCNPR moves less than AUCPR under downsampling (AUCPR's difference minus AUCNPR's at {ratio}: larger = holds)",
        detail=(f"per task (downsampled - original AUPR) - (downsampled - original AUCNPR) at {ratio}; Boyd's Table 3 at 1:1: "
                f"{(ds.BOYD_TABLE3[0][1] - ds.BOYD_TABLE3[0][3]) - (ds.BOYD_TABLE3[0][2] - ds.BOYD_TABLE3[0][4]):+.3f}"),
        **common))
    est, lo, hi = _ci(at["gap_aucnpr"], fam, n_boot, seed)
    rows.append(evidence_row(
        claim_id="boyd.sec4_3.aucnpr_stable", kind="stable", estimate=est, ci_lo=lo, ci_hi=hi,
        claim=f"AUCNPR, which removes the unachievable region, is stable under downsampling to {ratio}",
        detail=(f"per task downsampled minus original AUCNPR at {ratio}. Section 4.3 expects AUCNPR to be more stable, and "
                f"its own Table 3 still finds a sizable difference ({ds.BOYD_TABLE3[0][2]:.3f} vs {ds.BOYD_TABLE3[0][4]:.3f} at 1:1)"),
        **common))
    return rows


# --- this study: fold skew (section 4.1) ---------------------------------------------------------


def fold_skew_task_effects(runs: pd.DataFrame) -> pd.DataFrame:
    """Per task at the largest dispersion (and per dispersion for the trend): the fold-skew effects.

    Columns ``task_id``, ``divergence`` (mean of per-fold AUPR minus pooled AUPR, skewed minus
    stratified folds), ``slope`` (least-squares slope of that divergence against the dispersion),
    ``scaled_bias_<m>`` (|bias of the mean of per-fold metric m| divided by the standard deviation
    of the models' values on the original folds) and ``kendall_loss_<m>`` (Kendall's tau with the
    original folds' order, stratified minus skewed) for m in aupr, aucnpr.
    """
    thinned = runs[runs["design"] != fs.FULL]
    keys = ["task_id", "dispersion", "seed", "repeat", "model_id"]
    sk = thinned[thinned["design"] == "skewed"].set_index(keys)
    st = thinned[thinned["design"] == "stratified"].set_index(keys).reindex(sk.index)
    d = pd.DataFrame({
        "divergence": (sk["mean_aupr"] - sk["pooled_aupr"]) - (st["mean_aupr"] - st["pooled_aupr"]),
        "bias_aupr": sk["mean_aupr"] - st["mean_aupr"], "bias_aucnpr": sk["mean_aucnpr"] - st["mean_aucnpr"],
    }).reset_index()
    by_d = d.groupby(["task_id", "dispersion"])[["divergence", "bias_aupr", "bias_aucnpr"]].mean().reset_index()
    d_max = float(by_d["dispersion"].max())
    top = by_d[by_d["dispersion"] == d_max].set_index("task_id").sort_index()
    full = runs[runs["design"] == fs.FULL].groupby(["task_id", "model_id"])[["mean_aupr", "mean_aucnpr"]].mean()
    spread = full.groupby(level="task_id").std(ddof=1)
    out = pd.DataFrame(index=top.index)
    out["dispersion"] = d_max
    out["divergence"] = top["divergence"]
    out["slope"] = [float(np.polyfit(g["dispersion"], g["divergence"], 1)[0]) if g["dispersion"].nunique() > 1 else float("nan")
                    for _, g in by_d.groupby("task_id", sort=True)]
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


def fold_skew_rows(runs: pd.DataFrame, tasks: pd.DataFrame | None, *, n_boot: int, seed: int) -> list[dict[str, object]]:
    """Section 4.1: averaging vs merging folds of different skew, and AUCNPR against AUCPR."""
    if runs is None or runs.empty:
        return []
    eff = fold_skew_task_effects(runs)
    fam = _families(eff["task_id"], tasks)
    common = {"paper": PAPER, "n_tasks": float(len(eff)), "n_families": float(len(set(fam)))}
    d_max = float(eff["dispersion"].iloc[0])
    design = (f"at dispersion d = {d_max:g}: in each pair of folds a share d of one fold's positives swapped with as many "
              "negatives of the other (every row and every fold's size kept), against a control making the same moves "
              "class for class (fold skews unchanged)")
    rows = []
    est, lo, hi = _ci(eff["divergence"], fam, n_boot, seed)
    rows.append(evidence_row(
        claim_id="boyd.sec4_1.averaging_optimistic", kind="direction", paper_value=1.0, estimate=est, ci_lo=lo, ci_hi=hi,
        claim="When folds differ in skew, the mean of per-fold AUCPR is optimistic against the merged folds' AUCPR",
        detail=(f"per task (mean of per-fold AUPR - merged AUPR) on skewed folds minus the same on the control, averaged over "
                f"models and seeds; {design}"), **common))
    est, lo, hi = _ci(eff["slope"], fam, n_boot, seed)
    rows.append(evidence_row(
        claim_id="boyd.sec4_1.divergence_grows", kind="direction", paper_value=1.0, estimate=est, ci_lo=lo, ci_hi=hi,
        claim="Averaging and merging folds diverge further as the folds' skews spread",
        detail=(f"per task the least-squares slope of that divergence against the dispersion d over "
                f"{', '.join(f'{x:g}' for x in sorted(runs['dispersion'].dropna().unique()))}"), **common))
    diff = eff["scaled_bias_aupr"] - eff["scaled_bias_aucnpr"]
    est, lo, hi = _ci(diff, fam, n_boot, seed)
    rows.append(evidence_row(
        claim_id="boyd.sec4_1.aucnpr_reduces_bias", kind="difference", estimate=est, ci_lo=lo, ci_hi=hi,
        claim="Averaging AUCNPR reduces fold skew's effect compared with averaging AUCPR, on the models' scale (larger = holds)",
        detail=(f"per task |bias of the mean of per-fold AUPR| / sd of the models' AUPR minus the same for AUCNPR (AUCNPR "
                f"stretches AUPR by 1/(1 - AUCPR_MIN), so raw biases are not comparable); mean scaled bias AUPR "
                f"{eff['scaled_bias_aupr'].mean():.3f}, AUCNPR {eff['scaled_bias_aucnpr'].mean():.3f}; {design}"), **common))
    diff = eff["kendall_loss_aupr"] - eff["kendall_loss_aucnpr"]
    est, lo, hi = _ci(diff, fam, n_boot, seed)
    rows.append(evidence_row(
        claim_id="boyd.sec4_1.aucnpr_reduces_rank_changes", kind="difference", estimate=est, ci_lo=lo, ci_hi=hi,
        claim="Averaging AUCNPR reorders the models less under fold skew than averaging AUCPR (larger = holds)",
        detail=(f"per task the Kendall's tau lost to skew (tau with the original folds' order, control minus skewed) by the "
                f"mean of per-fold AUPR minus that by the mean of per-fold AUCNPR; mean loss AUPR "
                f"{eff['kendall_loss_aupr'].mean():.3f}, AUCNPR {eff['kendall_loss_aucnpr'].mean():.3f}; {design}"), **common))
    return rows


def boyd_evidence(
    *, metrics_table: pd.DataFrame | None = None, tasks: pd.DataFrame | None = None,
    downsampling_runs: pd.DataFrame | None = None, fold_skew_runs: pd.DataFrame | None = None,
    learner: str = "flow_id", n_boot: int = 1000, seed: int = 0,
) -> pd.DataFrame:
    """Every Boyd et al. evidence row (:data:`prspace.verdicts.rule.EVIDENCE_COLUMNS`)."""
    from prspace.verdicts.rule import evidence_frame

    rows = theory_rows(seed) + table_rows()
    if metrics_table is not None and len(metrics_table):
        rows += aggregation_rows(metrics_table, tasks, learner=learner, n_boot=n_boot, seed=seed)
    rows += fold_skew_rows(fold_skew_runs, tasks, n_boot=n_boot, seed=seed) if fold_skew_runs is not None else []
    rows += downsampling_rows(downsampling_runs, tasks, n_boot=n_boot, seed=seed) if downsampling_runs is not None else []
    return evidence_frame(rows)


def _read_runs(paths: Sequence[object] | None) -> pd.DataFrame | None:
    return None if paths is None else read_runs(paths)  # type: ignore[arg-type]


def evidence_from_files(
    *, metrics: object = None, tasks: object = None, downsampling_runs: Sequence[object] | None = None,
    fold_skew_runs: Sequence[object] | None = None, learner: str = "flow_id", n_boot: int = 1000, seed: int = 0,
) -> pd.DataFrame:
    """:func:`boyd_evidence` from a study's files (every path checked before any work)."""
    from pathlib import Path

    for what, p, fix in (("metrics table", metrics, "run `prspace score collect` first"),
                         ("task table", tasks, "run the task selection step first")):
        if p is not None and not Path(p).is_file():
            raise InputError(f"no {what} at {p}; {fix}")
    if n_boot < 1:
        raise InputError(f"--n-boot must be at least 1, got {n_boot}")
    ds_runs, fs_runs = _read_runs(downsampling_runs), _read_runs(fold_skew_runs)
    mt = pd.read_csv(metrics) if metrics is not None else None
    tt = pd.read_csv(tasks) if tasks is not None else None
    return boyd_evidence(metrics_table=mt, tasks=tt, downsampling_runs=ds_runs, fold_skew_runs=fs_runs,
                         learner=learner, n_boot=n_boot, seed=seed)
