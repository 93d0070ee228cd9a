"""The audit's figures: the models' curves (through :mod:`prspace.figures.curves`) and intervals.

With many models the curves figure draws the top :data:`TOP_K` by AUPR and says so in
its title (200 curves in one panel are unreadable); the intervals figure shows every
model (up to :data:`MAX_INTERVAL_MODELS`, best by AUPR first).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.colors import to_hex
from matplotlib.figure import Figure

from prspace.audit.audit_numbers import count, fmt, percents
from prspace.audit.inference.audit_bands import band_coverage, band_shown
from prspace.audit.inference.coverage import TARGET
from prspace.audit.inference.tables import LABELS, RANKED
from prspace.audit.inference.uncertainty import shown_method
from prspace.figures.curves import Curve, CurvePoints, draw_curves, known_points, min_pr_at

if TYPE_CHECKING:
    from prspace.audit.audit_record import AuditRecord

#: Tasks drawn at most (one row of three panels each).
MAX_FIGURE_TASKS = 4
#: Models drawn per task at most, the best by AUPR.
TOP_K = 10
MAX_INTERVAL_MODELS = 40
#: Points drawn per curve at most: a curve of more thresholds (a million distinct scores) is drawn through this many
#: of its points, evenly spaced along it, ends kept (:func:`binned`); the areas and tables use every threshold.
MAX_CURVE_POINTS = 4000
#: Resolution of the report's figures (dots per inch; 15-inch figures, shown at 96 CSS px per inch, so about one
#: pixel per CSS pixel): the studies' figures keep :data:`prspace.core.output.DPI`.
DPI = 100
STYLES = ("-", "--", "-.", ":")
#: Height of a line of 10-point text (titles, tick labels), inches; the pad between an Axes and its title.
LINE = 10 * 1.2 / 72
TITLE_PAD = 6 / 72
#: Below a panel: its tick labels and its x label (10 points each, with matplotlib's ticks and pads), inches.
BELOW_PANEL = 0.5
#: Left of a panel: its tick labels ("0.0") and its y label, inches.
LEFT_OF_PANEL = 0.62


def _title_height(axes) -> float:
    """Inches taken above the tallest title of ``axes`` (its lines of 10-point text and the pad)."""
    return max(len(ax.get_title().split("\n")) for ax in axes) * LINE + TITLE_PAD


def _below_suptitle(fig: Figure) -> float:
    """Inches from the top of ``fig`` to below its suptitle (placed at 98% of the height, 10-point lines)."""
    title = fig.get_suptitle()
    return 0.02 * fig.get_figheight() + len(title.split("\n")) * LINE + 0.1 if title else 0.1


def _place(fig: Figure, grid, n_rows: int, n_cols: int, *, left: float, right: float, top: float, bottom: float,
           hgap: float, wgap: float) -> None:
    """Lay ``grid`` out by margins and gaps in inches, computed from the text each side holds, instead of
    :meth:`~matplotlib.figure.Figure.tight_layout`, which measures every tick label of every Axes (a quarter of
    the figures' time); ``hgap``/``wgap``: between rows / columns (one for all, as tight_layout's)."""
    width, height = fig.get_size_inches()
    cell_h = (height - top - bottom - (n_rows - 1) * hgap) / n_rows
    cell_w = (width - left - right - (n_cols - 1) * wgap) / n_cols
    grid.update(left=left / width, right=1 - right / width, top=1 - top / height, bottom=bottom / height,
                hspace=hgap / cell_h if n_rows > 1 else 0.0, wspace=wgap / cell_w if n_cols > 1 else 0.0)
    for ax in fig.axes:  # the Axes made before the update take their places on the grid
        spec = ax.get_subplotspec()
        if spec is not None and spec.get_gridspec() is grid:
            ax.set_position(spec.get_position(fig))


def model_styles(res: AuditRecord) -> dict[str, dict[str, str]]:
    """One colour and line style per model for every figure of a report: from the sorted model ids of
    the whole result (not per task, not by rank), so a model looks the same in every panel."""
    models = sorted(res.pooled["model"].astype(str).unique())
    # "C3" resolved once: matplotlib looks the colour cycle up again for every artist given "C3" (a third of a
    # second a report); the same colour
    colours = [to_hex(f"C{i}") for i in range(10)]
    return {m: {"color": colours[i % 10], "ls": STYLES[(i // 10) % len(STYLES)]} for i, m in enumerate(models)}


def _thin(xy: tuple[np.ndarray, np.ndarray], most: int) -> tuple[np.ndarray, np.ndarray]:
    x, y = xy
    if len(x) <= most:
        return xy
    keep = np.unique(np.linspace(0, len(x) - 1, most).round().astype(np.int64))
    return x[keep], y[keep]


def binned(points: CurvePoints, most: int = MAX_CURVE_POINTS) -> CurvePoints:
    """``points`` with each curve cut down to at most ``most`` of its points, evenly spaced along it, first and
    last kept (a figure 15 inches wide shows no more), when the model has more than ``most`` thresholds; else
    unchanged (the interpolated PR curve of fewer thresholds included)."""
    if len(points.roc[0]) <= most:
        return points
    return dataclasses.replace(points, roc=_thin(points.roc, most), pr=_thin(points.pr, most),
                               pr_dense=_thin(points.pr_dense, most), prg=_thin(points.prg, most))


def _label(name: str, width: int = 28) -> str:
    name = " ".join(str(name).splitlines())
    return name if len(name) <= width else name[: width - 1] + "…"


def curves_figure(res: AuditRecord, *, max_tasks: int = MAX_FIGURE_TASKS, top_k: int = TOP_K) -> Figure:
    """One row per task: ROC, PR and PRG curves of (at most ``top_k``) models."""
    tasks = sorted(res.pooled["task"].unique())[:max_tasks]
    shown_max = min(top_k, int(res.pooled.groupby("task")["model"].nunique().max()))
    legend_rows = -(-(shown_max + 2) // 2)  # two columns: the models, the minimum PR curve and pi
    legend_height = 0.3 + 0.16 * legend_rows
    fig = Figure(figsize=(15, (4.6 + legend_height) * len(tasks)))
    grid = fig.add_gridspec(2 * len(tasks), 3, height_ratios=[4.6, legend_height] * len(tasks))
    notes = []
    styles = model_styles(res)
    for i, task in enumerate(tasks):
        row = [fig.add_subplot(grid[2 * i, j]) for j in range(3)]
        legend_ax = fig.add_subplot(grid[2 * i + 1, :])
        legend_ax.set_axis_off()
        table = res.pooled[res.pooled["task"] == task].sort_values(["aupr", "model"], ascending=[False, True])
        shown = table["model"].tolist()[:top_k]
        if len(table) > top_k:
            where = f"{_label(task)}: " if res.pooled["task"].nunique() > 1 else ""
            notes.append(f"{where}top {top_k} of {len(table)} models by AUPR drawn")
        points, min_pr = [], None
        in_task = res.data["task"] == task
        for model in shown:  # one model's rows and whole curves at a time, cut down before the next (the peak memory)
            g = res.data.loc[in_task & (res.data["model"] == model), ["y", "score", "weight"]]
            r = table.set_index("model").loc[model]
            style = {**styles[str(model)], "lw": 1.4,
                     "label": f"{_label(model)} (AUROC {fmt(r['auroc'])}, AUPR {fmt(r['aupr'])}, "
                              f"AUPRG {fmt(r['auprg'])})"}
            curve = Curve(str(model), g["y"].to_numpy(), g["score"].to_numpy(), style, g["weight"].to_numpy())
            del g
            whole = known_points(curve, r)  # the areas and pi from the pooled table: no metric computed again
            del curve
            points.append(binned(whole))
            del whole
            min_pr = min_pr_at(float(r["pi"])) if min_pr is None else min_pr  # the first model's pi, as before
        draw_curves(*row, points, min_pr)
        prefix = f"{_label(task)}: " if len(tasks) > 1 else ""
        for ax in row:
            ax.set_title(prefix + ax.get_title(), fontsize=10)
        legend_ax.legend(*row[1].get_legend_handles_labels(), fontsize=7.5, loc="upper center", ncol=2,
                         frameon=False)
    more = res.pooled["task"].nunique() - len(tasks)
    if more > 0:
        notes.append(f"{more} more task(s) not drawn")
    fig.suptitle("Pooled test predictions" + (" (" + "; ".join(notes) + ")" if notes else ""), fontsize=10)
    titled = [ax for ax in fig.axes if ax.get_title()]
    _place(fig, grid, 2 * len(tasks), 3, left=LEFT_OF_PANEL - 0.1, right=0.15, top=_below_suptitle(fig) + _title_height(titled[:3]),
           bottom=0.3, hgap=max(BELOW_PANEL, _title_height(titled) + 0.1), wgap=LEFT_OF_PANEL + 0.1)
    return fig


def intervals_figure(res: AuditRecord, *, max_tasks: int = MAX_FIGURE_TASKS * 3) -> Figure:
    """One row per task (up to ``max_tasks``): per metric, each model's estimate and the interval the
    tables show (:func:`prspace.audit.inference.uncertainty.shown_method`: the calibrated method; none: a bare
    point), each model in its colour of :func:`model_styles`."""
    all_tasks = sorted(res.pooled["task"].unique())
    tasks = all_tasks[:max_tasks]
    styles = model_styles(res)
    sizes = [min(MAX_INTERVAL_MODELS, int((res.pooled["task"] == t).sum())) for t in tasks]
    heights = [0.9 + 0.28 * n for n in sizes]
    fig = Figure(figsize=(15, 0.6 + sum(heights)))
    axes = fig.subplots(len(tasks), len(RANKED), squeeze=False, gridspec_kw={"height_ratios": heights})
    multi = len(all_tasks) > 1
    for row, task in zip(axes, tasks, strict=True):
        table = res.pooled[res.pooled["task"] == task].sort_values(["aupr", "model"], ascending=[False, True])
        models = table["model"].tolist()[:MAX_INTERVAL_MODELS]
        y = np.arange(len(models))[::-1]
        for ax, metric in zip(row, RANKED, strict=True):
            iv = res.intervals[(res.intervals["task"] == task) & (res.intervals["metric"] == metric)]
            method = shown_method(res.intervals, task, metric) if len(res.intervals) else None
            iv = iv[iv["method"] == method].set_index("model")
            est = table.set_index("model").loc[models, metric].to_numpy(np.float64)
            lo = np.array([iv["lo"].get(m, np.nan) for m in models], dtype=np.float64)
            hi = np.array([iv["hi"].get(m, np.nan) for m in models], dtype=np.float64)
            for k, model in enumerate(models):
                colour = styles[str(model)]["color"]
                err = [[est[k] - (est[k] if np.isnan(lo[k]) else lo[k])], [(est[k] if np.isnan(hi[k]) else hi[k]) - est[k]]]
                ax.errorbar([est[k]], [y[k]], xerr=err, fmt="o", ms=4, color=colour, ecolor=colour, capsize=2, lw=1.2)
            title = f"{LABELS[metric]} ({method or 'no calibrated interval'})"
            if multi:
                title = f"{_label(task, 20)}: {title}"
            ax.set_title(title, fontsize=9)
            ax.grid(True, axis="x", lw=0.3, alpha=0.6)
            ax.set_yticks(y, [_label(m) for m in models] if metric == RANKED[0] else [], fontsize=7)
            ax.set_ylim(-0.7, len(models) - 0.3)
        if len(table) > len(models):
            row[0].set_ylabel(f"best {len(models)} of {len(table)} by AUPR", fontsize=7)
    note = f"; {len(all_tasks) - len(tasks)} more task(s) in intervals.csv" if len(all_tasks) > len(tasks) else ""
    fig.suptitle(f"{res.confidence:.0%} intervals, one row per task{note}" if multi
                 else f"{res.confidence:.0%} intervals", fontsize=10)
    fig.tight_layout()
    return fig


#: The bands figure's panels: curve, x label, y label, title.
BAND_PANELS = (("roc", "false positive rate", "true positive rate", "ROC"),
               ("pr", "recall", "precision", "PR"),
               ("prg", "recall gain", "precision gain", "PRG"))


def bands_figure(res: AuditRecord, bands: dict) -> Figure:
    """One row per task: the ROC, PR and PRG curves (left to right) of the top models
    (:func:`prspace.audit.inference.audit_bands.shown`) on the grids of :mod:`prspace.stats.bands`, each with its simultaneous
    band shaded, in the model's colour of :func:`model_styles` (the pointwise bands are in ``bands.csv``);
    dotted: the random classifier (ROC) and the baseline pi (PR).  ``bands``: (task, model) -> curve -> band."""
    tasks = sorted({task for task, _ in bands}) or sorted(res.pooled["task"].unique())[:1]
    styles = model_styles(res)
    drawn = max((sum(t == task for t, _ in bands) for task in tasks), default=0)
    legend_height = 0.35 + 0.2 * (-(-(drawn + 1) // 2))  # two columns: the models and pi
    fig = Figure(figsize=(15, (4.6 + legend_height) * len(tasks) + 0.5))
    grid = fig.add_gridspec(2 * len(tasks), 3, height_ratios=[4.6, legend_height] * len(tasks))
    first = next(iter(bands.values()), {})
    level = first["pr"].level if "pr" in first else res.confidence
    n_res = first["pr"].n_resamples if "pr" in first else res.n_boot
    for i, task in enumerate(tasks):
        row = [fig.add_subplot(grid[2 * i, j]) for j in range(len(BAND_PANELS))]
        legend_ax = fig.add_subplot(grid[2 * i + 1, :])
        legend_ax.set_axis_off()
        _band_row(res, bands, task, row, styles, f"{_label(task)}: " if len(tasks) > 1 else "")
        legend_ax.legend(*row[1].get_legend_handles_labels(), fontsize=8, loc="upper center", ncol=2,
                         frameon=False)
    more = int(res.pooled.groupby("task")["model"].nunique().max()) > drawn
    which = f"the top {drawn} models by AUPR" if more else "all models"
    hidden = res.pooled["task"].nunique() - len(tasks)
    if hidden > 0 and bands:
        which += f"; {hidden} more task(s) not drawn"
    how = "within class" if res.group_col is None else f"of whole groups of {res.group_col!r}"
    fig.suptitle(f"ROC, PR and PRG curves on a grid with bootstrap bands ({which}; {n_res} resamples {how})\n"
                 f"shaded: {level:.0%} simultaneous band, drawn only where its simulated coverage of the whole curve "
                 f"is at least {TARGET:.0%} (docs/calibration.md)", fontsize=10)
    titled = [ax for ax in fig.axes if ax.get_title()]
    _place(fig, grid, 2 * len(tasks), len(BAND_PANELS), left=LEFT_OF_PANEL, right=0.25,
           top=_below_suptitle(fig) + _title_height(titled[:len(BAND_PANELS)]), bottom=0.1,
           hgap=max(BELOW_PANEL, _title_height(titled) + 0.1), wgap=LEFT_OF_PANEL + 0.15)
    return fig


def _band_row(res: AuditRecord, bands: dict, task: str, row: list, styles: dict, prefix: str) -> None:
    """One task's row of :func:`bands_figure`: each drawn model's curves and shaded bands, the reference lines, and
    each panel's axes and title."""
    pooled = res.pooled[res.pooled["task"] == task].set_index("model")
    models = [m for t, m in bands if t == task]
    low = 0.0
    n_pos = float(pooled["n_pos"].iloc[0]) if len(pooled) else 0.0
    n = n_pos + (float(pooled["n_neg"].iloc[0]) if len(pooled) else 0.0)
    groups = res.n_groups(task)
    for model in models:
        style = styles[str(model)]
        for ax, (curve, *_) in zip(row, BAND_PANELS, strict=True):
            b = bands[(task, model)][curve]
            if band_shown(curve, n_pos, n, n_groups=groups):
                ax.fill_between(b.grid, b.sim_lo, b.sim_hi, color=style["color"], alpha=0.15, lw=0)
            ax.plot(b.grid, b.estimate, color=style["color"], ls=style["ls"], lw=1.6,
                    label=f"{_label(model)} (AUROC {fmt(pooled.loc[model, 'auroc'])}, "
                          f"AUPR {fmt(pooled.loc[model, 'aupr'])}, AUPRG {fmt(pooled.loc[model, 'auprg'])})")
            if curve == "prg":
                low = min(low, float(np.min(b.sim_lo)))
    roc, pr, prg = row
    roc.plot([0, 1], [0, 1], color="0.45", lw=0.7, ls=":")
    if models:
        pi = float(pooled.loc[models[0], "pi"])
        pr.axhline(pi, color="0.45", lw=0.7, ls=":", label=f"baseline pi = {pi:.3f}")
    prg.axhline(0, color="0.6", lw=0.5)
    for ax, (curve, xlabel, ylabel, title) in zip(row, BAND_PANELS, strict=True):
        bottom = max(low, -1.0) if curve == "prg" else 0.0
        ax.set_xlim(0, 1)
        ax.set_ylim(min(bottom, 0.0) - 0.02, 1.02)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        note = "" if not models else _no_band_note(curve, n_pos, n, groups)
        ax.set_title(prefix + title + note, fontsize=10)
        ax.grid(True, lw=0.3, alpha=0.6)


def _no_band_note(curve: str, n_pos: float, n: float, groups: int | None) -> str:
    """Why a panel of :func:`bands_figure` has no shaded band (its coverage not calibrated, or below the target at
    the calibrated size nearest the task); empty when it has one."""
    if band_shown(curve, n_pos, n, n_groups=groups):
        return ""
    cov, _, cell_pi, cell = band_coverage(curve, n_pos, n, n_groups=groups)
    if groups is None:
        here, there = f"{count(n_pos)} positives, pi {n_pos / n:.3g}", f"{cell} positives, pi {cell_pi:g}"
        same = int(round(n_pos)) == cell and abs(n_pos / n - cell_pi) < 5e-4
    else:
        here, there, same = f"{groups} groups", f"{cell} groups", groups == cell
    covers = f"it covers {percents(cov, TARGET)[0]} in simulation"
    return ("\nno band: its coverage is not calibrated here" if cov != cov else
            f"\nno band: with {here} {covers}" if same else
            f"\nno band: at {there}, {covers}\n(the calibrated size nearest this task's {here})")
