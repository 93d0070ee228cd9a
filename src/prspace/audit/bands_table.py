"""Simultaneous coverage of the audit's curve bands (resampling within class, default grid) per curve
and calibrated cell, its Monte Carlo se, replicates (:mod:`prspace.audit.bands`): ``COLUMNS`` and
``CELLS`` of ``bands_table.csv``, written by ``benchmarks/calib_bands.py --write-rule``."""

from prspace.audit.generated import read_cells

COLUMNS, CELLS = read_cells("bands_table.csv")
