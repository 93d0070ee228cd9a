"""``prspace rank-sets``: the old command line of steps ``rank_sets`` and ``rank_set_summary``
(``prspace step rank_sets``, ``prspace step rank_set_summary``; :mod:`prspace.experiments.rank_sets_step`),
kept until the workflow's rules run the step command.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prspace.core.steps import write_step
from prspace.experiments.rank_sets_step import rank_set_summary_step, rank_sets_step


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("rank-sets", help="confidence sets for ranks per task; disjoint plausible-best sets per "
                              "study (prspace step rank_sets / rank_set_summary)")
    sub = p.add_subparsers(dest="rank_sets_command", metavar="STEP", required=True)
    t = sub.add_parser("tasks", help="every task's rank intervals and plausible-best sets (prspace step rank_sets)")
    t.add_argument("--status", nargs="+", required=True, help="prediction status files (JSON) of the tasks")
    t.add_argument("--per-task-dir", required=True, help="folder for one <task>.csv per task")
    t.add_argument("--out", required=True, help="every task's rows stacked (CSV)")
    s = sub.add_parser("summary", help="per metric pair: disjoint plausible-best sets vs top-1 disagreement "
                       "(prspace step rank_set_summary)")
    s.add_argument("--rank-sets", required=True, help="the rank sets of every task (step rank_sets)")
    s.add_argument("--tasks", required=True, help="the study's task table")
    s.add_argument("--out", required=True, help="the summary (CSV; its calibration and evidence beside it)")
    s.add_argument("--calibration-out", help="ignored: written beside --out")
    s.add_argument("--evidence-out", help="ignored: written beside --out")
    for command, names in ((t, ("metrics", "n-boot", "confidence", "seed")),
                           (s, ("n-boot", "seed", "n-sim", "n-sim-null", "sim-models", "sim-boot", "mc-error"))):
        for name in names:
            kind = {"metrics": str, "confidence": float, "mc-error": float}.get(name, int)
            command.add_argument(f"--{name}", type=kind, required=name != "mc-error", help=f"the step's setting {name}")
    t.set_defaults(func=run_tasks)
    s.set_defaults(func=run_summary)


def run_tasks(args: argparse.Namespace) -> int:
    out = rank_sets_step({"status": [Path(p) for p in args.status]}, metrics=args.metrics.split(","),
                         n_boot=args.n_boot, confidence=args.confidence, seed=args.seed)
    write_step(out, tables_dir=Path(args.out).parent, files={"per_task": args.per_task_dir})
    return 0


def run_summary(args: argparse.Namespace) -> int:
    out = rank_set_summary_step({"rank_sets": Path(args.rank_sets), "tasks": Path(args.tasks)}, n_boot=args.n_boot,
                                seed=args.seed, n_sim=args.n_sim, n_sim_null=args.n_sim_null,
                                sim_models=args.sim_models, sim_boot=args.sim_boot, mc_error=args.mc_error)
    write_step(out, tables_dir=Path(args.out).parent)
    return 0
