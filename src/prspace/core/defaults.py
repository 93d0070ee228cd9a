"""The default number of bootstrap resamples of every function that takes ``n_boot``, written once.

Each function's signature reads its default from here (``n_boot: int = N_BOOT``) so that one
number has one place (issue 43, "one default per setting"). A study's own values come from its
configuration (``workflow/schemas/config.schema.yaml``); where the schema has a default for the same
setting, tests/core/test_defaults.py checks that the two agree. A setting that only a step reads has
its one default in the schema and none here: the verdicts' resamples (``analysis.verdicts.n_boot``)
reach every function of :mod:`prspace.verdicts` that takes them as a required argument, from the
step (``prspace step verdicts --set verdicts_n_boot=...``).
"""

from __future__ import annotations

__all__ = ["N_BOOT", "N_BOOT_REPLICATE", "N_BOOT_REPLICATE_RANKS"]

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
