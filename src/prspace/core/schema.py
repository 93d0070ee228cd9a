"""The predictions schema: one parquet file per task, whatever the source.

One module of about 500 lines on purpose: the columns, their dtypes and every check on them are the
contract between the sources and every later stage, read in one place.

Every source (:mod:`prspace.openml`, :mod:`prspace.local.crossval`) writes,
and every later stage reads, the same thing:

**Predictions** (one row per model x repeat x test row), columns in this order:

============  =========  ======================================================
column        dtype      meaning
============  =========  ======================================================
task_id       str        task identifier, ``[A-Za-z0-9_.-]+`` (``openml-1882``,
                         ``keel-ecoli1``, ...); one value per file
model_id      str        the model: an OpenML run (``run-12345``) or a local
                         learner's name
flow_id       str        the flow (OpenML flow id) or local learner name; one
                         model per flow in the studies of both papers
flow_name     str        human-readable flow / learner description
repeat        int32      cross-validation repeat (>= 0)
fold          int32      cross-validation fold (>= 0) of the test row
row_id        int64      row of the dataset (>= 0)
y_true        bool       True = the positive class, which is the task's
                         *minority* class (ties and own data: see below)
score         float64    finite; higher = more positive
============  =========  ======================================================

Invariants checked by :func:`validate_predictions`: every model predicts every
row exactly once per repeat; all models share the same rows, folds and labels;
both classes occur; the positive class is the minority (``n_pos <= n_neg``; with
exactly equal counts the source picks the class that sorts *last* by name, so
the choice is deterministic), except in tasks of your own files (task id
``user-...``), whose positive class may be the one you name with ``pos_label``,
the majority class too (pi > 0.5; docs/local.md).

The same validator checks the audit's input (:func:`prspace.audit.intake.inputs.prepare`): a
:class:`FrameRules` record says what a user's file may do otherwise (no folds or row ids,
several tasks, models on different rows, any class positive, sample weights).

**Task information** (:class:`TaskInfo`) travels inside the parquet file as
key-value metadata (``prspace.task``), so a predictions file and its description
never drift apart; :func:`task_table` collects them into the task table.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa

if TYPE_CHECKING:
    import pyarrow.parquet as pq

from prspace.core._io import atomic_path
from prspace.core.errors import SchemaError

PREDICTION_COLUMNS: dict[str, str] = {
    "task_id": "str",
    "model_id": "str",
    "flow_id": "str",
    "flow_name": "str",
    "repeat": "int32",
    "fold": "int32",
    "row_id": "int64",
    "y_true": "bool",
    "score": "float64",
}
STRING_COLUMNS = ("task_id", "model_id", "flow_id", "flow_name")
METADATA_KEY = b"prspace.task"
TASK_ID_PATTERN = re.compile(r"^[A-Za-z0-9_.-]+$")
#: task ids of your own files: their positive class may be the majority (``pos_label``)
USER_TASK_PREFIX = "user-"
SOURCES = ("openml", "local")


@dataclasses.dataclass(frozen=True)
class TaskInfo:
    """One row of the task table: what a predictions file is about and where it came from."""

    task_id: str
    source: str  # "openml" or "local"
    dataset_id: str
    dataset_name: str
    n: int  # distinct rows (instances) predicted
    n_pos: int  # of which positive (minority class)
    positive_class: str  # the original label of the positive class
    estimation_procedure: str  # e.g. "10-fold stratified cross-validation, seed 0"
    n_folds: int
    n_repeats: int
    n_models: int
    provenance: str  # server URL, or package name and version
    created_at: str  # ISO 8601 UTC: when it was fetched or made
    notes: str = ""  # e.g. models skipped and why

    @property
    def pi(self) -> float:
        """Class skew: the proportion of positives, ``n_pos / n`` (Boyd et al. section 2)."""
        return self.n_pos / self.n

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["pi"] = self.pi
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TaskInfo:
        names = {f.name for f in dataclasses.fields(cls)}
        missing = sorted(names - set(d) - {"notes"})
        if missing:
            raise SchemaError(
                f"task information lacks {', '.join(missing)}; "
                "rewrite the file with prspace.core.schema.write_predictions"
            )
        return cls(**{k: v for k, v in d.items() if k in names})

    def validate(self) -> None:
        if not TASK_ID_PATTERN.match(self.task_id):
            raise SchemaError(
                f"task_id {self.task_id!r} has characters outside [A-Za-z0-9_.-]; rename the task"
            )
        if self.source not in SOURCES:
            raise SchemaError(
                f"task {self.task_id}: source {self.source!r} is not one of {SOURCES}"
            )
        if not (0 < self.n_pos < self.n):
            raise SchemaError(
                f"task {self.task_id}: n_pos={self.n_pos} of n={self.n}; both classes must occur"
            )


TASK_TABLE_COLUMNS = [f.name for f in dataclasses.fields(TaskInfo)] + ["pi"]


@dataclasses.dataclass(frozen=True)
class FrameRules:
    """What :func:`validate_predictions` requires of a frame; the defaults are the predictions schema's.

    The audit (:func:`prspace.audit.intake.inputs.prepare`) relaxes them: a user's file may lack folds and
    row ids, hold several tasks, score its models on different rows, name any class positive, and
    weigh its rows.  ``names``: the user's column for each schema column, for the messages (``None``:
    the column is absent, e.g. no task column).
    """

    require_folds: bool = True  # repeat and fold: non-negative integers in every row
    require_row_ids: bool = True  # row_id: non-negative integers, each once per model and repeat
    same_rows: bool = True  # one task per file, one flow per model, the same rows/folds/labels for all models
    minority_positive: bool = True  # n_pos <= n_neg, except in tasks of your own files
    weight: bool = False  # a weight column: finite and >= 0; both classes need positive weight
    sort: bool = True  # canonical order and dtypes of PREDICTION_COLUMNS (else: file order, the given columns)
    #: without ``require_row_ids``: a row_id column of integers stays integers (their text is ``str`` of each)
    #: instead of one Python str per row id (the audit: a wide file's line numbers, a user's integer ids)
    integer_row_ids: bool = False
    names: Mapping[str, str | None] = dataclasses.field(default_factory=dict)

    def column(self, col: str) -> str:
        return self.names.get(col) or col


STUDY = FrameRules()


def _show(values: Iterable[Any], limit: int = 8) -> str:
    values = list(values)
    head = ", ".join(str(v) for v in values[:limit])
    return head + (f", ... ({len(values)} in all)" if len(values) > limit else "")


def _cell(value: object) -> str:
    """``repr`` of a cell without numpy's type wrapper (``-0.5``, not ``np.float64(-0.5)``)."""
    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)


