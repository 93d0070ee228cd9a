"""Evidence rows of Boyd et al. from this study's runs: the intervals, and section 4.3 (downsampling).

Each primary claim (:mod:`prspace.core.claims`, role ``primary``) is a direction: the mean
over tasks of a per-task effect, with a cluster-bootstrap interval over families of tasks at the
simultaneous level :func:`prspace.core.claims.primary_level` and its Monte Carlo error
(:func:`prspace.experiments.boyd.boyd_intervals.family_interval`). This project's own questions are
exploratory rows (``paper = "prspace"``, ids ``px.boyd.*``) at 95%.

Section 4.1's rows are in :mod:`prspace.experiments.boyd.boyd_fold_skew_rows` (they use
:func:`primary_row` and :func:`exploratory_row` of this module).

Section 4.3 (:func:`downsampling_rows`): AUPR rises on a test set downsampled to 1:1
(``aupr_rises``), more so as the ratio nears 1:1 (``gap_grows_with_pi``, over the downsampled ratios
only), AUCNPR moves less (``aucnpr_moves_less``) and has less variance over the ratios
(``aucnpr_less_variance``: a difference of standard deviations, :func:`sd_gap`, on the AUPR scale of
its margin) but still moves (``aucnpr_still_moves``), by more than a factor of two
(``aucnpr_more_than_twice``). ``aupr_rises``, ``aucnpr_still_moves`` and ``gap_grows_with_pi`` follow
from Theorem 1's arithmetic (the registry flags them: ``extra["follows_from"]``): at a fixed ROC point
precision pi t / (pi t + (1 - pi) f) rises with pi, so a model's AUPR and AUCNPR rise when its test set
is downsampled (``tests/experiments/boyd/test_boyd_follows.py`` checks it on random rankings).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.core.claims import BOYD, claim, primary_level
from prspace.core.errors import InputError
from prspace.core.evidence import evidence_row
from prspace.experiments.boyd import downsampling as ds
from prspace.experiments.boyd.boyd_intervals import Interval, family_interval, simulated_coverage
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


def sd_gap(per: pd.DataFrame) -> pd.Series:
    """Per task (index ``task_id``): the standard deviation (ddof 1) over the training ratios of
    ``down_aupr`` minus that of ``down_aucnpr`` (``per``: one row per task and ``train_k``, the
    downsampled test set's mean scores). A difference of SDs is on the AUPR scale, as the margin is;
    a task with one ratio has none (NaN)."""
    need = {"task_id", "train_k", "down_aupr", "down_aucnpr"}
    if not need <= set(per.columns):
        raise InputError(f"the per-ratio scores lack column(s) {sorted(need - set(per.columns))}; pass one row per "
                         "task and training ratio with the downsampled test set's mean AUPR and AUCNPR")
    g = per.groupby("task_id", sort=True)
    return g["down_aupr"].std(ddof=1) - g["down_aucnpr"].std(ddof=1)


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
                      "gap_auroc": (down["auroc"] - orig["auroc"]) if "auroc" in runs.columns else np.nan,
                      "down_auroc": down["auroc"] if "auroc" in runs.columns else np.nan}).reset_index()
    cols = ["test_pi", "gap_aupr", "gap_aucnpr", "down_aucnpr", "orig_aucnpr", "down_aupr", "orig_aupr", "gap_auroc",
            "down_auroc"]
    per = g.groupby(["task_id", "train_k"])[cols].mean().reset_index()
    sub = per[per["train_k"] != ds.ORIGINAL]
    k_min = float(sub["train_k"].min())
    at = per[per["train_k"] == k_min].set_index("task_id").sort_index()
    fam = families(at.index, tasks)
    common = {"n_tasks": float(len(at)), "n_families": float(len(set(fam)))}
    n_el, n_all = eligible_tasks(tasks, max_pi=max_pi, min_positives=min_positives)
    n_rep = runs["repeat"].nunique()
    reach = (f"Sample: {len(at)} tasks in {len(set(fam))} task families"
             + (f", {n_el} of the study's {n_all} tasks eligible (pi <= {max_pi:g}, >= {min_positives} positives)"
                if n_el >= 0 else "")
             + f"; {ds.learners_text(runs)}, {n_rep} repeat(s) of cross-validation. {scope}").rstrip()
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
                + ". Each model's difference rises with pi by arithmetic (precision at a fixed ROC point rises with pi); "
                "the slope compares models trained at different ratios, which differ only as their ROC curves do: mean "
                "AUROC on the downsampled test set by ratio "
                + ", ".join(f"{ds.ratio_label(k)} {per.loc[per['train_k'] == k, 'down_auroc'].mean():.3f}" for k in ks)
                + f". {reach}")))
    rows.append(primary_row(
        "boyd.sec4_3.aucnpr_moves_less", (at["gap_aupr"] - at["gap_aucnpr"]).to_numpy(), fam, **rs,
        detail=(f"per task (downsampled - original AUPR) - (downsampled - original AUCNPR) at {ratio}; Boyd's Table 3 at "
                f"1:1: {(p1[1] - p1[3]) - (p1[2] - p1[4]):+.3f}. Largely by construction: AUCNPR subtracts AUCPR_MIN(pi), "
                f"which rises with pi, from both sides of the rise. {reach}")))
    sd = sd_gap(per).reindex(at.index)
    allk = per.groupby("task_id")
    pr_col = np.array([r[1] for r in ds.BOYD_TABLE3])
    npr_col = np.array([r[2] for r in ds.BOYD_TABLE3])
    rows.append(primary_row(
        "boyd.sec4_3.aucnpr_less_variance", sd.to_numpy(np.float64), fam, **rs,
        detail=(f"per task the standard deviation over the {per['train_k'].nunique()} training ratios (the original "
                "included, as in Table 3) of the downsampled test set's mean AUPR minus that of its mean AUCNPR: a "
                "difference of SDs, on the AUPR scale of the margin (a difference of variances would be in AUPR "
                f"squared); mean SD AUPR {allk['down_aupr'].std(ddof=1).mean():.4f}, AUCNPR "
                f"{allk['down_aucnpr'].std(ddof=1).mean():.4f}. Boyd's Table 3 downsampled columns: SD AUCPR "
                f"{pr_col.std(ddof=1):.4f}, AUCNPR {npr_col.std(ddof=1):.4f} (difference "
                f"{pr_col.std(ddof=1) - npr_col.std(ddof=1):+.4f}). {reach}")))
    factor = at["down_aucnpr"].mean() / at["orig_aucnpr"].mean()
    rows.append(primary_row(
        "boyd.sec4_3.aucnpr_still_moves", at["gap_aucnpr"].to_numpy(), fam, **rs,
        detail=(f"per task downsampled minus original AUCNPR at {ratio} (Boyd's 'sizable difference' is AUCNPR's: "
                f"Table 3 at 1:1 {p1[2]:.3f} vs {p1[4]:.3f}, {p1[2] - p1[4]:+.3f}). The sign follows by arithmetic: "
                "the same models on both test sets, and at a fixed ROC curve AUCNPR rises with pi as AUPR does "
                f"(precision at each ROC point rises with pi); the data give the size. {reach}")))
    rows.append(primary_row(
        "boyd.sec4_3.aucnpr_more_than_twice", (at["down_aucnpr"] - 2.0 * at["orig_aucnpr"]).to_numpy(), fam, **rs,
        detail=(f"per task downsampled AUCNPR at {ratio} minus twice the original AUCNPR; above 0 on average: the mean "
                f"downsampled AUCNPR is more than twice the mean original. Here {at['down_aucnpr'].mean():.3f} vs "
                f"{at['orig_aucnpr'].mean():.3f} (x{factor:.2f}); Boyd's Table 3 at 1:1 (SAYU, one task): {p1[2]:.3f} vs "
                f"{p1[4]:.3f} (x{p1[2] / p1[4]:.2f}). {reach}")))
    return rows
