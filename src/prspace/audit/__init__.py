"""``prspace audit``: where AUROC, AP, AUPR, AUCNPR and AUPRG disagree on *your* predictions,
and whether the disagreement is beyond noise.

The package, by what its folders hold: ``intake/`` (the user's table or arrays read and checked),
``inference/`` (metrics, intervals, paired tests and decisions, rank sets, bands, what the AUROCs
allow), ``simulation/`` (the calibration by simulation, and power), ``report/`` (findings, sentences,
the reports and figures); at the top the audit as a function (``audit_result``), its record
(``audit_record``), the files of ``prspace audit`` (``audit_files``), how its texts print numbers
(``audit_numbers``), and the one reader and writer of the rule tables of ``data/`` (``rule_tables``).
They import in one direction, the ``audit layers:`` line of ``docs/architecture.md``. One job per module:

* :mod:`~prspace.audit.intake.inputs`: which column holds what; the checked canonical frame.
* :mod:`~prspace.audit.intake.row_checks`: the same test row twice; a text column that looks like a model's.
* :mod:`~prspace.audit.intake.columns`: every other column accounted for; :mod:`~prspace.audit.intake.table_check`:
  the table made long (wide files, ``--score-cols``) and its columns resolved and checked.
* :mod:`~prspace.audit.intake.rows`: models that lack a few rows paired on the rows they share.
* :mod:`~prspace.audit.inference.tables`: metrics pooled and per fold, every AUPR estimator, ranks.
* :mod:`~prspace.audit.inference.audit_blocks`: the frame as one block per task for the paired resampling
  (:mod:`prspace.stats.replicates`), its tie groups, DeLong's covariance once per block; the intervals
  are :mod:`prspace.stats.intervals` (DeLong's: :mod:`prspace.stats.delong`).
* :mod:`~prspace.audit.inference.uncertainty`: per-model intervals and paired comparisons.
* :mod:`~prspace.audit.inference.audit_ranksets`: confidence sets for ranks (:mod:`prspace.stats.ranksets`), per task and metric.
* :mod:`~prspace.audit.inference.bounds`: what the AUROCs allow (:mod:`prspace.stats.auroc_bounds`), per task, metric and pair.
* :mod:`~prspace.audit.report.audit_sentences`: where the rankings disagree, with the noise floor.
* :mod:`~prspace.audit.report.findings`, :mod:`~prspace.audit.report.row_findings`: one function per finding, in
  the registry of :mod:`~prspace.audit.report.finding_types` (the fold skew's text: :mod:`~prspace.audit.report.skew_findings`).
* :mod:`~prspace.audit.report.tools`: which estimator popular tools compute.
* :mod:`~prspace.audit.audit_record`: :class:`AuditRecord`, what the audit found, as data.
* :mod:`~prspace.audit.report.render`, :mod:`~prspace.audit.report.lines`, :mod:`~prspace.audit.report.plot`: the reports
  and figures (of a record).
* :mod:`~prspace.audit.audit_result`: :func:`audit` (a table, or ``y_true`` with ``scores={name: array}``, in;
  an :class:`AuditResult` out, shown compactly in a notebook); :mod:`~prspace.audit.intake.arrays`: the
  arrays turned into the table.
* :mod:`~prspace.audit.audit_files`: the user's file and options read and checked, the report's files
  (:func:`~prspace.audit.audit_files.audit_file`, :func:`~prspace.audit.audit_files.write_outputs`); the
  command line (:mod:`prspace.cli.audit`) only parses and prints.
* :mod:`~prspace.audit.inference.decision`, :mod:`~prspace.audit.inference.coverage`: which procedure
  decides and which intervals are printed, by the rule tables of ``data/``
  (:func:`~prspace.audit.rule_tables.read_cells`), made by :mod:`~prspace.audit.simulation.simulate` and
  :mod:`~prspace.audit.simulation.coverage_calib`.
* :mod:`~prspace.audit.simulation.audit_power`, :mod:`~prspace.audit.simulation.planning`: ``prspace power``.
"""

from __future__ import annotations

from prspace.audit.audit_result import AuditResult, audit, run_audit
from prspace.audit.inference.tables import (
    LABELS,
    RANKED,
    fold_metrics,
    fold_summary,
    pooled_metrics,
)
from prspace.audit.intake.inputs import (
    DEFAULT_COLUMNS,
    SINGLE_MODEL,
    SINGLE_TASK,
    Columns,
    duplicate_rows,
    prepare,
    resolve_columns,
)
from prspace.audit.report.audit_sentences import PAIRS, disagreement_sentences
from prspace.audit.report.findings import (
    CHECKS,
    SEVERITIES,
    Context,
    Finding,
    find_issues,
    fold_skew_findings,
)

__all__ = [
    "CHECKS", "DEFAULT_COLUMNS", "LABELS", "PAIRS", "RANKED", "SEVERITIES", "SINGLE_MODEL", "SINGLE_TASK",
    "AuditResult", "Columns", "Context", "Finding", "audit", "disagreement_sentences", "duplicate_rows",
    "find_issues", "fold_metrics", "fold_skew_findings", "fold_summary", "pooled_metrics", "prepare",
    "resolve_columns", "run_audit",
]
