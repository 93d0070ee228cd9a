"""Per-model intervals and paired comparisons for every metric, from :mod:`prspace.stats.intervals`.

:func:`uncertainty` returns two long tables:

``intervals``: ``task, model, metric, method, estimate, lo, hi, calibrated, mc_error``
    AUROC by DeLong and by DeLong on the logit scale (unit weights), every metric of
    :data:`~prspace.stats.replicates.BOOT_METRICS` by the bootstrap within class (percentile
    interval; folds ignored, ``scheme="class"`` of :func:`prspace.stats.replicates.bootstrap`, so
    the interval holds its level when the folds were not stratified: ``docs/calibration.md``)
    and by the class-stratified jackknife-t (:func:`prspace.stats.intervals.jackknife_interval`),
    and AUPR also by Boyd et al.'s (2013) logit and binomial intervals.  ``calibrated``: the
    method's simulated coverage at the task's positives and skew is at least
    :data:`prspace.audit.inference.coverage.TARGET` (:func:`prspace.audit.inference.coverage.shown`); the reports
    print only such intervals (:func:`headline_interval`).  ``mc_error`` (jackknife-t rows): the
    largest move of an end over two other random groupings of the rows (0: every class left out row
    by row, no randomness; :func:`prspace.stats.replicates.stable_groups`).
``comparisons``: ``task, metric, model_a, model_b, diff, lo, hi, p_value, method, calibrated,
distinguishable`` (``calibrated`` as above, for the unadjusted paired interval)
    For every pair of models scored on the same test rows: ``diff = metric(a) - metric(b)``
    with its interval and two-sided p-value: DeLong's paired test for AUROC (unit weights),
    the paired bootstrap otherwise (``p = min(1, 2 min(P*(d <= 0), P*(d >= 0)))`` with the
    usual +1 correction).  P-values are not adjusted for the number of pairs.
    :func:`prspace.audit.inference.decision.decided` adds the decision of the procedure that decides the metric on the task
    (:mod:`prspace.audit.inference.decision`): ``distinguishable`` (the pair survives it), ``decided_by``,
    ``p_adjusted``, ``lo_simultaneous``/``hi_simultaneous``; the unadjusted interval's verdict
    stays as ``unadjusted_excludes_0``.  Every sentence (:func:`noise`) states the decision.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
import pandas as pd

from prspace.audit.audit_numbers import difference, p_eq, percents
from prspace.audit.inference import coverage as C
from prspace.audit.inference import grouping
from prspace.audit.inference.audit_blocks import block_delong, jack_block
from prspace.audit.inference.tables import LABELS
from prspace.stats.distributions import norm
from prspace.stats.replicates import (
    BOOT_METRICS,
    Block,
    bootstrap,
    jackknife,
    point_metrics,
    stable_groups,
)

INTERVAL_COLUMNS = ["task", "model", "metric", "method", "estimate", "lo", "hi", "calibrated", "mc_error"]
#: Extra jackknife groupings (other seeds) that measure the Monte Carlo error of the jackknife-t ends.
MC_REGROUPINGS = 2
COMPARISON_COLUMNS = ["task", "metric", "model_a", "model_b", "diff", "lo", "hi", "p_value", "method", "calibrated",
                      "distinguishable"]


def _delong_pairs(block: Block, est: np.ndarray, cov: np.ndarray, confidence: float) -> list[dict]:
    z = norm.ppf(0.5 + confidence / 2.0)
    rows = []
    for i, j in itertools.combinations(range(len(block.models)), 2):
        diff = float(est[i] - est[j])
        var = cov[i, i] + cov[j, j] - 2 * cov[i, j]
        se = float(np.sqrt(max(var, 0.0))) if np.isfinite(var) else float("nan")
        if np.isnan(se):
            p = float("nan")
        else:
            p = float(2 * norm.sf(abs(diff) / se)) if se > 0 else (1.0 if diff == 0 else 0.0)
        rows.append({"metric": "auroc", "model_a": block.models[i], "model_b": block.models[j],
                     "diff": diff, "lo": diff - z * se, "hi": diff + z * se, "p_value": p,
                     "method": "DeLong paired"})
    return rows


def _boot_pairs(block: Block, reps: np.ndarray, points: np.ndarray, metrics: list[str],
                confidence: float) -> list[dict]:
    """Paired bootstrap of every pair, vectorised over the partners of each model."""
    cols = [k for k, name in enumerate(BOOT_METRICS) if name in metrics]
    a = (1.0 - confidence) / 2.0
    rows = []
    for i in range(len(block.models) - 1):
        d = reps[:, i : i + 1, cols] - reps[:, i + 1 :, cols]  # (n_boot, partners, metrics)
        ok = ~np.isnan(d)
        n = ok.sum(axis=0)
        below = ((d <= 0) & ok).sum(axis=0)
        above = ((d >= 0) & ok).sum(axis=0)
        p = np.minimum(1.0, 2 * (np.minimum(below, above) + 1) / (n + 1))
        lo, hi = np.nanquantile(d, a, axis=0), np.nanquantile(d, 1 - a, axis=0)
        for j in range(d.shape[1]):
            for c, k in enumerate(cols):
                rows.append({"metric": BOOT_METRICS[k], "model_a": block.models[i],
                             "model_b": block.models[i + 1 + j], "diff": float(points[i, k] - points[i + 1 + j, k]),
                             "lo": float(lo[j, c]), "hi": float(hi[j, c]),
                             "p_value": float(p[j, c]) if n[j, c] else float("nan"), "method": "paired bootstrap"})
    return rows


def _model_rows(intervals: list[dict], models: list[str], bounds: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]],
                estimates: dict[str, np.ndarray], keys: list[tuple[str, str]]) -> None:
    """Append the intervals ``keys`` (``(metric, method)`` of ``bounds``) of every model, model-major."""
    for (k, model), (metric, method) in itertools.product(enumerate(models), keys):
        lo, hi = bounds[(metric, method)]
        intervals.append({"model": model, "metric": metric, "method": method, "estimate": float(estimates[metric][k]),
                          "lo": float(lo[k]), "hi": float(hi[k])})


def _jack_mc_error(block: Block, points: np.ndarray, n_pos: float, confidence: float, bounds: dict,
                   rng: np.random.Generator) -> dict[tuple[str, str], float]:
    """Per (metric, model), the Monte Carlo error of the jackknife-t interval's ends: 0 when every class
    is left out row by row (no random groups), else the largest move of either end over
    :data:`MC_REGROUPINGS` other random groupings (issue 40: the interval must not depend on the seed)."""
    strata = C.class_strata(jack_block(block))
    units = strata.cluster_stratum if block.grouped else strata.stratum
    groups, _ = stable_groups(units, rng=np.random.default_rng(0))
    rows = sum(g.size for g in groups)
    if len(groups) == rows:  # delete-one everywhere: exact
        return {(m, model): 0.0 for m in BOOT_METRICS for model in block.models}
    moves = np.zeros((len(BOOT_METRICS), len(block.models)))
    for _ in range(MC_REGROUPINGS):
        other = C.model_intervals(points, n_pos, confidence, jack=jackknife(strata, rng=rng))
        for c, metric in enumerate(BOOT_METRICS):
            lo, hi = bounds[(metric, "jackknife-t")]
            lo2, hi2 = other[(metric, "jackknife-t")]
            moves[c] = np.fmax(moves[c], np.fmax(np.abs(lo2 - lo), np.abs(hi2 - hi)))
    return {(metric, model): float(moves[c, k]) for c, metric in enumerate(BOOT_METRICS)
            for k, model in enumerate(block.models)}


def _binned_bootstrap(block: Block, points: np.ndarray, *, n_boot: int, rng: np.random.Generator, scheme: str,
                      tick: Callable[[int], object] | None) -> np.ndarray:
    """The bootstrap's replicates (n_boot, models, metrics) on :func:`jack_block`'s scores (binned above 2,048 positive
    tie groups; the same draws), each model's shifted by its exact point minus its binned one: the percentile ends
    move by the spread of the binning's effect over the resamples only (``benchmarks/bench_jack_bins.py``)."""
    jb = jack_block(block)
    reps = bootstrap(jb, n_boot=n_boot, rng=rng, scheme=scheme, tick=tick)
    if jb is not block:
        reps += (points - point_metrics(jb))[None, :, :]
    return reps


