"""Calibration by simulation of the noise floor's "distinguishable" check.

The noise floor (:mod:`prspace.experiments.noise.noise_floor`) calls a top-k disagreement between
metrics a and b *distinguishable* when two one-sided paired percentile bootstrap tests at level
``alpha`` both reject, of ``a(A) - a(B) > 0`` and of ``b(B) - b(A) > 0``
(:func:`~prspace.experiments.noise.noise_floor.distinguishable`, reached through
:func:`~prspace.experiments.noise.noise_floor.pair_decision`, which this module calls unchanged). It is
an intersection-union test (Berger 1982; Berger & Hsu 1996): the null "no real reversal" is the
union of "a(A) <= a(B)" and "b(B) <= b(A)", and its size is <= ``alpha``, reached at the
*boundary* where one component is exactly null and the other clearly false. A count such as
"0 of 82 disagreements are distinguishable" means something only with the check's false rate and
power at the study's task sizes; this module measures both by simulation.

Design (every choice a parameter of :func:`calibrate`):

* **Task sizes.** The lower quartile, median and upper quartile of the study's ``n_pos`` and
  ``n_neg`` (``tasks.csv``, tasks with status ok): three sizes ``q25``, ``q50``, ``q75``. A *small
  study* (fewer tasks with status ok than these three sizes, e.g. your own two datasets) is
  simulated at its tasks' own distinct sizes instead (``q0`` and ``q100``, or ``q50`` for one
  size), and with replicate counts capped for a stated Monte Carlo error
  (:func:`small_study_replicates`): its simulations then cost in proportion to what it holds.
* **Two models, binormal.** Negatives score N(0, 1) under both models. Model A's positives score
  N(mu_A, sigma_A) with mu_A = Phi^-1(``auroc``) sqrt(1 + sigma_A^2) (population AUROC ``auroc``);
  model B's positives N(mu_B, sigma_B). The two models' scores of one row are correlated (latent
  Gaussian correlation ``rho``), as models trained on the same features are; the paired
  bootstrap uses it.
* **Population values** of AUPR, AUPRG and AUROC (and every metric of
  :func:`prspace.metrics.metrics_from_group_counts`) at the size's pi come from the exact
  binormal curve: class probability mass in ``POP_GRID`` score bins, passed as group counts to
  the package's own kernel (the hyperbolic PR interpolation between bins converges to the curve;
  the grid's error is below 1e-6).
* **Three nulls** (``n_sim_null`` simulated tasks each, per size). ``null_equal``: mu_B = mu_A,
  sigma_B = sigma_A = 1, equal population value under every metric. ``null_eq_a`` (boundary):
  at the (sigma_A, sigma_B) of the pair's largest planted reversal, mu_B solved (Brent) so that
  a(B) = a(A) while b still prefers B clearly; ``null_eq_b`` the same with b(B) = b(A) and a
  preferring A. The *false rate* of a null is the share of simulated tasks whose two models
  disagree between the pair's metrics and are called distinguishable (``rate``), and that share
  among the disagreeing ones (``rate_given_differs``); ``other_power`` is, at a boundary, the
  share of tasks whose clearly-true component test rejects (near 1: the boundary is least
  favourable, and its false rate is close to the check's size).
* **Planted reversal.** For each pair (a, b), each sigma_A in ``sigmas_a`` and each sigma_B in
  ``sigmas`` (unequal variances: ROC and PR curves cross), mu_B is solved (Brent) so that the two
  population margins are equal and opposite: ``a(B) - a(A) = -(b(B) - b(A))``; the planted
  reversal is ``d = |a(B) - a(A)|``, the amount by which each metric prefers its own model.
  *Power* is the share of simulated tasks where the sample disagrees the way the population does
  and the check says distinguishable.
* **mdr80** (per pair and size): the smallest planted ``d`` such that every planted scenario with
  a reversal at least that large has power >= 0.8 (NaN if none has): "no reversal larger than
  mdr80 would be missed with 80% power". Where none has, ``max_reversal`` and ``power_at_max``
  say how far the check got.

Each simulated task draws its rows once (``n_pos`` positives, ``n_neg`` negatives), the two
models' scores, and ``n_boot`` stratified bootstrap counts shared by both models
(:func:`prspace.stats.resampling.uniform_counts`, distributed as the noise floor's), as the noise floor resamples a
task; all resamples' metrics come from the batch kernel, only the pair's metrics, many simulated
tasks per call (:func:`prspace.experiments.noise.sim_metrics.scored_metrics_many`, bit for bit the
one-at-a-time values).
Scenario ``j`` of size ``i`` draws from ``numpy.random.default_rng([seed, i, j])``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import special

from prspace import metrics as M
from prspace.core.defaults import N_BOOT_REPLICATE
from prspace.core.errors import InputError
from prspace.experiments.noise.noise_floor import ALPHA, excludes_zero, pair_decision
from prspace.experiments.noise.sim_metrics import chunk_size, scored_metrics_many
from prspace.stats.resampling import uniform_counts

#: score bins of the population curves
POP_GRID = 20001
POWER = 0.8
SIZES = (("q25", 0.25), ("q50", 0.5), ("q75", 0.75))

NULLS = ("null_equal", "null_eq_a", "null_eq_b")  # not "null": pandas reads it as NA

CALIBRATION_COLUMNS = [
    "pair", "metric_a", "metric_b", "size", "n_pos", "n_neg", "alpha", "scenario", "sigma_a", "mu_a", "sigma_b",
    "mu_b", "reversal", "pop_a_A", "pop_a_B", "pop_b_A", "pop_b_B", "n_sim", "n_boot", "n_differs", "n_flagged",
    "rate", "rate_se", "rate_given_differs", "other_power",
]
SUMMARY_COLUMNS = [
    "pair", "metric_a", "metric_b", "size", "n_pos", "n_neg", "alpha", "n_sim_null",
    "false_rate_null", "false_rate_null_se", "false_rate_eq_a", "false_rate_eq_a_se", "other_power_eq_a",
    "false_rate_eq_b", "false_rate_eq_b_se", "other_power_eq_b", "false_rate", "false_rate_se", "false_rate_upper",
    "max_reversal", "power_at_max", "mdr80",
]


def _ok_tasks(tasks: pd.DataFrame) -> pd.DataFrame:
    missing = {"n", "n_pos"} - set(tasks.columns)
    if missing:
        raise InputError(f"the task table lacks column(s) {sorted(missing)}; give the study's tables/tasks.csv")
    ok = tasks[tasks["status"] == "ok"] if "status" in tasks.columns else tasks
    if ok.empty:
        raise InputError("the task table has no task with status ok: run the study's predictions first")
    return ok


def is_small_study(tasks: pd.DataFrame) -> bool:
    """True when the study has fewer tasks with status ok than the sizes :data:`SIZES` would simulate."""
    return len(_ok_tasks(tasks)) < len(SIZES)


def small_study_replicates(tasks: pd.DataFrame, counts: Sequence[int], mc_error: float | None) -> list[int]:
    """The replicate ``counts`` to simulate: unchanged for a study of at least ``len(SIZES)`` tasks
    or without ``mc_error``; for a small study (:func:`is_small_study`) each capped at
    ``ceil(0.25 / mc_error**2)``, the count whose Monte Carlo standard error of a simulated rate,
    ``sqrt(p (1 - p) / n)``, is at most ``mc_error`` for every ``p`` (worst case ``p = 1/2``;
    near a false rate of 0.05 it is ``0.44 mc_error``)."""
    if mc_error is None or not is_small_study(tasks):
        return [int(c) for c in counts]
    if not (0.0 < mc_error < 0.5):
        raise InputError(f"mc_error must lie in (0, 0.5), e.g. 0.1, got {mc_error}")
    cap = int(np.ceil(0.25 / (mc_error * mc_error) - 1e-9))
    return [min(int(c), cap) for c in counts]


def task_sizes(tasks: pd.DataFrame) -> list[tuple[str, int, int]]:
    """``(label, n_pos, n_neg)`` at the quartiles and median of the study's tasks (status ok); for a
    small study (:func:`is_small_study`) its tasks' distinct sizes, smallest first: ``q50`` for one,
    ``q0`` and ``q100`` for two (the quartiles of two tasks are sizes no task has)."""
    ok = _ok_tasks(tasks)
    n_pos = ok["n_pos"].to_numpy(np.float64)
    n_neg = ok["n"].to_numpy(np.float64) - n_pos
    if len(ok) < len(SIZES):
        own = sorted({(max(2, int(p)), max(2, int(q))) for p, q in zip(n_pos, n_neg, strict=True)})
        labels = ["q50"] if len(own) == 1 else ["q0", "q100"]
        return [(label, p, q) for label, (p, q) in zip(labels, own, strict=True)]
    return [(label, *_quantile_size(n_pos, n_neg, q)) for label, q in SIZES]


def _quantile_size(n_pos: np.ndarray, n_neg: np.ndarray, q: float) -> tuple[int, int]:
    return max(2, int(round(float(np.quantile(n_pos, q))))), max(2, int(round(float(np.quantile(n_neg, q)))))


def median_size(tasks: pd.DataFrame) -> tuple[int, int]:
    """``(n_pos, n_neg)`` at the median of the study's tasks (status ok): the size ``q50`` of
    :func:`task_sizes` for a study of at least ``len(SIZES)`` tasks, the midpoint of two tasks."""
    ok = _ok_tasks(tasks)
    n_pos = ok["n_pos"].to_numpy(np.float64)
    return _quantile_size(n_pos, ok["n"].to_numpy(np.float64) - n_pos, 0.5)


def population_metrics(mu: float, sigma: float, pi: float, grid: int = POP_GRID,
                       keys: Sequence[str] | None = None) -> dict[str, float]:
    """Population metrics of the binormal model: negatives N(0, 1), positives N(mu, sigma), skew pi
    (only ``keys`` when given; the normal survival function as ``ndtr(-x)``, which is what
    ``scipy.stats.norm.sf`` computes)."""
    lo = min(-9.0, mu - 9.0 * sigma)
    hi = max(9.0, mu + 9.0 * sigma)
    edges = np.linspace(hi, lo, grid)
    cp = special.ndtr(-((edges - mu) / sigma))
    cn = special.ndtr(-edges)
    cp[0] = cn[0] = 0.0
    cp[-1] = cn[-1] = 1.0
    return M.metrics_from_group_counts(pi * np.diff(cp), (1 - pi) * np.diff(cn), keys)


def mu_for_auroc(auroc: float) -> float:
    """mu with population AUROC ``auroc`` for N(0, 1) negatives and N(mu, 1) positives."""
    from scipy import stats  # lazy: ~0.5 CPU s a process that never calls it
    return float(np.sqrt(2.0) * stats.norm.ppf(auroc))


def mu_for_auroc_sigma(auroc: float, sigma: float) -> float:
    """mu with population AUROC ``auroc`` for N(0, 1) negatives and N(mu, sigma) positives."""
    from scipy import stats  # lazy: ~0.5 CPU s a process that never calls it
    return float(stats.norm.ppf(auroc) * np.sqrt(1.0 + sigma * sigma))


def planted_reversal(metric_a: str, metric_b: str, mu_a: float, sigma_b: float, pi: float,
                     sigma_a: float = 1.0, equal: str | None = None) -> dict[str, float]:
    """Model B (sigma ``sigma_b``) against model A (N(``mu_a``, ``sigma_a``) positives).

    With ``equal=None``, B's population margins under a and b are equal and opposite (a planted
    reversal); with ``equal="a"`` (``"b"``), B equals A under metric a (b): a boundary null.
    Returns ``mu_b``, ``reversal`` = |a(B) - a(A)| and the four population values; ``mu_b`` is
    NaN when no mu_B within 6 max(1, sigma_A, sigma_B) of mu_A solves the equation.
    """
    from scipy import optimize  # lazy: ~0.5 CPU s a process that never calls it
    keys = (metric_a, metric_b)
    A = population_metrics(mu_a, sigma_a, pi, keys=keys)

    def excess(mu: float) -> float:
        B = population_metrics(mu, sigma_b, pi, keys=keys)
        if equal == "a":
            return B[metric_a] - A[metric_a]
        if equal == "b":
            return B[metric_b] - A[metric_b]
        return (B[metric_a] - A[metric_a]) + (B[metric_b] - A[metric_b])

    try:
        span = 6.0 * max(1.0, sigma_a, sigma_b)
        mu_b = float(optimize.brentq(excess, mu_a - span, mu_a + span, xtol=1e-7))
    except ValueError:
        return {"mu_b": float("nan"), "reversal": float("nan"), "pop_a_A": A[metric_a], "pop_a_B": float("nan"),
                "pop_b_A": A[metric_b], "pop_b_B": float("nan")}
    B = population_metrics(mu_b, sigma_b, pi, keys=keys)
    return {"mu_b": mu_b, "reversal": abs(B[metric_a] - A[metric_a]), "pop_a_A": A[metric_a], "pop_a_B": B[metric_a],
            "pop_b_A": A[metric_b], "pop_b_B": B[metric_b]}


def _simulate(n_pos: int, n_neg: int, mu_a: float, sigma_a: float, mu_b: float, sigma_b: float, rho: float,
              alpha: float, pairs: Sequence[tuple[str, str]], n_sim: int, n_boot: int, rng: np.random.Generator,
              ) -> dict[tuple[str, str], list[tuple[bool, bool, int, int, int]]]:
    """Per pair and simulated task: (differs, distinguishable, sign, t_a, t_b); sign = +1 when
    metric a prefers model A (index 0) and b model B, -1 the other way, 0 when they agree;
    t_m = +1 when the one-sided test (``alpha``) of m(A) - m(B) > 0 rejects, -1 when that of
    m(B) - m(A) > 0 rejects, else 0 (the component tests, for the boundary nulls).  Tasks are drawn
    one after the other from ``rng`` and scored a chunk at a time (:func:`scored_metrics_many`)."""
    y = np.r_[np.ones(n_pos, dtype=bool), np.zeros(n_neg, dtype=bool)]
    yf = y.astype(np.float64)
    n = y.size
    metrics = sorted({m for p in pairs for m in p})
    out: dict[tuple[str, str], list[tuple[bool, bool, int, int, int]]] = {p: [] for p in pairs}
    sd_a = np.where(y, sigma_a, 1.0)
    sd_b = np.where(y, sigma_b, 1.0)
    models = ["A", "B"]
    step = chunk_size(n_boot, n)
    for c in range(0, n_sim, step):
        size = min(step, n_sim - c)
        scores = np.empty((size, 2, n))
        w = np.empty((size, n_boot, n))
        for s in range(size):
            z1 = rng.standard_normal(n)
            z2 = rho * z1 + np.sqrt(1.0 - rho * rho) * rng.standard_normal(n)
            scores[s, 0] = mu_a * yf + sd_a * z1
            scores[s, 1] = mu_b * yf + sd_b * z2
            w[s] = uniform_counts(y, n_boot, rng)
        full_s, boot_s = scored_metrics_many(scores, yf, w, metrics)
        tests = {m: excludes_zero(boot_s[m][:, :, 0] - boot_s[m][:, :, 1], alpha).astype(int)
                 - excludes_zero(boot_s[m][:, :, 1] - boot_s[m][:, :, 0], alpha).astype(int) for m in metrics}
        for s in range(size):
            for a, b in pairs:
                fa, fb = full_s[a][s], full_s[b][s]
                differs, dist = pair_decision(fa, fb, boot_s[a][s], boot_s[b][s], models, 1, alpha)
                sign = 0
                if differs:
                    sign = 1 if fa[0] > fa[1] else -1
                out[(a, b)].append((differs, bool(dist) if differs else False, sign, int(tests[a][s]),
                                    int(tests[b][s])))
    return out


def _check_calibration(n_sim: int, n_sim_null: int, n_boot: int, auroc: float, rho: float,
                       sigmas: Sequence[float], sigmas_a: Sequence[float], alpha: float) -> None:
    """Raise :class:`InputError` for a calibration setting out of its range."""
    if n_sim < 1 or n_sim_null < 1 or n_boot < 10:
        raise InputError(f"n_sim and n_sim_null must be >= 1 and n_boot >= 10, got {n_sim}, {n_sim_null}, {n_boot}")
    if not (0.5 < auroc < 1.0) or not (-1.0 < rho < 1.0):
        raise InputError(f"auroc must lie in (0.5, 1) and rho in (-1, 1), got {auroc}, {rho}")
    if any(not (s > 0) for s in list(sigmas) + list(sigmas_a)) or not len(sigmas_a):
        raise InputError(f"every sigma must be > 0 (and sigmas_a not empty), got {list(sigmas)}, {list(sigmas_a)}")
    if not (0.0 < alpha < 0.5):
        raise InputError(f"alpha (one-sided) must lie in (0, 0.5), got {alpha}")


def calibrate(
    tasks: pd.DataFrame,
    *,
    pairs: Sequence[tuple[str, str]],
    n_sim: int = 100,
    n_sim_null: int = 300,
    n_boot: int = N_BOOT_REPLICATE,
    seed: int = 0,
    auroc: float = 0.85,
    rho: float = 0.5,
    sigmas: Sequence[float] = (0.05, 0.15, 0.3, 0.5, 2.0, 4.0, 8.0, 16.0),
    sigmas_a: Sequence[float] = (1.0, 4.0),
    alpha: float = ALPHA,
    sizes: Sequence[tuple[str, int, int]] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The calibration table (:data:`CALIBRATION_COLUMNS`, one row per pair, size and scenario)
    and its summary (:data:`SUMMARY_COLUMNS`, one row per pair and size: false rates, mdr80)."""
    _check_calibration(n_sim, n_sim_null, n_boot, auroc, rho, sigmas, sigmas_a, alpha)
    pairs = [tuple(p) for p in pairs]
    sizes = list(sizes) if sizes is not None else task_sizes(tasks)
    mu_1 = mu_for_auroc(auroc)
    rows: list[dict[str, object]] = []
    for i, (label, n_pos, n_neg) in enumerate(sizes):
        pi = n_pos / (n_pos + n_neg)
        common = {"size": label, "n_pos": n_pos, "n_neg": n_neg, "alpha": alpha, "n_boot": n_boot}
        null = _simulate(n_pos, n_neg, mu_1, 1.0, mu_1, 1.0, rho, alpha, pairs, n_sim_null, n_boot,
                         np.random.default_rng([seed, i, 0]))
        A = population_metrics(mu_1, 1.0, pi)
        for a, b in pairs:
            rows.append(_row(a, b, common, "null_equal", 1.0, mu_1, 1.0, mu_1, 0.0, A[a], A[a], A[b], A[b], null[(a, b)],
                             lambda r: r[1], None))
        j = 0
        for a, b in pairs:
            best: tuple[float, float, float] | None = None  # (reversal, sigma_a, sigma_b)
            for sigma_a in sigmas_a:
                mu_a = mu_for_auroc_sigma(auroc, float(sigma_a))
                for sigma in sigmas:
                    j += 1
                    if float(sigma) == float(sigma_a):
                        continue  # the same distribution: no reversal
                    plant = planted_reversal(a, b, mu_a, float(sigma), pi, float(sigma_a))
                    if not np.isfinite(plant["mu_b"]):
                        continue
                    res = _simulate(n_pos, n_neg, mu_a, float(sigma_a), plant["mu_b"], float(sigma), rho, alpha,
                                    [(a, b)], n_sim, n_boot, np.random.default_rng([seed, i, j]))[(a, b)]
                    truth = 1 if plant["pop_a_A"] > plant["pop_a_B"] else -1  # a prefers A in the population
                    rows.append(_row(a, b, common, "reversal", float(sigma_a), mu_a, float(sigma), plant["mu_b"],
                                     plant["reversal"], plant["pop_a_A"], plant["pop_a_B"], plant["pop_b_A"],
                                     plant["pop_b_B"], res, lambda r, t=truth: r[1] and r[2] == t, None))
                    if best is None or plant["reversal"] > best[0]:
                        best = (plant["reversal"], float(sigma_a), float(sigma))
            if best is None:
                continue
            # the boundary nulls beside the largest planted reversal: one metric equal, the other clear
            _, sigma_a, sigma = best
            mu_a = mu_for_auroc_sigma(auroc, sigma_a)
            for side in ("a", "b"):
                j += 1
                bound = planted_reversal(a, b, mu_a, sigma, pi, sigma_a, equal=side)
                if not np.isfinite(bound["mu_b"]):
                    continue
                res = _simulate(n_pos, n_neg, mu_a, sigma_a, bound["mu_b"], sigma, rho, alpha, [(a, b)], n_sim_null,
                                n_boot, np.random.default_rng([seed, i, j]))[(a, b)]
                # the clear component: b's preference of B (eq_a) or a's of A (eq_b), as in the population
                o, col = ("b", 4) if side == "a" else ("a", 3)  # the other metric and its component test
                clear = 1 if bound[f"pop_{o}_A"] > bound[f"pop_{o}_B"] else -1
                rows.append(_row(a, b, common, f"null_eq_{side}", sigma_a, mu_a, sigma, bound["mu_b"],
                                 bound["reversal"], bound["pop_a_A"], bound["pop_a_B"], bound["pop_b_A"],
                                 bound["pop_b_B"], res, lambda r: r[1], lambda r, c=clear, k=col: r[k] == c))
    table = pd.DataFrame(rows, columns=CALIBRATION_COLUMNS)
    return table, summarise(table)


