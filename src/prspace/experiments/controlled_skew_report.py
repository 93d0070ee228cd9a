"""The tables of ``prspace controlled-skew`` for a study: what the command writes, titles and notes.

:func:`skew_report` runs :mod:`prspace.experiments.controlled_skew` over every task with
predictions (its negatives reweighted to each target pi, and to the reference population's pi for
the counterfactual) and returns the per-task tables and every result table with its title and
note: ``controlled_skew`` (the summary per metric pair and target pi), ``controlled_skew_observed``
(the study's observed disagreement per bin of pi and of positives), ``controlled_skew_trend``,
``controlled_skew_counterfactual``, ``disagreement_by_balance`` and ``skew_evidence``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from prspace.core.errors import InputError
from prspace.experiments import controlled_skew as CS

__all__ = ["SkewReport", "parse_numbers", "skew_report"]


def parse_numbers(text: str, option: str, example: str) -> list[float]:
    """Comma-separated numbers of an option (``--targets``, ``--balance-edges``); :class:`InputError` naming it."""
    try:
        return [float(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise InputError(f"{option} {text!r}: give comma-separated numbers, e.g. {example}") from None


@dataclasses.dataclass(frozen=True)
class SkewReport:
    """What ``prspace controlled-skew`` writes: the per-task tables, and ``tables`` as
    ``(name, table, title, note)`` in order."""

    per_task: pd.DataFrame
    counterfactual_per_task: pd.DataFrame
    tables: list[tuple[str, pd.DataFrame, str, str | None]]
    n_reference: int


def skew_report(status_paths: Sequence[str | Path], tasks: pd.DataFrame, reference_table: pd.DataFrame,
                observed_per_task: pd.DataFrame, *, targets: Sequence[float], metrics: Sequence[str],
                edges: Sequence[float], n_boot: int, seed: int, reference: str,
                reference_name: str | None = None) -> SkewReport:
    """The controlled-skew tables of a study (module docstring) from the status of every task, its task
    table, the reference population's task table (file ``reference``) and the study's observed
    disagreement per task (``disagreement_per_task``)."""
    from prspace.core.contracts import read_status
    from prspace.core.schema import read_predictions

    CS.balance_levels(edges)
    ref_pi = CS.reference_pi(reference_table, name=reference)
    ref_name = reference_name or CS.reference_name(reference)
    ok = [s for s in (read_status(p) for p in sorted(map(str, status_paths))) if s["status"] == "ok"]
    cf_targets = CS.study_counterfactual_targets(tasks, [str(s["task_id"]) for s in ok], ref_pi)
    frames, cf_frames = [], []
    for status in ok:
        df, _ = read_predictions(status["predictions"])
        per_t, cf_t = CS.skew_task(df, targets=targets, metrics=metrics,
                                   counterfactual=cf_targets.loc[str(status["task_id"])].to_dict())
        frames.append(per_t)
        cf_frames.append(cf_t)
    per = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=[*CS.PER_TASK_COLUMNS, "is_observed"])
    cf_per = pd.concat(cf_frames, ignore_index=True) if cf_frames else pd.DataFrame(columns=CS.COUNTERFACTUAL_PER_TASK_COLUMNS)
    summary = CS.controlled_skew_summary(per, tasks=tasks, n_boot=n_boot, seed=seed) if len(per) else pd.DataFrame()
    observed = CS.observed_by_bin(observed_per_task, tasks)
    analysis = CS.skew_analysis(per, cf_per, observed_per_task, tasks, reference=ref_pi, reference_name=ref_name,
                                edges=edges, n_boot=n_boot, seed=seed) if len(per) else {
        "controlled_skew_trend": pd.DataFrame(columns=CS.TREND_COLUMNS),
        "controlled_skew_counterfactual": pd.DataFrame(columns=CS.COUNTERFACTUAL_COLUMNS),
        "disagreement_by_balance": pd.DataFrame(columns=CS.BALANCE_COLUMNS),
        "skew_evidence": CS.skew_evidence(pd.DataFrame(columns=CS.TREND_COLUMNS),
                                          pd.DataFrame(columns=CS.COUNTERFACTUAL_COLUMNS), reference_name=ref_name)}
    boot = f"95% cluster bootstrap over families of tasks, {n_boot} resamples, seed {seed}"
    tables = [
        ("controlled_skew", summary,
         "Controlled skew: disagreement with the negatives reweighted to pi (same models, same scores)",
         ("Every task's negatives reweighted so that the weighted share of positives is pi_target; AUROC and its "
          "ranks do not move. Shares of tasks; [95% cluster bootstrap over families of tasks, "
          f"{n_boot} resamples, seed {seed}].")),
        ("controlled_skew_observed", observed,
         "Observed disagreement per bin of pi and of the number of positives (the study's own tasks)", None),
    ]
    texts = {
        "controlled_skew_trend": (
            "Controlled skew: how fast each pair's disagreement rises as pi falls (same models, same scores)",
            "slope: least-squares slope of the share of tasks whose top-k differ against -log10(pi_target) over the "
            f"targets {', '.join(f'{t:g}' for t in targets)} (share change per decade of falling pi); "
            f"[slope_lo, slope_hi]: {boot}, every target's share recomputed from the same resampled families and the "
            "slope refit."),
        "controlled_skew_counterfactual": (
            f"Counterfactual: this study's disagreement with its tasks moved to the pi of the {ref_name} suite",
            f"Reference: {len(ref_pi)} usable tasks of {reference} (median pi {float(pd.Series(ref_pi).median()):.3g}). "
            "reference_median: every task's negatives reweighted to that median pi; reference_distribution: the task at "
            "pi-quantile q of this study reweighted to the reference's pi-quantile q. share: share of tasks whose top-k "
            f"differ; [lo, hi]: {boot}."),
        "disagreement_by_balance": (
            "Observed disagreement by balance level of the task (the study's own tasks, unweighted)",
            f"Balance levels by the task's pi (edges {', '.join(f'{e:g}' for e in edges)}); 'all' pools every task "
            f"(as disagreement_summary). [lo, hi]: {boot}, within each level."),
        "skew_evidence": (
            "Evidence rows: skew as the explanation of the AUROC pairs' disagreement (decided by prspace.verdicts.rule)",
            None),
    }
    tables += [(name, analysis[name], title, note) for name, (title, note) in texts.items() if name in analysis]
    return SkewReport(per, cf_per, tables, len(ref_pi))
