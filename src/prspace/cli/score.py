"""``prspace score``: the old command line of steps ``score`` and ``collect`` (``prspace step score``,
``prspace step collect``; :mod:`prspace.experiments.scoring`), kept until the workflow's rules run the step
command.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prspace.core.steps import write_step
from prspace.experiments.scoring import collect_step, score_step


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("score", help="per-model metrics of tasks' predictions (prspace step score / collect)")
    sub = p.add_subparsers(dest="score_command", metavar="STEP", required=True)
    t = sub.add_parser("task", help="score one task's predictions (prspace step score)")
    t.add_argument("--status", required=True, help="status JSON written by the predictions step")
    t.add_argument("--out", required=True, help="per-model metrics CSV")
    t.add_argument("--folds-out", required=True, help="per-fold metrics CSV")
    t.set_defaults(func=run_task)
    c = sub.add_parser("collect", help="stack per-task metrics into the study's tables (prspace step collect)")
    c.add_argument("--study", required=True, help="name of the study (written into the tables)")
    c.add_argument("--status", nargs="+", required=True, help="status JSON of every task")
    c.add_argument("--metrics", nargs="+", required=True, help="per-task metrics CSVs")
    c.add_argument("--task-list", help="candidate tasks (tasks.csv of the select step)")
    c.add_argument("--out", required=True, help="the study's metrics table (CSV)")
    c.add_argument("--tasks-out", required=True, help="the task table (CSV; Markdown beside it)")
    c.set_defaults(func=run_collect)


def run_task(args: argparse.Namespace) -> int:
    write_step(score_step({"status": Path(args.status)}), files={"metrics": args.out, "folds": args.folds_out})
    return 0


def run_collect(args: argparse.Namespace) -> int:
    inputs = {"status": [Path(p) for p in args.status], "metrics": [Path(p) for p in args.metrics],
              **({"task_list": Path(args.task_list)} if args.task_list else {})}
    write_step(collect_step(inputs, study=args.study), tables_dir=Path(args.out).parent)
    return 0
