"""The primary evidence of Flach & Kull (NIPS 2015, sec. 4), from a study's per-task table.

From ``disagreement_per_task.csv`` (per task and metric pair: ``top1_differs``, ``top3_differs``,
``spearman``) and ``tasks.csv`` (``family``; a task without one is its own), :func:`primary_rows`
computes the fourteen primary numbers of the registry (:mod:`prspace.core.claims`) with ONE
paired bootstrap over families:

* the six shares ``fk.<pair>.top1|top3`` (share of tasks whose two metrics pick a different best
  model / ordered top three) and the three mean Spearman correlations ``fk.<pair>.spearman``;
* the lower and upper quartile over tasks of the per-task AUPR-AUPRG Spearman correlation
  (``fk.aupr_auprg.spearman_q25|_q75``, ``numpy.quantile``, linear);
* the three paired differences of "as different as" (``fk.as_different.top1|top3|spearman``):
  (AUPR vs AUPRG) minus (AUPR vs AUROC), on the same resampled tasks.

The bootstrap: families are drawn with replacement ``B`` times as multinomial counts
``c_b ~ Multinomial(F, 1/F)`` (``numpy.random.default_rng(seed)``, drawn in chunks); a mean over tasks in resample ``b`` is
``sum_f c_bf S_f / sum_f c_bf N_f`` (``S_f``: the sum of the statistic over family f's tasks,
``N_f`` their number; a NaN Spearman is left out) and a quartile is ``numpy.quantile`` of the
resample's tasks, each repeated by its family's count (:func:`weighted_quantiles`, exact).
Intervals are percentile intervals at the simultaneous level
:func:`prspace.core.claims.primary_level` (Bonferroni over the primary family). Saturated
tasks (two or more models perfect under every metric) keep the convention of
``disagreement_summary``'s main columns: they count as agreement (their per-task rows say the
metrics agree); the ``*_unsat`` variant leaves them out (:func:`primary_rows` on a subset,
``sensitivity``).

Monte Carlo error of an interval end: :func:`prspace.stats.intervals.percentile_interval` (batch
means, or order statistics with few replicates beyond the end).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.core import claims as REG
from prspace.core import registry as TABLES
from prspace.core.errors import InputError
from prspace.stats.intervals import mc_method, percentile_interval
from prspace.verdicts.rule import apply_rule, evidence_frame, evidence_row

#: Flach & Kull's three pairs, in the registry's order of the ids.
PAIRS: tuple[tuple[str, str], ...] = (("aupr", "auprg"), ("aupr", "auroc"), ("auprg", "auroc"))
LABELS = {"aupr": "AUPR", "auprg": "AUPRG", "auroc": "AUROC"}
#: The largest Monte Carlo error of an interval end the default ``n_boot`` is chosen for.
MC_TARGET = 0.002
#: Default resamples (config ``analysis.verdicts.n_boot``): MC error <= :data:`MC_TARGET` on both
#: committed studies at the primary level (tests/verdicts/test_primary.py).
DEFAULT_N_BOOT = 500_000
#: Resamples drawn at once (memory: a chunk's counts and quartile weights).
_CHUNK = 50_000
#: ``(claim id, statistic, pair)`` of every mean-type statistic, in column order.
_MEANS = tuple((f"fk.{a}_{b}.{k}", col, (a, b)) for a, b in PAIRS
               for k, col in (("top1", "top1_differs"), ("top3", "top3_differs"), ("spearman", "spearman")))
_GAPS = (("fk.as_different.top1", "fk.aupr_auprg.top1", "fk.aupr_auroc.top1"),
         ("fk.as_different.top3", "fk.aupr_auprg.top3", "fk.aupr_auroc.top3"),
         ("fk.as_different.spearman", "fk.aupr_auprg.spearman", "fk.aupr_auroc.spearman"))
_QUARTILES = (("fk.aupr_auprg.spearman_q25", 0.25), ("fk.aupr_auprg.spearman_q75", 0.75))


def weighted_quantiles(x_sorted: np.ndarray, weights: np.ndarray, q: float) -> np.ndarray:
    """``numpy.quantile(np.repeat(x_sorted, w), q)`` (linear) for every row ``w`` of ``weights``
    (``(B, n)`` non-negative integers), without building the repeated arrays; NaN for a row of
    zero total weight."""
    cw = np.cumsum(weights, axis=1)
    total = cw[:, -1]
    h = (total - 1) * q
    j = np.floor(h)
    frac = h - j
    n = len(x_sorted)
    i0 = np.minimum((cw <= j[:, None]).sum(axis=1), n - 1)
    i1 = np.minimum((cw <= (j + 1)[:, None]).sum(axis=1), n - 1)
    with np.errstate(invalid="ignore"):
        v = x_sorted[i0] + frac * (x_sorted[i1] - x_sorted[i0])
    return np.where(total > 0, v, np.nan)


def _wide(per_task: pd.DataFrame, task_ids: Sequence[str] | None) -> pd.DataFrame:
    """One row per task: ``<stat>|<a>_<b>`` columns for the three pairs (float64)."""
    need = {"task_id", "metric_a", "metric_b", "top1_differs", "top3_differs", "spearman"}
    missing = sorted(need - set(per_task.columns))
    if missing:
        raise InputError(f"the per-task disagreement table lacks column(s) {missing}; give the study's "
                         f"{TABLES.DISAGREEMENT_PER_TASK.csv('tables')}")
    df = per_task.assign(task_id=per_task["task_id"].astype(str))
    cols = {}
    for a, b in PAIRS:
        sub = df[(df["metric_a"] == a) & (df["metric_b"] == b)].drop_duplicates("task_id").set_index("task_id")
        if sub.empty:
            raise InputError(f"the per-task disagreement table has no rows for the pair {a}, {b}; rank the study's "
                             "models by aupr, auprg and auroc (config analysis.metrics)")
        for c in ("top1_differs", "top3_differs", "spearman"):
            cols[f"{c}|{a}_{b}"] = sub[c].map({True: 1.0, False: 0.0, "True": 1.0, "False": 0.0}).astype(np.float64) \
                if c != "spearman" else sub[c].astype(np.float64)
    wide = pd.DataFrame(cols)
    if task_ids is not None:
        wide = wide.reindex([str(t) for t in task_ids]).dropna(how="all")
    incomplete = wide.index[wide[[c for c in wide.columns if not c.startswith("spearman")]].isna().any(axis=1)]
    if len(incomplete):
        raise InputError(f"task(s) {', '.join(map(str, incomplete[:5]))} lack a row for one of the pairs "
                         f"{', '.join(f'{a}-{b}' for a, b in PAIRS)} in the per-task table; rerun the study's rank step")
    return wide.sort_index()


def families_of(task_ids: Sequence[str], tasks: pd.DataFrame | None) -> np.ndarray:
    """Each task's family (``tasks.family``; a task without one is its own)."""
    ids = pd.Index([str(t) for t in task_ids])
    if tasks is None or "family" not in tasks.columns:
        return ids.to_numpy(dtype=object).astype(str)
    fam = tasks.assign(task_id=tasks["task_id"].astype(str)).drop_duplicates("task_id").set_index("task_id")["family"]
    f = fam.reindex(ids).to_numpy(dtype=object)
    return np.where(pd.isna(f), ids.to_numpy(dtype=object), f).astype(str)