#: the dtype pandas gives a frame's column of Python str (``str``; ``object`` before pandas 3)
_STR = pd.DataFrame({"a": np.array(["a"], dtype=object)})["a"].dtype


def _text(s: pd.Series, col: str, rules: FrameRules, fail, *, as_object: bool = False) -> np.ndarray | pd.Series:
    """A key column as text (``1.0`` shown as ``1``), no cell empty.  ``as_object``: as a Series of dtype
    object (one Python str per distinct value, shared by its rows), which a frame keeps as it is instead of
    converting every row to pandas' ``str`` dtype."""
    if s.isna().any():
        i = int(np.flatnonzero(s.isna().to_numpy())[0])
        fail(f"column {rules.column(col)!r} is empty in data row {i + 1}; fill it in or drop the row")
    if isinstance(s.dtype, pd.StringDtype) and s.dtype == _STR and not as_object:  # a frame's text: kept as it is
        return s.array
    if isinstance(s.dtype, pd.CategoricalDtype) and s.cat.categories.dtype == _STR and not as_object:
        return s.array  # text categories (the audit's key columns, one code a row): kept as they are
    # per distinct value, not per row (one Python str each, shared by its rows); a whole float (a column
    # with gaps read as float) as an integer; factorize's uniques are pd.unique's values, in its order
    code, uniques = pd.factorize(s)
    values = uniques.to_numpy() if isinstance(uniques.dtype, np.dtype) else uniques.array  # as pd.unique(s)
    if isinstance(s.dtype, pd.StringDtype):  # text already (pandas' str columns)
        names = np.asarray(uniques.astype(str).to_numpy(), dtype=object)
    elif isinstance(values, np.ndarray) and values.dtype.kind in "iu":  # integers: numpy's text is str()'s
        names = values.astype(str).astype(object)
    else:
        names = np.array([str(int(v)) if isinstance(v, float) and v.is_integer() else str(v) for v in values],
                         dtype=object)
    return pd.Series(names[code], dtype=object, copy=False) if as_object else names[code]


