"""``prspace noise-evidence``: evidence rows, is the metrics' disagreement more than noise?

Reads the noise floor's pair table, the task table (families) and the calibration summary, and
writes ``noise_evidence.csv|md`` (:mod:`prspace.experiments.noise_evidence`): per pair and top-k, the
distinguishable disagreements (k of n, a ``bound`` row read with the calibrated power) and
cross-metric minus self-disagreement (a ``difference`` row with a cluster-bootstrap interval).
"""

from __future__ import annotations

import argparse

import pandas as pd

from prspace.core.output import write_table


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("noise-evidence", help="evidence rows: is the metrics' disagreement more than noise?")
    p.add_argument("--pairs", required=True, help="noise_floor_pairs.csv (prspace noise-floor)")
    p.add_argument("--tasks", required=True, help="the study's task table (CSV with task_id, family)")
    p.add_argument("--calibration", default=None, help="calibration_summary.csv (prspace calibrate)")
    p.add_argument("--n-boot", type=int, default=1000, help="cluster-bootstrap resamples of families (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seed of the cluster bootstrap (default: %(default)s)")
    p.add_argument("--out", required=True, help="evidence rows (CSV; Markdown beside it)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from prspace.experiments.noise_evidence import noise_evidence

    pairs = pd.read_csv(args.pairs, dtype={"task_id": str})
    tasks = pd.read_csv(args.tasks, dtype={"task_id": str})
    cal = pd.read_csv(args.calibration) if args.calibration else None
    ev = noise_evidence(pairs, tasks, cal, n_boot=args.n_boot, seed=args.seed)
    write_table(ev, args.out, str(args.out).removesuffix(".csv") + ".md",
                title="Evidence rows: is the metrics' disagreement more than noise?")
    return 0
