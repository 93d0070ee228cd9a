"""Steps ``noise_floor`` and ``calibrate``: how often each metric disagrees with itself on resampled test
rows (:mod:`prspace.experiments.noise.noise_floor`: stratified bootstrap with counts, seeded), and the false
rate and power of the noise floor's "distinguishable" check by simulation at the study's task sizes
(:mod:`prspace.experiments.noise.noise_calibration`), with the calibration tables' titles and notes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TypedDict

import pandas as pd

from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.core.memory import keep_freed_memory
from prspace.core.steps import StepOutput, TableOut
from prspace.experiments.noise import noise_calibration as C
from prspace.experiments.noise.noise_floor import study_noise_floors
from prspace.experiments.ranking import PAPER_RESULTS

log = logging.getLogger(__name__)

SUMMARY_NOTE = ("one-sided alpha {alpha} per component test (an intersection-union test: size <= alpha). "
                "false_rate_null: both metrics equal; false_rate_eq_a (eq_b): metric a (b) equal, the other "
                "preferring one model (other_power: how often its test rejects); false_rate, false_rate_upper: the "
                "largest of the three (+ 2 Monte Carlo se). mdr80: the smallest planted reversal such that every "
                "larger planted one was detected with power >= 0.8 (empty: none was; then max_reversal and "
                "power_at_max); docs/calibration.md")


class NoiseFloorInputs(TypedDict):
    """The input of step ``noise_floor``: every task's prediction status file."""

    status: list[Path]


def noise_floor_step(inputs: NoiseFloorInputs, *, metrics: Sequence[str], n_boot: int, seed: int,
                     alpha: float, jobs: int = 1) -> StepOutput:
    """Step ``noise_floor``: per task and metric the top-1 / top-3 floors, per task and metric pair the
    distinguishable disagreement (:func:`~prspace.experiments.noise.noise_floor.study_noise_floors`;
    ``alpha``: one-sided level of each of the two tests of a distinguishable disagreement; ``jobs``: the
    tasks in that many processes, the same tables)."""
    t0 = time.process_time()
    floors, pairs = study_noise_floors(inputs["status"], metrics=list(metrics), n_boot=n_boot, seed=seed, alpha=alpha,
                                       jobs=jobs)
    log.info("noise floor of %d tasks, %d resamples each: %.1f CPU s in this process (%d at once)",
             floors["task_id"].nunique() if len(floors) else 0, n_boot, time.process_time() - t0, max(jobs, 1))
    return StepOutput(tables=[TableOut(R.NOISE_FLOOR_PER_TASK, floors), TableOut(R.NOISE_FLOOR_PAIRS, pairs)])


class CalibrateInputs(TypedDict):
    """The input of step ``calibrate``: the study's task table (n, n_pos, status)."""

    tasks: Path


def calibrate_step(inputs: CalibrateInputs, *, n_sim: int, n_sim_null: int, n_boot: int, seed: int, auroc: float,
                   rho: float, sigmas: Sequence[float], sigmas_a: Sequence[float], alpha: float,
                   mc_error: float | None) -> StepOutput:
    """Step ``calibrate``: :func:`~prspace.experiments.noise.noise_calibration.calibrate` at the quartiles of the study's
    task sizes for Flach & Kull's metric pairs: two binormal models (``auroc``: model A's population AUROC,
    ``rho``: the latent scores' correlation, ``sigmas`` / ``sigmas_a``: the positive scores' standard
    deviations of the planted reversals), ``n_sim`` tasks per planted reversal and ``n_sim_null`` per null
    (a study of fewer than 3 tasks caps both at ceil(0.25 / mc_error^2)), ``n_boot`` resamples each (the
    noise floor's), one-sided level ``alpha``."""
    if not (0.0 < alpha < 0.5):
        raise InputError(f"alpha must lie in (0, 0.5) (a one-sided level such as 0.05), got {alpha}")
    if n_sim < 1 or n_sim_null < 1 or n_boot < 10:
        raise InputError(f"n_sim and n_sim_null must be >= 1 and n_boot >= 10, got {n_sim}, {n_sim_null}, {n_boot}")
    keep_freed_memory()
    tasks = pd.read_csv(inputs["tasks"], dtype={"task_id": str})
    n_sim, n_sim_null = C.small_study_replicates(tasks, (n_sim, n_sim_null), mc_error)
    t0 = time.process_time()
    table, summary = C.calibrate(tasks, pairs=list(PAPER_RESULTS), n_sim=n_sim, n_sim_null=n_sim_null, n_boot=n_boot,
                                 seed=seed, auroc=auroc, rho=rho, sigmas=list(sigmas), sigmas_a=list(sigmas_a),
                                 alpha=alpha)
    log.info("calibration: %d scenarios, %.1f CPU s", len(table), time.process_time() - t0)
    small = C.is_small_study(tasks) and mc_error is not None
    mc = (f"A study of fewer than 3 tasks: {n_sim} simulated tasks per planted reversal and {n_sim_null} per null "
          f"(mc_error {mc_error:g}: the Monte Carlo standard error of every rate is at most {mc_error:g}; "
          "rate_se gives each; docs/workflow.md, \"Time and Monte Carlo error\").") if small else ""
    return StepOutput(tables=[
        TableOut(R.CALIBRATION, table, mc or None, "Calibration of the distinguishable check: every simulated scenario"),
        TableOut(R.CALIBRATION_SUMMARY, summary, SUMMARY_NOTE.format(alpha=alpha) + (f". {mc}" if small else ""),
                 "Calibration of the distinguishable check: false rates and mdr80"),
    ])
