"""Writing result tables: CSV with fixed float formatting, and Markdown beside it.

Fixed formatting (``%.12g`` in CSV, fixed decimals in Markdown), sorted rows and no
timestamps make the committed tables reproducible byte for byte.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from prspace._io import atomic_path

CSV_FLOAT_FORMAT = "%.12g"


def write_csv(df: pd.DataFrame, path: str | os.PathLike[str]) -> None:
    with atomic_path(path) as tmp:
        df.to_csv(tmp, index=False, float_format=CSV_FLOAT_FORMAT, lineterminator="\n")


def _cell(v: object, decimals: int) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (float, np.floating)):
        return "" if np.isnan(v) else f"{v:.{decimals}f}"
    if v is None or v is pd.NA or v is pd.NaT:
        return ""
    return str(v).replace("|", "\\|").replace("\n", " ")


def to_markdown(df: pd.DataFrame, *, decimals: int = 3, title: str | None = None, note: str | None = None) -> str:
    """A GitHub-flavoured Markdown table (no dependency on tabulate)."""
    lines = []
    if title:
        lines += [f"### {title}", ""]
    cols = [str(c) for c in df.columns]
    lines.append("| " + " | ".join(cols) + " |")
    align = ["---:" if pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c]) else "---" for c in df.columns]
    lines.append("| " + " | ".join(align) + " |")
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(v, decimals) for v in row) + " |")
    if note:
        lines += ["", note]
    return "\n".join(lines) + "\n"


def write_markdown(df: pd.DataFrame, path: str | os.PathLike[str], **kwargs: object) -> None:
    text = to_markdown(df, **kwargs)  # type: ignore[arg-type]
    with atomic_path(path) as tmp:
        Path(tmp).write_text(text)


def write_table(df: pd.DataFrame, csv_path: str | os.PathLike[str], md_path: str | os.PathLike[str] | None = None, **md_kwargs: object) -> None:
    """CSV (full precision) and, if ``md_path`` is given, Markdown (rounded) of one table."""
    write_csv(df, csv_path)
    if md_path is not None:
        write_markdown(df, md_path, **md_kwargs)


HTML_STYLE = """
body { font-family: sans-serif; font-size: 13px; margin: 1em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
th { background: #f0f0f0; position: sticky; top: 0; }
td:first-child, th:first-child { text-align: left; }
p.note { color: #444; max-width: 60em; }
"""


def to_html(df: pd.DataFrame, *, title: str = "", note: str = "", decimals: int = 4, max_rows: int = 5000) -> str:
    """A self-contained HTML page with the table (for the Snakemake report)."""
    import html

    shown = df.head(max_rows)
    body = shown.to_html(index=False, na_rep="", float_format=lambda v: f"{v:.{decimals}f}", border=0)
    more = f"<p class='note'>First {max_rows} of {len(df)} rows; the CSV has all.</p>" if len(df) > max_rows else ""
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{HTML_STYLE}</style></head><body>"
        + (f"<h3>{html.escape(title)}</h3>" if title else "")
        + (f"<p class='note'>{html.escape(note)}</p>" if note else "")
        + body + more + "</body></html>\n"
    )
