"""Confidence sets for ranks in the studies, and disagreement between metrics that is real by construction.

Flach & Kull (NIPS 2015, sec. 4) count the tasks where two metrics pick a different best model.
Between near-tied models such a difference may be noise. This module asks the question the other
way round: per task and metric, which models *could* be best given the test rows, and on how many
tasks do two metrics' sets of possible best models not meet at all?

* **Rank sets per task** (:func:`task_rank_sets`). One shared paired count bootstrap of the task's
  test rows (:func:`prspace.experiments.noise.noise_floor.bootstrap_metrics`: stratified by class,
  ``rng.multinomial`` counts seeded by ``(seed, crc32(task_id))``, every model's scores sorted
  once, every resample's metrics from the batch kernel
  :func:`prspace.metrics.metrics_from_group_counts_batch`; CV repeats averaged as in the metrics
  table) gives every model's replicates; :func:`prspace.stats.ranksets.rank_sets` (studentised
  bootstrap max-T over all pairs, family-wise ``confidence``) turns them into each model's rank
  interval ``[rank_lo, rank_hi]`` and the plausible-best set ``{rank_lo == 1}``, which holds the
  truly best model with probability at least ``confidence``.  For AP and AUPR (bootstrap max-T
  liberal at small n) the jackknife's Bonferroni intervals instead (:func:`prspace.stats.pairwise.rank_sets_by_rule`,
  :func:`prspace.experiments.noise.noise_floor.jackknife_metrics`), as in the audit; column ``method``.
* **Disjoint plausible-best sets** (THE decision rule of this module, :func:`disjoint`): metrics
  a and b *disagree by construction* on a task when their plausible-best sets have no model in
  common. Then at least one of the two sets has missed its metric's truly best model, or the
  two metrics' truly best models differ; if the metrics agreed on the truth (one model best
  under both), a disjoint pair needs one of the two sets to miss it, which happens with
  probability at most ``2 (1 - confidence)`` (the union bound). That bound is the false rate
  the verdict row uses (``tolerance``); :func:`calibrate_disjoint` measures the actual false
  rate under two nulls and the power on planted reversals by simulation at the study's median
  task size.
* **Per study** (:func:`pair_table`, :func:`summarise`): per Flach & Kull's metric pair, the share
  of tasks with disjoint sets, beside the plain top-1 share (the two metrics' best models on all
  rows differ, ties as groups), each with a 95% cluster-bootstrap interval over task families
  (:func:`prspace.experiments.ranking.cluster_bootstrap_ci`), and the mean size of each metric's
  plausible-best set. :func:`evidence` writes one verdict row per pair (kind ``bound``, paper
  ``prspace``).

Cost: one sort per model and task, then ``n_boot`` resamples through the batch kernel: about the
cost of the noise floor at the same number of resamples (``docs/analysis.md``).

One module (about 420 lines) on purpose: the decision rule, its calibration by simulation and the
verdict rows that quote both share the columns and the rule; apart, each would be read only
beside the others.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace import metrics as M
from prspace.core.defaults import N_BOOT, N_BOOT_REPLICATE_RANKS
from prspace.core.errors import InputError
from prspace.core.evidence import effective_cases, evidence_frame, evidence_row
from prspace.experiments.noise.noise_calibration import (
    mdr,
    mu_for_auroc,
    mu_for_auroc_sigma,
    planted_reversal,
)
from prspace.experiments.noise.noise_floor import bootstrap_metrics, jackknife_metrics
from prspace.experiments.noise.sim_metrics import chunk_size, scored_metrics_many
from prspace.experiments.ranking import METRIC_LABELS, PAPER_RESULTS, cluster_bootstrap_ci
from prspace.stats.pairwise import BOOT_MAX_T, JACK_HOLM, rank_set_method, rank_sets_by_rule
from prspace.stats.resampling import (
    JACK_GROUPS,
    jackknife_groups,
    jackknife_weights,
    uniform_counts,
)

__all__ = [
    "CALIBRATION_COLUMNS", "PAIR_COLUMNS", "RANK_SET_COLUMNS", "RANK_SET_METRICS", "RANK_SET_PAIRS",
    "SUMMARY_COLUMNS", "calibrate_disjoint", "disjoint", "evidence", "false_rate_bound", "pair_table",
    "summarise", "task_rank_sets",
]

#: metrics whose rank sets each task gets (AP is free: the batch kernel computes it anyway)
RANK_SET_METRICS: tuple[str, ...] = ("aupr", "auprg", "auroc", "average_precision")
#: Flach & Kull's three metric pairs
RANK_SET_PAIRS: tuple[tuple[str, str], ...] = tuple(PAPER_RESULTS)

RANK_SET_COLUMNS = ["task", "metric", "model", "estimate", "rank_lo", "rank_hi", "plausible_best",
                    "n_models", "n_resamples", "level", "critical", "method"]
#: ``method`` of the rank sets, by :func:`prspace.stats.pairwise.rank_set_method`.
METHOD_LABELS = {BOOT_MAX_T: "bootstrap max-T", JACK_HOLM: "jackknife t, Bonferroni"}
PAIR_COLUMNS = ["task", "metric_a", "metric_b", "n_models", "best_size_a", "best_size_b", "n_common",
                "disjoint", "top1_differs"]
SUMMARY_COLUMNS = [
    "metric_a", "metric_b", "n_tasks", "n_families", "level",
    "n_disjoint", "disjoint_share", "disjoint_lo", "disjoint_hi", "n_eff_disjoint",
    "n_top1_differs", "top1_share", "top1_lo", "top1_hi",
    "best_size_a", "best_size_a_lo", "best_size_a_hi", "best_size_b", "best_size_b_lo", "best_size_b_hi",
    "best_size_a_median", "best_size_b_median",
    "mean_models", "false_rate_bound", "false_rate_equal", "false_rate_ranking", "max_reversal", "power_at_max",
    "mdr80", "sim_n_pos", "sim_n_neg", "sim_models",
]
CALIBRATION_COLUMNS = [
    "pair", "metric_a", "metric_b", "scenario", "n_pos", "n_neg", "n_models", "n_sim", "n_boot", "level",
    "sigma_a", "sigma_b", "reversal", "n_disjoint", "rate", "rate_se",
]


def false_rate_bound(confidence: float) -> float:
    """The guaranteed bound ``2 (1 - confidence)`` on the rate of disjoint plausible-best sets
    when both metrics have the same truly best model (union bound over the two sets)."""
    return 2.0 * (1.0 - float(confidence))


def _check(n_boot: int, confidence: float) -> None:
    if n_boot < 10:
        raise InputError(f"n_boot (analysis.rank_sets.n_boot) must be >= 10, got {n_boot}")
    if not (0.5 < confidence < 1.0):
        raise InputError(f"confidence (analysis.rank_sets.confidence) must lie in (0.5, 1), e.g. 0.95; got {confidence}")


def task_rank_sets(
    predictions: pd.DataFrame,
    *,
    metrics: Sequence[str] = RANK_SET_METRICS,
    n_boot: int = N_BOOT,
    seed: int = 0,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """One task's rank interval and plausible-best flag per metric and model (:data:`RANK_SET_COLUMNS`),
    sorted by metric (in ``metrics`` order), ``rank_lo``, estimate (descending) and model."""
    _check(n_boot, confidence)
    unknown = [m for m in metrics if m not in M.METRIC_LABELS]
    if unknown:
        raise InputError(f"unknown metric(s) {unknown}; use names of prspace.metrics, e.g. {list(RANK_SET_METRICS)}")
    task = str(predictions["task_id"].iloc[0])
    models, full, boot = bootstrap_metrics(predictions, metrics=metrics, n_boot=n_boot, seed=seed)
    jack = strata = None
    jacked = [m for m in metrics if rank_set_method(m) == JACK_HOLM]
    if jacked:
        _, _, jack, strata = jackknife_metrics(predictions, metrics=jacked, seed=seed)
    frames = []
    for mi, m in enumerate(metrics):
        r = rank_sets_by_rule(m, full[m], boot[m], None if jack is None else jack.get(m), strata, confidence)
        frames.append(pd.DataFrame({
            "task": task, "metric": m, "model": models, "estimate": full[m], "rank_lo": r.rank_lo,
            "rank_hi": r.rank_hi, "plausible_best": r.plausible_best, "n_models": len(models),
            "n_resamples": r.n_used, "level": confidence, "critical": r.critical,
            "method": METHOD_LABELS[rank_set_method(m)], "_m": mi,
        }))
    out = pd.concat(frames, ignore_index=True)
    out = out.assign(_e=-out["estimate"]).sort_values(["_m", "rank_lo", "_e", "model"], kind="stable")
    return out.drop(columns=["_m", "_e"]).reset_index(drop=True)[RANK_SET_COLUMNS]


def disjoint(best_a: np.ndarray, best_b: np.ndarray) -> bool:
    """THE decision rule: metrics a and b disagree by construction on a task when their
    plausible-best sets (boolean masks over the same models) have no model in common."""
    return not bool(np.any(np.asarray(best_a, bool) & np.asarray(best_b, bool)))


def _top1(values: np.ndarray, decimals: int = 12) -> np.ndarray:
    """The models at position 1 (ties as a group; NaN never best)."""
    v = np.round(np.where(np.isnan(values), -np.inf, values), decimals)
    return v == v.max()


def pair_table(table: pd.DataFrame, pairs: Sequence[tuple[str, str]] = RANK_SET_PAIRS) -> pd.DataFrame:
    """Per task and metric pair (:data:`PAIR_COLUMNS`): the two plausible-best set sizes, the models
    they share, whether they are disjoint (:func:`disjoint`) and whether the plain top-1 differs."""
    need = {"task", "metric", "model", "estimate", "plausible_best"}
    missing = need - set(table.columns)
    if missing:
        raise InputError(f"the rank-set table lacks column(s) {sorted(missing)}; write it with prspace step rank_sets")
    rows = []
    for task, g in table.groupby(table["task"].astype(str), sort=True):
        by = {m: s.set_index(s["model"].astype(str)).sort_index() for m, s in g.groupby("metric")}
        for a, b in pairs:
            if a not in by or b not in by:
                continue
            ga, gb = by[a], by[b].reindex(by[a].index)
            pa = ga["plausible_best"].astype(str).str.lower().isin(["true", "1"]).to_numpy()
            pb = gb["plausible_best"].astype(str).str.lower().isin(["true", "1"]).to_numpy()
            ta = _top1(ga["estimate"].to_numpy(np.float64))
            tb = _top1(gb["estimate"].to_numpy(np.float64))
            rows.append({"task": task, "metric_a": a, "metric_b": b, "n_models": len(ga),
                         "best_size_a": int(pa.sum()), "best_size_b": int(pb.sum()), "n_common": int((pa & pb).sum()),
                         "disjoint": disjoint(pa, pb), "top1_differs": bool(np.any(ta != tb))})
    return pd.DataFrame(rows, columns=PAIR_COLUMNS)


def _clusters(ids: pd.Series, tasks: pd.DataFrame | None) -> np.ndarray:
    ids = ids.astype(str).to_numpy()
    if tasks is None or "family" not in tasks.columns or "task_id" not in tasks.columns:
        return ids
    fam = tasks.drop_duplicates("task_id").set_index(tasks.drop_duplicates("task_id")["task_id"].astype(str))["family"]
    f = fam.reindex(ids).to_numpy(dtype=object)
    return np.where(pd.isna(f), ids, f).astype(str)


def summarise(
    pairs: pd.DataFrame,
    tasks: pd.DataFrame | None = None,
    calibration: pd.DataFrame | None = None,
    *,
    confidence: float = 0.95,
    n_boot: int = N_BOOT,
    seed: int = 0,
    level: float = 0.95,
) -> pd.DataFrame:
    """One row per metric pair (:data:`SUMMARY_COLUMNS`): disjoint share and top-1 share with 95%
    cluster-bootstrap intervals over task families (:func:`cluster_bootstrap_ci`, ``n_boot``
    resamples, ``seed``; every statistic shares the resamples), the mean plausible-best set size
    of each metric with its interval and its median over tasks (``best_size_<a|b>_median``: on a
    typical task that many models could be best), and the calibration at the study's median task
    size (:func:`calibrate_disjoint`; ``sim_n_pos``, ``sim_n_neg``, ``sim_models``: the
    simulated task)."""
    rows = []
    for (a, b), sub in pairs.groupby(["metric_a", "metric_b"], sort=False):
        cl = _clusters(sub["task"], tasks)
        row: dict[str, object] = {"metric_a": a, "metric_b": b, "n_tasks": len(sub),
                                  "n_families": int(pd.Series(cl).nunique()), "level": confidence}
        for name, col in (("disjoint", "disjoint"), ("top1", "top1_differs")):
            v = sub[col].astype(str).str.lower().isin(["true", "1"]).to_numpy(np.float64)
            est, lo, hi = cluster_bootstrap_ci(v, cl, n_boot=n_boot, seed=seed, level=level)
            row.update({f"n_{name if name == 'disjoint' else 'top1_differs'}": int(v.sum()), f"{name}_share": est,
                        f"{name}_lo": lo, f"{name}_hi": hi})
            if name == "disjoint":
                g = pd.Series(v).groupby(cl)
                row["n_eff_disjoint"] = effective_cases(g.sum(), g.size())
        for side in ("a", "b"):
            est, lo, hi = cluster_bootstrap_ci(sub[f"best_size_{side}"].to_numpy(np.float64), cl, n_boot=n_boot,
                                               seed=seed, level=level)
            row.update({f"best_size_{side}": est, f"best_size_{side}_lo": lo, f"best_size_{side}_hi": hi,
                        f"best_size_{side}_median": float(np.median(sub[f"best_size_{side}"].to_numpy(np.float64)))})
        row["mean_models"] = float(sub["n_models"].mean())
        row["false_rate_bound"] = false_rate_bound(confidence)
        row.update(_calibration_summary(calibration, f"{a}_{b}"))
        rows.append(row)
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def _calibration_summary(cal: pd.DataFrame | None, pair: str) -> dict[str, float]:
    nan = float("nan")
    out = {"false_rate_equal": nan, "false_rate_ranking": nan, "max_reversal": nan, "power_at_max": nan, "mdr80": nan,
           "sim_n_pos": nan, "sim_n_neg": nan, "sim_models": nan}
    if cal is None or cal.empty:
        return out
    c = cal[cal["pair"] == pair]
    if len(c):
        out.update({key: float(c[col].iloc[0]) for key, col in
                    (("sim_n_pos", "n_pos"), ("sim_n_neg", "n_neg"), ("sim_models", "n_models"))})
    for sc, key in (("null_equal", "false_rate_equal"), ("null_ranking", "false_rate_ranking")):
        s = c[c["scenario"] == sc]
        if len(s):
            out[key] = float(s["rate"].iloc[0])
    rev = c[c["scenario"] == "reversal"].dropna(subset=["reversal"])
    if len(rev):
        i = int(np.argmax(rev["reversal"].to_numpy()))
        out["max_reversal"] = float(rev["reversal"].iloc[i])
        out["power_at_max"] = float(rev["rate"].iloc[i])
        out["mdr80"] = mdr(rev["reversal"].to_numpy(np.float64), rev["rate"].to_numpy(np.float64))
    return out


# --- calibration by simulation -------------------------------------------------------------------


def _simulate(y: np.ndarray, mus: np.ndarray, sigmas: np.ndarray, rho: float, metrics: Sequence[str], n_sim: int,
              n_boot: int, confidence: float, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Per metric, the plausible-best masks ``(n_sim, k)`` of k binormal models (negatives N(0, 1),
    model j's positives N(mus[j], sigmas[j])) with pairwise latent correlation ``rho`` on one
    task's rows ``y``, each simulated task resampled ``n_boot`` times (shared, stratified)."""
    yf = y.astype(np.float64)
    n, k = y.size, len(mus)
    sd = np.where(y[None, :], sigmas[:, None], 1.0)  # (k, n)
    best = {m: np.zeros((n_sim, k), dtype=bool) for m in metrics}
    jacked = [m for m in metrics if rank_set_method(m) == JACK_HOLM]
    groups, strata = jackknife_groups(y.astype(np.int64), max_groups=JACK_GROUPS, rng=rng)
    jack_w = jackknife_weights(groups, n)
    step = chunk_size(n_boot, n)
    for c in range(0, n_sim, step):  # tasks drawn one after the other, scored a chunk at a time
        size = min(step, n_sim - c)
        scores = np.empty((size, k, n))
        w = np.empty((size, n_boot, n))
        for s in range(size):
            z0 = rng.standard_normal(n)
            z = np.sqrt(rho) * z0[None, :] + np.sqrt(1.0 - rho) * rng.standard_normal((k, n))
            scores[s] = mus[:, None] * yf[None, :] + sd * z
            w[s] = uniform_counts(y, n_boot, rng)
        full, boot = scored_metrics_many(scores, yf, w, metrics)
        jack = scored_metrics_many(scores, yf, jack_w, jacked)[1] if jacked else None
        for s in range(size):
            for m in metrics:
                best[m][c + s] = rank_sets_by_rule(m, full[m][s], boot[m][s], None if jack is None else
                                                   (jack[m][s] if m in jack else None), strata,
                                                   confidence).plausible_best
    return best


