"""``prspace table-html``: render result tables (CSV) as HTML pages for the Snakemake report.

``prspace table-html --table in.csv out.html "Title" [--table ...]``
"""

from __future__ import annotations

import argparse

import pandas as pd

from prspace.core.errors import InputError
from prspace.core.output import write_html


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "table-html",
        help="render CSV tables as HTML pages (for the report)",
        description=(
            "Render result tables (CSV) as self-contained HTML pages, which the Snakemake "
            "report shows in the browser, with the digits of prspace's table policy (4 significant "
            "digits; counts print as integers)."
        ),
    )
    p.add_argument("--table", nargs=3, action="append", required=True, metavar=("CSV", "HTML", "TITLE"),
                   help="a table to render: the CSV to read, the HTML page to write, its title (repeatable)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for csv, out, title in args.table:
        try:
            df = pd.read_csv(csv)
        except FileNotFoundError:
            raise InputError(f"no table at {csv}; run the workflow step that makes it") from None
        except pd.errors.EmptyDataError:
            df = pd.DataFrame()
        except (pd.errors.ParserError, UnicodeDecodeError) as exc:
            raise InputError(f"{csv} is not a readable CSV table ({str(exc).splitlines()[0]}); make it again") from None
        write_html(df, out, title=title)  # digits and integer counts: the policy of prspace.core.output
    return 0