def _row(a: str, b: str, common: dict[str, object], scenario: str, sigma_a: float, mu_a: float, sigma: float,
         mu_b: float, reversal: float, aA: float, aB: float, bA: float, bB: float,
         res: list[tuple[bool, bool, int, int, int]], hit, other) -> dict[str, object]:
    n_sim = len(res)
    n_differs = sum(1 for r in res if r[0])
    n_flagged = sum(1 for r in res if hit(r))
    rate = n_flagged / n_sim
    return {"pair": f"{a}_{b}", "metric_a": a, "metric_b": b, **common, "scenario": scenario, "sigma_a": sigma_a,
            "mu_a": mu_a, "sigma_b": sigma,
            "mu_b": mu_b, "reversal": reversal, "pop_a_A": aA, "pop_a_B": aB, "pop_b_A": bA, "pop_b_B": bB,
            "n_sim": n_sim, "n_differs": n_differs, "n_flagged": n_flagged, "rate": rate,
            "rate_se": float(np.sqrt(rate * (1 - rate) / n_sim)),
            "rate_given_differs": (sum(1 for r in res if r[0] and r[1]) / n_differs) if n_differs else float("nan"),
            "other_power": (sum(1 for r in res if other(r)) / n_sim) if other is not None else float("nan")}


def mdr(reversal: np.ndarray, power: np.ndarray, target: float = POWER) -> float:
    """Smallest planted reversal d such that every scenario with reversal >= d has power >= target."""
    order = np.argsort(reversal)
    d, p = np.asarray(reversal)[order], np.asarray(power)[order]
    ok_above = np.logical_and.accumulate((p >= target)[::-1])[::-1]  # every scenario from here up passes
    hit = np.flatnonzero(ok_above)
    return float(d[hit[0]]) if hit.size else float("nan")


