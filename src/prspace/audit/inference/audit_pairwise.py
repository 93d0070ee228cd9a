"""The audit's comparisons of all pairs: ``pairwise.csv`` and the "which differences survive" lines.

Per task whose models were scored on the same test rows, every pair of models is compared
with family-wise error control at ``alpha = 1 - confidence`` (:mod:`prspace.stats.pairwise`):
AUROC by DeLong with Holm's adjustment (unit weights), and every metric of
:data:`~prspace.stats.replicates.BOOT_METRICS` (AUROC as a cross-check) by the bootstrap
max-T (Romano-Wolf step-down) on the replicates the audit's paired count bootstrap already
drew (nothing is resampled again), and every metric by the stratified jackknife t with Holm's
adjustment (:func:`prspace.stats.pairwise.jackknife_pairs`, replicates from
:func:`prspace.stats.replicates.jackknife`).  A task with one model or models on different test
rows gets no rows; an audit without bootstrap gets no bootstrap rows.

Every metric is also compared by the paired bootstrap z with Holm's adjustment
(:func:`prspace.stats.pairwise.bootstrap_z_pairs`, on the same replicates).

One procedure decides per task and metric (:func:`prspace.audit.inference.decision.decide`: DeLong-Holm, the
bootstrap z Holm or the jackknife-t Holm, at a level corrected by simulation at the task's size and skew, the most
power there); its rows carry the corrected p-values (``p_raw`` the corrected raw p-value,
``p_adjusted`` Holm's of those, ``lo``/``hi`` at the corrected level:
:func:`prspace.stats.pairwise.level_corrected`) and have ``role`` "decides"; the others (the
uncorrected tests and the bootstrap max-T) "cross-check"; every row's ``note`` says who decides
and at which corrected level (:meth:`prspace.audit.inference.decision.Decision.why`).  The report's lines
(:func:`survival_lines`), the plausible-best sets (:mod:`prspace.audit.inference.audit_ranksets`) and the
sentences (:func:`prspace.audit.inference.decision.decided`) follow the deciding rows only.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from prspace.audit.inference.audit_blocks import block_delong
from prspace.audit.inference.decision import ORDER, decide
from prspace.audit.inference.tables import LABELS, task_metric_rows
from prspace.stats.pairwise import (
    BOOT_MAX_T,
    BOOT_Z,
    DELONG_HOLM,
    JACK_HOLM,
    PairwiseComparisons,
    bootstrap_pairs,
    bootstrap_z_pairs,
    delong_pairs,
    jackknife_pairs,
    level_corrected,
)
from prspace.stats.replicates import BOOT_METRICS, Block

#: How the report's lines name the methods.
SHORT = {DELONG_HOLM: "DeLong-Holm", JACK_HOLM: "jackknife-Holm", BOOT_MAX_T: "max-T", BOOT_Z: "bootstrap-z"}

PAIRWISE_COLUMNS = ["task", "metric", "model_a", "model_b", "diff", "se", "p_raw", "p_adjusted", "lo", "hi",
                    "survives", "method", "level", "n_resamples", "role", "note", "simultaneous_coverage"]
DECIDES, CROSS_CHECK = "decides", "cross-check"
#: Said of a pair the step-down test rejects while its simultaneous interval holds 0 (not called distinguishable).
STEP_DOWN_ONLY = ("; the step-down test rejects this pair but its simultaneous interval includes 0: not counted as "
                  "distinguishable")


def block_decisions(block: Block, bootstrapped: bool) -> dict:
    """Per metric of :data:`BOOT_METRICS`, the :class:`~prspace.audit.inference.decision.Decision` for ``block``
    (positives and rows counted with their weights)."""
    unit = bool(np.all(block.weight == 1.0)) and not block.grouped  # DeLong assumes independent rows
    n_pos, n = float(block.weight[block.y].sum()), float(block.weight.sum())
    out = {}
    for metric in BOOT_METRICS:
        can = tuple(p for p in ORDER if (p != "DeLong-Holm" or (metric == "auroc" and unit))
                    and (p != "bootstrap-z (class)" or bootstrapped))
        if block.grouped:  # the grouped jackknife-Holm: its false rate is the one simulated with groups
            can = ("jackknife-Holm",)
        out[metric] = decide(metric, n_pos, n, available=can)
    return out


def _corrected(r: PairwiseComparisons, decision) -> PairwiseComparisons:
    """``r`` at the decision's corrected level when its procedure decides, else ``r`` as it is."""
    if r.method != decision.method or not decision.thresholds:
        return r
    return level_corrected(r, decision.corrected_p, decision.raw_threshold)