def _numeric(s: pd.Series, col: str, role: str, rules: FrameRules, fail) -> np.ndarray:
    if isinstance(s.dtype, np.dtype) and s.dtype == np.float64:  # numeric already: its values, not a copy
        return s.to_numpy()
    values = pd.to_numeric(s, errors="coerce")
    bad = (values.isna() & s.notna()).to_numpy()
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        fail(f"column {rules.column(col)!r} ({role}) is not numeric: data row {i + 1} holds {_cell(s.iloc[i])}; "
             f"give a numeric {role} column")
    return values.to_numpy(dtype=np.float64, na_value=np.nan)


def validate_predictions(
    df: pd.DataFrame, task: TaskInfo | None = None, *, rules: FrameRules = STUDY
) -> pd.DataFrame:
    """Check ``df`` against the predictions schema and return it in canonical form.

    Canonical form: the columns of :data:`PREDICTION_COLUMNS` in that order (extra
    columns are dropped), their dtypes, sorted by ``model_id, repeat, row_id``.
    If ``task`` is given, its counts must agree with the predictions.  ``rules``
    (:class:`FrameRules`) relaxes the schema for the audit; with ``sort=False`` the rows keep
    their order, the key columns are text, and the optional columns present are kept.

    Raises :class:`~prspace.core.errors.SchemaError` naming the task, the model and the
    rows at fault: one line, the problem and the fix.
    """
    fail = _Fail(task.task_id if task is not None else "?", rules.same_rows)
    if not isinstance(df, pd.DataFrame):
        raise SchemaError(f"expected a pandas DataFrame of predictions, got {type(df).__name__}")
    missing = [c for c in _required_columns(rules) if c not in df.columns]
    if missing:
        fail(f"missing column(s) {', '.join(missing)}; see prspace.core.schema for the schema")
    if len(df) == 0:
        fail("the file has no data rows; give a file with one row per model and test example")
    df = df.reset_index(drop=True)
    # the checked columns, made into one frame at the end without copying them (a column of ``df`` that needs
    # no conversion is its values, shared, not copied: the frame is read, never changed in place)
    out_cols: dict[str, Any] = {}
    present = [c for c in PREDICTION_COLUMNS if c in df.columns]
    for col in (c for c in STRING_COLUMNS if c in present):
        out_cols[col] = _text(df[col], col, rules, fail)
    if rules.same_rows:
        _check_one_task(pd.unique(pd.Series(out_cols["task_id"], copy=False)), task, fail)
    for col in (c for c in ("repeat", "fold", "row_id") if c in present):
        out_cols[col] = _index_column(df[col], col, rules, fail)
    out_cols["y_true"] = _y_true(df["y_true"], fail)
    out_cols["score"] = _scores(df, out_cols, rules, fail)
    if rules.weight:
        out_cols["weight"] = _weights(df, rules, fail)
    out = pd.DataFrame(out_cols, index=pd.RangeIndex(len(df)), copy=False)
    del out_cols
    if rules.sort:
        out = out.sort_values(["model_id", "repeat", "row_id"], kind="stable", ignore_index=True)
    _check_rows(out, rules, fail)
    if rules.same_rows:
        _check_task_counts(out, task, fail.name, rules, fail)
    return out


