"""OpenML binary tasks and their cross-validated predictions -> the predictions schema.

Flach and Kull (NIPS 2015, section 5) took OpenML supervised-classification tasks
with two classes, 10-fold cross-validation and predictions from at least 30
distinct flows, and ranked 30 models per task, one run from each of 30 distinct
flows.  The selection is :mod:`prspace.openml.selection`; this module does the download:

* :func:`select_tasks` - candidate tasks (explicit ids, a tag, a suite or study, or
  discovery by the paper's criteria) with the number of flows and a verdict.
* :func:`fetch_task` - ``n_models`` runs from distinct flows, drawn with a seeded
  RNG; runs with an error message, no predictions file, or a broken one (missing or
  duplicate rows, NaN scores, labels or folds that disagree) are replaced by another
  draw; the result is a predictions frame in :mod:`prspace.core.schema` form with its
  :class:`~prspace.core.schema.TaskInfo`.

The positive class is the task's minority class (ties: the class that sorts last
by name; :mod:`prspace.core.schema`); the score is ``confidence.<positive class>``,
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
import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from prspace.core.errors import InputError
from prspace.core.schema import TaskInfo
from prspace.openml.cache import (
    MAX_RUNS_PER_FLOW,
    SUPERVISED_CLASSIFICATION,
    _bar,
    _Session,
)
from prspace.openml.client import (
    ClientSettings,
    ServerFileMissing,
    download,
)
from prspace.openml.metadata import (
    _dataset_labels,
    _run_list,
    _run_meta,
    _task_meta,
)
from prspace.openml.predictions_arff import ArffError, parse_predictions_arff
from prspace.openml.runs import _BrokenRun, _frame_of_run, _Reference
from prspace.openml.selection import (
    _flows_of,
    _procedure_text,
)

log = logging.getLogger("prspace.openml")


class ReplayMismatch(InputError):
    """A manifest's run cannot be drawn again as recorded (file changed or gone)."""



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


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


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


def _replay_order(replay: Sequence[dict[str, Any]], tid: int,
                  expected_sha: dict[int, str]) -> tuple[dict[int, list[int]], list[int], dict[int, list[int]]]:
    """``(flows, flow order, run order)`` of a manifest's runs, drawn again exactly; fills ``expected_sha``."""
    flows: dict[int, list[int]] = {}
    for r in replay:
        flows.setdefault(int(r["flow_id"]), []).append(int(r["run_id"]))
        expected_sha[int(r["run_id"])] = str(r.get("sha256") or "")
    if any(len(v) > 1 for v in flows.values()) or not flows:
        raise InputError(f"manifest entry of task {tid}: needs one run per distinct flow; remake the manifest")
    flow_order = [int(r["flow_id"]) for r in replay]
    run_order = {int(r["flow_id"]): [int(r["run_id"])] for r in replay}
    return flows, flow_order, run_order


def _drawn_order(flows: dict[int, list[int]], seed: int, tid: int) -> tuple[list[int], dict[int, list[int]]]:
    """The flows in a random order and each flow's first MAX_RUNS_PER_FLOW runs in a random order,
    drawn from ``numpy.random.default_rng([seed, tid])`` (flows first, then each flow's runs)."""
    rng = np.random.default_rng([seed, tid])
    flow_order = [sorted(flows)[i] for i in rng.permutation(len(flows))]
    run_order = {f: [sorted(flows[f])[i] for i in rng.permutation(len(flows[f]))][:MAX_RUNS_PER_FLOW]
                 for f in flow_order}
    return flow_order, run_order


def _predictions_file(s: _Session, settings: ClientSettings, m: dict[str, Any]) -> Path | str:
    """The downloaded predictions file of run meta ``m``, or why there is none."""
    if not m["predictions_url"]:
        return m.get("problem") or "no predictions file (openml-python #309)"
    dest = s.cache.path("predictions", f"run-{m['run_id']}.arff")
    try:
        return download(m["predictions_url"], dest, f"predictions of run {m['run_id']}", settings)
    except ServerFileMissing as exc:
        return f"predictions file not on the server ({exc})"


