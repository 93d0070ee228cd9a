"""``prspace fetch-openml``: select OpenML tasks and fetch their predictions.

``prspace fetch-openml select ... --out tasks.csv`` writes the candidate table;
``prspace fetch-openml task ... --out X.parquet --status X.json`` fetches one task.
See docs/openml.md.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path

from prspace._io import atomic_path
from prspace.errors import InputError

log = logging.getLogger("prspace.fetch_openml")


def _int_list(text: str) -> list[int]:
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of task ids") from None


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--server", required=True, help="OpenML API URL (config openml.server), e.g. https://www.openml.org/api/v1/xml")
    p.add_argument("--cache-dir", required=True, type=Path, help="download cache (config openml.cache_dir)")
    p.add_argument("--workers", type=int, default=4, help="concurrent downloads (default 4)")
    p.add_argument("--max-retries", type=int, default=5, help="retries per request after the first try (default 5)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for the server (default 60)")
    p.add_argument("--backoff", type=float, default=1.0, help="first retry delay in seconds, doubling (default 1)")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "fetch-openml",
        help="select OpenML tasks and fetch their cross-validated predictions",
        description="Select OpenML binary tasks and fetch run predictions into the predictions schema.",
    )
    sub = parser.add_subparsers(dest="openml_command", metavar="{select,task}")
    parser.set_defaults(func=lambda args: (parser.print_help(), 2)[1])

    sel = sub.add_parser(
        "select",
        help="list candidate tasks with verdicts -> CSV",
        description="List candidate OpenML tasks (given ids, a tag, a suite, a study or discovery) "
        "and whether each meets the criteria (binary, 10-fold CV, runs of at least --min-flows "
        "flows); write them as a CSV with a verdict per task.",
    )
    _common(sel)
    sel.add_argument("--task-ids", type=_int_list, default=None, help="comma-separated OpenML task ids")
    sel.add_argument("--tag", default=None, help="tasks with this OpenML tag")
    sel.add_argument("--suite", default=None, help="tasks of this benchmark suite (id or alias)")
    sel.add_argument("--study", default=None, help="tasks of this study (id or alias)")
    sel.add_argument("--discover", action="store_true", help="all binary 10-fold CV classification tasks")
    sel.add_argument("--min-flows", type=int, default=30, help="distinct flows a task needs (default 30)")
    sel.add_argument("--max-tasks", type=int, default=None, help="stop after this many selected tasks")
    sel.add_argument("--seed", type=int, default=0, help="order in which candidates are examined with --max-tasks")
    sel.add_argument("--out", required=True, type=Path, help="CSV to write")
    sel.set_defaults(func=run_select)

    task = sub.add_parser(
        "task",
        help="fetch one task's predictions -> parquet + status JSON",
        description="Fetch the cross-validated predictions of --n-models runs from distinct flows "
        "of one OpenML task into the predictions schema (parquet) and write its status JSON "
        "(ok or skipped, with the reason).",
    )
    _common(task)
    task.add_argument("--task-id", required=True, type=int, help="OpenML task id, e.g. 1882")
    task.add_argument("--n-models", type=int, default=30, help="models (runs of distinct flows) per task")
    task.add_argument("--min-flows", type=int, default=30, help="distinct flows a task needs")
    task.add_argument("--seed", type=int, default=0, help="seed of the run draw")
    task.add_argument("--repeats", default="0", help="CV repeats to keep: comma list or 'all' (default 0)")
    task.add_argument("--out", required=True, type=Path, help="predictions parquet (written when ok)")
    task.add_argument("--status", required=True, type=Path, help="status JSON (always written)")
    task.set_defaults(func=run_task)


def _settings(args: argparse.Namespace):
    from prspace.sources.openml import ClientSettings

    return ClientSettings(
        server=args.server, cache_dir=args.cache_dir, workers=args.workers,
        max_retries=args.max_retries, timeout=args.timeout, backoff=args.backoff,
    )


def _quiet_client_logs() -> None:
    """The openml client logs every request on the root logger at INFO; keep those at DEBUG."""

    def only_ours(record: logging.LogRecord) -> bool:
        if "openml" in record.pathname.replace("\\", "/").split("/site-packages/")[-1].split("/")[0]:
            return record.levelno >= logging.ERROR or logging.getLogger().isEnabledFor(logging.DEBUG)
        return True

    root = logging.getLogger()
    for h in root.handlers:
        if not any(getattr(f, "__name__", "") == "only_ours" for f in h.filters):
            h.addFilter(only_ours)
    logging.getLogger("openml").setLevel(logging.ERROR)


def run_select(args: argparse.Namespace) -> int:
    from prspace.sources.openml import candidates_frame, select_tasks

    _quiet_client_logs()
    settings = _settings(args)
    t0 = time.monotonic()
    cands = select_tasks(
        settings, task_ids=args.task_ids, tag=args.tag, suite=args.suite, study=args.study,
        discover=args.discover, min_flows=args.min_flows, max_tasks=args.max_tasks,
        seed=args.seed, progress=sys.stderr.isatty(),
    )
    df = candidates_frame(cands)
    with atomic_path(args.out) as tmp:
        df.to_csv(tmp, index=False)
    print(
        f"prspace fetch-openml select: {int(df['selected'].sum())} of {len(df)} task(s) selected "
        f"-> {args.out} ({time.monotonic() - t0:.1f}s)",
        file=sys.stderr,
    )
    return 0


def _write_status(path: Path, status: dict) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(status, indent=2, sort_keys=False) + "\n", encoding="utf-8")


def run_task(args: argparse.Namespace) -> int:
    from prspace.schema import write_predictions
    from prspace.sources.openml import OpenMLNetworkError, fetch_task

    _quiet_client_logs()
    name = f"openml-{args.task_id}"
    t0 = time.monotonic()
    try:
        settings = _settings(args)
        res = fetch_task(
            settings, args.task_id, n_models=args.n_models, min_flows=args.min_flows,
            seed=args.seed, repeats=args.repeats, progress=sys.stderr.isatty(),
        )
    except OpenMLNetworkError as exc:
        _write_status(args.status, {
            "task_id": name, "status": "failed", "reason": str(exc), "predictions": None,
            "n_models": 0, "replaced_runs": [], "seconds": round(time.monotonic() - t0, 3),
            "http_requests": None,
        })
        print(f"prspace fetch-openml task: error: {exc}", file=sys.stderr)
        return 1
    except InputError as exc:
        _write_status(args.status, {
            "task_id": name, "status": "failed", "reason": str(exc), "predictions": None,
            "n_models": 0, "replaced_runs": [], "seconds": round(time.monotonic() - t0, 3),
            "http_requests": None,
        })
        raise
    predictions = None
    if res.status == "ok":
        write_predictions(res.predictions, res.task_info, args.out)
        predictions = str(args.out)
    _write_status(args.status, {
        "task_id": res.task_id, "status": res.status, "reason": res.reason,
        "predictions": predictions, "n_models": res.n_models,
        "replaced_runs": [{"run_id": r["run_id"], "reason": r["reason"]} for r in res.replaced_runs],
        "seconds": round(res.seconds, 3), "http_requests": res.http_requests,
    })
    print(
        f"prspace fetch-openml task: {res.task_id} {res.status}: {res.reason}; "
        f"{len(res.replaced_runs)} run(s) replaced, {res.http_requests} HTTP request(s), {res.seconds:.1f}s",
        file=sys.stderr,
    )
    return 0
