"""``prspace audit``: where AUROC, AP, AUPR, AUCNPR and AUPRG disagree on *your* predictions,
and whether the disagreement is beyond noise.

The package, one job per module:

* :mod:`~prspace.audit.inputs`: which column holds what; the checked canonical frame.
* :mod:`~prspace.audit.columns`: every other column accounted for; wide files (``--score-cols``).
* :mod:`~prspace.audit.rows`: models that lack a few rows paired on the rows they share.
* :mod:`~prspace.audit.tables`: metrics pooled and per fold, every AUPR estimator, ranks.
* :mod:`~prspace.audit.intervals`: DeLong (Sun & Xu's fast algorithm), Boyd et al.'s
  logit and binomial intervals, the counts bootstrap.
* :mod:`~prspace.audit.uncertainty`: per-model intervals and paired comparisons.
* :mod:`~prspace.audit.ranksets`: confidence sets for ranks (:mod:`prspace.stats.ranksets`), per task and metric.
* :mod:`~prspace.audit.bounds`: what the AUROCs allow (:mod:`prspace.stats.auroc_bounds`), per task, metric and pair.
* :mod:`~prspace.audit.sentences`: where the rankings disagree, with the noise floor.
* :mod:`~prspace.audit.findings`: one function per finding, in a registry.
* :mod:`~prspace.audit.tools`: which estimator popular tools compute.
* :mod:`~prspace.audit.record`: :class:`AuditRecord`, what the audit found, as data.
* :mod:`~prspace.audit.render`, :mod:`~prspace.audit.lines`, :mod:`~prspace.audit.plot`: the reports
  and figures (of a record).
* :mod:`~prspace.audit.result`: :func:`audit` (a table, or ``y_true`` with ``scores={name: array}``, in;
  an :class:`AuditResult` out, shown compactly in a notebook); :mod:`~prspace.audit.arrays`: the
  arrays turned into the table.
* :mod:`~prspace.audit.files`: the user's file and options read and checked, the report's files
  (:func:`~prspace.audit.files.audit_file`, :func:`~prspace.audit.files.write_outputs`); the
  command line (:mod:`prspace.cli.audit`) only parses and prints.
"""

from __future__ import annotations

from prspace.audit.findings import (
    CHECKS,
    SEVERITIES,
    Context,
    Finding,
    find_issues,
    fold_skew_findings,
)
from prspace.audit.inputs import (
    DEFAULT_COLUMNS,
    SINGLE_MODEL,
    SINGLE_TASK,
    Columns,
    duplicate_rows,
    prepare,
    resolve_columns,
)
from prspace.audit.result import AuditResult, audit, run_audit
from prspace.audit.sentences import PAIRS, disagreement_sentences
from prspace.audit.tables import LABELS, RANKED, fold_metrics, fold_summary, pooled_metrics

__all__ = [
    "CHECKS", "DEFAULT_COLUMNS", "LABELS", "PAIRS", "RANKED", "SEVERITIES", "SINGLE_MODEL", "SINGLE_TASK",
    "AuditResult", "Columns", "Context", "Finding", "audit", "disagreement_sentences", "duplicate_rows",
    "find_issues", "fold_metrics", "fold_skew_findings", "fold_summary", "pooled_metrics", "prepare",
    "resolve_columns", "run_audit",
]
