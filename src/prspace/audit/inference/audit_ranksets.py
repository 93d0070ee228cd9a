"""The audit's confidence sets for ranks: ``rank_sets.csv`` and the plausible-best lines.

Per task and metric of :data:`~prspace.stats.replicates.BOOT_METRICS`, the rank interval of
every model from the decisions of the procedure that decides the metric on the task
(:func:`prspace.audit.inference.decision.decide`; the ``role == "decides"`` rows of
:func:`prspace.audit.inference.audit_pairwise.pairwise_table`): model i is *surely better* than j iff their pair
survives with ``m_i > m_j``; ``rank_lo(i) = 1 + #{j surely better}``, ``rank_hi(i) = k - #{j
surely worse}`` (:func:`prspace.stats.ranksets.rank_sets_from_bounds`).  The family-wise error of the
decisions (directional: no pair declared with the wrong sign or between equal models) bounds
the probability that some true rank falls outside its interval, so the sets hold with the
calibrated level (Mogstad, Romano, Shaikh and Wilhelm 2024 build rank sets from step-down
decisions the same way).  So the headline, the pairwise lines and the plausible-best sets
always agree.

Where no rank interval can be computed, the row says so in ``method`` and keeps the trivial
set: a task with one model (rank 1 to 1); models scored on different test rows (no pairing),
a metric no procedure decides at the task's size and skew, or one whose deciding procedure
did not run: rank 1 to k for everyone.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from prspace.audit.inference.audit_pairwise import DECIDES, SHORT, pairwise_table
from prspace.audit.inference.tables import LABELS, task_metric_rows
from prspace.stats.ranksets import rank_sets_from_bounds
from prspace.stats.replicates import BOOT_METRICS, Block

RANK_SET_COLUMNS = ["task", "metric", "model", "estimate", "rank_lo", "rank_hi", "plausible_best", "method",
                    "n_resamples", "level"]

#: ``method`` of the rows where the rank sets were computed ends with this.
DECISIONS = "decisions (all pairs, family-wise)"


def _from_decisions(models: list[str], g: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    k = len(models)
    pos = {m: i for i, m in enumerate(models)}
    iu, ju = np.triu_indices(k, 1)
    index = {(int(a), int(b)): p for p, (a, b) in enumerate(zip(iu, ju, strict=True))}
    lower, upper = np.full(iu.size, -1.0), np.full(iu.size, 1.0)
    for r in g.itertuples(index=False):
        a, b, d = pos[r.model_a], pos[r.model_b], float(r.diff)
        if a > b:
            a, b, d = b, a, -d
        if r.survives and d > 0:
            lower[index[(a, b)]] = 1.0
        elif r.survives and d < 0:
            upper[index[(a, b)]] = -1.0
    return lower, upper


def rank_set_table(blocks: list[Block], pooled: pd.DataFrame, replicates: dict, jackknives: dict, *,
                   confidence: float = 0.95, pairwise: pd.DataFrame | None = None, seed: int = 0) -> pd.DataFrame:
    """One row per task, metric and model (:data:`RANK_SET_COLUMNS`), sorted by task, metric, rank;
    ``replicates``, ``jackknives`` and ``seed`` as :func:`prspace.audit.inference.audit_pairwise.pairwise_table`'s,
    whose table (computed here unless given as ``pairwise``) decides."""
    if pairwise is None:
        pairwise = pairwise_table(blocks, pooled, replicates, jackknives, confidence=confidence, seed=seed)
    rows = []
    by_task: dict[str, list[Block]] = {}
    for b in blocks:
        by_task.setdefault(b.task, []).append(b)
    for task, bs in by_task.items():
        table = pooled[pooled["task"] == task].set_index("model")
        models = [m for b in bs for m in b.models]
        k = len(models)
        pt = pairwise[pairwise["task"] == task]
        for metric in BOOT_METRICS:
            points = table.loc[models, metric].to_numpy(np.float64)
            mine = pt[pt["metric"] == metric]
            g = mine[mine["role"] == DECIDES]
            lo, hi, n_used = np.ones(k, np.int64), np.full(k, k, np.int64), 0
            if k == 1:
                hi, method = np.ones(1, np.int64), "one model"
            elif len(bs) > 1:
                method = "not computed: models on different rows"
            elif len(g):
                r = rank_sets_from_bounds(k, *_from_decisions(models, g), n_used=int(g["n_resamples"].iloc[0]))
                lo, hi, n_used = r.rank_lo, r.rank_hi, r.n_used
                method = f"{SHORT.get(g['method'].iloc[0], g['method'].iloc[0])} {DECISIONS}"
            elif len(mine):
                method = f"not computed: cannot decide ({mine['note'].iloc[0]})"
            else:
                method = "not computed: no bootstrap"
            rows += [{"task": task, "metric": metric, "model": m, "estimate": float(points[i]),
                      "rank_lo": int(lo[i]), "rank_hi": int(hi[i]), "plausible_best": bool(lo[i] == 1),
                      "method": method, "n_resamples": int(n_used), "level": confidence}
                     for i, m in enumerate(models)]
    out = pd.DataFrame(rows, columns=RANK_SET_COLUMNS)
    order = {m: i for i, m in enumerate(BOOT_METRICS)}
    out = out.assign(_m=out["metric"].map(order), _e=-out["estimate"])
    return out.sort_values(["task", "_m", "rank_lo", "_e", "model"], kind="stable").drop(
        columns=["_m", "_e"]).reset_index(drop=True)


def plausible_best_lines(rank_sets_table: pd.DataFrame | None, task: str, *, most: int = 6) -> list[str]:
    """Per metric, one short line: ``"AUPR (jackknife-Holm): A, B (2 of 5 models)"``; a metric no
    procedure decides: ``"AUPRG: cannot decide; every model stays plausibly best"``; empty if nothing
    was computed."""
    lines = []
    for metric, g in task_metric_rows(rank_sets_table, task, BOOT_METRICS):
        if not len(g):
            continue
        method = str(g["method"].iloc[0])
        if method.startswith("not computed: cannot decide"):
            lines.append(f"{LABELS[metric]}: cannot decide at this size and skew; all {len(g)} models stay "
                         "plausibly best")
            continue
        if not method.endswith(DECISIONS):
            continue
        best = g[g["plausible_best"]].sort_values("estimate", ascending=False, kind="stable")["model"].tolist()
        names = ", ".join(map(str, best[:most])) + (f" and {len(best) - most} more" if len(best) > most else "")
        by = method[: -len(DECISIONS) - 1]
        lines.append(f"{LABELS[metric]} ({by}): {names} ({len(best)} of {len(g)} models)")
    return lines
