"""Input of the audit: which column holds what, and the checked canonical frame.

:func:`resolve_columns` (:mod:`~prspace.audit.intake.column_roles`'s, importable from here) picks the columns (by name, or the defaults of the predictions
schema, :mod:`prspace.core.schema`); :func:`prepare` reads the labels, maps the columns onto the
schema's names, validates them with the one frame validator
(:func:`prspace.core.schema.validate_predictions` under :data:`AUDIT_RULES`: what a user's file
may lack or do differently) and returns the canonical frame ``task, model, fold, row, y, score,
weight`` that every other module of :mod:`prspace.audit` reads (its checks of the rows' keys are
:mod:`~prspace.audit.intake.row_checks`'s).  Every problem is an
:class:`~prspace.core.errors.InputError` naming the problem and the fix.  The file is read by
:func:`prspace.data.usertable.read_table`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.audit.intake import keys
from prspace.audit.intake.column_roles import DEFAULT_COLUMNS, Columns, resolve_columns  # noqa: F401
from prspace.audit.intake.row_checks import (  # noqa: F401  (also importable from here)
    check_duplicate_keys,
    check_model_candidates,
    duplicate_rows,
    model_candidates,
)
from prspace.core.errors import InputError
from prspace.core.schema import FrameRules, validate_predictions
from prspace.data.dataset import positive_class
from prspace.data.usertable import check_duplicate_columns

SINGLE_MODEL = "model"
SINGLE_TASK = "all"
SEVERITIES = ("error", "warning", "note")


def _positive_mask(labels: pd.Series, pos_label: str | None, column: str) -> tuple[np.ndarray, str]:
    """Boolean positives from a two-valued label column, and a description of the positive class."""
    if labels.isna().any():
        first = int(np.flatnonzero(labels.isna().to_numpy())[0])
        raise InputError(
            f"column {column!r} has {int(labels.isna().sum())} missing labels (first at data row {first + 1}): "
            "drop those rows or fill in their labels"
        )
    values = pd.unique(labels)
    shown = ", ".join(_show(v) for v in sorted(values, key=str)[:6])
    if len(values) > 2:
        raise InputError(
            f"column {column!r} has {len(values)} distinct labels ({shown}{', ...' if len(values) > 6 else ''}); "
            "the audit needs binary labels: recode it as 1 for the class of interest and 0 otherwise"
        )
    if len(values) < 2:
        raise InputError(
            f"column {column!r} holds one class only ({shown}); the metrics need positives and negatives: "
            "audit a test set that contains both"
        )
    return positive_class(labels, pos_label, default="one", column=column)


#: what the audit relaxes of the predictions schema (:class:`prspace.core.schema.FrameRules`)
AUDIT_RULES = {"require_folds": False, "require_row_ids": False, "same_rows": False, "minority_positive": False,
               "weight": True, "sort": False, "integer_row_ids": True}


def prepare(
    df: pd.DataFrame, columns: Columns, *, pos_label: str | None = None, detect_model: bool = True
) -> tuple[pd.DataFrame, str]:
    """Validate the input table and return the canonical frame and the positive-class description.

    Canonical columns: ``task`` and ``model`` (categoricals of their texts, the categories sorted:
    :func:`prspace.audit.intake.keys.category`), ``fold`` (the same, or ``None`` without folds), ``row`` (str, int64 when the row ids are integers, as a wide file's line numbers
    are, or ``None``), ``y`` (bool, True = positive), ``score``
    (float64, finite), ``weight`` (float64, >= 0).  The labels are read here (two values, the
    positive class: :func:`prspace.data.dataset.positive_class`); the user's columns are then
    mapped onto the predictions schema's names and checked by the one frame validator,
    :func:`prspace.core.schema.validate_predictions` with the audit's :data:`AUDIT_RULES`: no
    rows, non-numeric, missing or infinite scores, negative, missing or non-numeric weights,
    empty key cells, a model of a task without both classes (with positive weight).  Then what
    only the audit asks, as it would otherwise be resolved silently: the same (model, fold,
    row id) twice (:func:`check_duplicate_keys`), and, without a model column (``detect_model``:
    the caller did not switch it off), a text column that looks like one
    (:func:`check_model_candidates`).  Every problem is one :class:`InputError` (a
    :class:`~prspace.core.errors.SchemaError` from the validator) naming the problem and the fix.

    Parameters
    ----------
    df : pandas.DataFrame
        The user's table, one row per model and test row.
    columns : Columns
        Which column holds what (:func:`resolve_columns`).
    pos_label : str, optional
        The label value of the positive class (default: 1 or True for 0/1, -1/1 and boolean labels).
    detect_model : bool, default True
        Without a model column, a text column that looks like one is an error.

    Returns
    -------
    data : pandas.DataFrame
        The canonical frame ``task, model, fold, row, y, score, weight``, one row per input row.
    positive : str
        How the positive class was told (``"y_true == 1"``).

    Raises
    ------
    prspace.core.errors.InputError
        The table does not hold what the audit needs (one message naming the problem and the fix).

    See Also
    --------
    resolve_columns : The columns to read.
    prspace.audit.run_audit : The audit of the canonical frame.

    Examples
    --------
    >>> import pandas as pd
    >>> from prspace.audit import prepare, resolve_columns
    >>> df = pd.DataFrame({"model": ["a"] * 4 + ["b"] * 4, "y_true": [1, 0, 1, 0] * 2,
    ...                    "score": [0.9, 0.2, 0.6, 0.4, 0.3, 0.1, 0.8, 0.7], "row_id": [0, 1, 2, 3] * 2})
    >>> data, positive = prepare(df, resolve_columns(df.columns))
    >>> positive
    'y_true == 1'
    >>> data.head(3)
      task model  fold  row      y  score  weight
    0  all     a  None    0   True    0.9     1.0
    1  all     a  None    1  False    0.2     1.0
    2  all     a  None    2   True    0.6     1.0
    """
    check_duplicate_columns([str(c) for c in df.columns])
    check_decimal_commas(df, [(columns.score, "score"), (columns.weight, "weight")])
    y, positive = _positive_mask(df[columns.label], pos_label, columns.label) if len(df) else (np.zeros(0, bool), "")
    roles = {"task_id": columns.task, "model_id": columns.model, "repeat": columns.repeat, "fold": columns.fold,
             "row_id": columns.row, "score": columns.score, "weight": columns.weight}
    cols = {k: df[c].reset_index(drop=True) for k, c in roles.items() if c is not None}
    if columns.weight is None:  # unit weights: one 1.0 seen by every row (a read-only view, not a column of ones)
        cols["weight"] = np.broadcast_to(np.float64(1.0), (len(df),))
    frame = pd.DataFrame(cols, index=pd.RangeIndex(len(df)), copy=False)  # the table's columns, not copies
    del cols
    frame["y_true"] = y
    if columns.task is None:
        frame["task_id"] = keys.constant_key(SINGLE_TASK, len(frame))
    if columns.model is None:
        frame["model_id"] = keys.constant_key(columns.score, len(frame))
    out = validate_predictions(frame, rules=FrameRules(**AUDIT_RULES, names=roles))
    del frame  # a copy of the table's columns: the canonical frame is built from ``out``
    repeat = out["repeat"] if columns.repeat else None
    data = pd.DataFrame({"task": keys.category(out["task_id"]), "model": keys.category(out["model_id"]),
                         "fold": keys.category(_fold_keys(out["fold"], repeat)) if columns.fold else _none(len(out)),
                         "row": _fold_keys(out["row_id"], repeat) if columns.row else _none(len(out)),
                         "y": out["y_true"], "score": out["score"], "weight": out["weight"]}, copy=False)
    del out, repeat
    if detect_model and columns.model is None:
        check_model_candidates(df, columns, y)
    check_duplicate_keys(df, columns)
    return data, positive


#: a number written with a decimal comma (``0,9999``): read as text unless the file is read with ``--decimal ,``
DECIMAL_COMMA = r"^\s*[+-]?(?:\d+,\d*|,\d+)(?:[eE][+-]?\d+)?\s*$"


def check_decimal_commas(df: pd.DataFrame, roles: Sequence[tuple[str | None, str]]) -> None:
    """A numeric role's column read as text because its numbers have decimal commas: one error naming
    ``--decimal ,`` (before the validator's "not numeric")."""
    for name, role in roles:
        if name is None or pd.api.types.is_numeric_dtype(df[name]):
            continue
        text = df[name].dropna().astype(str)
        hit = text.str.match(DECIMAL_COMMA).to_numpy()
        if hit.any():
            i = int(np.flatnonzero(df[name].astype(str).str.match(DECIMAL_COMMA).to_numpy())[0])
            raise InputError(
                f"column {name!r} ({role}) holds numbers with a decimal comma (data row {i + 1}: "
                f"{_show(df[name].iloc[i])}); pass --decimal , (with --sep ';', as Excel writes such files, it is "
                "detected), or in pandas read the file with decimal=','")


def _none(n: int) -> pd.Series:
    """None in every one of ``n`` rows (the fold of a file without folds, the row id of one without row ids),
    made only when it is needed."""
    return pd.Series(np.empty(n, dtype=object), copy=False)


def _fold_keys(key: pd.Series, repeat: pd.Series | None) -> pd.Series:
    """Fold (or row) identity: the fold, or ``repeat/fold`` when the repeat column has several values.

    Fold 0 of repeat 0 and fold 0 of repeat 1 hold different test rows (the
    predictions schema's ``repeat``), so they are different folds.
    """
    if repeat is None or repeat.nunique() < 2:
        if isinstance(key.dtype, pd.CategoricalDtype) or key.dtype == object or key.dtype.kind in "iu":  # the validator's text (no cell empty), or integers
            return key
        if key.isna().any():
            return key.astype(object)
        code, uniques = pd.factorize(key, use_na_sentinel=False)  # one Python object per value, not per row
        return pd.Series(np.asarray(uniques.astype(object), dtype=object)[code], index=key.index, dtype=object)
    return (repeat.astype(str) + "/" + key.astype(str)).astype(object)


def where_text(task: str, model: str, multi_task: bool) -> str:
    """Where a problem or a number is: ``model 'm'``, with ``task 't', `` in front when the
    input has tasks."""
    parts = []
    if multi_task or task != SINGLE_TASK:
        parts.append(f"task {task!r}")
    parts.append(f"model {model!r}")
    return ", ".join(parts)


def _show(value: object) -> str:
    """``repr`` of a cell without numpy's type wrapper (``-0.5``, not ``np.float64(-0.5)``)."""
    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)
