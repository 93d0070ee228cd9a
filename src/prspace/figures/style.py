"""Shared look of the study's column-width figures (Flach & Kull Figures 4 and 5)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

COLUMN_WIDTH = 3.3  # inches: one column of a two-column paper
RC = {"font.size": 7, "axes.titlesize": 7.5, "axes.labelsize": 7, "xtick.labelsize": 6.5,
      "ytick.labelsize": 6.5, "legend.fontsize": 6.5}
#: A metric's colour in every figure that draws several metrics (matplotlib's cycle colours).  Here,
#: not in :mod:`prspace.metrics.names` with the labels: figure modules import nothing from
#: ``prspace.metrics`` (tests/test_figures.py), and their labels come with the tables' text.
METRIC_COLOURS: dict[str, str] = {"aupr": "C3", "aucnpr": "C2", "auprg": "C1", "auroc": "C0"}


@contextlib.contextmanager
def style() -> Iterator[None]:
    """The rc settings of column-width figures (legible when printed at 3.3 inches)."""
    import matplotlib

    with matplotlib.rc_context(RC):
        yield
