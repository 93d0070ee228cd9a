"""Every figure of a study by name, each drawn from the tables its analysis step wrote.

:data:`FIGURE_TABLES` names the tables (file stems) each figure reads; :func:`draw` lays one out.
Flach & Kull (2015) Figures 4 and 5 read the tables of ``prspace figure-data``
(:mod:`prspace.experiments.figure_data`) and ``figure_text``; the controlled-skew figure reads
the tables of ``prspace controlled-skew``; Boyd et al.'s Figures 1-4 the tables of ``prspace boyd
theory-data`` (:mod:`prspace.experiments.theory_data`), Flach & Kull's Figure 2 those of ``prspace
boyd pr-prg``, and the figures of the Boyd experiments those of their report commands
(:mod:`prspace.experiments.boyd_figure_data`; their ``<figure>_text`` table is passed as
``--text``).  Layout only: no statistics are computed here.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
from matplotlib.figure import Figure

from prspace.core.output import message_figure
from prspace.figures import boyd as B
from prspace.figures import curves as C
from prspace.figures import ranking as F
from prspace.figures import theory as T
from prspace.figures.cd import cd_figure
from prspace.figures.controlled_skew import controlled_skew_figure

#: Tables (file stems) each figure is drawn from; Figures 4 and 5 also read ``figure_text``.
#: Optional tables, drawn when given: :data:`OPTIONAL_TABLES`.
FIGURE_TABLES: dict[str, tuple[str, ...]] = {
    "fig4_rank_heatmap": ("fig4_rank_counts",),
    "fig4_auprg_vs_aupr": ("fig4_scatter",),
    "fig5_curves": ("fig5_curve_points", "fig5_curve_areas"),
    "controlled_skew": ("controlled_skew", "controlled_skew_observed"),
    "cd_diagram": ("cd_ranks", "cd_cliques", "cd_tests"),
    # Boyd et al. 2012, Figures 1-4: one table each, of the figure's name
    **{n: (n,) for n in ("boyd_fig1_min_pr_curve", "boyd_fig2_min_pr_curves", "boyd_fig3_aucpr_min",
                         "boyd_fig4_f1_contours")},
    "boyd_fig_pr_prg": ("boyd_fig_pr_prg_points", "boyd_fig_pr_prg_areas", "boyd_fig_pr_prg_hull",
                        "boyd_fig_pr_prg_isometrics"),
    "boyd_downsampling": ("boyd_downsampling_levels", "boyd_downsampling_axis", "boyd_downsampling_paper"),
    "boyd_fold_skew": ("boyd_fold_skew_lines",),
    "boyd_aggregation": ("boyd_aggregation_points", "boyd_aggregation_task_means", "boyd_aggregation_min_curve",
                         "boyd_aggregation_ranks"),
}
#: Figures drawn with a text table (``--text``): the study's Figures 4 and 5 and those of Boyd et al.
NEEDS_TEXT = frozenset({"fig4_rank_heatmap", "fig4_auprg_vs_aupr", "fig5_curves", "boyd_fig_pr_prg",
                        "boyd_downsampling", "boyd_fold_skew", "boyd_aggregation"})
#: Tables a figure draws when they are given, and is the same figure without: Figure 5's curve
#: bands (``prspace figure-data``; :func:`prspace.figures.curves.bands_from_table`).
OPTIONAL_TABLES: dict[str, tuple[str, ...]] = {"fig5_curves": ("fig5_curve_bands",)}


def texts(table: pd.DataFrame, figure: str) -> dict[str, str]:
    """The ``field -> text`` of ``figure`` in a ``figure_text`` table (``figure, field, text``)."""
    sub = table[table["figure"] == figure]
    return {str(f): "" if pd.isna(t) else str(t) for f, t in zip(sub["field"], sub["text"], strict=True)}


def draw(name: str, tables: Mapping[str, pd.DataFrame], text: Mapping[str, str] | None = None,
         labels: Mapping[str, str] | None = None) -> Figure:
    """Figure ``name`` from ``tables`` (by file stem, :data:`FIGURE_TABLES`), ``text`` (its
    fields of ``figure_text``) and ``labels`` (metric name -> axis label, for controlled_skew)."""
    t = dict(text or {})
    if t.get("message"):  # no task qualified: the figure says so in words
        return message_figure(t["message"])
    if name == "fig4_rank_heatmap":
        return F.rank_heatmap(tables["fig4_rank_counts"], xlabel=t["xlabel"], ylabel=t["ylabel"],
                              heading=t["heading"], source=t.get("source", ""))
    if name == "fig4_auprg_vs_aupr":
        return F.metric_scatter(tables["fig4_scatter"], xlabel=t["xlabel"], ylabel=t["ylabel"],
                                source=t.get("source", ""), note=t.get("note", ""))
    if name == "fig5_curves":
        curves, min_pr = C.from_table(tables["fig5_curve_points"], tables["fig5_curve_areas"])
        bands = (C.bands_from_table(tables["fig5_curve_bands"], len(curves)) if "fig5_curve_bands" in tables
                 else None)
        return C.points_figure(curves, min_pr, title=t.get("title", ""), note=t.get("note", ""), bands=bands)
    if name == "controlled_skew":
        return controlled_skew_figure(tables["controlled_skew"], tables["controlled_skew_observed"], labels=labels)
    if name == "cd_diagram":
        return cd_figure(tables["cd_ranks"], tables["cd_cliques"], tables["cd_tests"], labels=labels)
    if name in ("boyd_fig1_min_pr_curve", "boyd_fig2_min_pr_curves", "boyd_fig3_aucpr_min", "boyd_fig4_f1_contours"):
        draw_theory = {"boyd_fig1_min_pr_curve": T.figure_min_pr_curve, "boyd_fig2_min_pr_curves": T.figure_min_pr_curves,
                       "boyd_fig3_aucpr_min": T.figure_aupr_min_vs_pi, "boyd_fig4_f1_contours": T.figure_f1_contours}
        return draw_theory[name](tables[name])
    if name == "boyd_fig_pr_prg":
        return T.figure_pr_prg(*(tables[n] for n in FIGURE_TABLES[name]), title=t["title"])
    if name == "boyd_downsampling":
        return B.figure_downsampling(*(tables[n] for n in FIGURE_TABLES[name]), t)
    if name == "boyd_fold_skew":
        return B.figure_fold_skew(tables["boyd_fold_skew_lines"], t)
    if name == "boyd_aggregation":
        return B.figure_aggregation(*(tables[n] for n in FIGURE_TABLES[name]), t)
    raise ValueError(f"unknown figure {name!r}; known: {', '.join(FIGURE_TABLES)}")
