"""Step ``auroc_bounds``: the study's top-1 disagreements with AUROC that the AUROC gap permits
(:mod:`prspace.experiments.ranking.auroc_flips`; Mihelich et al. 2024), per task and metric, then one
summary row per metric.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

import pandas as pd

from prspace.core import registry as R
from prspace.core.contracts import read_metrics_table
from prspace.core.steps import StepOutput, TableOut
from prspace.experiments.ranking.auroc_flips import flip_summary, flip_table

TITLE = "What a given AUROC allows: top-1 disagreements with AUROC the AUROC gap permits"
NOTE = ("Per task: the best model by AUROC and by the metric; where they differ, whether the range of "
        "the metric at the two AUROCs (Mihelich et al. 2024; prspace.stats.auroc_bounds) lets the second "
        "have the higher value (permitted), the largest AUROC gap that would still permit it, and "
        "tightness = auroc_gap / max_flip_gap. Rows with task_id 'all': per metric, the share permitted.")


class AurocBoundsInputs(TypedDict):
    """The input of step ``auroc_bounds``: the study's metrics table."""

    metrics: Path


def auroc_bounds_step(inputs: AurocBoundsInputs) -> StepOutput:
    """Step ``auroc_bounds``: :func:`~prspace.experiments.ranking.auroc_flips.flip_table` of the metrics table
    and its :func:`~prspace.experiments.ranking.auroc_flips.flip_summary` below it."""
    table = flip_table(read_metrics_table(inputs["metrics"]))
    out = pd.concat([table, flip_summary(table)], ignore_index=True)
    return StepOutput(tables=[TableOut(R.AUROC_BOUNDS, out, NOTE, TITLE)])
