"""The steps of the Boyd et al. (2012) rules (``workflow/rules/steps.smk``), run by ``prspace step NAME``.

Each function reads its rule's input files (``inputs``: role -> path or paths, the roles a
``TypedDict``) and its settings (keyword-only, every value from the study's configuration), and
returns the :class:`~prspace.core.steps.StepOutput` that :func:`prspace.core.steps.write_step`
writes; what each table shows and says is in :mod:`prspace.experiments.boyd.boyd_tables`:

- :func:`boyd_theory_data_step`: the tables of Boyd Figures 1-4 (exact curves, no data);
- :func:`boyd_paper_tables_step`: Boyd's Tables 3 and 2 checked against Theorem 2;
- :func:`boyd_pr_prg_step`: Flach and Kull Figure 2 on one real model's scores of the study;
- :func:`boyd_downsampling_report_step` / :func:`boyd_fold_skew_report_step`: sections 4.3 and 4.1 over the
  tasks' runs;
- :func:`boyd_fold_skew_mechanism_step`: section 4.1 on one simulated model;
- :func:`boyd_aggregation_step`: section 4.2 from the metrics table;
- :func:`boyd_evidence_step`: one evidence row per claim (:mod:`prspace.experiments.boyd.boyd_evidence`).

The per-task runs (``prspace boyd downsample`` / ``fold-skew``:
:func:`prspace.experiments.boyd.downsampling.task_runs`, :func:`prspace.experiments.boyd.fold_skew.task_runs`;
the command line loads the dataset and builds the learners, as experiments read no source) are parquet files with a note, one per task, which
the generic step command does not write; they stay sub-commands of ``prspace boyd``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NotRequired, TypedDict

import pandas as pd

from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.core.steps import StepOutput, TableOut
from prspace.experiments.boyd import boyd_tables as bt
from prspace.experiments.boyd.boyd_evidence import DEFAULT_RESAMPLES, boyd_evidence_tables
from prspace.experiments.boyd.boyd_theory_data import theory_tables

__all__ = [
    "boyd_aggregation_step",
    "boyd_downsampling_report_step",
    "boyd_evidence_step",
    "boyd_fold_skew_mechanism_step",
    "boyd_fold_skew_report_step",
    "boyd_paper_tables_step",
    "boyd_pr_prg_step",
    "read_metrics",
    "read_runs",
    "boyd_theory_data_step",
]


class NoInputs(TypedDict):
    """A step that reads no file."""


class StatusInputs(TypedDict):
    status: list[Path]  # every task's status JSON


class RunsInputs(TypedDict):
    runs: NotRequired[list[Path]]  # every qualifying task's runs; none: the tables say no task qualified


class MetricsInputs(TypedDict):
    metrics: Path  # the study's metrics table


class EvidenceInputs(TypedDict):
    tasks: Path  # the task table (family column: the bootstrap clusters)
    metrics: NotRequired[Path]  # section 4.2 and Table 2 rows
    mechanism: NotRequired[Path]  # the fold-skew mechanism table (the 4.1 row's detail)
    downsampling_runs: NotRequired[list[Path]]  # section 4.3 rows (none: no task qualified, or the experiment is off)
    fold_skew_runs: NotRequired[list[Path]]  # section 4.1 rows (likewise)


def boyd_theory_data_step(inputs: NoInputs) -> StepOutput:
    """Step ``boyd_theory_data``: the tables of Boyd Figures 1-4 (:func:`prspace.experiments.boyd.boyd_theory_data.theory_tables`)."""
    tables = theory_tables()
    return StepOutput(figure_data=[(d, tables[d.name]) for d in R.STEP_BOYD_THEORY_DATA.figure_data])


def boyd_paper_tables_step(inputs: NoInputs) -> StepOutput:
    """Step ``boyd_paper_tables``: :func:`~prspace.experiments.boyd.boyd_tables.paper_tables_report`."""
    return bt.paper_tables_report()


def boyd_pr_prg_step(inputs: StatusInputs, *, task: str, model: str, target_positives: int) -> StepOutput:
    """Step ``boyd_pr_prg``: :func:`~prspace.experiments.boyd.boyd_tables.pr_prg_report` of the tasks' statuses."""
    return bt.pr_prg_report(inputs["status"], task=task, model=model, target_positives=target_positives)


def boyd_downsampling_report_step(inputs: RunsInputs, *, study: str = "", criteria: str = "") -> StepOutput:
    """Step ``boyd_downsampling_report``: :func:`~prspace.experiments.boyd.boyd_tables.downsampling_report`
    of the runs; ``criteria`` says how the tasks were chosen (the notes)."""
    return bt.downsampling_report(read_runs(inputs.get("runs", [])), study=study, criteria=criteria)


def boyd_fold_skew_report_step(inputs: RunsInputs, *, study: str = "", criteria: str = "") -> StepOutput:
    """Step ``boyd_fold_skew_report``: :func:`~prspace.experiments.boyd.boyd_tables.fold_skew_report` of the runs."""
    return bt.fold_skew_report(read_runs(inputs.get("runs", [])), study=study, criteria=criteria)


