"""The one ROC / PR / PRG panel drawer (study Figure 5, theory Figure 2, ``prspace audit``).

Layout only: the points come computed (:mod:`prspace.experiments.fk.curve_points` computes them
with :mod:`prspace.metrics`); :func:`plot_curves` and :func:`curves_figure` are the entry points
of callers that hold predictions (:class:`~prspace.experiments.fk.curve_points.Curve`: the audit,
tests), computing there and drawing here.  :func:`draw_curves` draws any of the
three panels into given axes; :func:`points_figure` lays out a column-width figure with a
fourth panel listing each model's AUROC, AUPR and AUPRG (Flach & Kull 2015, Figure 5);
:func:`from_table` reads the points table that ``prspace step figure_data`` writes, and
:func:`bands_from_table` its bands table (``fig5_curve_bands``): each curve's bootstrap bands,
drawn under it in its colour, the simultaneous band light, the pointwise band darker inside it
(:func:`band_note` says so under the figure).

* ROC: the curve through every threshold's (FPR, TPR); the diagonal is random ranking.
* PR: the hyperbolic (Davis & Goadrich) interpolation between the thresholds' points,
  whose area is AUPR; the minimum PR curve of Boyd et al. (2012, Theorem 1) with the
  unachievable region shaded under it, and the always-positive baseline precision = pi.  The
  y axis (``pr_ylim="auto"``) stops just above the curves' precision at recall >= 0.1, so
  curves of a skewed task are not squashed under the first positive's precision-1 spike;
  what it cuts off is named in the panel.
* PRG: precision gain against recall gain (Flach & Kull, Definition 1).  The part with
  recall gain < 0 is never drawn (AUPRG ignores it, as the paper's plots).  Below, the
  paper's unit square (``prg_ylim="unit"``) or an axis extended down to the lowest
  precision gain, at most to -1 (``"auto"``).  Whatever falls below the axis is named in
  the panel (:func:`prg_clipping`): nothing is clipped silently.

One module of about 410 lines on purpose: the three panels' axes, clipping notices and bands read one
:class:`CurvePoints`, so that the study's Figure 5, the theory figure and the audit draw alike.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from prspace.experiments.fk.curve_points import Curve, curve_arrays, curve_xy, min_pr_arrays
from prspace.figures.style import FONT, style, wrap_title
from prspace.stats.bands import Band

#: PR axis: the curves' precision at recall below this is ignored when choosing the top.
PR_RECALL_FROM = 0.1
#: Lowest precision gain the ``"auto"`` PRG axis extends down to.
PRG_FLOOR = -1.0
#: Kinds of rows of the points table (:func:`from_table`): each curve's ROC points, PR points at
#: the thresholds, interpolated PR curve, PRG points; and the task's minimum PR curve (curve -1).
KINDS = ("roc", "pr", "pr_dense", "prg", "min_pr")


@dataclass(frozen=True)
class CurvePoints:
    """One model's computed curves and areas, ready to draw: each curve an ``(x, y)`` pair of arrays."""

    label: str
    roc: tuple[np.ndarray, np.ndarray]  #: (false positive rate, true positive rate)
    pr: tuple[np.ndarray, np.ndarray]  #: (recall, precision) at the thresholds
    pr_dense: tuple[np.ndarray, np.ndarray]  #: the interpolated PR curve
    prg: tuple[np.ndarray, np.ndarray]  #: (recall gain, precision gain)
    auroc: float
    aupr: float
    auprg: float
    pi: float
    style: dict = field(default_factory=dict)  # matplotlib line keywords (color, ls, label, ...)


@dataclass(frozen=True)
class MinPR:
    """The minimum PR curve of the task's pi (Boyd et al. 2012, Theorem 1) and its area."""

    recall: np.ndarray
    precision: np.ndarray
    area: float


