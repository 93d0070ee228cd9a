"""The audit's reports: terminal text, Markdown and one self-contained HTML file.

All three show the same things in the same order: the columns, the headline (Markdown and HTML:
then the figures, so that a reader sees them in the first screens), the findings, per task the
pooled metrics with their intervals, the fold means, the ranks, the disagreement sentences
(each with its noise floor), the paired comparisons that decide the best model (Markdown and
HTML; every pair in the CSVs), every AUPR estimator, then across tasks the critical-difference
analysis; Markdown and HTML add the table of which estimator popular tools compute and the
definitions of the metrics and of the intervals shown.

One module (about 490 lines) on purpose: the three formats must show the same sections in the
same order, and keeping their three functions side by side is how a section added to one
reaches the others.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import html
import textwrap
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pandas as pd

from prspace.audit.audit_numbers import column, count, difference, fmt, p_text, percents
from prspace.audit.inference.audit_cd import CAPTION as CD_CAPTION
from prspace.audit.inference.audit_cd import cd_lines
from prspace.audit.inference.audit_pairwise import SHORT, survival_lines
from prspace.audit.inference.audit_ranksets import plausible_best_lines
from prspace.audit.inference.coverage import TARGET
from prspace.audit.inference.decision import CANNOT
from prspace.audit.inference.grouping import group_counts
from prspace.audit.inference.tables import ESTIMATOR_LABELS, LABELS, RANKED
from prspace.audit.inference.uncertainty import comparison, headline_interval, interval_lines
from prspace.audit.intake.inputs import SINGLE_TASK
from prspace.audit.report.audit_headline import headline
from prspace.audit.report.lines import (
    BOUNDS_TITLE,
    FIGURE_MARGIN,
    bound_lines,
    column_lines,
    definitions,
    figure_width,
)
from prspace.audit.report.tools import tools_table
from prspace.core import registry as R
from prspace.core.output import to_markdown

if TYPE_CHECKING:
    from prspace.audit.audit_record import AuditRecord

#: The pieces computed so far while :func:`shared` is open (None: closed, every call computes).
_SHARED: dict[tuple, tuple[tuple, Any]] | None = None


@contextlib.contextmanager
def shared() -> Iterator[None]:
    """Reports of one result rendered together (``prspace audit --out``: the text, the Markdown and the HTML) compute
    their common pieces (the headline, the tables' frames, the sentences) once: within this block each
    :func:`_once` function called again with the same arguments (the same objects) returns what it returned the
    first time.  The result must not change inside the block; outside it nothing is kept."""
    global _SHARED
    if _SHARED is not None:  # nested: the outer block keeps the pieces
        yield
        return
    _SHARED = {}
    try:
        yield
    finally:
        _SHARED = None


def _once(f: Callable) -> Callable:
    """``f`` computed once per arguments while :func:`shared` is open (the arguments are the same objects)."""

    @functools.wraps(f)
    def cached(*args: Any, **kw: Any) -> Any:
        if _SHARED is None:
            return f(*args, **kw)
        key = (f, *(a if isinstance(a, str | int | float | type(None)) else id(a) for a in args), *sorted(kw.items()))
        if key not in _SHARED:
            _SHARED[key] = (args, f(*args, **kw))  # the arguments kept: their ids stay theirs
        return _SHARED[key][1]

    return cached


# the pieces every report shows, from other modules
headline, column_lines, definitions, interval_lines, survival_lines, plausible_best_lines, bound_lines, cd_lines = (
    _once(f) for f in (headline, column_lines, definitions, interval_lines, survival_lines, plausible_best_lines,
                       bound_lines, cd_lines))

POOLED = tuple(c for m in RANKED for c in ((m, "aupr_min") if m == "aupr" else (m,)))  # AUPR_MIN beside AUPR
FIGURE_CAPTIONS = {
    "curves": "ROC (left; dotted: random), PR (middle; the shaded region below the minimum PR curve of Boyd et "
              "al. 2012 is unachievable; dotted: pi) and PRG (right; the always-positive baseline of Flach & "
              "Kull 2015 is the minor diagonal) curves on the pooled test rows.",
    "intervals": "Each model's metrics with the interval the tables show (the calibrated method named in each "
                 f"panel's title; a bare point: no method's simulated coverage reaches {TARGET:.0%} at this size and "
                 "skew).",
    "bands": "ROC (left; dotted: random), PR (middle; dotted horizontal: pi) and PRG (right) curves of the top "
             "models on a grid, each with its simultaneous bootstrap band where calibrated (shaded: its simulated "
             f"coverage of the whole curve on the grid is at least {TARGET:.0%}; a panel without a band says how much "
             "it covers); "
             "the values and the pointwise bands in bands.csv.",
}
FIGURE_ALT = {"curves": "ROC, PR and PRG curves of the models", "intervals": "intervals of each model's metrics",
              "bands": "ROC, PR and PRG curves of the top models with their bootstrap bands",
              R.FIGURE_CD_DIAGRAM.name: "critical-difference diagrams of the models across tasks, one per metric"}
FIGURE_CAPTIONS[R.FIGURE_CD_DIAGRAM.name] = CD_CAPTION


def _fmt(x: float, digits: int = 3) -> str:
    return fmt(x, digits)


def _one_line(text: object) -> str:
    """A model or task name on one line (a newline in a name would break every report)."""
    return " ".join(str(text).splitlines())


def _cell(res: AuditRecord, task: str, model: str, metric: str, value: float, d: int = 3) -> str:
    ci = headline_interval(res.intervals, task, model, metric)
    return _fmt(value, d) if ci is None else f"{_fmt(value, d)} [{_fmt(ci[0], d)}, {_fmt(ci[1], d)}]"


@_once
def pooled_frame(res: AuditRecord, task: str) -> pd.DataFrame:
    """Pooled metrics per model; each column with the decimals that tell its differing values apart."""
    g = res.pooled[res.pooled["task"] == task]
    d = {c: column(g[c].to_numpy()) for c in POOLED}
    rows = [{"model": _one_line(r["model"]),
             **{LABELS[c]: (_fmt(r[c], d[c]) if c == "aupr_min" else _cell(res, task, r["model"], c, r[c], d[c]))
                for c in POOLED}}
            for r in g.to_dict("records")]
    return pd.DataFrame(rows)


def fold_title(res: AuditRecord, task: str, pm: str = "±") -> str:
    """The title of the fold table; says when the models' folds differ (each model on its own folds)."""
    own = " (each model over its own folds, which differ between models: own-folds below)" \
        if (res.own_folds or {}).get(task) else ""
    return f"Mean {pm} standard deviation over folds{own}"


@_once
def fold_frame(res: AuditRecord, task: str, pm: str = "±") -> pd.DataFrame:
    g = res.fold_summary[res.fold_summary["task"] == task]
    d = {c: column(g[c + "_mean"].to_numpy()) for c in RANKED}
    return pd.DataFrame([{"model": _one_line(r["model"]),
                          **{LABELS[c]: f"{_fmt(r[c + '_mean'], d[c])} {pm} {_fmt(r[c + '_sd'], d[c])}" for c in RANKED}}
                         for r in g.to_dict("records")])


@_once
def rank_frame(res: AuditRecord, task: str) -> pd.DataFrame:
    g = res.ranks[res.ranks["task"] == task]
    return pd.DataFrame([{"model": _one_line(r["model"]), **{LABELS[c]: f"{r[c]:g}" for c in RANKED}}
                         for r in g.to_dict("records")])


@_once
def estimator_frame(res: AuditRecord, task: str) -> pd.DataFrame:
    g = res.estimators[res.estimators["task"] == task]
    d = {k: column(g[k].to_numpy()) for k in ESTIMATOR_LABELS}
    return pd.DataFrame([{"model": _one_line(r["model"]), **{v: _fmt(r[k], d[k]) for k, v in ESTIMATOR_LABELS.items()}}
                         for r in g.to_dict("records")])


#: Paired comparisons shown in the reports: per metric, the best model against this many next models by that
#: metric (the pairs that decide which model is best); every pair in comparisons.csv and pairwise.csv.
NEXT_COMPARED = 2


def comparisons_title(res: AuditRecord, task: str) -> str:
    """What the summarised paired table shows and where the rest is."""
    k = int((res.pooled["task"] == task).sum())
    return (f"Paired comparisons that decide the best model: per metric, the best model against the next "
            f"{min(NEXT_COMPARED, k - 1)} by that metric, by the procedure that decides the metric (simultaneous "
            f"{res.confidence:.0%} CI, adjusted p); all {k * (k - 1) // 2} pairs x {len(RANKED)} metrics, with the "
            "unadjusted tests, in comparisons.csv and pairwise.csv.")


@_once
def comparison_frame(res: AuditRecord, task: str) -> pd.DataFrame:
    """Per metric, the best model against the next :data:`NEXT_COMPARED` models by that metric: the
    difference, the deciding procedure's simultaneous interval and adjusted p, and whether it is beyond
    noise (:func:`prspace.audit.inference.uncertainty.comparison`)."""
    g = res.pooled[res.pooled["task"] == task]
    rows = []
    for metric in RANKED:
        order = g.sort_values([metric, "model"], ascending=[False, True], kind="stable")["model"].tolist()
        for other in order[1:1 + NEXT_COMPARED]:
            c = comparison(res.comparisons, task, metric, order[0], other)
            if c is None:
                continue
            diff, lo, hi = difference(c["diff"], c["lo"], c["hi"], sign=True)
            decided = c.get("decided_by", CANNOT) != CANNOT and "p_unadjusted" in c
            if decided:
                ci = f"{lo} to {hi}" if c.get("ci_shown", True) else \
                    f"not shown (covers {percents(c.get('simultaneous_coverage', 1.0), TARGET)[0]})"
                row = {"decided by": SHORT.get(c["decided_by"], c["decided_by"]), f"{res.confidence:.0%} simultaneous CI": ci,
                       "adjusted p": p_text(c['p_value']), "beyond noise": "yes" if c["distinguishable"] else "no"}
            else:
                row = {"decided by": CANNOT, f"{res.confidence:.0%} simultaneous CI": "", "adjusted p": "",
                       "beyond noise": "cannot be told"}
            rows.append({"metric": LABELS[metric], "best": _one_line(order[0]), "vs": _one_line(other),
                         "best - vs": diff, **row})
    return pd.DataFrame(rows)


@_once
def tools_frame() -> pd.DataFrame:
    t = tools_table()
    return t.assign(estimator=t["estimator"].map(ESTIMATOR_LABELS).fillna("none of the audit's estimators"))


#: How the plausible-best and the surviving-pairs titles name the procedures.
DECIDING = ("by the procedure that decides each metric at this size and skew (named per line); the others are "
            "cross-checks in pairwise.csv")


def _best_sets(res: AuditRecord, task: str) -> tuple[str, list[str]]:
    """The plausible-best sets: a title and one line per metric (none if not computed)."""
    lines = [_one_line(s) for s in plausible_best_lines(res.rank_sets, task)]
    title = (f"Plausible best ({res.confidence:.0%} confidence sets for ranks, all pairs compared simultaneously "
             f"{DECIDING}; every rank interval in rank_sets.csv):")
    return title, lines


def _surviving(res: AuditRecord, task: str) -> tuple[str, list[str]]:
    """Which differences survive the comparison of all pairs: a title and one line per metric and method."""
    lines = [_one_line(s) for s in survival_lines(res.pairwise, task)]
    title = (f"Differences that survive the comparison of all pairs (family-wise error {1 - res.confidence:.0%}, "
             f"{DECIDING}):")
    return title, lines


@_once
def _groups(res: AuditRecord, task: str) -> int | None:
    """The task's number of groups with ``--group-col`` (:mod:`prspace.audit.inference.grouping`), else None."""
    return group_counts(res.data).get(str(task)) if res.group_col else None


@_once
def _overview(res: AuditRecord) -> str:
    d = res.data
    n_models, n_tasks = d["model"].nunique(), d["task"].nunique()
    parts = [f"{len(d)} rows", f"{n_models} model{'s' if n_models != 1 else ''}",
             f"{n_tasks} task{'s' if n_tasks != 1 else ''}"]
    if res.has_folds and not any((res.own_folds or {}).values()):
        parts.append(f"{d['fold'].nunique()} folds")
    elif res.has_folds:
        per = d.groupby(["task", "model"])["fold"].nunique()
        parts.append(f"{per.min()} to {per.max()} folds per model (the models' own)" if per.min() != per.max()
                     else f"{per.max()} folds per model (the models' own)")
    boot = ("metrics only (no interval or test)" if res.metrics_only else
            f"{res.n_boot} bootstrap resamples" if res.n_boot else "no bootstrap")
    return ", ".join(parts) + f"; positive class: {res.positive}; {boot}"


@_once
def _task_header(res: AuditRecord, task: str) -> str:
    g = res.pooled[res.pooled["task"] == task].iloc[0]
    name = f"task {_one_line(task)}: " if res.pooled["task"].nunique() > 1 or task != SINGLE_TASK else ""
    return (f"{name}pi = {fmt(g['pi'])} ({count(g['n_pos'])} positives, {count(g['n_neg'])} negatives), "
            f"AUPR_MIN = {fmt(g['aupr_min'])}")


def _findings_lines(res: AuditRecord) -> list[str]:
    if not res.findings:
        return ["No warnings: none of the checks fired."]
    return [_one_line(f"{f.severity.upper()} [{f.code}]{' ' + f.where if f.where else ''}: {f.message}.")
            for f in res.findings]


# --------------------------------------------------------------------------- text


def _text_table(df: pd.DataFrame) -> str:
    if df.empty:
        return "  (none)"
    cols = [str(c) for c in df.columns]
    rows = [[str(v) for v in r] for r in df.itertuples(index=False)]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(cols)]

    def fmt(r: list[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))

    return "\n".join(["  " + fmt(cols), *("  " + fmt(r) for r in rows)])


