"""Verdicts: what a study's tables say about each claim of the two papers.

:mod:`prspace.verdicts.rule` holds the evidence schema and the one decision rule.
"""

from prspace.verdicts.rule import (
    EVIDENCE_COLUMNS,
    VERDICT_COLUMNS,
    apply_rule,
    evidence_frame,
    evidence_row,
)

__all__ = ["EVIDENCE_COLUMNS", "VERDICT_COLUMNS", "apply_rule", "evidence_frame", "evidence_row"]
