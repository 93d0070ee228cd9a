"""``prspace calibrate``: the old command line of step ``calibrate`` (``prspace step calibrate``;
:mod:`prspace.experiments.noise_floor_steps`), kept until the workflow's rule runs the step command.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prspace.core.steps import write_step
from prspace.experiments.noise_floor_steps import calibrate_step


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("calibrate", help="false rate and power of the noise floor's distinguishable check, "
                              "by simulation (prspace step calibrate)")
    p.add_argument("--tasks", required=True, help="the study's task table (CSV with n, n_pos, status)")
    for name, kind in (("n-sim", int), ("n-sim-null", int), ("n-boot", int), ("seed", int), ("auroc", float),
                       ("rho", float), ("sigmas", str), ("sigmas-a", str), ("alpha", float), ("mc-error", float)):
        p.add_argument(f"--{name}", type=kind, required=name != "mc-error", help=f"the step's setting {name}")
    p.add_argument("--out", required=True, help="calibration table (CSV; Markdown beside it)")
    p.add_argument("--summary-out", required=True, help="calibration summary (CSV; Markdown beside it)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    out = calibrate_step({"tasks": Path(args.tasks)}, n_sim=args.n_sim, n_sim_null=args.n_sim_null, n_boot=args.n_boot,
                         seed=args.seed, auroc=args.auroc, rho=args.rho,
                         sigmas=[float(v) for v in args.sigmas.split(",")],
                         sigmas_a=[float(v) for v in args.sigmas_a.split(",")], alpha=args.alpha, mc_error=args.mc_error)
    write_step(out, tables_dir=Path(args.out).parent)
    return 0
