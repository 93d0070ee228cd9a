"""``prspace figure-data``: the old command line of step ``figure_data`` (``prspace step figure_data``;
:mod:`prspace.experiments.figure_data_step`), kept until the workflow's rule runs the step command.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prspace.core.steps import write_step
from prspace.experiments.figure_data_step import figure_data_step


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("figure-data", help="the tables Flach & Kull Figures 4 and 5 are drawn from "
                              "(prspace step figure_data)")
    p.add_argument("--metrics", required=True, help="the study's metrics table (CSV)")
    p.add_argument("--ranks", required=True, help="the ranks table of step rank")
    p.add_argument("--per-task", required=True, help="the disagreement per task of step rank")
    p.add_argument("--tasks", required=True, help="the task table (CSV), for the source label")
    p.add_argument("--predictions-dir", required=True, help="directory of the tasks' status files and predictions")
    p.add_argument("--out-dir", required=True, help="folder for the figures' tables")
    p.add_argument("--selection-out", required=True, help="CSV naming the tasks and models drawn")
    p.add_argument("--band-resamples", type=int, required=True, help="bootstrap resamples of Figure 5's bands")
    p.add_argument("--band-level", type=float, required=True, help="level of those bands")
    p.add_argument("--seed", type=int, required=True, help="seed of the bands' bootstrap")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    inputs = {"metrics": Path(args.metrics), "ranks": Path(args.ranks), "per_task": Path(args.per_task),
              "tasks": Path(args.tasks), "status": sorted(Path(args.predictions_dir).glob("*.json"))}
    out = figure_data_step(inputs, band_resamples=args.band_resamples, band_level=args.band_level, seed=args.seed)
    write_step(out, tables_dir=Path(args.selection_out).parent, figure_data_dir=args.out_dir)
    return 0
