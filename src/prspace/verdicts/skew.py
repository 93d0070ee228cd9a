"""Which of the skew counterfactual's evidence rows a study shows: a choice by verdict, so it is made
here and not in :mod:`prspace.experiments.skew.skew_evidence` (the analyses write rows; only
:mod:`prspace.verdicts` decides what a row means).

The counterfactual has two variants per metric pair and k: the study's tasks moved to the reference
suite's pi *distribution* (``px.<a>_<b>.top<k>.at_paperlike_pi_distribution``, always shown) and to
its *median* pi (``px.<a>_<b>.top<k>.at_paperlike_pi``), shown only where its verdict
(:func:`prspace.verdicts.rule.apply_rule`) differs from the distribution row's: else it says the same.
Step ``controlled_skew`` is therefore :func:`controlled_skew_step` here: the experiment's step
(:func:`prspace.experiments.steps.controlled_skew_step.controlled_skew_step`) with that choice applied.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pandas as pd

from prspace.core import registry as R
from prspace.core.steps import StepOutput
from prspace.experiments.skew.controlled_skew import BALANCE_EDGES
from prspace.experiments.steps import controlled_skew_step as controlled_skew_report
from prspace.experiments.steps.controlled_skew_step import ControlledSkewInputs
from prspace.verdicts.rule import apply_rule

#: Suffix of the distribution variant's claim id, appended to the median variant's.
DISTRIBUTION_SUFFIX = "_distribution"
MEDIAN_SUFFIX = ".at_paperlike_pi"

__all__ = ["controlled_skew_step", "shown_skew_evidence"]


def shown_skew_evidence(evidence: pd.DataFrame) -> pd.DataFrame:
    """``evidence`` (:func:`prspace.experiments.skew.skew_evidence.skew_evidence`) without the median
    variants whose verdict equals their distribution variant's; a median row without a distribution
    row stays. Order and values of the kept rows unchanged."""
    if not len(evidence):
        return evidence
    verdict = dict(zip(evidence["claim_id"], apply_rule(evidence)["verdict"], strict=True))
    keep = [not (cid.endswith(MEDIAN_SUFFIX) and verdict.get(cid + DISTRIBUTION_SUFFIX) == verdict[cid])
            for cid in evidence["claim_id"]]
    return evidence.loc[keep].reset_index(drop=True)


def controlled_skew_step(inputs: ControlledSkewInputs, *, metrics: Sequence[str], targets: Sequence[float],
                         n_boot: int, seed: int, reference_name: str | None = None,
                         balance_edges: Sequence[float] = BALANCE_EDGES) -> StepOutput:
    """Step ``controlled_skew``: :func:`prspace.experiments.steps.controlled_skew_step.controlled_skew_step`
    (the same inputs and settings, spelled out: ``prspace step`` checks them against this signature)
    with its evidence table reduced to the rows shown (:func:`shown_skew_evidence`)."""
    out = controlled_skew_report.controlled_skew_step(inputs, metrics=metrics, targets=targets, n_boot=n_boot,
                                                      seed=seed, reference_name=reference_name,
                                                      balance_edges=balance_edges)
    tables = [t._replace(frame=shown_skew_evidence(t.frame)) if t.table == R.SKEW_EVIDENCE else t
              for t in out.tables]
    return dataclasses.replace(out, tables=tables)
