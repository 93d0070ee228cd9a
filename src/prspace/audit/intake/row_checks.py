"""The rows' keys checked: the same test row twice, and a text column that looks like a model column.

:func:`duplicate_rows` reports exact copies among the input rows (the ``duplicate-rows`` finding);
:func:`check_duplicate_keys` makes the same (task, model, repeat, fold, row id) twice an error, and
:func:`check_model_candidates` a text column that looks like a model column when none is named
(:func:`model_candidates`). :func:`prspace.audit.intake.inputs.prepare` calls both checks; the
names are also importable from :mod:`prspace.audit.intake.inputs`.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from prspace.audit.intake.column_roles import Columns
from prspace.core.errors import InputError


def _display(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def duplicate_rows(df: pd.DataFrame, columns: Columns) -> dict[str, object]:
    """Exact copies among the input rows: ``n`` copies, ``first`` copy (data row), the models involved.

    With a row id column, the same (task, model, repeat, fold, row id) twice is a copy for
    sure; without one, only a file whose every row has an exact twin (a file concatenated to
    itself) is reported, since tied scores make single duplicates normal.

    Parameters
    ----------
    df : pandas.DataFrame
        The user's table.
    columns : prspace.audit.intake.inputs.Columns
        Which column holds what (:func:`prspace.audit.resolve_columns`).

    Returns
    -------
    dict of str to object
        ``{"n": 0}`` without copies; else ``n`` (the copies), ``total`` (the rows), ``first`` (the
        first copy's data row, from 1), ``models`` (the models with copies, sorted) and ``how``
        (what made them copies).

    See Also
    --------
    check_duplicate_keys : The same row id twice as an error (the audit's own check).
    prspace.audit.find_issues : The ``duplicate-rows`` finding reports them.

    Examples
    --------
    >>> import pandas as pd
    >>> from prspace.audit import duplicate_rows, resolve_columns
    >>> df = pd.DataFrame({"model": ["a", "a", "b", "b"], "y_true": [1, 0, 1, 0],
    ...                    "score": [0.9, 0.2, 0.6, 0.4], "row_id": [0, 1, 0, 1]})
    >>> cols = resolve_columns(df.columns)
    >>> duplicate_rows(df, cols)
    {'n': 0}
    >>> duplicate_rows(pd.concat([df, df.iloc[:1]]), cols)
    {'n': 1, 'total': 5, 'first': 5, 'models': ['a'], 'how': 'same model and row id'}
    """
    key = [c for c in (columns.task, columns.model, columns.repeat, columns.fold, columns.row) if c]
    if columns.row:
        dup = df.duplicated(key, keep="first").to_numpy()
        how = "same model and row id"
    else:
        both = df.duplicated(keep=False).to_numpy()
        dup = df.duplicated(keep="first").to_numpy() if both.all() else np.zeros(len(df), dtype=bool)
        how = "every row of the file has an exact twin"
    if not dup.any():
        return {"n": 0}
    models = sorted({_display(m) for m in df.loc[dup, columns.model]}) if columns.model else [columns.score]
    return {"n": int(dup.sum()), "total": len(df), "first": int(np.flatnonzero(dup)[0]) + 1,
            "models": models, "how": how}


def check_duplicate_keys(df: pd.DataFrame, columns: Columns) -> None:
    """With a row id column, the same (task, model, repeat, fold, row id) twice is an error.

    Every copy of an exact duplicate counts again in every metric, and two different scores
    for one model and test row cannot both be right; either way the models can no longer be
    paired by row id.  Exact copies (a file concatenated to itself) and conflicting copies
    get different fixes.
    """
    if columns.row is None or _unique_row_ids(df, columns):
        return
    key = [c for c in (columns.task, columns.model, columns.repeat, columns.fold, columns.row) if c]
    dup = df.duplicated(key, keep=False).to_numpy()
    if not dup.any():
        return
    first = int(np.flatnonzero(df.duplicated(key, keep="first").to_numpy())[0])
    n_copies = int(df.duplicated(key, keep="first").sum())
    names = ", ".join(repr(c) for c in key)
    exact = df.duplicated(keep="first").to_numpy()
    if exact.sum() == n_copies:
        every = " (every row appears twice: the file looks concatenated to itself)" if 2 * n_copies == len(df) \
            else ""
        raise InputError(
            f"{n_copies} of {len(df)} rows repeat an earlier row exactly{every}: the same ({names}) occurs twice, "
            f"first at data row {first + 1}; each copy would count again in every metric: drop the repeated "
            "rows (pandas: df.drop_duplicates())"
        )
    hint = (" name the repeat column with --repeat-col if the file holds several cross-validation repeats, or"
            if columns.repeat is None else "")
    raise InputError(
        f"{n_copies} of {len(df)} rows repeat an earlier ({names}) with other values, first at data row "
        f"{first + 1}; a model has one score per test row:{hint} give a column that identifies the test rows "
        f"with --row-col (or --row-col '' to pair the models' rows by position)"
    )


def _unique_row_ids(df: pd.DataFrame, columns: Columns) -> bool:
    """True when integer row ids are unique within each model (as the line numbers a wide file's rows get
    are): then no (task, model, repeat, fold, row id) repeats either, found with one ``bincount``
    instead of hashing every key column.  False: not known (other ids), the full check decides."""
    row = df[columns.row]
    if not (isinstance(row.dtype, np.dtype) and row.dtype.kind in "iu") or len(row) == 0:
        return False
    ids = row.to_numpy()
    if ids.min() < 0 or ids.max() >= 4 * len(ids):
        return False
    if not columns.model:
        model, n_models = None, 1
    elif isinstance(df[columns.model].dtype, pd.CategoricalDtype):  # a wide file's models: their codes, not a copy
        model = df[columns.model].cat.codes.to_numpy()
        n_models = int(model.max()) + 1
    else:
        model = pd.factorize(df[columns.model])[0]
        n_models = int(model.max()) + 1
    span = int(ids.max()) + 1
    if (model is not None and model.min() < 0) or n_models * span > 2**31:
        return False
    if model is None or n_models > 16:
        model = np.zeros(len(ids), np.int64) if model is None else model.astype(np.int64)
        return bool(np.bincount(model * span + ids).max() <= 1)
    # a few models: one model's row ids marked at a time (not a key and a count over every row of every model:
    # about 600 MB of temporaries at 6 x 10^6 rows x 3 models)
    for m in range(n_models):
        own = ids[model == m]
        seen = np.zeros(span, dtype=bool)
        seen[own] = True
        if np.count_nonzero(seen) < own.size:
            return False
    return True


def model_candidates(df: pd.DataFrame, columns: Columns, y: np.ndarray) -> list[tuple[str, int]]:
    """Text columns not used for a role that look like a model column: (name, number of values).

    A candidate has at least two values, at least two rows per value, and the same number of
    rows and of positives under every value (within each task): the label structure repeats
    per value, as when one test set is scored by several models.
    """
    used = {c for c in dataclasses.asdict(columns).values() if c}
    out = []
    for name in df.columns:
        name = str(name)
        col = df[name]
        if name in used or pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col):
            continue
        if col.isna().any():
            continue
        values = col.astype(str).to_numpy()
        n_values = len(pd.unique(values))
        if n_values < 2 or 2 * n_values > len(df):
            continue
        task = df[columns.task].astype(str).to_numpy() if columns.task else np.zeros(len(df), dtype=object)
        shape = pd.DataFrame({"task": task, "value": values, "y": y}).groupby(["task", "value"])["y"].agg(
            ["size", "sum"])
        per_task = shape.groupby(level="task").agg(["nunique", "min"])
        if (per_task[("size", "nunique")] == 1).all() and (per_task[("sum", "nunique")] == 1).all() and \
                (per_task[("size", "min")] >= 2).all() and (per_task[("sum", "min")] >= 1).all() and \
                ((shape["size"] - shape["sum"]) >= 1).all():
            out.append((name, n_values))
    return out


def check_model_candidates(df: pd.DataFrame, columns: Columns, y: np.ndarray) -> None:
    """Without a model column, a text column that looks like one would pool several models into one."""
    found = model_candidates(df, columns, y)
    if not found:
        return
    if len(found) == 1:
        name, n = found[0]
        raise InputError(
            f"no model column ('model' or 'model_id'), but column {name!r} looks like one: its {n} values each "
            f"hold the same number of rows and positives, so the file would be pooled into one model; pass "
            f"--model-col {name} (or --model-col '' to audit the file as one model)"
        )
    listing = ", ".join(f"{n!r} ({k} values)" for n, k in found)
    raise InputError(
        f"no model column ('model' or 'model_id'), and several columns look like one: {listing}; the file "
        f"would be pooled into one model: name the model column with --model-col (e.g. --model-col "
        f"{found[0][0]}), or pass --model-col '' to audit the file as one model"
    )
