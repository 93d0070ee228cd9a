"""The primary evidence of both papers, decided by the one scheme (docs/verdicts.md, "One scheme").

From ``disagreement_per_task.csv`` (per task and metric pair: ``top1_differs``, ``top3_differs``,
``spearman``) and ``tasks.csv`` (``family``; a task without one is its own), :func:`fk_stats` builds
Flach & Kull's fourteen primary statistics over the study's families:

* the six shares ``fk.<pair>.top1|top3`` and the three mean Spearman correlations ``fk.<pair>.spearman``
  (ratio means over families; a NaN Spearman is left out);
* the lower and upper quartile over tasks of the AUPR-AUPRG Spearman correlation
  (``fk.aupr_auprg.spearman_q25|_q75``, Woodruff's interval);
* the three paired differences of "as different as" (``fk.as_different.top1|top3|spearman``):
  (AUPR vs AUPRG) minus (AUPR vs AUROC), on the same resampled families.

Boyd et al.'s primary direction rows are re-decided from their per-task values by family
(:func:`direction_rows`). :func:`bootstrap_claims` bootstraps them with
:func:`prspace.stats.cluster_bootstrap.run` (studentized cluster bootstrap, its coverage measured and
its level corrected by a double bootstrap over the study's own families, Monte Carlo error over 10
independent reruns) and :func:`decide_family` decides each paper's claims together: the p-value of
deciding per claim, Holm over the paper's claims, the interval at each claim's Holm level and at 95%,
the measured coverage, and the families that would decide with 80% power. Saturated tasks (two or
more models perfect under every metric) count as agreement, as ``disagreement_summary``'s main
columns; the sensitivity table (:func:`sensitivity_table`) also leaves them out, and
:func:`margin_sensitivity_table` decides every claim at margins 0.05, 0.10 and 0.15.

One module of about 460 lines on purpose: the primary rows of both papers go through one engine
and one Holm family per paper here, so that every primary interval is made the same way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from prspace.core import claims as REG
from prspace.core import registry as TABLES
from prspace.core._heap import keep_freed_memory
from prspace.core.defaults import N_BOOT_VERDICTS
from prspace.core.errors import InputError
from prspace.stats import cluster_bootstrap as CB
from prspace.verdicts.rule import (
    ALL_EVIDENCE_COLUMNS,
    MIN_FAMILIES,
    apply_rule,
    decide,
    evidence_frame,
    evidence_row,
    few_families,
)

#: Flach & Kull's three pairs, in the registry's order of the ids.
PAIRS: tuple[tuple[str, str], ...] = (("aupr", "auprg"), ("aupr", "auroc"), ("auprg", "auroc"))
LABELS = {"aupr": "AUPR", "auprg": "AUPRG", "auroc": "AUROC"}
#: The largest Monte Carlo error of an interval end the default ``n_boot`` is chosen for.
MC_TARGET = 0.002
#: Default resamples (config ``analysis.verdicts.n_boot``), over all replicates: MC error <=
#: :data:`MC_TARGET` on both committed studies at the levels used (tests/verdicts/test_primary.py).
DEFAULT_N_BOOT = N_BOOT_VERDICTS
#: Independent reruns of the bootstrap (seeds spawned from the study's seed): the intervals pool
#: them, the Monte Carlo error of each end is their spread.
REPLICATES = 10
#: Direction rows (a few statistics over 11 to 58 families) are bootstrapped with this many times
#: ``n_boot``: the same cost buys a Monte Carlo error within :data:`MC_TARGET` on every scale.
DIRECTION_BOOST = 3
#: ``(claim id, statistic, pair)`` of every mean-type statistic, in column order.
_MEANS = tuple((f"fk.{a}_{b}.{k}", col, (a, b)) for a, b in PAIRS
               for k, col in (("top1", "top1_differs"), ("top3", "top3_differs"), ("spearman", "spearman")))
_GAPS = (("fk.as_different.top1", "fk.aupr_auprg.top1", "fk.aupr_auroc.top1"),
         ("fk.as_different.top3", "fk.aupr_auprg.top3", "fk.aupr_auroc.top3"),
         ("fk.as_different.spearman", "fk.aupr_auprg.spearman", "fk.aupr_auroc.spearman"))
_QUARTILES = (("fk.aupr_auprg.spearman_q25", 0.25), ("fk.aupr_auprg.spearman_q75", 0.75))


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


def fk_stats(per_task: pd.DataFrame, tasks: pd.DataFrame | None, task_ids: Sequence[str] | None = None
             ) -> tuple[list[tuple[str, CB.Stat]], int, int]:
    """Flach & Kull's fourteen primary statistics as :class:`prspace.stats.cluster_bootstrap.Stat`
    over the study's families: ``([(claim id, stat)], tasks, families)``."""
    wide = _wide(per_task, task_ids)
    if wide.empty:
        raise InputError("no task left to compute the primary statistics on")
    fam = families_of(wide.index, tasks)
    _, fid = np.unique(fam, return_inverse=True)
    n_f = int(fid.max()) + 1
    col = lambda c, a, b: wide[f"{c}|{a}_{b}"].to_numpy(np.float64)  # noqa: E731
    rng = {"top1_differs": (0.0, 1.0), "top3_differs": (0.0, 1.0), "spearman": (-1.0, 1.0)}
    out = [(cid, replace(CB.ratio_stat(col(c, a, b), fid, n_f), bounds=rng[c])) for cid, c, (a, b) in _MEANS]
    src = {cid: (c, ab) for cid, c, ab in _MEANS}
    for gid, x, y in _GAPS:
        (cx, (a1, b1)), (cy, (a2, b2)) = src[x], src[y]
        gap = CB.combo_stat([(1.0, col(cx, a1, b1)), (-1.0, col(cy, a2, b2))], fid, n_f)
        out.append((gid, replace(gap, bounds=(-1.0, 1.0) if cx != "spearman" else (-2.0, 2.0))))
    rho = wide["spearman|aupr_auprg"].to_numpy(np.float64)
    out += [(qid, CB.quantile_stat(rho, fid, q, n_f)) for qid, q in _QUARTILES]
    return out, len(wide), n_f


