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

from prspace.core.contracts import read_status
from prspace.core.output import write_csv, write_markdown
from prspace.core.schema import read_predictions
from prspace.experiments import scoring  # light: numpy, pandas, prspace.metrics

log = logging.getLogger(__name__)


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
    metrics, tasks = scoring.collect_study(args.metrics, args.status, args.task_list)
    n_ok = int((tasks["status"] == "ok").sum())
    write_csv(metrics, args.out)
    write_csv(tasks, args.tasks_out)
    write_markdown(tasks[scoring.TASK_MD_COLUMNS], Path(args.tasks_out).with_suffix(".md"),
                   title=f"Tasks of study {args.study}: {n_ok} scored of {len(tasks)}")
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
