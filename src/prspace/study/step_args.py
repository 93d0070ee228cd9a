"""The ``--set`` arguments of a rule's ``prspace step`` command (:mod:`prspace.cli.step`).

A rule passes its settings from the configuration as ``params: settings=step_settings(n_boot=...,
seed=SEED)`` and its shell line ends ``{params.settings}``: each value is written as JSON and
shell-quoted, so lists and strings reach the step as the configuration holds them.
"""

from __future__ import annotations

import json
from shlex import quote

__all__ = ["step_settings"]


def step_settings(**settings: object) -> str:
    """``--set KEY=JSON`` for every setting, each shell-quoted (``None`` is JSON ``null``)."""
    return " ".join(f"--set {quote(f'{key}={json.dumps(value)}')}" for key, value in settings.items())
