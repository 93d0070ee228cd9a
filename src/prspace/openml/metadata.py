"""Metadata of OpenML tasks, runs and datasets, each answer cached (:mod:`prspace.openml.cache`)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pandas as pd

from prspace.openml.cache import (
    _pages,
    _Session,
)
from prspace.openml.client import (
    OpenMLNetworkError,
    OpenMLServerRefused,
)

log = logging.getLogger("prspace.openml")

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


def _flows_of(runs: Iterable[dict[str, Any]]) -> dict[int, list[int]]:
    flows: dict[int, list[int]] = {}
    for r in runs:
        if r["error_message"].strip():
            continue
        flows.setdefault(r["flow_id"], []).append(r["run_id"])
    return flows


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


