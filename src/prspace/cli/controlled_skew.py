"""``prspace controlled-skew``: move each task's pi by reweighting its negatives, same models.

Writes the per-task table (``--per-task-out``), the summary per metric pair and target pi
(``controlled_skew.csv|md``), the study's observed disagreement per bin of pi and of the number
of positives (``controlled_skew_observed.csv|md``; ``prspace figure controlled_skew`` draws both); and skew as a
tested explanation: the trend of each pair's disagreement against pi with its interval
(``controlled_skew_trend``), the study's shares at a reference population's pi
(``controlled_skew_counterfactual``, reference ``--reference``), the observed shares by balance
level (``disagreement_by_balance``) and the evidence rows (``skew_evidence``); see
:mod:`prspace.experiments.controlled_skew`.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import pandas as pd

from prspace.core.errors import InputError
from prspace.core.output import write_csv, write_table
from prspace.experiments.controlled_skew import BALANCE_EDGES

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("controlled-skew", help="rank disagreement against pi with the same models (negatives reweighted)")
    p.add_argument("--status", nargs="+", required=True, help="prediction status files (JSON) of the tasks")
    p.add_argument("--tasks", required=True, help="the study's task table (CSV): pi, n_pos, family")
    p.add_argument("--per-task", required=True, help="the study's disagreement_per_task.csv (observed disagreement)")
    p.add_argument("--rank-by", default="aupr,average_precision,auprg,auroc,aucnpr", help="comma-separated metrics (default: %(default)s)")
    p.add_argument("--targets", default="0.5,0.2,0.1,0.05,0.02,0.01", help="target pi values (default: %(default)s)")
    p.add_argument("--n-boot", type=int, default=1000, help="cluster-bootstrap resamples of families (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seed of the cluster bootstrap over task families (default: %(default)s)")
    p.add_argument("--reference", required=True,
                   help="task table (CSV with pi, status) of the reference population of the counterfactual, e.g. results/paperlike/tables/tasks.csv")
    p.add_argument("--reference-name", default=None,
                   help="its name in claims (default: <study> of results/<study>/tables/tasks.csv, else the file's stem)")
    p.add_argument("--balance-edges", default=",".join(map(str, BALANCE_EDGES)),
                   help="pi edges of the balance levels of disagreement_by_balance (default: %(default)s)")
    p.add_argument("--per-task-out", required=True, help="per task, target pi and metric pair (CSV)")
    p.add_argument("--counterfactual-per-task-out", default=None,
                   help="per task, counterfactual target and metric pair (CSV; not written if not given)")
    p.add_argument("--tables-dir", required=True,
                   help="folder for the tables controlled_skew, controlled_skew_observed, controlled_skew_trend, "
                        "controlled_skew_counterfactual, disagreement_by_balance and skew_evidence (CSV and Markdown)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from prspace.experiments.controlled_skew_report import parse_numbers
    from prspace.verdicts.skew import skew_report

    targets = parse_numbers(args.targets, "--targets", "0.5,0.1")
    edges = parse_numbers(args.balance_edges, "--balance-edges", "0.1,0.3")
    try:
        ref_table = pd.read_csv(args.reference)
    except FileNotFoundError:
        raise InputError(f"--reference {args.reference}: no such file; give a finished study's tables/tasks.csv "
                         "(config key analysis.skew_reference)") from None
    report = skew_report(args.status, pd.read_csv(args.tasks, dtype={"task_id": str}), ref_table,
                         pd.read_csv(args.per_task, dtype={"task_id": str}), targets=targets,
                         metrics=[m.strip() for m in args.rank_by.split(",") if m.strip()], edges=edges,
                         n_boot=args.n_boot, seed=args.seed, reference=args.reference,
                         reference_name=args.reference_name)
    write_csv(report.per_task, args.per_task_out)
    if args.counterfactual_per_task_out:
        write_csv(report.counterfactual_per_task, args.counterfactual_per_task_out)
    out = Path(args.tables_dir)
    for name, table, title, note in report.tables:
        write_table(table, out / f"{name}.csv", out / f"{name}.md", title=title, note=note)
    per = report.per_task
    log.info("controlled skew: %d tasks x %d targets; counterfactual reference %s (%d tasks)",
             per["task_id"].nunique() if len(per) else 0, len(targets), args.reference, report.n_reference)
    return 0