def primary_statistics(
    per_task: pd.DataFrame, tasks: pd.DataFrame | None, *, n_boot: int, seed: int, level: float | None = None,
    task_ids: Sequence[str] | None = None,
) -> pd.DataFrame:
    """The fourteen primary statistics with their intervals: one row per claim id with
    ``estimate, ci_lo, ci_hi, mc_lo, mc_hi, mc_error, level, n_tasks, n_families, n_boot, seed``.
    ``task_ids``: compute on these tasks only (a sensitivity variant); default every task."""
    level = REG.primary_level() if level is None else float(level)
    wide = _wide(per_task, task_ids)
    if wide.empty:
        raise InputError("no task left to compute the primary statistics on")
    fam = families_of(wide.index, tasks)
    _, fid = np.unique(fam, return_inverse=True)
    n_f = int(fid.max()) + 1
    v = wide[[f"{col}|{a}_{b}" for _, col, (a, b) in _MEANS]].to_numpy(np.float64)
    ok = np.isfinite(v)
    sums, nums = np.zeros((n_f, v.shape[1])), np.zeros((n_f, v.shape[1]))
    np.add.at(sums, fid, np.where(ok, v, 0.0))
    np.add.at(nums, fid, ok.astype(np.float64))
    rho = wide["spearman|aupr_auprg"].to_numpy(np.float64)
    keep = np.isfinite(rho)
    order = np.argsort(rho[keep], kind="stable")
    x_sorted, rho_fid = rho[keep][order], fid[keep][order]
    ids = [cid for cid, _, _ in _MEANS]
    col = {cid: j for j, cid in enumerate(ids)}
    with np.errstate(invalid="ignore", divide="ignore"):
        est = sums.sum(axis=0) / nums.sum(axis=0)
    ests = [*est, *(est[col[x]] - est[col[y]] for _, x, y in _GAPS),
            *(float(np.quantile(rho[keep], q)) if keep.any() else float("nan") for _, q in _QUARTILES)]
    ids += [g for g, _, _ in _GAPS] + [q for q, _ in _QUARTILES]
    boot = np.empty((n_boot, len(ids)))
    rng = np.random.default_rng(seed)
    for start in range(0, n_boot, _CHUNK):
        stop = min(start + _CHUNK, n_boot)
        c = rng.multinomial(n_f, np.full(n_f, 1.0 / n_f), size=stop - start).astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            m = (c @ sums) / (c @ nums)
        gaps = [m[:, col[x]] - m[:, col[y]] for _, x, y in _GAPS]
        quart = [weighted_quantiles(x_sorted, c[:, rho_fid], q) if keep.any() else np.full(stop - start, np.nan)
                 for _, q in _QUARTILES]
        boot[start:stop] = np.column_stack([m, *gaps, *quart])
    lo, hi, mlo, mhi = percentile_interval(boot, level)
    return pd.DataFrame({"claim_id": ids, "estimate": np.asarray(ests, dtype=np.float64), "ci_lo": lo, "ci_hi": hi,
                         "mc_lo": mlo, "mc_hi": mhi, "mc_error": np.fmax(mlo, mhi), "level": level,
                         "n_tasks": len(wide), "n_families": n_f, "n_boot": int(n_boot), "seed": int(seed)})


