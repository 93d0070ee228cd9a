"""The one ROC / PR / PRG panel drawer (study Figure 5, theory Figure 2, ``prspace audit``).

:func:`plot_curves` draws any of the three panels into given axes; :func:`curves_figure`
lays out a column-width figure with a fourth panel listing each model's AUROC, AUPR and
AUPRG (Flach & Kull 2015, Figure 5).

* ROC: the curve through every threshold's (FPR, TPR); the diagonal is random ranking.
* PR: the hyperbolic (Davis & Goadrich) interpolation between the thresholds' points,
  whose area is :func:`prspace.metrics.aupr`; the minimum PR curve of Boyd et al. (2012,
  Theorem 1) with the unachievable region shaded under it, and the always-positive
  baseline precision = pi.  The y axis (``pr_ylim="auto"``) stops just above the curves'
  precision at recall >= 0.1, so curves of a skewed task are not squashed under the
  first positive's precision-1 spike; what it cuts off is named in the panel.
* PRG: precision gain against recall gain (Flach & Kull, Definition 1).  The part with
  recall gain < 0 is never drawn (AUPRG ignores it, as the paper's plots).  Below, the
  paper's unit square (``prg_ylim="unit"``) or an axis extended down to the lowest
  precision gain, at most to -1 (``"auto"``).  Whatever falls below the axis is named in
  the panel (:func:`prg_clipping`): nothing is clipped silently.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from prspace import metrics as M
from prspace.figures.style import COLUMN_WIDTH, style

#: PR axis: the curves' precision at recall below this is ignored when choosing the top.
PR_RECALL_FROM = 0.1
#: Lowest precision gain the ``"auto"`` PRG axis extends down to.
PRG_FLOOR = -1.0


@dataclass(frozen=True)
class Curve:
    """One model's predictions to draw: ``label``, labels (True = positive), scores, optional weights."""

    label: str
    y_true: np.ndarray
    y_score: np.ndarray
    style: dict = field(default_factory=dict)  # matplotlib line keywords (color, ls, label, ...)
    weight: np.ndarray | None = None  # sample weights (None: unit weights)


DEFAULT_STYLES = ({"color": "C0", "ls": "-"}, {"color": "C3", "ls": "--"}, {"color": "C2", "ls": ":"},
                  {"color": "C4", "ls": "-."})


def _line(i: int, c: Curve, label: str) -> dict:
    """Line keywords of curve ``i``: its style, and ``label`` unless the style names one."""
    return {"label": label, **_style_for(i, c)}


def _style_for(i: int, c: Curve) -> dict:
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


def _prg(c: Curve) -> M.PRGCurve:
    return M.prg_curve(c.y_true, c.y_score, sample_weight=c.weight)


def _dense_pr(c: Curve):
    pr = M.pr_curve(c.y_true, c.y_score, sample_weight=c.weight)
    return pr, M.interpolate_pr_curve(pr, 20 if len(pr.recall) <= 1000 else 2)


def pr_axis_top(curves: Sequence[Curve], pi: float) -> float:
    """Top of the ``"auto"`` PR axis: 1.01 unless every curve's precision at recall >= 0.1 stays
    below 0.75; then the next 0.1 above that precision (and above 2 pi, so the baseline shows)."""
    peak = 0.0
    for c in curves:
        _, d = _dense_pr(c)
        r, p = np.asarray(d.recall), np.asarray(d.precision)
        sel = r >= PR_RECALL_FROM
        if sel.any():
            peak = max(peak, float(np.nanmax(p[sel])))
    top = np.ceil(max(peak, 2 * pi) * 10 + 1e-9) / 10 + 0.02
    return 1.01 if top >= 0.75 else float(top)


def pr_clipping(curves: Sequence[Curve], top: float) -> list[str]:
    """Notices for the parts of PR curves above ``top``: ``"<label>: up to P (recall <= R)"``."""
    out = []
    for c in curves:
        _, d = _dense_pr(c)
        r, p = np.asarray(d.recall), np.asarray(d.precision)
        above = p > top
        if above.any():
            out.append(f"{c.label.splitlines()[0]}: up to {p[above].max():.2f} (recall <= {r[above].max():.2f})")
    return out