def _rows(task: str, metric: str, models: list[str], r: PairwiseComparisons, level: float, decision) -> list[dict]:
    # one answer: a pair survives when the test rejects AND its simultaneous interval excludes 0 (Holm's step-down
    # can reject a pair whose single-step interval still holds 0; that pair is not called distinguishable)
    with np.errstate(invalid="ignore"):
        excludes = (r.lo > 0) | (r.hi < 0)
    surv = r.survives & excludes
    note = decision.why()
    role = DECIDES if r.method == decision.method else CROSS_CHECK
    # the simultaneous intervals' simulated coverage is known for the deciding procedure in its cell
    sim = decision.simultaneous if role == DECIDES else float("nan")
    return [{"simultaneous_coverage": sim, "task": task, "metric": metric, "model_a": models[a], "model_b": models[b], "diff": float(r.diff[p]),
             "se": float(r.se[p]), "p_raw": float(r.p_raw[p]), "p_adjusted": float(r.p_adjusted[p]),
             "lo": float(r.lo[p]), "hi": float(r.hi[p]), "survives": bool(surv[p]), "method": r.method,
             "level": level, "n_resamples": int(r.n_resamples), "role": role,
             "note": note + (STEP_DOWN_ONLY if r.survives[p] and not excludes[p] else "")}
            for p, (a, b) in enumerate(zip(r.a, r.b, strict=True))]


def pairwise_table(blocks: list[Block], pooled: pd.DataFrame, replicates: dict, jackknives: dict, *,
                   confidence: float = 0.95, seed: int = 0) -> pd.DataFrame:
    """One row per task, metric, method and pair (:data:`PAIRWISE_COLUMNS`); ``replicates`` and
    ``jackknives`` (block id -> the audit's bootstrap replicates, and its
    :func:`~prspace.stats.replicates.jackknife` replicates and strata); ``seed`` of DeLong's simulated
    critical value; ``n_resamples`` of a jackknife row is its number of left-out groups."""
    alpha = 1.0 - confidence
    rows: list[dict] = []
    for block in blocks:
        if not block.paired:
            continue
        models, task = block.models, block.task
        reps = replicates.get(id(block))
        dec = block_decisions(block, reps is not None)
        if bool(np.all(block.weight == 1.0)) and not block.grouped:
            est, cov = block_delong(block)
            rows += _rows(task, "auroc", models, _corrected(delong_pairs(est, cov, alpha=alpha, seed=seed),
                                                            dec["auroc"]), confidence, dec["auroc"])
        table = pooled[pooled["task"] == task].set_index("model").loc[models]
        jack, strata = jackknives[id(block)]
        for c, metric in enumerate(BOOT_METRICS):
            r = _corrected(jackknife_pairs(table[metric].to_numpy(np.float64), jack[:, :, c], strata, alpha=alpha),
                           dec[metric])
            rows += _rows(task, metric, models, r, confidence, dec[metric])
        if reps is None:
            continue
        for c, metric in enumerate(BOOT_METRICS):
            points = table[metric].to_numpy(np.float64)
            r = _corrected(bootstrap_z_pairs(points, reps[:, :, c], alpha=alpha), dec[metric])
            rows += _rows(task, metric, models, r, confidence, dec[metric])
            r = bootstrap_pairs(points, reps[:, :, c], alpha=alpha)
            rows += _rows(task, metric, models, r, confidence, dec[metric])
    out = pd.DataFrame(rows, columns=PAIRWISE_COLUMNS)
    order = {m: i for i, m in enumerate(BOOT_METRICS)}
    out = out.assign(_m=out["metric"].map(order))
    return out.sort_values(["task", "_m", "method", "model_a", "model_b"], kind="stable").drop(
        columns="_m").reset_index(drop=True)


def survival_lines(table: pd.DataFrame | None, task: str, *, most: int = 4) -> list[str]:
    """Per metric one line, by the procedure that decides it: ``"AUPR (jackknife-Holm): 3 of 10 pairs
    differ; best A beats B, C; not distinguishable from D, E"``; a metric no procedure decides:
    ``"AUPRG: cannot decide: <why>"``; empty if nothing was computed."""
    lines = []
    for metric, mine in task_metric_rows(table, task, BOOT_METRICS):
        if len(mine) and not (mine["role"] == DECIDES).any():
            lines.append(f"{LABELS[metric]}: cannot decide: {mine['note'].iloc[0]}")
            continue
        for method, g in mine[mine["role"] == DECIDES].groupby("method", sort=False):
            est = pd.concat([g[["model_a", "diff"]].set_axis(["model", "d"], axis=1),
                             g[["model_b", "diff"]].set_axis(["model", "d"], axis=1).assign(d=lambda x: -x["d"])])
            score = est.groupby("model")["d"].sum()  # the best model wins every difference it is in
            best = score.idxmax()
            mine = g[(g["model_a"] == best) | (g["model_b"] == best)]
            other = np.where(mine["model_a"] == best, mine["model_b"], mine["model_a"])
            beats = [str(o) for o, s in zip(other, mine["survives"], strict=True) if s]
            ties = [str(o) for o, s in zip(other, mine["survives"], strict=True) if not s]

            def names(x: list[str]) -> str:
                return ", ".join(x[:most]) + (f" and {len(x) - most} more" if len(x) > most else "")

            vs = (f"best {best} beats {names(beats) if beats else 'none'}"
                  + (f"; not distinguishable from {names(ties)}" if ties else ""))
            lines.append(f"{LABELS[metric]} ({SHORT.get(method, method)}): {int(g['survives'].sum())} of {len(g)} "
                         f"pairs differ; {vs}")
    return lines
