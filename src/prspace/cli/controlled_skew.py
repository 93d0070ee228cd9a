"""``prspace controlled-skew``: the old command line of step ``controlled_skew`` (``prspace step
controlled_skew``; :mod:`prspace.verdicts.skew`), kept until the workflow's rule runs
the step command.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prspace.core.steps import write_step
from prspace.verdicts.skew import controlled_skew_step


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("controlled-skew", help="rank disagreement against pi with the same models "
                              "(prspace step controlled_skew)")
    p.add_argument("--status", nargs="+", required=True, help="prediction status files (JSON) of the tasks")
    p.add_argument("--tasks", required=True, help="the study's task table (CSV): pi, n_pos, family")
    p.add_argument("--per-task", required=True, help="the study's disagreement per task (CSV)")
    p.add_argument("--rank-by", required=True, help="comma-separated metrics")
    p.add_argument("--targets", required=True, help="comma-separated target pi values")
    p.add_argument("--n-boot", type=int, required=True, help="cluster-bootstrap resamples of families")
    p.add_argument("--seed", type=int, required=True, help="seed of the cluster bootstrap over task families")
    p.add_argument("--reference", required=True, help="task table of the reference population of the counterfactual")
    p.add_argument("--per-task-out", required=True, help="per task, target pi and metric pair (CSV)")
    p.add_argument("--counterfactual-per-task-out", required=True, help="per task, counterfactual target (CSV)")
    p.add_argument("--tables-dir", required=True, help="folder for the tables (CSV and Markdown)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    inputs = {"status": [Path(p) for p in args.status], "tasks": Path(args.tasks), "per_task": Path(args.per_task),
              "reference": Path(args.reference)}
    out = controlled_skew_step(inputs, metrics=args.rank_by.split(","), targets=[float(t) for t in args.targets.split(",")],
                               n_boot=args.n_boot, seed=args.seed)
    write_step(out, tables_dir=args.tables_dir)
    return 0
