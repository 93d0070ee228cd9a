"""Stage contracts of the workflow, as code: the task list, the per-task status, the metrics table.

:mod:`prspace.core.schema` fixes what a predictions file holds; this module fixes what the
stages around it exchange, so no consumer guesses a column:

**Task list** (``work/<study>/tasks.csv``, written by the select step of either
source: ``prspace list-datasets --out`` or ``prspace fetch-openml select --out``), one
row per candidate task, at least these columns (:data:`TASK_LIST_COLUMNS`):

==========  ========  =========================================================
column      dtype     meaning
==========  ========  =========================================================
task_id     str       the task id of the predictions schema (``openml-1882``,
                      ``keel-ecoli1``, ``user-titanic``)
selected    bool      the task goes on to the predictions step
reason      str       ``ok``/empty when selected, else why not
n           Int64     rows of the dataset (missing when unknown)
n_pos       Int64     rows of the minority (positive) class (missing when unknown)
pi          float64   class skew ``n_pos / n`` (Boyd et al. 2012, section 2)
source      str       ``local`` or ``openml``
family      str       the source dataset the task derives from (several tasks of
                      one dataset share a family); default: the dataset's name
==========  ========  =========================================================

Sources may add columns of their own (OpenML: ``openml_task_id``, ``n_flows``, ...;
local: ``n_features``). For OpenML, ``n`` and ``n_pos`` come from the task listing's
qualities (``NumberOfInstances``, ``MinorityClassSize``) at selection; the predictions
step later counts the labelled rows it really got (:class:`prspace.core.schema.TaskInfo`).

**Task status** (``work/<study>/predictions/<task>.json``, :class:`TaskStatus`): the
declared output of the predictions step, always written: ``status`` is ``ok`` (the
predictions file it names exists) or ``skipped`` (with the reason); ``failed`` is only
written by a step that exits non-zero, and no consumer accepts it.

**Metrics table** (``results/<study>/tables/metrics.csv``): read with
:func:`read_metrics_table`, which keeps the id columns as strings (a flow id ``0012``
or a task id ``1882`` must not turn into a number).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pandas as pd

from prspace.core._io import atomic_path
from prspace.core.errors import InputError
from prspace.core.output import write_csv
from prspace.core.processes import ordered_map
from prspace.core.schema import SOURCES, TaskInfo, read_predictions

__all__ = [
    "ID_COLUMNS",
    "TASK_LIST_COLUMNS",
    "TaskStatus",
    "local_task_list",
    "ok_predictions",
    "ok_statuses",
    "over_tasks",
    "read_metrics_table",
    "read_status",
    "read_task_list",
    "selected_task_ids",
    "task_predictions",
    "validate_task_list",
    "write_status",
    "write_task_list",
]

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Seconds between the progress lines of :func:`ok_predictions` (its ``progress``)
PROGRESS_SECONDS = 30.0

#: The columns every task list has, in this order (sources may append their own).
TASK_LIST_COLUMNS = ["task_id", "selected", "reason", "n", "n_pos", "pi", "source", "family"]
_TASK_LIST_DTYPES = {"task_id": str, "reason": str, "source": str, "family": str}

#: Id columns of the metrics and per-fold tables: always strings.
ID_COLUMNS = ("task_id", "model_id", "flow_id", "flow_name")

STATUSES = ("ok", "skipped")


# --------------------------------------------------------------------------- task list


def validate_task_list(table: pd.DataFrame, *, where: str = "task list") -> pd.DataFrame:
    """Check ``table`` against the task-list contract; return it with canonical dtypes and order.

    Raises :class:`~prspace.core.errors.InputError` naming the missing columns or bad values.
    """
    missing = [c for c in TASK_LIST_COLUMNS if c not in table.columns]
    if missing:
        raise InputError(
            f"{where} lacks column(s) {', '.join(missing)} (has {', '.join(map(str, table.columns))}); "
            "remake it with `prspace list-datasets --out` or `prspace fetch-openml select --out`"
        )
    out = table.copy()
    out["task_id"] = out["task_id"].astype(str)
    if out["task_id"].duplicated().any():
        dup = sorted(out.loc[out["task_id"].duplicated(), "task_id"])[:5]
        raise InputError(f"{where}: task id(s) {', '.join(dup)} listed twice; remake the task list")
    sel = out["selected"]
    if sel.dtype != bool:
        text = sel.astype(str).str.strip().str.lower()
        bad = ~text.isin(["true", "false", "1", "0"])
        if bad.any():
            raise InputError(f"{where}: column selected has non-boolean value(s) {sorted(set(sel[bad].astype(str)))[:5]}")
        sel = text.isin(["true", "1"])
    out["selected"] = sel.astype(bool)
    out["reason"] = out["reason"].fillna("").astype(str)
    for col in ("n", "n_pos"):
        out[col] = pd.to_numeric(out[col], errors="coerce").round().astype("Int64")
    out["pi"] = pd.to_numeric(out["pi"], errors="coerce").astype("float64")
    fill = (out["pi"].isna() & out["n"].notna() & out["n_pos"].notna() & (out["n"] > 0)).to_numpy(dtype=bool)
    out.loc[fill, "pi"] = out.loc[fill, "n_pos"].astype("float64") / out.loc[fill, "n"].astype("float64")
    out["source"] = out["source"].astype(str)
    bad_src = sorted(set(out["source"]) - set(SOURCES))
    if bad_src:
        raise InputError(f"{where}: source {bad_src[0]!r} is not one of {', '.join(SOURCES)}")
    fam = out["family"]
    out["family"] = fam.where(fam.notna() & (fam.astype(str) != ""), out["task_id"]).astype(str)
    extra = [c for c in out.columns if c not in TASK_LIST_COLUMNS]
    return out[TASK_LIST_COLUMNS + extra].reset_index(drop=True)


def write_task_list(table: pd.DataFrame, path: str | os.PathLike[str]) -> pd.DataFrame:
    """Validate and write a task list (CSV, atomically); returns the canonical table."""
    out = validate_task_list(table, where=f"task list for {path}")
    write_csv(out, path)  # the one table writer (prspace.core.output): its precision policy
    return out


def read_task_list(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read and validate a task list written by :func:`write_task_list`."""
    path = Path(path)
    try:
        table = pd.read_csv(path, dtype=_TASK_LIST_DTYPES, keep_default_na=False, na_values=[""])
    except FileNotFoundError:
        raise InputError(f"no task list at {path}; run the select step (checkpoint select_tasks)") from None
    except (pd.errors.EmptyDataError, pd.errors.ParserError) as exc:
        raise InputError(f"{path} is not a task list ({exc}); delete it and rerun the select step") from None
    for col in ("reason", "family"):
        if col in table.columns:
            table[col] = table[col].fillna("")
    return validate_task_list(table, where=str(path))


