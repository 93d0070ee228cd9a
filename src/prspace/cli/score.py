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
import logging
from pathlib import Path

import pandas as pd

from prspace.contracts import read_metrics_table, read_status, read_task_list
from prspace.experiments import scoring  # light: numpy, pandas, prspace.metrics
from prspace.output import write_csv, write_markdown
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
        frames.append(read_metrics_table(path, columns=scoring.METRICS_COLUMNS))
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
        listed = read_task_list(args.task_list)
        for r in listed.itertuples(index=False):
            if r.task_id not in rows:
                rows[r.task_id] = {
                    "task_id": r.task_id,
                    "status": "not run" if r.selected else "excluded",
                    "reason": r.reason,
                }
    tasks = pd.DataFrame(list(rows.values())).reindex(columns=TASK_COLUMNS)
    tasks = tasks.sort_values("task_id", ignore_index=True)
    # task families (optional column of the task list) and saturation (experiments.ranking)
    from prspace.experiments.ranking import saturation

    family = listed.set_index("task_id")["family"] if args.task_list and "family" in listed.columns else None
    tasks["family"] = tasks["task_id"].map(family) if family is not None else tasks["task_id"]
    tasks["family"] = tasks["family"].where(tasks["family"].notna(), tasks["task_id"])
    sat = saturation(metrics).set_index("task_id") if len(metrics) else pd.DataFrame(columns=["n_saturated", "saturated"])
    tasks["n_saturated"] = tasks["task_id"].map(sat["n_saturated"]).astype("Int64")
    tasks["saturated"] = tasks["task_id"].map(sat["saturated"]).fillna(False).astype(bool)
    for col in ("n", "n_pos", "n_folds", "n_repeats", "n_models"):
        tasks[col] = tasks[col].astype("Int64")
    n_ok = int((tasks["status"] == "ok").sum())
    write_csv(metrics, args.out)
    write_csv(tasks, args.tasks_out)
    md = tasks[["task_id", "status", "reason", "dataset_name", "family", "n", "n_pos", "pi", "n_models", "saturated",
                "n_saturated", "estimation_procedure", "provenance"]]
    write_markdown(
        md,
        Path(args.tasks_out).with_suffix(".md"),
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