class _Fail:
    """Raises :class:`SchemaError` with the message, naming the task (``name``, the rows' task id once
    it is read) when the rules check one task's file."""

    def __init__(self, name: str, same_rows: bool) -> None:
        self.name, self.same_rows = name, same_rows

    def __call__(self, msg: str) -> None:
        raise SchemaError(f"predictions of task {self.name}: {msg}" if self.same_rows else msg)


def _required_columns(rules: FrameRules) -> list[str]:
    """The columns the rules require: the schema's, less the optional ones, plus ``weight``."""
    optional = {"flow_id": rules.same_rows, "flow_name": rules.same_rows, "repeat": rules.require_folds,
                "fold": rules.require_folds, "row_id": rules.require_row_ids}
    return [c for c in PREDICTION_COLUMNS if optional.get(c, True)] + (["weight"] if rules.weight else [])


def _check_one_task(tids: np.ndarray, task: TaskInfo | None, fail: _Fail) -> None:
    """One task id in the file, agreeing with the task information, of the allowed characters; from
    here on the errors name it."""
    if len(tids) != 1:
        fail(f"one task per file, found task_id values {_show(tids)}")
    fail.name = name = str(tids[0])
    if task is not None and task.task_id != name:
        fail(f"task_id in rows is {name!r} but task information says {task.task_id!r}")
    if not TASK_ID_PATTERN.match(name):
        fail("task_id has characters outside [A-Za-z0-9_.-]")


def _check_rows(out: pd.DataFrame, rules: FrameRules, fail: _Fail) -> None:
    """Every model gives every row once (one task's file), or every row once (row ids required), and
    the classes are as the rules want."""
    if rules.same_rows:
        _check_flows_and_rows(out, rules, fail)
    elif rules.require_row_ids:
        _check_once(out, fail)
    _check_classes(out, rules, fail)


