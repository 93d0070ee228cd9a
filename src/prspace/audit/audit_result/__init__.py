"""The audit as a function and its result.

:func:`audit` (a table, or ``y_true`` with ``scores={name: array}``, in; an :class:`AuditResult` out) and
:func:`run_audit` (the canonical frame in) are :mod:`~prspace.audit.audit_result.run`'s; the result and its
reports :mod:`~prspace.audit.audit_result.result`'s, its on-demand questions (bands, power, operating points)
:mod:`~prspace.audit.audit_result.questions`'s; the reading shared with ``prspace power``
:mod:`~prspace.audit.audit_result.reading`'s. One unit of the audit's layers (``audit_result``).
"""

from __future__ import annotations

from prspace.audit.audit_result.reading import Handover, read_frame
from prspace.audit.audit_result.result import AuditResult, Headline
from prspace.audit.audit_result.run import RENAMED, audit, run_audit
from prspace.audit.intake.prevalence import parse_train_pi

__all__ = ["RENAMED", "AuditResult", "Handover", "Headline", "audit", "parse_train_pi", "read_frame", "run_audit"]
