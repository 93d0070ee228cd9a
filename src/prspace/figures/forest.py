"""The forest plot of the primary claims (issue 78): every primary claim of both papers, one row each,
grouped by scale, each study's estimate with its 95% interval against the paper's value and its margin.

:func:`forest_table` selects the plotted numbers from the verdict table (its source table,
``claims_forest.csv``; nothing is computed but the band's ends, ``reference`` +- ``margin``) and
:func:`forest_figure` lays them out.  The row names and the outcome labels are words of the verdict
layer (``prspace.verdicts.verdict_labels``: ``short_name``, ``short_outcome``), which this layer may
not import: the caller gives them as the columns ``claim`` and ``outcome_label`` (``prspace figure``,
``prspace summary``).
"""

from __future__ import annotations

import re
import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

#: The panels, top to bottom: (name, title, the verdict ``kind`` values drawn in it).
PANELS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("share", "Flach & Kull: shares of tasks", ("share",)),
    ("correlation", "Flach & Kull: rank correlations", ("correlation", "quartile")),
    ("difference", "Flach & Kull: AUPR-AUPRG minus AUPR-AUROC", ("equivalence",)),
    ("direction", "Direction claims (paper: effect above 0)", ("direction",)),
)
#: Colour of each outcome label (``prspace.verdicts.verdict_labels.SHORT_LABELS``; tests check every one has one).
OUTCOME_COLOURS: dict[str, str] = {
    "replicates": "#1b9e77", "holds": "#1b9e77", "differs": "#d95f02", "differs beyond margin": "#b2182b",
    "does not hold": "#b2182b", "too close to call": "#7570b3", "undecided": "#737373",
    "check": "#737373",
}
#: A row with ``by_construction`` True: an implementation check, drawn apart (hollow marks, grey name).
CHECK_LABEL = "implementation check"
#: The marker of each study, in the order of the legend (others get the next of ``_MARKERS``).
STUDY_MARKERS: dict[str, str] = {"paperlike": "o", "default": "s"}
_MARKERS = ("o", "s", "D", "^", "v")
#: Each marker as a character, before a study's outcome words when several studies share a row.
_GLYPHS = {"o": "\u25cf", "s": "\u25a0", "D": "\u25c6", "^": "\u25b2", "v": "\u25bc"}
#: The source table's columns, in order.
COLUMNS = ("study", "paper", "panel", "claim_id", "claim", "kind", "estimate", "ci95_lo", "ci95_hi", "paper_value",
           "margin", "reference", "band_lo", "band_hi", "outcome", "outcome_label", "by_construction")
FONT = 8  # pt: the smallest text of the figure at its printed width
WIDTH = 6.4  # inches: 1280 px at prspace.core.output.DPI


def panel_of(kind: str) -> str:
    """The panel a primary row of verdict ``kind`` is drawn in (:data:`PANELS`; ``direction`` for any other)."""
    return next((name for name, _, kinds in PANELS if kind in kinds), "direction")


def _flag(value: object) -> bool:
    return str(value).strip().lower() in {"true", "1", "1.0", "yes"}


