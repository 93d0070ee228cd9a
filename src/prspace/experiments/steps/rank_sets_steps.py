"""Steps ``rank_sets`` and ``rank_set_summary``: confidence sets for ranks per task, and disjoint
plausible-best sets per study (:mod:`prspace.experiments.noise.rank_sets`), with the tables' titles and notes.

* ``rank_sets``: per task, every model's rank interval and the plausible-best set of each metric
  (:func:`~prspace.experiments.noise.rank_sets.task_rank_sets`), one table per task (file ``per_task``, a
  folder) and the study's table stacked.
* ``rank_set_summary``: per metric pair, the share of tasks whose plausible-best sets are disjoint beside
  the plain top-1 share (cluster-bootstrap intervals over families), the calibration by simulation at the
  median task size and the verdict evidence rows.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypedDict

import pandas as pd

from prspace.core import registry as R
from prspace.core.contracts import over_tasks
from prspace.core.errors import InputError
from prspace.core.memory import keep_freed_memory
from prspace.core.steps import StepOutput, TableOut
from prspace.experiments.noise import rank_sets as RS
from prspace.experiments.noise.noise_calibration import (
    is_small_study,
    median_size,
    small_study_replicates,
)

log = logging.getLogger(__name__)


class RankSetsInputs(TypedDict):
    """The input of step ``rank_sets``: every task's prediction status."""

    status: list[Path]


def rank_sets_step(inputs: RankSetsInputs, *, metrics: Sequence[str], n_boot: int, confidence: float,
                   seed: int, jobs: int = 1) -> StepOutput:
    """Step ``rank_sets``: ``n_boot`` paired stratified bootstrap resamples per task (each task draws from
    (``seed``, task)), rank sets of family-wise ``confidence``, for each of ``metrics``; ``jobs``: the tasks in
    that many processes (:func:`prspace.core.contracts.over_tasks`), the same tables."""
    if n_boot < 10:
        raise InputError(f"n_boot must be at least 10, got {n_boot}")
    if not (0.5 < confidence < 1.0):
        raise InputError(f"confidence must lie in (0.5, 1), e.g. 0.95; got {confidence}")
    keep_freed_memory()
    t0 = time.process_time()
    per_task = dict(over_tasks(functools.partial(_task_sets, metrics=list(metrics), n_boot=n_boot, seed=seed,
                                                 confidence=confidence), inputs["status"], jobs=jobs, progress="rank sets"))
    table = (pd.concat(per_task.values(), ignore_index=True) if per_task
             else pd.DataFrame(columns=RS.RANK_SET_COLUMNS))
    log.info("rank sets of %d tasks, %d resamples each: %.1f CPU s in this process (%d at once)", len(per_task), n_boot,
             time.process_time() - t0, max(jobs, 1))
    return StepOutput(tables=[TableOut(R.RANK_SETS, table)], files={"per_task": per_task})


def _task_sets(_status: object, predictions: pd.DataFrame, task: Any, **kw: Any) -> tuple[str, pd.DataFrame]:
    return str(task.task_id), RS.task_rank_sets(predictions, **kw)


class RankSetSummaryInputs(TypedDict):
    """The inputs of step ``rank_set_summary``: the study's rank sets (step ``rank_sets``) and its task
    table (task_id, family, n, n_pos)."""

    rank_sets: Path
    tasks: Path


def rank_set_summary_step(inputs: RankSetSummaryInputs, *, n_boot: int, seed: int, n_sim: int, n_sim_null: int,
                          sim_models: int, sim_boot: int, mc_error: float | None) -> StepOutput:
    """Step ``rank_set_summary``: :func:`~prspace.experiments.noise.rank_sets.summarise` with ``n_boot``
    cluster-bootstrap resamples of families (``seed``), calibrated by ``n_sim`` simulated tasks per planted
    reversal and ``n_sim_null`` per null (``sim_models`` models, ``sim_boot`` resamples each; a study of fewer
    than 3 tasks caps both at ceil(0.25 / mc_error^2)), and the evidence rows."""
    keep_freed_memory()
    table = pd.read_csv(inputs["rank_sets"], dtype={"task": str, "model": str})
    tasks = pd.read_csv(inputs["tasks"], dtype={"task_id": str})
    missing = {"level", "n_resamples"} - set(table.columns)
    if missing:
        raise InputError(f"{inputs['rank_sets']} lacks column(s) {sorted(missing)}; write it with step rank_sets")
    warnings = []
    if table.empty:  # no task had predictions: empty tables, no verdict rows
        warnings.append(f"{inputs['rank_sets']} has no rows: writing empty tables")
        confidence, n_boot_task, n_pos, n_neg = float("nan"), 0, 0, 0
        small = False
        cal = pd.DataFrame(columns=RS.CALIBRATION_COLUMNS)
    else:
        confidence = float(table["level"].iloc[0])
        n_boot_task = int(table["n_resamples"].max())
        t0 = time.process_time()
        n_pos, n_neg = median_size(tasks)
        n_sim, n_sim_null = small_study_replicates(tasks, (n_sim, n_sim_null), mc_error)
        small = is_small_study(tasks) and mc_error is not None
        cal = RS.calibrate_disjoint(n_pos, n_neg, n_models=sim_models, n_sim=n_sim, n_sim_null=n_sim_null,
                                    n_boot=sim_boot, confidence=confidence, seed=seed)
        log.info("calibration at %d/%d: %.1f CPU s", n_pos, n_neg, time.process_time() - t0)
    summary = RS.summarise(RS.pair_table(table), tasks, cal, confidence=confidence, n_boot=n_boot, seed=seed)
    summary_note = (f"Per metric pair: tasks whose {confidence:.0%} plausible-best sets (bootstrap max-T over all pairs "
                    f"of models, {n_boot_task} paired resamples per task) share no model, beside the plain top-1 "
                    f"disagreement; 95% cluster-bootstrap intervals over task families ({n_boot} resamples); "
                    f"false rates and power from rank_set_calibration.csv (docs/analysis.md).")
    cal_note = (f"Median task size of the study ({n_pos} positives, {n_neg} negatives), {sim_models} "
                f"binormal models; rate = share of simulated tasks with disjoint sets (false under the nulls, "
                f"power under a planted reversal)."
                + (f" A study of fewer than 3 tasks: {n_sim} simulated tasks per planted reversal and "
                   f"{n_sim_null} per null (mc_error {mc_error:g}: the Monte Carlo standard error of every "
                   f"rate is at most {mc_error:g}; rate_se gives each; docs/workflow.md)." if small else ""))
    return StepOutput(tables=[
        TableOut(R.RANK_SET_SUMMARY, summary, summary_note, "Disjoint plausible-best sets: disagreement real by construction"),
        TableOut(R.RANK_SET_CALIBRATION, cal, cal_note, "Calibration of disjoint plausible-best sets by simulation"),
        TableOut(R.RANK_SET_EVIDENCE, RS.evidence(summary), None, "Evidence rows: disjoint plausible-best sets"),
    ], warnings=warnings)
