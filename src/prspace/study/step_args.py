"""The ``--set`` and ``--in`` arguments of a rule's ``prspace step`` command (:mod:`prspace.cli.step`).

A rule passes its settings from the configuration as ``params: settings=step_settings(n_boot=...,
seed=SEED)`` and its shell line ends ``{params.settings}``: each value is written as JSON and
shell-quoted, so lists and strings reach the step as the configuration holds them. A rule whose
inputs may be empty (a role with no file: the experiment is off, or no task qualified) passes them
as ``params: inputs=step_inputs("runs", ...)`` and ``{params.inputs}``: a role without files is left
out, which the step reads as none (``prspace step`` refuses ``--in ROLE=`` with no file).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from shlex import quote
from typing import Any

__all__ = ["step_inputs", "step_settings"]


def step_settings(**settings: object) -> str:
    """``--set KEY=JSON`` for every setting, each shell-quoted (``None`` is JSON ``null``)."""
    return " ".join(f"--set {quote(f'{key}={json.dumps(value)}')}" for key, value in settings.items())


def step_inputs(*roles: str) -> Callable[..., str]:
    """A rule's params function (Snakemake calls it with the job's ``input``): ``--in ROLE=PATH ...``
    for each named input in ``roles`` that has a file, each word shell-quoted."""
    def arguments(wildcards: object, input: Any) -> str:
        words = []
        for role in roles:
            files = getattr(input, role)
            files = [files] if isinstance(files, str) else [str(f) for f in files]
            if files:
                words += ["--in", quote(f"{role}={files[0]}"), *map(quote, files[1:])]
        return " ".join(words)

    return arguments
