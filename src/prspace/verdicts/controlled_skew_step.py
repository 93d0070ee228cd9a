"""Step ``controlled_skew``: what it writes for a study, with the tables' titles and notes, and which of the
skew counterfactual's evidence rows it shows.

:func:`skew_report` runs :mod:`prspace.experiments.skew.controlled_skew` over every task with
predictions (its negatives reweighted to each target pi, and to the reference population's pi for
the counterfactual) and returns the per-task tables and every result table with its title and
note: the summary per metric pair and target pi (``R.CONTROLLED_SKEW``), the study's observed
disagreement per bin of pi and of positives (``R.CONTROLLED_SKEW_OBSERVED``), the trend, the
counterfactual, the disagreement by balance level and the evidence rows.

Which evidence rows a study shows is a choice by verdict, so it is made here and not in
:mod:`prspace.experiments.skew.skew_evidence` (the analyses write rows; only :mod:`prspace.verdicts`
decides what a row means). The counterfactual has two variants per metric pair and k: the study's tasks
moved to the reference suite's pi *distribution* (``px.<a>_<b>.top<k>.at_paperlike_pi_distribution``,
always shown) and to its *median* pi (``px.<a>_<b>.top<k>.at_paperlike_pi``), shown only where its verdict
(:func:`prspace.verdicts.rule.apply_rule`) differs from the distribution row's: else it says the same
(:func:`shown_skew_evidence`). :func:`controlled_skew_step` is the step (``prspace step controlled_skew``):
it lives in ``verdicts/`` rather than ``experiments/steps/`` because it calls the decision rule, which the
layers (docs/architecture.md) put above ``experiments``.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TypedDict

import pandas as pd

from prspace.core import registry as R
from prspace.core.contracts import ok_predictions, ok_statuses
from prspace.core.errors import InputError
from prspace.core.steps import StepOutput, TableOut
from prspace.experiments.skew import controlled_skew as CS
from prspace.verdicts.rule import apply_rule

__all__ = ["ControlledSkewInputs", "controlled_skew_step", "shown_skew_evidence", "skew_report"]

log = logging.getLogger(__name__)

#: Suffix of the distribution variant's claim id, appended to the median variant's.
DISTRIBUTION_SUFFIX = "_distribution"
MEDIAN_SUFFIX = ".at_paperlike_pi"


def shown_skew_evidence(evidence: pd.DataFrame) -> pd.DataFrame:
    """``evidence`` (:func:`prspace.experiments.skew.skew_evidence.skew_evidence`) without the median
    variants whose verdict equals their distribution variant's; a median row without a distribution
    row stays. Order and values of the kept rows unchanged."""
    if not len(evidence):
        return evidence
    verdict = dict(zip(evidence["claim_id"], apply_rule(evidence)["verdict"], strict=True))
    keep = [not (cid.endswith(MEDIAN_SUFFIX) and verdict.get(cid + DISTRIBUTION_SUFFIX) == verdict[cid])
            for cid in evidence["claim_id"]]
    return evidence.loc[keep].reset_index(drop=True)


def skew_report(status_paths: Sequence[str | Path], tasks: pd.DataFrame, reference_table: pd.DataFrame,
                observed_per_task: pd.DataFrame, *, targets: Sequence[float], metrics: Sequence[str],
                edges: Sequence[float], n_boot: int, seed: int, reference: str,
                reference_name: str | None = None) -> StepOutput:
    """The controlled-skew tables of a study (module docstring) from the status of every task, its task
    table, the reference population's task table (file ``reference``) and the study's observed
    disagreement per task (``disagreement_per_task``)."""
    CS.balance_levels(edges)
    ref_pi = CS.reference_pi(reference_table, name=reference)
    ref_name = reference_name or CS.reference_name(reference)
    cf_targets = CS.study_counterfactual_targets(tasks, [str(s.task_id) for s in ok_statuses(status_paths)], ref_pi)
    frames, cf_frames = [], []
    for status, df, _ in ok_predictions(status_paths, progress="controlled skew"):
        per_t, cf_t = CS.skew_task(df, targets=targets, metrics=metrics,
                                   counterfactual=cf_targets.loc[str(status.task_id)].to_dict())
        frames.append(per_t)
        cf_frames.append(cf_t)
    per = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=[*CS.PER_TASK_COLUMNS, "is_observed"])
    cf_per = pd.concat(cf_frames, ignore_index=True) if cf_frames else pd.DataFrame(columns=CS.COUNTERFACTUAL_PER_TASK_COLUMNS)
    summary = CS.controlled_skew_summary(per, tasks=tasks, n_boot=n_boot, seed=seed) if len(per) else pd.DataFrame()
    observed = CS.observed_by_bin(observed_per_task, tasks)
    analysis = CS.skew_analysis(per, cf_per, observed_per_task, tasks, reference=ref_pi, reference_name=ref_name,
                                edges=edges, n_boot=n_boot, seed=seed) if len(per) else {
        R.CONTROLLED_SKEW_TREND.name: pd.DataFrame(columns=CS.TREND_COLUMNS),
        R.CONTROLLED_SKEW_COUNTERFACTUAL.name: pd.DataFrame(columns=CS.COUNTERFACTUAL_COLUMNS),
        R.DISAGREEMENT_BY_BALANCE.name: pd.DataFrame(columns=CS.BALANCE_COLUMNS),
        R.SKEW_EVIDENCE.name: CS.skew_evidence(pd.DataFrame(columns=CS.TREND_COLUMNS),
                                               pd.DataFrame(columns=CS.COUNTERFACTUAL_COLUMNS), reference_name=ref_name)}
    boot = f"95% cluster bootstrap over families of tasks, {n_boot} resamples, seed {seed}"
    tables = [
        TableOut(R.CONTROLLED_SKEW_PER_TASK, per),
        TableOut(R.CONTROLLED_SKEW_COUNTERFACTUAL_PER_TASK, cf_per),
        TableOut(R.CONTROLLED_SKEW, summary,
                 ("Every task's negatives reweighted so that the weighted share of positives is pi_target; AUROC and its "
                  "ranks do not move. Shares of tasks; [95% cluster bootstrap over families of tasks, "
                  f"{n_boot} resamples, seed {seed}]."),
                 "Controlled skew: disagreement with the negatives reweighted to pi (same models, same scores)"),
        TableOut(R.CONTROLLED_SKEW_OBSERVED, observed, None,
                 "Observed disagreement per bin of pi and of the number of positives (the study's own tasks)"),
    ]
    texts = {
        R.CONTROLLED_SKEW_TREND: (
            "Controlled skew: how fast each pair's disagreement rises as pi falls (same models, same scores)",
            "slope: least-squares slope of the share of tasks whose top-k differ against -log10(pi_target) over the "
            f"targets {', '.join(f'{t:g}' for t in targets)} (share change per decade of falling pi); "
            f"[slope_lo, slope_hi]: {boot}, every target's share recomputed from the same resampled families and the "
            "slope refit."),
        R.CONTROLLED_SKEW_COUNTERFACTUAL: (
            f"Counterfactual: this study's disagreement with its tasks moved to the pi of the {ref_name} suite",
            f"Reference: {len(ref_pi)} usable tasks of {reference} (median pi {float(pd.Series(ref_pi).median()):.3g}). "
            "reference_median: every task's negatives reweighted to that median pi; reference_distribution: the task at "
            "pi-quantile q of this study reweighted to the reference's pi-quantile q. share: share of tasks whose top-k "
            f"differ; [lo, hi]: {boot}."),
        R.DISAGREEMENT_BY_BALANCE: (
            "Observed disagreement by balance level of the task (the study's own tasks, unweighted)",
            f"Balance levels by the task's pi (edges {', '.join(f'{e:g}' for e in edges)}); 'all' pools every task "
            f"(as disagreement_summary). [lo, hi]: {boot}, within each level."),
        R.SKEW_EVIDENCE: (
            "Evidence rows: skew as the explanation of the AUROC pairs' disagreement (decided by prspace.verdicts.rule)",
            None),
    }
    tables += [TableOut(table, analysis[table.name], note, title) for table, (title, note) in texts.items()
               if table.name in analysis]
    log.info("controlled skew: %d tasks x %d targets; counterfactual reference %s (%d tasks)",
             per["task_id"].nunique() if len(per) else 0, len(targets), reference, len(ref_pi))
    return StepOutput(tables=tables)


class ControlledSkewInputs(TypedDict):
    """The inputs of step ``controlled_skew``: every task's prediction status, the study's task table (pi,
    n_pos, family), its observed disagreement per task (step ``rank``) and the reference population's task
    table (pi, status) of the counterfactual (config ``analysis.skew_reference``)."""

    status: list[Path]
    tasks: Path
    per_task: Path
    reference: Path


def controlled_skew_step(inputs: ControlledSkewInputs, *, metrics: Sequence[str], targets: Sequence[float],
                         n_boot: int, seed: int, reference_name: str | None = None,
                         balance_edges: Sequence[float] = CS.BALANCE_EDGES) -> StepOutput:
    """Step ``controlled_skew``: :func:`skew_report` at the target pi values ``targets``, its evidence table
    reduced to the rows shown (:func:`shown_skew_evidence`); ``reference_name`` names the reference population
    in claims (default: ``<study>`` of ``results/<study>/tables/tasks.csv``, else the file's stem);
    ``balance_edges``: the pi edges of the balance levels."""
    try:
        ref_table = pd.read_csv(inputs["reference"])
    except FileNotFoundError:
        raise InputError(f"reference {inputs['reference']}: no such file; give a finished study's tables/tasks.csv "
                         "(config key analysis.skew_reference)") from None
    out = skew_report(inputs["status"], pd.read_csv(inputs["tasks"], dtype={"task_id": str}), ref_table,
                      pd.read_csv(inputs["per_task"], dtype={"task_id": str}), targets=list(targets),
                      metrics=list(metrics), edges=list(balance_edges), n_boot=n_boot, seed=seed,
                      reference=str(inputs["reference"]), reference_name=reference_name)
    tables = [t._replace(frame=shown_skew_evidence(t.frame)) if t.table == R.SKEW_EVIDENCE else t
              for t in out.tables]
    return dataclasses.replace(out, tables=tables)