def _read_run(path: Path | str, m: dict[str, Any], rid: int, tid: int, replay: Sequence[dict[str, Any]] | None,
              expected_sha: dict[int, str], keep_repeats: Any, ref: _Reference,
              dataset_labels: Any) -> tuple[pd.DataFrame, dict[str, Any]]:
    """``(frame, meta with sha256)`` of run ``rid``'s predictions file; raises :class:`_BrokenRun` for
    a run that cannot be used and :class:`ReplayMismatch` for a replayed file that changed. The
    reference's folds are those of the first run read."""
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
    if ref.folds is None:
        ref.folds = pd.Series(frame["fold"].to_numpy(),
                              index=pd.MultiIndex.from_arrays([frame["repeat"], frame["row_id"]]))
    return frame, m


def _next_try(f: int, attempts: dict[int, int], run_order: dict[int, list[int]], next_flow: Any,
              pending: list[int]) -> None:
    """After a broken run of flow ``f``: its next run, else the next flow, onto ``pending``."""
    if attempts[f] < len(run_order[f]):
        pending.append(f)
    else:
        nf = next(next_flow, None)
        if nf is not None:
            pending.append(nf)


def _compact(frame: pd.DataFrame, ref: _Reference) -> pd.DataFrame:
    """Only compact columns per accepted run (bounded memory on 10^5-row tasks): the label as
    y_true, repeat and fold as int32 (the schema's types)."""
    return pd.DataFrame({"repeat": frame["repeat"].to_numpy(np.int32),
                         "fold": frame["fold"].to_numpy(np.int32),
                         "row_id": frame["row_id"].to_numpy(np.int64),
                         "y_true": frame["label"].to_numpy() == ref.positive,
                         "score": frame["score"].to_numpy(np.float64)})


def _models_frame(accepted: dict[int, tuple[int, dict[str, Any], pd.DataFrame]], flow_order: list[int],
                  name: str) -> pd.DataFrame:
    """The accepted runs in flow order, one frame; the string columns as categoricals: one code per
    row instead of one Python string per row."""
    order = [f for f in flow_order if f in accepted]
    df = pd.concat([accepted[f][2] for f in order], ignore_index=True)
    codes = np.repeat(np.arange(len(order)), [len(accepted[f][2]) for f in order])
    df["model_id"] = pd.Categorical.from_codes(codes, categories=[f"run-{accepted[f][0]}" for f in order])
    df["flow_id"] = pd.Categorical.from_codes(codes, categories=[str(f) for f in order])
    names = [accepted[f][1]["flow_name"] for f in order]
    uniq = list(dict.fromkeys(names))
    df["flow_name"] = pd.Categorical.from_codes(np.asarray([uniq.index(x) for x in names])[codes], categories=uniq)
    df["task_id"] = pd.Categorical.from_codes(np.zeros(len(df), dtype=np.int8), categories=[name])
    return df


def _task_info(df: pd.DataFrame, meta: dict[str, Any], name: str, ref: _Reference, settings: ClientSettings,
               n_models: int, replaced: list[dict[str, Any]]) -> TaskInfo:
    """The task's description, from its meta and the first model's rows."""
    first = df[df["model_id"] == df["model_id"].iloc[0]].drop_duplicates("row_id")
    import openml

    return TaskInfo(
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
        n_models=n_models,
        provenance=f"{settings.server} via openml-python {openml.__version__}",
        created_at=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        notes=(f"{len(replaced)} run(s) replaced: " + "; ".join(
            f"run {r['run_id']}: {r['reason']}" for r in replaced)) if replaced else "",
    )