def boyd_fold_skew_mechanism_step(inputs: NoInputs, *, n_sim: int, seed: int) -> StepOutput:
    """Step ``boyd_fold_skew_mechanism``: :func:`~prspace.experiments.boyd.boyd_tables.fold_skew_mechanism_report`
    with ``n_sim`` simulations per model (2 to 2000)."""
    if not 2 <= n_sim <= 2000:
        raise InputError(f"n_sim must be between 2 and 2000, got {n_sim} (boyd.evidence.mechanism_n_sim)")
    if seed < 0:
        raise InputError(f"seed must be a non-negative integer, got {seed}")
    return bt.fold_skew_mechanism_report(n_sim=n_sim, seed=seed)


def boyd_aggregation_step(inputs: MetricsInputs, *, learner: str, skew_groups: int, study: str = "") -> StepOutput:
    """Step ``boyd_aggregation``: :func:`~prspace.experiments.boyd.boyd_tables.aggregation_report` of the
    metrics table, ``skew_groups`` equal-size groups of tasks by pi."""
    return bt.aggregation_report(read_metrics(inputs["metrics"]), learner=learner, skew_groups=skew_groups,
                                 study=study)


def boyd_evidence_step(inputs: EvidenceInputs, *, learner: str, n_resamples: int, seed: int, max_pi: float,
                  min_positives: int, downsampling_scope: str) -> StepOutput:
    """Step ``boyd_evidence``: :func:`evidence_from_files`; a role
    left out (its experiment off, or no task qualified) gives none of its rows. ``max_pi``,
    ``min_positives``: the downsampling's eligibility; ``downsampling_scope``: what it ran and why
    not more."""
    evidence, values = evidence_from_files(
        metrics=inputs.get("metrics"), tasks=inputs["tasks"], mechanism=inputs.get("mechanism"),
        downsampling_runs=inputs.get("downsampling_runs"), fold_skew_runs=inputs.get("fold_skew_runs"),
        learner=learner, n_resamples=n_resamples, seed=seed, max_pi=max_pi, min_positives=min_positives,
        downsampling_scope=downsampling_scope)
    return StepOutput([TableOut(R.BOYD_EVIDENCE, evidence), TableOut(R.BOYD_EVIDENCE_VALUES, values)])


# --- the files the steps read (the science takes their frames) -----------------------------------


def read_runs(paths: Sequence[str | Path]) -> pd.DataFrame:
    """The runs files (parquet) of ``boyd downsample`` / ``boyd fold-skew``, concatenated; empty files
    (skipped tasks) are left out.  Raises :class:`InputError` naming a missing file."""
    frames = []
    for p in map(Path, paths):
        if not p.is_file():
            raise InputError(f"no runs file at {p}; run the step that makes it")
        frames.append(pd.read_parquet(p))
    frames = [f for f in frames if len(f)]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def read_metrics(path: str | Path) -> pd.DataFrame:
    """The study's metrics table; :class:`InputError` if it is missing or has no rows."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"no metrics table at {path}; run `prspace step collect` first")
    df = pd.read_csv(path)
    if df.empty:
        raise InputError(f"the metrics table {path} has no rows; no task was scored")
    return df


def evidence_from_files(
    *, metrics: object = None, tasks: object = None, downsampling_runs: Sequence[object] | None = None,
    fold_skew_runs: Sequence[object] | None = None, mechanism: object = None, learner: str = "flow_id",
    n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0, max_pi: float = 0.1,
    min_positives: int = 25, downsampling_scope: str = "",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`boyd_evidence_tables` from a study's files (every path checked before any work)."""
    for what, p, fix in (("metrics table", metrics, "run `prspace step collect` first"),
                         ("task table", tasks, "run the task selection step first"),
                         ("fold-skew mechanism table", mechanism, "run `prspace boyd fold-skew-mechanism` first")):
        if p is not None and not Path(p).is_file():
            raise InputError(f"no {what} at {p}; {fix}")
    if seed < 0:
        raise InputError(f"--seed must be a non-negative integer, got {seed}")
    if n_resamples < 40:
        raise InputError(f"--n-resamples must be at least 40 (20 batches of 2), got {n_resamples}")
    ds_runs = None if downsampling_runs is None else read_runs(downsampling_runs)
    fs_runs = None if fold_skew_runs is None else read_runs(fold_skew_runs)
    mt = pd.read_csv(metrics) if metrics is not None else None
    tt = pd.read_csv(tasks) if tasks is not None else None
    mech = pd.read_csv(mechanism) if mechanism is not None else None
    return boyd_evidence_tables(metrics_table=mt, tasks=tt, downsampling_runs=ds_runs, fold_skew_runs=fs_runs, mechanism=mech,
                         learner=learner, n_resamples=n_resamples, seed=seed, max_pi=max_pi,
                         min_positives=min_positives, downsampling_scope=downsampling_scope)