def _wrap(text: str, first: str, rest: str, width: int = 100) -> str:
    return textwrap.fill(text, width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False,
                         break_long_words=False)


def _iv_note(res: AuditRecord, template: str) -> str:
    """What the pooled table's cells hold: ``template`` at the audit's confidence, or "(point estimates only:
    --metrics-only)"."""
    return "(point estimates only: --metrics-only)" if res.metrics_only else template.format(res.confidence)


def format_text(res: AuditRecord, source: str = "") -> str:
    """The terminal summary."""
    lines = [f"prspace audit{(' of ' + source) if source else ''}", f"  {_overview(res)}"]
    lines += [_wrap(c, "  ", "    ") for c in column_lines(res)] + ["", "Headline:"]
    lines += [_wrap(s, "  ", "  ") for s in headline(res)] + [""]
    for task in sorted(res.pooled["task"].unique()):
        lines += [_task_header(res, task), "Pooled metrics" + (" (all folds merged)" if res.has_folds else "")
                  + f" {_iv_note(res, '[{:.0%} interval where calibrated]')}:", _text_table(pooled_frame(res, task))]
        lines += [_wrap(s, "  ", "    ") for s in interval_lines(res.intervals, res.pooled, res.comparisons, task, n_groups=_groups(res, task))]
        if res.has_folds and len(res.fold_summary):
            lines += ["", _wrap(fold_title(res, task, "+-") + ":", "", "  "), _text_table(fold_frame(res, task, "+-"))]
        lines += ["", "Ranks (1 = best; ties share the average rank):", _text_table(rank_frame(res, task)), ""]
        title, best = _best_sets(res, task)
        if best:
            lines += [_wrap(title, "", "  ")] + [_wrap(b, "  - ", "    ") for b in best] + [""]
        title, surv = _surviving(res, task)
        if surv:
            lines += [_wrap(title, "", "  ")] + [_wrap(b, "  - ", "    ") for b in surv] + [""]
        if bl := bound_lines(res.auroc_bounds, task):
            lines += [_wrap(BOUNDS_TITLE, "", "  ")] + [_wrap(b, "  - ", "    ") for b in bl] + [""]
        lines += ["Where the metrics disagree:"]
        lines += [_wrap(s, "  - ", "    ") for s in res.sentences[task]]
        lines += ["", "AUPR estimators (which one a tool computes: see the report):",
                  _text_table(estimator_frame(res, task)), ""]
    if res.cd:
        lines += ["Across tasks: critical-difference analysis:"] + [_wrap(s, "  - ", "    ") for s in cd_lines(res.cd)] + [""]
    lines.append("Findings:")
    lines += [_wrap(s, "  ", "      ") for s in _findings_lines(res)]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- Markdown

