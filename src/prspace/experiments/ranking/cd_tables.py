"""A study's critical-difference tables (step ``cd``): the learners' average ranks, the cliques, the
Friedman / Iman-Davenport / Nemenyi tests per metric and the metric-order test per pair of metrics,
calibrated (the rules are in :mod:`prspace.stats.cd`; the diagram is drawn from these tables by
``prspace figure cd_diagram``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.stats.cd import (
    POWER_SCENARIO,
    calibrate_order_test,
    critical_difference,
    family_codes,
    metric_order_test,
    scores_matrix,
)

__all__ = ["study_tables"]


def study_tables(
    table: pd.DataFrame, metrics: Sequence[str], *, alpha: float = 0.05, posthoc: str = "nemenyi",
    n_perm: int = 2000, n_sim: int = 200, seed: int = 0, task: str = "task_id", learner: str = "model_id",
    families: pd.Series | dict | None = None, family_corr: float = 0.5,
) -> dict[str, pd.DataFrame]:
    """The tables of step ``cd`` from a long table (one row per task and learner, a column
    per metric, higher is better): ``cd_ranks`` (metric, learner, average rank, position),
    ``cd_cliques`` (metric, clique, learner), ``cd_tests`` (one row per metric: Friedman,
    Iman-Davenport, Nemenyi CD, the post hoc of the cliques) and ``cd_metric_pairs`` (per pair
    of metrics, :func:`metric_order_test` on the tasks both kept, signs flipped per family of
    ``families`` (task -> family; ``None``: per task), with the false rate and power of
    :func:`calibrate_order_test` at this number of tasks, learners and these families, tasks
    correlated ``family_corr`` within a family; ``n_sim = 0`` skips the calibration). Each pair
    is its own question: p-values are not adjusted across pairs.
    """
    metrics = list(metrics)
    if not metrics:
        raise InputError("no metric to rank by; pass e.g. --rank-by aupr,auprg,auroc")
    try:
        results = {m: critical_difference(scores_matrix(table, m, task=task, learner=learner), alpha=alpha,
                                          posthoc=posthoc) for m in metrics}
    except InputError as exc:  # e.g. an OpenML study: each task has its own runs, no learner spans two tasks
        return _no_diagram(metrics, str(exc))
    ranks, cliques, tests = [], [], []
    for m, r in results.items():
        ranks.append(pd.DataFrame({"metric": m, "learner": r.average_ranks.index, "average_rank": r.average_ranks.to_numpy(),
                                   "position": np.arange(1, r.n_learners + 1), "n_tasks": r.n_tasks}))
        for i, c in enumerate(r.cliques, start=1):
            cliques.append(pd.DataFrame({"metric": m, "clique": i, "learner": list(c)}))
        tests.append({"metric": m, **r.summary(),
                      "dropped_tasks": ", ".join(r.dropped_tasks)})
    pairs = []
    calibration: dict[tuple, dict[str, float]] = {}
    for a, b in itertools.combinations(metrics, 2):
        ra, rb = results[a].ranks, results[b].ranks
        common = ra.index.intersection(rb.index)
        t = metric_order_test(ra.loc[common], rb.loc[common], metric_a=a, metric_b=b, alpha=alpha, n_perm=n_perm,
                              seed=seed, families=families)
        row = t.summary()
        if n_sim > 0:
            codes = family_codes([str(x) for x in common], families)
            key = (t.n_tasks, t.n_learners, tuple(codes))
            if key not in calibration:
                calibration[key] = calibrate_order_test(t.n_tasks, t.n_learners, n_sim=n_sim, alpha=alpha,
                                                        n_perm=min(n_perm, 400), seed=seed, families=codes,
                                                        family_corr=family_corr)
            cal = calibration[key]
            row.update({"calibration_n_sim": n_sim, "false_rate": cal["false_rate"], "false_rate_se": cal["false_rate_se"],
                        "power_planted_reversal": cal["power"], "power_se": cal["power_se"],
                        "calibration_family_corr": cal["family_corr"],
                        "power_scenario": POWER_SCENARIO.format(gap=2.0 * (t.n_learners - 1) / t.n_learners,
                                                                corr=cal["family_corr"])})
        pairs.append(row)
    no_cliques = pd.DataFrame(columns=["metric", "clique", "learner"])
    return {
        R.CD_RANKS.name: pd.concat(ranks, ignore_index=True),
        R.CD_CLIQUES.name: pd.concat(cliques, ignore_index=True) if cliques else no_cliques,
        R.CD_TESTS.name: pd.DataFrame(tests),
        R.CD_METRIC_PAIRS.name: pd.DataFrame(pairs),
    }


def _no_diagram(metrics: Sequence[str], reason: str) -> dict[str, pd.DataFrame]:
    """The tables of :func:`study_tables` when the study's tasks share too few learners for a
    diagram: no ranks, cliques or pairs, and one ``cd_tests`` row per metric whose ``note`` says why."""
    note = f"not computed: {reason}"
    return {
        R.CD_RANKS.name: pd.DataFrame(columns=["metric", "learner", "average_rank", "position", "n_tasks"]),
        R.CD_CLIQUES.name: pd.DataFrame(columns=["metric", "clique", "learner"]),
        R.CD_TESTS.name: pd.DataFrame({"metric": list(metrics), "note": note}),
        R.CD_METRIC_PAIRS.name: pd.DataFrame({"metric_a": [a for a, _ in itertools.combinations(metrics, 2)],
                                         "metric_b": [b for _, b in itertools.combinations(metrics, 2)],
                                         "note": note}),
    }
