"""Which OpenML tasks qualify (Flach and Kull 2015, section 5): two classes, 10-fold
cross-validation, runs of enough distinct flows; :func:`select_tasks` and its table."""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from prspace.core.contracts import validate_task_list
from prspace.core.errors import InputError
from prspace.openml.cache import (
    SUPERVISED_CLASSIFICATION,
    _bar,
    _pages,
    _Session,
)
from prspace.openml.client import (
    ClientSettings,
)
from prspace.openml.metadata import (
    _flows_of,
    _run_list,
    _task_meta,
)

log = logging.getLogger("prspace.openml")

# --------------------------------------------------------------------------- selection


@dataclasses.dataclass(frozen=True)
class TaskCandidate:
    """One candidate task and the verdict of :func:`select_tasks` (a row of the task list)."""

    task_id: str  # "openml-<tid>"
    selected: bool
    reason: str
    n: int | None  # NumberOfInstances of the dataset (quality), if known
    n_pos: int | None  # MinorityClassSize (quality), if known
    openml_task_id: int
    dataset_id: int | None
    dataset_name: str
    n_classes: int | None
    estimation_procedure: str
    n_flows: int  # distinct flows with an error-free run (seen; at least min_flows when selected)
    n_runs: int  # runs listed (seen)

    @property
    def pi(self) -> float | None:
        return self.n_pos / self.n if self.n and self.n_pos is not None else None


CANDIDATE_COLUMNS = [f.name for f in dataclasses.fields(TaskCandidate)]


def _is_10fold_cv(meta: dict[str, Any]) -> bool:
    return meta.get("procedure_type", "").lower() == "crossvalidation" and meta.get("n_folds") == 10


def _procedure_text(meta: dict[str, Any]) -> str:
    kind = meta.get("procedure_type") or "unknown procedure"
    folds, reps = meta.get("n_folds"), meta.get("n_repeats")
    strat = " stratified" if str(meta.get("stratified", "")).lower() == "true" else ""
    return f"{reps} x {folds}-fold{strat} {kind} (OpenML task splits)"


def _listed_is_10fold_cv(procedure: str) -> bool:
    p = procedure.lower()
    return bool(re.search(r"(^|\D)10-fold crossvalidation", p))


def _judge(s: _Session, tid: int, min_flows: int, listed: dict[str, Any] | None = None) -> TaskCandidate:
    """The verdict on one task.  With its task-listing row (``listed``: type, classes,
    procedure and class sizes known), only the run listing is requested; otherwise the task
    and dataset descriptions first (3 requests more)."""
    base = {"task_id": f"openml-{tid}", "openml_task_id": tid}
    if listed is not None and listed.get("n_classes") is not None and listed.get("procedure"):
        common = dict(base, dataset_id=listed["dataset_id"], dataset_name=listed["dataset_name"],
                      n_classes=listed["n_classes"], estimation_procedure=listed["procedure"],
                      n=listed.get("n"), n_pos=listed.get("n_pos"))
        if listed["n_classes"] != 2:
            return TaskCandidate(**common, n_flows=0, n_runs=0, selected=False,
                                 reason=f"{listed['n_classes']} classes; needs a binary task")
        if not _listed_is_10fold_cv(listed["procedure"]):
            return TaskCandidate(**common, n_flows=0, n_runs=0, selected=False,
                                 reason="estimation procedure is not 10-fold cross-validation")
    else:
        meta = _task_meta(s, tid)
        if "missing" in meta:
            return TaskCandidate(**base, dataset_id=None, dataset_name="", n_classes=None, n=None, n_pos=None,
                                 estimation_procedure="", n_flows=0, n_runs=0, selected=False,
                                 reason=f"task not found: {meta['missing']}")
        n_classes = len(meta["class_labels"]) or None
        common = dict(base, dataset_id=meta["dataset_id"], dataset_name=meta["dataset_name"],
                      n_classes=n_classes, estimation_procedure=_procedure_text(meta),
                      n=meta.get("n_instances"), n_pos=meta.get("n_minority"))
        if meta["task_type_id"] != SUPERVISED_CLASSIFICATION:
            return TaskCandidate(**common, n_flows=0, n_runs=0, selected=False,
                                 reason=f"task type {meta['task_type_id']} is not supervised classification")
        if n_classes != 2:
            return TaskCandidate(**common, n_flows=0, n_runs=0, selected=False,
                                 reason=f"{n_classes} classes; needs a binary task")
        if not _is_10fold_cv(meta):
            return TaskCandidate(**common, n_flows=0, n_runs=0, selected=False,
                                 reason="estimation procedure is not 10-fold cross-validation")
    runs = _run_list(s, tid, until_flows=min_flows)
    flows = _flows_of(runs)
    if len(flows) < min_flows:
        return TaskCandidate(**common, n_flows=len(flows), n_runs=len(runs), selected=False,
                             reason=f"{len(flows)} flows with error-free runs; needs {min_flows}")
    return TaskCandidate(**common, n_flows=len(flows), n_runs=len(runs), selected=True, reason="ok")