def format_markdown(res: AuditRecord, source: str = "", figures: dict[str, str] | None = None) -> str:
    """The Markdown report; ``figures`` maps ``curves`` / ``intervals`` to relative PNG paths."""
    lines = [f"# prspace audit{(' of `' + source + '`') if source else ''}", "", _overview(res) + ".", ""]
    if cols := column_lines(res):
        lines += [f"- {_one_line(c)}" for c in cols] + [""]
    lines += ["## Headline", ""] + [f"- {_one_line(s)}" for s in headline(res)] + [""]
    for name, path in (figures or {}).items():
        lines += [f"## Figure: {name}", "", f"![{FIGURE_ALT.get(name, name)}]({path})", "",
                  FIGURE_CAPTIONS.get(name, ""), ""]
    lines += ["## Findings", ""]
    lines += [f"- {s}" for s in _findings_lines(res)] + [""]
    multi = res.pooled["task"].nunique() > 1
    for task in sorted(res.pooled["task"].unique()):
        lines += _markdown_task(res, task, multi)
    if res.cd:
        lines += ["## Across tasks: critical-difference analysis", ""] + [f"- {s}" for s in cd_lines(res.cd)] + [""]
    lines += ["## Which AUPR a tool computes", "", to_markdown(tools_frame())]
    lines += ["## Definitions", ""] + [f"- {d}" for d in definitions(res)] + [""]
    return "\n".join(lines)