def selected_task_ids(table: pd.DataFrame) -> list[str]:
    """The selected task ids of a (validated) task list, sorted."""
    return sorted(table.loc[table["selected"], "task_id"].astype(str))


def local_task_list(table: pd.DataFrame, *, family: pd.Series | None = None) -> pd.DataFrame:
    """A task list from the local source's dataset table (``task_id, n, n_pos, pi, usable, reason``).

    ``selected`` is ``usable`` (kept as an extra column too); ``family`` is the table's own
    ``family`` column if it has one, else ``family`` if given, else the task id.
    """
    out = table.copy()
    out["selected"] = out["usable"].astype(bool)
    out["reason"] = out["reason"].fillna("").astype(str)
    out["source"] = "local"
    if "family" not in out.columns:
        out["family"] = family if family is not None else out["task_id"]
    return validate_task_list(out, where="local dataset table")


# --------------------------------------------------------------------------- task status


@dataclasses.dataclass
class TaskStatus:
    """The predictions step's account of one task (``<task>.json``).

    ``extra`` holds source-specific fields (OpenML: ``runs`` with run/flow ids, checksums
    and the server's evaluations, ``replaced_runs``, ``http_requests``; local:
    ``failed_learners``, timings); they are written beside the core fields.
    """

    task_id: str
    status: str  # "ok" | "skipped" ("failed" only from a failing step; never read back)
    reason: str = ""
    predictions: str | None = None
    n_models: int = 0
    seconds: float | None = None
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: Keys of ``extra`` written before ``seconds`` rather than after the core fields: the key
    #: order the status files have always had (local: ``failed_learners``; a failed OpenML
    #: fetch: ``replaced_runs``).  Not written itself.
    before_seconds: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        core = {k: v for k, v in dataclasses.asdict(self).items() if k not in ("extra", "before_seconds")}
        d: dict[str, Any] = {}
        for k, v in core.items():
            if k == "seconds":
                d |= {e: self.extra[e] for e in self.before_seconds if e in self.extra and e not in core}
            d[k] = v
        return d | {k: v for k, v in self.extra.items() if k not in d}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TaskStatus:
        core = {f.name for f in dataclasses.fields(cls)} - {"extra", "before_seconds"}
        return cls(**{k: d[k] for k in core if k in d}, extra={k: v for k, v in d.items() if k not in core})

    def __getitem__(self, key: str) -> Any:  # dict-style access for older callers
        return self.to_dict()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.to_dict().get(key, default)


