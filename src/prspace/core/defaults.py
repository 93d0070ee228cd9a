"""The default number of bootstrap resamples of every function that takes ``n_boot``, written once, and
the one place a resample count given as None, or under a keyword's former name, is resolved.

Each function's signature reads its default from here (``n_boot: int = N_BOOT``), or takes ``n_boot=None``
meaning "the default" resolved by :func:`resolve_n_boot`, so that one number has one place (issue 43, "one
default per setting"; issue 79: the audit's resample count is ``n_boot`` from ``prspace audit --bootstrap``
down to the kernels). A keyword renamed in a public function stays accepted under its former name for a
while, with a warning naming the new one (:func:`renamed_keyword`). A study's own values come from its
configuration (``workflow/schemas/config.schema.yaml``); where the schema has a default for the same
setting, tests/core/test_defaults.py checks that the two agree. A setting that only a step reads has
its one default in the schema and none here: the verdicts' resamples (``analysis.verdicts.n_boot``)
reach every function of :mod:`prspace.verdicts` that takes them as a required argument, from the
step (``prspace step verdicts --set verdicts_n_boot=...``).
"""

from __future__ import annotations

import warnings
from typing import TypeVar

from prspace.core.errors import InputError

__all__ = ["N_BOOT", "N_BOOT_REPLICATE", "N_BOOT_REPLICATE_RANKS", "renamed_keyword", "resolve_n_boot"]

T = TypeVar("T")

#: Resamples behind a 95% interval of a study table or of the audit: the family (cluster) bootstrap
#: of the experiments (schema ``analysis.n_boot``) and the audit's row bootstrap.
N_BOOT = 1000

#: Resamples inside one simulated replicate of a calibration (the audit's coverage and paired-test
#: simulations, ``experiments.noise.noise_calibration``) and of one task's noise floor: many replicates are
#: drawn, so each uses fewer resamples.
N_BOOT_REPLICATE = 200

#: Resamples inside one simulated replicate of the rank-set calibration
#: (``experiments.noise.rank_sets``) and of the audit's grouped-rows simulation.
N_BOOT_REPLICATE_RANKS = 300


def resolve_n_boot(n_boot: int | None) -> int:
    """The resample count a caller asked for, :data:`N_BOOT` when it asked for none (``None``)."""
    return N_BOOT if n_boot is None else n_boot


def renamed_keyword(new: T | None, old: T | None, *, new_name: str, old_name: str, where: str,
                    stacklevel: int = 3) -> T | None:
    """The value of a keyword given under its name (``new``) or its former name (``old``; deprecated).

    Both default to None ("not given"), so an explicit value is told from the default whatever it
    equals: the former name warns (:class:`FutureWarning` naming the new one, pointed at the caller
    ``stacklevel`` frames up); both given is an :class:`~prspace.core.errors.InputError`, even when the
    two values agree.
    """
    if old is None:
        return new
    if new is not None:
        raise InputError(f"{where}: {new_name}= and {old_name}= name one option; give {new_name}= only")
    warnings.warn(f"{where}: {old_name}= is deprecated, use {new_name}= instead", FutureWarning, stacklevel=stacklevel)
    return old
