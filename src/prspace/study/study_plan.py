"""What a study makes, derived from its validated configuration and the registry (:mod:`prspace.core.registry`).

A step runs when its ``when`` (a :class:`~prspace.core.registry.When`) holds (:func:`step_active`); a study's outputs are every file its
active steps write (:func:`study_targets`), its report shows every active table with ``report``
(:func:`report_tables`, in the registry's order), rule ``verdicts`` reads the evidence of the
active steps (:func:`verdict_inputs`), and each report entry's caption is its file beside the
workflow, ``workflow/report/captions/<tables|figures>/<name>.rst`` (:func:`caption_of`; the report
reads it where it is, :func:`caption_file`).  Nobody else writes a list of table or figure names.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from prspace.core import registry as R
from prspace.core.errors import InputError

__all__ = [
    "ReportTable",
    "active_steps",
    "boyd_formats",
    "caption_file",
    "caption_of",
    "caption_path",
    "figure_formats",
    "figures",
    "openml_report_tables",
    "report_tables",
    "step_active",
    "study_targets",
    "verdict_inputs",
]


class ReportTable(NamedTuple):
    """How one result table appears in the Snakemake report."""

    title: str
    category: str
    subcategory: str | None


def step_active(when: R.When | None, config: Mapping[str, Any]) -> bool:
    """Does a step (or input) with condition ``when`` (:class:`prspace.core.registry.When`) run in this study?

    ``boyd.*`` needs ``boyd.enabled`` and its own ``enabled`` (``boyd.theory``: the flag itself);
    the downsampling experiment needs a local source (it retrains on the raw data)."""
    if when is None:
        return True
    if not isinstance(when, R.When):
        raise TypeError(f"a step condition is a prspace.core.registry.When, not {when!r}")
    if when is R.When.OPENML:
        return config["source"] == "openml"
    b = config["boyd"]
    if not b["enabled"]:
        return False
    if when is R.When.BOYD:
        return True
    if when is R.When.BOYD_THEORY:
        return bool(b["theory"])
    if when is R.When.BOYD_DOWNSAMPLING:
        return bool(b["downsampling"]["enabled"]) and config["source"] == "local"
    # BOYD_FOLD_SKEW, BOYD_AGGREGATION: their own switch
    return bool(b[when.value.removeprefix("boyd.")]["enabled"])


def active_steps(config: Mapping[str, Any]) -> list[R.Step]:
    """The steps of :data:`prspace.core.registry.STEPS` this study runs, in that order."""
    return [s for s in R.STEPS if step_active(s.when, config)]


def _tables(config: Mapping[str, Any]) -> set[R.Table]:
    return {t for s in active_steps(config) for t in s.tables}


def report_tables(config: Mapping[str, Any]) -> dict[str, ReportTable]:
    """Every table of a study's report except the OpenML ones (rule ``report_tables``), in the
    registry's order: name -> :class:`ReportTable`."""
    active = _tables(config)
    return {t.name: ReportTable(t.title, t.category, t.section)
            for t in R.TABLES if t.report and t in active and t.category != R.OPENML_CATEGORY}


def openml_report_tables() -> dict[str, ReportTable]:
    """The tables of an OpenML study's report (rule ``openml_report_tables``)."""
    return {t.name: ReportTable(t.title, t.category, t.section)
            for t in R.TABLES if t.report and t.category == R.OPENML_CATEGORY}


def figures(config: Mapping[str, Any]) -> list[R.Figure]:
    """The figures this study draws, in the order of the steps."""
    return [f for s in active_steps(config) for f in s.figures]


def boyd_formats(config: Mapping[str, Any]) -> list[str]:
    """The formats of the Boyd figures: the study's ``analysis.figure_formats`` and always PNG (the report's)."""
    return sorted(set(config["analysis"]["figure_formats"]) | {"png"})


def figure_formats(figure: R.Figure, config: Mapping[str, Any]) -> list[str]:
    """The formats ``figure`` is a target in: ``analysis.figure_formats``, or :func:`boyd_formats`."""
    return boyd_formats(config) if figure.formats == "boyd" else list(config["analysis"]["figure_formats"])


