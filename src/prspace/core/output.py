"""The one output layer: every figure and every table prspace writes goes through here.

Figures -- :func:`write_figure`
    One writer for every figure (study, Boyd experiments, theory, audit): atomic
    (:func:`prspace.core._io.atomic_path`: a reader never sees half a file), metadata that
    changes from run to run stripped (PNG ``Software``; PDF ``CreationDate``, ``Producer``,
    ``Creator``; SVG ``Date``, ``Creator`` and a fixed ``svg.hashsalt``), one resolution
    (:data:`DPI` for raster formats), and the formats the config names
    (:data:`FIGURE_FORMATS`; :func:`parse_formats` checks a user's list).

Tables -- :func:`write_table` (CSV + Markdown), :func:`write_csv`, :func:`to_markdown`, :func:`to_html`
    Precision policy, the same for every table:

    * **CSV**: floats with :data:`CSV_SIGNIFICANT` = 6 significant digits (``%.6g``). Six
      digits resolve differences of 1e-6 relative, a thousand times finer than the third
      decimal at which the documents report and compare metrics (a difference counts as a
      finding only beyond its noise floor, far above that), and ten orders of magnitude coarser than float64
      round-off (1e-16 relative, 1e-13 after long sums): a value computed on another machine,
      with another BLAS or summation order, is written with the same digits unless it sits
      within round-off of a rounding boundary (a chance of about 1e-7 per cell).
    * **Markdown and HTML** (for reading): :data:`TEXT_SIGNIFICANT` = 4 significant digits,
      trailing zeros kept (0.5000, 1.000) so every value shows its precision, never in
      exponent notation between 1e-4 and 1e6 (12346, not 1.235e+04); a whole number above 1
      is written as an integer even in a float column (the scorecard mixes 886 tasks with
      shares of 0.24).
    * **Counts are integers**: integer columns, and float columns named ``n``, ``n_*``,
      ``*_count``, ``count`` or ``rank_*`` whose values are all whole numbers (NaN allowed),
      are written without a decimal point.
    * Booleans: ``True``/``False`` in CSV, ``yes``/``no`` in Markdown and HTML; missing
      values as empty cells. Rows are written in the order given (callers sort), with ``\\n``
      line ends and no timestamps, so a table is reproduced byte for byte.
"""

from __future__ import annotations

import html as _html
import io
import logging
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from prspace.core._io import atomic_path
from prspace.core.errors import InputError

log = logging.getLogger("prspace.core.output")

#: Figure formats the writer knows (the config's ``analysis.figure_formats`` picks from these).
FIGURE_FORMATS = ("png", "pdf", "svg")
#: Resolution of raster output (PNG), dots per inch, for every figure.
DPI = 200
#: Significant digits of floats in CSV tables.
CSV_SIGNIFICANT = 6
#: Significant digits of floats in Markdown and HTML tables.
TEXT_SIGNIFICANT = 4
CSV_FLOAT_FORMAT = f"%.{CSV_SIGNIFICANT}g"

_METADATA = {
    "png": {"Software": None},
    "pdf": {"CreationDate": None, "Producer": None, "Creator": None},
    "svg": {"Date": None, "Creator": None},
}
_COUNT_NAME = re.compile(r"^(n|n_.*|.*_count|count|rank_.*)$")


# --------------------------------------------------------------------------- figures


def parse_formats(text: str | Iterable[str]) -> list[str]:
    """Figure formats from ``"png,pdf"`` (or a list), deduplicated in order; PNG if none.

    Raises :class:`~prspace.core.errors.InputError` naming an unknown format.
    """
    items = text.split(",") if isinstance(text, str) else list(text)
    out: list[str] = []
    for f in items:
        f = str(f).strip().lower()
        if not f or f in out:
            continue
        if f not in FIGURE_FORMATS:
            raise InputError(f"unknown figure format {f!r}; use {', '.join(FIGURE_FORMATS)}")
        out.append(f)
    return out or ["png"]


