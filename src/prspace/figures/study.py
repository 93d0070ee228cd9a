"""Every figure of a study by name, each drawn by the function its declaration names.

:mod:`prspace.core.registry` declares each figure (``Figure``): the tables (file stems) it reads
(``data``, ``text``, ``optional``) and its drawing function (``draw="module:function"``), called
with one :class:`FigureInput`; :func:`draw` looks the figure up and calls it.  The functions below
draw the figures of both papers and the study's own from the modules of this package:
Flach & Kull (2015) Figures 4 and 5 read the tables of ``prspace step figure_data``
(:mod:`prspace.experiments.fk.fk_figure_data`) and ``figure_text``; the controlled-skew figure reads
the tables of ``prspace step controlled_skew``; Boyd et al.'s Figures 1-4 the tables of ``prspace step
boyd_theory_data`` (:mod:`prspace.experiments.boyd.boyd_theory_data`), Flach & Kull's Figure 2 those of ``prspace
step boyd_pr_prg``, and the figures of the Boyd experiments those of their report steps (``prspace step
boyd_downsampling_report``, ``boyd_fold_skew_report``, ``boyd_aggregation``;
:mod:`prspace.experiments.boyd.boyd_figure_data`; their ``<figure>_text`` table is passed as ``--text``).
Layout only: no statistics are computed here.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd
from matplotlib.figure import Figure

from prspace.core import claims as REG
from prspace.core import registry as R
from prspace.core.output import message_figure
from prspace.figures import boyd_figures as B
from prspace.figures import curves as C
from prspace.figures import forest as FO
from prspace.figures import ranking as F
from prspace.figures import theory as T
from prspace.figures.cd_figure import cd_figure
from prspace.figures.controlled_skew_figure import controlled_skew_figure


@dataclass(frozen=True)
class FigureInput:
    """What a figure's drawing function (``Figure.draw``) receives."""

    #: the figure's ``data`` tables, in its declared order
    data: list[pd.DataFrame]
    #: its fields of its text table (``field -> text``; empty without one)
    text: Mapping[str, str] = field(default_factory=dict)
    #: metric name -> axis label (the controlled-skew and cd figures), or None
    labels: Mapping[str, str] | None = None
    #: those of its ``optional`` tables given, by name
    optional: Mapping[str, pd.DataFrame] = field(default_factory=dict)


def texts(table: pd.DataFrame, figure: str) -> dict[str, str]:
    """The ``field -> text`` of ``figure`` in a ``figure_text`` table (``figure, field, text``)."""
    sub = table[table["figure"] == figure]
    return {str(f): "" if pd.isna(t) else str(t) for f, t in zip(sub["field"], sub["text"], strict=True)}


def drawing(figure: R.Figure):
    """The drawing function ``figure`` declares (``Figure.draw``, ``"module:function"``)."""
    module, _, function = figure.draw.partition(":")
    try:
        return getattr(importlib.import_module(module), function)
    except (ImportError, AttributeError, ValueError):
        raise ValueError(f"figure {figure.name!r}: its draw {figure.draw!r} names no function; declare it as "
                         "draw='prspace.figures.<module>:<function>' in prspace.core.registry") from None


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
    given = FigureInput([tables[d.name] for d in fig.data], t, labels,
                        {d.name: tables[d.name] for d in fig.optional if d.name in tables})
    return drawing(fig)(given)