def _rate_row(a: str, b: str, scenario: str, n_pos: int, n_neg: int, k: int, n_sim: int, n_boot: int,
              confidence: float, hits: np.ndarray, sigma_a: float = float("nan"), sigma_b: float = float("nan"),
              reversal: float = float("nan")) -> dict[str, object]:
    r = float(np.mean(hits)) if len(hits) else float("nan")
    return {"pair": f"{a}_{b}", "metric_a": a, "metric_b": b, "scenario": scenario, "n_pos": n_pos, "n_neg": n_neg,
            "n_models": k, "n_sim": len(hits), "n_boot": n_boot, "level": confidence, "sigma_a": sigma_a,
            "sigma_b": sigma_b, "reversal": reversal, "n_disjoint": int(np.sum(hits)), "rate": r,
            "rate_se": float(np.sqrt(r * (1 - r) / len(hits))) if len(hits) else float("nan")}


def calibrate_disjoint(
    n_pos: int,
    n_neg: int,
    *,
    pairs: Sequence[tuple[str, str]] = RANK_SET_PAIRS,
    n_models: int = 5,
    n_sim: int = 40,
    n_sim_null: int = 100,
    n_boot: int = N_BOOT_REPLICATE_RANKS,
    confidence: float = 0.95,
    seed: int = 0,
    auroc: float = 0.85,
    rho: float = 0.5,
    step: float = 0.01,
    sigmas: Sequence[float] = (0.05, 0.3, 4.0, 16.0),
) -> pd.DataFrame:
    """False rate and power of :func:`disjoint` by simulation (:data:`CALIBRATION_COLUMNS`), on a
    task of ``n_pos`` positives and ``n_neg`` negatives with ``n_models`` binormal models whose
    latent scores correlate ``rho`` pairwise:

    * ``null_equal``: every model N(mu, 1) positives at population AUROC ``auroc``: equal under
      every metric; any disjoint pair is false.
    * ``null_ranking``: one population ranking: equal-variance models at AUROC ``auroc``,
      ``auroc - step``, ...; their ROC curves are nested, so every metric orders them the same
      and has the same best model; a disjoint pair is false.
    * ``reversal`` (per pair and sigma_B in ``sigmas``): model A (N(mu_A, 1) positives, AUROC
      ``auroc``) against model B (sigma_B, mu_B solved so the two metrics' population margins are
      equal and opposite, :func:`prspace.experiments.noise.noise_calibration.planted_reversal`), beside
      ``n_models - 2`` weaker equal-variance models (AUROC ``auroc - 0.05 - step j``) so the
      max-T carries the study's multiplicity in part. Power = share of simulated tasks whose sets
      are disjoint with A plausible-best under the metric preferring it in the population and B
      under the other.

    Null rates use ``n_sim_null`` tasks (shared by every pair), each reversal ``n_sim``; simulated
    task sets draw from ``numpy.random.default_rng([seed, scenario])``.
    """
    _check(n_boot, confidence)
    if n_models < 2 or n_sim < 1 or n_sim_null < 1 or n_pos < 2 or n_neg < 2:
        raise InputError(f"need n_models >= 2, n_sim, n_sim_null >= 1 and >= 2 rows per class; got {n_models}, "
                         f"{n_sim}, {n_sim_null}, {n_pos}/{n_neg}")
    if not (0.5 < auroc < 1.0) or not (0.0 <= rho < 1.0):
        raise InputError(f"auroc must lie in (0.5, 1) and rho in [0, 1); got {auroc}, {rho}")
    pairs = [tuple(p) for p in pairs]
    metrics = sorted({m for p in pairs for m in p})
    y = np.r_[np.ones(n_pos, dtype=bool), np.zeros(n_neg, dtype=bool)]
    pi = n_pos / (n_pos + n_neg)
    k = int(n_models)
    rows: list[dict[str, object]] = []
    mu_1 = mu_for_auroc(auroc)
    eq = _simulate(y, np.full(k, mu_1), np.ones(k), rho, metrics, n_sim_null, n_boot, confidence,
                   np.random.default_rng([seed, 0]))
    aurocs = np.clip(auroc - step * np.arange(k), 0.51, None)
    rk = _simulate(y, np.array([mu_for_auroc(v) for v in aurocs]), np.ones(k), rho, metrics, n_sim_null, n_boot,
                   confidence, np.random.default_rng([seed, 1]))
    for a, b in pairs:
        for sc, best in (("null_equal", eq), ("null_ranking", rk)):
            hits = ~np.any(best[a] & best[b], axis=1)
            rows.append(_rate_row(a, b, sc, n_pos, n_neg, k, n_sim_null, n_boot, confidence, hits))
    weaker = np.array([mu_for_auroc(max(0.51, auroc - 0.05 - step * j)) for j in range(k - 2)])
    j = 1
    mu_a = mu_for_auroc_sigma(auroc, 1.0)
    for a, b in pairs:
        for sigma_b in sigmas:
            j += 1
            if float(sigma_b) == 1.0:
                continue
            plant = planted_reversal(a, b, mu_a, float(sigma_b), pi, 1.0)
            if not np.isfinite(plant["mu_b"]):
                continue
            mus = np.r_[mu_a, plant["mu_b"], weaker]
            sds = np.r_[1.0, float(sigma_b), np.ones(k - 2)]
            best = _simulate(y, mus, sds, rho, [a, b], n_sim, n_boot, confidence, np.random.default_rng([seed, j]))
            a_prefers_a = plant["pop_a_A"] > plant["pop_a_B"]
            own_a, own_b = (0, 1) if a_prefers_a else (1, 0)
            hits = (~np.any(best[a] & best[b], axis=1)) & best[a][:, own_a] & best[b][:, own_b]
            rows.append(_rate_row(a, b, "reversal", n_pos, n_neg, k, n_sim, n_boot, confidence, hits, 1.0,
                                  float(sigma_b), plant["reversal"]))
    return pd.DataFrame(rows, columns=CALIBRATION_COLUMNS)


