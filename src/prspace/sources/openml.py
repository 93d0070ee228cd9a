"""OpenML binary tasks and their cross-validated predictions -> the predictions schema.

Flach and Kull (NIPS 2015, section 5) took OpenML supervised-classification tasks
with two classes, 10-fold cross-validation and predictions from at least 30
distinct flows, and ranked 30 models per task, one run from each of 30 distinct
flows.  This module does that selection and the download:

* :func:`select_tasks` - candidate tasks (explicit ids, a tag, a suite or study, or
  discovery by the paper's criteria) with the number of flows and a verdict.
* :func:`fetch_task` - ``n_models`` runs from distinct flows, drawn with a seeded
  RNG; runs with an error message, no predictions file, or a broken one (missing or
  duplicate rows, NaN scores, labels or folds that disagree) are replaced by another
  draw; the result is a predictions frame in :mod:`prspace.schema` form with its
  :class:`~prspace.schema.TaskInfo`.

The positive class is the task's minority class (ties: the class that sorts last
by name; :mod:`prspace.schema`); the score is ``confidence.<positive class>``,
never ``prediction`` (openml-python #1131).

The real ``openml`` client does the listing and metadata calls, wrapped in our
own retries (:mod:`._openml_client`); predictions files are downloaded directly,
concurrently, atomically, and checked against ``Content-Length``.  Every answer
we need is cached under ``cache_dir`` (per server), so a second run with a warm
cache makes no HTTP request and an interrupted run re-downloads nothing finished.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import datetime as _dt
import hashlib
import itertools
import json
import logging
import re
import time
import urllib.parse
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from prspace._io import atomic_path
from prspace.errors import InputError
from prspace.schema import TaskInfo
from prspace.sources._openml_arff import ArffError, ArffPredictions, parse_predictions_arff
from prspace.sources._openml_client import (
    ClientSettings,
    OpenMLNetworkError,
    OpenMLServerRefused,
    ServerFileMissing,
    call,
    configure,
    download,
    request_count,
)
from prspace.sources.dataset import positive_label

__all__ = [
    "ClientSettings",
    "FetchResult",
    "OpenMLNetworkError",
    "OpenMLServerRefused",
    "ReplayMismatch",
    "TaskCandidate",
    "fetch_task",
    "select_tasks",
]

log = logging.getLogger("prspace.sources.openml")

SUPERVISED_CLASSIFICATION = 1
MAX_RUNS_PER_FLOW = 3  # runs of one flow tried before moving on to another flow
MIN_PAGE_SIZE = 50  # a 516 answer halves the page size down to this


class ReplayMismatch(InputError):
    """A manifest's run cannot be drawn again as recorded (file changed or gone)."""


# --------------------------------------------------------------------------- cache


class _Cache:
    """JSON answers and downloaded files under ``<cache_dir>/prspace/<server key>/``."""

    def __init__(self, settings: ClientSettings) -> None:
        u = urllib.parse.urlparse(settings.server)
        key = re.sub(r"[^A-Za-z0-9_.-]+", "_", u.netloc) + "-" + hashlib.sha1(
            settings.server.rstrip("/").encode()
        ).hexdigest()[:8]
        self.root = Path(settings.cache_dir) / "prspace" / key

    def path(self, *parts: str) -> Path:
        return self.root.joinpath(*parts)

    def get(self, *parts: str) -> Any | None:
        p = self.path(*parts)
        if not p.is_file():
            return None
        try:
            return json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # a damaged entry is fetched again

    def put(self, value: Any, *parts: str) -> Any:
        with atomic_path(self.path(*parts)) as tmp:
            tmp.write_text(json.dumps(value, sort_keys=True), encoding="utf-8")
        return value

    def memo(self, fn: Callable[[], Any], *parts: str) -> Any:
        hit = self.get(*parts)
        return hit if hit is not None else self.put(fn(), *parts)


