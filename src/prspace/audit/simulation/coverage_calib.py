"""The simulated coverage of the audit's intervals (:mod:`prspace.audit.inference.coverage`): each interval
method scored on simulation replicates under the known truth of :mod:`prspace.audit.simulation.simulate`.

:func:`calibrate_coverage` is run across skew by ``benchmarks/calib_audit.py --coverage``, and
:func:`prspace.audit.inference.coverage.write_table` makes the rule table ``coverage_table.csv`` of its rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from prspace.audit.inference.coverage import DELONG, class_strata, model_intervals
from prspace.audit.simulation.simulate import Replicate, replicate, replicates
from prspace.core.defaults import N_BOOT_REPLICATE
from prspace.stats.distributions import norm
from prspace.stats.replicates import BOOT_METRICS


def coverage_outcomes(r: Replicate, truth: np.ndarray, *, alpha: float = 0.05) -> list[dict]:
    """Coverage outcomes of one simulation replicate (:mod:`prspace.audit.inference.coverage`'s docstring; :func:`prspace.audit.simulation.simulate.replicate`
    with the class as the jackknife's strata): rows ``kind, metric, method, value``."""
    conf = 1 - alpha
    k = len(r.block.models)
    rows: list[dict] = []

    def add(kind: str, metric: str, method: str, hit: np.ndarray) -> None:
        rows.append({"kind": kind, "metric": metric, "method": method, "value": float(np.mean(hit))})

    est, cov = r.delong
    a = BOOT_METRICS.index("auroc")
    reps = r.boot
    bounds = model_intervals(r.points, float(r.block.y.sum()), conf, delong_fit=(est, cov), reps=reps,
                             jack=(r.jack, r.strata))
    for name in DELONG:
        lo, hi = bounds[("auroc", name)]
        add("coverage", "auroc", name, (lo <= truth[:, a]) & (truth[:, a] <= hi))
    c = BOOT_METRICS.index("aupr")
    for name in ("logit (Boyd 2013)", "binomial (Boyd 2013)"):  # the calibration table's row order
        lo, hi = bounds[("aupr", name)]
        add("coverage", "aupr", name, (lo <= truth[:, c]) & (truth[:, c] <= hi))
    iu, ju = np.triu_indices(k, 1)
    true_d = truth[iu] - truth[ju]
    d = reps[:, iu] - reps[:, ju]
    dlo, dhi = np.nanquantile(d, alpha / 2, axis=0), np.nanquantile(d, 1 - alpha / 2, axis=0)
    for m, metric in enumerate(BOOT_METRICS):
        t = truth[:, m]
        for name in ("bootstrap", "jackknife-t"):
            lo, hi = bounds[(metric, name)]
            add("coverage", metric, name, (lo <= t) & (t <= hi))
        add("pair coverage", metric, "paired bootstrap", (dlo[:, m] <= true_d[:, m]) & (true_d[:, m] <= dhi[:, m]))
    se = np.sqrt(np.clip(cov[iu, iu] + cov[ju, ju] - 2 * cov[iu, ju], 0, None))
    z = norm.ppf(1 - alpha / 2)
    diff = est[iu] - est[ju]
    add("pair coverage", "auroc", "DeLong paired", (diff - z * se <= true_d[:, a]) & (true_d[:, a] <= diff + z * se))
    return rows


def calibrate_coverage(pi: float, n: int, reps: int, *, alternative: bool, seed: int = 0,
                       n_boot: int = N_BOOT_REPLICATE) -> pd.DataFrame:
    """``reps`` simulation replicates (:func:`prspace.audit.simulation.simulate.replicates`, stream 32 of the cell, and
    :func:`prspace.audit.simulation.simulate.replicate`, the class as the jackknife's strata) at ``(pi, n)`` under the
    truth of :mod:`prspace.audit.simulation.simulate`, scored by :func:`coverage_outcomes`: one row per ``kind, metric,
    method`` with the ``share`` and its Monte Carlo ``mc_se = sqrt(p (1 - p) / R)`` (R replicates; a
    per-model share averages k intervals of one test set, so this se is conservative), and the cell."""
    rows = []
    for block, truth, rng in replicates(pi, n, reps, alternative=alternative, seed=seed, stream=(32,)):
        rows += coverage_outcomes(replicate(block, rng, n_boot=n_boot, jackknife_block=class_strata(block)), truth)
    out = pd.DataFrame(rows).groupby(["kind", "metric", "method"], sort=False)["value"].mean().rename(
        "share").reset_index()
    out["mc_se"] = np.sqrt(out["share"] * (1 - out["share"]) / reps)
    return out.assign(pi=pi, n=n, n_pos=max(2, int(round(pi * n))),
                      truth="alternative" if alternative else "null", reps=reps)
