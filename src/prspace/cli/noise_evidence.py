"""``prspace noise-evidence``: the old command line of step ``noise_evidence`` (``prspace step
noise_evidence``), kept until the workflow's rule runs the step command.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prspace.core.steps import write_step
from prspace.experiments.noise_evidence import noise_evidence_step


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("noise-evidence", help="evidence rows: is the metrics' disagreement more than noise? "
                              "(prspace step noise_evidence)")
    p.add_argument("--pairs", required=True, help="noise_floor_pairs.csv (prspace noise-floor)")
    p.add_argument("--tasks", required=True, help="the study's task table (CSV with task_id, family)")
    p.add_argument("--calibration", default=None, help="calibration_summary.csv (prspace calibrate)")
    p.add_argument("--n-boot", type=int, default=1000, help="cluster-bootstrap resamples of families (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seed of the cluster bootstrap (default: %(default)s)")
    p.add_argument("--out", required=True, help="evidence rows (CSV; Markdown beside it)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    inputs = {"pairs": Path(args.pairs), "tasks": Path(args.tasks)}
    if args.calibration:
        inputs["calibration"] = Path(args.calibration)
    write_step(noise_evidence_step(inputs, n_boot=args.n_boot, seed=args.seed), tables_dir=Path(args.out).parent)
    return 0