def summarise(table: pd.DataFrame) -> pd.DataFrame:
    """Per pair and size: each null's false rate (Monte Carlo se; at the boundaries the power of
    the clear component), the largest of them with its se-upper end, and mdr80."""
    out = []
    for (pair, size), g in table.groupby(["pair", "size"], sort=False):
        first = g.iloc[0]
        nulls = {sc: g[g["scenario"] == sc].iloc[0] if (g["scenario"] == sc).any() else None for sc in NULLS}
        present = [r for r in nulls.values() if r is not None]
        worst = max(present, key=lambda r: r["rate"]) if present else None
        planted = g[g["scenario"] == "reversal"]
        best = planted.loc[planted["reversal"].idxmax()] if len(planted) else None

        def val(sc: str, col: str, nulls: dict = nulls) -> float:
            return float(nulls[sc][col]) if nulls[sc] is not None else float("nan")

        out.append({
            "pair": pair, "metric_a": first["metric_a"], "metric_b": first["metric_b"], "size": size,
            "n_pos": first["n_pos"], "n_neg": first["n_neg"], "alpha": first["alpha"],
            "n_sim_null": val("null_equal", "n_sim"),
            "false_rate_null": val("null_equal", "rate"), "false_rate_null_se": val("null_equal", "rate_se"),
            "false_rate_eq_a": val("null_eq_a", "rate"), "false_rate_eq_a_se": val("null_eq_a", "rate_se"),
            "other_power_eq_a": val("null_eq_a", "other_power"),
            "false_rate_eq_b": val("null_eq_b", "rate"), "false_rate_eq_b_se": val("null_eq_b", "rate_se"),
            "other_power_eq_b": val("null_eq_b", "other_power"),
            "false_rate": float(worst["rate"]) if worst is not None else float("nan"),
            "false_rate_se": float(worst["rate_se"]) if worst is not None else float("nan"),
            "false_rate_upper": max((float(r["rate"] + 2 * r["rate_se"]) for r in present), default=float("nan")),
            "max_reversal": float(best["reversal"]) if best is not None else float("nan"),
            "power_at_max": float(best["rate"]) if best is not None else float("nan"),
            "mdr80": mdr(planted["reversal"].to_numpy(), planted["rate"].to_numpy()) if len(planted) else float("nan"),
        })
    return pd.DataFrame(out, columns=SUMMARY_COLUMNS)