def _markdown_task(res: AuditRecord, task: str, multi: bool) -> list[str]:
    """The Markdown report's section of one task (``multi``: the audit has several tasks)."""
    lines = [f"## {'Task ' + _one_line(task) if multi else 'Metrics'}", "", _task_header(res, task) + ".", "",
             "Pooled" + (" (all folds merged)" if res.has_folds else "")
             + f", {_iv_note(res, 'with {:.0%} intervals where calibrated')}:", "",
             to_markdown(pooled_frame(res, task))]
    lines += [f"- {s}" for s in interval_lines(res.intervals, res.pooled, res.comparisons, task, n_groups=_groups(res, task))] + [""]
    if res.has_folds and len(res.fold_summary):
        lines += [fold_title(res, task) + ":", "", to_markdown(fold_frame(res, task))]
    lines += ["Ranks (1 = best; ties share the average rank):", "", to_markdown(rank_frame(res, task))]
    title, best = _best_sets(res, task)
    if best:
        lines += [title, ""] + [f"- {b}" for b in best] + [""]
    title, surv = _surviving(res, task)
    if surv:
        lines += [title, ""] + [f"- {b}" for b in surv] + [""]
    if bl := bound_lines(res.auroc_bounds, task):
        lines += [BOUNDS_TITLE, ""] + [f"- {_one_line(b)}" for b in bl] + [""]
    lines += ["Where the metrics disagree:", ""] + [f"- {_one_line(s)}" for s in res.sentences[task]] + [""]
    cmp = comparison_frame(res, task)
    if len(cmp):
        lines += [comparisons_title(res, task), "", to_markdown(cmp)]
    return lines + ["Every AUPR estimator:", "", to_markdown(estimator_frame(res, task))]


