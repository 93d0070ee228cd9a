"""``prspace noise-floor``: how often each metric disagrees with itself on resampled test rows.

Reads the tasks' prediction status files (``prspace predict-local`` / ``fetch-openml task``)
and writes, for every task, the per-metric floors and the pairwise distinguishability of
:mod:`prspace.experiments.noise_floor` (stratified bootstrap with counts, seeded).
"""

from __future__ import annotations

import argparse
import logging
import time

import pandas as pd

from prspace.errors import InputError
from prspace.output import write_csv

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
    from prspace.contracts import read_status
    from prspace.experiments import noise_floor as NF
    from prspace.schema import read_predictions

    metrics = [m.strip() for m in args.rank_by.split(",") if m.strip()]
    if args.n_boot < 1:
        raise InputError(f"--n-boot must be at least 1, got {args.n_boot}")
    if not (0.0 < args.alpha < 0.5):
        raise InputError(f"--alpha must lie in (0, 0.5) (a one-sided level such as 0.05), got {args.alpha}")
    floors, pairs = [], []
    t0 = time.process_time()
    for path in sorted(args.status):
        status = read_status(path)
        if status["status"] != "ok":
            continue
        df, _ = read_predictions(status["predictions"])
        f, p = NF.noise_floor_task(df, metrics=metrics, n_boot=args.n_boot, seed=args.seed, alpha=args.alpha)
        floors.append(f)
        pairs.append(p)
    floors_df = pd.concat(floors, ignore_index=True) if floors else pd.DataFrame(columns=NF.FLOOR_COLUMNS)
    pairs_df = pd.concat(pairs, ignore_index=True) if pairs else pd.DataFrame(columns=NF.PAIR_COLUMNS)
    write_csv(floors_df, args.floors_out)
    write_csv(pairs_df, args.pairs_out)
    log.info("noise floor of %d tasks, %d resamples each: %.1f CPU s", len(floors), args.n_boot, time.process_time() - t0)
    return 0
