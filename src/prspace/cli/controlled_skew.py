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

from prspace.experiments.controlled_skew import BALANCE_EDGES
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
    from prspace.contracts import read_status
    from prspace.errors import InputError
    from prspace.experiments import controlled_skew as CS
    from prspace.schema import read_predictions

    metrics = [m.strip() for m in args.rank_by.split(",") if m.strip()]
    try:
        targets = [float(t) for t in args.targets.split(",") if t.strip()]
    except ValueError:
        raise InputError(f"--targets {args.targets!r}: give comma-separated numbers in (0, 1), e.g. 0.5,0.1") from None
    try:
        edges = [float(t) for t in args.balance_edges.split(",") if t.strip()]
    except ValueError:
        raise InputError(f"--balance-edges {args.balance_edges!r}: give comma-separated pi values, e.g. 0.1,0.3") from None
    CS.balance_levels(edges)
    tasks = pd.read_csv(args.tasks, dtype={"task_id": str})
    try:
        ref_table = pd.read_csv(args.reference)
    except FileNotFoundError:
        raise InputError(f"--reference {args.reference}: no such file; give a finished study's tables/tasks.csv "
                         "(config key analysis.skew_reference)") from None
    reference = CS.reference_pi(ref_table, name=args.reference)
    ref_name = args.reference_name or CS.reference_name(args.reference)
    statuses = [read_status(path) for path in sorted(args.status)]
    ok = [s for s in statuses if s["status"] == "ok"]
    cf_targets = CS.study_counterfactual_targets(tasks, [str(s["task_id"]) for s in ok], reference)
    frames, cf_frames = [], []
    for status in ok:
        df, _ = read_predictions(status["predictions"])
        per_t, cf_t = CS.skew_task(df, targets=targets, metrics=metrics,
                                   counterfactual=cf_targets.loc[str(status["task_id"])].to_dict())
        frames.append(per_t)
        cf_frames.append(cf_t)
    per = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=[*CS.PER_TASK_COLUMNS, "is_observed"])
    cf_per = pd.concat(cf_frames, ignore_index=True) if cf_frames else pd.DataFrame(columns=CS.COUNTERFACTUAL_PER_TASK_COLUMNS)
    write_csv(per, args.per_task_out)
    if args.counterfactual_per_task_out:
        write_csv(cf_per, args.counterfactual_per_task_out)
    summary = CS.controlled_skew_summary(per, tasks=tasks, n_boot=args.n_boot, seed=args.seed) if len(per) else pd.DataFrame()
    observed_per_task = pd.read_csv(args.per_task, dtype={"task_id": str})
    observed = CS.observed_by_bin(observed_per_task, tasks)
    out = Path(args.tables_dir)
    write_table(summary, out / "controlled_skew.csv", out / "controlled_skew.md",
                title="Controlled skew: disagreement with the negatives reweighted to pi (same models, same scores)",
                note=("Every task's negatives reweighted so that the weighted share of positives is pi_target; AUROC and its "
                      "ranks do not move. Shares of tasks; [95% cluster bootstrap over families of tasks, "
                      f"{args.n_boot} resamples, seed {args.seed}]."))
    write_table(observed, out / "controlled_skew_observed.csv", out / "controlled_skew_observed.md",
                title="Observed disagreement per bin of pi and of the number of positives (the study's own tasks)")
    tables = CS.skew_analysis(per, cf_per, observed_per_task, tasks, reference=reference, reference_name=ref_name,
                              edges=edges, n_boot=args.n_boot, seed=args.seed) if len(per) else {
        "controlled_skew_trend": pd.DataFrame(columns=CS.TREND_COLUMNS),
        "controlled_skew_counterfactual": pd.DataFrame(columns=CS.COUNTERFACTUAL_COLUMNS),
        "disagreement_by_balance": pd.DataFrame(columns=CS.BALANCE_COLUMNS),
        "skew_evidence": CS.skew_evidence(pd.DataFrame(columns=CS.TREND_COLUMNS),
                                          pd.DataFrame(columns=CS.COUNTERFACTUAL_COLUMNS), reference_name=ref_name)}
    boot = f"95% cluster bootstrap over families of tasks, {args.n_boot} resamples, seed {args.seed}"
    texts = {
        "controlled_skew_trend": (
            "Controlled skew: how fast each pair's disagreement rises as pi falls (same models, same scores)",
            "slope: least-squares slope of the share of tasks whose top-k differ against -log10(pi_target) over the "
            f"targets {', '.join(f'{t:g}' for t in targets)} (share change per decade of falling pi); "
            f"[slope_lo, slope_hi]: {boot}, every target's share recomputed from the same resampled families and the "
            "slope refit."),
        "controlled_skew_counterfactual": (
            f"Counterfactual: this study's disagreement with its tasks moved to the pi of the {ref_name} suite",
            f"Reference: {len(reference)} usable tasks of {args.reference} (median pi {float(pd.Series(reference).median()):.3g}). "
            "reference_median: every task's negatives reweighted to that median pi; reference_distribution: the task at "
            "pi-quantile q of this study reweighted to the reference's pi-quantile q. share: share of tasks whose top-k "
            f"differ; [lo, hi]: {boot}."),
        "disagreement_by_balance": (
            "Observed disagreement by balance level of the task (the study's own tasks, unweighted)",
            f"Balance levels by the task's pi (edges {', '.join(f'{e:g}' for e in edges)}); 'all' pools every task "
            f"(as disagreement_summary). [lo, hi]: {boot}, within each level."),
        "skew_evidence": (
            "Evidence rows: skew as the explanation of the AUROC pairs' disagreement (decided by prspace.verdicts.rule)",
            None),
    }
    for name, (title, note) in texts.items():
        if name in tables:
            write_table(tables[name], out / f"{name}.csv", out / f"{name}.md", title=title, note=note)
    log.info("controlled skew: %d tasks x %d targets; counterfactual reference %s (%d tasks)",
             per["task_id"].nunique() if len(per) else 0, len(targets), args.reference, len(reference))
    return 0