# --------------------------------------------------------------------------- HTML

HTML_STYLE = """
body { font-family: sans-serif; font-size: 14px; margin: 1.5em auto; max-width: 88em; padding: 0 8px; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.2em; }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: right; white-space: nowrap; }
th { white-space: normal; }
.wide { overflow-x: auto; max-width: 100%; }
th { background: #eef; }
td:first-child, th:first-child { text-align: left; }
li { margin: 0.3em 0; }
.error { color: #a00; } .warning { color: #a60; } .note { color: #456; }
.headline { background: #fff8e0; border: 1px solid #e0c060; padding: 0.5em 1em; }
.figure { overflow-x: auto; width: calc(100vw - FIGURE_MARGINpx); position: relative; left: 50%;
          margin-left: calc(FIGURE_HALFpx - 50vw); text-align: center; }
.figure img { max-width: none; border: 1px solid #ddd; box-sizing: border-box; }
table.text td { white-space: normal; text-align: left; max-width: 45em; }
""".replace("FIGURE_MARGIN", str(FIGURE_MARGIN)).replace("FIGURE_HALF", str(FIGURE_MARGIN // 2))


def _html_table(df: pd.DataFrame, cls: str = "") -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in r) + "</tr>"
                   for r in df.itertuples(index=False))
    attr = f" class='{cls}'" if cls else ""
    return f"<div class='wide'><table{attr}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"


