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
import os
from collections.abc import Callable, Mapping
from shlex import quote
from typing import Any

__all__ = ["step_arguments", "step_inputs", "step_settings"]


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


def step_arguments(ins: dict[str, str], *, grouped: bool = False, settings: str = "",
                   tables: str | None = None, figure_data: str | None = None, outs: tuple[str, ...] = (),
                   files_of: Mapping[str, Callable[[Any], list[str]]] | None = None) -> Callable[..., str]:
    """A step rule's params function (Snakemake calls it with the job's ``input`` and ``output``): the
    arguments of ``prspace step NAME`` after the name, as one string.

    ``ins`` maps each ``--in`` role to the rule's input of its files, in command order; each role is
    one word group, left empty (two spaces) when it has no file, or with ``grouped`` all roles are one
    (:func:`step_inputs`: a role without files is dropped). Then ``settings`` (:func:`step_settings`),
    ``--tables-dir`` / ``--figure-data-dir`` (the folder of output ``tables`` / ``figure_data``) and ``--out ROLE=PATH`` for each output named in ``outs``; every
    word shell-quoted. ``files_of`` gives a role's files by an input function of its own instead of the
    rule's input (whose file is then the folder one job writes them into).
    """
    files_of = dict(files_of or {})

    def arguments(wildcards: object, input: Any, output: Any) -> str:
        renamed = type("Inputs", (), {role: files_of[role](wildcards) if role in files_of else getattr(input, key)
                                      for role, key in ins.items()})
        pieces = ([step_inputs(*ins)(wildcards, renamed)] if grouped
                  else [step_inputs(role)(wildcards, renamed) for role in ins])
        pieces += [settings] if settings else []
        dirs = [f"--tables-dir {quote(_folder(output, tables))}" if tables else "",
                f"--figure-data-dir {quote(_folder(output, figure_data))}" if figure_data else ""]
        pieces += [d for d in dirs if d]
        pieces += [f"--out {quote(f'{role}={getattr(output, role)}')}" for role in outs]
        return " ".join(pieces)

    return arguments


def _folder(output: Any, name: str) -> str:
    """The folder of the rule's output ``name`` (its first file if a list)."""
    value = getattr(output, name)
    return os.path.dirname(str(value if isinstance(value, str) else value[0]))
