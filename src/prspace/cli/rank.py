"""``prspace rank``: rank the models within each task by several metrics and compare.

Reads the study's metrics table (``prspace score collect``) and writes, into
``--out-dir``:

* ``disagreement_per_task.csv``: per task and metric pair, top-1 / top-3 disagreement
  and Spearman / Kendall rank correlations;
* ``disagreement_summary.csv|md``: per metric pair, the share of tasks that disagree
  and the mean correlations, with bootstrap 95% intervals over tasks;
* ``scorecard.csv|md``: Flach & Kull's numbers beside this run's, with sources;
* ``learner_ranking.csv|md`` and ``learner_agreement.csv|md``: learners ranked across
  tasks by mean AUPR, mean AUCNPR and mean AUPRG (Boyd et al. 2012, section 4.2).

See :mod:`prspace.experiments.ranking` for the definitions.
"""

from __future__ import annotations

import argparse
import logging
import re
from pathlib import Path

import numpy as np
import pandas as pd

from prspace.cli._tables import write_csv, write_markdown, write_table
from prspace.errors import InputError

# prspace.experiments.ranking is imported inside the functions: every `prspace` command
# imports this module at start-up, and scipy.stats is slow to import.

log = logging.getLogger(__name__)

LEARNER_METRICS = ("aupr", "aucnpr", "auprg")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "rank",
        help="rank models within tasks by several metrics; disagreement tables",
        description=(
            "Rank the models of every task by each metric (rank 1 = best, ties share the "
            "average rank), then write the disagreement tables of Flach & Kull (2015) "
            "section 4 (top-1 and top-3 disagreement and rank correlations for every pair "
            "of metrics, with bootstrap 95%% intervals over tasks), the learners ranked "
            "across tasks (Boyd et al. 2012 section 4.2) and the replication scorecard."
        ),
    )
    p.add_argument("--metrics", required=True, help="the study's metrics table (CSV)")
    p.add_argument("--tasks", required=True, help="the study's task table (CSV), for the source label")
    p.add_argument("--rank-by", default="aupr,average_precision,auprg,auroc,aucnpr", help="comma-separated metrics (default: %(default)s)")
    p.add_argument("--n-boot", type=int, default=1000, help="bootstrap resamples of tasks (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default: %(default)s)")
    p.add_argument("--learner-min-share", type=float, default=1.0,
                   help="learner ranking across tasks: keep learners present in at least this share of tasks")
    p.add_argument("--out-dir", required=True, help="folder for the tables (CSV and Markdown)")
    p.add_argument("--ranks-out", required=True, help="the ranks table (CSV)")
    p.set_defaults(func=run)


def source_label(tasks: pd.DataFrame) -> str:
    """What the run is, from the task table: source, data, models, protocol."""
    ok = tasks[tasks["status"] == "ok"]
    if ok.empty:
        return "no task scored"
    parts = []
    for source, g in ok.groupby("source", sort=True):
        models = g["n_models"].astype(int)
        nm = f"{models.min()}" if models.min() == models.max() else f"{models.min()}-{models.max()}"
        # provenance names package versions and per-dataset details in parentheses; keep the former
        pieces = {re.sub(r"\s*\([^)]*\)", "", p).strip() for v in g["provenance"].astype(str) for p in v.split(";")}
        prov = "; ".join(sorted(p for p in pieces if p))
        proc = "; ".join(sorted(set(g["estimation_procedure"].astype(str))))
        if source == "openml":
            parts.append(f"OpenML ({prov}): {len(g)} tasks x {nm} models from distinct flows, {proc}")
        else:
            parts.append(f"local learners ({nm} per task) on {len(g)} datasets listed in tasks.csv ({prov}), {proc}")
    return " + ".join(parts)


def _ci(m: float, lo: float, hi: float) -> str:
    if np.isnan(m):
        return ""
    return f"{m:.3f} [{lo:.3f}, {hi:.3f}]"


def summary_markdown(summary: pd.DataFrame) -> pd.DataFrame:
    from prspace.experiments.ranking import METRIC_LABELS as lab

    return pd.DataFrame(
        {
            "metrics": [f"{lab.get(a, a)} vs {lab.get(b, b)}" for a, b in zip(summary.metric_a, summary.metric_b, strict=True)],
            "tasks": summary.n_tasks,
            "top-1 differs": [_ci(*r) for r in summary[["top1_share", "top1_lo", "top1_hi"]].to_numpy()],
            "top-3 differs": [_ci(*r) for r in summary[["top3_share", "top3_lo", "top3_hi"]].to_numpy()],
            "Spearman (mean)": [_ci(*r) for r in summary[["spearman_mean", "spearman_lo", "spearman_hi"]].to_numpy()],
            "Kendall (mean)": [_ci(*r) for r in summary[["kendall_mean", "kendall_lo", "kendall_hi"]].to_numpy()],
            "Spearman (pooled)": summary.pooled_spearman,
            "Spearman q25/median/q75": [f"{a:.3f} / {b:.3f} / {c:.3f}" for a, b, c in summary[["spearman_q25", "spearman_median", "spearman_q75"]].to_numpy()],
        }
    )


