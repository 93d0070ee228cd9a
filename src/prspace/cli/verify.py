"""``prspace verify``: does a rerun reproduce the committed tables?

    prspace verify results/default                      # against git HEAD
    prspace verify results/default --against /other/results/default
    prspace verify results/default --rtol 1e-3          # an explicit tolerance

Prints, per table, identical / within tolerance / different (naming each differing cell
and by how much) and a last line "reproduced" or "NOT reproduced".  Exit status 0 when
nothing differs beyond tolerance, 1 when something does, 2 on bad input.  The logic is
:mod:`prspace.repo.rerun_check`.
"""

from __future__ import annotations

import argparse

from prspace.core._io import atomic_path
from prspace.repo.rerun_check import verify_tables


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "verify",
        help="compare a study's tables with the committed ones (or another run's), cell by cell",
        description=(
            "Compare every CSV under RESULTS_DIR/tables with the committed version (git HEAD) "
            "or with OTHER_DIR/tables. Default tolerance: half a unit in the last digit the "
            "committed table printed. Exit status 0 only when nothing differs beyond tolerance."
        ),
    )
    p.add_argument("results_dir", metavar="RESULTS_DIR", help="a study's results directory, e.g. results/default")
    p.add_argument("--against", metavar="OTHER_DIR", default=None,
                   help="compare with this results directory instead of git HEAD")
    p.add_argument("--rtol", type=float, default=None, help="relative tolerance (replaces the printed-precision rule)")
    p.add_argument("--atol", type=float, default=None, help="absolute tolerance (replaces the printed-precision rule)")
    p.add_argument("--max-cells", type=int, default=20, help="differing cells listed per table (default: %(default)s)")
    p.add_argument("--out", default=None, help="also write the report to this text file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:

    report = verify_tables(args.results_dir, against=args.against, rtol=args.rtol, atol=args.atol)
    text = report.text(max_cells=args.max_cells)
    print(text)
    if args.out:
        with atomic_path(args.out) as tmp:
            with open(tmp, "w") as fh:
                fh.write(text + "\n")
    return 0 if report.ok else 1