def _block(block: Block, pooled: pd.DataFrame, *, n_boot: int, confidence: float,
           rng: np.random.Generator, jack_rng: np.random.Generator, replicates: dict | None = None,
           scheme: str = "class", tick: Callable[[int], object] | None = None) -> tuple[list[dict], list[dict]]:
    table = pooled[pooled["task"] == block.task].set_index("model").loc[block.models]
    points = table[list(BOOT_METRICS)].to_numpy(np.float64)
    # DeLong assumes independent rows: with groups (--group-col) AUROC takes the grouped resampling
    unit = bool(np.all(block.weight == 1.0)) and not block.grouped
    n_pos = float(table["n_pos"].iloc[0])
    intervals, pairs = [], []
    fit = block_delong(block) if unit else None
    jack = jackknife(C.class_strata(jack_block(block)), rng=jack_rng)
    reps = _binned_bootstrap(block, points, n_boot=n_boot, rng=rng, scheme=scheme, tick=tick) if n_boot > 0 else None
    bounds = C.model_intervals(points, n_pos, confidence, delong_fit=fit, reps=reps, jack=jack)
    estimates = dict(zip(BOOT_METRICS, points.T, strict=True))
    if fit is not None:
        _model_rows(intervals, block.models, bounds, {"auroc": fit[0]}, [("auroc", name) for name in C.DELONG])
        pairs += _delong_pairs(block, *fit, confidence)
    _model_rows(intervals, block.models, bounds, estimates, [(m, "jackknife-t") for m in BOOT_METRICS])
    _model_rows(intervals, block.models, bounds, estimates, [("aupr", name) for name in C.BOYD])
    if reps is not None:
        if replicates is not None:
            replicates[id(block)] = reps
        _model_rows(intervals, block.models, bounds, estimates, [(m, "bootstrap") for m in BOOT_METRICS])
        boot_metrics = [m for m in BOOT_METRICS if m != "auroc" or not unit]
        pairs += _boot_pairs(block, reps, points, boot_metrics, confidence)
    n = n_pos + float(table["n_neg"].iloc[0])
    mc = _jack_mc_error(block, points, n_pos, confidence, bounds, jack_rng)
    _mark_calibrated(block, intervals, pairs, mc, n_pos, n)
    return intervals, pairs


