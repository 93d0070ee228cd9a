"""Step ``score``: one task's per-model and per-fold metrics (:func:`prspace.experiments.fk.scoring.score_task`)
from its predictions, run by ``prspace step score`` and, in the same process, by each job of rule ``predict``."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TypedDict

from prspace.core.contracts import task_predictions
from prspace.core.steps import StepOutput
from prspace.experiments.fk.scoring import empty_folds, empty_metrics, score_task

log = logging.getLogger(__name__)


class ScoreInputs(TypedDict):
    """The input of step ``score``: one task's prediction status."""

    status: Path


def score_step(inputs: ScoreInputs) -> StepOutput:
    """Step ``score``: one task's per-model metrics (file ``metrics``) and per-fold metrics (file ``folds``),
    :func:`score_task` of its predictions; a skipped task (its status says so) gives empty tables."""
    status, df, task = task_predictions(inputs["status"])
    if df is not None:
        per_model, folds = score_task(df, task)
        log.info("task %s: scored %d models", task.task_id, len(per_model))
    else:
        per_model, folds = empty_metrics(), empty_folds()
        log.info("task %s skipped (%s): empty tables", status.task_id, status.reason or "")
    return StepOutput(files={"metrics": per_model, "folds": folds})
