"""Planning without data: the power of the audit's paired test for two models from assumed values.

``prspace power --plan``: the user assumes each model's value of one metric (AUROC, AP, AUPR or
AUPRG), the planned numbers of cases (positives) and controls (negatives), and the correlation of
the two models' scores within each class; the answer is the power of the audit's deciding test
(:func:`prspace.audit.simulation.audit_power.reject`: DeLong's paired z for AUROC, the class-stratified
jackknife t for the others) to tell the two apart.  The role pROC's ``power.roc.test(list(A1, B1,
A2, B2, rn, ra, delta), ncases, ncontrols)`` plays for AUROC, for the PR metrics as well.

The assumed world (this project's choice, as in pROC's binormal form): each model's score is
binormal with equal variances, ``N(0, 1)`` for controls and ``N(mu, 1)`` for cases, the two
models' scores correlated ``corr`` within each class (pROC's ``rn = ra = corr``, ``B1 = B2 = 1``);
the prevalence is ``cases / (cases + controls)`` (it moves AP, AUPR and AUPRG, not AUROC).

Method: a *population* of :data:`POPULATION` cases and as many controls (common random numbers
from ``seed``; controls weighted ``controls / cases`` so that the population has the planned
prevalence), each model's ``mu`` solved by bisection so that the population's metric equals the
assumed value exactly; then :func:`prspace.audit.simulation.audit_power.detection_rate` draws ``sims`` planned test
sets of ``cases`` and ``controls`` rows from it and runs the test, at the level the audit corrects
the test to at that size and skew (:func:`prspace.audit.simulation.audit_power.planned_threshold`) unless
``corrected=False``.  Checked against pROC (AUROC) and against test sets drawn fresh from the
binormal truth (all metrics) in ``tests/audit/test_audit_planning.py``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from prspace.audit.simulation.audit_power import (
    METRICS,
    Pair,
    _block,
    detection_rate,
    planned_threshold,
)
from prspace.core.errors import InputError
from prspace.stats.replicates import BOOT_METRICS, point_metrics

#: Cases (and controls) of the planning population.
POPULATION = 20_000


@dataclasses.dataclass(frozen=True)
class Plan:
    """A planning answer: the power and its Monte Carlo se, the binormal means solved, the raw
    p-value threshold the test used."""

    metric: str
    value_a: float
    value_b: float
    cases: int
    controls: int
    corr: float
    mu_a: float
    mu_b: float
    level: float
    power: float
    mc_se: float
    sims: int


def check_plan(metric: str, value_a: float, value_b: float, cases: int, controls: int, corr: float,
               alpha: float) -> None:
    """The planning inputs, each in its range (one :class:`InputError` naming the option)."""
    if metric not in METRICS:
        raise InputError(f"--metric {metric!r} has no planning answer; choose one of {', '.join(METRICS)}")
    if cases < 2 or controls < 2:
        raise InputError(f"--cases and --controls need at least 2 each, got {cases} and {controls}")
    if not -1 < corr < 1:
        raise InputError(f"--corr must lie strictly between -1 and 1, got {corr:g}")
    if not 0 < alpha < 1:
        raise InputError(f"--alpha must lie strictly between 0 and 1, got {alpha:g}")
    if value_a == value_b:
        raise InputError("--value-a and --value-b are equal: there is no difference to detect")
    pi = cases / (cases + controls)
    low = {"auroc": 0.5, "average_precision": pi, "aupr": pi, "auprg": 0.0}[metric]
    for name, v in (("--value-a", value_a), ("--value-b", value_b)):
        if not low < v < 1:
            raise InputError(f"{name} {v:g} is outside ({low:.4g}, 1), the {metric} of binormal scores better than "
                             f"chance at prevalence {pi:.4g}; give a value inside")


def binormal_population(cases: int, controls: int, corr: float, seed: int = 0,
                        size: int = POPULATION) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Labels ``y``, weights ``w`` (controls weighted to the planned prevalence) and the two models'
    standard-normal noises, correlated ``corr`` within each class."""
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(size, bool), np.zeros(size, bool)]
    z1, z2 = rng.standard_normal((2, 2 * size))
    w = np.where(y, 1.0, controls / cases)
    return y, w, z1, corr * z1 + np.sqrt(1 - corr**2) * z2


def _metric(y: np.ndarray, w: np.ndarray, s: np.ndarray, metric: str) -> float:
    return float(point_metrics(_block(y, s, s, w))[0, BOOT_METRICS.index(metric)])


def solve_mu(y: np.ndarray, w: np.ndarray, z: np.ndarray, metric: str, value: float, *, tol: float = 1e-7) -> float:
    """The case mean ``mu`` at which the population's ``metric`` of ``mu y + z`` equals ``value``."""
    lo, hi = -10.0, 10.0
    if not _metric(y, w, lo * y + z, metric) < value < _metric(y, w, hi * y + z, metric):
        raise InputError(f"{metric} {value:g} cannot be reached by binormal scores at this prevalence; give a value "
                         "nearer the middle of its range")
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        f = _metric(y, w, mid * y + z, metric) - value
        if abs(f) < tol:
            return mid
        lo, hi = (mid, hi) if f < 0 else (lo, mid)
    return 0.5 * (lo + hi)


def plan_power(metric: str, value_a: float, value_b: float, *, cases: int, controls: int, corr: float = 0.5,
               alpha: float = 0.05, sims: int = 400, seed: int = 0, corrected: bool = True,
               size: int = POPULATION) -> Plan:
    """The power of the audit's paired test of ``metric`` to tell model a (assumed ``value_a``)
    from model b (``value_b``) on ``cases`` positives and ``controls`` negatives (module docstring)."""
    check_plan(metric, value_a, value_b, cases, controls, corr, alpha)
    y, w, za, zb = binormal_population(cases, controls, corr, seed, size)
    mu_a, mu_b = solve_mu(y, w, za, metric, value_a), solve_mu(y, w, zb, metric, value_b)
    pair = Pair(y, mu_a * y + za, mu_b * y + zb, w)
    level = planned_threshold(metric, cases, controls, alpha) if corrected else alpha
    p, se = detection_rate(pair, metric, c=0.0, n_pos=cases, n_neg=controls, alpha=level, sims=sims,
                           rng=np.random.default_rng(seed + 1), sign=1.0 if value_a > value_b else -1.0)
    return Plan(metric, value_a, value_b, cases, controls, corr, mu_a, mu_b, level, p, se, sims)
