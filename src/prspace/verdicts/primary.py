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

Flach & Kull's "all significantly different" (``fk.all_different``) adds one statistic per metric pair
when the noise floor's pair table is given (the mean per-task cross- minus self-disagreement on the best
model), decided as an intersection-union test (:func:`_intersection_union`).

Boyd et al.'s primary direction rows are re-decided from their per-task values by family
(:func:`prspace.verdicts.direction.direction_rows`), each by the sign-flip test over families (:mod:`prspace.stats.sign_flip`: exact
over every pattern of signs up to 16 families, its level counted in the same known-truth simulation),
because with 11 to 20 families the double bootstrap cannot resolve a p-value below the share of simulated
studies whose resamples never reach the truth (2.6% for a row whose 13 families all lie on one side).
:func:`bootstrap_claims` bootstraps Flach & Kull's with :func:`prspace.stats.cluster_bootstrap.run`
(studentized cluster bootstrap, its coverage counted and its level corrected in a known-truth simulation
over the study's own families, Monte Carlo error by rerunning) and :func:`decide_family` decides each
paper's claims together: each claim's p-values of
Lakens, Scheel & Isager's tests, Holm over the paper's claims, the outcome at each claim's Holm error,
the per-claim 95% interval with its counted coverage, and the families that would decide with 80%
power. Saturated tasks (two or more models perfect under every metric) count as agreement, as
``disagreement_summary``'s main columns; the sensitivity table (:func:`sensitivity_table`) also leaves
them out, and :func:`prspace.verdicts.sensitivity.margin_sensitivity_table` decides every claim at half and
twice its margin.

One module of about 500 lines on purpose: the primary rows of both papers go through one engine and one
Holm family per paper here, so that every primary interval is made the same way; Boyd et al.'s rows are read from their evidence table by
:mod:`prspace.verdicts.direction`, and the sensitivity tables are :mod:`prspace.verdicts.sensitivity`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from prspace.core import claims as REG
from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.core.evidence import SCHEME_COLUMNS
from prspace.core.memory import keep_freed_memory
from prspace.stats import cluster_bootstrap as CB
from prspace.stats import sign_flip as SF
from prspace.stats.nested import procedure as NP
from prspace.verdicts.primary_text import REPLICATES, double_outer, how_computed, rerun_resamples
from prspace.verdicts.rule import evidence_row, exact_share_ps

#: Flach & Kull's three pairs, in the registry's order of the ids.
PAIRS: tuple[tuple[str, str], ...] = (("aupr", "auprg"), ("aupr", "auroc"), ("auprg", "auroc"))
LABELS = {"aupr": "AUPR", "auprg": "AUPRG", "auroc": "AUROC"}
#: Families at which the sign-flip test's power is simulated (Boyd's rows: 11 to 58 families); a row that
#: needs more than the last says so ("not within" the grid).
SIGN_FLIP_POWER_GRID = np.array([5, 6, 7, 8, 9, 10, 12, 14, 16, 20, 25, 30, 40, 50, 60, 80, 100, 150, 200])
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
                         f"{R.DISAGREEMENT_PER_TASK.csv('tables')}")
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


#: Flach & Kull's "all significantly different": one statistic per pair (``<id>|<a>_<b>``), decided
#: as an intersection-union test (the claim holds when every pair's does; :func:`_intersection_union`).
ALL_DIFFERENT = "fk.all_different"