def _mark_calibrated(block: Block, intervals: list[dict], pairs: list[dict], mc: dict[tuple[str, str], float],
                     n_pos: float, n: float) -> None:
    """Set each interval's and comparison's ``calibrated`` (by the number of groups with ``--group-col``,
    else by the task's size: :func:`prspace.audit.inference.coverage.shown`), each interval's ``mc_error`` (the
    jackknife-t's, ``mc``) and every row's ``task``."""
    if block.grouped:  # the grouped methods' own calibration, by number of groups (benchmarks/calib_groups.py)
        g = block.n_clusters
        for rows, kind in ((intervals, "coverage"), (pairs, "pair coverage")):
            for r in rows:
                r["calibrated"] = r["method"] in ("bootstrap", "jackknife-t", "paired bootstrap") and grouping.shown(
                    r["metric"], r["method"], g, kind=kind)
    for r in intervals:
        r["calibrated"] = r.get("calibrated", C.shown(r["metric"], r["method"], n_pos, n))
        r["mc_error"] = mc.get((r["metric"], r["model"]), float("nan")) if r["method"] == "jackknife-t" else float("nan")
    for r in pairs:
        r["calibrated"] = r.get("calibrated", C.shown(r["metric"], r["method"], n_pos, n, kind="pair coverage"))
    for r in intervals + pairs:
        r["task"] = block.task