def forest_table(verdicts: pd.DataFrame) -> pd.DataFrame:
    """The numbers the forest plot draws: the primary rows of ``verdicts`` (one table, or several
    studies' stacked), in panel order.

    Parameters
    ----------
    verdicts : DataFrame
        Rows of ``verdicts.csv`` with the columns ``study``, ``claim`` (the row's short name) and
        ``outcome_label`` (its short outcome) added by the caller; ``by_construction`` is read when
        present (else False).

    Returns
    -------
    DataFrame
        :data:`COLUMNS`: the verdict columns as they are, ``panel`` (:func:`panel_of`),
        ``reference`` (the paper's value, 0 for a direction claim, whose paper value 1 says "holds"),
        and the margin band ``band_lo``, ``band_hi`` (``reference`` -+ ``margin``).
    """
    rows = verdicts[verdicts["role"] == "primary"].copy()
    if "by_construction" not in rows:
        rows["by_construction"] = False
    rows["by_construction"] = rows["by_construction"].map(_flag)
    rows["panel"] = [panel_of(str(k)) for k in rows["kind"]]
    rows["reference"] = np.where(rows["panel"] == "direction", 0.0, rows["paper_value"].astype(float))
    rows["band_lo"] = rows["reference"] - rows["margin"].astype(float)
    rows["band_hi"] = rows["reference"] + rows["margin"].astype(float)
    rows["outcome"] = rows["outcome"].fillna("") if "outcome" in rows else ""
    order = {name: i for i, (name, _, _) in enumerate(PANELS)}
    rows["_panel"] = rows["panel"].map(order)
    rows["_row"] = range(len(rows))
    rows = rows.sort_values(["_panel", "by_construction", "_row"], kind="stable")
    return rows.loc[:, list(COLUMNS)].reset_index(drop=True)


def _name(claim: str, claim_id: str, width: int) -> str:
    """A row's name: its short name without parentheses, Boyd's section before it, wrapped."""
    text = re.sub(r"\s*\([^)]*\)", "", claim).strip()
    m = re.match(r"boyd\.sec(\d)_(\d)\.", claim_id)
    text = f"Boyd {m[1]}.{m[2]}: {text}" if m else text
    return textwrap.fill(text[:1].upper() + text[1:], width, break_on_hyphens=False)


def _markers(studies: list[str]) -> dict[str, str]:
    spare = iter(m for m in _MARKERS if m not in STUDY_MARKERS.values())
    return {s: STUDY_MARKERS.get(s) or next(spare, "o") for s in studies}


def _study_name(study: str) -> str:
    return {"paperlike": "paper-like study", "default": "default study"}.get(study, f"study {study}")


def _draw_row(ax, y: float, rows: pd.DataFrame, studies: list[str], markers: dict[str, str], height: float) -> None:
    """One claim: its margin band, the paper's value, each study's estimate and interval and outcome."""
    first = rows.iloc[0]
    ax.fill_between([first["band_lo"], first["band_hi"]], y - 0.42 * height, y + 0.42 * height, color="#d9d9d9",
                    lw=0, zorder=0)
    if first["panel"] != "direction":
        ax.plot([first["reference"]] * 2, [y - 0.42 * height, y + 0.42 * height], color="black", lw=1.6, zorder=1)
    step = 0.34 / max(len(studies) - 1, 1)
    for i, study in enumerate(studies):
        r = rows[rows["study"] == study]
        if r.empty:
            continue
        r = r.iloc[0]
        yy = y + (0.17 - i * step if len(studies) > 1 else 0.0) * height
        colour = OUTCOME_COLOURS.get(str(r["outcome_label"]), "#737373")
        check = bool(r["by_construction"])
        ax.plot([r["ci95_lo"], r["ci95_hi"]], [yy, yy], color=colour, lw=1.4, zorder=2)
        ax.plot([r["estimate"]], [yy], marker=markers[study], ms=5, color=colour, zorder=3,
                mfc="white" if check else colour, mew=1.2)
        label = str(r["outcome_label"])
        label = f"check: {label}" if check and label != "check" else label
        label = f"{_GLYPHS.get(markers[study], '')} {label}".strip() if len(studies) > 1 else label
        ax.annotate(label, (1.0, yy), xycoords=("axes fraction", "data"), xytext=(4, 0), textcoords="offset points",
                    va="center", ha="left", fontsize=FONT, color=colour, annotation_clip=False)