def _noise_excess(noise_pairs: pd.DataFrame, index: pd.Index) -> dict[str, np.ndarray]:
    """Per pair, each task's cross- minus self-disagreement on the best model (``top1_cross_minus_self``
    of ``noise_floor_pairs.csv``: how much more often the two metrics pick different best models than
    one metric does with itself on resampled test rows), aligned to ``index`` (NaN: not measured)."""
    need = {"task_id", "metric_a", "metric_b", "top1_cross_minus_self"}
    missing = sorted(need - set(noise_pairs.columns))
    if missing:
        raise InputError(f"the noise floor's pair table lacks column(s) {missing}; rerun the study's noise_floor step")
    df = noise_pairs.assign(task_id=noise_pairs["task_id"].astype(str))
    out = {}
    for a, b in PAIRS:
        sub = df[(df["metric_a"] == a) & (df["metric_b"] == b)].drop_duplicates("task_id").set_index("task_id")
        if sub.empty:
            continue
        out[f"{a}_{b}"] = pd.to_numeric(sub["top1_cross_minus_self"], errors="coerce").reindex(index).to_numpy(np.float64)
    return out


def fk_stats(per_task: pd.DataFrame, tasks: pd.DataFrame | None, task_ids: Sequence[str] | None = None,
             noise_pairs: pd.DataFrame | None = None) -> tuple[list[tuple[str, CB.Stat]], int, int]:
    """Flach & Kull's primary statistics as :class:`prspace.stats.cluster_bootstrap.Stat` over the
    study's families: ``([(claim id, stat)], tasks, families)``; with ``noise_pairs`` (the noise
    floor's pair table) also "all significantly different", one statistic per pair."""
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
    if noise_pairs is not None:
        for pair, v in _noise_excess(noise_pairs, wide.index).items():
            if np.isfinite(v).any():
                out.append((f"{ALL_DIFFERENT}|{pair}", replace(CB.ratio_stat(v, fid, n_f), bounds=(-1.0, 1.0))))
    return out, len(wide), n_f


