"""Evidence rows: is the metrics' disagreement more than noise?

From the noise floor's pair table (:mod:`prspace.experiments.noise.noise_floor`), the study's task table
(families, sizes) and the calibration summary (:mod:`prspace.experiments.noise.noise_calibration`), two rows
per metric pair of Flach & Kull's three and per ``k`` in (1, 3), built with
:func:`prspace.verdicts.rule.evidence_row` (``paper="prspace"``):

* ``px.<a>_<b>.top<k>.distinguishable`` (kind ``bound``): ``k`` = disagreeing tasks whose two
  preferred models are distinguishable, ``n`` = disagreeing tasks; the rule computes the exact
  (Clopper-Pearson) interval. ``power`` (:func:`calibration_at`) = the check's calibrated power
  at the largest planted reversal (``power_at_max``: population AUPR, AUPRG or AUROC margins of
  ``max_reversal`` in each metric, opposite in sign) at the calibrated task size closest (in
  log n_pos) to the median number of positives of the ``n`` tasks the row counts (of all the
  pair's tasks when ``n = 0``; the median size ``q50`` when the task table has no ``n_pos``).
  The detail names that size and scenario, the check's false rates there (under the three
  nulls of :mod:`prspace.experiments.noise.noise_calibration`), and mdr80 (the smallest planted reversal
  detected with 80% power) where one is.
* ``px.<a>_<b>.top<k>.cross_vs_self`` (kind ``difference``): the mean over tasks of
  ``top<k>_cross_minus_self`` (cross-metric minus self-disagreement over pairs of resamples) with
  a 95% percentile cluster-bootstrap interval over task families
  (:func:`prspace.stats.family_bootstrap.cluster_bootstrap_ci`, ``n_boot`` resamples, ``seed``),
  ``level`` 0.95, and ``mc_error``: the Monte Carlo standard error of the interval's ends, the
  larger of the two, from the binomial order statistics of the same resamples
  (:func:`prspace.stats.intervals.order_statistic_mc_error`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from prspace.core.defaults import N_BOOT
from prspace.core.errors import InputError
from prspace.core.evidence import effective_cases, evidence_frame, evidence_row
from prspace.experiments.ranking import METRIC_LABELS, PAPER_RESULTS
from prspace.stats.family_bootstrap import (
    cluster_bootstrap_ci,
    cluster_resamples,
    family_replicates,
)
from prspace.stats.intervals import order_statistic_mc_error

PAPER = "prspace"
_WHAT = {1: "best model", 3: "ordered top three"}


def _alpha_text(summary: pd.DataFrame | None) -> str:
    if summary is not None and "alpha" in summary.columns and len(summary) and np.isfinite(float(summary["alpha"].iloc[0])):
        return f"{float(summary['alpha'].iloc[0]):g}"
    return "alpha (see noise_floor_pairs.csv's run)"


def calibration_at(summary: pd.DataFrame | None, pair: str, n_pos: float) -> pd.Series | None:
    """The calibration summary's row of ``pair`` at the task size closest to ``n_pos`` positives
    (distance in log n_pos; ties to the smaller size; ``q50`` when ``n_pos`` is NaN); None if
    the summary has no row for the pair."""
    if summary is None or summary.empty:
        return None
    s = summary[summary["pair"] == pair]
    if s.empty:
        return None
    if not np.isfinite(n_pos) or n_pos <= 0:
        return s[s["size"] == "q50"].iloc[0] if (s["size"] == "q50").any() else s.iloc[len(s) // 2]
    dist = np.abs(np.log(s["n_pos"].to_numpy(np.float64)) - np.log(n_pos))
    order = np.lexsort((s["n_pos"].to_numpy(np.float64), dist))
    return s.iloc[int(order[0])]


def _power_text(s: pd.Series | None, median_pos: float, n_counted: int) -> str:
    if s is None:
        return "no calibration for this pair: the check's power is unknown, and so is its false rate"
    where = (f"the median of the {n_counted} tasks counted here is {median_pos:.0f} positives"
             if np.isfinite(median_pos) else "the task sizes are unknown: the study's median size")
    size = f"calibration at task size {s['size']} ({int(s['n_pos'])} positives, {int(s['n_neg'])} negatives; {where})"
    nulls = [(lab, s.get(col), s.get(col + "_se")) for lab, col in
             (("both metrics equal", "false_rate_null"), ("a equal, b not", "false_rate_eq_a"),
              ("b equal, a not", "false_rate_eq_b"))]
    shown = [f"{lab} {float(r):.3f} (se {float(se):.3f})" for lab, r, se in nulls
             if r is not None and np.isfinite(float(r))]
    if not shown:  # a summary of the earlier layout: one null
        shown = [f"{float(s['false_rate']):.3f} (se {float(s['false_rate_se']):.3f})"]
    false = f"false rate under the nulls {', '.join(shown)}, {int(s['n_sim_null'])} simulated tasks each"
    power = (f"power {float(s['power_at_max']):.2f} at the largest planted reversal (two models, each metric "
             f"preferring its own by {float(s['max_reversal']):.3f} in the population)")
    if np.isfinite(float(s["mdr80"])):
        power += f"; every planted reversal of {float(s['mdr80']):.3f} or more was detected with power >= 0.8 (mdr80)"
    else:
        power += ("; no planted reversal reached 80% power, so a low count here says the test rows cannot separate "
                  "such models, not that no real reversal exists")
    return f"{size}: {false}; {power}"


def _flag(s: pd.Series) -> pd.Series:
    return s.astype(str).str.lower().isin(["true", "1", "1.0"])


def noise_evidence(
    pairs: pd.DataFrame,
    tasks: pd.DataFrame,
    calibration_summary: pd.DataFrame | None,
    *,
    n_boot: int = N_BOOT,
    seed: int = 0,
    level: float = 0.95,
) -> pd.DataFrame:
    """Evidence rows (:data:`prspace.core.evidence.EVIDENCE_COLUMNS`), see the module docstring."""
    need = {"task_id", "metric_a", "metric_b", "top1_differs", "top1_distinguishable", "top1_cross_minus_self"}
    missing = need - set(pairs.columns)
    if missing:
        raise InputError(f"the noise-floor pair table lacks column(s) {sorted(missing)}; rerun prspace step noise_floor")
    if "task_id" not in tasks.columns:
        raise InputError("the task table lacks column task_id; give the study's tables/tasks.csv")
    by_id = tasks.drop_duplicates("task_id").set_index(tasks.drop_duplicates("task_id")["task_id"].astype(str))
    fam = by_id["family"] if "family" in by_id.columns else None
    n_pos = pd.to_numeric(by_id["n_pos"], errors="coerce") if "n_pos" in by_id.columns else None
    rows = []
    for (a, b) in PAPER_RESULTS:
        sub = pairs[((pairs.metric_a == a) & (pairs.metric_b == b)) | ((pairs.metric_a == b) & (pairs.metric_b == a))]
        if sub.empty:
            continue
        pair = f"{a}_{b}"
        A, B = METRIC_LABELS[a], METRIC_LABELS[b]
        ids = sub["task_id"].astype(str)
        # a task without a family in the task table is its own cluster
        clusters = (fam.reindex(ids.to_numpy()).fillna(pd.Series(ids.to_numpy(), index=ids.to_numpy())).to_numpy()
                    if fam is not None else ids.to_numpy())
        sizes = n_pos.reindex(ids.to_numpy()).to_numpy(np.float64) if n_pos is not None else np.full(len(ids), np.nan)
        n_tasks, n_fam = len(sub), int(pd.Series(clusters).nunique())
        for k in (1, 3):
            differs = _flag(sub[f"top{k}_differs"])
            dist = _flag(sub.loc[differs, f"top{k}_distinguishable"])
            kk, nn = int(dist.sum()), int(differs.sum())
            by_fam = pd.DataFrame({"f": clusters[differs.to_numpy()], "k": dist.to_numpy(np.float64)}).groupby("f")["k"]
            fams_dis = int(by_fam.ngroups)
            n_eff = effective_cases(by_fam.sum(), by_fam.size()) if nn else float("nan")
            counted = sizes[differs.to_numpy()] if nn else sizes
            med = float(np.nanmedian(counted)) if np.isfinite(counted).any() else float("nan")
            cal = calibration_at(calibration_summary, pair, med)
            rows.append(evidence_row(
                paper=PAPER, claim_id=f"px.{pair}.top{k}.distinguishable", kind="bound",
                claim=(f"Where {A} and {B} pick a different {_WHAT[k]}, the two preferred models are "
                       f"distinguishable on the task's test rows"),
                estimate=kk / nn if nn else float("nan"), k=kk, n=nn, n_tasks=n_tasks, n_families=n_fam,
                power=float(cal["power_at_max"]) if cal is not None else float("nan"), n_eff=n_eff,
                detail=(f"{kk} of {nn} disagreeing tasks ({fams_dis} families): both one-sided paired bootstrap "
                        f"tests reject at level {_alpha_text(calibration_summary)} (an intersection-union test); "
                        + _power_text(cal, med, nn if nn else n_tasks))))
            v = pd.to_numeric(sub[f"top{k}_cross_minus_self"], errors="coerce").to_numpy(np.float64)
            est, lo, hi = cluster_bootstrap_ci(v, clusters, n_boot=n_boot, seed=seed, level=level)
            mc = order_statistic_mc_error(family_replicates(v, *cluster_resamples(clusters, n_boot=n_boot, seed=seed)), level)
            cross = float(np.nanmean(pd.to_numeric(sub[f"top{k}_cross"], errors="coerce")))
            selfm = float(np.nanmean((pd.to_numeric(sub[f"top{k}_self_a"], errors="coerce")
                                      + pd.to_numeric(sub[f"top{k}_self_b"], errors="coerce")) / 2))
            rows.append(evidence_row(
                paper=PAPER, claim_id=f"px.{pair}.top{k}.cross_vs_self", kind="difference",
                claim=(f"{A} and {B} disagree on the {_WHAT[k]} more than each metric disagrees with itself "
                       f"on resampled test rows"),
                estimate=est, ci_lo=lo, ci_hi=hi, n_tasks=n_tasks, n_families=n_fam, level=level, mc_error=mc,
                detail=(f"how much more often the two metrics disagree on the {_WHAT[k]} than one metric disagrees "
                        f"with itself on resampled test rows: {est:+.3f} (share of pairs of stratified bootstrap "
                        f"resamples; cross-metric {cross:.3f} minus self-disagreement {selfm:.3f}, mean over "
                        f"{n_tasks} tasks), {level:.0%} cluster-bootstrap interval over {n_fam} families "
                        f"[{lo:+.3f}, {hi:+.3f}]")))
    return evidence_frame(rows)