#: Columns of :func:`decide_family` (one row per primary claim).
DECISION_COLUMNS = [
    "claim_id", "estimate", "ci_lo", "ci_hi", "level", "ci95_lo", "ci95_hi", "mc_lo", "mc_hi", "mc_error",
    "p_decide", "p_holm", "holm_multiplier", "coverage", "coverage_plain", "coverage_mc_se", "families_80",
    "power_here", "value", "margin", "n_tasks", "n_families", "n_boot", "seed",
]


@dataclass
class Bootstrapped:
    """One claim's bootstrap (:func:`prspace.stats.cluster_bootstrap.run`) and what it is compared with."""

    claim_id: str
    res: CB.Result
    k: int
    n_tasks: int
    value: float
    margin: float
    grid: tuple[np.ndarray, np.ndarray]  # this claim's ends at :data:`CB.ALPHA_GRID` (lower, upper)


def double_outer(n_boot: int) -> int:
    """Outer resamples of the double bootstrap for ``n_boot``: one per 10, from 200 to
    :data:`prspace.stats.cluster_bootstrap.DOUBLE_OUTER` (100,000 at the default ``n_boot``). The Monte
    Carlo error of a corrected end comes almost wholly from the level correction (the tail of ``u``
    over the outer resamples), not from the ``t*`` draws: at 8,000 outer resamples the largest was
    0.0062, at 100,000 it is within :data:`MC_TARGET` on both committed studies."""
    return int(np.clip(n_boot // 10, 200, CB.DOUBLE_OUTER))


def bootstrap_claims(entries: list[tuple[str, CB.Stat, int]], *, n_boot: int, seed: int,
                     replicates: int = REPLICATES, n_out: int | None = None) -> list[Bootstrapped]:
    """Bootstrap claims that share their families together (``(claim id, stat, tasks)``), each
    group with its own seed spawned from ``seed`` in the order of the groups' first claims;
    ``n_out`` outer resamples of the double bootstrap (default :func:`double_outer`)."""
    # the bootstrap allocates and frees arrays of tens of MB thousands of times: kept, not faulted in again
    # (prspace.core._heap; collect_evidence of the default study at 1,000,000 resamples: 548,000 page faults)
    keep_freed_memory()
    groups: dict[int, list[int]] = {}
    for i, (_, st, _) in enumerate(entries):
        groups.setdefault(st.n_families, []).append(i)
    out: list[Bootstrapped | None] = [None] * len(entries)
    for g, (_, members) in enumerate(groups.items()):
        res = CB.run([entries[i][1] for i in members], B=max(n_boot // replicates, 50), seed=[seed, g],
                     replicates=replicates, n_out=double_outer(n_boot) if n_out is None else n_out)
        lo, hi = res.interval(CB.ALPHA_GRID)  # once per group: every member's ends on the grid
        for k, i in enumerate(members):
            cid = entries[i][0]
            out[i] = Bootstrapped(cid, res, k, entries[i][2], REG.decision_value(cid), REG.decision_margin(cid),
                                  (lo[k], hi[k]))
    return [b for b in out if b is not None]


def decide_family(boots: list[Bootstrapped], *, n_boot: int, seed: int, margin: float | None = None,
                  power: bool = True) -> pd.DataFrame:
    """One paper's primary claims decided together (:data:`DECISION_COLUMNS`): each claim's p-value
    of deciding (:func:`prspace.stats.cluster_bootstrap.decision_p`), Holm over the claims
    (:func:`prspace.core.claims.holm`), the interval at each claim's Holm level and at 95%, the
    Monte Carlo error of the ends (over the replicates), the coverage measured by the double
    bootstrap at the level used, and the families that would decide with 80% power.
    ``margin``: every claim's margin replaced (the margin sensitivity)."""
    if not boots:
        return pd.DataFrame(columns=DECISION_COLUMNS)
    margins = [b.margin if margin is None else float(margin) for b in boots]
    p = [CB.decision_p(*b.grid, b.value, m) if np.isfinite(m) and np.isfinite(b.value) else float("nan")
         for b, m in zip(boots, margins, strict=True)]
    adj, mult = REG.holm(p, REG.HOLM_ALPHA)
    rows = []
    for b, m, pj, pa, h in zip(boots, margins, p, adj, mult, strict=True):
        a = REG.HOLM_ALPHA / h if h else REG.HOLM_ALPHA
        sub = CB._sub(b.res, b.k)
        lo, hi = sub.interval_at(np.array([a]))
        lo95, hi95 = sub.interval_at(np.array([1.0 - REG.CLAIM_LEVEL]))
        mlo, mhi = sub.mc_error(np.array([a])) if margin is None else (np.array([np.nan]), np.array([np.nan]))
        cov = sub.coverage(np.array([a])) if margin is None else {
            "plain": [np.nan], "plain_se": [np.nan], "corrected": [np.nan], "corrected_mc_se": [np.nan]}
        n80, here = float("nan"), float("nan")
        if power and margin is None and np.isfinite(m) and np.isfinite(b.value):
            grid, pw = CB.power_curve(b.res.stats[b.k], b.value, m, REG.HOLM_ALPHA / max(len(boots), 1),
                                      seed=seed)
            n80 = CB.families_for_power(grid, pw)
            F = b.res.stats[b.k].n_families
            g2, here_p = CB.power_curve(b.res.stats[b.k], b.value, m, REG.HOLM_ALPHA / max(len(boots), 1),
                                        seed=seed, grid=np.array([F]))
            here = float(here_p[0])
        rows.append({"claim_id": b.claim_id, "estimate": float(b.res.estimate[b.k]), "ci_lo": float(lo[0]),
                     "ci_hi": float(hi[0]), "level": 1.0 - a, "ci95_lo": float(lo95[0]), "ci95_hi": float(hi95[0]),
                     "mc_lo": float(mlo[0]), "mc_hi": float(mhi[0]), "mc_error": float(np.fmax(mlo[0], mhi[0])),
                     "p_decide": pj, "p_holm": pa, "holm_multiplier": h, "coverage": float(cov["corrected"][0]),
                     "coverage_plain": float(cov["plain"][0]), "coverage_mc_se": float(cov["plain_se"][0]),
                     "families_80": n80, "power_here": here, "value": b.value, "margin": m, "n_tasks": b.n_tasks,
                     "n_families": b.res.stats[b.k].n_families, "n_boot": int(n_boot), "seed": int(seed)})
    return pd.DataFrame(rows, columns=DECISION_COLUMNS)


def primary_statistics(
    per_task: pd.DataFrame, tasks: pd.DataFrame | None, *, n_boot: int, seed: int,
    task_ids: Sequence[str] | None = None, power: bool = True, keep: dict | None = None, n_out: int | None = None,
) -> pd.DataFrame:
    """Flach & Kull's fourteen primary statistics decided together (:func:`decide_family`).
    ``task_ids``: compute on these tasks only (a sensitivity variant); default every task.
    ``keep``: receives the bootstraps under the paper's key (for :func:`margin_sensitivity_table`).
    ``n_out``: outer resamples of the double bootstrap (:func:`bootstrap_claims`)."""
    stats, n_tasks, _ = fk_stats(per_task, tasks, task_ids)
    boots = bootstrap_claims([(cid, st, n_tasks) for cid, st in stats], n_boot=n_boot, seed=seed, n_out=n_out)
    if keep is not None:
        keep[REG.FK] = boots
    return decide_family(boots, n_boot=n_boot, seed=seed, power=power)


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


def _how(r: object, k: int, what: str) -> str:
    quart = getattr(r, "claim_id", "").endswith(("_q25", "_q75"))
    kind = ("Woodruff interval of a quartile (the bootstrap-t interval of the share of tasks at or below it, mapped "
            "through the tasks' quantiles)" if quart else "studentized (bootstrap-t) interval")
    return (f"{r.level:.2%} {kind} (Holm over the {k} primary claims of {what}: multiplier "
            f"{int(r.holm_multiplier)}, adjusted p of deciding {r.p_holm:.3g}) from a cluster bootstrap over "
            f"{r.n_families} families of the {r.n_tasks} tasks ({r.n_boot} resamples in {REPLICATES} independent "
            f"reruns, seed {r.seed}); its coverage measured by the double bootstrap over these families "
            f"{r.coverage:.4f} (plain bootstrap-t {r.coverage_plain:.4f}, level corrected where short); MC error of "
            f"the ends over the reruns {r.mc_lo:.4f} / {r.mc_hi:.4f}")


def _scheme(r: object) -> dict[str, float]:
    return {c: float(getattr(r, c)) for c in ("ci95_lo", "ci95_hi", "p_decide", "p_holm", "holm_multiplier",
                                              "coverage", "coverage_plain", "coverage_mc_se", "families_80",
                                              "power_here")}


def primary_rows(
    per_task: pd.DataFrame, tasks: pd.DataFrame | None, *, n_boot: int = DEFAULT_N_BOOT, seed: int = 0,
    task_ids: Sequence[str] | None = None, note: str = "", power: bool = True, keep: dict | None = None,
    n_out: int | None = None,
) -> list[dict[str, object]]:
    """Evidence rows (:func:`prspace.verdicts.rule.evidence_row`) of Flach & Kull's primary claims
    (:func:`primary_statistics`); ``paper_value`` and the margin (``tolerance``) from the registry."""
    stats = primary_statistics(per_task, tasks, n_boot=n_boot, seed=seed, task_ids=task_ids, power=power, keep=keep,
                               n_out=n_out)
    return _fk_rows(stats, note)


def _fk_rows(stats: pd.DataFrame, note: str = "") -> list[dict[str, object]]:
    rows = []
    for r in stats.itertuples(index=False):
        c = REG.BY_ID[r.claim_id]
        how = _how(r, len(stats), "Flach & Kull")
        if c.quantity == "share":
            how += "; tasks where two or more models are perfect under every metric count as agreement"
        rows.append(evidence_row(
            paper=c.paper, claim_id=c.claim_id, claim=_claim_text(c.claim_id), kind=_KIND[c.quantity],
            estimate=r.estimate, ci_lo=r.ci_lo, ci_hi=r.ci_hi, paper_value=c.paper_value, tolerance=c.margin,
            n_tasks=r.n_tasks, n_families=r.n_families, level=r.level, mc_error=r.mc_error,
            mc_error_lo=r.mc_lo, mc_error_hi=r.mc_hi, detail=f"{c.test}; {how}{note}", **_scheme(r)))
    return rows


def direction_stats(values: pd.DataFrame, claim_ids: Sequence[str]) -> list[tuple[str, CB.Stat, int]]:
    """The mean over tasks of each claim's per-task values (``claim_id, family, value``: one row per
    task, the evidence-values table of the Boyd experiments) as a ratio-mean statistic over its
    families; claims without values are left out."""
    need = {"claim_id", "family", "value"}
    if not need <= set(values.columns):
        raise InputError(f"the per-task evidence values lack column(s) {sorted(need - set(values.columns))}; "
                         "rerun the study's Boyd experiments")
    out = []
    for cid in claim_ids:
        sub = values[values["claim_id"] == cid]
        v = pd.to_numeric(sub["value"], errors="coerce").to_numpy(np.float64)
        if not np.isfinite(v).any():
            continue
        _, fid = np.unique(sub["family"].astype(str).to_numpy(), return_inverse=True)
        out.append((cid, CB.ratio_stat(v, fid), int(np.isfinite(v).sum())))
    return out


def direction_rows(evidence: pd.DataFrame, values: pd.DataFrame | None, *, paper: str = REG.BOYD,
                   n_boot: int = DEFAULT_N_BOOT, seed: int = 0, power: bool = True, keep: dict | None = None
                   ) -> pd.DataFrame:
    """A paper's primary direction rows of ``evidence`` re-decided by the one scheme: each claim's
    interval recomputed from its per-task ``values`` by family (:func:`direction_stats`; the row's
    estimate must be their mean), the claims decided together (:func:`decide_family`, Holm over the
    paper's primary claims); other rows returned unchanged. A primary row without values keeps its
    interval and says so."""
    ids = [c for c in REG.primary_ids() if REG.BY_ID[c].paper == paper and REG.BY_ID[c].quantity == "direction"]
    mine = evidence["claim_id"].isin(ids)
    if values is None or not mine.any():
        return evidence
    entries = direction_stats(values, [c for c in evidence.loc[mine, "claim_id"]])
    if not entries:
        return evidence
    # few statistics over few families: DIRECTION_BOOST times the resamples for the same time
    boots = bootstrap_claims(entries, n_boot=DIRECTION_BOOST * n_boot, seed=seed + 1)
    if keep is not None:
        keep[paper] = boots
    dec = decide_family(boots, n_boot=DIRECTION_BOOST * n_boot, seed=seed + 1, power=power).set_index("claim_id")
    ev = evidence.copy()
    for col in ALL_EVIDENCE_COLUMNS:
        if col not in ev.columns:
            ev[col] = np.nan
    for i in ev.index[mine]:
        cid = ev.at[i, "claim_id"]
        if cid not in dec.index:
            ev.at[i, "detail"] = f"{ev.at[i, 'detail']}; no per-task values: its own interval, outside the Holm family"
            continue
        r = dec.loc[cid]
        # the evidence CSV keeps 6 significant digits (prspace.core.output.CSV_SIGNIFICANT), the estimate and each
        # per-task value alike: half a unit of the sixth digit is 5e-6 of the estimate, plus 5e-6 of the mean |value|
        # for the values' own rounding (a mean of differences can be far smaller than the values); twice that
        v = pd.to_numeric(values.loc[values["claim_id"] == cid, "value"], errors="coerce").abs().mean()
        tol = 1e-5 * (abs(float(r["estimate"])) + float(v)) + 1e-9
        if abs(float(ev.at[i, "estimate"]) - float(r["estimate"])) > tol:
            raise InputError(f"{cid}: the evidence row's estimate {ev.at[i, 'estimate']} is not the mean of its per-task "
                             f"values {r['estimate']}; rerun the study's Boyd experiments")
        rr = r.rename({"mc_lo": "mc_error_lo", "mc_hi": "mc_error_hi"})
        for col in ("ci_lo", "ci_hi", "level", "mc_error", "mc_error_lo", "mc_error_hi", "n_families", *_scheme(r)):
            ev.at[i, col] = float(rr[col])
        how = _how(r.rename(None).to_frame().T.assign(claim_id=cid).iloc[0], len(dec), "Boyd et al.")
        ev.at[i, "detail"] = f"{ev.at[i, 'detail']}; interval: {how}"
    return ev


MARGIN_COLUMNS = ["claim_id", "paper", "margin", "estimate", "ci_lo", "ci_hi", "level", "p_holm", "verdict"]


def margin_sensitivity_table(kept: dict[str, list[Bootstrapped]], *, n_boot: int, seed: int) -> pd.DataFrame:
    """Every primary claim decided at each margin of :data:`prspace.core.claims.SENSITIVITY_MARGINS`
    (Holm over each paper's claims recomputed at that margin; the same bootstraps), with the main
    table's margin first. Columns :data:`MARGIN_COLUMNS`."""
    rows = []
    for paper, boots in kept.items():
        for margin in (None, *REG.SENSITIVITY_MARGINS):
            d = decide_family(boots, n_boot=n_boot, seed=seed, margin=margin, power=False)
            for r in d.itertuples(index=False):
                c = REG.BY_ID[r.claim_id]
                row = {"paper": paper, "claim_id": r.claim_id, "kind": _KIND.get(c.quantity, c.quantity),
                       "estimate": r.estimate, "ci_lo": r.ci_lo, "ci_hi": r.ci_hi, "level": r.level,
                       "paper_value": c.paper_value if c.quantity != "direction" else float(c.direction),
                       "margin": r.margin, "p_holm": r.p_holm, "role": "primary", "n_families": r.n_families}
                verdict, _, _ = decide(row)
                rows.append({**{k: row[k] for k in MARGIN_COLUMNS if k in row}, "verdict": verdict,
                             "margin_kind": "fixed before the results" if margin is None else "sensitivity"})
    return pd.DataFrame(rows, columns=[*MARGIN_COLUMNS, "margin_kind"])


#: Outer resamples of the double bootstrap of each sensitivity variant (six variants: the primary
#: rows' 100,000 each would take most of the verdict step's time).
SENSITIVITY_OUTER = 8_000
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
    so). Columns :data:`SENSITIVITY_COLUMNS`. The level correction of each variant rests on at most
    :data:`SENSITIVITY_OUTER` outer resamples: its ends carry a larger MC error than the primary rows'
    (column ``mc_error``, measured the same way; an end within it of a threshold reads borderline)."""
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
        n_f = len(set(families_of(_wide(table, keep).index, tasks)))
        if n_f < MIN_FAMILIES:
            rows += [{"claim_id": cid, "variant": variant, "n_tasks": len(keep), "n_families": n_f,
                      "verdict": few_families(n_f)} for cid in (*(c for c, _, _ in _MEANS), *(g for g, _, _ in _GAPS),
                                                                   *(q for q, _ in _QUARTILES))]
            continue
        v = apply_rule(evidence_frame(primary_rows(table, tasks, n_boot=n_boot, seed=seed, task_ids=keep, power=False,
                                                   n_out=min(double_outer(n_boot), SENSITIVITY_OUTER)), scheme=True))
        rows += v.assign(variant=variant)[SENSITIVITY_COLUMNS].to_dict("records")
    return pd.DataFrame(rows, columns=SENSITIVITY_COLUMNS)