def uncertainty(blocks: list[Block], pooled: pd.DataFrame, *, n_boot: int,
                confidence: float = 0.95, seed: int = 0,
                replicates: dict | None = None, scheme: str = "class",
                tick: Callable[[int], object] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The intervals and comparisons tables (see the module docstring), deterministic in ``seed``.

    ``replicates``: if a dict, each block's bootstrap replicates (n_boot, models, metrics) are
    stored in it under ``id(block)`` (for :mod:`prspace.audit.inference.audit_ranksets`, which reuses them);
    ``scheme``: the bootstrap's strata (:data:`prspace.stats.replicates.SCHEMES`); ``tick``: called with the
    number of resamples done as the bootstrap goes (a progress bar's ``update``; ``n_boot`` per block in all).
    """
    rng = np.random.default_rng(seed)
    jack_rng = np.random.default_rng([seed, 32])  # its own stream: the bootstrap's stays as it was
    intervals, pairs = [], []
    for block in blocks:
        i, p = _block(block, pooled, n_boot=n_boot, confidence=confidence, rng=rng, jack_rng=jack_rng,
                      replicates=replicates, scheme=scheme, tick=tick)
        intervals += i
        pairs += p
    iv = pd.DataFrame(intervals, columns=INTERVAL_COLUMNS)
    cmp = pd.DataFrame(pairs, columns=COMPARISON_COLUMNS[:-1])
    cmp["distinguishable"] = (cmp["lo"] > 0) | (cmp["hi"] < 0)
    cmp["level"] = confidence
    return iv, cmp


def shown_method(intervals: pd.DataFrame, task: str, metric: str) -> str | None:
    """The interval method the reports print for ``metric`` on ``task``: the first calibrated one
    (``calibrated``, :mod:`prspace.audit.inference.coverage`) in :data:`prspace.audit.inference.coverage.PREFERRED`
    order; None if none is."""
    sub = intervals[(intervals["task"] == task) & (intervals["metric"] == metric) & intervals["calibrated"]]
    have = set(sub["method"])
    return next((m for m in C.PREFERRED.get(metric, C.DEFAULT_PREFERRED) if m in have), None)


def headline_interval(intervals: pd.DataFrame, task: str, model: str, metric: str) -> tuple[float, float] | None:
    """The interval shown in the tables: that of :func:`shown_method` (None: no calibrated interval)."""
    method = shown_method(intervals, task, metric)
    sub = intervals[(intervals["task"] == task) & (intervals["model"] == model) & (intervals["metric"] == metric)
                    & (intervals["method"] == method)]
    if not len(sub) or not np.isfinite(sub["lo"].iloc[0]):
        return None
    return float(sub["lo"].iloc[0]), float(sub["hi"].iloc[0])


def hidden_lines(intervals: pd.DataFrame, pooled: pd.DataFrame, task: str) -> list[str]:
    """One sentence per metric whose intervals are not printed on ``task`` (no method calibrated),
    naming the best-covering method's simulated coverage (:func:`prspace.audit.inference.coverage.not_shown`)."""
    g = pooled[pooled["task"] == task]
    if not len(g) or not len(intervals):
        return []
    n_pos = float(g["n_pos"].iloc[0])
    n = n_pos + float(g["n_neg"].iloc[0])
    sub = intervals[intervals["task"] == task]
    out = []
    for metric in BOOT_METRICS:
        methods = sub.loc[sub["metric"] == metric, "method"].unique()
        if not len(methods) or shown_method(intervals, task, metric) is not None:
            continue
        cov = [c for c in (C.coverage_of(metric, m, n_pos, n) for m in methods) if c is not None]
        if cov:
            best = max(cov, key=lambda c: c.coverage)
            out.append(C.not_shown(best, f"{LABELS[metric]} 95%", n_pos))
    return out


def comparison(comparisons: pd.DataFrame, task: str, metric: str, a: str, b: str) -> dict | None:
    """The test of ``metric(a) - metric(b)`` (sign flipped if stored the other way round).  After
    :func:`prspace.audit.inference.decision.decided`, the deciding procedure's: ``lo``/``hi`` its simultaneous interval,
    ``p_value`` its adjusted p-value, ``method`` its name (the unadjusted ones as ``*_unadjusted``)."""
    c = comparisons
    hit = c[(c["task"] == task) & (c["metric"] == metric) & (c["model_a"] == a) & (c["model_b"] == b)]
    if len(hit):
        r = hit.iloc[0].to_dict()
    else:
        hit = c[(c["task"] == task) & (c["metric"] == metric) & (c["model_a"] == b) & (c["model_b"] == a)]
        if not len(hit):
            return None
        r = hit.iloc[0].to_dict()
        r |= {"model_a": a, "model_b": b, "diff": -r["diff"], "lo": -r["hi"], "hi": -r["lo"]}
        if "lo_simultaneous" in r:
            r |= {"lo_simultaneous": -r["hi_simultaneous"], "hi_simultaneous": -r["lo_simultaneous"]}
    if "decided_by" in r and r["decided_by"] != "cannot decide":
        r |= {"lo_unadjusted": r["lo"], "hi_unadjusted": r["hi"], "p_unadjusted": r["p_value"],
              "method_unadjusted": r["method"], "lo": r["lo_simultaneous"], "hi": r["hi_simultaneous"],
              "p_value": r["p_adjusted"], "method": f"{r['decided_by']}, all pairs"}
        r["ci_shown"] = bool(r.get("simultaneous_coverage", 1.0) >= C.TARGET)
    else:
        r["ci_shown"] = bool(r.get("calibrated", True))
    return r


def ci_text(c: dict, confidence: float, name: str = "CI") -> str:
    """``"95% CI -0.02 to 0.05"`` of :func:`comparison`'s ``c``, or why it is not shown."""
    if c.get("ci_shown", True):
        _, lo, hi = difference(c["diff"], c["lo"], c["hi"])
        return f"{confidence:.0%} {name} {lo} to {hi}"
    cov = c.get("simultaneous_coverage") if "decided_by" in c else None
    why = (f" (it covers only {percents(cov, C.TARGET)[0]} in simulation at this size and skew)"
           if cov is not None and cov == cov else "")
    return f"{confidence:.0%} {name} not shown{why}"


def noise(comparisons: pd.DataFrame | None, task: str, metric: str, winner: str, loser: str) -> str:
    """``"AUPR prefers X to Y by 0.017 (95% CI -0.02 to 0.05, p = 0.38): not distinguishable from noise"``."""
    c = comparison(comparisons, task, metric, winner, loser) if comparisons is not None else None
    if c is None:
        return f"{LABELS[metric]}'s preference for {winner} over {loser} was not tested"
    if c.get("decided_by") == "cannot decide":
        return (f"{LABELS[metric]} prefers {winner} to {loser} by {difference(c['diff'])[0]}: whether this is beyond "
                "noise cannot be told at this size and skew (no procedure is calibrated here)")
    verdict = "distinguishable from noise" if c["distinguishable"] else "not distinguishable from noise"
    diff = difference(c["diff"])[0]
    ci, p = ("simultaneous CI", "adjusted p") if "decided_by" in c else ("CI", "p")
    return (f"{LABELS[metric]} prefers {winner} to {loser} by {diff} ({ci_text(c, c.get('level', 0.95), ci)}, "
            f"{p} {p_eq(c['p_value'])}, {c['method']}): {verdict}")


def _group_lines(intervals: pd.DataFrame, comparisons: pd.DataFrame | None, task: str, n_groups: int) -> list[str]:
    """:func:`interval_lines` of a grouped task: by the grouped methods' own calibration at ``n_groups``
    (:func:`prspace.audit.inference.grouping.calibration`)."""
    shown = [f"{LABELS[m]} {k}" for m in BOOT_METRICS if (k := shown_method(intervals, task, m))]
    out = ([f"intervals shown (groups resampled, {n_groups} groups; simulated coverage at least {C.TARGET:.0%} at "
            f"this number of groups, docs/calibration.md, 'Grouped rows'): {', '.join(shown)}"] if shown else [])
    for metric in BOOT_METRICS:
        if shown_method(intervals, task, metric) is not None:
            continue
        cells = [c for c in (grouping.calibration(metric, m, n_groups) for m in ("jackknife-t", "bootstrap")) if c]
        if not cells:
            out.append(f"with {n_groups} groups (fewer than any simulated) no grouped {LABELS[metric]} interval is "
                       "calibrated; not shown")
            continue
        best = max(cells, key=lambda c: c["coverage"])
        out.append(f"with {n_groups} groups no grouped {LABELS[metric]} 95% interval covers {C.TARGET:.0%} in simulation "
                   f"(best {best['coverage']:.3f} at {best['n_groups']} groups); not shown")
    if comparisons is None or not len(comparisons) or "calibrated" not in comparisons:
        return out
    c = comparisons[(comparisons["task"] == task) & ~comparisons["calibrated"].astype(bool)]
    for metric in c["metric"].unique():
        cell = grouping.calibration(metric, "bootstrap", n_groups)
        why = (f"rejects a true null {cell['false_rate']:.3f} of the time in simulation at {cell['n_groups']} groups "
               f"(at most {1 - C.TARGET:.2f} needed)" if cell else "is not calibrated at this number of groups")
        out.append(f"the {LABELS[metric]} unadjusted grouped paired interval (paired bootstrap) {why}; not shown")
    return out


#: What other tools print where the audit's interval differs from theirs (said beside the method's name).
ELSEWHERE = {("auroc", "DeLong (logit)"): " (pROC's ci.auc is DeLong on the AUC scale, clipped to [0, 1]: the 'DeLong' rows "
             "of intervals.csv; the logit scale keeps the ends inside (0, 1))",
             ("auroc", "jackknife-t"): " (pROC's ci.auc is DeLong's: the 'DeLong' rows of intervals.csv)",
             ("average_precision", "jackknife-t"): " (scikit-learn prints no interval for AP)"}


def interval_lines(intervals: pd.DataFrame, pooled: pd.DataFrame, comparisons: pd.DataFrame | None,
                   task: str, *, n_groups: int | None = None) -> list[str]:
    """The lines under a task's pooled table: which interval method each metric shows (the
    calibrated one), one sentence per metric shown without an interval (:func:`hidden_lines`), and
    one per metric whose unadjusted paired intervals are not shown.  ``n_groups``: the task's groups
    (``--group-col``): the lines then follow the grouped calibration (:func:`_group_lines`)."""
    if not len(intervals):
        return []
    if n_groups is not None:
        return _group_lines(intervals, comparisons, task, n_groups)
    shown = [f"{LABELS[m]} {k}{ELSEWHERE.get((m, k), '')}" for m in BOOT_METRICS if (k := shown_method(intervals, task, m))]
    out = ([f"intervals shown (simulated coverage at least {C.TARGET:.0%} at this size and skew, "
            f"docs/calibration.md): {', '.join(shown)}"] if shown else []) + hidden_lines(intervals, pooled, task)
    if comparisons is None or not len(comparisons) or "calibrated" not in comparisons:
        return out
    g = pooled[pooled["task"] == task]
    n_pos = float(g["n_pos"].iloc[0])
    n = n_pos + float(g["n_neg"].iloc[0])
    c = comparisons[(comparisons["task"] == task) & ~comparisons["calibrated"].astype(bool)]
    for (metric, method), _ in c.groupby(["metric", "method"], sort=False):
        cov = C.coverage_of(metric, method, n_pos, n, kind="pair coverage")
        if cov is not None:
            out.append(C.not_shown(cov, f"{LABELS[metric]} unadjusted paired", n_pos))
    return out
