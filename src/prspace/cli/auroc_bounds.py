"""``prspace auroc-bounds``: the study's top-1 disagreements against AUROC that the AUROC gap permits.

Reads the study's metrics table and writes ``auroc_bounds.csv|md`` (per task and metric, then
one summary row per metric; :mod:`prspace.experiments.auroc_flips`).
"""

from __future__ import annotations

import argparse

import pandas as pd

from prspace.core.output import write_table


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("auroc-bounds", help="top-1 disagreements with AUROC that the AUROC gap permits "
                              "(Mihelich et al. 2024)")
    p.add_argument("--metrics", required=True, help="the study's metrics table (results/<study>/tables/metrics.csv)")
    p.add_argument("--out", required=True, help="the table (CSV; Markdown beside it)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from prspace.core.contracts import read_metrics_table
    from prspace.experiments.auroc_flips import flip_summary, flip_table

    table = flip_table(read_metrics_table(args.metrics))
    out = pd.concat([table, flip_summary(table)], ignore_index=True)
    write_table(out, args.out, str(args.out).removesuffix(".csv") + ".md",
                title="What a given AUROC allows: top-1 disagreements with AUROC the AUROC gap permits",
                note="Per task: the best model by AUROC and by the metric; where they differ, whether the range of "
                     "the metric at the two AUROCs (Mihelich et al. 2024; prspace.stats.auroc_bounds) lets the second "
                     "have the higher value (permitted), the largest AUROC gap that would still permit it, and "
                     "tightness = auroc_gap / max_flip_gap. Rows with task_id 'all': per metric, the share permitted.")
    return 0
