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
from pathlib import Path

import pandas as pd

from prspace.core.contracts import read_metrics_table
from prspace.core.errors import InputError
from prspace.core.output import write_csv, write_markdown, write_table
from prspace.experiments.ranking_report import (
    learner_families,
    scorecard_markdown,
    source_label,
    summary_markdown,
)

# prspace.experiments.ranking is imported inside the functions: every `prspace` command
# imports this module at start-up, and scipy.stats is slow to import.

log = logging.getLogger(__name__)



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
    p.add_argument("--noise-floors", help="per task and metric floors (prspace noise-floor --floors-out)")
    p.add_argument("--noise-pairs", help="per task and pair distinguishability (prspace noise-floor --pairs-out)")
    p.add_argument("--out-dir", required=True, help="folder for the tables (CSV and Markdown)")
    p.add_argument("--ranks-out", required=True, help="the ranks table (CSV)")
    p.add_argument("--selfcheck", default=None,
                   help="OpenML studies: the self-check summary (prspace fetch-openml selfcheck), added to the scorecard")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from prspace.experiments import ranking as R

    out = Path(args.out_dir)
    metrics = read_metrics_table(args.metrics)
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

    floors = pd.read_csv(args.noise_floors, dtype={"task_id": str}) if args.noise_floors else None
    pairs = pd.read_csv(args.noise_pairs, dtype={"task_id": str}) if args.noise_pairs else None
    summary = R.summarise_disagreement(per_task, ranks=ranks, tasks=tasks, floors=floors, noise_pairs=pairs,
                                       n_boot=args.n_boot, seed=args.seed)
    source = source_label(tasks)
    note = (f"Source: {source}. Shares of tasks where the best model (top-1) or the ordered top three (top-3) "
            f"differ; mean per-task rank correlations; [95% percentile cluster bootstrap over families of tasks "
            f"(tasks derived from one source dataset resampled together), {args.n_boot} resamples, seed {args.seed}]. "
            "floor: how often a metric disagrees with itself under a stratified bootstrap of the test rows "
            "(mean over tasks of the two metrics' floors); w/o saturated: saturated tasks left out; "
            "distinguishable: share of the disagreeing tasks where both metrics' preferences are outside "
            f"their paired bootstrap 95% intervals. {R.TIE_CONVENTION}")
    write_table(summary, out / "disagreement_summary.csv")
    write_markdown(summary_markdown(summary), out / "disagreement_summary.md",
                   title="Rank disagreement between metrics", note=note)

    card = R.scorecard(summary, per_task, source=source)
    if args.selfcheck:
        from prspace.openml.selfcheck import scorecard_rows

        card = pd.concat([card, scorecard_rows(pd.read_csv(args.selfcheck))], ignore_index=True)
    write_csv(card, out / "scorecard.csv")
    write_markdown(scorecard_markdown(card), out / "scorecard.md",
                   title="Replication scorecard: Flach & Kull (2015), section 4",
                   note=(f"paper: {R.PAPER_SOURCE}; the paper does not name its rank correlation.  \nthis run: {source}.  \n"
                         "95% CI: percentile cluster bootstrap over families of tasks. noise floor: how often a metric "
                         "disagrees with itself under a stratified bootstrap of the test rows. distinguishable: share "
                         f"of the disagreements outside both paired bootstrap intervals.  \n{R.TIE_CONVENTION}"))

    learners, agreement, winners, problem = R.learner_tables(metrics, min_share=args.learner_min_share)
    if problem is not None:
        log.warning("learner ranking across tasks: %s", problem)
    lnote = ("Learners ranked across tasks by their mean metric (Boyd et al. 2012, sec. 4.2): "
             "rank_mean_<m> = rank by the mean over tasks (1 = best); mean_rank_<m> = mean within-task rank. "
             f"Only learners present in at least {args.learner_min_share:.0%} of the tasks. Source: {source}.")
    write_table(learners, out / "learner_ranking.csv", out / "learner_ranking.md",
                title="Learners ranked across tasks", note=lnote)
    write_table(agreement, out / "learner_agreement.csv", out / "learner_agreement.md",
                title="Do the learners' orders by mean metric agree?", note=lnote)
    write_table(winners, out / "learner_winners.csv", out / "learner_winners.md",
                title="The best learner across tasks by mean, median and mean rank, with its margin",
                note=("n_tasks_flip: tasks whose removal alone changes the winner. AUPRG is unbounded below, so a mean "
                      f"of AUPRG can be decided by one task. Source: {source}."))
    families = learner_families(metrics)
    sens = R.panel_sensitivity(metrics, families, rank_by, tasks=tasks, n_boot=args.n_boot, seed=args.seed)
    write_table(sens, out / "panel_sensitivity.csv", out / "panel_sensitivity.md",
                title="Panel sensitivity: disagreement with every model and with one model per learner family",
                note=("family: prspace.local.learners.learner_family when it exists, else the learner itself (then "
                      "the two columns agree); the representative of a family is its model id that sorts first. "
                      f"[95% cluster bootstrap over families of tasks]. Source: {source}."))
    log.info("%d tasks, %d models ranked by %s", ranks["task_id"].nunique(), len(ranks), ", ".join(rank_by))
    return 0
