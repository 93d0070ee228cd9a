"""``prspace findings``: write ``results/<study>/findings.md`` from the study's tables
(:mod:`prspace.experiments.findings`): per claim of each paper, a verdict with its evidence."""

from __future__ import annotations

import argparse
from pathlib import Path

from prspace._io import atomic_path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("findings", help="write the study's findings (verdict per claim) from its tables")
    p.add_argument("--tables-dir", required=True, help="the study's tables folder (results/<study>/tables)")
    p.add_argument("--study", required=True, help="the study's name, for the heading")
    p.add_argument("--out", required=True, help="the findings file to write (results/<study>/findings.md)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from prspace.experiments.findings import findings_markdown

    text = findings_markdown(args.tables_dir, study=args.study)
    with atomic_path(args.out) as tmp:
        Path(tmp).write_text(text)
    return 0
