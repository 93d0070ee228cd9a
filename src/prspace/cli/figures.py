"""``prspace figures``: Figures 4 and 5 of Flach & Kull (2015) for a study.

Writes into ``--out-dir``:

* ``fig4_rank_heatmap``: AUPRG rank against AUPR rank, model counts in log2 bins
  (saturated tasks left out);
* ``fig4_auprg_vs_aupr``: AUPRG against AUPR for the models of the two tasks at the
  lower and upper quartile of the per-task Spearman correlation between the two;
* ``fig5_curves``: ROC, PR and PRG curves of the two models (circled in Figure 4, right)
  whose order flips between AUPR and AUPRG nearest the top of the lower-quartile task,
  as the paper chose them, read from the task's predictions;

The choices are made by :mod:`prspace.experiments.selection`; this module reads and writes.

and ``--selection-out`` (CSV, Markdown beside it): which tasks and models were drawn, why.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import pandas as pd

from prspace.errors import InputError
from prspace.experiments.ranking_report import source_label
from prspace.output import parse_formats, write_figure, write_table
from prspace.schema import read_predictions

# matplotlib and the figure modules are imported in the functions that need them: every
# `prspace` command imports this module at start-up.

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "figures",
        help="Flach & Kull Figures 4 and 5 for a study",
        description=(
            "Draw Flach & Kull (2015) Figure 4 (left: AUPR rank against AUPRG rank over all "
            "tasks; right: AUPRG against AUPR for the tasks at the quartiles of the per-task "
            "Spearman correlation) and Figure 5 (ROC, PR and PRG curves of two models whose "
            "order flips) from a study's metrics, ranks and predictions; write the choice of "
            "tasks and models as a CSV."
        ),
    )
    p.add_argument("--metrics", required=True, help="the study's metrics table (CSV)")
    p.add_argument("--ranks", required=True, help="the ranks table of `prspace rank`")
    p.add_argument("--per-task", required=True, help="disagreement_per_task.csv of `prspace rank`")
    p.add_argument("--tasks", help="the task table (CSV), for the source label")
    p.add_argument("--predictions-dir", required=True, help="directory of <task>.parquet predictions")
    p.add_argument("--out-dir", required=True, help="folder for the figure files")
    p.add_argument("--formats", default="png,pdf", help="comma-separated (default: %(default)s)")
    p.add_argument("--selection-out", required=True, help="CSV naming the tasks and models drawn")
    p.set_defaults(func=run)


def _label(metrics: pd.DataFrame, task: str, model: str, width: int = 24) -> str:
    """Short legend label: the model id (a local learner's name), or an OpenML run's flow name."""
    row = metrics[(metrics["task_id"] == task) & (metrics["model_id"] == model)].iloc[0]
    if str(row["flow_id"]) == model:  # local learner: the id is the name
        return model
    name = str(row["flow_name"])
    name = name if len(name) <= width else name[: width - 1] + "…"
    return f"{name}\n{model}"


def run(args: argparse.Namespace) -> int:
    import matplotlib

    matplotlib.use("Agg")
    from prspace.experiments import selection as S
    from prspace.figures import curves as C
    from prspace.figures import ranking as F

    out = Path(args.out_dir)
    formats = parse_formats(args.formats)
    ids = {"task_id": str, "model_id": str, "flow_id": str, "flow_name": str}
    metrics = pd.read_csv(args.metrics, dtype=ids)
    ranks = pd.read_csv(args.ranks, dtype=ids)
    per_task = pd.read_csv(args.per_task, dtype={"task_id": str})
    for m in ("aupr", "auprg"):
        if m not in ranks.columns:
            raise InputError(f"{args.ranks} has no {m} ranks; keep aupr and auprg in analysis.metrics")
    tasks = pd.read_csv(args.tasks, dtype={"task_id": str}) if args.tasks else None
    source = source_label(tasks) if tasks is not None else ""
    if metrics.empty:
        raise InputError(f"{args.metrics} has no rows: nothing to draw")

    sel = S.figure_selection(metrics, per_task, tasks)
    write_figure(F.rank_heatmap(ranks, "aupr", "auprg", source=source, exclude=sel.saturated),
                 out / "fig4_rank_heatmap", formats)
    write_figure(F.metric_scatter(metrics, sel.scatter_tasks, labels=sel.scatter_labels, highlight=sel.highlight,
                                  source=source, note=sel.note), out / "fig4_auprg_vs_aupr", formats)

    task = sel.curves_task
    df, info = read_predictions(Path(args.predictions_dir) / f"{task}.parquet")
    curves = []
    for m in sel.curves_models:
        g = df[(df["model_id"] == m) & (df["repeat"] == df["repeat"].min())]
        curves.append(C.Curve(_label(metrics, task, m), g["y_true"].to_numpy(bool), g["score"].to_numpy(float)))
    title = f"{task} ({info.dataset_name}), n = {info.n}, pi = {info.pi:.3f}"
    fig = C.curves_figure(curves, title=title, note=S.paper_flip_note() + (f" Source: {source}" if source else ""))
    write_figure(fig, out / "fig5_curves", formats)
    table = sel.table(metrics, per_task)
    write_table(table, args.selection_out, Path(args.selection_out).with_suffix(".md"),
                title="Tasks and models drawn in Figures 4 (right) and 5",
                note=(f"Saturated tasks left out of Figure 4 (left): {', '.join(sel.saturated) or 'none'}. "
                      "Paper (Flach & Kull 2015, Figure 5): AdaBoost vs Logistic Regression on white-clover, "
                      "AUPR 0.724 vs 0.773, AUPRG 0.714 vs 0.687."))
    log.info("figures written to %s", out)
    return 0
