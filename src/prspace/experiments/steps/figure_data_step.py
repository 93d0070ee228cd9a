"""Step ``figure_data``: the tables Flach & Kull (2015) Figures 4 and 5 are drawn from
(:func:`prspace.experiments.fk.fk_figure_data.figure_data`, full precision, for drawing), and which tasks and
models they draw, why (the selection table, with its title and note).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TypedDict

import pandas as pd

from prspace.core import registry as R
from prspace.core.contracts import ok_statuses
from prspace.core.errors import InputError
from prspace.core.schema import read_predictions
from prspace.core.steps import StepOutput, TableOut
from prspace.experiments.fk.fk_figure_data import figure_data
from prspace.experiments.steps.rank_step import source_label

log = logging.getLogger(__name__)

_IDS = {"task_id": str, "model_id": str, "flow_id": str, "flow_name": str}


class FigureDataInputs(TypedDict):
    """The inputs of step ``figure_data``: the study's metrics, ranks (step ``rank``), disagreement per task,
    task table and every task's prediction status (Figure 5 reads the predictions of one task)."""

    metrics: Path
    ranks: Path
    per_task: Path
    tasks: Path
    status: list[Path]


def figure_data_step(inputs: FigureDataInputs, *, band_resamples: int, band_level: float, seed: int) -> StepOutput:
    """Step ``figure_data``: Figures 4 and 5's tables; ``band_resamples`` bootstrap resamples of the bands of
    Figure 5's PR and PRG curves (0: no bands) at ``band_level``, seeded by ``seed``."""
    metrics = pd.read_csv(inputs["metrics"], dtype=_IDS)
    ranks = pd.read_csv(inputs["ranks"], dtype=_IDS)
    per_task = pd.read_csv(inputs["per_task"], dtype={"task_id": str})
    tasks = pd.read_csv(inputs["tasks"], dtype={"task_id": str})
    for m in ("aupr", "auprg"):
        if m not in ranks.columns:
            raise InputError(f"{inputs['ranks']} has no {m} ranks; keep aupr and auprg in analysis.metrics")
    if metrics.empty:
        raise InputError(f"{inputs['metrics']} has no rows: nothing to draw")
    if band_resamples != 0 and band_resamples < 2:
        raise InputError(f"band_resamples must be 0 (no bands) or at least 2, got {band_resamples}")
    if not 0.0 < band_level < 1.0:
        raise InputError(f"band_level must lie strictly between 0 and 1 (e.g. 0.95), got {band_level}")
    predictions = {str(s.task_id): s.predictions for s in ok_statuses(inputs["status"])}

    def load(task: str):
        if task not in predictions:
            raise InputError(f"task {task} has no predictions among the status files given (--in status=...)")
        return read_predictions(predictions[task])

    data = figure_data(metrics, ranks, per_task, tasks, load, source=source_label(tasks),
                       band_resamples=band_resamples, band_level=band_level, seed=seed)
    figure_tables = [(R.FIG4_RANK_COUNTS, data.rank_counts), (R.FIG4_SCATTER, data.scatter),
                     (R.FIG5_CURVE_POINTS, data.curve_points), (R.FIG5_CURVE_AREAS, data.curve_areas),
                     (R.FIGURE_TEXT, data.text)]
    if data.curve_bands is not None:
        figure_tables.append((R.FIG5_CURVE_BANDS, data.curve_bands))
    selection = TableOut(R.FIGURE_SELECTION, data.selection,
                         (f"Saturated tasks left out of Figure 4 (left): {', '.join(data.saturated) or 'none'}. "
                          "Paper (Flach & Kull 2015, Figure 5): AdaBoost vs Logistic Regression on white-clover, "
                          "AUPR 0.724 vs 0.773, AUPRG 0.714 vs 0.687."))
    return StepOutput(tables=[selection], figure_data=figure_tables)
