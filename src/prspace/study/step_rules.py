"""The ``prspace step`` rules of the workflow, made from the registry's steps (:mod:`prspace.core.registry`).

Each step with a ``run`` declares its rule as data (``Step.inputs``, ``settings``, ``files``,
``grouped``, ``resources``, ``description``); the one loop of ``workflow/rules/steps.smk`` turns
each into a rule through :class:`StepRules`. Its input specs: a ``Table`` / ``FigureData`` (its
CSV), a file of the study by name (``"status"``: a key of ``paths``), ``"per_task:<file>"`` (the
file over the study's tasks), ``"downsampling:<file>"`` / ``"fold_skew:<file>"`` (over the tasks of
Boyd's experiments), or ``(when, spec)``: no file unless ``when`` holds
(:func:`prspace.study.registry.step_active`). A setting is a configuration key path
(``"analysis.n_boot"``) or ``"@<name>"``, a value composed here (:data:`COMPOSED`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from prspace.core import registry as R
from prspace.study.registry import step_active
from prspace.study.step_args import step_arguments, step_settings
from prspace.study.workflow_inputs import StepFiles, StudyInputs

__all__ = ["COMPOSED", "StepRules"]


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


#: ``"@<name>"`` settings: text composed from the configuration (the scope a report states)
COMPOSED: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "downsampling_criteria": _downsampling_criteria,
    "fold_skew_criteria": _fold_skew_criteria,
    "downsampling_scope": _downsampling_scope,
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

    ``paths``: the study's files by name (inputs ``"status"``, ``"ranks"``, ...; a step's ``files``
    role by ``"<step>.<role>"`` or the role)."""

    def __init__(self, config: Mapping[str, Any], *, files: StepFiles, inputs: StudyInputs,
                 paths: Mapping[str, Any]) -> None:
        self.config, self.files, self.study_inputs, self.paths = config, files, inputs, paths

    def _input(self, spec: object) -> Any:
        if isinstance(spec, tuple):
            when, inner = spec
            return self._input(inner) if step_active(when, self.config) else []
        if isinstance(spec, (R.Table, R.FigureData)):
            return self.files.csv(spec)
        kind, _, name = str(spec).rpartition(":")
        if not kind:
            return self.paths[name]
        over = {"per_task": self.study_inputs.per_task, "downsampling": self.study_inputs.downsampling_runs,
                "fold_skew": self.study_inputs.fold_skew_runs}
        return over[kind](self.paths[name])

    def input(self, step: R.Step) -> dict[str, Any]:
        return {role: self._input(spec) for role, spec in step.inputs}

    def output(self, step: R.Step) -> dict[str, Any]:
        out = {role: self.paths.get(f"{step.name}.{role}", self.paths.get(role)) for role in step.files}
        if step.tables:
            out["tables"] = self.files.tables(step)
        if step.figure_data:
            out["figure_data"] = self.files.figure_data(step)
        return out

    def per_task(self, step: R.Step) -> bool:
        """Is it one job per task (an output with ``{task}``)?"""
        return any("{task}" in str(path) for path in self.output(step).values())

    def settings(self, step: R.Step) -> str:
        return step_settings(**{key: COMPOSED[spec[1:]](self.config) if spec.startswith("@")
                                else config_value(self.config, spec) for key, spec in step.settings})

    def arguments(self, step: R.Step) -> Callable[..., str]:
        """The rule's params function: ``prspace step NAME``'s arguments after the name."""
        return step_arguments({role: role for role, _ in step.inputs}, grouped=step.grouped,
                              settings=self.settings(step), tables="tables" if step.tables else None,
                              figure_data="figure_data" if step.figure_data else None, outs=step.files,
                              figure_data_first=step.figure_data_first)
