"""Input of the audit: which column holds what, and the checked canonical frame.

:func:`resolve_columns` picks the columns (by name, or the defaults of the predictions
schema, :mod:`prspace.core.schema`); :func:`prepare` reads the labels, maps the columns onto the
schema's names, validates them with the one frame validator
(:func:`prspace.core.schema.validate_predictions` under :data:`AUDIT_RULES`: what a user's file
may lack or do differently) and returns the canonical frame ``task, model, fold, row, y, score,
weight`` that every other module of :mod:`prspace.audit` reads.  Every problem is an
:class:`~prspace.core.errors.InputError` naming the problem and the fix.  The file is read by
:func:`prspace.data.usertable.read_table`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.audit.intake import keys
from prspace.core.errors import InputError
from prspace.core.schema import FrameRules, validate_predictions
from prspace.data.dataset import positive_class
from prspace.data.usertable import check_duplicate_columns

DEFAULT_COLUMNS = {
    "model": ("model", "model_id"),
    "label": ("y_true", "label", "y", "target"),
    "score": ("score", "y_score"),
    "fold": ("fold",),
    "task": ("task_id", "task", "dataset", "dataset_id", "dataset_name", "task_name", "data"),
    "weight": ("weight", "sample_weight"),
    "repeat": ("repeat",),
    "row": ("row_id", "row"),
}
SINGLE_MODEL = "model"
SINGLE_TASK = "all"
SEVERITIES = ("error", "warning", "note")


# --------------------------------------------------------------------------- input


@dataclasses.dataclass(frozen=True)
class Columns:
    """Which input column holds what (``None``: absent)."""

    model: str | None
    label: str
    score: str
    fold: str | None = None
    task: str | None = None
    weight: str | None = None
    repeat: str | None = None
    row: str | None = None


def resolve_columns(
    available: Sequence[str],
    *,
    model: str | None = None,
    label: str | None = None,
    score: str | None = None,
    fold: str | None = None,
    task: str | None = None,
    weight: str | None = None,
    repeat: str | None = None,
    row: str | None = None,
) -> Columns:
    """Pick the input columns: those named, else the first default name present.

    Defaults (:data:`DEFAULT_COLUMNS`) follow the predictions schema of
    :mod:`prspace.core.schema`.  Without a model column the whole file is one model;
    fold, task, weight and repeat are optional; an explicitly named column must exist.
    An empty string switches an optional column off.
    """
    cols = [str(c) for c in available]
    listing = ", ".join(repr(c) for c in cols)
    given = {
        "model": model,
        "label": label,
        "score": score,
        "fold": fold,
        "task": task,
        "weight": weight,
        "repeat": repeat,
        "row": row,
    }
    chosen: dict[str, str | None] = {}
    for role, name in given.items():
        if name == "" and role in ("model", "fold", "task", "weight", "repeat", "row"):
            chosen[role] = None
            continue
        if name is not None:
            if name not in cols:
                raise InputError(
                    f"no column {name!r} (given with --{role}-col); the file has columns {listing}: "
                    f"pass one of them with --{role}-col"
                )
            chosen[role] = name
            continue
        found = next((c for c in DEFAULT_COLUMNS[role] if c in cols), None)
        if found is None and role in ("label", "score"):
            tried = " or ".join(repr(c) for c in DEFAULT_COLUMNS[role])
            raise InputError(
                f"no {role} column: looked for {tried}; the file has columns {listing}: "
                f"name it with --{role}-col"
            )
        chosen[role] = found
    used = [c for c in chosen.values() if c is not None]
    dup = sorted({c for c in used if used.count(c) > 1})
    if dup:
        raise InputError(f"column {dup[0]!r} is used for two roles; give each role its own column")
    return Columns(**chosen)  # type: ignore[arg-type]


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


def _display(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


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


def duplicate_rows(df: pd.DataFrame, columns: Columns) -> dict[str, object]:
    """Exact copies among the input rows: ``n`` copies, ``first`` copy (data row), the models involved.

    With a row id column, the same (task, model, repeat, fold, row id) twice is a copy for
    sure; without one, only a file whose every row has an exact twin (a file concatenated to
    itself) is reported, since tied scores make single duplicates normal.
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