def figure_bytes(fig, fmt: str = "png", dpi: float = DPI) -> bytes:
    """``fig`` rendered in one format, at ``dpi`` (default :data:`DPI`), without run-dependent metadata.

    For callers that assemble several files before writing any (``prspace audit`` embeds the
    PNG in its HTML report); :func:`write_figure` writes these bytes.
    """
    import matplotlib

    (fmt,) = parse_formats([fmt])
    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "prspace", "pdf.compression": 6}):
        fig.savefig(buf, format=fmt, dpi=dpi, metadata=_METADATA[fmt])
    return buf.getvalue()


def write_figure(fig, stem: str | os.PathLike[str], formats: str | Sequence[str] = ("png",)) -> list[Path]:
    """Write ``fig`` as ``<stem>.<fmt>`` for each format; return the paths written.

    Every file is written atomically (:func:`figure_bytes`), so the same figure gives the
    same bytes and a reader never sees half a file.
    """
    paths = []
    for fmt in parse_formats(formats):
        path = Path(f"{os.fspath(stem)}.{fmt}")
        content = figure_bytes(fig, fmt)
        with atomic_path(path) as tmp:
            Path(tmp).write_bytes(content)
        log.info("wrote %s", path)
        paths.append(path)
    return paths


def message_figure(message: str):
    """A figure that only says why there is nothing to draw (never an empty or made-up plot)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 2), layout="constrained")
    fig.text(0.5, 0.5, message, ha="center", va="center", wrap=True, fontsize=10)
    return fig


# --------------------------------------------------------------------------- tables


def _is_count_column(name: object, values: pd.Series) -> bool:
    if not _COUNT_NAME.match(str(name)) or not pd.api.types.is_float_dtype(values):
        return False
    v = values.to_numpy(np.float64)
    v = v[np.isfinite(v)]
    return bool(np.all(v == np.round(v)) and np.all(np.abs(v) < 2**53))


def _with_integer_counts(df: pd.DataFrame) -> pd.DataFrame:
    """Float count columns (whole numbers only) as nullable integers."""
    cols = [c for c in df.columns if _is_count_column(c, df[c])]
    if not cols:
        return df
    out = df.copy()
    for c in cols:
        out[c] = out[c].round().astype("Int64")
    return out


def format_number(v: float, significant: int = TEXT_SIGNIFICANT) -> str:
    """``v`` with ``significant`` significant digits, plain notation between 1e-4 and 1e6."""
    if not np.isfinite(v):
        return "" if np.isnan(v) else ("inf" if v > 0 else "-inf")
    if v == 0:
        return "0"
    if 1e-4 <= abs(v) < 1e6:
        text = f"{v:#.{significant}g}"  # "#": keep trailing zeros (0.5000), digits stay fixed
        return f"{v:.0f}" if "e" in text else text.removesuffix(".")  # 12345.6 at 4 digits: 12346
    return f"{v:.{significant - 1}e}"


def _cell(v: object) -> str:
    if v is None or v is pd.NA or v is pd.NaT:
        return ""
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        v = float(v)
        if 1 < abs(v) < 1e6 and v == round(v):  # a count in a column that mixes counts and shares
            return str(int(v))
        return format_number(v)
    return str(v)


def to_csv_text(df: pd.DataFrame) -> str:
    """``df`` as CSV text: floats with :data:`CSV_SIGNIFICANT` significant digits, counts as integers."""
    return _with_integer_counts(df).to_csv(index=False, float_format=CSV_FLOAT_FORMAT, lineterminator="\n")


def write_csv(df: pd.DataFrame, path: str | os.PathLike[str]) -> Path:
    """:func:`to_csv_text` of ``df`` at ``path``, atomically."""
    return write_text(to_csv_text(df), path, what=f" ({len(df)} rows)")


def to_markdown(df: pd.DataFrame, *, title: str | None = None, note: str | None = None) -> str:
    """A GitHub-flavoured Markdown table (the module's precision policy; no tabulate needed)."""
    df = _with_integer_counts(df)
    lines = []
    if title:
        lines += [f"### {title}", ""]
    lines.append("| " + " | ".join(str(c) for c in df.columns) + " |")
    align = ["---:" if pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c]) else "---"
             for c in df.columns]
    lines.append("| " + " | ".join(align) + " |")
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(v).replace("|", "\\|").replace("\n", " ") for v in row) + " |")
    if note:
        lines += ["", note]
    return "\n".join(lines) + "\n"


