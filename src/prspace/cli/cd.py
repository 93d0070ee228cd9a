"""``prspace cd``: critical-difference analysis of a study's learners across tasks, per metric.

Reads the study's metrics table (``prspace score collect``) and, with ``--tasks``, the task table's
families (the metric-order test flips its signs per family of tasks), and writes ``cd_ranks``,
``cd_cliques``, ``cd_tests`` and ``cd_metric_pairs`` (CSV + Markdown) into ``--tables-dir``
(:func:`prspace.stats.cd.study_tables`; the rules are in :mod:`prspace.stats.cd`). The diagram is drawn from
these tables by ``prspace figure cd_diagram``.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from prspace.core.errors import InputError

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("cd", help="critical-difference tables of a study's learners across tasks, per metric")
    p.add_argument("--metrics", required=True, help="the study's metrics table (results/<study>/tables/metrics.csv)")
    p.add_argument("--tasks", default=None,
                   help="the study's task table (CSV with task_id, family): the order test flips signs per family "
                        "(without it, per task)")
    p.add_argument("--family-corr", type=float, default=0.5,
                   help="correlation of tasks within a family in the order test's calibration (default: %(default)s)")
    p.add_argument("--study", default="", help="the study's name (for the tables' titles)")
    p.add_argument("--rank-by", default="aupr,auprg,auroc,aucnpr", help="comma-separated metrics (default: %(default)s)")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level (default: %(default)s)")
    p.add_argument("--posthoc", choices=["nemenyi", "wilcoxon"], default="nemenyi",
                   help="post hoc of the diagram's cliques: Nemenyi or Wilcoxon signed-rank with Holm (default: %(default)s)")
    p.add_argument("--n-perm", type=int, default=2000, help="sign flips of the metric-order test (default: %(default)s)")
    p.add_argument("--n-sim", type=int, default=200, help="simulations calibrating the metric-order test; 0 skips (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seed (default: %(default)s)")
    p.add_argument("--tables-dir", required=True, help="folder of the cd_*.csv / .md tables")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from prspace.core.contracts import read_metrics_table
    from prspace.core.output import write_table
    from prspace.stats.cd import TABLE_TITLES, study_tables

    if not 0.0 <= args.family_corr < 1.0:
        raise InputError(f"--family-corr must lie in [0, 1), got {args.family_corr}; e.g. 0.5")
    if args.n_perm < 1 or args.n_sim < 0:
        raise InputError(f"--n-perm must be at least 1 and --n-sim at least 0, got {args.n_perm} and {args.n_sim}")
    metrics = [m.strip() for m in args.rank_by.split(",") if m.strip()]
    table = read_metrics_table(args.metrics)
    unknown = [m for m in metrics if m not in table.columns]
    if unknown:
        raise InputError(f"--rank-by names {', '.join(unknown)}, not a column of {args.metrics}; use e.g. aupr,auprg,auroc")
    families = _families(args.tasks) if args.tasks else None
    tables = study_tables(table, metrics, alpha=args.alpha, posthoc=args.posthoc, n_perm=args.n_perm,
                          n_sim=args.n_sim, seed=args.seed, families=families, family_corr=args.family_corr)
    out = Path(args.tables_dir)
    out.mkdir(parents=True, exist_ok=True)
    suffix = f" (study {args.study})" if args.study else ""
    for name, df in tables.items():
        write_table(df, out / f"{name}.csv", out / f"{name}.md", title=TABLE_TITLES[name] + suffix)
        log.info("wrote %s", out / f"{name}.csv")
    if not len(tables["cd_ranks"]):
        log.warning("no critical-difference diagram: %s", tables["cd_tests"]["note"].iloc[0])
        return 0
    for row in tables["cd_tests"].itertuples(index=False):
        if row.n_tasks_dropped:
            log.warning("%s: dropped %d task(s) with a missing score: %s", row.metric, row.n_tasks_dropped, row.dropped_tasks)
    return 0


def _families(path: str):
    """task -> family of the task table (a task without a family is its own)."""
    import pandas as pd

    try:
        tasks = pd.read_csv(path, dtype={"task_id": str, "family": str})
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise InputError(f"cannot read the task table {path} ({exc}); pass the study's tables/tasks.csv") from None
    if "task_id" not in tasks.columns:
        raise InputError(f"the task table {path} has no column task_id; pass the study's tables/tasks.csv")
    if "family" not in tasks.columns:
        log.warning("the task table %s has no column family: every task is its own family", path)
        return None
    return tasks.drop_duplicates("task_id").set_index("task_id")["family"]