# --- verdict rows -------------------------------------------------------------------------------


def evidence(summary: pd.DataFrame) -> pd.DataFrame:
    """One evidence row per metric pair (kind ``bound``, paper ``prspace``,
    ``px.<a>_<b>.rank_sets.disjoint``): k = tasks whose plausible-best sets are disjoint, n =
    tasks; ``tolerance`` = the guaranteed false rate ``2 (1 - confidence)``; ``power`` = the
    calibration's power at its largest planted reversal on the simulated task (``power_at_max``);
    the detail gives that scenario, the typical set sizes, the plain top-1 share and the false rates."""
    rows = []
    for _, r in summary.iterrows():
        a, b = str(r["metric_a"]), str(r["metric_b"])
        A, B = METRIC_LABELS.get(a, a), METRIC_LABELS.get(b, b)
        k, n = int(r["n_disjoint"]), int(r["n_tasks"])
        conf = float(r["level"])
        cal, power = "no calibration: the check's power is unknown", float("nan")
        if np.isfinite(float(r["false_rate_equal"])):
            power = float(r["power_at_max"])
            sim = (f"{int(r['sim_n_pos'])} positives, {int(r['sim_n_neg'])} negatives, {int(r['sim_models'])} models"
                   if np.isfinite(float(r.get("sim_n_pos", float("nan")))) else "the study's median task size")
            mdr80 = (f"every planted reversal of {r['mdr80']:.3f} or more gave disjoint sets with power >= 0.8"
                     if np.isfinite(float(r["mdr80"])) else
                     "no planted reversal reached 80% power, so a low count says the test rows cannot separate such "
                     "models, not that the metrics agree")
            cal = (f"calibration on a simulated task of {sim} (rank_set_calibration.csv): power {power:.2f} at the "
                   f"largest planted reversal (two models, each metric preferring its own by {r['max_reversal']:.3f} "
                   f"in the population); {mdr80}; false rate {r['false_rate_equal']:.3f} with all models equal and "
                   f"{r['false_rate_ranking']:.3f} under one population ranking")
        typical = (f"on a typical task (median) {r['best_size_a_median']:g} of {r['mean_models']:.0f} models could be "
                   f"the best by {A} and {r['best_size_b_median']:g} by {B} (means {r['best_size_a']:.1f} and "
                   f"{r['best_size_b']:.1f})")
        detail = (f"{k} of {n} tasks have disjoint {conf:.0%} plausible-best sets (all pairs of models compared "
                  f"simultaneously: bootstrap max-T, jackknife Bonferroni for AP and AUPR); {typical}; plain top-1 "
                  f"disagreement {r['top1_share']:.3f} [{r['top1_lo']:.3f}, {r['top1_hi']:.3f}]; false rate bound "
                  f"{r['false_rate_bound']:.2f} (2 x (1 - {conf:g}), both metrics with the same best model); {cal}")
        rows.append(evidence_row(
            paper="prspace", claim_id=f"px.{a}_{b}.rank_sets.disjoint", kind="bound",
            claim=(f"On a task the plausible-best sets of {A} and {B} do not overlap "
                   f"(disagreement on the best model that is real by construction)"),
            estimate=k / n if n else float("nan"), k=k, n=n, n_tasks=n, n_families=float(r["n_families"]),
            tolerance=float(r["false_rate_bound"]), power=power, detail=detail,
            n_eff=float(r.get("n_eff_disjoint", float("nan")))))
    return evidence_frame(rows)