class _Session:
    """Settings + cache + a configured client, shared by one select or fetch."""

    def __init__(self, settings: ClientSettings) -> None:
        configure(settings)
        self.settings = settings
        self.cache = _Cache(settings)
        self.requests_at_start = request_count()

    @property
    def http_requests(self) -> int:
        return request_count() - self.requests_at_start

    def call(self, fn: Callable[[], Any], what: str, *, handled: tuple[int, ...] | bool = ()) -> Any:
        return call(fn, what, self.settings, handled=handled)


def _is_limit_too_high(exc: BaseException) -> bool:
    from openml.exceptions import OpenMLServerException

    return isinstance(exc, OpenMLServerException) and exc.code == 516


def _pages(
    s: _Session,
    what: str,
    list_page: Callable[[int, int], list[dict[str, Any]]],
    cache_dir: tuple[str, ...],
    *,
    enough: Callable[[list[dict[str, Any]]], bool] | None = None,
) -> tuple[list[dict[str, Any]], bool]:
    """Every row of a listing, one page of at most ``settings.page_size`` rows per call.

    ``list_page(limit, offset)`` makes one call; "no results" (codes 482/512/542) ends the
    listing; code 516 ("limit too high": the server's cap is lower than our page size)
    halves the page size and asks again.  Each page is cached (``cache_dir/<offset>-<limit>.json``),
    so an interrupted listing resumes and a warm cache makes no request.  ``enough(rows)``
    stops early (returns ``complete=False``).  Returns ``(rows, complete)``.
    """
    from openml.exceptions import OpenMLServerNoResult

    size = s.settings.page_size
    rows: list[dict[str, Any]] = []
    offset = 0
    while True:
        parts = (*cache_dir, f"{offset}-{size}.json")
        page = s.cache.get(*parts)
        if page is None:
            try:
                page = s.call(lambda o=offset, n=size: list_page(n, o), f"{what} (limit {size}, offset {offset})",
                              handled=(516,))
            except OpenMLServerNoResult:
                page = []
            except Exception as exc:
                if not _is_limit_too_high(exc) or size <= MIN_PAGE_SIZE:
                    if _is_limit_too_high(exc):
                        raise OpenMLServerRefused(
                            f"{what}: the server refuses even {size} rows a call (code 516); "
                            "lower config key openml.page_size") from None
                    raise
                new = max(MIN_PAGE_SIZE, size // 2)
                log.warning("%s: the server caps a listing below %d rows (code 516); paging with %d",
                            what, size, new)
                size = new
                continue
            s.cache.put(page, *parts)
        rows += page
        if len(page) < size:
            return rows, True
        if enough is not None and enough(rows):
            return rows, False
        offset += len(page)


# --------------------------------------------------------------------------- metadata


def _task_meta(s: _Session, tid: int) -> dict[str, Any]:
    """Task facts we need, cached: type, dataset, target, classes, procedure, size."""

    def fetch() -> dict[str, Any]:
        import openml
        from openml.exceptions import OpenMLServerException

        try:
            task = s.call(
                lambda: openml.tasks.get_task(tid, download_splits=False, download_data=False,
                                              download_qualities=False),
                f"task {tid}", handled=True,
            )
        except OpenMLServerException as exc:
            msg = str(exc.message).removesuffix(" - None")
            return {"task_id": tid, "missing": f"server says: {msg} (code {exc.code})"}
        did = int(task.dataset_id)
        ds = s.call(
            lambda: openml.datasets.get_dataset(did, download_data=False, download_qualities=True,
                                                download_features_meta_data=False),
            f"dataset {did} of task {tid}",
        )
        quals = ds.qualities or {}
        ep = getattr(task, "estimation_procedure", {}) or {}
        params = ep.get("parameters") or {}

        def _int(v: Any) -> int | None:
            try:
                return int(float(v))
            except (TypeError, ValueError):
                return None

        n_inst = _int(quals.get("NumberOfInstances"))
        return {
            "n_minority": _int(quals.get("MinorityClassSize")),
            "task_id": tid,
            "task_type_id": int(task.task_type_id.value),
            "dataset_id": did,
            "dataset_name": str(ds.name),
            "target": str(getattr(task, "target_name", "") or ""),
            "class_labels": [str(c) for c in (getattr(task, "class_labels", None) or [])],
            "procedure_type": str(ep.get("type", "")),
            "n_folds": _int(params.get("number_folds")),
            "n_repeats": _int(params.get("number_repeats")) or 1,
            "stratified": str(params.get("stratified_sampling", "")),
            "n_instances": n_inst,
        }

    return s.cache.memo(fetch, "tasks", str(tid), "task.json")


def _run_rows(df: Any) -> list[dict[str, Any]]:
    if df is None or len(df) == 0:
        return []
    return [
        {"run_id": int(r.run_id), "flow_id": int(r.flow_id), "error_message": str(r.error_message or "")}
        for r in df.itertuples()
    ]


def _run_list(s: _Session, tid: int, *, until_flows: int | None = None) -> list[dict[str, Any]]:
    """Runs on task ``tid`` (run_id, flow_id, error_message), paged and cached page by page.

    Pages of ``settings.page_size`` rows (at most 1,000 on the live server since the PHP API
    1.2.6; a larger ``limit`` is answered with code 516).  Large offsets time out
    (openml-python #1528): when a page fails after all retries, the flows seen so far are
    completed by one (paged) listing per flow (task + flow filters) and the rest is left
    out, with a warning.  ``until_flows``: stop once that many distinct flows have an
    error-free run (selection needs no more; the fetch step reads on from the cache).
    """
    from openml.runs.functions import _list_runs

    def page_of(**filters: Any) -> Callable[[int, int], list[dict[str, Any]]]:
        return lambda limit, offset: _run_rows(_list_runs(
            output_format="dataframe", display_errors=True, limit=limit, offset=offset, **filters))

    def enough(rows: list[dict[str, Any]]) -> bool:
        return until_flows is not None and len(_flows_of(rows)) >= until_flows

    what = f"run list of task {tid}"
    try:
        rows, _complete = _pages(s, what, page_of(task=[tid]), ("tasks", str(tid), "runs"), enough=enough)
    except OpenMLNetworkError as exc:
        if isinstance(exc, OpenMLServerRefused):
            raise
        seen = s.cache.get("tasks", str(tid), "runs", f"0-{s.settings.page_size}.json")
        if not seen:
            raise
        rows = []
        for f in sorted(s.cache.path("tasks", str(tid), "runs").glob("*.json")):
            rows += json.loads(f.read_text(encoding="utf-8"))
        flows = sorted({r["flow_id"] for r in rows})
        log.warning(
            "%s fails at a large offset (openml-python #1528): %s; completing the %d flows seen so "
            "far flow by flow", what, exc, len(flows))
        by_run = {r["run_id"]: r for r in rows}
        for fid in flows:
            more, _ = _pages(s, f"{what} flow {fid}", page_of(task=[tid], flow=[fid]),
                             ("tasks", str(tid), f"runs-flow-{fid}"))
            by_run.update({r["run_id"]: r for r in more})
        rows = list(by_run.values())
    return sorted({r["run_id"]: r for r in rows}.values(), key=lambda r: r["run_id"])


def _run_meta(s: _Session, rid: int) -> dict[str, Any]:
    """Flow id and name and the predictions URL of run ``rid``, cached."""

    def fetch() -> dict[str, Any]:
        import openml
        from openml.exceptions import OpenMLServerException

        try:
            run = s.call(lambda: openml.runs.get_run(rid, ignore_cache=True), f"run {rid}", handled=True)
        except OpenMLServerException as exc:  # e.g. a listed run whose description is gone
            return {"run_id": rid, "task_id": None, "flow_id": None, "flow_name": "",
                    "predictions_url": None,
                    "problem": f"run description unavailable: {str(exc.message).removesuffix(' - None')} "
                               f"(code {exc.code})"}
        except ValueError as exc:
            # the client refuses runs whose description lists no predictions file (#309)
            if "No prediction files" not in str(exc):
                raise
            return {"run_id": rid, "task_id": None, "flow_id": None, "flow_name": "",
                    "predictions_url": None}
        return {
            "run_id": rid,
            "task_id": int(run.task_id),
            "flow_id": int(run.flow_id),
            "flow_name": str(run.flow_name or f"flow-{run.flow_id}"),
            "predictions_url": run.predictions_url,
            "server_auroc": _float_or_none((run.evaluations or {}).get("area_under_roc_curve")),
            "server_fold_auroc": {
                f"{r}:{f}": _float_or_none(v)
                for r, folds in ((run.fold_evaluations or {}).get("area_under_roc_curve") or {}).items()
                for f, v in folds.items()
            },
        }

    return s.cache.memo(fetch, "runs", f"{rid}.json")


def _float_or_none(v: Any) -> float | None:
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if np.isfinite(x) else None


def _dataset_labels(s: _Session, meta: dict[str, Any]) -> list[str | None]:
    """The task target's value for every dataset row (row_id order), cached."""

    def fetch() -> list[str | None]:
        import openml

        did, target = int(meta["dataset_id"]), meta["target"]
        ds = s.call(
            lambda: openml.datasets.get_dataset(did, download_data=True, download_qualities=False,
                                                download_features_meta_data=False),
            f"dataset {did} data",
        )
        _, y, _, _ = ds.get_data(target=target)
        y = pd.Series(y)
        return [None if pd.isna(v) else str(v) for v in y.tolist()]

    return s.cache.memo(fetch, "tasks", str(meta["task_id"]), "labels.json")


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


def _flows_of(runs: Iterable[dict[str, Any]]) -> dict[int, list[int]]:
    flows: dict[int, list[int]] = {}
    for r in runs:
        if r["error_message"].strip():
            continue
        flows.setdefault(r["flow_id"], []).append(r["run_id"])
    return flows


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
    ids: set[int] = {int(t) for t in (task_ids or [])}
    listed: dict[int, dict[str, Any]] = {}  # task listing rows: judged without task/dataset calls

    if tag:
        listed.update({r["task_id"]: r for r in _listed_tasks(s, f"tag {tag}", tag=tag)})
    if discover:
        listed.update({r["task_id"]: r for r in _listed_tasks(s, "discovery", number_classes=2)})
    ids.update(listed)
    for kind, ident in (("suite", suite), ("study", study)):
        if ident:
            ids.update(_study_tasks(s, str(ident), kind))

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
    """The candidates as a task list (:mod:`prspace.contracts`; OpenML columns after the
    contract's), integer ids kept integer; ``family`` is the dataset's name (or id)."""
    from prspace.contracts import validate_task_list

    df = pd.DataFrame([dataclasses.asdict(c) for c in cands], columns=CANDIDATE_COLUMNS)
    df["pi"] = [c.pi for c in cands]
    df["source"] = "openml"
    df["family"] = [c.dataset_name or (f"openml-data-{c.dataset_id}" if c.dataset_id else c.task_id)
                    for c in cands]
    for col in ("dataset_id", "n_classes"):
        df[col] = df[col].astype("Int64")
    return validate_task_list(df.astype({"selected": bool}), where="OpenML candidates")


# --------------------------------------------------------------------------- fetching


@dataclasses.dataclass
class FetchResult:
    """What :func:`fetch_task` did: the predictions (when ok) and an account of it."""

    task_id: str
    status: str  # "ok" or "skipped"
    reason: str
    predictions: pd.DataFrame | None
    task_info: TaskInfo | None
    runs: list[int]
    replaced_runs: list[dict[str, Any]]
    seconds: float
    http_requests: int
    #: per drawn run: run_id, flow_id, flow_name, sha256 of the predictions file, and the
    #: server's area_under_roc_curve (overall and per "repeat:fold") from the run description
    run_details: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    task_repeats: int | None = None  # CV repeats of the task's estimation procedure

    @property
    def n_models(self) -> int:
        return len(self.runs)


class _BrokenRun(Exception):
    pass


def _show(values: Iterable[Any], limit: int = 8) -> str:
    values = list(values)
    head = ", ".join(str(v) for v in values[:limit])
    return head + (f", ... ({len(values)} in all)" if len(values) > limit else "")


@dataclasses.dataclass
class _Reference:
    """What every accepted run must agree with."""

    labels: pd.Series | None = None  # row_id -> label
    positive: str | None = None
    n_expected: int | None = None  # rows per repeat, if known
    folds: pd.Series | None = None  # (repeat, row_id) -> fold of the first accepted run


def _as_int(a: np.ndarray, what: str, rid: int) -> np.ndarray:
    bad = ~np.isfinite(a) | (a < 0) | (a != np.floor(a))
    if bad.any():
        raise _BrokenRun(f"{what} is missing or not a non-negative integer in data rows {_show(np.flatnonzero(bad) + 1)}")
    return a.astype(np.int64)


def _minority(labels: pd.Series) -> str:
    counts = labels.value_counts()
    if len(counts) != 2:
        raise _BrokenRun(f"labels have {len(counts)} classes ({_show(counts.index)}); needs 2")
    return str(positive_label(labels))  # the minority class; on a tie the one that sorts last


def _frame_of_run(
    raw: ArffPredictions,
    rid: int,
    repeats: Sequence[int] | None,
    ref: _Reference,
    get_dataset_labels: Callable[[], pd.Series],
) -> pd.DataFrame:
    """Check one parsed run against the reference; return repeat, fold, row_id, label, score."""
    rep = _as_int(raw.repeat, "repeat", rid)
    keep = np.isin(rep, list(repeats)) if repeats is not None else np.ones(len(rep), bool)
    if not keep.any():
        raise _BrokenRun(f"no rows for repeat(s) {_show(repeats or [])} (repeats present: {_show(np.unique(rep))})")
    fold = _as_int(raw.fold[keep], "fold", rid)
    row = _as_int(raw.row_id[keep], "row_id", rid)
    rep = rep[keep]
    df = pd.DataFrame({"repeat": rep, "fold": fold, "row_id": row})
    dup = df.duplicated(["repeat", "row_id"], keep=False)
    if dup.any():
        raise _BrokenRun(f"duplicate row_id(s) {_show(pd.unique(df.loc[dup, 'row_id']))} within a repeat")
    correct = None if raw.correct is None else pd.Series(raw.correct[keep]).astype(object)

    if ref.labels is None:
        from_correct = None
        if correct is not None and ref.n_expected is not None and correct.notna().all():
            first = df["repeat"] == df["repeat"].min()
            lab = pd.Series(correct[first.to_numpy()].to_numpy(), index=df.loc[first, "row_id"].to_numpy())
            if set(lab.index) == set(range(ref.n_expected)):
                from_correct = lab.astype(str).sort_index()
        labels = from_correct if from_correct is not None else get_dataset_labels()
        positive = _minority(labels.dropna())
        ref.labels, ref.positive = labels, positive
        if ref.n_expected is None:
            ref.n_expected = len(labels)
    labels = ref.labels

    # every expected row once per repeat
    expected = np.arange(ref.n_expected) if ref.n_expected is not None else labels.index.to_numpy()
    for r, g in df.groupby("repeat", sort=True):
        got = g["row_id"].to_numpy()
        missing = np.setdiff1d(expected, got)
        extra = np.setdiff1d(got, expected)
        if len(missing) or len(extra):
            parts = []
            if len(missing):
                parts.append(f"missing row_id(s) {_show(missing)}")
            if len(extra):
                parts.append(f"unknown row_id(s) {_show(extra)}")
            raise _BrokenRun(f"repeat {r}: " + "; ".join(parts))

    pos = ref.positive
    if pos not in raw.confidence:
        raise _BrokenRun(f"no confidence.{pos} column (has {_show('confidence.' + c for c in raw.confidence)})")
    score = raw.confidence[pos][keep]
    bad = ~np.isfinite(score)
    if bad.any():
        raise _BrokenRun(f"score confidence.{pos} is NaN or missing at row_id(s) {_show(np.sort(row[bad]))}")
    df["score"] = score
    lab = labels.reindex(df["row_id"].to_numpy())
    if lab.isna().any():
        raise _BrokenRun(f"no label for row_id(s) {_show(df['row_id'].to_numpy()[lab.isna().to_numpy()])}")
    df["label"] = lab.to_numpy()
    if correct is not None:
        disagree = correct.astype(str).to_numpy() != df["label"].to_numpy()
        if disagree.any():
            raise _BrokenRun(f"'correct' disagrees with the task labels at row_id(s) {_show(np.sort(row[disagree]))}")
    key = pd.MultiIndex.from_arrays([df["repeat"], df["row_id"]])
    folds = pd.Series(df["fold"].to_numpy(), index=key)
    if ref.folds is not None:
        other = ref.folds.reindex(key).to_numpy()
        diff = other != folds.to_numpy()
        if diff.any():
            raise _BrokenRun(f"folds differ from the task's splits at row_id(s) {_show(np.sort(row[diff]))}")
    return df


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _bar(total: int, desc: str, enabled: bool, unit: str = "model") -> Any:
    if enabled:
        from tqdm import tqdm

        return tqdm(total=total, desc=desc, unit=unit, leave=False)

    class _Null:
        def update(self, n: int = 1) -> None: ...
        def close(self) -> None: ...

    return _Null()


def _parse_repeats(repeats: Sequence[int] | str | int | None) -> list[int] | None:
    if repeats is None:
        return [0]
    if isinstance(repeats, str):
        if repeats.strip().lower() == "all":
            return None
        try:
            repeats = [int(x) for x in repeats.split(",") if x.strip()]
        except ValueError:
            raise InputError(f"repeats={repeats!r}: give comma-separated repeat numbers (e.g. 0) or 'all'") from None
    if isinstance(repeats, int):
        repeats = [repeats]
    out = sorted({int(r) for r in repeats})
    if not out or out[0] < 0:
        raise InputError(f"repeats={repeats!r}: give non-negative repeat numbers (e.g. 0) or 'all'")
    return out


def fetch_task(
    settings: ClientSettings,
    task_id: int,
    *,
    n_models: int = 30,
    min_flows: int = 30,
    seed: int = 0,
    repeats: Sequence[int] | str | int | None = (0,),
    progress: bool = False,
    replay: Sequence[dict[str, Any]] | None = None,
) -> FetchResult:
    """Fetch ``n_models`` runs of distinct flows on OpenML task ``task_id``.

    Flows are shuffled with ``numpy.random.default_rng([seed, task_id])`` and so are
    each flow's error-free runs; the first usable run of each flow is taken, trying
    up to 3 runs of a flow before moving to the next flow, until ``n_models`` flows
    have a usable run.  A task with fewer than ``min_flows`` flows, or fewer than
    ``n_models`` usable ones, is *skipped* (``status="skipped"`` and the reason), not
    an error.  Raises :class:`OpenMLNetworkError` when the server keeps failing
    (everything downloaded stays in the cache) and :class:`InputError` for bad
    arguments or a task the server does not know.

    ``replay``: the runs of a manifest (``run_id``, ``flow_id``, ``sha256``), drawn again
    exactly, in that order, with no listing call; a run that is gone, broken or whose
    predictions file's SHA-256 differs raises :class:`ReplayMismatch`.
    """
    t0 = time.monotonic()
    tid = int(task_id)
    name = f"openml-{tid}"
    if n_models < 1:
        raise InputError(f"n_models={n_models}: use at least 1")
    if min_flows < 1:
        raise InputError(f"min_flows={min_flows}: use at least 1")
    keep_repeats = _parse_repeats(repeats)
    s = _Session(settings)
    replaced: list[dict[str, Any]] = []

    def result(status: str, reason: str, df: pd.DataFrame | None = None, info: TaskInfo | None = None,
               runs: list[int] | None = None) -> FetchResult:
        secs = time.monotonic() - t0
        if status != "ok":
            log.warning("task %s skipped: %s", name, reason)
        return FetchResult(name, status, reason, df, info, runs or [], replaced, secs, s.http_requests)

    meta = _task_meta(s, tid)
    if "missing" in meta:
        raise InputError(f"OpenML task {tid} is not on {settings.server} ({meta['missing']}); check the task id")
    if meta["task_type_id"] != SUPERVISED_CLASSIFICATION:
        return result("skipped", f"task type {meta['task_type_id']} is not supervised classification")
    if len(meta["class_labels"]) not in (0, 2):
        return result("skipped", f"{len(meta['class_labels'])} classes; needs a binary task")
    expected_sha: dict[int, str] = {}
    if replay is not None:
        flows = {}
        for r in replay:
            flows.setdefault(int(r["flow_id"]), []).append(int(r["run_id"]))
            expected_sha[int(r["run_id"])] = str(r.get("sha256") or "")
        if any(len(v) > 1 for v in flows.values()) or not flows:
            raise InputError(f"manifest entry of task {tid}: needs one run per distinct flow; remake the manifest")
        flow_order = [int(r["flow_id"]) for r in replay]
        run_order = {int(r["flow_id"]): [int(r["run_id"])] for r in replay}
        n_models = len(flow_order)
    else:
        runs = _run_list(s, tid)
        flows = _flows_of(runs)
        n_err = sum(1 for r in runs if r["error_message"].strip())
        if len(flows) < min_flows or len(flows) < n_models:
            return result("skipped", f"{len(flows)} flows with error-free runs ({n_err} runs with errors left out); "
                                      f"needs {max(min_flows, n_models)}")

        rng = np.random.default_rng([seed, tid])
        flow_order = [sorted(flows)[i] for i in rng.permutation(len(flows))]
        run_order = {f: [sorted(flows[f])[i] for i in rng.permutation(len(flows[f]))][:MAX_RUNS_PER_FLOW]
                     for f in flow_order}
    next_flow = iter(flow_order)
    attempts: dict[int, int] = {}
    accepted: dict[int, tuple[int, dict[str, Any], pd.DataFrame]] = {}  # flow -> run, meta, frame
    ref = _Reference(n_expected=meta.get("n_instances"))
    label_cache: dict[str, pd.Series] = {}

    def dataset_labels() -> pd.Series:
        if "y" not in label_cache:
            y = pd.Series(_dataset_labels(s, meta), dtype=object)
            label_cache["y"] = y.dropna()
        return label_cache["y"]

    pending: list[int] = list(itertools.islice(next_flow, n_models))
    bar = _bar(n_models, name, progress)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=settings.workers)
    try:
        while len(accepted) < n_models and pending:
            wave = [(f, run_order[f][attempts.get(f, 0)]) for f in pending]
            for f, _ in wave:
                attempts[f] = attempts.get(f, 0) + 1
            metas = list(pool.map(lambda fr: _run_meta(s, fr[1]), wave))

            def get_file(m: dict[str, Any]) -> Path | str:
                if not m["predictions_url"]:
                    return m.get("problem") or "no predictions file (openml-python #309)"
                dest = s.cache.path("predictions", f"run-{m['run_id']}.arff")
                try:
                    return download(m["predictions_url"], dest, f"predictions of run {m['run_id']}", settings)
                except ServerFileMissing as exc:
                    return f"predictions file not on the server ({exc})"

            files = list(pool.map(get_file, metas))
            pending = []
            for (f, rid), m, path in zip(wave, metas, files, strict=True):
                try:
                    if isinstance(path, str):
                        raise _BrokenRun(path)
                    digest = _sha256(path)
                    if replay is not None and expected_sha.get(rid) and digest != expected_sha[rid]:
                        raise ReplayMismatch(
                            f"replay of task {tid}: the predictions file of run {rid} has changed "
                            f"(SHA-256 {digest[:12]}... , the manifest says {expected_sha[rid][:12]}...); "
                            "the draw cannot be reproduced: use a fresh draw (unset openml.replay)")
                    try:
                        raw = parse_predictions_arff(path)
                    except ArffError as exc:
                        raise _BrokenRun(f"unreadable predictions file: {exc}") from None
                    frame = _frame_of_run(raw, rid, keep_repeats, ref, dataset_labels)
                    m = dict(m, sha256=digest)
                except _BrokenRun as exc:
                    reason = str(exc)
                    if replay is not None:
                        raise ReplayMismatch(f"replay of task {tid}: run {rid} (flow {f}) can no longer be "
                                             f"used: {reason}; use a fresh draw (unset openml.replay)") from None
                    replaced.append({"run_id": rid, "flow_id": f, "reason": reason})
                    log.warning("task %s: run %d (flow %d) replaced: %s", name, rid, f, reason)
                    if attempts[f] < len(run_order[f]):
                        pending.append(f)
                    else:
                        nf = next(next_flow, None)
                        if nf is not None:
                            pending.append(nf)
                    continue
                if ref.folds is None:
                    ref.folds = pd.Series(frame["fold"].to_numpy(),
                                          index=pd.MultiIndex.from_arrays([frame["repeat"], frame["row_id"]]))
                accepted[f] = (rid, m, frame)
                bar.update(1)
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)  # stop soon; finished files are kept
        raise
    finally:
        # after a network failure the other downloads of the wave still finish (kept for resume)
        pool.shutdown(wait=True)
        bar.close()

    if len(accepted) < n_models:
        return result("skipped", f"only {len(accepted)} usable flows of {len(flows)} "
                                  f"({len(replaced)} runs replaced); needs {n_models}")

    parts = []
    for f in flow_order:
        if f not in accepted:
            continue
        rid, m, frame = accepted[f]
        parts.append(frame.assign(model_id=f"run-{rid}", flow_id=str(f), flow_name=m["flow_name"]))
    df = pd.concat(parts, ignore_index=True)
    df["task_id"] = name
    df["y_true"] = df["label"].to_numpy() == ref.positive
    first = df[df["model_id"] == df["model_id"].iloc[0]].drop_duplicates("row_id")
    import openml

    info = TaskInfo(
        task_id=name,
        source="openml",
        dataset_id=str(meta["dataset_id"]),
        dataset_name=meta["dataset_name"],
        n=int(len(first)),
        n_pos=int(first["y_true"].sum()),
        positive_class=str(ref.positive),
        estimation_procedure=_procedure_text(meta),
        n_folds=int(meta["n_folds"] or df["fold"].nunique()),
        n_repeats=int(df["repeat"].nunique()),
        n_models=len(accepted),
        provenance=f"{settings.server} via openml-python {openml.__version__}",
        created_at=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        notes=(f"{len(replaced)} run(s) replaced: " + "; ".join(
            f"run {r['run_id']}: {r['reason']}" for r in replaced)) if replaced else "",
    )
    cols = ["task_id", "model_id", "flow_id", "flow_name", "repeat", "fold", "row_id", "y_true", "score"]
    res = result("ok", f"{len(accepted)} models from distinct flows" + (" (replayed from a manifest)" if replay
                 is not None else ""), df[cols], info, [accepted[f][0] for f in flow_order if f in accepted])
    res.run_details = [
        {"run_id": accepted[f][0], "flow_id": f, "flow_name": accepted[f][1]["flow_name"],
         "sha256": accepted[f][1]["sha256"], "server_auroc": accepted[f][1].get("server_auroc"),
         "server_fold_auroc": accepted[f][1].get("server_fold_auroc") or {}}
        for f in flow_order if f in accepted
    ]
    res.task_repeats = meta.get("n_repeats")
    log.info("task %s: %d models, %d runs replaced, %d HTTP requests, %.1fs",
             name, res.n_models, len(replaced), res.http_requests, res.seconds)
    return res