#: Columns of :func:`decide_family` (one row per primary claim).
DECISION_COLUMNS = [
    "claim_id", "estimate", "ci_lo", "ci_hi", "level", "ci95_lo", "ci95_hi", "mc_lo", "mc_hi", "mc_error",
    "p_decide", "p_holm", "holm_multiplier", "oracle_coverage", "oracle_coverage_plain", "coverage_mc_se", "families_80",
    "power_here", "p_diff", "p_equiv", "p_beyond", "p_diff_mc", "p_equiv_mc", "p_beyond_mc", "p_holm_mc",
    "alpha_used", "coverage_n", "false_rate", "false_rate_mc_se", "families_80_lo", "families_80_hi", "families_80_max",
    "coverage_miss_below", "coverage_miss_above", "coverage_step_below", "coverage_step_above",
    *NP.COLUMNS, "value", "margin", "n_tasks", "n_families", "n_boot", "seed",
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


def bootstrap_claims(entries: list[tuple[str, CB.Stat, int]], *, n_boot: int, seed: int,
                     replicates: int = REPLICATES, n_out: int | None = None) -> list[Bootstrapped]:
    """Bootstrap claims that share their families together (``(claim id, stat, tasks)``), each
    group with its own seed spawned from ``seed`` in the order of the groups' first claims;
    ``n_out`` outer resamples of the double bootstrap (default :func:`double_outer`)."""
    # the bootstrap allocates and frees arrays of tens of MB thousands of times: kept, not faulted in again
    # (prspace.core.memory; collect_evidence of the default study at 1,000,000 resamples: 548,000 page faults)
    keep_freed_memory()
    groups: dict[int, list[int]] = {}
    for i, (_, st, _) in enumerate(entries):
        groups.setdefault(st.n_families, []).append(i)
    out: list[Bootstrapped | None] = [None] * len(entries)
    for g, (_, members) in enumerate(groups.items()):
        res = CB.run([entries[i][1] for i in members], B=rerun_resamples(n_boot, replicates), seed=[seed, g],
                     replicates=replicates, n_out=double_outer(n_boot) if n_out is None else n_out)
        for k, i in enumerate(members):
            cid = entries[i][0]
            base = cid.split("|")[0]  # a part of a claim (fk.all_different|<pair>) is compared as the claim
            out[i] = Bootstrapped(cid, res, k, entries[i][2], REG.decision_value(base), REG.decision_margin(base))
    return [b for b in out if b is not None]


def sign_flip_claims(entries: list[tuple[str, CB.Stat, int]], *, n_boot: int, seed: int,
                     replicates: int = REPLICATES) -> list[Bootstrapped]:
    """Each claim's sign-flip test over its families (:func:`prspace.stats.sign_flip.from_stat`), its level
    counted on :func:`double_outer` simulated studies in ``replicates`` reruns (seed ``[seed, i]`` for the
    ``i``-th claim)."""
    out = []
    for i, (cid, st, n_tasks) in enumerate(entries):
        res = SF.from_stat(st, n_sims=double_outer(n_boot), reruns=replicates, seed=[seed, i])
        out.append(Bootstrapped(cid, res, 0, n_tasks, REG.decision_value(cid), REG.decision_margin(cid)))
    return out


def _one(b: Bootstrapped) -> CB.Result | SF.Result:
    """The claim's own result: its statistic of a shared bootstrap, or its sign-flip test."""
    return b.res if isinstance(b.res, SF.Result) else CB._sub(b.res, b.k)


def _families_80(b: Bootstrapped, value: float, margin: float, alpha: float, seed: int,
                 grid: np.ndarray | None = None, *, here: bool = True) -> tuple[float, float]:
    """``(families for 80% power, power at this study's families)`` when the population's effect is
    ``value`` away from the compared value (the study's families as the population); ``here=False``: the
    power at this study's families is not read (a sign-flip curve counts it on as many null studies as
    every other size)."""
    if isinstance(b.res, SF.Result):  # the sign-flip test's own power, its level counted at each size
        n = b.res.stats[0].n_families
        g = np.unique(np.concatenate([SIGN_FLIP_POWER_GRID, [n]]))
        g, pw = SF.power_curve(b.res, value, margin, alpha, seed=seed, grid=g,
                               **({} if here else {"null_here": SF.POWER_NULL}))
        return CB.families_for_power(g, pw), float(pw[list(g).index(n)])
    stat = b.res.stats[b.k]
    g, pw = CB.power_curve(stat, value, margin, alpha, seed=seed)
    if stat.n_families in set(g.tolist()):  # the grid holds the study's own size: no second simulation
        return CB.families_for_power(g, pw), float(pw[list(g).index(stat.n_families)])
    _, here = CB.power_curve(stat, value, margin, alpha, seed=seed, grid=np.array([stat.n_families]))
    return CB.families_for_power(g, pw), float(here[0])


def _intersection_union(boots: list[Bootstrapped], margin_factor: float | None
                        ) -> tuple[list[Bootstrapped], dict[str, str], dict[str, tuple[float, np.ndarray]]]:
    """Claims made of several statistics (``<claim id>|<part>``: "all significantly different", one
    per metric pair): the intersection-union test (Berger 1982) decides that all parts differ at error
    ``alpha`` exactly when each does, that is when the largest of their p-values of a difference is at
    most ``alpha``: that largest p-value (pooled, and with each rerun left out) is the claim's ``p_diff``.
    The row shows the weakest part, chosen without the bootstrap's draws (the smallest ``|estimate -
    value| / se``), so that the part shown does not change with the seed. Returns the boots (one per
    claim, in the order of first appearance), per such claim a note naming the parts' p-values, and its
    ``p_diff``."""
    groups: dict[str, list[Bootstrapped]] = {}
    for b in boots:
        groups.setdefault(b.claim_id.split("|")[0], []).append(b)
    out, parts, p_diff = [], {}, {}
    for cid, members in groups.items():
        if len(members) == 1 and "|" not in members[0].claim_id:
            out.append(members[0])
            continue
        ps = []
        for b in members:
            m = b.margin if margin_factor is None else b.margin * float(margin_factor)
            ps.append(_one(b).decision_ps(0, b.value, m)["diff"])
        z = [abs(float(b.res.estimate[b.k]) - b.value) / float(b.res.se[b.k]) if b.res.se[b.k] > 0 else np.inf
             for b in members]
        j = int(np.argmin(z))
        out.append(replace(members[j], claim_id=cid))
        p_diff[cid] = (max(p[0] for p in ps), np.max(np.vstack([p[1] for p in ps]), axis=0))
        listed = "; ".join(f"{b.claim_id.split('|')[1]} p {p[0]:.3g}" for b, p in zip(members, ps, strict=True))
        parts[cid] = (f"weakest pair {members[j].claim_id.split('|')[1]} (its estimate the fewest SEs from 0), "
                      f"p of all three differing the largest of the pairs' ({listed})")
    return out, parts, p_diff


_P, _NAN = ("diff", "equiv", "beyond", "decide"), float("nan")  # the p-values of a claim; a cell not computed


def _p_values(boots: list[Bootstrapped], margins: list[float], ok: list[bool],
              iut: dict[str, tuple[float, np.ndarray]]) -> list[dict[str, tuple[float, np.ndarray]] | None]:
    """Each claim's p-values (:func:`decide_family`; None where its margin or value is not finite)."""
    # a statistic without spread (every task gives the same value: se 0) has no bootstrap to test with: its p-values
    # are 1 (no evidence either way), so it stays in its paper's Holm family, costing the others its place, and its
    # row says why it cannot be told (prspace.verdicts.rule.decide)
    reps0 = len(boots[0].res.reps)
    flat = {k: (1.0, np.ones(reps0 if reps0 >= 2 else 0)) for k in _P}
    ps = [(_one(b).decision_ps(0, b.value, m) if b.res.se[b.k] > 0 else _flat_ps(b, m, flat)) if good else None
          for b, m, good in zip(boots, margins, ok, strict=True)]
    for i, b in enumerate(boots):  # an intersection-union claim: its p of a difference is its parts' largest
        if b.claim_id in iut and ps[i] is not None:
            d = iut[b.claim_id]
            ps[i] = {**ps[i], "diff": d, "decide": (min(d[0], ps[i]["equiv"][0]), np.minimum(d[1], ps[i]["equiv"][1]))}
    return ps


def degenerate_share(b: Bootstrapped) -> tuple[int, int] | None:
    """``(k, n)`` families of a share of tasks (a registry claim whose per-task values are 0/1,
    ``extra["indicator"]``) that every task gives alike (0 or 1: no spread), else None."""
    c, est = REG.BY_ID.get(b.claim_id), float(b.res.estimate[b.k])
    if c is None or not c.extra.get("indicator") or b.res.se[b.k] > 0 or est not in (0.0, 1.0):
        return None
    n = int(b.res.stats[b.k].n_families)
    return (n if est == 1.0 else 0), n


def _flat_ps(b: Bootstrapped, m: float, flat: dict[str, tuple[float, np.ndarray]]) -> dict[str, tuple[float, np.ndarray]]:
    """A claim without spread: the exact binomial p-values over its families for a share every task gives
    alike (:func:`prspace.verdicts.rule.exact_share_ps`, no Monte Carlo error), else 1 (no evidence)."""
    km = degenerate_share(b)
    if km is None:
        return flat
    exact = exact_share_ps(*km, b.value, m)
    return {k: (exact[k], np.full(len(flat[k][1]), exact[k])) for k in _P}


def _holm(ps: list[dict[str, tuple[float, np.ndarray]] | None]) -> tuple[list[float], list[float], list[float]]:
    """Holm over the claims' ``p_decide``: adjusted p-values, multipliers, and each adjusted p-value's Monte
    Carlo error (from the step-down redone with each rerun left out), carried down the steps
    (:func:`prspace.core.claims.holm_carried_mc`)."""
    adj, mult = REG.holm([p["decide"][0] if p is not None else _NAN for p in ps], REG.HOLM_ALPHA)
    reps = min((len(p["decide"][1]) for p in ps if p is not None), default=0)
    per_rerun = [REG.holm([p["decide"][1][r] if p is not None else _NAN for p in ps], REG.HOLM_ALPHA)[0]
                 for r in range(reps)]
    own = [CB.jackknife_se([x[i] for x in per_rerun]) if per_rerun else _NAN for i in range(len(ps))]
    return adj, mult, REG.holm_carried_mc(adj, own)


#: Each end's counted miss rate and the same one countable step narrower (``coverage_<end>`` columns).
_ENDS = ("miss_below", "miss_above", "step_below", "step_above")


def _counted(sub: CB.Result | SF.Result, a_used: float, main: bool) -> dict[str, float]:
    """The interval ends' MC error and the known-truth simulation's counts (NaN off the main margin)."""
    nan, level_a = _NAN, 1.0 - REG.CLAIM_LEVEL
    mlo, mhi = sub.mc_error(np.array([level_a])) if main else (np.array([nan]), np.array([nan]))
    cov, fr = (sub.coverage(np.array([level_a])), sub.coverage(np.array([a_used]))) if main else (None, None)
    return {"mc_lo": float(mlo[0]), "mc_hi": float(mhi[0]), "mc_error": float(np.fmax(mlo[0], mhi[0])),
            "oracle_coverage": float(cov["corrected"][0]) if cov else nan,
            "oracle_coverage_plain": float(cov["plain"][0]) if cov else nan,
            "coverage_mc_se": float(cov["corrected_mc_se"][0]) if cov else nan,
            "coverage_n": float(cov["n"][0]) if cov else nan, "false_rate": 1.0 - float(fr["corrected"][0]) if fr else nan,
            "false_rate_mc_se": float(fr["corrected_mc_se"][0]) if fr else nan,
            **{f"coverage_{e}": float(cov[e][0]) if cov else nan for e in _ENDS}}


def _power(b: Bootstrapped, m: float, lo: float, hi: float, *, power: bool, ok: bool, a_pow: float,
           seed: int) -> dict[str, float]:
    """The families for 80% power (also at the interval's ends) and the power here, at the error ``a_pow`` the
    row's tests are read at (Holm's ``0.05 / h``; until 2026-11-29 Holm's first step, ``0.05 / k``, a lower
    bound: Amendment 5); NaN where not simulated."""
    n80 = here = n80_lo = n80_hi = _NAN
    # a sign-flip claim without spread (every task 0) has nothing to simulate: no power is stated
    flat_sf = isinstance(b.res, SF.Result) and not b.res.se[0] > 0
    if power and ok and not flat_sf:
        est = float(b.res.estimate[b.k])
        n80, here = _families_80(b, b.value, m, a_pow, seed)
        # the plug-in at the 95% interval's ends: the population's effect moved to each end
        n80_lo = _families_80(b, b.value - (lo - est), m, a_pow, seed, here=False)[0]
        n80_hi = _families_80(b, b.value - (hi - est), m, a_pow, seed, here=False)[0]
    grid = SIGN_FLIP_POWER_GRID if isinstance(b.res, SF.Result) else CB.POWER_GRID
    return {"families_80": n80, "power_here": here, "families_80_lo": n80_lo, "families_80_hi": n80_hi,
            "families_80_max": float(grid[-1]) if power else _NAN}


def _decided_row(b: Bootstrapped, m: float, pj: dict[str, tuple[float, np.ndarray]] | None, pa: float, h: float,
                 holm_mc: float, *, main: bool, power: bool, ok: bool, seed: int) -> dict[str, object]:
    """One claim's row of :func:`decide_family` but its run's settings and its parts."""
    a_used = REG.HOLM_ALPHA / h if h else REG.HOLM_ALPHA
    sub = _one(b)
    lo, hi = sub.interval_at(np.array([1.0 - REG.CLAIM_LEVEL]))
    counted = _counted(sub, a_used, main)
    pm = ({k: (v[0], CB.jackknife_se(v[1])) for k, v in pj.items()} if pj is not None else {k: (_NAN, _NAN) for k in _P})
    return {"claim_id": b.claim_id, "estimate": float(b.res.estimate[b.k]), "ci_lo": float(lo[0]),
            "ci_hi": float(hi[0]), "level": REG.CLAIM_LEVEL, "ci95_lo": float(lo[0]), "ci95_hi": float(hi[0]),
            **counted, "p_decide": pm["decide"][0], "p_holm": pa, "holm_multiplier": h,
            **_power(b, m, float(lo[0]), float(hi[0]), power=power, ok=ok, a_pow=a_used, seed=seed),
            "p_diff": pm["diff"][0], "p_equiv": pm["equiv"][0], "p_beyond": pm["beyond"][0],
            "p_diff_mc": pm["diff"][1], "p_equiv_mc": pm["equiv"][1], "p_beyond_mc": pm["beyond"][1],
            "p_holm_mc": holm_mc, "alpha_used": a_used, "value": b.value, "margin": m, "n_tasks": b.n_tasks,
            "n_families": b.res.stats[b.k].n_families,
            "method": "sign-flip" if isinstance(b.res, SF.Result) else "bootstrap-t"}


def decide_family(boots: list[Bootstrapped], *, n_boot: int, seed: int, margin_factor: float | None = None,
                  power: bool = True, procedure: NP.Settings | None = None) -> pd.DataFrame:
    """One paper's primary claims decided together (:data:`DECISION_COLUMNS`), by Holm-adjusted
    p-values whose calibration is counted:

    * each claim's p-values of Lakens, Scheel & Isager's tests against its reference value
      ``+- margin`` (:meth:`prspace.stats.cluster_bootstrap.Result.decision_ps`): ``p_diff``
      (excludes the value), ``p_equiv`` (within the margin), ``p_beyond`` (wholly beyond), and
      ``p_decide = min(p_diff, p_equiv)``, each the mean over the reruns with its MC error;
    * Holm over the paper's claims on ``p_decide`` (:func:`prspace.core.claims.holm`): ``p_holm``,
      the multiplier ``h`` and ``alpha_used = 0.05 / h``, the error each decided claim's tests are read
      at (the outcome: :func:`prspace.stats.cluster_bootstrap.outcome_of_ps`);
    * the per-claim 95% interval shown (``ci_lo``, ``ci_hi``; ``level`` 0.95), its coverage counted in
      the known-truth simulation (plain and corrected), and the rate at which the claim's test rejects
      the truth at ``alpha_used`` there (``false_rate``), each with its MC SE;
    * the families that would decide with 80% power (simulated from the study's families), also with
      the effect at the 95% interval's two ends (``families_80_lo``, ``_hi``).

    ``margin_factor``: every claim's margin multiplied by it (the margin sensitivity). ``procedure``: the
    coverage of the procedure the study runs, counted in a nested simulation at these settings
    (:mod:`prspace.stats.nested.procedure`, seed ``[seed, 80]``; NaN without)."""
    if not boots:
        return pd.DataFrame(columns=DECISION_COLUMNS)
    boots, parts, iut = _intersection_union(boots, margin_factor)
    margins = [b.margin if margin_factor is None else b.margin * float(margin_factor) for b in boots]
    ok = [bool(np.isfinite(m) and np.isfinite(b.value)) for b, m in zip(boots, margins, strict=True)]
    ps = _p_values(boots, margins, ok, iut)
    adj, mult, holm_mcs = _holm(ps)
    main = margin_factor is None
    proc = NP.of_results([(b.res, b.k) for b in boots], procedure if main else None, seed=[seed, 80])
    rows = []
    for i, (b, m, pj, pa, h, holm_mc) in enumerate(zip(boots, margins, ps, adj, mult, holm_mcs, strict=True)):
        row = _decided_row(b, m, pj, pa, h, holm_mc, main=main, power=power and main, ok=ok[i], seed=seed)
        rows.append({**row, **proc[i], "n_boot": int(n_boot), "seed": int(seed), "parts": parts.get(b.claim_id, "")})
    return pd.DataFrame(rows, columns=[*DECISION_COLUMNS, "parts", "method"])


def primary_statistics(
    per_task: pd.DataFrame, tasks: pd.DataFrame | None, *, n_boot: int, seed: int,
    task_ids: Sequence[str] | None = None, power: bool = True, keep: dict | None = None, n_out: int | None = None,
    noise_pairs: pd.DataFrame | None = None, procedure: NP.Settings | None = None,
) -> pd.DataFrame:
    """Flach & Kull's primary statistics decided together (:func:`decide_family`); ``noise_pairs``:
    the noise floor's pair table ("all significantly different", :func:`fk_stats`).
    ``task_ids``: compute on these tasks only (a sensitivity variant); default every task.
    ``keep``: receives the bootstraps under the paper's key (for :func:`margin_sensitivity_table`).
    ``n_out``: outer resamples of the double bootstrap (:func:`bootstrap_claims`); ``procedure``: :func:`decide_family`'s."""
    stats, n_tasks, _ = fk_stats(per_task, tasks, task_ids, noise_pairs)
    boots = bootstrap_claims([(cid, st, n_tasks) for cid, st in stats], n_boot=n_boot, seed=seed, n_out=n_out)
    if keep is not None:
        keep[REG.FK] = boots
    return decide_family(boots, n_boot=n_boot, seed=seed, power=power, procedure=procedure)


def _claim_text(cid: str) -> str:
    if cid == ALL_DIFFERENT:
        return ("AUPR, AUPRG and AUROC all pick a different best model more often than test-set noise makes one "
                "metric disagree with itself (every pair)")
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
         "correlation_gap": "equivalence", "direction": "direction"}


