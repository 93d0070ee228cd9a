"""The command lines the workflow's rules run, and the tables its report shows.

Rules name inputs, outputs and a ``prspace`` command (docs/architecture.md, "Workflow
contract"); what goes into that command, given the validated configuration, is decided
here, where tests reach it: :func:`select_command` (the task list), :func:`predict_command`
(one task's predictions), :func:`table_html_args` (the report's HTML tables), and, re-exported
from :mod:`prspace.study.study_plan` (derived from :mod:`prspace.core.registry`), which tables each
kind of study puts in its report and the list of a study's outputs, the targets of rules ``all``
and ``verify`` (:func:`study_targets`).

Every value from the configuration is shell-quoted. The values a rule computes per job are input functions
here too (:func:`predict_commands`, :func:`figure_texts`, :func:`figure_sources`), so that the rules files
define no functions, not even a ``lambda`` (docs/architecture.md; tests/study/test_workflow_inputs.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from shlex import quote
from typing import Any

from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.study.study_plan import (
    ReportTable,
    boyd_formats,
    report_tables,
    study_targets,
    verdict_inputs,
)

__all__ = [
    "ReportTable",
    "boyd_formats",
    "own_data_args",
    "figure_sources",
    "figure_texts",
    "predict_command",
    "predict_commands",
    "report_tables",
    "select_command",
    "skew_reference_path",
    "study_targets",
    "table_html_args",
    "verdict_inputs",
    "report_front_page",
]


def table_html_args(
    tables: Mapping[str, ReportTable], inputs: Iterable[str], outputs: Iterable[str], *, study: str
) -> str:
    """The ``--table CSV HTML TITLE`` arguments of ``prspace table-html``, one per table
    (``inputs`` and ``outputs`` in the order of ``tables``)."""
    return " ".join(
        f"--table {quote(str(i))} {quote(str(o))} {quote(f'{t.title} (study {study})')}"
        for t, i, o in zip(tables.values(), inputs, outputs, strict=True)
    )


def own_data_args(local: Mapping[str, Any]) -> str:
    """``--data-dir DIR --target COL [--pos-label L]`` for your own data (``local.data_dir``),
    else empty."""
    return " ".join(_data_args(local)) if local["data_dir"] else ""


def _data_args(local: Mapping[str, Any]) -> list[str]:
    """Where a local study's data come from: your own folder or an embedded suite."""
    if not local["data_dir"]:
        return [f"--suite {quote(str(local['suite']))}"]
    args = [f"--data-dir {quote(str(local['data_dir']))}", f"--target {quote(str(local['target']))}"]
    if local.get("pos_label") is not None:
        args.append(f"--pos-label {quote(str(local['pos_label']))}")
    return args


def select_command(config: Mapping[str, Any], prspace: str) -> str:
    """The command that writes the study's task list (checkpoint ``select_tasks``), without
    ``--out``: ``prspace list-datasets`` for a local source, ``prspace fetch-openml select``
    for OpenML (with ``openml.replay``: from the manifest, no listing call)."""
    if config["source"] == "local":
        c = config["local"]
        return " ".join(
            [f"{prspace} list-datasets", f"--min-minority {c['min_minority']}", *_data_args(c)]
        )
    c = config["openml"]
    args = [
        f"{prspace} fetch-openml select",
        f"--server {quote(str(c['server']))}",
        f"--cache-dir {quote(str(c['cache_dir']))}",
        f"--min-flows {c['min_flows']}",
        f"--seed {config['seed']}",
        f"--page-size {c['page_size']}",
    ]
    if c["replay"]:
        return " ".join([*args, f"--manifest {quote(str(c['replay']))}"])
    if c["task_ids"]:
        args.append("--task-ids " + ",".join(map(str, c["task_ids"])))
    for key in ("tag", "suite", "study"):
        if c[key] is not None:
            args.append(f"--{key} {quote(str(c[key]))}")
    if c["discover"]:
        args.append("--discover")
    if c["max_tasks"] is not None:
        args.append(f"--max-tasks {c['max_tasks']}")
    return " ".join(args)


def predict_command(config: Mapping[str, Any], task: str, prspace: str) -> str:
    """The command that writes one task's predictions (rule ``predict``), without ``--out``
    and ``--status``: ``prspace predict-local`` (local learners) or ``prspace fetch-openml
    task`` (the task's OpenML runs)."""
    if config["source"] == "local":
        c = config["local"]
        return " ".join(
            [
                f"{prspace} predict-local --dataset {quote(task)}",
                *_data_args(c),
                f"--learners {quote(str(c['learners']))} --folds {c['folds']} --seed {config['seed']}",
            ]
        )
    c = config["openml"]
    args = [
        f"{prspace} fetch-openml task --server {quote(str(c['server']))}",
        f"--cache-dir {quote(str(c['cache_dir']))} --task-id {quote(task.removeprefix('openml-'))}",
        f"--n-models {c['n_models']} --min-flows {c['min_flows']} --seed {config['seed']}",
        f"--repeats {c['repeats']} --workers {c['workers']} --page-size {c['page_size']}",
    ]
    if c["replay"]:
        args.append(f"--manifest {quote(str(c['replay']))}")
    return " ".join(args)



def predict_commands(config: Mapping[str, Any], prspace: str) -> Callable[[Any], str]:
    """Rule ``predict``'s ``params: cmd``: an input function of the job's wildcards giving
    :func:`predict_command` of its task."""

    def command(wildcards: Any) -> str:
        return predict_command(config, wildcards.task, prspace)

    return command


def figure_texts(wildcards: Any, input: Any) -> str:  # noqa: A002 (Snakemake passes the job's input by this name)
    """A figure rule's ``params: text``: `` --text PATH`` for each of its text tables (none: empty)."""
    return "".join(f" --text {t}" for t in input.text)


def figure_sources(wildcards: Any, output: Any) -> str:
    """A figure rule's ``params: source``: `` --source PATH`` for each source table it writes (none: empty)."""
    return "".join(f" --source {t}" for t in output.source)


def report_front_page(config: Mapping[str, Any], basedir: str) -> str:
    """The report's front page: the one rule ``verdicts`` generated (the static description, then
    the answer first) once the study has run, else the static description."""
    generated = R.FRONT_PAGE.path(Path("work") / str(config["study"]) / "report")
    intro = R.WORKFLOW_PAGE.path(Path(basedir) / "workflow" / "report")
    return os.path.abspath(generated) if generated.is_file() else str(intro)


def skew_reference_path(reference: str, *, own_tasks: str, work_dir: str | Path, base_dir: str | Path) -> str:
    """The file the controlled-skew rule reads as ``analysis.skew_reference``.

    The study's own task table (``own_tasks``) is made by this run and named as is; any other
    relative path is read in the working directory if it is there, else in the workflow's own
    folder (the committed table of a clone, when the study runs with ``--directory``).
    Raises :class:`prspace.core.errors.InputError` naming the key when neither holds it.
    """
    p = Path(reference)
    if reference == own_tasks or (Path(work_dir) / p).exists():
        return reference
    shipped = Path(base_dir) / p
    if not p.is_absolute() and shipped.exists():
        return str(shipped)
    raise InputError(f"config key analysis.skew_reference: no file {reference} (looked in {work_dir} and {base_dir}); "
                     "name a finished study's tables/tasks.csv, e.g. results/paperlike/tables/tasks.csv")
