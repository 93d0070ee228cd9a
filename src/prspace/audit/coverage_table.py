"""Per kind (per-model ``coverage``, paired ``pair coverage``), metric, interval method and calibrated
cell: the worse coverage of the null and the planted alternative, its Monte Carlo se, replicates
(:func:`prspace.audit.coverage.rule_table`): ``COLUMNS`` and ``CELLS`` of ``coverage_table.csv``,
written by ``benchmarks/calib_audit.py --coverage --write-rule``."""

from prspace.audit.generated import read_cells

COLUMNS, CELLS = read_cells("coverage_table.csv")
