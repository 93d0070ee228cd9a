"""Which tasks a study runs: the workflow's input functions (docs/architecture.md, "Workflow contract").

The task list is the output of the ``select_tasks`` checkpoint, so the tasks are known only once it
has run: the rules ask for them through input functions, which Snakemake evaluates again after the
checkpoint.  The decisions live here, where tests reach them:

- :func:`study_task_ids`: the study's tasks, given the task list: its selected rows, restricted
  to ``local.datasets`` when that key names some (every name must be a task of the list);
- :meth:`StudyInputs.downsampling_tasks`, :meth:`StudyInputs.fold_skew_tasks`: the tasks of Boyd's
  sections 4.3 and 4.1 among them (:mod:`prspace.experiments.fk.figure_selection`);
- :meth:`StudyInputs.data_file`: a task's own data file (``local.data_dir``), so that editing it
  reruns what read it;
- :class:`JobFiles`: where each rule's jobs write their log and benchmark, from the rule's name;
- :class:`StepFiles`: the paths of the registry's tables a rule reads and writes.

``workflow/rules/common.smk`` makes one :class:`StudyInputs` from the configuration and Snakemake's
``checkpoints``; the rules files call its methods and define no functions themselves.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NoReturn

import pandas as pd

from prspace.core import registry as R
from prspace.core.contracts import read_task_list, selected_task_ids
from prspace.core.errors import InputError
from prspace.experiments.boyd.boyd_tasks import downsampling_tasks, fold_skew_tasks

__all__ = ["JobFiles", "StepFiles", "StudyInputs", "expand_tasks", "output_folder", "study_task_ids"]


def study_task_ids(table: pd.DataFrame, *, study: str, task_list: str, source: str,
                   datasets: list[str] | None = None) -> list[str]:
    """The sorted task ids of study ``study`` from its (validated) task list ``table``.

    The selected rows; for the local source, only those named in ``datasets`` when it names any
    (config key ``local.datasets``).  Raises :class:`InputError` when no task is selected (naming up
    to five candidates' reasons) or when ``datasets`` names a task the list does not hold.
    ``task_list`` is the list's path, for the messages.
    """
    ids = selected_task_ids(table)
    if not ids:
        reasons = "; ".join(
            f"{r.task_id}: {r.reason}" for r in table.head(5).itertuples() if str(getattr(r, "reason", ""))
        )
        raise InputError(
            f"study {study}: no usable task ({len(table)} candidate(s) in {task_list}"
            + (f"; {reasons}" if reasons else "")
            + "); fix the data or the selection and run again"
        )
    if source == "local" and datasets:
        unknown = sorted(set(datasets) - set(table["task_id"].astype(str)))
        if unknown:
            raise InputError(
                f"config key local.datasets names unknown dataset(s) {', '.join(unknown)}; "
                f"see {task_list} for the available task ids"
            )
        ids = [t for t in ids if t in set(datasets)]
    return sorted(ids)


def expand_tasks(pattern: str, task_ids: list[str]) -> list[str]:
    """``pattern`` (a path with the one wildcard ``{task}``) for each task id, in order."""
    return [pattern.format(task=t) for t in task_ids]


class StudyInputs:
    """The input functions of one study's rules, bound to its configuration and checkpoint.

    ``checkpoints`` is Snakemake's ``checkpoints`` object; its ``select_tasks`` checkpoint is looked
    up only when a task list is needed, that is inside input functions, so the rules file that
    defines the checkpoint may be included after this object is made.  ``warn`` prints a warning
    (Snakemake's ``logger.warning``).  ``stop`` is called with the message when the task list leaves
    no task to run (:func:`study_task_ids`'s :class:`InputError`) and must not return: the workflow
    passes :func:`prspace.study.setup_check.stop_run` (one line, exit status 2); without it the error is
    raised.  ``data_files`` maps a task id to its own data file.
    """

    def __init__(self, config: Mapping[str, Any], checkpoints: Any, *, task_list: str,
                 data_files: Mapping[str, Path] | None = None,
                 warn: Callable[[str], object] = print,
                 stop: Callable[[str], NoReturn] | None = None) -> None:
        self._config = config
        self._checkpoints = checkpoints
        self._task_list = task_list
        self._data_files = dict(data_files or {})
        self._warn = warn
        self._stop = stop

    # --- the task list ---------------------------------------------------------------------

    def _table(self) -> pd.DataFrame:
        # .get() raises Snakemake's IncompleteCheckpointException until the checkpoint has run:
        # Snakemake catches it and evaluates the input function again afterwards
        return read_task_list(self._checkpoints.select_tasks.get().output[0])

    def task_ids(self) -> list[str]:
        """The study's task ids, sorted (:func:`study_task_ids`); call only inside input functions."""
        local = self._config.get("local") or {}
        table = self._table()
        try:
            return study_task_ids(table, study=self._config["study"], task_list=self._task_list,
                                  source=self._config["source"], datasets=local.get("datasets"))
        except InputError as exc:
            if self._stop is None:
                raise
            self._stop(str(exc))
            raise  # stop must not return

    def per_task(self, pattern: str) -> Callable[[Any], list[str]]:
        """An input function: ``pattern`` (with ``{task}``) expanded over :meth:`task_ids`."""
        return lambda wildcards: expand_tasks(pattern, self.task_ids())

    def data_file(self, wildcards: Any) -> list[str]:
        """Input function: the own data file of task ``{task}`` (``[]`` unless it is one of yours)."""
        path = self._data_files.get(wildcards.task)
        return [str(path)] if path is not None else []

    # --- Boyd et al. ---------------------------------------------------------------------------

    def downsampling_tasks(self, wildcards: object = None) -> list[str]:
        """Boyd section 4.3 tasks (:func:`prspace.experiments.boyd.boyd_tasks.downsampling_tasks`), warning if none;
        also rule ``boyd_downsample``'s ``params: tasks`` (an input function: ``wildcards`` unused)."""
        ds = self._config["boyd"]["downsampling"]
        ids = downsampling_tasks(self._table(), self.task_ids(), max_pi=ds["max_pi"],
                                 min_positives=ds["min_positives"], max_tasks=ds["max_tasks"])
        if not ids:
            self._warn(
                f"boyd: no task of study {self._config['study']} has pi <= boyd.downsampling.max_pi = "
                f"{ds['max_pi']} and at least boyd.downsampling.min_positives = {ds['min_positives']} "
                "positives; the downsampling tables and figure will say so"
            )
        return ids

    def fold_skew_tasks(self) -> list[str]:
        """Boyd section 4.1 tasks (:func:`prspace.experiments.boyd.boyd_tasks.fold_skew_tasks`), warning if none."""
        fs = self._config["boyd"]["fold_skew"]
        ids = fold_skew_tasks(self._table(), self.task_ids(), min_positives=fs["min_positives"],
                              max_tasks=fs["max_tasks"])
        if not ids:
            self._warn(
                f"boyd: no task of study {self._config['study']} has at least boyd.fold_skew.min_positives = "
                f"{fs['min_positives']} positives; the fold-skew tables and figure will say so"
            )
        return ids

    def downsampling_runs(self, pattern: str, *, enabled: bool = True) -> Callable[[Any], list[str]]:
        """An input function: ``pattern`` over :meth:`downsampling_tasks` (none unless ``enabled``)."""
        return lambda wildcards: expand_tasks(pattern, self.downsampling_tasks()) if enabled else []

    def downsampling_data(self, wildcards: Any) -> list[str]:
        """Input function: the own data files of the :meth:`downsampling_tasks` (``[]`` for embedded tasks)."""
        return [str(self._data_files[t]) for t in self.downsampling_tasks() if t in self._data_files]

    def fold_skew_runs(self, pattern: str, *, enabled: bool = True) -> Callable[[Any], list[str]]:
        """An input function: ``pattern`` over :meth:`fold_skew_tasks` (none unless ``enabled``)."""
        return lambda wildcards: expand_tasks(pattern, self.fold_skew_tasks()) if enabled else []


def output_folder(name: str) -> Callable[..., str]:
    """A ``params:`` function: the folder of the rule's output ``name`` (its first file if a list).

    For the commands that take an output folder (``--tables-dir``, ``--out-dir``): derived from a
    declared output, not written out again, so the folder is always where the outputs are.
    """

    def folder(wildcards: Any, output: Any) -> str:
        value = getattr(output, name)
        path = value if isinstance(value, str) else value[0]
        return os.path.dirname(str(path))

    return folder


class JobFiles:
    """Where a rule's jobs write their log (``<logs>/<path>.log``) and benchmark
    (``<benchmarks>/<path>.tsv``), ``<path>`` from the rule's name (a string, or its step
    :class:`prspace.core.registry.Step`): the name itself; a Boyd et al. rule ``boyd_<x>`` under
    ``boyd/<x>``; a figure rule ``figure_<x>`` (``figure=True``) under ``figures/<x>``; one file per
    task (``<path>/{task}``) for a rule run per task (``task=True``).

    ``workflow/rules/common.smk`` makes one, ``JOBS``; every rule's ``log:`` and ``benchmark:`` come
    from it, so the two never disagree and :func:`prspace.study.joblogs.print_job_errors` finds every log.
    """

    def __init__(self, logs: str, benchmarks: str) -> None:
        self.logs, self.benchmarks = logs, benchmarks

    @staticmethod
    def path(rule: str | R.Step, *, task: bool = False, figure: bool = False) -> str:
        name = rule if isinstance(rule, str) else rule.name
        if figure:
            path = f"figures/{name.removeprefix('figure_')}"
        elif name.startswith("boyd_"):
            path = f"boyd/{name.removeprefix('boyd_')}"
        else:
            path = name
        return f"{path}/{{task}}" if task else path

    def log(self, rule: str | R.Step, *, task: bool = False, figure: bool = False) -> str:
        return f"{self.logs}/{self.path(rule, task=task, figure=figure)}.log"

    def benchmark(self, rule: str | R.Step, *, task: bool = False, figure: bool = False) -> str:
        return f"{self.benchmarks}/{self.path(rule, task=task, figure=figure)}.tsv"


class StepFiles:
    """The files a rule writes under a registry name (:mod:`prspace.core.registry`), as the paths
    its ``output:`` and ``input:`` name: tables in ``tables`` (``results/<study>/tables``), figure-data
    tables in ``figure_data`` (``work/<study>/figure_data``).  ``common.smk`` makes one, ``FILES``."""

    def __init__(self, tables: str, figure_data: str) -> None:
        self.tables_dir, self.figure_data_dir = tables, figure_data

    def csv(self, table: R.Table | R.FigureData) -> str:
        """A table's CSV: a result table in ``tables``, a figure-data table in ``figure_data``."""
        return str(table.csv(self.tables_dir if isinstance(table, R.Table) else self.figure_data_dir))

    def tables(self, step: R.Step) -> list[str]:
        """The result tables of ``step``: each CSV, then its Markdown twin if it has one."""
        return [str(p) for t in step.tables for p in t.files(self.tables_dir)]

    def figure_data(self, step: R.Step) -> list[str]:
        """The figure-data tables of ``step``."""
        return [self.csv(d) for d in step.figure_data]

    def figure_tables(self, figure: R.Figure) -> list[str]:
        """The tables ``figure`` is drawn from, in draw order (its optional ones last: the rule waits for them)."""
        return [self.csv(d) for d in (*figure.data, *figure.optional)]
