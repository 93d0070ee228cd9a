"""Evidence rows: is the metrics' disagreement more than noise?

From the noise floor's pair table (:mod:`prspace.experiments.noise_floor`), the study's task table
(families) and the calibration summary (:mod:`prspace.experiments.calibration`), two rows per
metric pair of Flach & Kull's three and per ``k`` in (1, 3), built with
:func:`prspace.verdicts.rule.evidence_row` (``paper="prspace"``):

* ``px.<a>_<b>.top<k>.distinguishable`` (kind ``bound``): ``k`` = disagreeing tasks whose two
  preferred models are distinguishable, ``n`` = disagreeing tasks; the rule computes the exact
  (Clopper-Pearson) interval. The detail gives the check's calibrated false rates (under the three
  nulls of :mod:`prspace.experiments.calibration`) and power at the study's median task size: the
  smallest planted reversal detected with 80% power (mdr80), or, when none of the planted
  reversals reached it, the largest one and its power (then a low count says the test rows cannot
  separate such models, not that no real reversal exists).
* ``px.<a>_<b>.top<k>.cross_vs_self`` (kind ``difference``): the mean over tasks of
  ``top<k>_cross_minus_self`` (cross-metric minus self-disagreement over pairs of resamples) with
  a 95% percentile cluster-bootstrap interval over task families
  (:func:`prspace.experiments.ranking.cluster_bootstrap_ci`, ``n_boot`` resamples, ``seed``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from prspace.errors import InputError
from prspace.experiments.ranking import METRIC_LABELS, PAPER_RESULTS, cluster_bootstrap_ci
from prspace.verdicts.rule import evidence_frame, evidence_row

PAPER = "prspace"
_WHAT = {1: "best model", 3: "ordered top three"}


def _alpha_text(summary: pd.DataFrame | None) -> str:
    if summary is not None and "alpha" in summary.columns and len(summary) and np.isfinite(float(summary["alpha"].iloc[0])):
        return f"{float(summary['alpha'].iloc[0]):g}"
    return "alpha (see noise_floor_pairs.csv's run)"


def _power_text(summary: pd.DataFrame | None, pair: str) -> str:
    if summary is None or summary.empty:
        return "no calibration table: the check's power is unknown, and so is its false rate"
    s = summary[summary["pair"] == pair]
    if s.empty:
        return "the calibration table has no row for this pair: power unknown"
    mid = s[s["size"] == "q50"].iloc[0] if (s["size"] == "q50").any() else s.iloc[len(s) // 2]
    size = f"at the median task size ({int(mid['n_pos'])} positives, {int(mid['n_neg'])} negatives)"
    nulls = [(lab, mid.get(col), mid.get(col + "_se")) for lab, col in
             (("both metrics equal", "false_rate_null"), ("a equal, b not", "false_rate_eq_a"),
              ("b equal, a not", "false_rate_eq_b"))]
    shown = [f"{lab} {float(r):.3f} (se {float(se):.3f})" for lab, r, se in nulls
             if r is not None and np.isfinite(float(r))]
    if not shown:  # a summary of the earlier layout: one null
        shown = [f"{float(mid['false_rate']):.3f} (se {float(mid['false_rate_se']):.3f})"]
    false = (f"false rate under the nulls {', '.join(shown)}, {int(mid['n_sim_null'])} simulated tasks each")
    if np.isfinite(mid["mdr80"]):
        power = f"every planted reversal of {mid['mdr80']:.3f} or more was detected with power >= 0.8 (mdr80)"
    else:
        power = (f"no planted reversal reached 80% power: the largest, {mid['max_reversal']:.3f} in each metric, "
                 f"was detected with power {mid['power_at_max']:.2f}, so a low count here says the test rows cannot "
                 f"separate such models, not that no real reversal exists")
    others = s[s["size"] != mid["size"]]
    rest = "; ".join(
        f"{r['size']} ({int(r['n_pos'])}/{int(r['n_neg'])}): "
        + (f"mdr80 {r['mdr80']:.3f}" if np.isfinite(r["mdr80"]) else f"power {r['power_at_max']:.2f} at {r['max_reversal']:.3f}")
        for _, r in others.iterrows())
    return f"calibration {size}: {false}; {power}" + (f" (other sizes: {rest})" if rest else "")


def noise_evidence(
    pairs: pd.DataFrame,
    tasks: pd.DataFrame,
    calibration_summary: pd.DataFrame | None,
    *,
    n_boot: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> pd.DataFrame:
    """Evidence rows (:data:`prspace.verdicts.rule.EVIDENCE_COLUMNS`), see the module docstring."""
    need = {"task_id", "metric_a", "metric_b", "top1_differs", "top1_distinguishable", "top1_cross_minus_self"}
    missing = need - set(pairs.columns)
    if missing:
        raise InputError(f"the noise-floor pair table lacks column(s) {sorted(missing)}; rerun prspace noise-floor")
    if "task_id" not in tasks.columns:
        raise InputError("the task table lacks column task_id; give the study's tables/tasks.csv")
    fam = tasks.set_index(tasks["task_id"].astype(str))["family"] if "family" in tasks.columns else None
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
        n_tasks, n_fam = len(sub), int(pd.Series(clusters).nunique())
        for k in (1, 3):
            differs = sub[f"top{k}_differs"].astype(str).str.lower().isin(["true", "1", "1.0"])
            dist = sub.loc[differs, f"top{k}_distinguishable"].astype(str).str.lower().isin(["true", "1", "1.0"])
            kk, nn = int(dist.sum()), int(differs.sum())
            fams_dis = int(pd.Series(clusters[differs.to_numpy()]).nunique())
            rows.append(evidence_row(
                paper=PAPER, claim_id=f"px.{pair}.top{k}.distinguishable", kind="bound",
                claim=(f"Where {A} and {B} pick a different {_WHAT[k]}, the two preferred models are "
                       f"distinguishable on the task's test rows"),
                estimate=kk / nn if nn else float("nan"), k=kk, n=nn, n_tasks=n_tasks, n_families=n_fam,
                detail=(f"{kk} of {nn} disagreeing tasks ({fams_dis} families): both one-sided paired bootstrap "
                        f"tests reject at level {_alpha_text(calibration_summary)} (an intersection-union test); "
                        + _power_text(calibration_summary, pair))))
            v = pd.to_numeric(sub[f"top{k}_cross_minus_self"], errors="coerce").to_numpy(np.float64)
            est, lo, hi = cluster_bootstrap_ci(v, clusters, n_boot=n_boot, seed=seed, level=level)
            cross = float(np.nanmean(pd.to_numeric(sub[f"top{k}_cross"], errors="coerce")))
            selfm = float(np.nanmean((pd.to_numeric(sub[f"top{k}_self_a"], errors="coerce")
                                      + pd.to_numeric(sub[f"top{k}_self_b"], errors="coerce")) / 2))
            rows.append(evidence_row(
                paper=PAPER, claim_id=f"px.{pair}.top{k}.cross_vs_self", kind="difference",
                claim=(f"{A} and {B} disagree on the {_WHAT[k]} more than each metric disagrees with itself "
                       f"on resampled test rows"),
                estimate=est, ci_lo=lo, ci_hi=hi, n_tasks=n_tasks, n_families=n_fam,
                detail=(f"mean over tasks of cross-metric ({cross:.3f}) minus self-disagreement ({selfm:.3f}) over "
                        f"pairs of stratified bootstrap resamples; 95% cluster-bootstrap interval over families")))
    return evidence_frame(rows)