def _layout(table: pd.DataFrame) -> list[tuple[str, str, list[str], list[str], list[float]]]:
    """Per panel shown: its name, title, claims, wrapped row names and row heights (rows of a name's lines)."""
    out = []
    for name, title, _ in PANELS:
        sub = table[table["panel"] == name]
        if sub.empty:
            continue
        claims = list(dict.fromkeys(sub["claim_id"]))
        names = [_name(str(sub.loc[sub["claim_id"] == c, "claim"].iloc[0]), c, 40) for c in claims]
        out.append((name, title, claims, names, [max(1.0, 0.5 * n.count("\n") + 0.6) for n in names]))
    return out


def _draw_panel(ax, sub: pd.DataFrame, panel, studies: list[str], markers: dict[str, str]) -> None:
    """One panel: its rows top to bottom, the implementation checks last below a dotted rule."""
    name, title, claims, names, heights = panel
    ys = list(-(np.cumsum(heights) - np.asarray(heights) / 2))
    for claim, y, h in zip(claims, ys, heights, strict=True):
        _draw_row(ax, y, sub[sub["claim_id"] == claim], studies, markers, h)
    ax.set_yticks(ys, names, fontsize=FONT)
    checks = [bool(sub.loc[sub["claim_id"] == c, "by_construction"].any()) for c in claims]
    for tick, check in zip(ax.get_yticklabels(), checks, strict=True):
        if check:
            tick.set_color("#737373")
            tick.set_fontstyle("italic")
    if 0 < sum(checks) < len(checks):  # the implementation checks apart, below a rule
        first = checks.index(True)
        ax.axhline(ys[first] + heights[first] / 2, color="#737373", lw=0.8, ls=":")
    ax.set_ylim(-sum(heights) - 0.1, 0.1)
    if name in ("difference", "direction"):
        ax.axvline(0.0, color="black", lw=0.8, ls="--", zorder=1)
    ax.set_title(title, fontsize=FONT + 1, loc="left", fontweight="bold")
    ax.tick_params(axis="x", labelsize=FONT)
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="x", color="#eeeeee", lw=0.6, zorder=-1)
    ax.set_axisbelow(True)


def _legend(fig: Figure, table: pd.DataFrame, studies: list[str], markers: dict[str, str]) -> None:
    handles = [Line2D([], [], marker=markers[s], ls="", color="#404040", label=_study_name(s)) for s in studies]
    handles += [Line2D([], [], color="black", lw=1.6, label="paper's value"),
                Line2D([], [], color="black", lw=0.8, ls="--", label="0 (paper: above it)"),
                Patch(color="#d9d9d9", label="+- margin")]
    by_colour: dict[str, list[str]] = {}
    for o in dict.fromkeys(table["outcome_label"].astype(str)):
        by_colour.setdefault(OUTCOME_COLOURS.get(o, "#737373"), []).append(o)
    handles += [Patch(color=c, label=", ".join(labels)) for c, labels in by_colour.items()]
    if table["by_construction"].any():
        handles.append(Line2D([], [], marker="o", ls="", mfc="white", color="#404040", label=f"hollow: {CHECK_LABEL}"))
    fig.legend(handles=handles, loc="outside lower center", ncol=3, fontsize=FONT, frameon=False)


def forest_figure(table: pd.DataFrame) -> Figure:
    """The forest plot of :func:`forest_table`'s ``table``: one panel per scale, one row per claim."""
    studies = list(dict.fromkeys(table["study"]))
    markers = _markers(studies)
    panels = _layout(table)
    totals = [sum(p[4]) for p in panels]
    row_in = 0.30
    fig = Figure(figsize=(WIDTH, sum(totals) * row_in + 0.45 * len(panels) + 0.9), layout="constrained")
    axes = np.atleast_1d(fig.subplots(len(panels), 1, gridspec_kw={"height_ratios": [t + 1.1 for t in totals]}))
    for ax, panel in zip(axes, panels, strict=True):
        _draw_panel(ax, table[table["panel"] == panel[0]], panel, studies, markers)
    axes[-1].set_xlabel("estimate with its 95% interval (each row on its own claim's scale)", fontsize=FONT)
    _legend(fig, table, studies, markers)
    return fig