def from_table(points: pd.DataFrame, areas: pd.DataFrame) -> tuple[list[CurvePoints], MinPR]:
    """The curves of a points table (``curve, kind, x, y``) and an areas table
    (``curve, label, auroc, aupr, auprg, aupr_min, pi``), in the order of ``areas``."""
    def xy(i: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
        sel = points[(points["curve"] == i) & (points["kind"] == kind)]
        return sel["x"].to_numpy(np.float64), sel["y"].to_numpy(np.float64)

    curves = [CurvePoints(str(r.label), xy(int(r.curve), "roc"), xy(int(r.curve), "pr"), xy(int(r.curve), "pr_dense"),
                          xy(int(r.curve), "prg"), float(r.auroc), float(r.aupr), float(r.auprg), float(r.pi))
              for r in areas.itertuples(index=False)]
    return curves, MinPR(*xy(-1, "min_pr"), float(areas["aupr_min"].iloc[0]))


#: Columns of a bands table (:func:`bands_from_table`).
BAND_TABLE_COLUMNS = ("curve", "kind", "grid", "estimate", "lo", "hi", "sim_lo", "sim_hi", "level", "n_resamples")


def bands_from_table(table: pd.DataFrame, n_curves: int) -> list[dict[str, Band]]:
    """The bands of a bands table (``curve, kind, grid, estimate, lo, hi, sim_lo, sim_hi, level,
    n_resamples``; kind ``"roc"``, ``"pr"`` or ``"prg"``) as one ``kind -> Band`` per curve
    ``0 .. n_curves - 1`` (empty where the table has none)."""
    missing = [c for c in BAND_TABLE_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"the bands table lacks the column(s) {', '.join(missing)}")
    out: list[dict[str, Band]] = [{} for _ in range(n_curves)]
    for (i, kind), g in table.groupby(["curve", "kind"], sort=False):
        if 0 <= int(i) < n_curves:
            col = {c: g[c].to_numpy(np.float64) for c in ("grid", "estimate", "lo", "hi", "sim_lo", "sim_hi")}
            out[int(i)][str(kind)] = Band(**col, level=float(g["level"].iloc[0]),
                                          n_resamples=int(g["n_resamples"].iloc[0]))
    return out


def band_note(bands: Sequence[Mapping[str, Band]] | None) -> str:
    """What the shaded bands are, from the bands themselves (empty without bands)."""
    every = [b for per in bands or () for b in per.values()]
    if not every:
        return ""
    levels = sorted({b.level for b in every})
    boots = sorted({b.n_resamples for b in every})
    level = "/".join(f"{100 * v:g}%" for v in levels)
    kinds = sorted({k for per in bands or () for k in per}, key=list(KINDS).index)
    names = " and ".join(k.upper() for k in kinds)
    return (f"Shaded: {level} bootstrap bands of the {names} curves ({'/'.join(map(str, boots))} stratified "
            "resamples of the test rows), light: simultaneous (sup-t, covers the whole curve on the grid), "
            "dark: pointwise.")


DEFAULT_STYLES = ({"color": "C0", "ls": "-"}, {"color": "C3", "ls": "--"}, {"color": "C2", "ls": ":"},
                  {"color": "C4", "ls": "-."})


def _line(i: int, c: CurvePoints, label: str) -> dict:
    """Line keywords of curve ``i``: its style, and ``label`` unless the style names one."""
    return {"label": label, **_style_for(i, c)}


def _style_for(i: int, c: CurvePoints) -> dict:
    base = DEFAULT_STYLES[i] if i < len(DEFAULT_STYLES) else {"color": f"C{i % 10}", "ls": ["-", "--", "-.", ":"][(i // 10) % 4]}
    return {"lw": 1.0, **base, **c.style}


def _unit_axes(ax: Axes, xlabel: str, ylabel: str, title: str, ylim: tuple[float, float] = (0, 1.01)) -> None:
    ax.set_xlim(0, 1)
    ax.set_ylim(*ylim)
    ax.set_xlabel(xlabel, labelpad=1)
    ax.set_ylabel(ylabel, labelpad=1)
    ax.set_title(title, pad=2)
    ax.set_box_aspect(1)  # square panels whatever the data limits (a zoomed PR axis stays square)
    ax.grid(alpha=0.25, lw=0.4)


def pr_axis_top(curves: Sequence[CurvePoints], pi: float) -> float:
    """Top of the ``"auto"`` PR axis: 1.01 unless every curve's precision at recall >= 0.1 stays
    below 0.75; then the next 0.1 above that precision (and above 2 pi, so the baseline shows)."""
    peak = 0.0
    for c in curves:
        r, p = np.asarray(c.pr_dense[0]), np.asarray(c.pr_dense[1])
        sel = r >= PR_RECALL_FROM
        if sel.any():
            peak = max(peak, float(np.nanmax(p[sel])))
    top = np.ceil(max(peak, 2 * pi) * 10 + 1e-9) / 10 + 0.02
    return 1.01 if top >= 0.75 else float(top)


def pr_clipping(curves: Sequence[CurvePoints], top: float) -> list[str]:
    """Notices for the parts of PR curves above ``top``: ``"<label>: up to P (recall <= R)"``."""
    out = []
    for c in curves:
        r, p = np.asarray(c.pr_dense[0]), np.asarray(c.pr_dense[1])
        above = p > top
        if above.any():
            out.append(f"{c.label.splitlines()[0]}: up to {p[above].max():.2f} (recall <= {r[above].max():.2f})")
    return out


def prg_clipping(curves: Sequence[CurvePoints], bottom: float) -> list[str]:
    """Notices for the parts of PRG curves (recall gain in [0, 1]) below precision gain ``bottom``.

    One entry per curve with such a part: ``"<label>: down to G (recall gain a-b)"``; G may be
    ``-inf`` (a threshold with no true positive among the drawn ones).
    """
    out = []
    for c in curves:
        rg, pg = np.asarray(c.prg[0]), np.asarray(c.prg[1])
        sel = (rg >= 0) & (rg <= 1) & (pg < bottom - 1e-12)
        if sel.any():
            low = float(pg[sel].min())
            # a dip of less than 0.005 would print as "-0.00": give its first digit instead
            shown = f"{low:.2f}" if not np.isfinite(low) or low <= -0.005 else f"{low:.1g}"
            out.append(f"{c.label.splitlines()[0]}: down to {shown} "
                       f"(recall gain {rg[sel].min():.2f}-{rg[sel].max():.2f})")
    return out


def band_clipping(curves: Sequence[CurvePoints], bands: Sequence[Mapping[str, Band]] | None, kind: str, *,
                  bottom: float | None = None, top: float | None = None) -> list[str]:
    """One notice for the parts of the ``kind`` bands (all curves') outside the axis, below
    ``bottom`` or above ``top``: ``"bands: down to G (recall gain a-b)"`` (``up to`` above)."""
    every = [bands[i][kind] for i in range(min(len(curves), len(bands or ()))) if kind in bands[i]]
    if not every:
        return []
    axis = {"roc": "false positive rate", "pr": "recall", "prg": "recall gain"}[kind]
    out = []
    for bound, word in ((bottom, "down"), (top, "up")):
        if bound is None:
            continue
        x, v = [], []
        for b in every:
            edge = b.sim_lo if word == "down" else b.sim_hi
            sel = edge < bound - 1e-12 if word == "down" else edge > bound + 1e-12
            x.append(b.grid[sel])
            v.append(edge[sel])
        xs, vs = np.concatenate(x), np.concatenate(v)
        if xs.size:
            worst = vs.min() if word == "down" else vs.max()
            out.append(f"bands: {word} to {worst:.2f} ({axis} {xs.min():.2f}-{xs.max():.2f})")
    return out


def prg_axis_bottom(curves: Sequence[CurvePoints], mode: str | tuple[float, float]) -> float:
    """Bottom of the PRG axis: 0 (``"unit"``), the lowest drawn precision gain floored to a
    quarter and bounded by :data:`PRG_FLOOR` (``"auto"``), or the given limits' lower end."""
    if isinstance(mode, tuple):
        return float(mode[0])
    if mode == "unit":
        return 0.0
    lowest = 0.0
    for c in curves:
        rg, pg = np.asarray(c.prg[0]), np.asarray(c.prg[1])
        sel = (rg >= 0) & (rg <= 1) & np.isfinite(pg)
        if sel.any():
            lowest = min(lowest, float(pg[sel].min()))
    return max(PRG_FLOOR, float(np.floor(lowest * 4) / 4))


def _notice(ax: Axes, lines: list[str], head: str, *, where: str = "lower left") -> None:
    """Name in the panel what its axis cuts off (nothing is clipped silently)."""
    if lines:
        top = where.startswith("upper")
        ax.text(0.98 if where.endswith("right") else 0.02, 0.98 if top else 0.02,
                "\n".join([head, *(textwrap.fill(t, 30, subsequent_indent="  ") for t in lines)]),
                transform=ax.transAxes, fontsize=FONT, va="top" if top else "bottom",
                ha="right" if where.endswith("right") else "left", color="0.15",
                bbox={"facecolor": "white", "alpha": 0.85, "lw": 0, "pad": 1})


def draw_curves(
    ax_roc: Axes | None,
    ax_pr: Axes | None,
    ax_prg: Axes | None,
    curves: Sequence[CurvePoints],
    min_pr: MinPR,
    *,
    pr_ylim: str | tuple[float, float] = "auto",
    prg_ylim: str | tuple[float, float] = "auto",
    points: bool = False,
    legend: bool = False,
    bands: Sequence[Mapping[str, Band]] | None = None,
) -> None:
    """Draw the ROC, PR and PRG curves of ``curves`` into the given axes (any may be None).

    All curves share one task (the same positives): the PR panel's minimum PR curve ``min_pr``
    and baseline are drawn for the ``pi`` of the first curve.  ``pr_ylim``: ``"auto"``
    (:func:`pr_axis_top`), ``"unit"`` or limits; ``prg_ylim``: ``"auto"`` (down to the lowest
    precision gain, at most -1), ``"unit"`` (the paper's square) or limits; what falls outside is
    named in the panel either way.  A ``label`` in a curve's style replaces the default legend
    label (name and area).  ``points`` marks the thresholds' PR and PRG points; ``legend`` puts a
    legend (label and area) under each panel.  ``bands``: per curve, ``kind -> Band``
    (:func:`bands_from_table`), shaded under the curve in its colour (simultaneous light,
    pointwise darker); kinds a curve has no band of are drawn as without.
    """
    if not curves:
        raise ValueError("draw_curves needs at least one curve")
    pi = curves[0].pi
    if ax_roc is not None:
        ax_roc.plot([0, 1], [0, 1], color="0.6", lw=0.6, ls=":", label="random ranking")
        _shade(ax_roc, curves, bands, "roc")
        for i, c in enumerate(curves):
            ax_roc.plot(*c.roc, **_line(i, c, f"{c.label} ({c.auroc:.3f})"))
        _unit_axes(ax_roc, "false positive rate", "true positive rate", "ROC")
    if ax_pr is not None:
        top = pr_axis_top(curves, pi) if pr_ylim == "auto" else 1.01 if pr_ylim == "unit" else float(pr_ylim[1])
        bottom = 0.0 if isinstance(pr_ylim, str) else float(pr_ylim[0])
        ax_pr.fill_between(min_pr.recall, 0, min_pr.precision, color="0.88", lw=0, label="unachievable region")
        ax_pr.plot(min_pr.recall, min_pr.precision, color="0.45", lw=0.7, label=f"minimum PR curve ({min_pr.area:.3f})")
        ax_pr.axhline(pi, color="0.45", lw=0.7, ls=":", label=f"baseline pi = {pi:.3f}")
        _shade(ax_pr, curves, bands, "pr")
        for i, c in enumerate(curves):
            st = _line(i, c, f"{c.label} ({c.aupr:.3f})")
            ax_pr.plot(*c.pr_dense, **st)
            if points:
                ax_pr.plot(*c.pr, "o", color=st["color"], ms=2.5)
        _unit_axes(ax_pr, "recall", "precision", "PR", (bottom, top))
        # what is cut is at low recall, on the left: the notice goes top right
        _notice(ax_pr, pr_clipping(curves, top) + band_clipping(curves, bands, "pr", top=top),
                f"not shown above {top:.2f}:", where="upper right")
    if ax_prg is not None:
        bottom = prg_axis_bottom(curves, prg_ylim)
        top = 1.01 if isinstance(prg_ylim, str) else float(prg_ylim[1])
        ax_prg.plot([0, 1], [1, 0], color="0.6", lw=0.6, ls=":", label="always-positive baseline (FG1 = 1/2)")
        if bottom < 0:
            ax_prg.axhline(0, color="0.6", lw=0.5)
        _shade(ax_prg, curves, bands, "prg")
        for i, c in enumerate(curves):
            rg, pg = np.asarray(c.prg[0]), np.asarray(c.prg[1])
            keep = rg >= 0  # the PRG curve has a point at recall gain 0: the drawn curve starts there
            st = _line(i, c, f"{c.label} ({c.auprg:.3f})")
            ax_prg.plot(rg[keep], np.maximum(pg[keep], -1e6), **st)
            if points:
                ax_prg.plot(rg[keep], pg[keep], "o", color=st["color"], ms=2.5)
        _unit_axes(ax_prg, "recall gain", "precision gain", "PRG", (bottom, top))
        _notice(ax_prg, prg_clipping(curves, bottom) + band_clipping(curves, bands, "prg", bottom=bottom),
                f"not shown below {bottom:g}:")
    if legend:
        for ax in (ax_roc, ax_pr, ax_prg):
            if ax is not None:
                ax.legend(fontsize=6.5, loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False,
                          ncol=2 if len(curves) > 8 else 1)


def _shade(ax: Axes, curves: Sequence[CurvePoints], bands: Sequence[Mapping[str, Band]] | None, kind: str) -> None:
    """The ``kind`` bands of ``curves`` under their lines: simultaneous light, pointwise darker."""
    for i, c in enumerate(curves):
        b = bands[i].get(kind) if bands is not None and i < len(bands) else None
        if b is None:
            continue
        color = _style_for(i, c)["color"]
        ax.fill_between(b.grid, b.sim_lo, b.sim_hi, color=color, alpha=0.10, lw=0, zorder=1.5)
        ax.fill_between(b.grid, b.lo, b.hi, color=color, alpha=0.18, lw=0, zorder=1.6)


#: Width (in) of :func:`points_figure`: four panels and a note at 8 pt need more than a column.
POINTS_WIDTH = 6.0
#: Characters per line of its title and note (8 pt over :data:`POINTS_WIDTH`).
POINTS_LINE = 92


def points_figure(curves: Sequence[CurvePoints], min_pr: MinPR, *, title: str = "", note: str = "",
                  pr_ylim: str | tuple[float, float] = "auto", prg_ylim: str | tuple[float, float] = "unit",
                  bands: Sequence[Mapping[str, Band]] | None = None, describe_bands: bool = True,
                  paper: str = "") -> Figure:
    """A 2 x 2 figure (:data:`POINTS_WIDTH` wide): ROC, PR, PRG and a panel listing the areas (and ``paper``, the
    paper's values, under them); with ``bands`` (:func:`draw_curves`) shaded, and, if
    ``describe_bands``, :func:`band_note` appended to ``note``.  Every text at :data:`FONT` pt."""
    extra = band_note(bands) if describe_bands else ""
    if extra:
        note = f"{note.rstrip()}{'' if not note or note.rstrip().endswith('.') else '.'} {extra}".strip()
    title, note = wrap_title(title, POINTS_LINE) if title else "", textwrap.fill(note, POINTS_LINE) if note else ""
    # the panels keep their height: the figure grows by the lines of the title and of the note
    line = FONT / 72 * 1.3
    height = 5.6 + line * ((title.count("\n") + 1 if title else 0) + (note.count("\n") + 1 if note else 0))
    with style():
        fig = Figure(figsize=(POINTS_WIDTH, height), layout="constrained")
        axes = fig.subplots(2, 2)
        draw_curves(axes[0, 0], axes[0, 1], axes[1, 0], curves, min_pr, pr_ylim=pr_ylim, prg_ylim=prg_ylim,
                    bands=bands)
        _areas_panel(axes[1, 1], curves, paper)
        if title:
            fig.suptitle(title, fontsize=FONT)
        if note:
            fig.supxlabel(note, fontsize=FONT, color="0.3")
    return fig


def _areas_panel(ax: Axes, curves: Sequence[CurvePoints], paper: str) -> None:
    """The legend panel: each curve's line, name and areas; the minimum PR curve, the baseline; ``paper``."""
    ax.set_axis_off()
    step = 0.075  # one line of text, in axes units
    y = 1.02
    for i, c in enumerate(curves):
        st = _style_for(i, c)
        ax.plot([0.0, 0.14], [y - 0.035] * 2, transform=ax.transAxes, color=st["color"], ls=st["ls"], lw=1.2,
                clip_on=False)
        ax.text(0.18, y, c.label, transform=ax.transAxes, va="top", fontsize=FONT)
        n_lines = c.label.count("\n") + 1
        ax.text(0.18, y - step * n_lines, f"AUROC {c.auroc:.3f}\nAUPR  {c.aupr:.3f}\nAUPRG {c.auprg:.3f}",
                transform=ax.transAxes, va="top", fontsize=FONT, family="monospace")
        y -= step * (n_lines + 3) + 0.04
    ax.plot([0.0, 0.14], [y - 0.035] * 2, transform=ax.transAxes, color="0.45", lw=0.7, clip_on=False)
    ax.text(0.18, y, "minimum PR curve", transform=ax.transAxes, va="top", fontsize=FONT)
    ax.plot([0.0, 0.14], [y - step - 0.035] * 2, transform=ax.transAxes, color="0.45", lw=0.7, ls=":", clip_on=False)
    ax.text(0.18, y - step, f"baseline pi = {curves[0].pi:.3f}", transform=ax.transAxes, va="top", fontsize=FONT)
    if paper:
        ax.text(0.0, y - 2 * step - 0.04, paper, transform=ax.transAxes, va="top", fontsize=FONT, color="0.2")


def curve_points(curves: Sequence[Curve]) -> tuple[list[dict], list[CurvePoints], MinPR]:
    """Each curve's :func:`prspace.metrics.all_metrics`, its drawable points, and the minimum PR
    curve at the first curve's pi (all curves share one task); computed by
    :mod:`prspace.experiments.fk.curve_points`."""
    if not curves:
        raise ValueError("plot_curves needs at least one curve")
    scores, points = [], []
    for c in curves:
        s, xy = curve_arrays(c)
        scores.append(s)
        points.append(_points(c, xy, s))
    return scores, points, min_pr_at(scores[0]["pi"])


def _points(c: Curve, xy: Mapping[str, tuple[np.ndarray, np.ndarray]], areas: Mapping[str, float]) -> CurvePoints:
    return CurvePoints(c.label, xy["roc"], xy["pr"], xy["pr_dense"], xy["prg"], float(areas["auroc"]),
                       float(areas["aupr"]), float(areas["auprg"]), float(areas["pi"]), c.style)


def known_points(c: Curve, areas: Mapping[str, float]) -> CurvePoints:
    """The drawable points of ``c`` whose areas and pi are known (``auroc``, ``aupr``, ``auprg``, ``pi``: the audit's
    pooled table holds them): its curves from one sort of its scores, no metric computed again."""
    return _points(c, curve_xy(c), areas)


def min_pr_at(pi: float) -> MinPR:
    """The minimum PR curve at ``pi`` and its area (:func:`prspace.experiments.fk.curve_points.min_pr_arrays`)."""
    return MinPR(*min_pr_arrays(pi))


def plot_curves(ax_roc: Axes | None, ax_pr: Axes | None, ax_prg: Axes | None, curves: Sequence[Curve],
                **kw) -> list[dict[str, float]]:
    """Compute (:func:`curve_points`) and draw (:func:`draw_curves`, same keywords) the curves of
    ``curves``; returns :func:`prspace.metrics.all_metrics` of each curve, in order."""
    scores, points, min_pr = curve_points(curves)
    draw_curves(ax_roc, ax_pr, ax_prg, points, min_pr, **kw)
    return scores


def curves_figure(curves: Sequence[Curve], **kw) -> Figure:
    """:func:`points_figure` of ``curves`` (ROC, PR, PRG and the areas)."""
    _, points, min_pr = curve_points(curves)
    return points_figure(points, min_pr, **kw)
