"""Step ``panel_draws``: :func:`prspace.experiments.fk.panel_draws.panel_draws` on the study's tasks with
status ok, with the table's note."""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

import pandas as pd

from prspace.core import registry as R
from prspace.core.steps import StepOutput, TableOut
from prspace.experiments.fk.panel_draws import panel_draws


class PanelDrawsInputs(TypedDict):
    """Step ``panel_draws``: the study's metrics table and task table."""

    metrics: Path
    tasks: Path


NOTE = ("Flach & Kull drew 30 models per task at random from different flows; here each task's panel is redrawn: "
        "{k} of its models without replacement, independently per task, {n} times (seed {seed}). estimate_all: on every "
        "model (the study's estimate); p05/p50/p95, sd, min, max: over the draws. Saturated tasks count as agreement, "
        "as in the primary rows.")


def panel_draws_step(inputs: PanelDrawsInputs, *, n_draws: int, panel_size: int, seed: int) -> StepOutput:
    """Step ``panel_draws``: :func:`panel_draws` on the tasks of ``tasks.csv`` with status ok."""
    m = pd.read_csv(inputs["metrics"], dtype={"task_id": str, "model_id": str})
    t = pd.read_csv(inputs["tasks"], dtype={"task_id": str})
    ok = t[t["status"] == "ok"]["task_id"] if "status" in t.columns else t["task_id"]
    ids = sorted(set(ok) & set(m["task_id"]))
    table = panel_draws(m, n_draws=n_draws, panel_size=panel_size, seed=seed, task_ids=ids)
    return StepOutput(tables=[TableOut(R.PANEL_DRAWS, table, NOTE.format(k=panel_size, n=n_draws, seed=seed))])
