"""Step ``panel_draws``: :func:`prspace.experiments.fk.panel_draws.panel_draws` on the study's tasks with
status ok, with the table's note (its source as the ranking tables name it: ``rank_step.source_label``) and
a title that says how many of how many models are drawn."""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

import pandas as pd

from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.core.steps import StepOutput, TableOut
from prspace.experiments.fk.panel_draws import METRICS, panel_draws
from prspace.experiments.steps.rank_step import source_label


class PanelDrawsInputs(TypedDict):
    """Step ``panel_draws``: the study's metrics table and task table."""

    metrics: Path
    tasks: Path


#: the task table's columns the step reads (the tasks with status ok; the source label)
TASK_COLUMNS = {"task_id", "status", "source", "n_models", "provenance", "estimation_procedure"}

NOTE = ("Source: {source}. Flach & Kull drew 30 models per task at random from different flows; here each task's panel is redrawn: "
        "{k} of its models without replacement, independently per task, {n} times (seed {seed}). estimate_all: on every "
        "model (the study's estimate); p05/p50/p95, sd, min, max: over the draws. Saturated tasks count as agreement, "
        "as in the primary rows.")


def title(panel_size: int, models_per_task: list[int]) -> str:
    """The table's title, with how many models are drawn of how many: ``random 20-of-30 model panels``
    when every task has 30 models, ``random 30-of-40-to-45`` when tasks have 40 to 45 (a task with
    fewer models than ``panel_size`` keeps all of them)."""
    lo, hi = min(models_per_task, default=0), max(models_per_task, default=0)
    pool = f"{lo}" if lo == hi else f"{lo}-to-{hi}"
    return f"Panel draws: each primary estimate over random {panel_size}-of-{pool} model panels per task"


def panel_draws_step(inputs: PanelDrawsInputs, *, n_draws: int, panel_size: int, seed: int) -> StepOutput:
    """Step ``panel_draws``: :func:`panel_draws` on the tasks of ``tasks.csv`` with status ok; the title says
    how many of each task's models (those with every metric) are drawn."""
    m = pd.read_csv(inputs["metrics"], dtype={"task_id": str, "model_id": str})
    t = pd.read_csv(inputs["tasks"], dtype={"task_id": str})
    if missing := sorted(TASK_COLUMNS - set(t.columns)):
        raise InputError(f"the task table {inputs['tasks']} lacks column(s) {missing}; rerun `prspace step collect`")
    ok = t[t["status"] == "ok"]["task_id"]
    ids = sorted(set(ok) & set(m["task_id"]))
    table = panel_draws(m, n_draws=n_draws, panel_size=panel_size, seed=seed, task_ids=ids)
    scored = m[m["task_id"].isin(ids)].dropna(subset=list(METRICS))
    counts = scored.groupby("task_id")["model_id"].nunique().tolist()
    note = NOTE.format(source=source_label(t), k=panel_size, n=n_draws, seed=seed)
    return StepOutput(tables=[TableOut(R.PANEL_DRAWS, table, note, title=title(panel_size, counts))])
