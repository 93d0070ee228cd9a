"""``prspace summary``: the answer first for several studies side by side.

Reads each study's ``tables/verdicts.csv`` and the other tables the answer quotes (``tasks.csv``,
``rank_sets.csv``, ``sensitivity.csv``, ``boyd_fold_skew_summary.csv``, ...;
:func:`prspace.verdicts.pagedata.load_study`) and writes one Markdown page,
:func:`prspace.verdicts.report.studies_markdown`, in sections the README (``## The answer``: the
abstract, the one table of every primary claim, Boyd 4.1, trust) and ``docs/results.md`` (every
section, in a replication report's order) quote through ``prspace numbers --write``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prspace.cli.figure import write_claims_forest
from prspace.core.errors import InputError
from prspace.core.output import write_text
from prspace.verdicts import report
from prspace.verdicts.pagedata import load_study


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("summary", help="the answer, the claims table and the primary claims of several studies side by side (Markdown)")
    p.add_argument("--results", default="results", help="the folder holding results/<study>/ (default: %(default)s)")
    p.add_argument("--studies", default="default,paperlike", help="comma-separated study names, in column order (default: %(default)s)")
    p.add_argument("--out", required=True, help="Markdown file to write (e.g. results/summary.md)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:

    names = [s.strip() for s in args.studies.split(",") if s.strip()]
    if not names:
        raise InputError("--studies names no study; give e.g. --studies default,paperlike")
    studies = [load_study(name, Path(args.results) / name / "tables") for name in names]
    write_text(report.studies_markdown(studies), args.out)
    write_claims_forest(Path(args.results), names)  # results/claims_forest.png, .pdf, .csv (the README shows it)
    return 0
