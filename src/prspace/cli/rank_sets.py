"""``prspace rank-sets``: confidence sets for ranks per task, and disjoint plausible-best sets per study.

* ``prspace rank-sets tasks --status *.json --per-task-dir DIR --out rank_sets.csv`` computes, per
  task, every model's rank interval and the plausible-best set of each metric
  (:func:`prspace.experiments.rank_sets.task_rank_sets`), one CSV per task in ``DIR`` and the
  study's table stacked.
* ``prspace rank-sets summary --rank-sets rank_sets.csv --tasks tasks.csv --out rank_set_summary.csv
  --calibration-out ... --evidence-out ...`` writes, per metric pair, the share of tasks whose
  plausible-best sets are disjoint beside the plain top-1 share (cluster-bootstrap intervals over
  families), the calibration by simulation at the median task size and the verdict evidence rows.
"""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path

import pandas as pd

from prspace.core.errors import InputError

log = logging.getLogger(__name__)

DEFAULT_METRICS = "aupr,auprg,auroc,average_precision"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("rank-sets", help="confidence sets for ranks per task; disjoint plausible-best sets per study",
                              description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="rank_sets_command", metavar="STEP", required=True)

    t = sub.add_parser("tasks", help="every task's rank intervals and plausible-best sets")
    t.add_argument("--status", nargs="+", required=True, help="prediction status files (JSON) of the tasks")
    t.add_argument("--metrics", default=DEFAULT_METRICS, help="comma-separated metrics (default: %(default)s)")
    t.add_argument("--n-boot", type=int, default=1000, help="paired stratified bootstrap resamples per task (default: %(default)s)")
    t.add_argument("--confidence", type=float, default=0.95, help="family-wise confidence of the rank sets (default: %(default)s)")
    t.add_argument("--seed", type=int, default=0, help="seed; each task draws from (seed, task) (default: %(default)s)")
    t.add_argument("--per-task-dir", required=True, help="folder for one <task>.csv per task")
    t.add_argument("--out", required=True, help="every task's rows stacked (CSV)")
    t.set_defaults(func=run_tasks)

    s = sub.add_parser("summary", help="per metric pair: disjoint plausible-best sets vs top-1 disagreement, calibrated")
    s.add_argument("--rank-sets", required=True, help="rank_sets.csv (prspace rank-sets tasks)")
    s.add_argument("--tasks", required=True, help="the study's task table (tasks.csv: task_id, family, n, n_pos)")
    s.add_argument("--n-boot", type=int, default=1000, help="cluster-bootstrap resamples of families (default: %(default)s)")
    s.add_argument("--seed", type=int, default=0, help="seed of the cluster bootstrap and the simulation (default: %(default)s)")
    s.add_argument("--n-sim", type=int, default=50, help="simulated tasks per planted reversal (default: %(default)s)")
    s.add_argument("--n-sim-null", type=int, default=200, help="simulated tasks per null (default: %(default)s)")
    s.add_argument("--sim-models", type=int, default=10, help="models per simulated task (default: %(default)s)")
    s.add_argument("--mc-error", type=float, default=None,
                   help="a study with fewer than 3 tasks caps --n-sim and --n-sim-null at ceil(0.25 / mc_error^2), "
                        "so every simulated rate has Monte Carlo se <= mc_error (default: no cap)")
    s.add_argument("--sim-boot", type=int, default=500, help="bootstrap resamples per simulated task (default: %(default)s)")
    s.add_argument("--out", required=True, help="rank_set_summary.csv (Markdown beside it)")
    s.add_argument("--calibration-out", required=True, help="rank_set_calibration.csv (Markdown beside it)")
    s.add_argument("--evidence-out", required=True, help="rank_set_evidence.csv: verdict evidence rows (Markdown beside it)")
    s.set_defaults(func=run_summary)


