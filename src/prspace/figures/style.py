"""Shared look of the study's column-width figures (Flach & Kull Figures 4 and 5)."""

from __future__ import annotations

import contextlib
import textwrap
from collections.abc import Iterator

COLUMN_WIDTH = 3.3  # inches: one column of a two-column paper
#: Characters per line of a column-width figure's title (8 pt over the column width; :func:`wrap_title`).
TITLE_WIDTH = 58
#: Text size (pt) of every text of a column-width figure: at least 8 pt printed at the column's width (issue 78).
FONT = 8
RC = {"font.size": FONT, "axes.titlesize": FONT, "axes.labelsize": FONT, "xtick.labelsize": FONT,
      "ytick.labelsize": FONT, "legend.fontsize": FONT, "figure.titlesize": FONT}
#: A metric's colour in every figure that draws several metrics (matplotlib's cycle colours).  Here,
#: not in :mod:`prspace.metrics.names` with the labels: figure modules import nothing from
#: ``prspace.metrics`` (tests/figures/test_figures.py), and their labels come with the tables' text.
METRIC_COLOURS: dict[str, str] = {"aupr": "C3", "aucnpr": "C2", "auprg": "C1", "auroc": "C0"}


@contextlib.contextmanager
def style() -> Iterator[None]:
    """The rc settings of column-width figures (legible when printed at 3.3 inches)."""
    import matplotlib

    with matplotlib.rc_context(RC):
        yield


def _clauses(text: str) -> list[str]:
    """``text`` split at the ", " that lie outside parentheses."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and text.startswith(", ", i):
            out.append(text[start:i])
            start = i + 2
    return [*out, text[start:]]


def wrap_title(title: str, width: int = TITLE_WIDTH) -> str:
    """``title`` in lines of at most ``width`` characters, broken between its comma-separated clauses
    (outside parentheses: "dataset (its name), n = 731, pi = 0.057" keeps "n = 731, pi = 0.057" on one
    line); a clause longer than ``width`` is wrapped at its spaces, never inside "name = value"."""
    lines: list[str] = []
    for clause in _clauses(" ".join(title.split())):
        if lines and len(lines[-1]) + 2 + len(clause) <= width:
            lines[-1] += ", " + clause
        else:
            if lines:
                lines[-1] += ","
            lines.append(clause)
    keep = "\u00a0=\u00a0"  # textwrap breaks at ASCII spaces only
    return "\n".join(textwrap.fill(line.replace(" = ", keep), width, break_on_hyphens=False).replace(keep, " = ")
                     for line in lines)
