"""``prspace calibrate``: false rate and power of the noise floor's "distinguishable" check.

Simulates two binormal models at the study's task sizes (quartiles of ``n_pos`` and ``n_neg`` in
``tasks.csv``), under three nulls (equal population value under both metrics; the two boundaries
where one metric is equal and the other clearly prefers one model) and under planted reversals
between the metrics of each pair, and decides every simulated task with the noise floor's own
decision function (:mod:`prspace.experiments.calibration`). Writes ``calibration.csv|md`` (one row
per pair, size and scenario) and ``calibration_summary.csv|md`` (per pair and size: false rates,
mdr80).
"""

from __future__ import annotations

import argparse
import logging
import time

import pandas as pd

from prspace.core.errors import InputError
from prspace.core.output import write_table

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("calibrate", help="false rate and power of the noise floor's distinguishable check, by simulation")
    p.add_argument("--tasks", required=True, help="the study's task table (CSV with n, n_pos, status)")
    p.add_argument("--n-sim", type=int, default=40, help="simulated tasks per planted reversal and size (default: %(default)s)")
    p.add_argument("--n-sim-null", type=int, default=200, help="simulated tasks under the null per size (default: %(default)s)")
    p.add_argument("--n-boot", type=int, default=200, help="stratified bootstrap resamples per simulated task: the noise floor's (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seed of the simulation (default: %(default)s)")
    p.add_argument("--auroc", type=float, default=0.85, help="population AUROC of model A (default: %(default)s)")
    p.add_argument("--rho", type=float, default=0.5, help="correlation of the two models' latent scores (default: %(default)s)")
    p.add_argument("--sigmas", default="0.05,0.15,0.3,0.5,2,4,8,16",
                   help="standard deviations of model B's positive scores, one planted reversal each (default: %(default)s)")
    p.add_argument("--sigmas-a", default="1,4",
                   help="standard deviations of model A's positive scores of the planted reversals (default: %(default)s)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="one-sided level of each of the check's two tests, as in prspace noise-floor (default: %(default)s)")
    p.add_argument("--mc-error", type=float, default=None,
                   help="a study with fewer than 3 tasks caps --n-sim and --n-sim-null at ceil(0.25 / mc_error^2), "
                        "so every simulated rate has Monte Carlo se <= mc_error, and says so in the tables' notes "
                        "(default: no cap)")
    p.add_argument("--out", required=True, help="calibration table (CSV; Markdown beside it)")
    p.add_argument("--summary-out", required=True, help="calibration summary (CSV; Markdown beside it)")
    p.set_defaults(func=run)


def _floats(text: str, what: str) -> list[float]:
    try:
        return [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise InputError(f"{what} must be comma-separated numbers, got {text!r}") from None


def run(args: argparse.Namespace) -> int:
    from prspace.core._heap import keep_freed_memory
    from prspace.experiments import calibration as C
    from prspace.experiments.ranking import PAPER_RESULTS

    sigmas = _floats(args.sigmas, "--sigmas")
    sigmas_a = _floats(args.sigmas_a, "--sigmas-a")
    if not (0.0 < args.alpha < 0.5):
        raise InputError(f"--alpha must lie in (0, 0.5) (a one-sided level such as 0.05), got {args.alpha}")
    if args.n_sim < 1 or args.n_sim_null < 1 or args.n_boot < 10:
        raise InputError(f"--n-sim and --n-sim-null must be >= 1 and --n-boot >= 10, got {args.n_sim}, {args.n_sim_null}, {args.n_boot}")
    keep_freed_memory()
    tasks = pd.read_csv(args.tasks, dtype={"task_id": str})
    n_sim, n_sim_null = C.small_study_replicates(tasks, (args.n_sim, args.n_sim_null), args.mc_error)
    t0 = time.process_time()
    table, summary = C.calibrate(tasks, pairs=list(PAPER_RESULTS), n_sim=n_sim, n_sim_null=n_sim_null,
                                 n_boot=args.n_boot, seed=args.seed, auroc=args.auroc, rho=args.rho, sigmas=sigmas,
                                 sigmas_a=sigmas_a, alpha=args.alpha)
    md = str(args.out).removesuffix(".csv") + ".md"
    smd = str(args.summary_out).removesuffix(".csv") + ".md"
    small = C.is_small_study(tasks) and args.mc_error is not None
    mc = (f"A study of fewer than 3 tasks: {n_sim} simulated tasks per planted reversal and {n_sim_null} per null "
          f"(mc_error {args.mc_error:g}: the Monte Carlo standard error of every rate is at most {args.mc_error:g}; "
          "rate_se gives each; docs/workflow.md, \"Time and Monte Carlo error\").") if small else ""
    write_table(table, args.out, md, title="Calibration of the distinguishable check: every simulated scenario",
                note=mc or None)
    write_table(summary, args.summary_out, smd, title="Calibration of the distinguishable check: false rates and mdr80",
                note=f"one-sided alpha {args.alpha} per component test (an intersection-union test: size <= alpha). "
                     "false_rate_null: both metrics equal; false_rate_eq_a (eq_b): metric a (b) equal, the other "
                     "preferring one model (other_power: how often its test rejects); false_rate, false_rate_upper: the "
                     "largest of the three (+ 2 Monte Carlo se). mdr80: the smallest planted reversal such that every "
                     "larger planted one was detected with power >= 0.8 (empty: none was; then max_reversal and "
                     "power_at_max); docs/calibration.md" + (f". {mc}" if small else ""))
    log.info("calibration: %d scenarios, %.1f CPU s", len(table), time.process_time() - t0)
    return 0
