"""``prspace figure-data``: the tables Flach & Kull (2015) Figures 4 and 5 are drawn from.

Reads a study's metrics, ranks, per-task disagreement and task table, chooses what the figures
draw (:func:`prspace.experiments.selection.figure_selection`), computes the tables
(:mod:`prspace.experiments.figure_data`) and writes them into ``--out-dir``:
``fig4_rank_counts.csv``, ``fig4_scatter.csv``, ``fig5_curve_points.csv``, ``fig5_curve_areas.csv``,
``fig5_curve_bands.csv`` (the bootstrap bands of Figure 5's PR and PRG curves; not with
``--band-resamples 0``) and ``figure_text.csv`` (full precision, for ``prspace figure``); and
``--selection-out`` (CSV, Markdown beside it): which tasks and models are drawn, why.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import pandas as pd

from prspace.core.errors import InputError
from prspace.core.output import write_full_csv, write_table
from prspace.experiments.ranking_report import source_label

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "figure-data",
        help="the tables Flach & Kull Figures 4 and 5 are drawn from",
        description=(
            "Compute the tables of Flach & Kull (2015) Figure 4 (left: models per AUPR rank and AUPRG rank; "
            "right: AUPRG and AUPR of the models of the quartile tasks) and Figure 5 (ROC, PR and PRG curve "
            "points of two models whose order flips) from a study's metrics, ranks and predictions; write the "
            "choice of tasks and models as a CSV."
        ),
    )
    p.add_argument("--metrics", required=True, help="the study's metrics table (CSV)")
    p.add_argument("--ranks", required=True, help="the ranks table of `prspace rank`")
    p.add_argument("--per-task", required=True, help="disagreement_per_task.csv of `prspace rank`")
    p.add_argument("--tasks", help="the task table (CSV), for the source label")
    p.add_argument("--predictions-dir", required=True, help="directory of <task>.parquet predictions")
    p.add_argument("--out-dir", required=True, help="folder for the figures' tables")
    p.add_argument("--selection-out", required=True, help="CSV naming the tasks and models drawn")
    p.add_argument("--band-resamples", type=int, default=1000,
                   help="bootstrap resamples of the bands of Figure 5's PR and PRG curves; 0: no bands "
                        "(default: %(default)s)")
    p.add_argument("--band-level", type=float, default=0.95, help="level of those bands (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bands' bootstrap (default: %(default)s)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from prspace.core.schema import read_predictions
    from prspace.experiments.figure_data import figure_data

    ids = {"task_id": str, "model_id": str, "flow_id": str, "flow_name": str}
    metrics = pd.read_csv(args.metrics, dtype=ids)
    ranks = pd.read_csv(args.ranks, dtype=ids)
    per_task = pd.read_csv(args.per_task, dtype={"task_id": str})
    for m in ("aupr", "auprg"):
        if m not in ranks.columns:
            raise InputError(f"{args.ranks} has no {m} ranks; keep aupr and auprg in analysis.metrics")
    tasks = pd.read_csv(args.tasks, dtype={"task_id": str}) if args.tasks else None
    if metrics.empty:
        raise InputError(f"{args.metrics} has no rows: nothing to draw")
    if args.band_resamples != 0 and args.band_resamples < 2:
        raise InputError(f"--band-resamples must be 0 (no bands) or at least 2, got {args.band_resamples}")
    if not 0.0 < args.band_level < 1.0:
        raise InputError(f"--band-level must lie strictly between 0 and 1 (e.g. 0.95), got {args.band_level}")
    data = figure_data(metrics, ranks, per_task, tasks,
                       lambda task: read_predictions(Path(args.predictions_dir) / f"{task}.parquet"),
                       source=source_label(tasks) if tasks is not None else "",
                       band_resamples=args.band_resamples, band_level=args.band_level, seed=args.seed)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, df in (("fig4_rank_counts", data.rank_counts), ("fig4_scatter", data.scatter),
                     ("fig5_curve_points", data.curve_points), ("fig5_curve_areas", data.curve_areas),
                     ("figure_text", data.text),
                     *((("fig5_curve_bands", data.curve_bands),) if data.curve_bands is not None else ())):
        write_full_csv(df, out / f"{name}.csv")  # full precision: drawn, not read
    write_table(data.selection, args.selection_out, Path(args.selection_out).with_suffix(".md"),
                title="Tasks and models drawn in Figures 4 (right) and 5",
                note=(f"Saturated tasks left out of Figure 4 (left): {', '.join(data.saturated) or 'none'}. "
                      "Paper (Flach & Kull 2015, Figure 5): AdaBoost vs Logistic Regression on white-clover, "
                      "AUPR 0.724 vs 0.773, AUPRG 0.714 vs 0.687."))
    log.info("figure tables written to %s", out)
    return 0
