"""``prspace controlled-skew``: move each task's pi by reweighting its negatives, same models.

Writes the per-task table (``--per-task-out``), the summary per metric pair and target pi
(``controlled_skew.csv|md``), the study's observed disagreement per bin of pi and of the number
of positives (``controlled_skew_observed.csv|md``) and the figure ``controlled_skew``; see
:mod:`prspace.experiments.controlled_skew`.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import pandas as pd

from prspace.output import write_csv, write_table

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
    p.add_argument("--per-task-out", required=True, help="per task, target pi and metric pair (CSV)")
    p.add_argument("--tables-dir", required=True, help="folder for the tables controlled_skew and controlled_skew_observed (CSV and Markdown)")
    p.add_argument("--figures-dir", required=True, help="folder for the figure controlled_skew")
    p.add_argument("--formats", default="png,pdf", help="comma-separated figure formats (default: %(default)s)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from prspace.cli.score import read_status
    from prspace.errors import InputError
    from prspace.experiments import controlled_skew as CS
    from prspace.figures.controlled_skew import controlled_skew_figure
    from prspace.output import write_figure
    from prspace.schema import read_predictions

    metrics = [m.strip() for m in args.rank_by.split(",") if m.strip()]
    try:
        targets = [float(t) for t in args.targets.split(",") if t.strip()]
    except ValueError:
        raise InputError(f"--targets {args.targets!r}: give comma-separated numbers in (0, 1), e.g. 0.5,0.1") from None
    frames = []
    for path in sorted(args.status):
        status = read_status(path)
        if status["status"] != "ok":
            continue
        df, _ = read_predictions(status["predictions"])
        frames.append(CS.controlled_skew_task(df, targets=targets, metrics=metrics))
    per = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=[*CS.PER_TASK_COLUMNS, "is_observed"])
    write_csv(per, args.per_task_out)
    tasks = pd.read_csv(args.tasks, dtype={"task_id": str})
    summary = CS.controlled_skew_summary(per, tasks=tasks, n_boot=args.n_boot, seed=args.seed) if len(per) else pd.DataFrame()
    observed = CS.observed_by_bin(pd.read_csv(args.per_task, dtype={"task_id": str}), tasks)
    out = Path(args.tables_dir)
    write_table(summary, out / "controlled_skew.csv", out / "controlled_skew.md",
                title="Controlled skew: disagreement with the negatives reweighted to pi (same models, same scores)",
                note=("Every task's negatives reweighted so that the weighted share of positives is pi_target; AUROC and its "
                      "ranks do not move. Shares of tasks; [95% cluster bootstrap over families of tasks, "
                      f"{args.n_boot} resamples, seed {args.seed}]."))
    write_table(observed, out / "controlled_skew_observed.csv", out / "controlled_skew_observed.md",
                title="Observed disagreement per bin of pi and of the number of positives (the study's own tasks)")
    if len(summary):
        fig = controlled_skew_figure(summary, observed)
        write_figure(fig, Path(args.figures_dir) / "controlled_skew", [f for f in args.formats.split(",") if f])
    log.info("controlled skew: %d tasks x %d targets", per["task_id"].nunique() if len(per) else 0, len(targets))
    return 0
