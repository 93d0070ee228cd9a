"""``prspace figures``: Figures 4 and 5 of Flach & Kull (2015) for a study.

Writes into ``--out-dir``:

* ``fig4_rank_heatmap``: AUPRG rank against AUPR rank, model counts in log2 bins;
* ``fig4_auprg_vs_aupr``: AUPRG against AUPR for the models of the two tasks at the
  lower and upper quartile of the per-task Spearman correlation between the two;
* ``fig5_curves``: ROC, PR and PRG curves of two models of one task whose order flips
  between AUPR and AUPRG (preferably in one of the two quartile tasks, among the best
  models), read from the task's predictions;

and ``--selection-out`` (CSV, Markdown beside it): which tasks and models were drawn, why.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import pandas as pd

from prspace.cli._tables import write_csv, write_markdown
from prspace.cli.rank import source_label
from prspace.errors import InputError
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


def choose_flip(metrics: pd.DataFrame, preferred: list[str], *, top: int = 3) -> tuple[pd.Series | None, str]:
    """The pair of models for Figure 5 and the reason it was chosen.

    A visible flip: among pairs with a model placed in the top ``top`` by AUPRG, the one whose
    smaller gap (|delta AUPR|, |delta AUPRG|) is largest; first in the preferred (quartile)
    tasks, then in all tasks if that gives a clearer flip.
    """
    from prspace.experiments import ranking as R

    flips = R.flipped_pairs(metrics, "aupr", "auprg")
    if flips.empty:
        return None, "no pair of models in any task is ordered differently by AUPR and AUPRG"
    flips = flips.assign(gap=pd.concat([(flips.aupr_first - flips.aupr_second).abs(),
                                        (flips.auprg_first - flips.auprg_second).abs()], axis=1).min(axis=1))
    near_top = flips[flips.best_position <= top]
    near_top = near_top if not near_top.empty else flips
    ordered = near_top.sort_values(["gap", "task_id", "first", "second"], ascending=[False, True, True, True])
    pref = ordered[ordered["task_id"].isin(preferred)]
    best_all = ordered.iloc[0]
    if not pref.empty and pref.iloc[0].gap >= 0.5 * best_all.gap:
        return pref.iloc[0], (f"clearest flip (smaller of the AUPR and AUPRG gaps {pref.iloc[0].gap:.3f}) among "
                              f"models in the top {top} by AUPRG of the two quartile tasks")
    return best_all, (f"clearest flip (smaller of the AUPR and AUPRG gaps {best_all.gap:.3f}) among models in "
                      f"the top {top} by AUPRG of all tasks")


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
    from prspace.experiments import ranking as R
    from prspace.figures import curves as C
    from prspace.figures import ranking as F

    out = Path(args.out_dir)
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    formats = list(dict.fromkeys(formats))
    ids = {"task_id": str, "model_id": str, "flow_id": str, "flow_name": str}
    metrics = pd.read_csv(args.metrics, dtype=ids)
    ranks = pd.read_csv(args.ranks, dtype=ids)
    per_task = pd.read_csv(args.per_task, dtype={"task_id": str})
    # the figures compare AUPR and AUPRG; accept the pair in either order
    swap = (per_task.metric_a == "auprg") & (per_task.metric_b == "aupr")
    per_task.loc[swap, ["metric_a", "metric_b"]] = ["aupr", "auprg"]
    for m in ("aupr", "auprg"):
        if m not in ranks.columns:
            raise InputError(f"{args.ranks} has no {m} ranks; keep aupr and auprg in analysis.metrics")
    source = source_label(pd.read_csv(args.tasks, dtype={"task_id": str})) if args.tasks else ""
    if metrics.empty:
        raise InputError(f"{args.metrics} has no rows: nothing to draw")

    F.save(F.rank_heatmap(ranks, "aupr", "auprg", source=source), out / "fig4_rank_heatmap", formats)

    lo, hi = R.quartile_groups(per_task, "aupr", "auprg")
    pair = per_task[(per_task.metric_a == "aupr") & (per_task.metric_b == "auprg")].set_index("task_id")["spearman"]
    names = metrics.drop_duplicates("task_id").set_index("task_id")
    flip, why = choose_flip(metrics, [lo, hi])
    highlight = [] if flip is None else [(flip["task_id"], flip["first"]), (flip["task_id"], flip["second"])]
    labels = [f"{t} (Spearman {pair[t]:.3f}, {q} quartile)" for t, q in ((lo, "lower"), (hi, "upper"))]
    F.save(F.metric_scatter(metrics, [lo, hi], labels=labels, highlight=highlight, source=source),
           out / "fig4_auprg_vs_aupr", formats)

    sel = []
    for t, q in ((lo, "lower"), (hi, "upper")):
        sel.append({"figure": "fig4_auprg_vs_aupr", "role": f"{q} quartile of per-task Spearman (AUPR vs AUPRG)",
                    "task_id": t, "model_id": "", "flow_name": "", "aupr": float("nan"), "auprg": float("nan"),
                    "auroc": float("nan"), "spearman": float(pair[t]), "pi": float(names.loc[t, "pi"])})

    if flip is None:
        task = hi
        top = metrics[metrics.task_id == task].sort_values(["aupr", "model_id"], ascending=[False, True]).model_id
        models = list(top.iloc[:2])
        roles = ["best by AUPR", "second by AUPR"]
    else:
        task = flip["task_id"]
        models = [flip["first"], flip["second"]]
        roles = ["higher AUPR, lower AUPRG", "higher AUPRG, lower AUPR"]
    df, info = read_predictions(Path(args.predictions_dir) / f"{task}.parquet")
    curves = []
    for m in models:
        g = df[(df["model_id"] == m) & (df["repeat"] == df["repeat"].min())]
        curves.append(C.Curve(_label(metrics, task, m), g["y_true"].to_numpy(bool), g["score"].to_numpy(float)))
    title = f"{task} ({info.dataset_name}), n = {info.n}, pi = {info.pi:.3f}"
    fig = C.curves_figure(curves, title=title, note=f"source: {source}" if source else "")
    F.save(fig, out / "fig5_curves", formats)
    for m, role in zip(models, roles, strict=True):
        r = metrics[(metrics.task_id == task) & (metrics.model_id == m)].iloc[0]
        sel.append({"figure": "fig5_curves", "role": f"{role}; {why}", "task_id": task, "model_id": m,
                    "flow_name": r["flow_name"], "aupr": r["aupr"], "auprg": r["auprg"], "auroc": r["auroc"],
                    "spearman": float(pair.get(task, float("nan"))), "pi": float(r["pi"])})
    sel = pd.DataFrame(sel)
    write_csv(sel, args.selection_out)
    write_markdown(sel, Path(args.selection_out).with_suffix(".md"), decimals=3,
                   title="Tasks and models drawn in Figures 4 (right) and 5")
    log.info("figures written to %s", out)
    return 0