def scorecard_markdown(card: pd.DataFrame) -> pd.DataFrame:
    def fmt(v: float, stat: str) -> str:
        if np.isnan(v):
            return ""
        return f"{v:.0f}" if stat in ("tasks", "models per task (median)") else f"{v:.2f}"

    return pd.DataFrame(
        {
            "comparison": card.comparison,
            "statistic": card.statistic,
            "paper": [fmt(v, s) for v, s in zip(card.paper, card.statistic, strict=True)],
            "this run": [fmt(v, s) for v, s in zip(card.this_run, card.statistic, strict=True)],
            "95% CI": ["" if np.isnan(lo) else f"[{lo:.2f}, {hi:.2f}]" for lo, hi in zip(card.ci_lo, card.ci_hi, strict=True)],
        }
    )


def run(args: argparse.Namespace) -> int:
    from prspace.experiments import ranking as R

    out = Path(args.out_dir)
    metrics = pd.read_csv(args.metrics, dtype={"task_id": str, "model_id": str, "flow_id": str, "flow_name": str})
    tasks = pd.read_csv(args.tasks, dtype={"task_id": str})
    rank_by = [m.strip() for m in args.rank_by.split(",") if m.strip()]
    unknown = [m for m in rank_by if m not in metrics.columns]
    if unknown:
        raise InputError(f"--rank-by names {', '.join(unknown)}, not columns of {args.metrics}; choose from {', '.join(R.METRIC_LABELS)}")
    if metrics.empty:
        raise InputError(f"{args.metrics} has no rows: no task was scored; see the task table {args.tasks} for the reasons")

    try:
        ranks = R.rank_models(metrics, rank_by)
    except ValueError as exc:
        raise InputError(f"{args.metrics}: {exc}") from None
    write_csv(ranks, args.ranks_out)
    per_task = R.all_disagreements(ranks, rank_by)
    write_csv(per_task, out / "disagreement_per_task.csv")

    summary = R.summarise_disagreement(per_task, ranks=ranks, n_boot=args.n_boot, seed=args.seed)
    source = source_label(tasks)
    note = (f"Source: {source}. Shares of tasks where the best model (top-1) or the ordered top three (top-3) "
            f"differ; mean per-task rank correlations; [95% percentile bootstrap over tasks, {args.n_boot} resamples, seed {args.seed}].")
    write_table(summary, out / "disagreement_summary.csv")
    write_markdown(summary_markdown(summary), out / "disagreement_summary.md", decimals=3,
                   title="Rank disagreement between metrics", note=note)

    card = R.scorecard(summary, per_task, source=source)
    write_csv(card, out / "scorecard.csv")
    write_markdown(scorecard_markdown(card), out / "scorecard.md",
                   title="Replication scorecard: Flach & Kull (2015), section 4",
                   note=f"paper: {R.PAPER_SOURCE}.  \nthis run: {source}.  \n95% CI: percentile bootstrap over tasks.")

    learner_metrics = [m for m in LEARNER_METRICS if m in metrics.columns]
    names = metrics.drop_duplicates("flow_id").set_index("flow_id")["flow_name"]
    try:
        learners = R.learner_ranking_across_tasks(metrics, learner_metrics, learner="flow_id",
                                                  min_share=args.learner_min_share)
        learners.insert(1, "flow_name", learners["flow_id"].map(names))
        agreement = R.learner_order_agreement(learners, learner_metrics, learner="flow_id")
    except ValueError as exc:
        log.warning("learner ranking across tasks: %s", exc)
        learners = pd.DataFrame(columns=["flow_id", "flow_name", "n_tasks"])
        agreement = pd.DataFrame(columns=["metric_a", "metric_b", "n_learners", "best_a", "best_b",
                                          "top1_differs", "top3_differs", "spearman", "kendall"])
    lnote = ("Learners ranked across tasks by their mean metric (Boyd et al. 2012, sec. 4.2): "
             "rank_mean_<m> = rank by the mean over tasks (1 = best); mean_rank_<m> = mean within-task rank. "
             f"Only learners present in at least {args.learner_min_share:.0%} of the tasks. Source: {source}.")
    write_table(learners, out / "learner_ranking.csv", out / "learner_ranking.md", decimals=3,
                title="Learners ranked across tasks", note=lnote)
    write_table(agreement, out / "learner_agreement.csv", out / "learner_agreement.md", decimals=3,
                title="Do the learners' orders by mean metric agree?", note=lnote)
    log.info("%d tasks, %d models ranked by %s", ranks["task_id"].nunique(), len(ranks), ", ".join(rank_by))
    return 0
