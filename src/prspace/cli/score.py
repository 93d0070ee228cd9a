"""``prspace score``: predictions -> per-model metrics (one task), and the study's tables.

* ``prspace score task --status T.json --out T.csv --folds-out T.folds.csv`` scores one
  task's predictions (the file the status JSON points to) with
  :func:`prspace.experiments.scoring.score_task`; a skipped task gives empty tables.
* ``prspace score collect --status *.json --metrics *.csv --task-list tasks.csv
  --out metrics.csv --tasks-out tasks.csv`` stacks the per-task tables into the study's
  metrics table and writes the task table (with the status of every candidate task).
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

import pandas as pd

from prspace.cli._tables import write_csv, write_markdown
from prspace.errors import InputError
from prspace.experiments import scoring  # light: numpy, pandas, prspace.metrics
from prspace.schema import TASK_TABLE_COLUMNS, read_predictions, read_task_info

log = logging.getLogger(__name__)

#: Task-table columns written to results (created_at is left out: no timestamps in tables).
TASK_COLUMNS = ["task_id", "status", "reason"] + [
    c for c in TASK_TABLE_COLUMNS if c not in ("task_id", "created_at")
]


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "score",
        help="per-model metrics of tasks' predictions",
        description=(
            "Compute AUPR, AP, AUPRG, AUROC and AUCNPR (prspace.metrics) per model of a "
            "task's predictions, pooled over folds and per fold (`score task`), and stack "
            "the tasks into the study's metrics and task tables (`score collect`)."
        ),
    )
    sub = p.add_subparsers(dest="score_command", metavar="STEP", required=True)

    t = sub.add_parser(
        "task",
        help="score one task's predictions",
        description="Per-model metrics of one task's predictions, pooled over folds and per fold; "
        "a skipped task (its status JSON says so) gives empty tables.",
    )
    t.add_argument("--status", required=True, help="status JSON written by the predictions step")
    t.add_argument("--out", required=True, help="per-model metrics CSV")
    t.add_argument("--folds-out", required=True, help="per-fold metrics CSV")
    t.set_defaults(func=run_task)

    c = sub.add_parser(
        "collect",
        help="stack per-task metrics into the study's tables",
        description="Stack the per-task metrics into the study's metrics table and write the task "
        "table (every candidate task with its status, size, skew and provenance).",
    )
    c.add_argument("--study", required=True, help="name of the study (written into the tables)")
    c.add_argument("--status", nargs="+", required=True, help="status JSON of every task")
    c.add_argument("--metrics", nargs="+", required=True, help="per-task metrics CSVs")
    c.add_argument("--task-list", help="candidate tasks (tasks.csv of the select step)")
    c.add_argument("--out", required=True, help="the study's metrics table (CSV)")
    c.add_argument("--tasks-out", required=True, help="the task table (CSV; Markdown beside it)")
    c.set_defaults(func=run_collect)


def read_status(path: str | Path) -> dict:
    path = Path(path)
    try:
        status = json.loads(path.read_text())
    except FileNotFoundError:
        raise InputError(f"no status file at {path}; run the predictions step for this task") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path} is not valid JSON ({exc}); delete it and rerun the predictions step") from None
    for key in ("task_id", "status"):
        if key not in status:
            raise InputError(f"status file {path} lacks {key!r}; rerun the predictions step")
    if status["status"] not in ("ok", "skipped"):
        raise InputError(f"status file {path}: status {status['status']!r} is neither 'ok' nor 'skipped'")
    if status["status"] == "ok" and not status.get("predictions"):
        raise InputError(f"status file {path} says ok but names no predictions file")
    return status


def run_task(args: argparse.Namespace) -> int:
    status = read_status(args.status)
    if status["status"] == "ok":
        df, task = read_predictions(status["predictions"])
        per_model, folds = scoring.score_task(df, task)
        log.info("task %s: scored %d models", task.task_id, len(per_model))
    else:
        per_model, folds = scoring.empty_metrics(), scoring.empty_folds()
        log.info("task %s skipped (%s): empty tables", status["task_id"], status.get("reason", ""))
    write_csv(per_model, args.out)
    write_csv(folds, args.folds_out)
    return 0


def run_collect(args: argparse.Namespace) -> int:
    frames = []
    for path in sorted(args.metrics):
        try:
            frame = pd.read_csv(path, dtype={c: str for c in scoring.ID_COLUMNS})
        except pd.errors.EmptyDataError:
            raise InputError(f"{path} is empty; delete it and rerun `prspace score task`") from None
        if list(frame.columns) != scoring.METRICS_COLUMNS:
            raise InputError(
                f"{path} is not a per-model metrics table of `prspace score task` (its columns are "
                f"{', '.join(map(str, frame.columns[:6]))}, ...); pass the --out files, not the per-fold tables"
            )
        frames.append(frame)
    metrics = pd.concat([f for f in frames if len(f)] or [scoring.empty_metrics()], ignore_index=True)
    metrics = metrics[scoring.METRICS_COLUMNS].sort_values(["task_id", "model_id"], ignore_index=True)

    rows = {}
    for path in args.status:
        status = read_status(path)
        row = {"task_id": status["task_id"], "status": status["status"], "reason": status.get("reason") or ""}
        if status["status"] == "ok":
            row |= read_task_info(status["predictions"]).to_dict()
        rows[status["task_id"]] = row
    if args.task_list:
        listed = pd.read_csv(args.task_list, dtype={"task_id": str})
        flag = next((c for c in ("usable", "selected") if c in listed.columns), None)
        for _, r in listed.iterrows():
            if r["task_id"] not in rows:
                reason = r.get("reason", "")
                rows[r["task_id"]] = {
                    "task_id": r["task_id"],
                    "status": "excluded" if flag else "not run",
                    "reason": "" if pd.isna(reason) else str(reason),
                }
    tasks = pd.DataFrame(list(rows.values())).reindex(columns=TASK_COLUMNS)
    tasks = tasks.sort_values("task_id", ignore_index=True)
    for col in ("n", "n_pos", "n_folds", "n_repeats", "n_models"):
        tasks[col] = tasks[col].astype("Int64")
    n_ok = int((tasks["status"] == "ok").sum())
    write_csv(metrics, args.out)
    write_csv(tasks, args.tasks_out)
    md = tasks[["task_id", "status", "reason", "dataset_name", "n", "n_pos", "pi", "n_models", "estimation_procedure", "provenance"]]
    write_markdown(
        md,
        Path(args.tasks_out).with_suffix(".md"),
        decimals=4,
        title=f"Tasks of study {args.study}: {n_ok} scored of {len(tasks)}",
    )
    log.info("%d tasks scored, %d rows in the metrics table", n_ok, len(metrics))
    return 0


def _standalone(argv: list[str] | None = None) -> int:
    """``python -m prspace.cli.score STEP ...``: the same as ``prspace score STEP ...``
    (failures handled by :func:`prspace.cli.main`)."""
    import sys

    from prspace.cli import main

    return main(["score", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    raise SystemExit(_standalone())
