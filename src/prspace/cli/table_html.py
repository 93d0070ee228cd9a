"""``prspace table-html``: render a result table (CSV) as an HTML page for the Snakemake report."""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from prspace._io import atomic_path
from prspace.cli._tables import to_html
from prspace.errors import InputError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("table-html", help="render a CSV table as an HTML page (for the report)")
    p.add_argument("--csv", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--title", default="")
    p.add_argument("--note", default="")
    p.add_argument("--decimals", type=int, default=4)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        df = pd.read_csv(args.csv, keep_default_na=True)
    except FileNotFoundError:
        raise InputError(f"no table at {args.csv}; run the workflow step that makes it") from None
    except pd.errors.EmptyDataError:
        df = pd.DataFrame()
    text = to_html(df, title=args.title, note=args.note, decimals=args.decimals)
    with atomic_path(args.out) as tmp:
        Path(tmp).write_text(text)
    return 0
