"""What a study makes, derived from its validated configuration and the registry (:mod:`prspace.core.registry`).

A step runs when its ``when`` (a :class:`~prspace.core.registry.When`) holds (:func:`step_active`); a study's outputs are every file its
active steps write (:func:`study_targets`), its report shows every active table with ``report``
(:func:`report_tables`, in the registry's order), rule ``verdicts`` reads the evidence of the
active steps (:func:`verdict_inputs`), and each report entry's caption is the file
:func:`caption_file` writes from its declaration.  Nobody else writes a list of table or figure names.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from prspace.core import registry as R

__all__ = [
    "ReportTable",
    "active_steps",
    "boyd_formats",
    "caption_file",
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
    #: its caption (the declaration's text, :attr:`prspace.core.registry.Table.caption`)
    caption: str | None = None


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
    return {t.name: ReportTable(t.title, t.category, t.section, t.caption)
            for t in R.TABLES if t.report and t in active and t.category != R.OPENML_CATEGORY}


def openml_report_tables() -> dict[str, ReportTable]:
    """The tables of an OpenML study's report (rule ``openml_report_tables``)."""
    return {t.name: ReportTable(t.title, t.category, t.section, t.caption)
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
    step in :func:`figure_formats`, the report's HTML tables (:func:`report_tables`, and
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
    out += [f"{pages}/{name}.html" for name in report_tables(config)]
    out += [f"{pages}/{R.FRONT_PAGE.name}.{R.FRONT_PAGE.ext}",
            *(f"{results}/{f.name}.{f.ext}" for f in (R.SUMMARY, R.FINDINGS))]
    if config["source"] == "openml":
        out += [f"{results}/{R.OPENML_MANIFEST.name}.{R.OPENML_MANIFEST.ext}",
                *(f"{pages}/{name}.html" for name in openml_report_tables())]
    return out


def caption_file(item: R.Table | R.Figure, folder: str | Path) -> str:
    """The caption of ``item`` as the file the Snakemake report reads (it takes captions from files
    only): ``<folder>/tables/<name>.rst`` or ``<folder>/figures/<name>.rst``, written from the
    declaration's text when missing or different (atomically: rule files are parsed by every job);
    its absolute path."""
    if not item.caption:
        raise ValueError(f"{item.name!r} is in the report but declares no caption; give it "
                         "caption='...' in prspace.core.registry")
    path = Path(folder).absolute() / ("figures" if isinstance(item, R.Figure) else "tables") / f"{item.name}.rst"
    if not path.is_file() or path.read_text(encoding="utf-8") != item.caption:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}")
        tmp.write_text(item.caption, encoding="utf-8")
        os.replace(tmp, path)
    return str(path)
