"""Step ``noise_evidence``: the evidence rows of :func:`prspace.experiments.noise.noise_evidence.noise_evidence`
(is the metrics' disagreement more than noise?) from the noise floor's pair table, the task table and
the calibration summary."""

from __future__ import annotations

from pathlib import Path
from typing import NotRequired, TypedDict

import pandas as pd

from prspace.core import registry as R
from prspace.core.steps import StepOutput, TableOut
from prspace.experiments.noise.noise_evidence import noise_evidence


class NoiseEvidenceInputs(TypedDict):
    """The inputs of step ``noise_evidence``: the noise floor's pair table, the study's task table
    and (optional) the calibration summary."""

    pairs: Path
    tasks: Path
    calibration: NotRequired[Path]


def noise_evidence_step(inputs: NoiseEvidenceInputs, *, n_boot: int, seed: int) -> StepOutput:
    """Step ``noise_evidence`` (``prspace step``): :func:`noise_evidence` of the input tables."""
    pairs = pd.read_csv(inputs["pairs"], dtype={"task_id": str})
    tasks = pd.read_csv(inputs["tasks"], dtype={"task_id": str})
    cal = pd.read_csv(inputs["calibration"]) if "calibration" in inputs else None
    ev = noise_evidence(pairs, tasks, cal, n_boot=n_boot, seed=seed)
    return StepOutput(tables=[TableOut(R.NOISE_EVIDENCE, ev,
                                       title="Evidence rows: is the metrics' disagreement more than noise?")])
