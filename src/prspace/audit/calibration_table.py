"""Per metric, procedure and calibrated cell: the worse directional family-wise error of the null
and the planted alternative, the power on the planted lead, replicates, the simultaneous coverage of
its intervals (:func:`prspace.audit.decision.rule_table`): ``COLUMNS`` and ``CELLS`` of
``calibration_table.csv``, written by ``benchmarks/calib_audit.py --write-rule``."""

from prspace.audit.generated import read_cells

COLUMNS, CELLS = read_cells("calibration_table.csv")
