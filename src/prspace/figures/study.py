"""Every figure of a study by name, each drawn from the tables its analysis step wrote.

:mod:`prspace.core.registry` names the tables (file stems) each figure reads (``Figure.data``,
``Figure.text``, ``Figure.optional``); :func:`draw` lays one out.
Flach & Kull (2015) Figures 4 and 5 read the tables of ``prspace step figure_data``
(:mod:`prspace.experiments.figure_data`) and ``figure_text``; the controlled-skew figure reads
the tables of ``prspace step controlled_skew``; Boyd et al.'s Figures 1-4 the tables of ``prspace step
boyd_theory_data`` (:mod:`prspace.experiments.theory_data`), Flach & Kull's Figure 2 those of ``prspace
step boyd_pr_prg``, and the figures of the Boyd experiments those of their report steps (``prspace step
boyd_downsampling_report``, ``boyd_fold_skew_report``, ``boyd_aggregation``;
:mod:`prspace.experiments.boyd_figure_data`; their ``<figure>_text`` table is passed as ``--text``).  Layout only: no statistics are computed here.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
from matplotlib.figure import Figure

from prspace.core import registry as R
from prspace.core.output import message_figure
from prspace.figures import boyd as B
from prspace.figures import curves as C
from prspace.figures import ranking as F
from prspace.figures import theory as T
from prspace.figures.cd import cd_figure
from prspace.figures.controlled_skew import controlled_skew_figure


def texts(table: pd.DataFrame, figure: str) -> dict[str, str]:
    """The ``field -> text`` of ``figure`` in a ``figure_text`` table (``figure, field, text``)."""
    sub = table[table["figure"] == figure]
    return {str(f): "" if pd.isna(t) else str(t) for f, t in zip(sub["field"], sub["text"], strict=True)}


def _data(figure: R.Figure, tables: Mapping[str, pd.DataFrame]) -> list[pd.DataFrame]:
    return [tables[d.name] for d in figure.data]


def draw(name: str, tables: Mapping[str, pd.DataFrame], text: Mapping[str, str] | None = None,
         labels: Mapping[str, str] | None = None) -> Figure:
    """Figure ``name`` from ``tables`` (by file stem: the figure's ``data`` and any of its
    ``optional`` tables in :mod:`prspace.core.registry`), ``text`` (its fields of its text table)
    and ``labels`` (metric name -> axis label, for the controlled-skew and cd figures)."""
    try:
        fig = R.figure(name)
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None
    t = dict(text or {})
    if t.get("message"):  # no task qualified: the figure says so in words
        return message_figure(t["message"])
    data = _data(fig, tables)
    if fig == R.FIGURE_FIG4_RANK_HEATMAP:
        return F.rank_heatmap(*data, xlabel=t["xlabel"], ylabel=t["ylabel"], heading=t["heading"],
                              source=t.get("source", ""))
    if fig == R.FIGURE_FIG4_AUPRG_VS_AUPR:
        return F.metric_scatter(*data, xlabel=t["xlabel"], ylabel=t["ylabel"], source=t.get("source", ""),
                                note=t.get("note", ""))
    if fig == R.FIGURE_FIG5_CURVES:
        curves, min_pr = C.from_table(*data)
        band = R.FIG5_CURVE_BANDS.name
        bands = C.bands_from_table(tables[band], len(curves)) if band in tables else None
        return C.points_figure(curves, min_pr, title=t.get("title", ""), note=t.get("note", ""), bands=bands)
    if fig == R.FIGURE_CONTROLLED_SKEW:
        return controlled_skew_figure(*data, labels=labels)
    if fig == R.FIGURE_CD_DIAGRAM:
        return cd_figure(*data, labels=labels)
    if fig == R.FIGURE_BOYD_FIG_PR_PRG:
        return T.figure_pr_prg(*data, title=t["title"])
    if fig == R.FIGURE_BOYD_DOWNSAMPLING:
        return B.figure_downsampling(*data, t)
    if fig == R.FIGURE_BOYD_FOLD_SKEW:
        return B.figure_fold_skew(*data, t)
    if fig == R.FIGURE_BOYD_AGGREGATION:
        return B.figure_aggregation(*data, t)
    return _THEORY[fig](*data)


#: Boyd et al.'s Figures 1-4, each from its one table.
_THEORY = {R.FIGURE_BOYD_FIG1_MIN_PR_CURVE: T.figure_min_pr_curve, R.FIGURE_BOYD_FIG2_MIN_PR_CURVES: T.figure_min_pr_curves,
           R.FIGURE_BOYD_FIG3_AUCPR_MIN: T.figure_aupr_min_vs_pi, R.FIGURE_BOYD_FIG4_F1_CONTOURS: T.figure_f1_contours}