def prg_clipping(curves: Sequence[Curve], bottom: float) -> list[str]:
    """Notices for the parts of PRG curves (recall gain in [0, 1]) below precision gain ``bottom``.

    One entry per curve with such a part: ``"<label>: down to G (recall gain a-b)"``; G may be
    ``-inf`` (a threshold with no true positive among the drawn ones).
    """
    out = []
    for c in curves:
        g = _prg(c)
        rg, pg = np.asarray(g.recall_gain), np.asarray(g.precision_gain)
        sel = (rg >= 0) & (rg <= 1) & (pg < bottom - 1e-12)
        if sel.any():
            out.append(f"{c.label.splitlines()[0]}: down to {pg[sel].min():.2f} "
                       f"(recall gain {rg[sel].min():.2f}-{rg[sel].max():.2f})")
    return out


def prg_axis_bottom(curves: Sequence[Curve], mode: str | tuple[float, float]) -> float:
    """Bottom of the PRG axis: 0 (``"unit"``), the lowest drawn precision gain floored to a
    quarter and bounded by :data:`PRG_FLOOR` (``"auto"``), or the given limits' lower end."""
    if isinstance(mode, tuple):
        return float(mode[0])
    if mode == "unit":
        return 0.0
    lowest = 0.0
    for c in curves:
        g = _prg(c)
        rg, pg = np.asarray(g.recall_gain), np.asarray(g.precision_gain)
        sel = (rg >= 0) & (rg <= 1) & np.isfinite(pg)
        if sel.any():
            lowest = min(lowest, float(pg[sel].min()))
    return max(PRG_FLOOR, float(np.floor(lowest * 4) / 4))


def _notice(ax: Axes, lines: list[str], head: str, *, where: str = "lower left") -> None:
    """Name in the panel what its axis cuts off (nothing is clipped silently)."""
    if lines:
        top = where.startswith("upper")
        ax.text(0.98 if where.endswith("right") else 0.02, 0.98 if top else 0.02,
                "\n".join([head, *(textwrap.shorten(t, 48, placeholder="...") for t in lines)]),
                transform=ax.transAxes, fontsize="x-small", va="top" if top else "bottom",
                ha="right" if where.endswith("right") else "left", color="0.15",
                bbox={"facecolor": "white", "alpha": 0.85, "lw": 0, "pad": 1})


def plot_curves(
    ax_roc: Axes | None,
    ax_pr: Axes | None,
    ax_prg: Axes | None,
    curves: Sequence[Curve],
    *,
    pr_ylim: str | tuple[float, float] = "auto",
    prg_ylim: str | tuple[float, float] = "auto",
    points: bool = False,
    legend: bool = False,
) -> list[dict[str, float]]:
    """Draw the ROC, PR and PRG curves of ``curves`` into the given axes (any may be None).

    All curves must share one task (the same positives): the PR panel's minimum PR curve and
    baseline are drawn for the ``pi`` of the first curve.  ``pr_ylim``: ``"auto"``
    (:func:`pr_axis_top`), ``"unit"`` or limits; ``prg_ylim``: ``"auto"`` (down to the lowest
    precision gain, at most -1), ``"unit"`` (the paper's square) or limits; what falls outside is
    named in the panel either way.  A ``label`` in a curve's style replaces the default legend
    label (name and area).  ``points`` marks the
    thresholds' PR and PRG points; ``legend`` puts a legend (label and area) under each panel.
    Returns :func:`prspace.metrics.all_metrics` of each curve, in order.
    """
    if not curves:
        raise ValueError("plot_curves needs at least one curve")
    scores = [M.all_metrics(c.y_true, c.y_score, sample_weight=c.weight) for c in curves]
    pi = scores[0]["pi"]
    if ax_roc is not None:
        ax_roc.plot([0, 1], [0, 1], color="0.6", lw=0.6, ls=":", label="random ranking")
        for i, (c, s) in enumerate(zip(curves, scores, strict=True)):
            roc = M.roc_curve(c.y_true, c.y_score, sample_weight=c.weight)
            ax_roc.plot(roc.fpr, roc.tpr, **_line(i, c, f"{c.label} ({s['auroc']:.3f})"))
        _unit_axes(ax_roc, "false positive rate", "true positive rate", "ROC")
    if ax_pr is not None:
        top = pr_axis_top(curves, pi) if pr_ylim == "auto" else 1.01 if pr_ylim == "unit" else float(pr_ylim[1])
        bottom = 0.0 if isinstance(pr_ylim, str) else float(pr_ylim[0])
        mp = M.min_pr_curve(pi, np.linspace(0, 1, 201))
        ax_pr.fill_between(mp.recall, 0, mp.precision, color="0.88", lw=0, label="unachievable region")
        ax_pr.plot(mp.recall, mp.precision, color="0.45", lw=0.7, label=f"minimum PR curve ({float(M.aupr_min(pi)):.3f})")
        ax_pr.axhline(pi, color="0.45", lw=0.7, ls=":", label=f"baseline pi = {pi:.3f}")
        for i, (c, s) in enumerate(zip(curves, scores, strict=True)):
            pr, dense = _dense_pr(c)
            st = _line(i, c, f"{c.label} ({s['aupr']:.3f})")
            ax_pr.plot(dense.recall, dense.precision, **st)
            if points:
                ax_pr.plot(pr.recall, pr.precision, "o", color=st["color"], ms=2.5)
        _unit_axes(ax_pr, "recall", "precision", "PR", (bottom, top))
        # what is cut is at low recall, on the left: the notice goes top right
        _notice(ax_pr, pr_clipping(curves, top), f"not shown above {top:.2f}:", where="upper right")
    if ax_prg is not None:
        bottom = prg_axis_bottom(curves, prg_ylim)
        top = 1.01 if isinstance(prg_ylim, str) else float(prg_ylim[1])
        ax_prg.plot([0, 1], [1, 0], color="0.6", lw=0.6, ls=":", label="always-positive baseline (FG1 = 1/2)")
        if bottom < 0:
            ax_prg.axhline(0, color="0.6", lw=0.5)
        for i, (c, s) in enumerate(zip(curves, scores, strict=True)):
            g = _prg(c)
            rg, pg = np.asarray(g.recall_gain), np.asarray(g.precision_gain)
            keep = rg >= 0  # prg_curve has a point at recall gain 0: the drawn curve starts there
            st = _line(i, c, f"{c.label} ({s['auprg']:.3f})")
            ax_prg.plot(rg[keep], np.maximum(pg[keep], -1e6), **st)
            if points:
                ax_prg.plot(rg[keep], pg[keep], "o", color=st["color"], ms=2.5)
        _unit_axes(ax_prg, "recall gain", "precision gain", "PRG", (bottom, top))
        _notice(ax_prg, prg_clipping(curves, bottom), f"not shown below {bottom:g}:")
    if legend:
        for ax in (ax_roc, ax_pr, ax_prg):
            if ax is not None:
                ax.legend(fontsize=6.5, loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False,
                          ncol=2 if len(curves) > 8 else 1)
    return scores