def write_full_csv(df: pd.DataFrame, path: str | os.PathLike[str]) -> Path:
    """``df`` as CSV at full float64 precision (shortest round-trip repr), atomically: the tables a
    figure is drawn from (under a study's ``work/``, for drawing, not for reading); ``pandas.read_csv``
    reads them back bit for bit."""
    return write_text(df.to_csv(index=False, lineterminator="\n"), path, what=f" ({len(df)} rows)")


def write_parquet(df: pd.DataFrame, path: str | os.PathLike[str], note: str = "") -> Path:
    """``df`` as Parquet at ``path``, atomically, with ``note`` in the schema metadata
    (``prspace.note``: e.g. why a task's runs are empty)."""
    import pyarrow.parquet as pq  # deferred: pyarrow.parquet (docs/architecture.md)

    path = Path(path)
    table = pa.Table.from_pandas(df, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), b"prspace.note": note.encode()})
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp)
    log.info("wrote %s (%d rows)%s", path, len(df), f": {note}" if note else "")
    return path


def write_markdown(df: pd.DataFrame, path: str | os.PathLike[str], *, title: str | None = None,
                   note: str | None = None) -> Path:
    """``df`` as a Markdown table at ``path`` (atomic)."""
    return write_text(to_markdown(df, title=title, note=note), path)


def write_text(text: str, path: str | os.PathLike[str], *, what: str = "") -> Path:
    """Text (a table already rendered, a report page) at ``path``, atomically, UTF-8."""
    path = Path(path)
    with atomic_path(path) as tmp:
        Path(tmp).write_text(text, encoding="utf-8")
    log.info("wrote %s%s", path, what)
    return path


def write_table(df: pd.DataFrame, csv_path: str | os.PathLike[str], md_path: str | os.PathLike[str] | None = None,
                *, title: str | None = None, note: str | None = None) -> list[Path]:
    """One table as CSV and, if ``md_path`` is given, Markdown beside it; return the paths."""
    paths = [write_csv(df, csv_path)]
    if md_path is not None:
        paths.append(write_markdown(df, md_path, title=title, note=note))
    return paths


HTML_STYLE = """
body { font-family: sans-serif; font-size: 13px; margin: 1em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
th { background: #f0f0f0; position: sticky; top: 0; }
td:first-child, th:first-child { text-align: left; }
p.note { color: #444; max-width: 60em; }
"""


def to_html(df: pd.DataFrame, *, title: str = "", note: str = "", max_rows: int = 5000) -> str:
    """A self-contained HTML page with the table (for the Snakemake report), same digits as Markdown."""
    shown = _with_integer_counts(df.head(max_rows))
    head = "".join(f"<th>{_html.escape(str(c))}</th>" for c in shown.columns)
    rows = "".join("<tr>" + "".join(f"<td>{_html.escape(_cell(v))}</td>" for v in row) + "</tr>\n"
                   for row in shown.itertuples(index=False))
    body = f"<table><thead><tr>{head}</tr></thead><tbody>\n{rows}</tbody></table>"
    more = f"<p class='note'>First {max_rows} of {len(df)} rows; the CSV has all.</p>" if len(df) > max_rows else ""
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>{_html.escape(title)}</title><style>{HTML_STYLE}</style></head><body>"
        + (f"<h3>{_html.escape(title)}</h3>" if title else "")
        + (f"<p class='note'>{_html.escape(note)}</p>" if note else "")
        + body + more + "</body></html>\n"
    )


def write_html(df: pd.DataFrame, path: str | os.PathLike[str], *, title: str = "", note: str = "") -> Path:
    """:func:`to_html` of ``df`` at ``path`` (atomic)."""
    return write_text(to_html(df, title=title, note=note), path)
