"""Lines of the audit's reports that stand outside the per-task tables: the columns and rows used,
what the AUROCs allow, the definitions (of the metrics and of the intervals the tables show), and the size at which the HTML report shows a figure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from prspace.audit.audit_numbers import fmt
from prspace.audit.inference.bounds import BOUND_METRICS
from prspace.audit.inference.coverage import TARGET
from prspace.audit.inference.tables import LABELS
from prspace.audit.inference.uncertainty import shown_method
from prspace.audit.intake.inputs import SINGLE_TASK
from prspace.core.output import DPI
from prspace.stats.replicates import BOOT_METRICS

if TYPE_CHECKING:
    from prspace.audit.audit_record import AuditRecord


def _one_line(text: object) -> str:
    return " ".join(str(text).splitlines())


def column_lines(res: AuditRecord) -> list[str]:
    """The lines that account for every input column, then the rows dropped to pair the models."""
    out = list(res.columns or [])
    by_task: dict[str, list[dict]] = {}
    for d in res.dropped or []:
        by_task.setdefault(d["task"], []).append(d)
    for task, rows in by_task.items():
        where = f"task {_one_line(task)}: " if task != SINGLE_TASK else ""
        lost = ", ".join(f"{d['n_dropped']} of {_one_line(d['model'])}" for d in rows if d["n_dropped"])
        out.append(f"{where}paired on the {rows[0]['n_shared']} rows every model scored; dropped {lost} "
                   "(rows-dropped below)")
    return out


#: The title of the per-task lines of :func:`bound_lines`.
BOUNDS_TITLE = ("What the AUROCs allow (Mihelich et al. 2024; the range of each metric at a given AUROC and skew; "
                "every pair in auroc_bounds.csv):")


def bound_lines(table: pd.DataFrame | None, task: str, *, most: int = 3) -> list[str]:
    """Per metric: how large an AUROC lead must be to fix the metric's order (the models' ``max_flip_gap``),
    against the largest AUROC gap of the task, and the pairs whose order it fixes.

    At a given AUROC a model's AUPR (AP, AUPRG) can lie almost anywhere between its floor and 1: AUROC
    counts every positive's place alike, AUPR is decided by the top of the ranking.  So only AUROC gaps
    beyond ``max_flip_gap`` (about 0.6 at pi = 0.1) fix the order, and most audits' pairs stay open:
    the line says so with the two numbers, not only the count."""
    if table is None or not len(table):
        return []
    t = table[table["task"] == task]
    lines = []
    for col in BOUND_METRICS:
        g = t[t["metric"] == col]
        if not len(g):
            continue
        lab = LABELS[col]
        n_can, n_flip = int(g["can_flip"].sum()), int(g["flipped"].sum())
        need = g["max_flip_gap"].dropna()
        need_text = (f"beyond {fmt(need.min())}" if need.min() == need.max() or len(need) < 2 else
                     f"beyond {fmt(need.min())} to {fmt(need.max())} (by the leader's AUROC)") if len(need) else ""
        widest = fmt(float(g["auroc_gap"].max()))
        head = f"{lab}: an AUROC lead fixes the {lab} order only {need_text}; " if need_text else f"{lab}: "
        if n_can == len(g):
            line = (f"{head}the largest AUROC gap here is {widest}, so the AUROCs leave the {lab} order of all "
                    f"{len(g)} pairs open ({n_flip} flipped in these data)")
        else:
            forced = g[~g["can_flip"]]
            shown = "; ".join(f"{r.model_a} > {r.model_b}" for r in forced.head(most).itertuples())
            line = (f"{head}the AUROCs leave {n_can} of {len(g)} pairs open ({n_flip} flipped in these data) and fix "
                    f"{len(forced)}: {shown}" + (" ..." if len(forced) > most else ""))
        lines.append(line)
    return lines


#: The metrics' definitions, first of the section "Definitions" of the Markdown and HTML reports.
DEFINITIONS = ("AUPR uses hyperbolic (exact) interpolation between PR points; AP is the step-wise average precision; "
               "AUPR_MIN = 1 + (1 - pi) ln(1 - pi) / pi is the smallest AUPR any ranking can have at skew pi; AUCNPR = "
               "(AUPR - AUPR_MIN) / (1 - AUPR_MIN) (Boyd et al. 2012); AUPRG is the area under the "
               "Precision-Recall-Gain curve (Flach & Kull 2015).")

#: What each interval method of the tables is (the names of ``intervals.csv``'s ``method``).
METHOD_TEXT = {
    "DeLong (logit)": "DeLong et al. (1988)'s variance by Sun & Xu (2014)'s algorithm, normal interval on the logit "
                      "scale (inside (0, 1))",
    "DeLong": "DeLong et al. (1988)'s variance by Sun & Xu (2014)'s algorithm, normal interval clipped to [0, 1]",
    "jackknife-t": "class-stratified jackknife on the logit scale (AUPRG on its own scale), Student t interval",
    "bootstrap": "bootstrap within class (folds ignored), percentile interval",
}
#: The width (CSS px) the HTML report leaves beside a figure for a scrollbar, so the page never scrolls sideways.
FIGURE_MARGIN = 32


def definitions(res: AuditRecord) -> list[str]:
    """The section "Definitions": the metrics, then the interval methods the tables actually show
    (:func:`prspace.audit.inference.uncertainty.shown_method`, per metric, over the tasks), the metrics shown
    without one, and how the paired comparisons are decided."""
    out = [DEFINITIONS]
    by_method: dict[str, list[str]] = {}
    bare = []
    tasks = sorted(res.pooled["task"].unique())
    for metric in BOOT_METRICS:
        used = {shown_method(res.intervals, t, metric) for t in tasks} if len(res.intervals) else {None}
        for method in sorted(m for m in used if m):
            by_method.setdefault(method, []).append(LABELS[metric])
        if None in used:
            bare.append(LABELS[metric])
    if by_method:
        out.append(f"Intervals in the tables ({res.confidence:.0%}): per metric the first method whose simulated "
                   f"coverage at the task's size and skew is at least {TARGET:.0%} (docs/calibration.md): "
                   + "; ".join(f"{', '.join(ms)}: {m}, {METHOD_TEXT.get(m, m)}" for m, ms in by_method.items()) + ".")
    if bare:
        out.append(f"No interval shown for {', '.join(bare)}" + (" on some tasks" if by_method else "")
                   + ": no method's simulated coverage reaches the target there (the sentence under the table says "
                     "how much the best one covers).")
    out.append("Every method's interval, calibrated or not, is in intervals.csv (for AUPR also the logit and binomial "
               "intervals of Boyd, Eng & Page 2013).")
    boot = f", on {res.n_boot} paired resamples" if res.n_boot else ""
    out.append(f"Paired comparisons: whether a difference is beyond noise is decided per metric by one procedure "
               f"comparing all pairs at family-wise error {1 - res.confidence:.0%} (DeLong-Holm, jackknife-Holm or "
               f"the bootstrap max-T{boot}; named in each line), or \"cannot be told\" where none is calibrated; "
               "the unadjusted DeLong paired test (AUROC) and paired bootstrap are in comparisons.csv. "
               "See prspace.audit for how each finding is defined.")
    return out


def png_dpi(png: bytes) -> float:
    """The resolution a PNG says it was drawn at (its ``pHYs`` chunk, pixels per metre, as matplotlib writes it
    after the header), else :data:`prspace.core.output.DPI`."""
    at = png.find(b"pHYs", 12, 64)
    if at < 0 or len(png) < at + 13 or png[at + 12] != 1:  # unit 1: the metre
        return float(DPI)
    per_metre = int.from_bytes(png[at + 4 : at + 8], "big")
    return round(per_metre * 0.0254, 1) if per_metre else float(DPI)


def figure_width(png: bytes) -> int | None:
    """The CSS width (px) at which a PNG shows its true size (96 CSS px per inch, so a 7-point label is 9 px
    high), from the PNG header and its resolution (:func:`png_dpi`); None if ``png`` is not a PNG.  A browser
    scaling a 3000-pixel figure into a 1000-pixel column would shrink its legends to 3-point type."""
    if len(png) < 24 or png[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return round(int.from_bytes(png[16:20], "big") * 96 / png_dpi(png))
