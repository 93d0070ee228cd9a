"""The audit's confidence sets for ranks: ``rank_sets.csv`` and the plausible-best lines.

Per task and metric of :data:`~prspace.audit.intervals.BOOT_METRICS`, the rank interval of
every model from simultaneous intervals on all pairs (:func:`prspace.ranksets.rank_sets_from_bounds`),
whose procedure :func:`prspace.pairwise.rank_set_method` picks per metric: AUROC and AUPRG by
:func:`prspace.ranksets.rank_sets` (studentised bootstrap max-T over all pairs) from the
replicates the audit's paired count bootstrap already drew
(:func:`prspace.audit.uncertainty.uncertainty`, ``replicates=``); AP, AUPR and AUCNPR, where the
bootstrap max-T does not hold its level at small n, by the jackknife's Bonferroni intervals
(:func:`prspace.pairwise.rank_sets_by_rule` on the jackknife ``pairwise.csv`` uses).  Nothing is
resampled again.

Where no rank interval can be computed, the row says so in ``method`` and keeps the
trivial set: a task with one model (rank 1 to 1); models scored on different test rows
(no pairing) or, for the bootstrap's metrics, an audit without bootstrap (``--bootstrap 0``):
rank 1 to k for everyone.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from prspace.audit.intervals import BOOT_METRICS, Block
from prspace.audit.tables import LABELS
from prspace.pairwise import JACK_HOLM, rank_set_method, rank_sets_by_rule
from prspace.ranksets import rank_sets

RANK_SET_COLUMNS = ["task", "metric", "model", "estimate", "rank_lo", "rank_hi", "plausible_best", "method",
                    "n_resamples", "level"]

#: ``method`` of the rows where the rank sets were computed.
MAX_T = "bootstrap max-T (studentised, all pairs)"
JACK_BONFERRONI = "jackknife t, Bonferroni (all pairs)"
COMPUTED = (MAX_T, JACK_BONFERRONI)


def rank_set_table(blocks: list[Block], pooled: pd.DataFrame, replicates: dict, jackknives: dict, *,
                   confidence: float = 0.95) -> pd.DataFrame:
    """One row per task, metric and model (:data:`RANK_SET_COLUMNS`), sorted by task, metric, rank;
    ``replicates`` and ``jackknives`` as :func:`prspace.audit.pairwise.pairwise_table`'s."""
    rows = []
    by_task: dict[str, list[Block]] = {}
    for b in blocks:
        by_task.setdefault(b.task, []).append(b)
    for task, bs in by_task.items():
        table = pooled[pooled["task"] == task].set_index("model")
        models = [m for b in bs for m in b.models]
        k = len(models)
        reps = replicates.get(id(bs[0])) if len(bs) == 1 else None
        jack = jackknives.get(id(bs[0])) if len(bs) == 1 else None
        for c, metric in enumerate(BOOT_METRICS):
            points = table.loc[models, metric].to_numpy(np.float64)
            jacked = rank_set_method(metric) == JACK_HOLM
            if k == 1:
                lo, hi, n_used, method = np.ones(1, np.int64), np.ones(1, np.int64), 0, "one model"
            elif jacked and jack is not None:
                r = rank_sets_by_rule(metric, points, None, jack[0][:, :, c], jack[1], confidence)
                lo, hi, n_used, method = r.rank_lo, r.rank_hi, r.n_used, JACK_BONFERRONI
            elif reps is None:
                lo, hi, n_used = np.ones(k, np.int64), np.full(k, k, np.int64), 0
                method = "not computed: no bootstrap" if len(bs) == 1 else "not computed: models on different rows"
            else:
                r = rank_sets(points, reps[:, :, c], confidence)
                lo, hi, n_used, method = r.rank_lo, r.rank_hi, r.n_used, MAX_T
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
    """Per metric, one short line: ``"AUPR: A, B (2 of 5 models)"``; empty if nothing was computed."""
    if rank_sets_table is None or not len(rank_sets_table):
        return []
    t = rank_sets_table[(rank_sets_table["task"] == task) & rank_sets_table["method"].isin(COMPUTED)]
    lines = []
    for metric in BOOT_METRICS:
        g = t[t["metric"] == metric]
        if not len(g):
            continue
        best = g[g["plausible_best"]].sort_values("estimate", ascending=False, kind="stable")["model"].tolist()
        names = ", ".join(map(str, best[:most])) + (f" and {len(best) - most} more" if len(best) > most else "")
        lines.append(f"{LABELS[metric]}: {names} ({len(best)} of {len(g)} models)")
    return lines
