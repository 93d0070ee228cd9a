"""Which of the skew counterfactual's evidence rows a study shows: a choice by verdict, so it is made
here and not in :mod:`prspace.experiments.skew_evidence` (the analyses write rows; only
:mod:`prspace.verdicts` decides what a row means).

The counterfactual has two variants per metric pair and k: the study's tasks moved to the reference
suite's pi *distribution* (``px.<a>_<b>.top<k>.at_paperlike_pi_distribution``, always shown) and to
its *median* pi (``px.<a>_<b>.top<k>.at_paperlike_pi``), shown only where its verdict
(:func:`prspace.verdicts.rule.apply_rule`) differs from the distribution row's: else it says the same.
"""

from __future__ import annotations

import dataclasses

import pandas as pd

from prspace.core import registry as R
from prspace.experiments.controlled_skew_report import SkewReport
from prspace.experiments.controlled_skew_report import skew_report as _skew_report
from prspace.verdicts.rule import apply_rule

#: Suffix of the distribution variant's claim id, appended to the median variant's.
DISTRIBUTION_SUFFIX = "_distribution"
MEDIAN_SUFFIX = ".at_paperlike_pi"

__all__ = ["shown_skew_evidence", "skew_report"]


def shown_skew_evidence(evidence: pd.DataFrame) -> pd.DataFrame:
    """``evidence`` (:func:`prspace.experiments.skew_evidence.skew_evidence`) without the median
    variants whose verdict equals their distribution variant's; a median row without a distribution
    row stays. Order and values of the kept rows unchanged."""
    if not len(evidence):
        return evidence
    verdict = dict(zip(evidence["claim_id"], apply_rule(evidence)["verdict"], strict=True))
    keep = [not (cid.endswith(MEDIAN_SUFFIX) and verdict.get(cid + DISTRIBUTION_SUFFIX) == verdict[cid])
            for cid in evidence["claim_id"]]
    return evidence.loc[keep].reset_index(drop=True)


def skew_report(*args, **kwargs) -> SkewReport:
    """:func:`prspace.experiments.controlled_skew_report.skew_report` (same arguments) with its
    ``skew_evidence`` table reduced to the rows shown (:func:`shown_skew_evidence`)."""
    report = _skew_report(*args, **kwargs)
    tables = [(name, shown_skew_evidence(table) if name == R.SKEW_EVIDENCE.name else table, title, note)
              for name, table, title, note in report.tables]
    return dataclasses.replace(report, tables=tables)
