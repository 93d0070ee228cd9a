"""Evidence rows for Flach & Kull's (NIPS 2015, sec. 4) headline numbers, from a study's tables.

The paper reports, over 886 OpenML tasks with 30 models each, how often AUPR, AUPRG and AUROC
pick a different best model (top-1), a different ordered top three (top-3), and the correlation of
the metrics' ranks. :func:`flach_kull_evidence` turns ``disagreement_summary.csv`` (shares with
cluster-bootstrap intervals over families of tasks, :mod:`prspace.experiments.ranking`) into one
evidence row per number; :func:`within_task_order_evidence` states Boyd et al.'s consequence that
AUCNPR, an increasing function of AUPR within a task, orders a task's models as AUPR does.
:func:`cd_order_evidence` turns ``cd_metric_pairs.csv`` (:func:`prspace.cd.study_tables`: per pair
of metrics the calibrated sign-flip test of whether they order the learners differently across
tasks) into one ``test`` row per pair, ``px.<a>_<b>.cd.order``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from prspace.experiments.ranking import METRIC_LABELS, PAPER_RESULTS
from prspace.metrics.names import FK_PAIRS
from prspace.verdicts.rule import evidence_row

FK = "flach-kull-2015"


def _pair(summary: pd.DataFrame, a: str, b: str) -> pd.Series | None:
    hit = summary[((summary.metric_a == a) & (summary.metric_b == b)) | ((summary.metric_a == b) & (summary.metric_b == a))]
    return None if hit.empty else hit.iloc[0]


def _g(s: pd.Series, col: str) -> float:
    v = s.get(col, np.nan)
    return float(v) if v is not None and v == v else float("nan")


def flach_kull_evidence(summary: pd.DataFrame) -> list[dict[str, object]]:
    """Top-1, top-3 and rank-correlation rows for the paper's three metric pairs."""
    rows: list[dict[str, object]] = []
    for (a, b), paper in PAPER_RESULTS.items():
        s = _pair(summary, a, b)
        if s is None:
            continue
        A, B = METRIC_LABELS[a], METRIC_LABELS[b]
        common = {"paper": FK, "n_tasks": _g(s, "n_tasks"), "n_families": _g(s, "n_families")}
        for k, what in (("top1", "best model"), ("top3", "ordered top three")):
            unsat = _g(s, f"{k}_share_unsat")
            rows.append(evidence_row(
                claim_id=f"fk.{a}_{b}.{k}", kind="share",
                claim=f"{A} and {B} pick a different {what} in {paper[k]:.0%} of tasks",
                paper_value=paper[k], estimate=_g(s, f"{k}_share"), ci_lo=_g(s, f"{k}_lo"), ci_hi=_g(s, f"{k}_hi"),
                detail=(f"share of tasks, 95% cluster-bootstrap interval over families; without saturated tasks "
                        f"{unsat:.2f}" if np.isfinite(unsat) else "share of tasks, 95% cluster-bootstrap interval over families"),
                **common))
        rows.append(evidence_row(
            claim_id=f"fk.{a}_{b}.spearman", kind="correlation",
            claim=f"{A} and {B} ranks correlate at {paper['spearman']:.2f} (paper: correlation of the ranks)",
            paper_value=paper["spearman"], estimate=_g(s, "spearman_mean"), ci_lo=_g(s, "spearman_lo"),
            ci_hi=_g(s, "spearman_hi"),
            detail="mean over tasks of the per-task Spearman correlation of the 30 models' ranks, 95% cluster-bootstrap "
                   "interval over families", **common))
    return rows


def within_task_order_evidence(summary: pd.DataFrame) -> list[dict[str, object]]:
    """AUCNPR orders every task's models as AUPR does (largest share of tasks where they differ)."""
    s = _pair(summary, "aupr", "aucnpr")
    if s is None:
        return []
    dev = max(_g(s, "top1_share"), _g(s, "top3_share"))
    return [evidence_row(
        paper="boyd-2012", claim_id="boyd.aucnpr_orders_as_aupr", kind="exact", tolerance=1e-9,
        claim="Within a task AUCNPR is an increasing function of AUPR, so both order the models identically",
        estimate=dev, n_tasks=_g(s, "n_tasks"), n_families=_g(s, "n_families"),
        detail=(f"deviation = the larger of the shares of tasks where AUPR and AUCNPR differ on the top-1 and on the "
                f"top-3; mean Spearman {_g(s, 'spearman_mean'):.6f} (ties at 12 decimals can split under one metric only)"))]


def _pair_key(a: str, b: str) -> str:
    """``a_b`` in Flach & Kull's order when the pair is one of theirs (the other ``px.`` rows' ids)."""
    return f"{b}_{a}" if (b, a) in FK_PAIRS else f"{a}_{b}"


def cd_order_evidence(pairs: pd.DataFrame) -> list[dict[str, object]]:
    """One ``test`` row per metric pair of ``cd_metric_pairs.csv`` (``px.<a>_<b>.cd.order``): does
    the learner order across tasks differ between the two metrics beyond noise? ``estimate`` = the
    sign-flip p-value, ``tolerance`` = its alpha; the detail gives the tasks and learners, the
    learners that move and the calibrated false rate and power. A pair the cd job could not test
    (no learner shared by two tasks: its ``note``) gets a row without p-value that says why."""
    rows: list[dict[str, object]] = []
    for _, r in pairs.iterrows():
        a, b = str(r["metric_a"]), str(r["metric_b"])
        A, B = METRIC_LABELS.get(a, a), METRIC_LABELS.get(b, b)
        p, alpha = _g(r, "p_value"), _g(r, "alpha")
        n_tasks, k = _g(r, "n_tasks"), _g(r, "n_learners")
        claim = f"{A} and {B} order the learners differently across tasks (beyond noise)"
        if not np.isfinite(p):
            note = str(r.get("note", "") or "")
            detail = note if note and note != "nan" else "the cd job wrote no p-value for this pair"
        else:
            moved = str(r.get("learners_moved", "") or "")
            moved = "" if moved == "nan" else moved
            how = "all sign flips" if bool(r.get("exact", False)) else f"{int(_g(r, 'n_perm'))} random sign flips"
            detail = (f"sign-flip test of the two metrics' within-task ranks over {int(n_tasks)} tasks and {int(k)} "
                      f"learners ({how}; cd_metric_pairs.csv); Spearman correlation of the average ranks "
                      f"{_g(r, 'spearman_average_ranks'):.3f}; learners that move (Wilcoxon-Holm): "
                      f"{moved if moved else 'none'}")
            fr, pw = _g(r, "false_rate"), _g(r, "power_planted_reversal")
            if np.isfinite(fr) and np.isfinite(pw):
                detail += (f"; calibrated at {int(n_tasks)} tasks x {int(k)} learners ({int(_g(r, 'calibration_n_sim'))} "
                           f"simulations): false rate {fr:.3f} (MC SE {_g(r, 'false_rate_se'):.3f}) with exchangeable "
                           f"metrics, power {pw:.2f} (MC SE {_g(r, 'power_se'):.2f}) when one metric swaps the best "
                           f"and the worst learner")
            else:
                detail += "; no calibration (prspace cd --n-sim 0)"
        rows.append(evidence_row(
            paper="prspace", claim_id=f"px.{_pair_key(a, b)}.cd.order", kind="test", claim=claim,
            estimate=p, tolerance=alpha if np.isfinite(alpha) else float("nan"), n_tasks=n_tasks, detail=detail))
    return rows
