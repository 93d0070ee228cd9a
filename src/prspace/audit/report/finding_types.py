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
    """One thing the audit noticed: ``severity`` is error, warning or note.

    The checks registered in :data:`CHECKS` make them (:func:`findings`); ``docs/audit.md`` lists
    every code.

    Parameters
    ----------
    code : str
        What was found (``"aupr-below-min"``, ``"skew-varies-folds"``, ...): a key of :data:`CHECKS`.
    severity : str
        ``"error"`` (results that cannot be right), ``"warning"`` or ``"note"``: one of :data:`SEVERITIES`.
    where : str
        Where: the task, model and fold it concerns (``"model a"``; empty for the whole input).
    message : str
        What was found, why it matters and what to do, in one paragraph.

    See Also
    --------
    prspace.audit.find_issues : Every check run on a :class:`Context`.
    prspace.audit.AuditResult : Its ``findings``.

    Examples
    --------
    >>> from prspace.audit import Finding
    >>> f = Finding("hard-scores", "warning", "model a", "the scores take two values")
    >>> f.severity, f.where
    ('warning', 'model a')
    """

    code: str
    severity: str
    where: str
    message: str


@dataclasses.dataclass
class Context:
    """What the checks read: the canonical data and the tables, computed once.

    :func:`prspace.audit.run_audit` makes one and passes it to :func:`prspace.audit.find_issues`;
    every check (:data:`CHECKS`) reads it.

    Parameters
    ----------
    data : pandas.DataFrame
        The canonical frame (:func:`prspace.audit.prepare`).
    pooled, folds : pandas.DataFrame
        The metrics pooled and per fold (:func:`prspace.audit.pooled_metrics`,
        :func:`prspace.audit.fold_metrics`).
    estimators : pandas.DataFrame
        Every AUPR estimator per task and model (:func:`prspace.audit.inference.tables.estimator_table`).
    comparable : dict of str to bool
        Per task: whether its models were scored on the same test rows.
    duplicates : dict of str to object
        The input's exact copies (:func:`prspace.audit.duplicate_rows`).
    train_pi : dict of str to float, optional
        The positive class's prevalence in training, per task.
    comparisons : pandas.DataFrame, optional
        The paired comparisons of the models.
    skew_tolerance : float, default 0.02
        Folds' or tasks' AUPR_MIN differing by more than this are flagged.
    downsample_ratio : float, default 1.5
        Test odds of a positive at least this many times the training odds are flagged.
    tol : float, default 1e-9
        Slack of the comparisons with the floors AUPR_MIN and AP_MIN (rounding).
    paired : dict of str to bool, optional
        Per task: whether the models' rows are paired by row id.
    dropped : list of dict, optional
        The rows left out so that every model of a task is scored on the same rows.
    own_folds : dict of str to bool, optional
        Per task: the models scored the same row ids with different fold assignments.
    intervals : pandas.DataFrame, optional
        The per-model intervals the tables show.
    groupings : dict of str to list of str, optional
        Columns not used that split every model's rows into the same few groups: column -> its values.
    group_candidates : list of str, optional
        Columns not used whose values repeat within every task and model (a patient id?).

    See Also
    --------
    prspace.audit.find_issues : Every check run on it.
    Finding : What a check makes of it.

    Examples
    --------
    >>> import pandas as pd
    >>> from prspace.audit import Context, fold_metrics, pooled_metrics, prepare, resolve_columns
    >>> df = pd.DataFrame({"task": ["t1"] * 4 + ["t2"] * 4, "y_true": [1, 0, 1, 0] * 2,
    ...            "fold": [0, 0, 1, 1, 0, 1, 1, 1], "score": [0.9, 0.2, 0.6, 0.4, 0.3, 0.1, 0.8, 0.7]})
    >>> data, _ = prepare(df, resolve_columns(df.columns))
    >>> ctx = Context(data, pooled_metrics(data), fold_metrics(data), pd.DataFrame(), {}, {"n": 0})
    >>> ctx.multi_task, len(ctx.usable_folds)
    (True, 3)
    """

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
        """Whether the input has more than one task.

        Returns
        -------
        bool
            True when ``pooled`` holds two tasks or more: then :meth:`where` names the task.

        See Also
        --------
        where : Where a finding is, in words.

        Examples
        --------
        >>> import pandas as pd
        >>> from prspace.audit import Context, fold_metrics, pooled_metrics, prepare, resolve_columns
        >>> df = pd.DataFrame({"task": ["t1"] * 4 + ["t2"] * 4, "y_true": [1, 0, 1, 0] * 2,
        ...                    "fold": [0, 0, 1, 1, 0, 1, 1, 1], "score": [0.9, 0.2, 0.6, 0.4, 0.3, 0.1, 0.8, 0.7]})
        >>> data, _ = prepare(df, resolve_columns(df.columns))
        >>> ctx = Context(data, pooled_metrics(data), fold_metrics(data), pd.DataFrame(), {}, {"n": 0})
        >>> ctx.multi_task
        True
        """
        return self.pooled["task"].nunique() > 1

    @property
    def usable_folds(self) -> pd.DataFrame:
        """The folds with both classes: the rows of ``folds`` that have metrics.

        Returns
        -------
        pandas.DataFrame
            ``folds`` without its ``one_class`` rows (``folds`` itself when it has no rows).

        See Also
        --------
        prspace.audit.fold_metrics : The per-fold table and its ``one_class``.

        Examples
        --------
        >>> import pandas as pd
        >>> from prspace.audit import Context, fold_metrics, pooled_metrics, prepare, resolve_columns
        >>> df = pd.DataFrame({"task": ["t1"] * 4 + ["t2"] * 4, "y_true": [1, 0, 1, 0] * 2,
        ...                    "fold": [0, 0, 1, 1, 0, 1, 1, 1], "score": [0.9, 0.2, 0.6, 0.4, 0.3, 0.1, 0.8, 0.7]})
        >>> data, _ = prepare(df, resolve_columns(df.columns))
        >>> ctx = Context(data, pooled_metrics(data), fold_metrics(data), pd.DataFrame(), {}, {"n": 0})
        >>> ctx.usable_folds[["task", "fold"]].to_numpy().tolist()
        [['t1', '0'], ['t1', '1'], ['t2', '1']]
        """
        return self.folds[~self.folds["one_class"].astype(bool)] if len(self.folds) else self.folds

    def where(self, task: str, model: str | None = None, fold: str | None = None) -> str:
        """Where a finding is, in words: its task (when the input has several), model and fold.

        Parameters
        ----------
        task : str
            The task.
        model : str, optional
            The model; None: the finding concerns the task.
        fold : str, optional
            The fold; None: all of them.

        Returns
        -------
        str
            ``"task t, model m, fold f"``, the parts given (the task only with :attr:`multi_task`).

        See Also
        --------
        Finding : Its ``where``.

        Examples
        --------
        >>> import pandas as pd
        >>> from prspace.audit import Context, fold_metrics, pooled_metrics, prepare, resolve_columns
        >>> df = pd.DataFrame({"task": ["t1"] * 4 + ["t2"] * 4, "y_true": [1, 0, 1, 0] * 2,
        ...                    "fold": [0, 0, 1, 1, 0, 1, 1, 1], "score": [0.9, 0.2, 0.6, 0.4, 0.3, 0.1, 0.8, 0.7]})
        >>> data, _ = prepare(df, resolve_columns(df.columns))
        >>> ctx = Context(data, pooled_metrics(data), fold_metrics(data), pd.DataFrame(), {}, {"n": 0})
        >>> ctx.where("t1", "score", "0")
        'task t1, model score, fold 0'
        """
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
