"""Which of the audit's intervals are printed: those whose simulated coverage holds at the task's size.

The coverage of every interval method the audit computes is measured under the known truth of
:mod:`prspace.audit.simulation.simulate` (:func:`prspace.audit.simulation.coverage_calib.calibrate_coverage`, run
across skew by ``benchmarks/calib_audit.py --coverage``; the table it writes is
``audit/data/coverage_table.csv``, :data:`CELLS`).  Per simulation replicate (:func:`prspace.audit.simulation.simulate.replicate`,
the one the paired tests' calibration draws too; scored by
:func:`prspace.audit.simulation.coverage_calib.coverage_outcomes`), of the intervals of :func:`model_intervals`:

* per model, the 95% intervals of every metric: DeLong (normal, clipped to [0, 1], as pROC) and
  DeLong on the logit scale (:func:`prspace.stats.intervals.logit_interval`) for AUROC; the
  percentile bootstrap within class (the audit's scheme); the stratified jackknife-t, on the logit
  scale for the metrics bounded by [0, 1] (:func:`prspace.stats.intervals.jackknife_interval`,
  strata the class); Boyd et al.'s
  logit and binomial intervals for AUPR;
* per pair of models, the unadjusted paired 95% interval of the difference (DeLong's paired test
  for AUROC, the paired bootstrap percentile interval for every metric).

The rule (:func:`coverage_of`, :func:`shown`): an interval method is printed on a task iff its
coverage in the calibrated cell nearest the task (the distance of
:func:`prspace.audit.inference.decision.decide`: ``(log(n_pos / n_pos_c))^2 + (log(pi / pi_c))^2``),
the worse of the null and the planted alternative, is at least :data:`TARGET`.  Otherwise the
report says in one sentence how much it covers there (:func:`not_shown`), and the interval stays
in ``intervals.csv``/``comparisons.csv`` with ``calibrated`` False.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from pathlib import Path

import numpy as np
import pandas as pd

from prspace.audit.audit_numbers import count, percents
from prspace.audit.rule_tables import read_cells, table_path, write_cells
from prspace.stats.intervals import (
    boyd_intervals,
    jackknife_interval,
    logit_interval,
    normal_interval,
    percentile,
)
from prspace.stats.replicates import BOOT_METRICS, Block

#: Per kind (per-model ``coverage``, paired ``pair coverage``), metric, interval method and calibrated
#: cell: the worse coverage of the null and the planted alternative, its Monte Carlo se, replicates
#: (:func:`rule_table`): the rule table ``coverage_table.csv`` of the audit's package data, written by
#: ``benchmarks/calib_audit.py --coverage --write-rule``.
COLUMNS, CELLS = read_cells("coverage_table.csv")
#: Least simulated coverage of a printed 95% interval (issue 32's acceptance).
TARGET = 0.93
#: Per-model interval methods, in the order the report prefers them per metric.
PREFERRED = {"auroc": ("DeLong (logit)", "DeLong", "jackknife-t", "bootstrap"),
             "aupr": ("jackknife-t", "bootstrap", "logit (Boyd 2013)", "binomial (Boyd 2013)")}
DEFAULT_PREFERRED = ("jackknife-t", "bootstrap")


def class_strata(block: Block) -> Block:
    """``block`` with the class as its only strata (the jackknife of the per-model intervals)."""
    return dataclasses.replace(block, stratum=block.y.astype(np.int64))


#: AUROC's DeLong intervals (normal, clipped as pROC; on the logit scale) and AUPR's of Boyd et al. (2013),
#: by their method names in the tables.
DELONG = {"DeLong": normal_interval, "DeLong (logit)": logit_interval}
BOYD = {"binomial (Boyd 2013)": "binomial", "logit (Boyd 2013)": "logit"}


def model_intervals(points: np.ndarray, n_pos: float, confidence: float, *,
                    delong_fit: tuple[np.ndarray, np.ndarray] | None = None, reps: np.ndarray | None = None,
                    jack: tuple[np.ndarray, np.ndarray] | None = None) -> dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]:
    """Every per-model interval the audit computes, as ``(metric, method) -> (lo, hi)`` arrays over the
    models: AUROC by :data:`DELONG` from ``delong_fit`` (``(auroc, covariance)`` of
    :func:`prspace.stats.delong.delong`, when given), AUPR by :data:`BOYD` from ``points``' AUPR
    and ``n_pos`` positives, and every metric of :data:`BOOT_METRICS` by the percentile bootstrap of
    ``reps`` (``(B, models, metrics)``, when given) and the jackknife-t of ``jack`` (``(replicates,
    strata)``, when given).  ``points``: (models, :data:`BOOT_METRICS`)."""
    out: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = {}
    if delong_fit is not None:
        est, cov = delong_fit
        for name, f in DELONG.items():
            iv = np.array([f(float(est[i]), float(cov[i, i]), confidence) for i in range(len(est))])
            out[("auroc", name)] = iv[:, 0], iv[:, 1]
    c = BOOT_METRICS.index("aupr")
    boyd = [boyd_intervals(float(v), n_pos, confidence) for v in points[:, c]]
    for name, key in BOYD.items():
        iv = np.array([b[key] for b in boyd])
        out[("aupr", name)] = iv[:, 0], iv[:, 1]
    if reps is not None:
        lo, hi = percentile(reps, confidence)
        out |= {(m, "bootstrap"): (lo[:, i], hi[:, i]) for i, m in enumerate(BOOT_METRICS)}
    if jack is not None:
        lo, hi = jackknife_interval(points, *jack, confidence)
        out |= {(m, "jackknife-t"): (lo[:, i], hi[:, i]) for i, m in enumerate(BOOT_METRICS)}
    # every interval within its metric's range (AUPRG's jackknife-t, on the identity scale, can pass 1)
    return {(m, k): tuple(np.clip(v, *METRIC_RANGE.get(m, (0.0, 1.0)))) for (m, k), v in out.items()}


#: The range of each metric whose intervals the audit prints, where it is not [0, 1]: AUPRG counts negative
#: precision gains negatively (Flach and Kull 2015, 3.3), so it has no lower bound, and its upper end is 1.
METRIC_RANGE = {"auprg": (-np.inf, 1.0)}


@dataclasses.dataclass(frozen=True)
class Coverage:
    """Simulated coverage of one interval method in the calibrated cell nearest a task."""

    metric: str
    method: str
    coverage: float
    mc_se: float
    pi: float
    n: int
    n_pos: int

    @property
    def shown(self) -> bool:
        return bool(self.coverage >= TARGET)


@functools.lru_cache(maxsize=1)
def _table() -> pd.DataFrame:
    return pd.DataFrame(CELLS, columns=COLUMNS)


def coverage_of(metric: str, method: str, n_pos: float, n: float, *, kind: str = "coverage",
                table: pd.DataFrame | None = None) -> Coverage | None:
    """The coverage of ``method``'s intervals for ``metric`` at the calibrated cell nearest a task
    with ``n_pos`` positives of ``n`` rows (module docstring); None if never calibrated."""
    if table is None:  # the shipped table: the same answer for every pair of models of a task, looked up once
        return _nearest(metric, method, float(n_pos), float(n), kind)
    return _nearest_in(table, metric, method, n_pos, n, kind)


@functools.lru_cache(maxsize=4096)
def _nearest(metric: str, method: str, n_pos: float, n: float, kind: str) -> Coverage | None:
    return _nearest_in(_table(), metric, method, n_pos, n, kind)


def _nearest_in(t: pd.DataFrame, metric: str, method: str, n_pos: float, n: float, kind: str) -> Coverage | None:
    t = t[(t["kind"] == kind) & (t["metric"] == metric) & (t["method"] == method)]
    if not len(t) or not (n_pos > 0 and n > n_pos):
        return None
    pi = n_pos / n
    dist = t["n_pos"].map(lambda c: math.log(n_pos / c)) ** 2 + t["pi"].map(lambda c: math.log(pi / c)) ** 2
    r = t.loc[dist.idxmin()]
    return Coverage(metric, method, float(r["coverage"]), float(r["mc_se"]), float(r["pi"]), int(r["n"]),
                    int(r["n_pos"]))


def shown(metric: str, method: str, n_pos: float, n: float, *, kind: str = "coverage") -> bool:
    """Whether the audit prints ``method``'s interval for ``metric`` on such a task."""
    c = coverage_of(metric, method, n_pos, n, kind=kind)
    return c is not None and c.shown