def curves_figure(curves: Sequence[Curve], *, title: str = "", note: str = "",
                  pr_ylim: str | tuple[float, float] = "auto", prg_ylim: str | tuple[float, float] = "unit") -> Figure:
    """A 2 x 2 column-width figure: ROC, PR, PRG and a panel listing the areas."""
    with style():
        fig = Figure(figsize=(COLUMN_WIDTH, 4.0), layout="constrained")
        axes = fig.subplots(2, 2)
        scores = plot_curves(axes[0, 0], axes[0, 1], axes[1, 0], curves, pr_ylim=pr_ylim, prg_ylim=prg_ylim)
        ax = axes[1, 1]
        ax.set_axis_off()
        y = 1.0
        for i, (c, s) in enumerate(zip(curves, scores, strict=True)):
            st = _style_for(i, c)
            ax.plot([0.0, 0.14], [y - 0.04] * 2, transform=ax.transAxes, color=st["color"], ls=st["ls"], lw=1.2,
                    clip_on=False)
            ax.text(0.18, y, c.label, transform=ax.transAxes, va="top", fontsize=6)
            n_lines = c.label.count("\n") + 1
            ax.text(0.18, y - 0.085 * n_lines, f"AUROC {s['auroc']:.3f}\nAUPR  {s['aupr']:.3f}\nAUPRG {s['auprg']:.3f}",
                    transform=ax.transAxes, va="top", fontsize=6, family="monospace")
            y -= 0.085 * n_lines + 0.3
        ax.plot([0.0, 0.14], [y - 0.035] * 2, transform=ax.transAxes, color="0.45", lw=0.7, clip_on=False)
        ax.text(0.18, y, "minimum PR curve", transform=ax.transAxes, va="top", fontsize=5.5)
        ax.plot([0.0, 0.14], [y - 0.115] * 2, transform=ax.transAxes, color="0.45", lw=0.7, ls=":", clip_on=False)
        ax.text(0.18, y - 0.08, f"baseline pi = {scores[0]['pi']:.3f}", transform=ax.transAxes, va="top", fontsize=5.5)
        if title:
            fig.suptitle(textwrap.fill(title, 70), fontsize=6.5)
        if note:
            fig.supxlabel(textwrap.fill(note, 95), fontsize=4.8, color="0.3")
    return fig