def write_status(status: TaskStatus | dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Write a task status JSON atomically (``failed`` allowed: the step then exits non-zero)."""
    d = status.to_dict() if isinstance(status, TaskStatus) else dict(status)
    for key in ("task_id", "status"):
        if key not in d:
            raise InputError(f"task status lacks {key!r}")
    if d["status"] not in (*STATUSES, "failed"):
        raise InputError(f"task status {d['status']!r} is not ok, skipped or failed")
    with atomic_path(path) as tmp:
        Path(tmp).write_text(json.dumps(d, indent=2) + "\n", encoding="utf-8")


def read_status(path: str | os.PathLike[str]) -> TaskStatus:
    """Read a task status JSON; raises :class:`InputError` unless it is ``ok`` (naming a file) or ``skipped``."""
    path = Path(path)
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"no status file at {path}; run the predictions step for this task") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path} is not valid JSON ({exc}); delete it and rerun the predictions step") from None
    if not isinstance(d, dict):
        raise InputError(f"{path} is not a task status (a JSON object); delete it and rerun the predictions step")
    for key in ("task_id", "status"):
        if key not in d:
            raise InputError(f"status file {path} lacks {key!r}; rerun the predictions step")
    if d["status"] not in STATUSES:
        raise InputError(f"status file {path}: status {d['status']!r} is neither 'ok' nor 'skipped'; "
                         "the predictions step failed: read its log, fix the cause and rerun")
    if d["status"] == "ok" and not d.get("predictions"):
        raise InputError(f"status file {path} says ok but names no predictions file")
    return TaskStatus.from_dict(d)


def task_predictions(path: str | os.PathLike[str]) -> tuple[TaskStatus, pd.DataFrame | None, TaskInfo | None]:
    """One task's status (:func:`read_status`) and, if it is ``ok``, its predictions and task
    information (:func:`prspace.core.schema.read_predictions`); ``(status, None, None)`` when skipped."""
    status = read_status(path)
    if status.status != "ok":
        return status, None, None
    df, info = read_predictions(status.predictions)
    return status, df, info


def ok_statuses(status_paths: Iterable[str | os.PathLike[str]]) -> list[TaskStatus]:
    """The ``ok`` statuses among ``status_paths``, in the order of the paths sorted as strings
    (every status is read, so a bad one fails here, before any predictions are)."""
    return [s for s in (read_status(p) for p in sorted(map(str, status_paths))) if s.status == "ok"]


def ok_predictions(status_paths: Iterable[str | os.PathLike[str]], *, progress: str | None = None,
                   every: float = PROGRESS_SECONDS) -> Iterator[tuple[TaskStatus, pd.DataFrame, TaskInfo]]:
    """``(status, predictions, task information)`` of every task with predictions, in the order of
    :func:`ok_statuses`; skipped tasks are left out.  Lazy: one task's predictions are in memory at
    a time (a study's frames together do not fit on a small machine).

    ``progress`` (what the loop does, e.g. ``"noise floor"``): a log line at most every ``every`` seconds,
    ``noise floor: 120 of 886 tasks done, 5.2 min; about 9 min left``, the time left from the share of the
    predictions' bytes done (a task's work grows with its rows, not with the count of tasks)."""
    statuses = ok_statuses(status_paths)
    said = _Progress(progress, statuses, every)
    for i, status in enumerate(statuses):
        said.done(i)
        df, info = read_predictions(status.predictions)
        yield status, df, info


def over_tasks(fn: Callable[[TaskStatus, pd.DataFrame, TaskInfo], T], status_paths: Iterable[str | os.PathLike[str]],
               *, jobs: int = 1, progress: str | None = None, every: float = PROGRESS_SECONDS) -> list[T]:
    """``fn(status, predictions, info)`` of every task with predictions, in the order of :func:`ok_predictions`
    (and with its progress lines): here one task after the other (``jobs`` <= 1), or in up to ``jobs`` spawned
    processes that each read their own task's predictions (:func:`prspace.core.processes.ordered_map`; ``fn``
    must pickle: a module-level function or a ``functools.partial`` of one).  Each task's result depends on that
    task alone, so the list is the same whatever ``jobs``."""
    if jobs <= 1:
        return [fn(*task) for task in ok_predictions(status_paths, progress=progress, every=every)]
    statuses = ok_statuses(status_paths)
    said = _Progress(progress, statuses, every)
    out = []
    for result in ordered_map(functools.partial(_on_task, fn), statuses, jobs=jobs):
        out.append(result)
        said.done(len(out))
    return out


def _on_task(fn: Callable[[TaskStatus, pd.DataFrame, TaskInfo], T], status: TaskStatus) -> T:
    df, info = read_predictions(status.predictions)
    return fn(status, df, info)


class _Progress:
    """The progress lines of a loop over ``statuses`` (``what`` None: none): :meth:`done` after each task."""

    def __init__(self, what: str | None, statuses: list[TaskStatus], every: float) -> None:
        self.what, self.n, self.every = what, len(statuses), every
        self.sizes = [_size(s.predictions) for s in statuses] if what else []
        self.start = self.last = time.monotonic()

    def done(self, i: int) -> None:
        """``i`` tasks are done: a line when asked for, at least ``every`` seconds after the last, not at 0 or the end."""
        if not self.what or not 0 < i < self.n or time.monotonic() - self.last < self.every:
            return
        self.last = time.monotonic()
        spent, share = self.last - self.start, sum(self.sizes[:i]) / max(sum(self.sizes), 1)
        left = f"; about {spent * (1 - share) / share / 60:.0f} min left" if share > 0 else ""
        log.info("%s: %d of %d tasks done, %.1f min%s", self.what, i, self.n, spent / 60, left)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


# --------------------------------------------------------------------------- metrics table


def read_metrics_table(path: str | os.PathLike[str], *, columns: list[str] | None = None) -> pd.DataFrame:
    """Read a metrics (or per-fold metrics) table with the id columns as strings.

    ``columns``: the columns the table must have, in order (e.g.
    :data:`prspace.experiments.fk.scoring.METRICS_COLUMNS`); checked when given.
    """
    path = Path(path)
    try:
        table = pd.read_csv(path, dtype={c: str for c in ID_COLUMNS}, keep_default_na=True)
    except FileNotFoundError:
        raise InputError(f"no metrics table at {path}; run `prspace step collect` first") from None
    except pd.errors.EmptyDataError:
        raise InputError(f"{path} is empty; delete it and rerun `prspace step collect`") from None
    if columns is not None and list(table.columns) != list(columns):
        raise InputError(
            f"{path} is not the expected metrics table (its columns are "
            f"{', '.join(map(str, table.columns[:6]))}, ...); pass the per-model table `prspace step collect` wrote, not the per-fold ones"
        )
    for c in ID_COLUMNS:
        if c in table.columns:
            table[c] = table[c].fillna("").astype(str)
    return table