def _claim_text(cid: str) -> str:
    parts = cid.split(".")
    if parts[1] == "as_different":
        what = {"top1": "share of tasks with a different best model", "top3": "share with a different ordered top three",
                "spearman": "mean rank correlation"}[parts[2]]
        return f"AUPR and AUPRG are as different from each other as AUPR and AUROC ({what}: paired difference)"
    a, b = parts[1].split("_")
    A, B = LABELS[a], LABELS[b]
    return {"top1": f"{A} and {B} pick a different best model", "top3": f"{A} and {B} pick a different ordered top three",
            "spearman": f"{A} and {B} ranks correlate (mean per-task Spearman)",
            "spearman_q25": f"Lower quartile over tasks of the {A}-{B} rank correlation",
            "spearman_q75": f"Upper quartile over tasks of the {A}-{B} rank correlation"}[parts[2]]


_KIND = {"share": "share", "correlation": "correlation", "quartile": "quartile", "share_gap": "equivalence",
         "correlation_gap": "equivalence"}


def primary_rows(
    per_task: pd.DataFrame, tasks: pd.DataFrame | None, *, n_boot: int = DEFAULT_N_BOOT, seed: int = 0,
    task_ids: Sequence[str] | None = None, note: str = "",
) -> list[dict[str, object]]:
    """Evidence rows (:func:`prspace.verdicts.rule.evidence_row`) of Flach & Kull's primary claims
    (:func:`primary_statistics`); ``paper_value`` and the margin (``tolerance``) from the registry."""
    stats = primary_statistics(per_task, tasks, n_boot=n_boot, seed=seed, task_ids=task_ids)
    rows = []
    for r in stats.itertuples(index=False):
        c = REG.BY_ID[r.claim_id]
        how = (f"simultaneous {r.level:.2%} percentile interval (Bonferroni over the {len(REG.primary_ids())} primary "
               f"claims) from one paired bootstrap over {r.n_families} families of the {r.n_tasks} tasks ({r.n_boot} "
               f"resamples, seed {r.seed}); MC error of the ends {r.mc_lo:.4f} / {r.mc_hi:.4f} ({mc_method(r.n_boot, r.level)})")
        if c.quantity == "share":
            how += "; tasks where two or more models are perfect under every metric count as agreement"
        rows.append(evidence_row(
            paper=c.paper, claim_id=c.claim_id, claim=_claim_text(c.claim_id), kind=_KIND[c.quantity],
            estimate=r.estimate, ci_lo=r.ci_lo, ci_hi=r.ci_hi, paper_value=c.paper_value, tolerance=c.margin,
            n_tasks=r.n_tasks, n_families=r.n_families, level=r.level, mc_error=r.mc_error,
            detail=f"{c.test}; {how}{note}"))
    return rows


