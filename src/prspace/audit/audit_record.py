"""What the audit found, as data: :class:`AuditRecord` (tables, sentences, findings).

The reports (:mod:`~prspace.audit.report.render`) and figures (:mod:`~prspace.audit.report.plot`) read an
:class:`AuditRecord`; :class:`prspace.audit.audit_result.AuditResult` adds the methods that draw them,
so that neither the reports nor the figures import the module that calls them.
"""

from __future__ import annotations

import dataclasses
from concurrent.futures import Future
from typing import TYPE_CHECKING

import pandas as pd

from prspace.core.defaults import N_BOOT

if TYPE_CHECKING:  # the record holds the findings the report made; it imports no report module to run
    from prspace.audit.report.finding_types import Finding
    from prspace.stats.bands import CurveBand

__all__ = ["AuditRecord"]


@dataclasses.dataclass
class AuditRecord:
    """Everything the audit found; tables sorted by task and model."""

    data: pd.DataFrame
    positive: str
    pooled: pd.DataFrame
    folds: pd.DataFrame
    fold_summary: pd.DataFrame
    ranks: pd.DataFrame
    estimators: pd.DataFrame
    intervals: pd.DataFrame
    comparisons: pd.DataFrame
    sentences: dict[str, list[str]]
    findings: list[Finding]
    comparable: dict[str, bool]
    train_pi: dict[str, float] | None = None
    n_boot: int = N_BOOT
    confidence: float = 0.95
    paired: dict[str, bool] | None = None
    #: Confidence sets for ranks (:mod:`prspace.audit.inference.audit_ranksets`), one row per task, metric, model.
    rank_sets: pd.DataFrame | None = None
    #: Comparisons of all pairs with family-wise control (:mod:`prspace.audit.inference.audit_pairwise`).
    pairwise: pd.DataFrame | None = None
    #: Critical-difference tables across tasks (:mod:`prspace.audit.inference.audit_cd`); None unless >= 2 tasks share the models.
    cd: dict[str, pd.DataFrame] | None = None
    #: What the AUROCs allow (:mod:`prspace.audit.inference.bounds`), one row per task, metric, pair of models.
    auroc_bounds: pd.DataFrame | None = None
    #: The seed of the audit's resampling (``--seed``); the curve bands' resampling uses it too.
    seed: int = 0
    #: Which column holds what and which columns are not used (:meth:`prspace.audit.intake.columns.Accounting.lines`).
    columns: list[str] | None = None
    #: Rows left out so that every model of a task is scored on the same rows (:func:`prspace.audit.intake.rows.shared_rows`).
    dropped: list[dict] | None = None
    #: Per task: the models scored the same rows with different fold assignments (:func:`prspace.audit.intake.rows.own_folds`).
    own_folds: dict[str, bool] | None = None
    #: Columns not used that split every model's rows into the same few groups, pooled (column -> values).
    groupings: dict[str, list[str]] | None = None
    #: ``--group-col``: the column whose groups (patients, subjects, sites) are resampled whole, or None
    #: (rows resampled one by one; :mod:`prspace.audit.inference.grouping`).
    group_col: str | None = None
    #: Columns not used whose values repeat within every task and model, offered as ``--group-col``.
    group_candidates: list[str] | None = None
    #: ``--metrics-only``: the point estimates alone (no interval, paired test or rank set was computed).
    metrics_only: bool = False
    #: The curve bands of the models the report draws (:func:`prspace.audit.inference.audit_bands.shown`), computed
    #: ahead in a second thread while the audit computed its intervals (``bands_ahead=True`` of :func:`prspace.audit.audit`,
    #: as ``prspace audit --out`` asks): a future of ``{(task, model): {curve: band}}``, or None.  The bands of
    #: :meth:`prspace.audit.AuditResult.bands` at the audit's settings are taken from it
    #: (:func:`prspace.audit.inference.audit_bands.model_bands`).
    bands_ahead: Future[dict[tuple[str, str], dict[str, CurveBand]]] | None = dataclasses.field(
        default=None, repr=False, compare=False)

    @property
    def has_folds(self) -> bool:
        """Whether the rows came with folds (a per-fold table).

        Returns
        -------
        bool
            True when ``folds`` has rows.

        See Also
        --------
        n_groups : The resampling unit's count.

        Examples
        --------
        >>> import numpy as np
        >>> from prspace.audit import audit
        >>> y = np.arange(40) % 2 == 0
        >>> audit(y, scores={"a": y + 0.05 * np.arange(40)}, n_boot=0).has_folds
        False
        """
        return bool(len(self.folds))

    def n_groups(self, task: str) -> int | None:
        """Count the groups of ``task`` resampled whole (``--group-col``).

        Parameters
        ----------
        task : str
            The task.

        Returns
        -------
        int or None
            Its number of groups, the unit the bands and intervals resample; None without ``--group-col``.

        See Also
        --------
        has_folds : Whether the rows came with folds.

        Examples
        --------
        >>> import numpy as np
        >>> from prspace.audit import audit
        >>> y = np.arange(40) % 2 == 0
        >>> audit(y, scores={"a": y + 0.05 * np.arange(40)}, groups=np.arange(40) // 2, n_boot=0).n_groups("all")
        20
        """
        if self.group_col is None or "group" not in self.data.columns:
            return None
        return int(self.data.loc[self.data["task"] == task, "group"].nunique())

    @property
    def exit_code(self) -> int:
        """1 if any finding is an error (results that cannot be right), else 0.

        Returns
        -------
        int
            The exit status of ``prspace audit`` (without ``--strict``).

        See Also
        --------
        findings : What the audit found.

        Examples
        --------
        >>> import numpy as np
        >>> from prspace.audit import audit
        >>> y = np.arange(40) % 2 == 0
        >>> audit(y, scores={"a": y + 0.05 * np.arange(40)}, n_boot=0).exit_code
        0
        """
        return int(any(f.severity == "error" for f in self.findings))