def run_tasks(args: argparse.Namespace) -> int:
    from prspace.core._heap import keep_freed_memory
    from prspace.core.contracts import read_status
    from prspace.core.output import write_csv
    from prspace.core.schema import read_predictions
    from prspace.experiments import rank_sets as RS

    keep_freed_memory()
    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()]
    if args.n_boot < 10:
        raise InputError(f"--n-boot must be at least 10, got {args.n_boot}")
    if not (0.5 < args.confidence < 1.0):
        raise InputError(f"--confidence must lie in (0.5, 1), e.g. 0.95; got {args.confidence}")
    folder = Path(args.per_task_dir)
    folder.mkdir(parents=True, exist_ok=True)
    frames = []
    t0 = time.process_time()
    for path in sorted(args.status):
        status = read_status(path)
        if status["status"] != "ok":
            continue
        df, task = read_predictions(status["predictions"])
        table = RS.task_rank_sets(df, metrics=metrics, n_boot=args.n_boot, seed=args.seed, confidence=args.confidence)
        write_csv(table, folder / f"{task.task_id}.csv")
        frames.append(table)
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=RS.RANK_SET_COLUMNS)
    write_csv(out, args.out)
    log.info("rank sets of %d tasks, %d resamples each: %.1f CPU s", len(frames), args.n_boot, time.process_time() - t0)
    return 0


def _md(path: str) -> str:
    return str(path).removesuffix(".csv") + ".md"


def run_summary(args: argparse.Namespace) -> int:
    from prspace.core._heap import keep_freed_memory
    from prspace.core.output import write_table
    from prspace.experiments import rank_sets as RS
    from prspace.experiments.calibration import is_small_study, small_study_replicates

    keep_freed_memory()
    table = pd.read_csv(args.rank_sets, dtype={"task": str, "model": str})
    tasks = pd.read_csv(args.tasks, dtype={"task_id": str})
    missing = {"level", "n_resamples"} - set(table.columns)
    if missing:
        raise InputError(f"{args.rank_sets} lacks column(s) {sorted(missing)}; write it with prspace rank-sets tasks")
    if table.empty:  # no task had predictions: empty tables, no verdict rows
        log.warning("%s has no rows: writing empty tables", args.rank_sets)
        confidence, n_boot_task, n_pos, n_neg = float("nan"), 0, 0, 0
        small = False
        cal = pd.DataFrame(columns=RS.CALIBRATION_COLUMNS)
    else:
        confidence = float(table["level"].iloc[0])
        n_boot_task = int(table["n_resamples"].max())
        t0 = time.process_time()
        n_pos, n_neg = RS.median_size(tasks)
        n_sim, n_sim_null = small_study_replicates(tasks, (args.n_sim, args.n_sim_null), args.mc_error)
        small = is_small_study(tasks) and args.mc_error is not None
        cal = RS.calibrate_disjoint(n_pos, n_neg, n_models=args.sim_models, n_sim=n_sim,
                                    n_sim_null=n_sim_null, n_boot=args.sim_boot, confidence=confidence,
                                    seed=args.seed)
        log.info("calibration at %d/%d: %.1f CPU s", n_pos, n_neg, time.process_time() - t0)
    pairs = RS.pair_table(table)
    summary = RS.summarise(pairs, tasks, cal, confidence=confidence, n_boot=args.n_boot, seed=args.seed)
    ev = RS.evidence(summary)
    write_table(summary, args.out, _md(args.out), title="Disjoint plausible-best sets: disagreement real by construction",
                note=(f"Per metric pair: tasks whose {confidence:.0%} plausible-best sets (bootstrap max-T over all pairs "
                      f"of models, {n_boot_task} paired resamples per task) share no model, beside the plain top-1 "
                      f"disagreement; 95% cluster-bootstrap intervals over task families ({args.n_boot} resamples); "
                      f"false rates and power from rank_set_calibration.csv (docs/analysis.md)."))
    write_table(cal, args.calibration_out, _md(args.calibration_out),
                title="Calibration of disjoint plausible-best sets by simulation",
                note=(f"Median task size of the study ({n_pos} positives, {n_neg} negatives), {args.sim_models} "
                      f"binormal models; rate = share of simulated tasks with disjoint sets (false under the nulls, "
                      f"power under a planted reversal)."
                      + (f" A study of fewer than 3 tasks: {n_sim} simulated tasks per planted reversal and "
                         f"{n_sim_null} per null (mc_error {args.mc_error:g}: the Monte Carlo standard error of every "
                         f"rate is at most {args.mc_error:g}; rate_se gives each; docs/workflow.md)." if small else "")))
    write_table(ev, args.evidence_out, _md(args.evidence_out), title="Evidence rows: disjoint plausible-best sets")
    return 0