def _listed_tasks(s: _Session, what: str, **filters: Any) -> list[dict[str, Any]]:
    """Supervised-classification tasks of a task listing (paged), with the facts selection needs."""
    from openml.tasks import TaskType
    from openml.tasks.functions import _list_tasks

    def num(r: dict[str, Any], key: str) -> int | None:
        v = r.get(key, np.nan)
        try:
            return None if pd.isna(v) else int(float(v))
        except (TypeError, ValueError):
            return None

    def page(limit: int, offset: int) -> list[dict[str, Any]]:
        df = _list_tasks(task_type=TaskType.SUPERVISED_CLASSIFICATION, output_format="dataframe",
                         limit=limit, offset=offset, **filters)
        if df is None or len(df) == 0:
            return []
        out = []
        for r in df.to_dict("records"):
            out.append({
                "task_id": int(r["tid"]),
                "dataset_id": int(r["did"]),
                "dataset_name": str(r.get("name", "")),
                "n_classes": num(r, "NumberOfClasses"),
                "n": num(r, "NumberOfInstances"),
                "n_pos": num(r, "MinorityClassSize"),
                "procedure": str(r.get("estimation_procedure", "") or ""),
            })
        return out

    key = "-".join(f"{k}={v}" for k, v in sorted(filters.items())) or "all"
    rows, _ = _pages(s, f"task list ({what})", page,
                     ("lists", f"tasks-{re.sub(r'[^A-Za-z0-9_.=-]+', '_', key)}"))
    return sorted({r["task_id"]: r for r in rows}.values(), key=lambda r: r["task_id"])


def _study_tasks(s: _Session, ident: str, kind: str) -> list[int]:
    import openml
    from openml.exceptions import OpenMLServerException

    def fetch() -> list[int]:
        getter = openml.study.get_suite if kind == "suite" else openml.study.get_study
        try:
            study = s.call(lambda: getter(ident), f"{kind} {ident}", handled=True)
        except OpenMLServerException as exc:
            raise InputError(f"{kind} {ident!r} not found on the server ({exc.message}); check the id or alias") from None
        return sorted(int(t) for t in (study.tasks or []))

    return s.cache.memo(fetch, "lists", f"{kind}-{re.sub(r'[^A-Za-z0-9_.-]+', '_', str(ident))}.json")


def _candidate_ids(s: _Session, task_ids: Sequence[int] | None, tag: str | None, suite: str | None,
                   study: str | None, discover: bool) -> tuple[set[int], dict[int, dict[str, Any]]]:
    """``(ids, listed)``: the union of the candidate sources, and the task listing rows (of a tag or
    of discovery), judged without task/dataset calls."""
    ids: set[int] = {int(t) for t in (task_ids or [])}
    listed: dict[int, dict[str, Any]] = {}
    if tag:
        listed.update({r["task_id"]: r for r in _listed_tasks(s, f"tag {tag}", tag=tag)})
    if discover:
        listed.update({r["task_id"]: r for r in _listed_tasks(s, "discovery", number_classes=2)})
    ids.update(listed)
    for kind, ident in (("suite", suite), ("study", study)):
        if ident:
            ids.update(_study_tasks(s, str(ident), kind))
    return ids, listed


def select_tasks(
    settings: ClientSettings,
    *,
    task_ids: Sequence[int] | None = None,
    tag: str | None = None,
    suite: str | None = None,
    study: str | None = None,
    discover: bool = False,
    min_flows: int = 30,
    max_tasks: int | None = None,
    seed: int = 0,
    progress: bool = False,
) -> list[TaskCandidate]:
    """Candidate tasks with their verdicts, sorted by OpenML task id.

    Sources of candidates (their union): explicit ``task_ids``; tasks carrying
    ``tag``; the tasks of a benchmark ``suite`` or of a ``study``; with
    ``discover``, all supervised-classification tasks with 2 classes and a
    10-fold cross-validation procedure.  A task is selected when it is a binary
    supervised-classification task with 10-fold cross-validation and has error-free
    runs from at least ``min_flows`` distinct flows (Flach and Kull 2015, sec. 5).
    With ``max_tasks``, candidates are examined in an order shuffled with ``seed``
    and examination stops after ``max_tasks`` selections.
    """
    if not (task_ids or tag or suite or study or discover):
        raise InputError("no tasks to select from: give task ids, a tag, a suite, a study or --discover")
    if min_flows < 1:
        raise InputError(f"min_flows={min_flows}: use at least 1")
    if max_tasks is not None and max_tasks < 1:
        raise InputError(f"max_tasks={max_tasks}: use at least 1 or leave it out")
    s = _Session(settings)
    ids, listed = _candidate_ids(s, task_ids, tag, suite, study, discover)
    order = sorted(ids)
    if max_tasks is not None:
        order = [order[i] for i in np.random.default_rng(seed).permutation(len(order))]
    out: list[TaskCandidate] = []
    n_sel = 0
    bar = _bar(len(order), "select", progress, unit="task")
    for tid in order:
        if max_tasks is not None and n_sel >= max_tasks:
            break
        c = _judge(s, tid, min_flows, listed.get(tid))
        out.append(c)
        n_sel += c.selected
        log.log(logging.INFO if c.selected else logging.DEBUG, "task %d: %s", tid, c.reason)
        bar.update(1)
    bar.close()
    log.info("selected %d of %d candidate task(s) (%d HTTP requests)", n_sel, len(out), s.http_requests)
    return sorted(out, key=lambda c: c.openml_task_id)


def candidates_frame(cands: Sequence[TaskCandidate]) -> pd.DataFrame:
    """The candidates as a task list (:mod:`prspace.core.contracts`; OpenML columns after the
    contract's), integer ids kept integer; ``family`` is the dataset's name (or id)."""
    df = pd.DataFrame([dataclasses.asdict(c) for c in cands], columns=CANDIDATE_COLUMNS)
    df["pi"] = [c.pi for c in cands]
    df["source"] = "openml"
    df["family"] = [c.dataset_name or (f"openml-data-{c.dataset_id}" if c.dataset_id else c.task_id)
                    for c in cands]
    for col in ("dataset_id", "n_classes"):
        df[col] = df[col].astype("Int64")
    return validate_task_list(df.astype({"selected": bool}), where="OpenML candidates")