SENSITIVITY_COLUMNS = ["claim_id", "variant", "n_tasks", "n_families", "estimate", "ci_lo", "ci_hi", "mc_error", "verdict"]
#: Balance levels of the sensitivity table: (label, lowest pi, pi below).
BALANCE_VARIANTS = (("pi >= 0.3", 0.3, math.inf), ("0.1 <= pi < 0.3", 0.1, 0.3), ("pi < 0.1", 0.0, 0.1))


def sensitivity_variants(tasks: pd.DataFrame | None, task_ids: Sequence[str]) -> list[tuple[str, list[str]]]:
    """``(variant, task ids)``: every task (saturated tasks as agreement, the primary rows'
    convention), saturated tasks left out (``tasks.saturated``), and each balance level by the
    task's ``pi`` (:data:`BALANCE_VARIANTS`). A variant the task table cannot define is left out."""
    ids = [str(t) for t in task_ids]
    out = [("all tasks (saturated as agreement)", ids)]
    if tasks is None:
        return out
    t = tasks.assign(task_id=tasks["task_id"].astype(str)).drop_duplicates("task_id").set_index("task_id").reindex(ids)
    if "saturated" in t.columns:
        sat = t["saturated"].map({True: True, "True": True, False: False, "False": False}).fillna(False).astype(bool)
        out.append(("saturated tasks left out", [i for i in ids if not sat[i]]))
    if "pi" in t.columns:
        pi = pd.to_numeric(t["pi"], errors="coerce")
        out += [(label, [i for i in ids if lo <= pi[i] < hi]) for label, lo, hi in BALANCE_VARIANTS]
    return out


#: The variant of :func:`sensitivity_table` ranking one model per learner family.
ONE_PER_FAMILY = "one learner per family"


def sensitivity_table(per_task: pd.DataFrame, tasks: pd.DataFrame | None, *, n_boot: int = DEFAULT_N_BOOT,
                      seed: int = 0, per_task_one_per_family: pd.DataFrame | None = None) -> pd.DataFrame:
    """Flach & Kull's primary rows recomputed on each :func:`sensitivity_variants` subset, and on
    ``per_task_one_per_family`` (the per-task table of the same tasks ranked with one model per
    learner family: :func:`prspace.experiments.ranking.one_model_per_family`) as the variant
    :data:`ONE_PER_FAMILY`; each decided by the one rule (a subset of fewer than 10 families says
    so). Columns :data:`SENSITIVITY_COLUMNS`."""
    ids = _wide(per_task, None).index
    rows = []
    variants = [(v, keep, per_task) for v, keep in sensitivity_variants(tasks, ids)]
    if per_task_one_per_family is not None:
        variants.insert(2, (ONE_PER_FAMILY, list(_wide(per_task_one_per_family, None).index), per_task_one_per_family))
    for variant, keep, table in variants:
        if not keep:
            rows += [{"claim_id": cid, "variant": variant, "n_tasks": 0, "n_families": 0,
                      "verdict": "cannot be told: no task"} for cid in (*(c for c, _, _ in _MEANS), *(g for g, _, _ in _GAPS),
                                                                        *(q for q, _ in _QUARTILES))]
            continue
        v = apply_rule(evidence_frame(primary_rows(table, tasks, n_boot=n_boot, seed=seed, task_ids=keep)))
        rows += v.assign(variant=variant)[SENSITIVITY_COLUMNS].to_dict("records")
    return pd.DataFrame(rows, columns=SENSITIVITY_COLUMNS)
