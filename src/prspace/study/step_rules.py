"""The ``prspace step`` rules of the workflow, made from the registry's steps (:mod:`prspace.core.registry`).

Each step with a ``run`` declares its rule as typed data (``Step.inputs``, ``settings``, ``files``,
``grouped``, ``resources``, ``description``); the one loop of ``workflow/rules/steps.smk`` turns
each into a rule through :class:`StepRules`. Its inputs (:data:`prspace.core.registry.Input`): a
``Table`` / ``FigureData`` (its CSV), a :class:`~prspace.core.registry.StudyFile` (its path, given by
the rules as ``paths``), an :class:`~prspace.core.registry.OverTasks` (the per-task file over the
tasks of its :class:`~prspace.core.registry.Selection`), or an :class:`~prspace.core.registry.If`:
no file unless its :class:`~prspace.core.registry.When` holds (:func:`prspace.study.study_plan.step_active`).
A setting is a configuration key path (``"analysis.n_boot"``) or a
:class:`~prspace.core.registry.Composed` text, composed here (:data:`COMPOSED`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from prspace.core import registry as R
from prspace.study.step_args import step_arguments, step_settings
from prspace.study.study_plan import step_active
from prspace.study.workflow_inputs import StepFiles, StudyInputs

__all__ = ["COMPOSED", "SELECTED_FROM", "StepRules"]

#: the input of a rule that names the files of a folder over the tasks: the task list they are selected from
SELECTED_FROM = "selected_from"


def _downsampling_criteria(config: Mapping[str, Any]) -> str:
    ds = config["boyd"]["downsampling"]
    return (f"pi <= {ds['max_pi']}, at least {ds['min_positives']} positives, "
            + ("every such task" if ds["max_tasks"] is None else f"at most {ds['max_tasks']} tasks (lowest pi first)"))


def _fold_skew_criteria(config: Mapping[str, Any]) -> str:
    fs = config["boyd"]["fold_skew"]
    return (f"tasks with at least {fs['min_positives']} positives"
            + (f", at most {fs['max_tasks']} (lowest pi first)" if fs["max_tasks"] else "")
            + f"; {fs['seeds']} seeds per dispersion")


def _downsampling_scope(config: Mapping[str, Any]) -> str:
    ds = config["boyd"]["downsampling"]
    return (f"Learners: panel {ds['learners']}; {ds['repeats']} x {ds['folds']}-fold cross-validation; "
            + ("every eligible task" if ds["max_tasks"] is None else f"at most {ds['max_tasks']} tasks")
            + f". {ds['scope_note']}")


#: :class:`~prspace.core.registry.Composed` settings: text composed from the configuration (the scope a report states)
COMPOSED: dict[R.Composed, Callable[[Mapping[str, Any]], str]] = {
    R.Composed.DOWNSAMPLING_CRITERIA: _downsampling_criteria,
    R.Composed.FOLD_SKEW_CRITERIA: _fold_skew_criteria,
    R.Composed.DOWNSAMPLING_SCOPE: _downsampling_scope,
}


def config_value(config: Mapping[str, Any], key: str) -> Any:
    """The value at the dotted key path ``key`` (``"analysis.calibration.n_sim"``) of ``config``."""
    value: Any = config
    for part in key.split("."):
        if not isinstance(value, Mapping) or part not in value:
            raise KeyError(f"a step setting reads configuration key {key!r}, which has no {part!r}; "
                           "fix the step's settings in prspace.core.registry or the schema's default")
        value = value[part]
    return value


class StepRules:
    """The rules' inputs, outputs and command arguments of the registry's steps, for one study.

    ``paths``: the path of each :class:`~prspace.core.registry.StudyFile` the steps read or write
    (``{task}`` in a per-task file's path). ``folders``: the per-task files that one job writes, all of
    them, into one folder (its output, e.g. rule ``boyd_fold_skew``): a step reading them over tasks
    depends on the folder, and its command names the files (``--in runs=<folder>/<task>.parquet ...``);
    naming them reads the task list, so such a rule also takes ``task_list`` (the checkpoint's output,
    ``ancient(TASK_LIST)``: Snakemake requires it of a rule whose parameters read a checkpoint) as its
    input :data:`SELECTED_FROM`, which is no role of the step."""

    def __init__(self, config: Mapping[str, Any], *, files: StepFiles, inputs: StudyInputs,
                 paths: Mapping[R.StudyFile, Any], folders: Mapping[R.StudyFile, str] | None = None,
                 task_list: Any = None) -> None:
        self.config, self.files, self.study_inputs, self.paths = config, files, inputs, paths
        self.folders = dict(folders or {})
        self.task_list = task_list

    def _path(self, file: R.StudyFile) -> Any:
        if file not in self.paths:
            raise KeyError(f"the rules give no path for {file}; add it to StepRules(paths=...) in "
                           "workflow/rules/steps.smk")
        return self.paths[file]

    def _input(self, spec: R.Input) -> Any:
        if isinstance(spec, R.If):
            return self._input(spec.spec) if step_active(spec.when, self.config) else []
        if isinstance(spec, (R.Table, R.FigureData)):
            return self.files.csv(spec)
        if isinstance(spec, R.StudyFile):
            return self._path(spec)
        if isinstance(spec, R.OverTasks):
            if spec.file in self.folders:
                return self.folders[spec.file]
            return self._over_tasks(spec)
        raise TypeError(f"not a step input: {spec!r}")

    def _over_tasks(self, spec: R.OverTasks) -> Callable[[Any], list[str]]:
        """An input function: the per-task file of ``spec`` over the tasks of its selection."""
        over = {R.Selection.STUDY: self.study_inputs.per_task,
                R.Selection.DOWNSAMPLING: self.study_inputs.downsampling_runs,
                R.Selection.FOLD_SKEW: self.study_inputs.fold_skew_runs}
        return over[spec.selection](self._path(spec.file))

    def _in_folders(self, step: R.Step) -> dict[str, Callable[[Any], list[str]]]:
        """The roles of ``step`` that read per-task files of a folder (:attr:`folders`), active in this
        study: role -> the files' input function (the command names them; the rule depends on the folder)."""
        out = {}
        for role, spec in step.inputs:
            if isinstance(spec, R.If):
                if not step_active(spec.when, self.config):
                    continue
                spec = spec.spec
            if isinstance(spec, R.OverTasks) and spec.file in self.folders:
                out[role] = self._over_tasks(spec)
        return out

    def input(self, step: R.Step) -> dict[str, Any]:
        inputs = {role: self._input(spec) for role, spec in step.inputs}
        if self._in_folders(step):
            if self.task_list is None:
                raise ValueError(f"step {step.name} names files of a folder over the tasks: give StepRules(task_list=...)")
            inputs[SELECTED_FROM] = self.task_list
        return inputs

    def output(self, step: R.Step) -> dict[str, Any]:
        out = {role: self._path(file) for role, file in step.files}
        if step.tables:
            out["tables"] = self.files.tables(step)
        if step.figure_data:
            out["figure_data"] = self.files.figure_data(step)
        return out

    def per_task(self, step: R.Step) -> bool:
        """Is it one job per task (an output with ``{task}``)?"""
        return any("{task}" in str(path) for path in self.output(step).values())

    def settings(self, step: R.Step) -> str:
        return step_settings(**{key: COMPOSED[spec](self.config) if isinstance(spec, R.Composed)
                                else config_value(self.config, spec) for key, spec in step.settings})

    def arguments(self, step: R.Step) -> Callable[..., str]:
        """The rule's params function: ``prspace step NAME``'s arguments after the name."""
        return step_arguments({role: role for role, _ in step.inputs}, grouped=step.grouped,
                              settings=self.settings(step), tables="tables" if step.tables else None,
                              figure_data="figure_data" if step.figure_data else None,
                              outs=tuple(role for role, _ in step.files), files_of=self._in_folders(step))
