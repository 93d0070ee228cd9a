"""Step ``collect``: the study's metrics table (the per-task tables of step ``score`` stacked) and its
task table (every candidate task with its status, size, skew, family, saturation and provenance).

Apart from :mod:`prspace.experiments.fk.scoring` so that the per-task ``score`` jobs do not import what
the task table needs (:func:`prspace.experiments.ranking.saturation`, scipy).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NotRequired, TypedDict

import pandas as pd

from prspace.core import registry as R
from prspace.core.contracts import read_metrics_table, read_status, read_task_list
from prspace.core.schema import TASK_TABLE_COLUMNS, read_task_info
from prspace.core.steps import StepOutput, TableOut
from prspace.experiments.fk.scoring import METRICS_COLUMNS, empty_metrics
from prspace.experiments.ranking import saturation

log = logging.getLogger(__name__)

#: Task-table columns written to results (created_at is left out: no timestamps in tables).
TASK_COLUMNS = ["task_id", "status", "reason"] + [c for c in TASK_TABLE_COLUMNS if c not in ("task_id", "created_at")]
#: Columns of the task table's Markdown page.
TASK_MD_COLUMNS = ["task_id", "status", "reason", "dataset_name", "family", "n", "n_pos", "pi", "n_models", "saturated",
                   "n_saturated", "estimation_procedure", "provenance"]


def stack_metrics(frames: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """The study's metrics table: the per-task tables (:func:`~prspace.experiments.fk.scoring.score_task`)
    stacked, empty ones left out, in :data:`METRICS_COLUMNS`, sorted by task and model."""
    metrics = pd.concat([f for f in frames if len(f)] or [empty_metrics()], ignore_index=True)
    return metrics[METRICS_COLUMNS].sort_values(["task_id", "model_id"], ignore_index=True)


def task_table(statuses: Sequence[Mapping], infos: Mapping[str, Mapping], metrics: pd.DataFrame,
               listed: pd.DataFrame | None = None) -> pd.DataFrame:
    """The task table: one row per task run (its ``status`` and ``reason``, and for a task that ran
    its :class:`~prspace.core.schema.TaskInfo` fields, ``infos[task_id]``) and per candidate task of the
    task list ``listed`` that did not run (``not run`` if selected, else ``excluded``, with the
    list's reason); its ``family`` (the list's, else the task itself) and saturation
    (:func:`prspace.experiments.ranking.saturation` of ``metrics``).  Sorted by task id."""
    rows = {}
    for st in statuses:
        row = {"task_id": st["task_id"], "status": st["status"], "reason": st.get("reason") or ""}
        rows[st["task_id"]] = row | dict(infos.get(st["task_id"], {}))
    if listed is not None:
        for r in listed.itertuples(index=False):
            if r.task_id not in rows:
                rows[r.task_id] = {"task_id": r.task_id, "status": "not run" if r.selected else "excluded",
                                   "reason": r.reason}
    tasks = pd.DataFrame(list(rows.values())).reindex(columns=TASK_COLUMNS).sort_values("task_id", ignore_index=True)
    family = listed.set_index("task_id")["family"] if listed is not None and "family" in listed.columns else None
    tasks["family"] = tasks["task_id"].map(family) if family is not None else tasks["task_id"]
    tasks["family"] = tasks["family"].where(tasks["family"].notna(), tasks["task_id"])
    sat = saturation(metrics).set_index("task_id") if len(metrics) else pd.DataFrame(columns=["n_saturated", "saturated"])
    tasks["n_saturated"] = tasks["task_id"].map(sat["n_saturated"]).astype("Int64")
    tasks["saturated"] = tasks["task_id"].map(sat["saturated"]).eq(True)  # not scored: False
    for col in ("n", "n_pos", "n_folds", "n_repeats", "n_models"):
        tasks[col] = tasks[col].astype("Int64")
    return tasks


def collect_study(metrics_paths: Sequence[str | Path], status_paths: Sequence[str | Path],
                  task_list: str | Path | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The study's metrics table and task table (:func:`stack_metrics`, :func:`task_table`) from the
    per-task metrics CSVs, the status JSON of every task and the task list (optional); each file is
    checked by :mod:`prspace.core.contracts` (a bad one raises :class:`prspace.core.errors.InputError`)."""
    metrics = stack_metrics([read_metrics_table(p, columns=METRICS_COLUMNS) for p in sorted(map(str, metrics_paths))])
    statuses = [read_status(p) for p in status_paths]
    infos = {st["task_id"]: read_task_info(st["predictions"]).to_dict() for st in statuses if st["status"] == "ok"}
    listed = read_task_list(task_list) if task_list else None
    return metrics, task_table(statuses, infos, metrics, listed)


class CollectInputs(TypedDict):
    """The inputs of step ``collect``: every task's status and per-task metrics, and the candidate tasks
    (the task list of the select step)."""

    status: list[Path]
    metrics: list[Path]
    task_list: NotRequired[Path]


def collect_step(inputs: CollectInputs, *, study: str) -> StepOutput:
    """Step ``collect``: the study's metrics table and task table (:func:`collect_study`), the task table's
    Markdown titled with the study's name and how many of its tasks were scored."""
    metrics, tasks = collect_study(inputs["metrics"], inputs["status"], inputs.get("task_list"))
    n_ok = int((tasks["status"] == "ok").sum())
    log.info("%d tasks scored, %d rows in the metrics table", n_ok, len(metrics))
    return StepOutput(tables=[
        TableOut(R.METRICS, metrics),
        TableOut(R.TASKS, tasks, title=f"Tasks of study {study}: {n_ok} scored of {len(tasks)}",
                 markdown=tasks[TASK_MD_COLUMNS]),
    ])
