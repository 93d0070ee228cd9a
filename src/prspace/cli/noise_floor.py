"""``prspace noise-floor``: the old command line of step ``noise_floor`` (``prspace step noise_floor``;
:mod:`prspace.experiments.noise_floor_steps`), kept until the workflow's rule runs the step command.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prspace.core.steps import write_step
from prspace.experiments.noise_floor_steps import noise_floor_step


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("noise-floor", help="per task: how often a metric disagrees with itself under a bootstrap "
                              "of the test rows (prspace step noise_floor)")
    p.add_argument("--status", nargs="+", required=True, help="prediction status files (JSON) of the tasks")
    p.add_argument("--rank-by", required=True, help="comma-separated metrics")
    p.add_argument("--n-boot", type=int, required=True, help="stratified bootstrap resamples per task")
    p.add_argument("--seed", type=int, required=True, help="seed of the bootstrap of test rows")
    p.add_argument("--alpha", type=float, required=True, help="one-sided level of each of the two tests")
    p.add_argument("--floors-out", required=True, help="per task and metric: top-1 / top-3 floors (CSV)")
    p.add_argument("--pairs-out", required=True, help="per task and metric pair: distinguishable disagreement (CSV)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    out = noise_floor_step({"status": [Path(p) for p in args.status]}, metrics=args.rank_by.split(","),
                           n_boot=args.n_boot, seed=args.seed, alpha=args.alpha)
    write_step(out, tables_dir=Path(args.floors_out).parent)
    return 0
