"""``prspace figure``: draw one of a study's figures from the tables its analysis step wrote.

``prspace figure NAME --tables FILE... [--text figure_text.csv] --out FIG.png --formats png,pdf``:
the tables are the figure's ``data`` in :mod:`prspace.core.registry` (matched by file stem), and
any of its ``optional`` ones given (Figure 5's ``fig5_curve_bands``, shaded when given); a figure
with a ``text`` table (Figures 4 and 5: ``figure_text.csv`` of ``prspace step figure_data``) reads it
with ``--text``.  Nothing is computed: :func:`prspace.figures.study.draw` lays the figure out.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import pandas as pd

from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.core.output import parse_formats, write_figure
from prspace.metrics import METRIC_LABELS

log = logging.getLogger(__name__)

#: Columns read as text whatever they hold.
TEXT_COLUMNS = {"task_id": str, "model_id": str, "label": str, "metric_a": str, "metric_b": str, "learner": str,
                "skew_group": str, "metric": str, "ratio_label": str, "kind": str, "series": str}


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "figure",
        help="draw one figure of a study from its tables",
        description=f"Draw one figure ({', '.join(f.name for f in R.FIGURES)}) from the tables its analysis "
                    "step wrote.",
    )
    p.add_argument("name", help="the figure's name")
    p.add_argument("--tables", nargs="+", required=True, help="the tables (CSV) the figure is drawn from")
    p.add_argument("--text", help=f"the figure's text table: {R.FIGURE_TEXT.name}.csv of `prspace step figure_data` "
                                  "(Figures 4 and 5), <figure>_text.csv of `prspace boyd` (its figures)")
    p.add_argument("--out", required=True, help="the figure file (e.g. fig.png); the other formats go beside it")
    p.add_argument("--formats", default="png,pdf", help="comma-separated (default: %(default)s)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import matplotlib

    matplotlib.use("Agg")
    from prspace.figures.study import draw, texts  # matplotlib

    try:
        figure = R.figure(args.name)
    except KeyError:
        raise InputError(f"unknown figure {args.name!r}; choose one of {', '.join(f.name for f in R.FIGURES)}") from None
    formats = parse_formats(args.formats)
    # pandas >= 3 parses floats exactly: the full-precision tables are read back bit for bit (output.write_full_csv)
    tables = {Path(p).stem: pd.read_csv(p, dtype=TEXT_COLUMNS) for p in args.tables}
    missing = [d.name for d in figure.data if d.name not in tables]
    if missing:
        raise InputError(f"figure {args.name} needs the table(s) {', '.join(missing)}; pass them with --tables")
    if figure.text and not args.text:
        raise InputError(f"figure {args.name} needs its text table; pass it with --text")
    text = texts(pd.read_csv(args.text, dtype=str, keep_default_na=False), args.name) if args.text else {}
    write_figure(draw(args.name, tables, text, METRIC_LABELS), Path(args.out).with_suffix(""), formats)
    log.info("figure %s written to %s", args.name, args.out)
    return 0
