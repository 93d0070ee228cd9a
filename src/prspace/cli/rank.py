"""``prspace rank``: the old command line of step ``rank`` (``prspace step rank``;
:mod:`prspace.experiments.ranking_report`), kept until the workflow's rule runs the step command.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prspace.core.steps import write_step
from prspace.experiments.ranking_report import rank_step


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("rank", help="rank models within tasks by several metrics; disagreement tables "
                              "(prspace step rank)")
    p.add_argument("--metrics", required=True, help="the study's metrics table (CSV)")
    p.add_argument("--tasks", required=True, help="the study's task table (CSV), for the source label")
    p.add_argument("--rank-by", required=True, help="comma-separated metrics")
    p.add_argument("--n-boot", type=int, required=True, help="bootstrap resamples of tasks")
    p.add_argument("--seed", type=int, required=True, help="seed of the bootstrap")
    p.add_argument("--noise-floors", help="per task and metric floors (step noise_floor)")
    p.add_argument("--noise-pairs", help="per task and pair distinguishability (step noise_floor)")
    p.add_argument("--out-dir", required=True, help="folder for the tables (CSV and Markdown)")
    p.add_argument("--ranks-out", required=True, help="the ranks table (CSV)")
    p.add_argument("--selfcheck", default=None, help="OpenML studies: the self-check summary")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    given = {"metrics": args.metrics, "tasks": args.tasks, "floors": args.noise_floors, "pairs": args.noise_pairs,
             "selfcheck": args.selfcheck}
    out = rank_step({k: Path(v) for k, v in given.items() if v}, metrics=args.rank_by.split(","), n_boot=args.n_boot,
                    seed=args.seed)
    write_step(out, tables_dir=args.out_dir, files={"ranks": args.ranks_out})
    return 0