def verdict_inputs(config: Mapping[str, Any], tables: str) -> dict[str, str]:
    """The tables rule ``verdicts`` reads (the evidence of every active step): name -> path under ``tables``."""
    return {t.name: f"{tables}/{t.name}.csv" for s in active_steps(config) for t in s.evidence}


def study_targets(config: Mapping[str, Any]) -> list[str]:
    """Every output a study makes (the inputs of rules ``all`` and ``verify``), from its validated
    configuration, as paths relative to the working directory; the one list of them.

    Every table of an active step (CSV, and Markdown when it has one), every figure of an active
    step in :func:`figure_formats` (and its source table, if any), the report's HTML tables (:func:`report_tables`, and
    :func:`openml_report_tables` for an OpenML study), the report's front page, ``summary.md``,
    ``findings.md``, and an OpenML study's manifest.  The figure-data tables are intermediates
    under ``work/`` (their figures are the targets).
    """
    study = config["study"]
    results, work = f"results/{study}", f"work/{study}"
    tables, figs, pages = f"{results}/tables", f"{results}/figures", f"{work}/report"
    out: list[str] = []
    for s in active_steps(config):
        out += [f"{tables}/{t.name}.{ext}" for t in s.tables for ext in (("csv", "md") if t.md else ("csv",))]
        out += [f"{figs}/{f.name}.{ext}" for f in s.figures for ext in figure_formats(f, config)]
        out += [f"{tables}/{f.source.name}.csv" for f in s.figures if f.source]
    out += [f"{pages}/{name}.html" for name in report_tables(config)]
    out += [f"{pages}/{R.FRONT_PAGE.name}.{R.FRONT_PAGE.ext}",
            *(f"{results}/{f.name}.{f.ext}" for f in (R.SUMMARY, R.FINDINGS))]
    if config["source"] == "openml":
        out += [f"{results}/{R.OPENML_MANIFEST.name}.{R.OPENML_MANIFEST.ext}",
                *(f"{pages}/{name}.html" for name in openml_report_tables())]
    return out


#: The folder of the workflow (``Snakefile``, ``workflow/``): the repository this package is in.
WORKFLOW_ROOT = Path(__file__).resolve().parents[3]
#: The report's captions under it: ``tables/<name>.rst`` and ``figures/<name>.rst`` (a table and a
#: figure may share a name, ``controlled_skew``).
CAPTIONS = Path("workflow", "report", "captions")


def caption_path(item: R.Table | R.Figure, root: str | Path = WORKFLOW_ROOT) -> Path:
    """Where the caption of ``item`` is: ``<root>/workflow/report/captions/tables/<name>.rst`` for a
    table, ``.../figures/<name>.rst`` for a figure (absolute; ``root`` the workflow's folder, by
    default this package's repository)."""
    kind = "figures" if isinstance(item, R.Figure) else "tables"
    return Path(root).absolute() / CAPTIONS / kind / f"{item.name}.rst"


def caption_of(item: R.Table | R.Figure, root: str | Path = WORKFLOW_ROOT) -> str:
    """The caption of a report table or figure: the words under it in the Snakemake report
    (reStructuredText, rendered by Snakemake as a Jinja2 template), the text of its file
    (:func:`caption_path`).  A report output without that file, or with an empty one, is an
    :class:`~prspace.core.errors.InputError` naming the file to write."""
    path = caption_path(item, root)
    kind = "figure" if isinstance(item, R.Figure) else "table"
    where = path.relative_to(Path(root).absolute()).as_posix()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{kind} {item.name!r} is in the report but has no caption: write {where} "
                         "(reStructuredText: what it shows and how to read it)") from None
    if not text.strip():
        raise InputError(f"the caption of {kind} {item.name!r} is empty: write what it shows in {where}")
    return text


def caption_file(item: R.Table | R.Figure, root: str | Path = WORKFLOW_ROOT) -> str:
    """The caption file of ``item`` as the Snakemake report reads it (``report(..., caption=...)``
    takes a file): its absolute path under the workflow's folder ``root`` (the rule files pass
    ``workflow.basedir``), checked to hold a caption (:func:`caption_of`)."""
    caption_of(item, root)
    return str(caption_path(item, root))