def not_shown(c: Coverage, label: str, n_pos: float, what: str = "interval") -> str:
    """The sentence the report prints for an interval it does not show."""
    cov, target = percents(c.coverage, TARGET)  # as many digits as tell them apart: never "93% ... target 93%"
    return (f"with {count(n_pos)} positives the {label} {what} ({c.method}) covers only {cov} in simulation "
            f"(MC se {c.mc_se:.3f}; calibrated at pi = {c.pi:g}, {count(c.n_pos)} positives; target {target}); not shown")


def rule_table(calibration: pd.DataFrame) -> pd.DataFrame:
    """Per cell, kind, metric and method: the worse coverage of the null and the alternative."""
    c = calibration.reset_index(drop=True)
    g = c.groupby(["kind", "metric", "method", "pi", "n", "n_pos"])
    out = g.agg(coverage=("share", "min"), reps=("reps", "min")).reset_index()
    worst = c.loc[g["share"].idxmin(), ["kind", "metric", "method", "pi", "n", "mc_se"]]
    return out.merge(worst, on=["kind", "metric", "method", "pi", "n"]).sort_values(
        ["kind", "metric", "method", "pi", "n"]).reset_index(drop=True)


def write_table(calibration: pd.DataFrame, seed: int, path=None):
    """Write the rule table ``coverage_table.csv`` (:data:`CELLS`) from the coverage CSV's rows."""
    cols = ["kind", "metric", "method", "pi", "n", "n_pos", "coverage", "mc_se", "reps"]
    return write_cells(
        Path(path) if path else table_path("coverage_table.csv"),
        header=(f"Generated by ``benchmarks/calib_audit.py --coverage --write-rule`` (seed {seed}); do not edit.\n\n"
                   "Per kind (per-model ``coverage``, paired ``pair coverage``), metric, interval method and calibrated\n"
                   "cell: the worse coverage of the null and the planted alternative, its Monte Carlo se, replicates\n"
                   "(:func:`prspace.audit.inference.coverage.rule_table`)."),
        columns=cols, rows=rule_table(calibration)[cols].itertuples(index=False), ints=("n", "n_pos", "reps"),
        floats=("coverage", "mc_se"))
