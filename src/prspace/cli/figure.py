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
from prspace.core.output import parse_formats, write_csv, write_figure
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
    p.add_argument("--source", help="write the numbers the figure draws to this CSV (a figure with a source table: "
                                    f"{', '.join(f.name for f in R.FIGURES if f.source)})")
    p.set_defaults(func=run)


def with_words(verdicts: pd.DataFrame, study: str) -> pd.DataFrame:
    """``verdicts`` (rows of ``verdicts.csv``) with the words the figures may not compute themselves (the
    verdict layer's, :mod:`prspace.verdicts.verdict_labels`): ``study``, ``claim`` (each row's short name)
    and ``outcome_label`` (its short outcome)."""
    # late: prspace.verdicts imports scipy.stats, which only the figures of the verdict rows need
    from prspace.verdicts.verdict_labels import short_name, short_outcome

    rows = verdicts.to_dict("records")
    return verdicts.assign(study=study, claim=[short_name(str(r["claim_id"])) for r in rows],
                           outcome_label=[short_outcome(r) for r in rows])


def write_claims_forest(results: Path, studies: list[str], *, formats: str = "png,pdf") -> Path:
    """The forest plot of the primary claims of several ``studies`` side by side (``prspace summary``):
    ``<results>/claims_forest.<format>`` and its source table ``<results>/claims_forest.csv``, from each
    study's ``<results>/<study>/tables/verdicts.csv``; returns the PNG's path."""
    import matplotlib

    matplotlib.use("Agg")
    from prspace.figures.study import draw, source_table  # matplotlib

    paths = [results / s / "tables" / f"{R.VERDICTS.name}.csv" for s in studies]
    if missing := [str(p) for p in paths if not p.is_file()]:
        raise InputError(f"no verdict table {', '.join(missing)}; run the studies first (make run)")
    both = pd.concat([with_words(pd.read_csv(p, dtype=TEXT_COLUMNS), s) for p, s in zip(paths, studies, strict=True)],
                     ignore_index=True)
    name = R.FIGURE_CLAIMS_FOREST.name
    write_csv(source_table(name, {R.VERDICTS.name: both}), R.CLAIMS_FOREST.csv(results))
    write_figure(draw(name, {R.VERDICTS.name: both}), results / name, parse_formats(formats))
    return R.FIGURE_CLAIMS_FOREST.path(results, "png")


def _study_of(path: str) -> str:
    """The study of a table ``results/<study>/tables/<name>.csv``: its folder's parent's name."""
    return Path(path).resolve().parent.parent.name


def run(args: argparse.Namespace) -> int:
    import matplotlib

    matplotlib.use("Agg")
    from prspace.figures.study import draw, source_table, texts  # matplotlib

    try:
        figure = R.figure(args.name)
    except KeyError:
        raise InputError(f"unknown figure {args.name!r}; choose one of {', '.join(f.name for f in R.FIGURES)}") from None
    if args.source and not figure.source:
        raise InputError(f"figure {args.name} has no source table; drop --source")
    formats = parse_formats(args.formats)
    # pandas >= 3 parses floats exactly: the full-precision tables are read back bit for bit (output.write_full_csv)
    tables = {Path(p).stem: pd.read_csv(p, dtype=TEXT_COLUMNS) for p in args.tables}
    for p in args.tables:  # the verdict rows' words, and their study (the folder they are in)
        if Path(p).stem == R.VERDICTS.name:
            tables[R.VERDICTS.name] = with_words(tables[R.VERDICTS.name], _study_of(p))
    missing = [d.name for d in figure.data if d.name not in tables]
    if missing:
        raise InputError(f"figure {args.name} needs the table(s) {', '.join(missing)}; pass them with --tables")
    if figure.text and not args.text:
        raise InputError(f"figure {args.name} needs its text table; pass it with --text")
    text = texts(pd.read_csv(args.text, dtype=str, keep_default_na=False), args.name) if args.text else {}
    if args.source:
        write_csv(source_table(args.name, tables), args.source)
    write_figure(draw(args.name, tables, text, METRIC_LABELS), Path(args.out).with_suffix(""), formats)
    log.info("figure %s written to %s", args.name, args.out)
    return 0
