"""What one step of the workflow writes, and the one writer of it.

A step (a rule of the workflow, :class:`prspace.core.registry.Step`) is a function in its
experiments module, ``fn(inputs, **settings) -> StepOutput``: ``inputs`` maps each input role to
its path (or paths), ``settings`` are keyword-only values from the configuration. The function
computes; it writes nothing. :func:`write_step` writes what it returns, so every step writes its
tables the same way (:mod:`prspace.core.output`'s precision policy, atomic files):

* each :class:`TableOut` as ``<tables_dir>/<name>.csv`` and, if the registry says the table has a
  Markdown twin (``Table.md``), ``<name>.md`` with its title (the Markdown title, which may differ
  from the report's: the step supplies it) and note; a table whose Markdown shows fewer or
  differently formatted columns than its CSV gives that frame as ``markdown``, and a table whose
  Markdown is a page of its own (``verdicts.md``) gives that page's text;
* each figure-data table at full precision as ``<figure_data_dir>/<name>.csv`` (drawn, not read);
* each other file (``files``: role -> frame, role -> {stem -> frame} for a folder of CSVs, or role ->
  text for a page, e.g. step ``verdicts``' ``summary.md``) at the path the caller gives for that role
  (``prspace step ... --out ROLE=PATH``);
* each warning logged.

``prspace step NAME`` (:mod:`prspace.cli.step`) is the command line of every step.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from prspace.core.errors import InputError
from prspace.core.output import write_csv, write_full_csv, write_markdown, write_text
from prspace.core.registry import FigureData, Step, Table

log = logging.getLogger("prspace.step")

__all__ = ["StepOutput", "TableOut", "write_step"]


class TableOut(NamedTuple):
    """One table a step writes: the registry's :class:`~prspace.core.registry.Table`, its rows
    (the CSV), the Markdown note and title (``None``: the registry's title), and the frame the
    Markdown shows when it is not the CSV's (fewer columns, formatted cells), or its whole text."""

    table: Table
    frame: pd.DataFrame
    note: str | None = None
    title: str | None = None
    markdown: pd.DataFrame | str | None = None


@dataclass
class StepOutput:
    """Everything one step writes (see the module docstring)."""

    tables: list[TableOut] = field(default_factory=list)
    figure_data: list[tuple[FigureData, pd.DataFrame]] = field(default_factory=list)
    files: dict[str, pd.DataFrame | dict[str, pd.DataFrame] | str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def _check_declared(output: StepOutput, step: Step) -> None:
    declared = {t.name for t in step.tables} | {f.name for f in step.figure_data}
    made = [t.table.name for t in output.tables] + [f.name for f, _ in output.figure_data]
    extra = [n for n in made if n not in declared]
    if extra:
        raise InputError(f"step {step.name} made table(s) {', '.join(extra)} that the registry does not list "
                         "for it; declare them in prspace.core.registry")


def _check_destinations(output: StepOutput, tables_dir: object, figure_data_dir: object,
                        files: Mapping[str, object]) -> None:
    """A folder for each kind of table the step made and a path for each of its other files."""
    if output.tables and tables_dir is None:
        raise InputError("this step writes tables: give their folder (--tables-dir)")
    if output.figure_data and figure_data_dir is None:
        raise InputError("this step writes the tables a figure is drawn from: give their folder (--figure-data-dir)")
    missing = [role for role in output.files if role not in files]
    if missing:
        raise InputError(f"this step writes {', '.join(missing)}: give each path (--out ROLE=PATH)")


def _write_tables(tables: list[TableOut], tables_dir: str | os.PathLike[str]) -> list[Path]:
    """Each table's CSV and, when the registry says it has one, its Markdown twin."""
    Path(tables_dir).mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for t in tables:
        written.append(write_csv(t.frame, t.table.csv(tables_dir)))
        if t.table.md and isinstance(t.markdown, str):
            written.append(write_text(t.markdown, t.table.markdown(tables_dir)))
        elif t.table.md:
            written.append(write_markdown(t.frame if t.markdown is None else t.markdown, t.table.markdown(tables_dir),
                                          title=t.table.title if t.title is None else t.title, note=t.note))
    return written


def _write_file(content: pd.DataFrame | dict[str, pd.DataFrame] | str, path: Path) -> list[Path]:
    """One other file of the step: a frame as CSV, a text as it is, a {stem: frame} as a folder of CSVs."""
    if isinstance(content, pd.DataFrame):
        return [write_csv(content, path)]
    if isinstance(content, str):
        return [write_text(content, path)]
    path.mkdir(parents=True, exist_ok=True)
    return [write_csv(frame, path / f"{stem}.csv") for stem, frame in content.items()]


def write_step(output: StepOutput, *, tables_dir: str | os.PathLike[str] | None = None,
               figure_data_dir: str | os.PathLike[str] | None = None,
               files: Mapping[str, str | os.PathLike[str]] | None = None, step: Step | None = None) -> list[Path]:
    """Write ``output`` (tables into ``tables_dir``, figure tables into ``figure_data_dir``, each of
    ``output.files`` at ``files[role]``); return the paths written.

    Raises :class:`~prspace.core.errors.InputError` naming the folder or role missing for what the
    step made, and (with ``step``) a table the registry does not list for that step. Checks come
    before the first file is written.
    """
    files = dict(files or {})
    if step is not None:
        _check_declared(output, step)
    _check_destinations(output, tables_dir, figure_data_dir, files)
    for text in output.warnings:
        log.warning("%s", text)
    written: list[Path] = []
    if tables_dir is not None and output.tables:
        written += _write_tables(output.tables, tables_dir)
    if figure_data_dir is not None and output.figure_data:
        Path(figure_data_dir).mkdir(parents=True, exist_ok=True)
    for data, frame in output.figure_data:
        written.append(write_full_csv(frame, data.csv(figure_data_dir)))
    for role, content in output.files.items():
        written += _write_file(content, Path(files[role]))
    return written
