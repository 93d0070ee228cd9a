"""``prspace cd``: the old command line of step ``cd`` (``prspace step cd``;
:mod:`prspace.experiments.cd_tables`), kept until the workflow's rule runs the step command.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prspace.core.steps import write_step
from prspace.experiments.cd_tables import cd_step


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("cd", help="critical-difference tables of a study's learners across tasks, per metric "
                              "(prspace step cd)")
    p.add_argument("--metrics", required=True, help="the study's metrics table (results/<study>/tables/metrics.csv)")
    p.add_argument("--tasks", default=None, help="the study's task table (CSV with task_id, family)")
    p.add_argument("--study", default="", help="the study's name (for the tables' titles)")
    p.add_argument("--seed", type=int, default=0, help="seed (default: %(default)s)")
    p.add_argument("--tables-dir", required=True, help="folder of the cd_*.csv / .md tables")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    inputs = {"metrics": Path(args.metrics), **({"tasks": Path(args.tasks)} if args.tasks else {})}
    write_step(cd_step(inputs, study=args.study, seed=args.seed), tables_dir=args.tables_dir)
    return 0
