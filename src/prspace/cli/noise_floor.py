"""``prspace noise-floor``: how often each metric disagrees with itself on resampled test rows.

Reads the tasks' prediction status files (``prspace predict-local`` / ``fetch-openml task``)
and writes, for every task, the per-metric floors and the pairwise distinguishability of
:mod:`prspace.experiments.noise_floor` (stratified bootstrap with counts, seeded).
"""

from __future__ import annotations

import argparse
import logging
import time

from prspace.core.output import write_csv

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("noise-floor", help="per task: how often a metric disagrees with itself under a bootstrap of the test rows")
    p.add_argument("--status", nargs="+", required=True, help="prediction status files (JSON) of the tasks")
    p.add_argument("--rank-by", default="aupr,average_precision,auprg,auroc,aucnpr", help="comma-separated metrics (default: %(default)s)")
    p.add_argument("--n-boot", type=int, default=200, help="stratified bootstrap resamples per task (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap of test rows; each task draws from (seed, task) (default: %(default)s)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="one-sided level of each of the two tests of a distinguishable disagreement (default: %(default)s)")
    p.add_argument("--floors-out", required=True, help="per task and metric: top-1 / top-3 floors (CSV)")
    p.add_argument("--pairs-out", required=True, help="per task and metric pair: distinguishable disagreement (CSV)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from prspace.experiments.noise_floor import study_noise_floors

    t0 = time.process_time()
    floors, pairs = study_noise_floors(args.status, metrics=[m.strip() for m in args.rank_by.split(",") if m.strip()],
                                       n_boot=args.n_boot, seed=args.seed, alpha=args.alpha)
    write_csv(floors, args.floors_out)
    write_csv(pairs, args.pairs_out)
    log.info("noise floor of %d tasks, %d resamples each: %.1f CPU s", floors["task_id"].nunique() if len(floors) else 0,
             args.n_boot, time.process_time() - t0)
    return 0