def format_html(res: AuditRecord, source: str = "", figures: dict[str, bytes] | None = None) -> str:
    """One self-contained HTML page (figures embedded as PNG data)."""
    e = html.escape
    parts = [f"<h1>prspace audit{(' of ' + e(source)) if source else ''}</h1>", f"<p>{e(_overview(res))}.</p>"]
    if cols := column_lines(res):
        parts.append("<ul>" + "".join(f"<li>{e(c)}</li>" for c in cols) + "</ul>")
    parts += ["<div class='headline'><h2>Headline</h2><ul>"
             + "".join(f"<li>{e(s)}</li>" for s in headline(res)) + "</ul></div>"]
    parts += _html_figures(figures or {})
    parts += _html_findings(res)
    multi = res.pooled["task"].nunique() > 1
    for task in sorted(res.pooled["task"].unique()):
        parts += _html_task(res, task, multi)
    if res.cd:
        parts += ["<h2>Across tasks: critical-difference analysis</h2><ul>" + "".join(f"<li>{e(s)}</li>" for s in cd_lines(res.cd)) + "</ul>"]
    parts += ["<h2>Which AUPR a tool computes</h2>", _html_table(tools_frame(), "text")]
    parts += ["<h2>Definitions</h2><ul>" + "".join(f"<li>{e(d)}</li>" for d in definitions(res)) + "</ul>"]
    title = e(f"prspace audit{(' of ' + source) if source else ''}")
    return (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>{title}</title>"
            f"<style>{HTML_STYLE}</style></head><body>\n" + "\n".join(parts) + "\n</body></html>\n")


def _html_figures(figures: dict[str, bytes]) -> list[str]:
    """The HTML page's figures, embedded as PNG data at their true size."""
    e = html.escape
    parts = []
    for name, png in figures.items():
        data = base64.b64encode(png).decode("ascii")
        w = figure_width(png)
        # true size; in a narrower window the window's width less a scrollbar's room, down to 80% of the true
        # size (then its frame scrolls sideways; the page never does)
        width = (f" width='{w}' style='width: min({w}px, max(100vw - {FIGURE_MARGIN}px, {round(0.8 * w)}px))'"
                 if w else "")
        parts += [f"<h2>Figure: {e(name)}</h2>",
                  f"<div class='figure'><img alt='{e(FIGURE_ALT.get(name, name))}'{width} "
                  f"src='data:image/png;base64,{data}'></div>", f"<p>{e(FIGURE_CAPTIONS.get(name, ''))}</p>"]
    return parts


def _html_findings(res: AuditRecord) -> list[str]:
    """The HTML page's findings, one item each, coloured by severity."""
    e = html.escape
    parts = ["<h2>Findings</h2><ul>"]
    if not res.findings:
        parts.append("<li>No warnings: none of the checks fired.</li>")
    for f in res.findings:
        where = f" {e(_one_line(f.where))}" if f.where else ""
        parts.append(f"<li class='{f.severity}'><b>{f.severity.upper()} [{e(f.code)}]</b>{where}: {e(f.message)}.</li>")
    return parts + ["</ul>"]


def _html_task(res: AuditRecord, task: str, multi: bool) -> list[str]:
    """The HTML page's section of one task (``multi``: the audit has several tasks)."""
    e = html.escape
    parts = [f"<h2>{'Task ' + e(_one_line(task)) if multi else 'Metrics'}</h2>", f"<p>{e(_task_header(res, task))}.</p>",
             f"<h3>Pooled metrics {_iv_note(res, 'with {:.0%} intervals where calibrated')}</h3>",
             _html_table(pooled_frame(res, task)),
             "<ul>" + "".join(f"<li>{e(s)}</li>" for s in interval_lines(res.intervals, res.pooled,
                                                                        res.comparisons, task,
                                                                        n_groups=_groups(res, task))) + "</ul>"]
    if res.has_folds and len(res.fold_summary):
        parts += [f"<h3>{e(fold_title(res, task))}</h3>", _html_table(fold_frame(res, task))]
    parts += ["<h3>Ranks</h3>", _html_table(rank_frame(res, task))]
    title, best = _best_sets(res, task)
    if best:
        parts += [f"<p>{e(title)}</p><ul>" + "".join(f"<li>{e(b)}</li>" for b in best) + "</ul>"]
    title, surv = _surviving(res, task)
    if surv:
        parts += [f"<p>{e(title)}</p><ul>" + "".join(f"<li>{e(b)}</li>" for b in surv) + "</ul>"]
    if bl := bound_lines(res.auroc_bounds, task):
        parts += [f"<p>{e(BOUNDS_TITLE)}</p><ul>" + "".join(f"<li>{e(b)}</li>" for b in bl) + "</ul>"]
    parts += ["<h3>Where the metrics disagree</h3><ul>"
              + "".join(f"<li>{e(s)}</li>" for s in res.sentences[task]) + "</ul>"]
    cmp = comparison_frame(res, task)
    if len(cmp):
        parts += [f"<h3>Paired comparisons</h3><p>{e(comparisons_title(res, task))}</p>", _html_table(cmp)]
    return parts + ["<h3>Every AUPR estimator</h3>", _html_table(estimator_frame(res, task))]
