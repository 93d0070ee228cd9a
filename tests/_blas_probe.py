"""Subprocess half of tests/stats/test_same_bytes_any_blas.py: the resampling engines' outputs, hashed.

    python tests/_blas_probe.py

Runs, on data made here from a fixed seed, the engines behind the verdicts and the sensitivity tables (and of the
intervals of several analysis steps): the studentized cluster bootstrap (:func:`prspace.stats.cluster_bootstrap.run`: means, a
paired difference, a bounded share, a quartile; its intervals, counted coverage, MC errors and decision p-values),
its power curve, the sign-flip test (:func:`prspace.stats.sign_flip.run`, drawn sign patterns) and DeLong's
simultaneous pairs (:func:`prspace.stats.pairwise.delong_pairs`, simulated max-T); the verdict step's own
decisions on top of them (:func:`prspace.verdicts.primary.primary_statistics` on a made-up per-task table: Holm,
counted coverage, the sign-flip test's power with drawn sign patterns; and the margin sensitivity,
:func:`prspace.verdicts.sensitivity.margin_sensitivity_table`); and the engine of ``calibration.csv``
(:func:`prspace.experiments.noise.noise_calibration.calibrate` at one small size, the batch metric kernel on simulated
tasks' bootstrap counts and on real-valued group masses, as the population curves pass them). Prints one JSON
line: each output's name and the SHA-256 of its float64 bytes, and the BLAS core type and thread count threadpoolctl
saw.  The machine differences come from the environment the parent sets (``OPENBLAS_CORETYPE``,
``OPENBLAS_NUM_THREADS``, ``NPY_DISABLE_CPU_FEATURES``, ``GLIBC_TUNABLES``).
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_info

from prspace import metrics as M
from prspace.stats import cluster_bootstrap as CB
from prspace.stats import sign_flip


def _h(x) -> str:
    return hashlib.sha256(np.ascontiguousarray(np.asarray(x, dtype=np.float64)).tobytes()).hexdigest()


def _numbers(frame: pd.DataFrame) -> np.ndarray:
    return frame.select_dtypes("number").to_numpy(np.float64)


def verdict_engines(rng: np.random.Generator) -> dict[str, str]:
    """The verdict step's decisions (``verdicts.csv``, ``sensitivity.csv``, ``margin_sensitivity.csv``) on a made-up
    per-task table of 40 tasks in 20 families: Flach & Kull's primary statistics decided together (the power
    curves left out: :func:`main` probes one), each claim at the sensitivity table's margins, and a sign-flip
    claim's power above ``POWER_EXACT_MAX`` families (drawn sign patterns)."""
    from prspace.verdicts import primary as P
    from prspace.verdicts.sensitivity import margin_sensitivity_table

    n_t = 40
    rows = [{"task_id": f"t{i:02d}", "metric_a": a, "metric_b": b, "top1_differs": bool(rng.random() < 0.3),
             "top3_differs": bool(rng.random() < 0.6), "spearman": float(np.clip(rng.normal(0.9, 0.08), -1, 1))}
            for i in range(n_t) for a, b in (("aupr", "auprg"), ("aupr", "auroc"), ("auprg", "auroc"))]
    tasks = pd.DataFrame({"task_id": [f"t{i:02d}" for i in range(n_t)], "family": [f"f{i // 2}" for i in range(n_t)]})
    kept: dict = {}
    decided = P.primary_statistics(pd.DataFrame(rows), tasks, n_boot=300, seed=3, power=False, keep=kept, n_out=200)
    margins = margin_sensitivity_table(kept, n_boot=300, seed=3)
    d = rng.normal(0.02, 0.05, n_t)
    sf = sign_flip.run(d, np.arange(n_t) // 2, n_sims=200, reruns=2, seed=[9, 1])
    grid, power = sign_flip.power_curve(sf, 0.0, 0.01, 0.05, seed=4, reps=100, null=200, null_here=200, grid=np.array([8, 20]))
    return {"verdicts": _h(_numbers(decided)), "margin_sensitivity": _h(_numbers(margins)),
            "sign_flip_power": _h(np.r_[grid, power])}


def calibration_engine(rng: np.random.Generator) -> dict[str, str]:
    """The engine of ``calibration.csv``: :func:`~prspace.experiments.noise.noise_calibration.calibrate` at one
    small size (its population curves, the roots of the planted reversals, the simulated tasks' decisions), the
    batch kernel's AUPR, AUPRG and AUROC of simulated tasks' bootstrap counts, and of real-valued group masses
    (a population curve's: every segment's ``log1p`` at a value of its own)."""
    from prspace.experiments.noise import noise_calibration as C
    from prspace.experiments.noise.sim_metrics import scored_metrics_many
    from prspace.experiments.ranking import PAPER_RESULTS
    from prspace.stats.resampling import uniform_counts

    keys = ["aupr", "auprg", "auroc"]
    y = np.r_[np.ones(30), np.zeros(90)]
    scores = rng.normal(size=(4, 2, y.size)) + y
    w = np.stack([uniform_counts(y > 0, 200, rng) for _ in range(4)])
    full, boot = scored_metrics_many(scores, y, w, keys)
    tp, fp = rng.exponential(size=(2, 20_000, 4))  # few segments: one log1p's last bit shows in a resample's sum
    masses = M.metrics_from_group_counts_batch(tp, fp, keys)
    table, summary = C.calibrate(pd.DataFrame({"n": [80], "n_pos": [20]}), pairs=list(PAPER_RESULTS), n_sim=30,
                                 n_sim_null=30, n_boot=60, seed=4, sigmas=(0.5, 4.0), sigmas_a=(1.0,))
    return {"sim_metrics": _h(np.concatenate([np.ravel(v) for d in (full, boot) for v in d.values()])),
            "group_masses": _h(np.concatenate([masses[k] for k in keys])),
            "calibration": _h(_numbers(table)), "calibration_summary": _h(_numbers(summary))}


def main() -> None:
    rng = np.random.default_rng(20261126)
    n_tasks, n_fam = 140, 37
    fam = np.sort(rng.integers(0, n_fam, n_tasks))
    fam = np.unique(fam, return_inverse=True)[1].ravel()
    x = rng.normal(0.3, 0.2, n_tasks) + 0.1 * rng.normal(size=n_fam)[fam]
    y = x + rng.normal(0.02, 0.05, n_tasks)
    share = (rng.random(n_tasks) < 0.3).astype(float)
    stats = [CB.ratio_stat(x, fam), CB.combo_stat([(1.0, y), (-1.0, x)], fam), CB.quantile_stat(x, fam, 0.25)]
    bounded = CB.ratio_stat(share, fam)
    stats.append(CB.Stat(bounded.S, bounded.N, bounded.w, bounds=(0.0, 1.0)))
    out = {}
    res = CB.run(stats, B=4000, seed=[7, 1], replicates=4, n_out=800, n_in=400)
    alpha = np.full(len(stats), 0.025)
    lo, hi = res.interval(alpha)
    out.update(estimate=_h(res.estimate), se=_h(res.se), t1=_h(res.t1), u=_h(res.u), lo=_h(lo), hi=_h(hi))
    out["mc_error"] = _h(np.concatenate(res.mc_error(alpha)))
    out["coverage"] = _h(np.concatenate([np.ravel(v) for v in res.coverage(alpha).values()]))
    out["decision_ps"] = _h([np.ravel(v[1]).tolist() + [v[0]] for v in res.decision_ps(1, 0.0, 0.01).values()])
    grid, power = CB.power_curve(stats[1], 0.0, 0.01, 0.05, seed=3, reps=300)
    out["power_curve"] = _h(np.r_[grid, power])
    sf = sign_flip.run(y - x, fam, n_sims=400, reruns=3, seed=[5, 2])
    a1 = np.array([0.025])
    sf_ps = [v for item in sf.decision_ps(0, 0.0, 0.01).values() for v in (item[0], *np.ravel(item[1]))]
    out["sign_flip"] = _h(np.r_[np.concatenate(sf.interval_at(a1)), np.concatenate(sf.mc_error(a1)), sf_ps])
    out.update(verdict_engines(np.random.default_rng(20261127)))
    out.update(calibration_engine(np.random.default_rng(20261128)))
    info = [(i.get("internal_api"), i.get("architecture"), i.get("num_threads")) for i in threadpool_info()]
    print(json.dumps({"hashes": out, "blas": info}))


if __name__ == "__main__":
    main()
