"""``prspace auroc-bounds``: the old command line of step ``auroc_bounds`` (``prspace step auroc_bounds``;
:mod:`prspace.experiments.auroc_bounds_step`), kept until the workflow's rule runs the step command.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prspace.core.steps import write_step
from prspace.experiments.auroc_bounds_step import auroc_bounds_step


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("auroc-bounds", help="top-1 disagreements with AUROC that the AUROC gap permits "
                              "(prspace step auroc_bounds)")
    p.add_argument("--metrics", required=True, help="the study's metrics table (results/<study>/tables/metrics.csv)")
    p.add_argument("--out", required=True, help="the table (CSV; Markdown beside it)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    write_step(auroc_bounds_step({"metrics": Path(args.metrics)}), tables_dir=Path(args.out).parent)
    return 0
