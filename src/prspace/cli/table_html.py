"""``prspace table-html``: render result tables (CSV) as HTML pages for the Snakemake report.

``prspace table-html --table in.csv out.html "Title" [--table ...] [--decimals 4]``
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from prspace._io import atomic_path
from prspace.cli._tables import to_html
from prspace.errors import InputError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "table-html",
        help="render CSV tables as HTML pages (for the report)",
        description=(
            "Render result tables (CSV) as self-contained HTML pages, which the Snakemake "
            "report shows in the browser. Floats get --decimals decimals; counts (whole "
            "numbers in a column of whole numbers, or above 1 in a column that mixes counts "
            "with shares, as the scorecard does) print as integers."
        ),
    )
    p.add_argument("--table", nargs=3, action="append", required=True, metavar=("CSV", "HTML", "TITLE"),
                   help="a table to render: the CSV to read, the HTML page to write, its title (repeatable)")
    p.add_argument("--decimals", type=int, default=4, help="decimals of floats (default: %(default)s)")
    p.set_defaults(func=run)


def counts_as_integers(df: pd.DataFrame, *, decimals: int = 4) -> pd.DataFrame:
    """A copy of ``df`` for display: float columns holding counts show them as integers.

    A float column whose values are all whole numbers becomes integers (pandas reads a
    count column with a missing value as float); in a float column that mixes counts with
    shares (the scorecard's ``paper`` and ``this_run``: 886 tasks, then 0.24), the whole
    numbers above 1 print as integers and the others with ``decimals`` decimals.
    """
    out = df.copy()
    for col in out.columns:
        s = out[col]
        if not pd.api.types.is_float_dtype(s):
            continue
        v = s.to_numpy(dtype=np.float64)
        finite = np.isfinite(v)
        whole = finite & (v == np.round(v))
        if not finite.any() or not whole.any():
            continue
        if whole[finite].all():
            out[col] = s.astype("Int64")
        elif (whole & (np.abs(v) > 1)).any():
            out[col] = [
                "" if not f else (f"{int(x)}" if w and abs(x) > 1 else f"{x:.{decimals}f}")
                for x, f, w in zip(v, finite, whole, strict=True)
            ]
    return out


def run(args: argparse.Namespace) -> int:
    if args.decimals < 0:
        raise InputError(f"--decimals {args.decimals}: give 0 or more")
    for csv, out, title in args.table:
        try:
            df = pd.read_csv(csv)
        except FileNotFoundError:
            raise InputError(f"no table at {csv}; run the workflow step that makes it") from None
        except pd.errors.EmptyDataError:
            df = pd.DataFrame()
        except (pd.errors.ParserError, UnicodeDecodeError) as exc:
            raise InputError(f"{csv} is not a readable CSV table ({str(exc).splitlines()[0]}); make it again") from None
        with atomic_path(out) as tmp:
            Path(tmp).write_text(to_html(counts_as_integers(df, decimals=args.decimals), title=title,
                                         decimals=args.decimals))
    return 0
