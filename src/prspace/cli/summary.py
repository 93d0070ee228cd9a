"""``prspace summary``: the answer first for several studies side by side (the README quotes it).

Reads each study's ``tables/verdicts.csv`` and ``tables/tasks.csv`` (written by ``prspace
verdicts``) and writes one Markdown table, :func:`prspace.verdicts.report.studies_markdown`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prspace.errors import InputError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("summary", help="the headline verdicts of several studies side by side (Markdown)")
    p.add_argument("--results", default="results", help="the folder holding results/<study>/ (default: %(default)s)")
    p.add_argument("--studies", default="default,paperlike", help="comma-separated study names, in column order (default: %(default)s)")
    p.add_argument("--out", required=True, help="Markdown file to write (e.g. results/summary.md)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import pandas as pd

    from prspace.output import write_text
    from prspace.verdicts import report

    names = [s.strip() for s in args.studies.split(",") if s.strip()]
    if not names:
        raise InputError("--studies names no study; give e.g. --studies default,paperlike")
    studies = []
    for name in names:
        t = Path(args.results) / name / "tables"
        if not (t / "verdicts.csv").is_file():
            raise InputError(f"{t / 'verdicts.csv'} is missing; run the study `{name}` first (make run)")
        v = pd.read_csv(t / "verdicts.csv", keep_default_na=False, na_values=[""])
        tasks = pd.read_csv(t / "tasks.csv", dtype={"task_id": str}) if (t / "tasks.csv").is_file() else None
        studies.append((name, v, tasks))
    write_text(report.studies_markdown(studies), args.out)
    return 0