def source_table(name: str, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The source table of figure ``name`` (its ``source`` in :mod:`prspace.core.registry`): the numbers
    it draws, from the same ``tables`` as :func:`draw`."""
    sources = {R.FIGURE_CLAIMS_FOREST.name: lambda: FO.forest_table(tables[R.VERDICTS.name])}
    if name not in sources:
        raise ValueError(f"figure {name!r} declares no source table in prspace.core.registry")
    return sources[name]()


# --- the drawing functions of the figures declared in prspace.core.registry ----------------------
def claims_forest(given: FigureInput) -> Figure:
    return FO.forest_figure(FO.forest_table(*given.data))


#: The pair of Flach & Kull's Figure 4 (left) and of its shares (claims ``fk.aupr_auprg.top1`` / ``.top3``).
HEATMAP_PAIR = ("aupr", "auprg")


def heatmap_title(summary: pd.DataFrame | None, xlabel: str, ylabel: str) -> str:
    """The shares of tasks whose best model and top three differ between the heat map's two metrics
    (table ``disagreement_summary``), each beside the paper's value (:mod:`prspace.core.claims`)."""
    a, b = HEATMAP_PAIR
    row = summary[(summary["metric_a"] == a) & (summary["metric_b"] == b)] if summary is not None else summary
    if row is None or row.empty:
        return f"Ranks of each task's models by {xlabel} and by {ylabel}"
    r = row.iloc[0]
    paper = {k: REG.claim(f"fk.{a}_{b}.{k}").paper_value for k in ("top1", "top3")}
    nb = "\u00a0"  # "(paper 24%)" on one line
    return (f"{xlabel} and {ylabel} pick a different best model in {r['top1_share']:.0%} of {int(r['n_tasks'])} "
            f"tasks (paper{nb}{paper['top1']:.0%}) and a different top three in {r['top3_share']:.0%} "
            f"(paper{nb}{paper['top3']:.0%})")


def fig4_rank_heatmap(given: FigureInput) -> Figure:
    t = given.text
    title = heatmap_title(given.optional.get(R.DISAGREEMENT_SUMMARY.name), t["xlabel"], t["ylabel"])
    return F.rank_heatmap(*given.data, xlabel=t["xlabel"], ylabel=t["ylabel"], heading=t["heading"], title=title)


def fig4_auprg_vs_aupr(given: FigureInput) -> Figure:
    t = given.text
    return F.metric_scatter(*given.data, xlabel=t["xlabel"], ylabel=t["ylabel"], note=t.get("note", ""))


def fig5_note(note: str) -> str:
    """The note of Figure 5 (the paper's values, then why these two models; the bands are described after it)
    without what its caption and the findings page say (the source of the predictions)."""
    return note.split(" Source: ")[0].strip()


def fig5_curves(given: FigureInput) -> Figure:
    t = given.text
    curves, min_pr = C.from_table(*given.data)
    band = given.optional.get(R.FIG5_CURVE_BANDS.name)
    bands = C.bands_from_table(band, len(curves)) if band is not None else None
    return C.points_figure(curves, min_pr, title=t.get("title", ""), note=fig5_note(t.get("note", "")), bands=bands)


def controlled_skew(given: FigureInput) -> Figure:
    return controlled_skew_figure(*given.data, labels=given.labels)


def cd_diagram(given: FigureInput) -> Figure:
    return cd_figure(*given.data, labels=given.labels)


def boyd_fig1_min_pr_curve(given: FigureInput) -> Figure:
    return T.figure_min_pr_curve(*given.data)


def boyd_fig2_min_pr_curves(given: FigureInput) -> Figure:
    return T.figure_min_pr_curves(*given.data)


def boyd_fig3_aucpr_min(given: FigureInput) -> Figure:
    return T.figure_aupr_min_vs_pi(*given.data)


def boyd_fig4_f1_contours(given: FigureInput) -> Figure:
    return T.figure_f1_contours(*given.data)


def boyd_fig_pr_prg(given: FigureInput) -> Figure:
    return T.figure_pr_prg(*given.data, title=given.text["title"])


def boyd_downsampling(given: FigureInput) -> Figure:
    return B.figure_downsampling(*given.data, given.text)


def boyd_fold_skew(given: FigureInput) -> Figure:
    return B.figure_fold_skew(*given.data, given.text)


def boyd_aggregation(given: FigureInput) -> Figure:
    return B.figure_aggregation(*given.data, given.text)