def _unfit_task(meta: dict[str, Any], tid: int, settings: ClientSettings) -> str | None:
    """Why a task is skipped before any run is listed (not binary supervised classification), or
    None; raises :class:`InputError` for a task the server does not know."""
    if "missing" in meta:
        raise InputError(f"OpenML task {tid} is not on {settings.server} ({meta['missing']}); check the task id")
    if meta["task_type_id"] != SUPERVISED_CLASSIFICATION:
        return f"task type {meta['task_type_id']} is not supervised classification"
    if len(meta["class_labels"]) not in (0, 2):
        return f"{len(meta['class_labels'])} classes; needs a binary task"
    return None


def _run_details(accepted: dict[int, tuple[int, dict[str, Any], pd.DataFrame]],
                 flow_order: list[int]) -> list[dict[str, Any]]:
    """One record per accepted run, in flow order: its ids, its file's SHA-256 and the server's AUROC."""
    return [
        {"run_id": accepted[f][0], "flow_id": f, "flow_name": accepted[f][1]["flow_name"],
         "sha256": accepted[f][1]["sha256"], "server_auroc": accepted[f][1].get("server_auroc"),
         "server_fold_auroc": accepted[f][1].get("server_fold_auroc") or {}}
        for f in flow_order if f in accepted
    ]


def _check_counts(n_models: int, min_flows: int) -> None:
    """Raise :class:`InputError` unless at least one model and one flow are asked for."""
    if n_models < 1:
        raise InputError(f"n_models={n_models}: use at least 1")
    if min_flows < 1:
        raise InputError(f"min_flows={min_flows}: use at least 1")


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
    _check_counts(n_models, min_flows)
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
    unfit = _unfit_task(meta, tid, settings)
    if unfit is not None:
        return result("skipped", unfit)
    expected_sha: dict[int, str] = {}
    if replay is not None:
        flows, flow_order, run_order = _replay_order(replay, tid, expected_sha)
        n_models = len(flow_order)
    else:
        runs = _run_list(s, tid)
        flows = _flows_of(runs)
        n_err = sum(1 for r in runs if r["error_message"].strip())
        if len(flows) < min_flows or len(flows) < n_models:
            return result("skipped", f"{len(flows)} flows with error-free runs ({n_err} runs with errors left out); "
                                      f"needs {max(min_flows, n_models)}")
        flow_order, run_order = _drawn_order(flows, seed, tid)
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
            files = list(pool.map(lambda m: _predictions_file(s, settings, m), metas))
            pending = []
            for (f, rid), m, path in zip(wave, metas, files, strict=True):
                try:
                    frame, m = _read_run(path, m, rid, tid, replay, expected_sha, keep_repeats, ref, dataset_labels)
                except _BrokenRun as exc:
                    reason = str(exc)
                    if replay is not None:
                        raise ReplayMismatch(f"replay of task {tid}: run {rid} (flow {f}) can no longer be "
                                             f"used: {reason}; use a fresh draw (unset openml.replay)") from None
                    replaced.append({"run_id": rid, "flow_id": f, "reason": reason})
                    log.warning("task %s: run %d (flow %d) replaced: %s", name, rid, f, reason)
                    _next_try(f, attempts, run_order, next_flow, pending)
                    continue
                frame = _compact(frame, ref)  # the full frame goes: bounded memory
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

    df = _models_frame(accepted, flow_order, name)
    info = _task_info(df, meta, name, ref, settings, len(accepted), replaced)
    cols = ["task_id", "model_id", "flow_id", "flow_name", "repeat", "fold", "row_id", "y_true", "score"]
    res = result("ok", f"{len(accepted)} models from distinct flows" + (" (replayed from a manifest)" if replay
                 is not None else ""), df[cols], info, [accepted[f][0] for f in flow_order if f in accepted])
    res.run_details = _run_details(accepted, flow_order)
    res.task_repeats = meta.get("n_repeats")
    log.info("task %s: %d models, %d runs replaced, %d HTTP requests, %.1fs",
             name, res.n_models, len(replaced), res.http_requests, res.seconds)
    return res