def _index_column(s: pd.Series, col: str, rules: FrameRules, fail) -> Any:
    """``repeat``, ``fold`` or ``row_id`` checked: non-negative integers where the rules require the
    column, else its text (integer row ids as they are)."""
    if not (rules.require_row_ids if col == "row_id" else rules.require_folds):
        if col == "row_id" and rules.integer_row_ids and isinstance(s.dtype, np.dtype) and s.dtype.kind in "iu":
            return s.to_numpy()  # integers: no cell empty, the text of each is str() of it
        return _text(s, col, rules, fail, as_object=True)
    v = pd.to_numeric(s, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    bad = ~np.isfinite(v) | (v < 0) | (v != np.floor(v))
    if bad.any():
        fail(f"column {col} must hold non-negative integers; bad at rows {_show(np.flatnonzero(bad))}")
    return v.astype(PREDICTION_COLUMNS[col])


def _y_true(y: pd.Series, fail) -> np.ndarray:
    """``y_true`` as booleans (0 / 1 accepted)."""
    if y.dtype != bool:
        if y.isna().any() or not set(pd.unique(y)).issubset({0, 1}):
            fail("y_true must be boolean (True = positive = minority class)")
        y = y.astype(bool)
    return y.to_numpy(dtype=bool)


def _scores(df: pd.DataFrame, out_cols: dict[str, Any], rules: FrameRules, fail) -> np.ndarray:
    """The scores as float64, none missing or infinite (the first one at fault is named with its model)."""
    score = _numeric(df["score"], "score", "score", rules, fail)
    for bad, what, fix in ((np.isnan(score), "missing (NaN)", "drop those rows or give every row a score"),
                           (np.isinf(score), "infinite", "clip them to finite values (only their order matters)")):
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            model = f", model {out_cols['model_id'][i]!r}" if rules.names.get("model_id", "model_id") else ""
            fail(f"column {rules.column('score')!r} has {int(bad.sum())} {what} scores (first at data row {i + 1}"
                 f"{model}); {fix}")
    return score


def _weights(df: pd.DataFrame, rules: FrameRules, fail) -> np.ndarray:
    """The sample weights as float64, finite and >= 0."""
    weight = _numeric(df["weight"], "weight", "sample weight", rules, fail)
    if not (np.isfinite(weight) & (weight >= 0)).all():
        i = int(np.flatnonzero(~(np.isfinite(weight) & (weight >= 0)))[0])
        fail(f"column {rules.column('weight')!r} (sample weights) must be finite and >= 0; data row {i + 1} "
             f"holds {_cell(df['weight'].iloc[i])}: fix or drop that row")
    return weight


def _check_task_counts(out: pd.DataFrame, task: TaskInfo | None, name: str, rules: FrameRules, fail) -> None:
    """The positive class is the minority (but in a user's task), and the task information's counts
    agree with the rows."""
    models = pd.unique(out["model_id"])
    labels = out[out["model_id"] == models[0]].drop_duplicates("row_id")
    n, n_pos = len(labels), int(labels["y_true"].sum())
    if rules.minority_positive and n_pos > n - n_pos and not name.startswith(USER_TASK_PREFIX):
        fail(f"{n_pos} positives of {n}: the positive class must be the minority class; flip y_true")
    if task is not None:
        task.validate()
        for field, got in (("n", n), ("n_pos", n_pos), ("n_models", len(models))):
            if getattr(task, field) != got:
                fail(f"task information says {field}={getattr(task, field)} but the rows give {got}")


def _check_once(out: pd.DataFrame, fail) -> None:
    """Every row exactly once per (task, model, repeat)."""
    key = [c for c in ("task_id", "model_id", "repeat", "row_id") if c in out.columns]
    dup = out.duplicated(key, keep=False)
    if dup.any():
        d = out.loc[dup]
        first = d["model_id"].iloc[0]
        rows = pd.unique(d.loc[d["model_id"] == first, "row_id"])
        fail(f"model {first}: duplicate row_id(s) {_show(rows)} within a repeat; the run is broken")


def _check_flows_and_rows(out: pd.DataFrame, rules: FrameRules, fail) -> None:
    """One flow per model, every row once per repeat, and all models on the same rows, folds and labels."""
    per_model = out.groupby("model_id", sort=True)[["flow_id", "flow_name"]].nunique()
    multi = per_model.index[(per_model > 1).any(axis=1)]
    if len(multi):
        fail(f"model(s) {_show(multi)} have more than one flow_id or flow_name")
    if rules.require_row_ids:
        _check_once(out, fail)
    models = pd.unique(out["model_id"])
    keys = [c for c in ("repeat", "row_id", "fold", "y_true") if c in out.columns]
    ref = out[out["model_id"] == models[0]]
    key_ref = ref[keys].to_numpy()
    for m, g in out.groupby("model_id", sort=False):
        if m == models[0]:
            continue
        key = g[keys].to_numpy()
        if key.shape != key_ref.shape or not np.array_equal(key, key_ref):
            a = set(map(tuple, ref[["repeat", "row_id"]].to_numpy()))
            b = set(map(tuple, g[["repeat", "row_id"]].to_numpy()))
            if a != b:
                fail(f"model {m} predicts other rows than model {models[0]}: missing "
                     f"(repeat,row_id) {_show(sorted(a - b))}, extra {_show(sorted(b - a))}")
            fail(f"model {m} disagrees with model {models[0]} on folds or labels of some rows")


def _check_classes(out: pd.DataFrame, rules: FrameRules, fail) -> None:
    """Both classes, with positive weight, for every task and model: else its metrics are undefined."""
    weight = out["weight"].to_numpy() if "weight" in out.columns else np.ones(len(out))
    tc, tu = pd.factorize(out["task_id"], use_na_sentinel=False)
    mc, mu = pd.factorize(out["model_id"], use_na_sentinel=False)
    key = mc if len(tu) == 1 else tc.astype(np.int64) * max(len(mu), 1) + mc
    del tc, mc
    y = out["y_true"].to_numpy()
    size = len(tu) * len(mu)
    seen = np.bincount(key, minlength=size) > 0
    # the weights are finite and >= 0: a class has positive weight in a (task, model) when one of its rows does
    live = weight > 0
    pos = np.bincount(key[y & live], minlength=size)
    neg = np.bincount(key[~y & live], minlength=size)
    del key, live
    if not ((pos <= 0) | (neg <= 0))[seen].any():  # every (task, model) has both classes: the usual case, fast
        return
    frame = pd.DataFrame({"t": out["task_id"].to_numpy(), "m": out["model_id"].to_numpy(),
                          "pos": np.where(out["y_true"].to_numpy(), weight, 0.0),
                          "neg": np.where(out["y_true"].to_numpy(), 0.0, weight)})
    sums = frame.groupby(["t", "m"], sort=True)[["pos", "neg"]].sum()
    bad = sums.index[(sums["pos"] <= 0) | (sums["neg"] <= 0)]
    if len(bad):
        t, m = bad[0]
        missing = "positives" if sums.loc[(t, m), "pos"] <= 0 else "negatives"
        where = f"model {m!r}"
        if rules.names.get("task_id", "task_id") is not None:  # None: the user's file has no task column
            where = f"task {t!r}, {where}"
        fail(f"{where} has no {missing}" + (" (with positive weight)" if rules.weight else "")
             + "; its metrics are undefined: give it a test set with both classes or drop it")


def _to_table(df: pd.DataFrame, task: TaskInfo) -> pa.Table:
    types = {"str": pa.string(), "int32": pa.int32(), "int64": pa.int64(), "bool": pa.bool_(), "float64": pa.float64()}
    schema = pa.schema([(c, types[t]) for c, t in PREDICTION_COLUMNS.items()],
                       metadata={METADATA_KEY: json.dumps(task.to_dict(), sort_keys=True).encode()})
    return pa.Table.from_pandas(df, schema=schema, preserve_index=False)


def write_predictions(
    df: pd.DataFrame, task: TaskInfo, path: str | os.PathLike[str]
) -> pd.DataFrame:
    """Validate and write one task's predictions (atomically) with its task information."""
    import pyarrow.parquet as pq  # deferred: pyarrow.parquet (docs/architecture.md)

    out = validate_predictions(df, task)
    table = _to_table(out, task)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")
    return out


def _open(path: str | os.PathLike[str]) -> pq.ParquetFile:
    import pyarrow.parquet as pq  # deferred: pyarrow.parquet (docs/architecture.md)

    path = Path(path)
    if not path.is_file():
        raise SchemaError(f"no predictions file at {path}; run the source step that makes it")
    try:
        return pq.ParquetFile(path)
    except Exception as exc:  # pyarrow raises several types for a non-parquet file
        raise SchemaError(
            f"{path} is not a readable parquet file ({exc}); delete it and remake it"
        ) from None


def read_task_info(path: str | os.PathLike[str]) -> TaskInfo:
    """Read only the task information of a predictions file (cheap: no rows are read)."""
    meta = _open(path).schema_arrow.metadata or {}
    if METADATA_KEY not in meta:
        raise SchemaError(
            f"{path} has no prspace task information; write it with prspace.core.schema.write_predictions"
        )
    return TaskInfo.from_dict(json.loads(meta[METADATA_KEY]))


def read_predictions(path: str | os.PathLike[str]) -> tuple[pd.DataFrame, TaskInfo]:
    """Read and validate one task's predictions; returns ``(predictions, task_info)``."""
    task = read_task_info(path)
    df = _open(path).read().to_pandas()
    return validate_predictions(df, task), task


def task_table(tasks: Iterable[TaskInfo]) -> pd.DataFrame:
    """The task table: one row per task, columns :data:`TASK_TABLE_COLUMNS`, sorted by task_id."""
    rows = [t.to_dict() for t in tasks]
    table = pd.DataFrame(rows, columns=TASK_TABLE_COLUMNS)
    return table.sort_values("task_id", ignore_index=True)
