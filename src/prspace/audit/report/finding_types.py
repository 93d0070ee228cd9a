"""What a finding is and how a check is registered: :class:`Finding`, the :class:`Context` every check
reads, and :func:`check`, which registers a check under its code and severity in :data:`CHECKS`.

The checks themselves are :mod:`prspace.audit.report.row_findings` (the rows and the scores) and
:mod:`prspace.audit.report.findings` (the skew and the estimators, and :func:`~prspace.audit.report.findings.find_issues`,
which runs every registered check).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Sequence

import pandas as pd

SEVERITIES = ("error", "warning", "note")


@dataclasses.dataclass(frozen=True)
class Finding:
    """One thing the audit noticed: ``severity`` is error, warning or note."""

    code: str
    severity: str
    where: str
    message: str


@dataclasses.dataclass
class Context:
    """What the checks read: the canonical data and the tables, computed once."""

    data: pd.DataFrame
    pooled: pd.DataFrame
    folds: pd.DataFrame
    estimators: pd.DataFrame
    comparable: dict[str, bool]
    duplicates: dict[str, object]
    train_pi: dict[str, float] | None = None
    comparisons: pd.DataFrame | None = None
    skew_tolerance: float = 0.02
    downsample_ratio: float = 1.5
    tol: float = 1e-9
    paired: dict[str, bool] | None = None
    dropped: list[dict] | None = None
    own_folds: dict[str, bool] | None = None
    intervals: pd.DataFrame | None = None
    #: columns not used that split every model's rows into the same few groups: column -> its values
    groupings: dict[str, list[str]] | None = None
    #: columns not used whose values repeat within every task and model (a patient id?)
    group_candidates: list[str] | None = None

    @property
    def multi_task(self) -> bool:
        return self.pooled["task"].nunique() > 1

    @property
    def usable_folds(self) -> pd.DataFrame:
        return self.folds[~self.folds["one_class"].astype(bool)] if len(self.folds) else self.folds

    def where(self, task: str, model: str | None = None, fold: str | None = None) -> str:
        parts = [f"task {task}"] if self.multi_task else []
        if model is not None:
            parts.append(f"model {model}")
        if fold is not None:
            parts.append(f"fold {fold}")
        return ", ".join(parts)


def names(models: Sequence[str]) -> str:
    models = [str(m) for m in models]
    if len(models) <= 1:
        return "".join(models)
    return ", ".join(models[:-1]) + " and " + models[-1]


CHECKS: dict[str, Callable[[Context], list[Finding]]] = {}
#: Each registered code's severity.
SEVERITY: dict[str, str] = {}


def findings(code: str, parts: Iterable[tuple[str, str]]) -> list[Finding]:
    """One :class:`Finding` of ``code`` (at its registered severity) per ``(where, message)``."""
    return [Finding(code, SEVERITY[code], where, message) for where, message in parts]


def check(code: str, severity: str, *, per_task: bool = False):
    """Register a check under its finding code and severity: the check yields ``(where, message)``
    pairs, the registry makes them :class:`Finding` s. ``per_task``: the check is called once per task
    as ``fn(ctx, task, rows)`` with the task's pooled rows, tasks in sorted order."""

    def register(fn: Callable[..., Iterable[tuple[str, str]]]) -> Callable[[Context], list[Finding]]:
        @functools.wraps(fn)
        def run(ctx: Context) -> list[Finding]:
            if per_task:
                return findings(code, (part for task, g in ctx.pooled.groupby("task", sort=True)
                                       for part in fn(ctx, task, g)))
            return findings(code, fn(ctx))

        SEVERITY[code] = severity
        CHECKS[code] = run
        return run

    return register