def _scheme(r: object) -> dict[str, float]:
    get = r.get if isinstance(r, pd.Series) else lambda c: getattr(r, c)
    return {c: float(get(c)) for c in SCHEME_COLUMNS}


def primary_rows(
    per_task: pd.DataFrame, tasks: pd.DataFrame | None, *, n_boot: int, seed: int = 0,
    task_ids: Sequence[str] | None = None, note: str = "", power: bool = True, keep: dict | None = None,
    n_out: int | None = None, noise_pairs: pd.DataFrame | None = None, procedure: NP.Settings | None = None,
) -> list[dict[str, object]]:
    """Evidence rows (:func:`prspace.verdicts.rule.evidence_row`) of Flach & Kull's primary claims
    (:func:`primary_statistics`); ``paper_value`` and the margin (``tolerance``) from the registry."""
    stats = primary_statistics(per_task, tasks, n_boot=n_boot, seed=seed, task_ids=task_ids, power=power, keep=keep,
                               n_out=n_out, noise_pairs=noise_pairs, procedure=procedure)
    return _fk_rows(stats, note)


def _fk_rows(stats: pd.DataFrame, note: str = "") -> list[dict[str, object]]:
    rows = []
    for r in stats.itertuples(index=False):
        c = REG.BY_ID[r.claim_id]
        how = how_computed(r, len(stats), "Flach & Kull")
        if c.quantity == "share":
            how += "; tasks where two or more models are perfect under every metric count as agreement"
        if getattr(r, "parts", ""):
            how = f"decided as its {r.parts}; {how}"
        rows.append(evidence_row(
            paper=c.paper, claim_id=c.claim_id, claim=_claim_text(c.claim_id), kind=_KIND[c.quantity],
            estimate=r.estimate, ci_lo=r.ci_lo, ci_hi=r.ci_hi, paper_value=c.paper_value if c.quantity != "direction" else float(c.direction),
            tolerance=REG.decision_margin(c.claim_id),
            n_tasks=r.n_tasks, n_families=r.n_families, level=r.level, mc_error=r.mc_error,
            mc_error_lo=r.mc_lo, mc_error_hi=r.mc_hi, detail=f"{c.test}; {how}{note}", **_scheme(r)))
    return rows
