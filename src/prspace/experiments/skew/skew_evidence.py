"""Evidence rows (:mod:`prspace.core.evidence`) of skew as the explanation of the metrics'
disagreement, from the trend and counterfactual tables of :mod:`prspace.experiments.skew.skew_explanation`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.core import registry as R
from prspace.core.claims import claim as registry_claim
from prspace.core.defaults import N_BOOT
from prspace.core.errors import InputError
from prspace.core.evidence import evidence_frame, evidence_row
from prspace.experiments.ranking import METRIC_LABELS, PAPER_N_TASKS, PAPER_RESULTS
from prspace.experiments.skew.skew_explanation import (
    BALANCE_EDGES,
    REFERENCE_DISTRIBUTION,
    REFERENCE_MEDIAN,
    TOP_K,
    _pair_row,
    counterfactual_summary,
    disagreement_by_balance,
    reference_pi,
    skew_trend,
)


def skew_evidence(
    trend: pd.DataFrame, counterfactual: pd.DataFrame, *, reference_name: str,
    pairs: Sequence[tuple[str, str]] | None = None, own_reference: bool = False,
) -> pd.DataFrame:
    """Evidence rows (:func:`prspace.core.evidence.evidence_row`) for skew as the explanation; all
    this project's own (``paper = "prspace"``). Per pair of Flach & Kull's and k in (1, 3):

    * ``px.<a>_<b>.top<k>.skew_trend`` (kind ``direction``, claimed +1): the top-k
      disagreement rises as pi falls, with the same models and scores (:func:`skew_trend`);
    * ``px.<a>_<b>.top<k>.at_paperlike_pi_distribution`` (kind ``share``): this study's share with
      each task reweighted to the reference suite's pi distribution (quantile matched,
      :func:`counterfactual_summary`), compared with the paper's share ``fk.<a>_<b>.top<k>`` and its
      margin (registry);
    * ``px.<a>_<b>.top<k>.at_paperlike_pi``: every task at the reference's median pi. A candidate:
      :func:`prspace.verdicts.controlled_skew_step.shown_skew_evidence` keeps it only where its verdict differs from
      the distribution row's (else it says the same); this module decides nothing.

    No counterfactual row when ``own_reference`` (the reference population is the study's own
    tasks: the counterfactual would repeat the study's shares). Every number in a claim or detail
    is formatted from the tables.
    """
    rows = []
    for a, b in pairs or list(PAPER_RESULTS):
        name = f"{METRIC_LABELS.get(a, a)} vs {METRIC_LABELS.get(b, b)}"
        for k in TOP_K:
            tr = _pair_row(trend, a, b, k=k)
            if tr is not None:
                rows.append(evidence_row(
                    paper="prspace", claim_id=f"px.{a}_{b}.top{k}.skew_trend", kind="direction", paper_value=1.0,
                    claim=f"The {name} top-{k} disagreement rises as pi falls, with the same models and scores",
                    estimate=tr["slope"], ci_lo=tr["slope_lo"], ci_hi=tr["slope_hi"], n_tasks=tr["n_tasks"],
                    n_families=tr["n_families"], level=0.95, mc_error=tr.get("mc_error", float("nan")),
                    detail=(f"slope {tr['slope']:.3g} per decade of falling pi (least squares over "
                            f"{int(tr['n_targets'])} target pi values, negatives reweighted); share "
                            f"{tr['share_at_max_pi']:.3g} at pi {tr['pi_max']:.3g}, {tr['share_at_min_pi']:.3g} "
                            f"at pi {tr['pi_min']:.3g}")))
            ref = registry_claim(f"fk.{a}_{b}.top{k}")
            if own_reference or ref is None or not len(counterfactual):
                continue
            cf_rows = {}
            for tid, suffix in ((REFERENCE_DISTRIBUTION, "at_paperlike_pi_distribution"),
                                (REFERENCE_MEDIAN, "at_paperlike_pi")):
                cf = _pair_row(counterfactual, a, b, k=k, target_id=tid)
                if cf is None:
                    continue
                if tid == REFERENCE_MEDIAN:
                    claim = (f"Top-{k} {name} disagreement at the {reference_name} suite's median pi "
                             f"({cf['pi_target_median']:.3g})")
                    how = f"every task's negatives reweighted to pi {cf['pi_target_median']:.3g}"
                else:
                    claim = (f"Top-{k} {name} disagreement at the {reference_name} suite's pi distribution "
                             f"({cf['pi_target_min']:.3g} to {cf['pi_target_max']:.3g}, quantile matched)")
                    how = (f"each task's negatives reweighted to the {reference_name} suite's pi at the task's "
                           f"pi-quantile ({cf['pi_target_min']:.3g} to {cf['pi_target_max']:.3g}, median "
                           f"{cf['pi_target_median']:.3g})")
                cf_rows[tid] = evidence_row(
                    paper="prspace", claim_id=f"px.{a}_{b}.top{k}.{suffix}", kind="share", paper_value=ref.paper_value,
                    tolerance=ref.margin, claim=claim, estimate=cf["share"], ci_lo=cf["lo"], ci_hi=cf["hi"],
                    n_tasks=cf["n_tasks"], n_families=cf["n_families"], level=0.95,
                    mc_error=cf.get("mc_error", float("nan")),
                    detail=(f"this project's counterfactual, compared with Flach & Kull's {ref.paper_value:g} "
                            f"({ref.claim_id}, margin {ref.margin:.3f}); {int(cf['n_tasks'])} tasks of this study, "
                            f"{how}; reference: {int(cf['n_reference'])} tasks of the {reference_name} suite; the "
                            f"paper: {PAPER_N_TASKS} OpenML tasks"))
            rows += [cf_rows[tid] for tid in (REFERENCE_DISTRIBUTION, REFERENCE_MEDIAN) if tid in cf_rows]
    return evidence_frame(rows)


def is_own_reference(tasks: pd.DataFrame, reference: Sequence[float]) -> bool:
    """Whether the reference population is the study's own tasks: the usable tasks' pi
    (:func:`reference_pi`) of the study's task table equal the reference's."""
    try:
        own = reference_pi(tasks, name="the study's task table")
    except InputError:
        return False
    ref = np.sort(np.asarray(reference, dtype=np.float64))
    return len(own) == len(ref) and bool(np.allclose(own, ref, rtol=0, atol=1e-12))


def skew_analysis(
    per_task: pd.DataFrame, cf_per_task: pd.DataFrame, observed: pd.DataFrame, tasks: pd.DataFrame, *,
    reference: Sequence[float], reference_name: str, edges: Sequence[float] = BALANCE_EDGES,
    n_boot: int = N_BOOT, seed: int = 0,
) -> dict[str, pd.DataFrame]:
    """The tables of skew as a tested explanation: ``controlled_skew_trend`` (:func:`skew_trend`),
    ``controlled_skew_counterfactual`` (:func:`counterfactual_summary`), ``disagreement_by_balance``
    (:func:`disagreement_by_balance` of the study's own per-task table ``observed``) and
    ``skew_evidence`` (:func:`prspace.experiments.skew.skew_evidence.skew_evidence`: every candidate row;
    :func:`prspace.verdicts.controlled_skew_step.shown_skew_evidence` keeps the rows shown); every interval from the
    same seed."""
    trend = skew_trend(per_task, tasks=tasks, n_boot=n_boot, seed=seed)
    cf = counterfactual_summary(cf_per_task, reference=reference, tasks=tasks, n_boot=n_boot, seed=seed)
    balance = disagreement_by_balance(observed, tasks, edges=edges, n_boot=n_boot, seed=seed)
    evidence = skew_evidence(trend, cf, reference_name=reference_name, own_reference=is_own_reference(tasks, reference))
    return {R.CONTROLLED_SKEW_TREND.name: trend, R.CONTROLLED_SKEW_COUNTERFACTUAL.name: cf,
            R.DISAGREEMENT_BY_BALANCE.name: balance, R.SKEW_EVIDENCE.name: evidence}
