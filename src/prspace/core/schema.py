"""The predictions schema: one parquet file per task, whatever the source.

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

**Task information** (:class:`TaskInfo`) travels inside the parquet file as
key-value metadata (``prspace.task``), so a predictions file and its description
never drift apart; :func:`task_table` collects them into the task table.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
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


def _fail(task: str, msg: str) -> None:
    raise SchemaError(f"predictions of task {task}: {msg}")


def _show(values: Iterable[Any], limit: int = 8) -> str:
    values = list(values)
    head = ", ".join(str(v) for v in values[:limit])
    return head + (f", ... ({len(values)} in all)" if len(values) > limit else "")


def validate_predictions(df: pd.DataFrame, task: TaskInfo | None = None) -> pd.DataFrame:
    """Check ``df`` against the predictions schema and return it in canonical form.

    Canonical form: the columns of :data:`PREDICTION_COLUMNS` in that order (extra
    columns are dropped), their dtypes, sorted by ``model_id, repeat, row_id``.
    If ``task`` is given, its counts must agree with the predictions.

    Raises :class:`~prspace.core.errors.SchemaError` naming the task, the model and the
    rows at fault.
    """
    name = task.task_id if task is not None else "?"
    if not isinstance(df, pd.DataFrame):
        raise SchemaError(f"expected a pandas DataFrame of predictions, got {type(df).__name__}")
    missing = [c for c in PREDICTION_COLUMNS if c not in df.columns]
    if missing:
        _fail(name, f"missing column(s) {', '.join(missing)}; see prspace.core.schema for the schema")
    if len(df) == 0:
        _fail(name, "no rows")
    out = pd.DataFrame(index=pd.RangeIndex(len(df)))
    for col in STRING_COLUMNS:
        s = df[col]
        if s.isna().any():
            _fail(name, f"column {col} has missing values")
        out[col] = s.astype(str).to_numpy()
    tids = pd.unique(out["task_id"])
    if len(tids) != 1:
        _fail(name, f"one task per file, found task_id values {_show(tids)}")
    name = str(tids[0])
    if task is not None and task.task_id != name:
        _fail(name, f"task_id in rows is {name!r} but task information says {task.task_id!r}")
    if not TASK_ID_PATTERN.match(name):
        _fail(name, "task_id has characters outside [A-Za-z0-9_.-]")
    for col in ("repeat", "fold", "row_id"):
        v = pd.to_numeric(df[col], errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
        bad = ~np.isfinite(v) | (v < 0) | (v != np.floor(v))
        if bad.any():
            _fail(
                name,
                f"column {col} must hold non-negative integers; bad at rows {_show(np.flatnonzero(bad))}",
            )
        out[col] = v.astype(PREDICTION_COLUMNS[col])
    y = df["y_true"]
    if y.dtype != bool:
        if y.isna().any() or not set(pd.unique(y)).issubset({0, 1}):
            _fail(name, "y_true must be boolean (True = positive = minority class)")
        y = y.astype(bool)
    out["y_true"] = y.to_numpy(dtype=bool)
    score = pd.to_numeric(df["score"], errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    bad = ~np.isfinite(score)
    if bad.any():
        models = _show(pd.unique(out["model_id"].to_numpy()[bad]))
        _fail(
            name,
            f"score is NaN or infinite for {int(bad.sum())} row(s) of model(s) {models} "
            f"(row_id {_show(out['row_id'].to_numpy()[bad])}); replace or drop those models",
        )
    out["score"] = score

    out = out.sort_values(["model_id", "repeat", "row_id"], kind="stable", ignore_index=True)

    # one flow per model
    per_model = out.groupby("model_id", sort=True)[["flow_id", "flow_name"]].nunique()
    multi = per_model.index[(per_model > 1).any(axis=1)]
    if len(multi):
        _fail(name, f"model(s) {_show(multi)} have more than one flow_id or flow_name")

    # every row exactly once per (model, repeat)
    dup = out.duplicated(["model_id", "repeat", "row_id"], keep=False)
    if dup.any():
        d = out.loc[dup]
        first = d["model_id"].iloc[0]
        rows = pd.unique(d.loc[d["model_id"] == first, "row_id"])
        _fail(
            name,
            f"model {first}: duplicate row_id(s) {_show(rows)} within a repeat; the run is broken",
        )

    # all models share the same rows, folds and labels
    models = pd.unique(out["model_id"])
    ref = out[out["model_id"] == models[0]]
    key_ref = ref[["repeat", "row_id", "fold", "y_true"]].to_numpy()
    for m, g in out.groupby("model_id", sort=False):
        if m == models[0]:
            continue
        key = g[["repeat", "row_id", "fold", "y_true"]].to_numpy()
        if key.shape != key_ref.shape or not np.array_equal(key, key_ref):
            a = set(map(tuple, ref[["repeat", "row_id"]].to_numpy()))
            b = set(map(tuple, g[["repeat", "row_id"]].to_numpy()))
            if a != b:
                _fail(
                    name,
                    f"model {m} predicts other rows than model {models[0]}: missing "
                    f"(repeat,row_id) {_show(sorted(a - b))}, extra {_show(sorted(b - a))}",
                )
            _fail(
                name, f"model {m} disagrees with model {models[0]} on folds or labels of some rows"
            )

    labels = ref.drop_duplicates("row_id")
    n = len(labels)
    n_pos = int(labels["y_true"].sum())
    if n_pos == 0 or n_pos == n:
        _fail(name, f"only one class occurs ({n_pos} positives of {n}); a binary task needs both")
    if n_pos > n - n_pos and not name.startswith(USER_TASK_PREFIX):
        _fail(
            name,
            f"{n_pos} positives of {n}: the positive class must be the minority class; flip y_true",
        )
    if task is not None:
        task.validate()
        for field, got in (("n", n), ("n_pos", n_pos), ("n_models", len(models))):
            if getattr(task, field) != got:
                _fail(
                    name,
                    f"task information says {field}={getattr(task, field)} but the rows give {got}",
                )
    return out


def _to_table(df: pd.DataFrame, task: TaskInfo) -> pa.Table:
    schema = pa.schema(
        [
            ("task_id", pa.string()),
            ("model_id", pa.string()),
            ("flow_id", pa.string()),
            ("flow_name", pa.string()),
            ("repeat", pa.int32()),
            ("fold", pa.int32()),
            ("row_id", pa.int64()),
            ("y_true", pa.bool_()),
            ("score", pa.float64()),
        ],
        metadata={METADATA_KEY: json.dumps(task.to_dict(), sort_keys=True).encode()},
    )
    return pa.Table.from_pandas(df, schema=schema, preserve_index=False)


def write_predictions(
    df: pd.DataFrame, task: TaskInfo, path: str | os.PathLike[str]
) -> pd.DataFrame:
    """Validate and write one task's predictions (atomically) with its task information."""
    out = validate_predictions(df, task)
    table = _to_table(out, task)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")
    return out


def _open(path: str | os.PathLike[str]) -> pq.ParquetFile:
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
