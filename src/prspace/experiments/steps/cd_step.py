"""Step ``cd``: a study's critical-difference tables (:func:`prspace.experiments.ranking.cd_tables.study_tables`)
from its metrics table and task table (the families the metric-order test flips signs by), each
titled with the study's name."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import NotRequired, TypedDict

import pandas as pd

from prspace.core import registry as R
from prspace.core.contracts import read_metrics_table
from prspace.core.errors import InputError
from prspace.core.steps import StepOutput, TableOut
from prspace.experiments.ranking.cd_tables import study_tables

log = logging.getLogger(__name__)

__all__ = ["TABLE_TITLES", "cd_step"]


#: The Markdown title of each table of :func:`study_tables` (step ``cd`` adds the study's name).
TABLE_TITLES = {
    R.CD_RANKS.name: "Learners' average ranks across tasks per metric (1 = best), for the critical-difference diagrams",
    R.CD_CLIQUES.name: "Cliques of the critical-difference diagrams: learners no two of which differ (post hoc of cd_tests)",
    R.CD_TESTS.name: "Friedman and Iman-Davenport tests, Nemenyi critical difference, per metric",
    R.CD_METRIC_PAIRS.name: "Do two metrics order the learners differently across tasks beyond noise? (sign-flip test over families of tasks, calibrated)",
}


class CDInputs(TypedDict):
    """The inputs of step ``cd``: the study's metrics table and (optional) its task table, whose
    families the metric-order test flips signs by (without it, per task)."""

    metrics: Path
    tasks: NotRequired[Path]


def _families(path: Path) -> pd.Series | None:
    """task -> family of the task table (a task without a family is its own)."""
    try:
        tasks = pd.read_csv(path, dtype={"task_id": str, "family": str})
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise InputError(f"cannot read the task table {path} ({exc}); pass the study's tables/tasks.csv") from None
    if "task_id" not in tasks.columns:
        raise InputError(f"the task table {path} has no column task_id; pass the study's tables/tasks.csv")
    if "family" not in tasks.columns:
        log.warning("the task table %s has no column family: every task is its own family", path)
        return None
    return tasks.drop_duplicates("task_id").set_index("task_id")["family"]


def cd_step(inputs: CDInputs, *, study: str, seed: int, metrics: Sequence[str] = ("aupr", "auprg", "auroc", "aucnpr"),
            alpha: float = 0.05, posthoc: str = "nemenyi", n_perm: int = 2000, n_sim: int = 200,
            family_corr: float = 0.5) -> StepOutput:
    """Step ``cd``: :func:`study_tables` of the study's metrics table, each titled with the study's name.

    ``metrics``: the metrics ranked; ``posthoc``: ``nemenyi`` or ``wilcoxon`` (the cliques);
    ``n_perm``: sign flips of the metric-order test; ``n_sim``: simulations calibrating it (0 skips);
    ``family_corr``: correlation of tasks within a family in that calibration.
    """
    if not 0.0 <= family_corr < 1.0:
        raise InputError(f"family_corr must lie in [0, 1), got {family_corr}; e.g. 0.5")
    if n_perm < 1 or n_sim < 0:
        raise InputError(f"n_perm must be at least 1 and n_sim at least 0, got {n_perm} and {n_sim}")
    if posthoc not in ("nemenyi", "wilcoxon"):
        raise InputError(f"posthoc must be nemenyi or wilcoxon, got {posthoc!r}")
    table = read_metrics_table(inputs["metrics"])
    unknown = [m for m in metrics if m not in table.columns]
    if unknown:
        raise InputError(f"metrics names {', '.join(unknown)}, not a column of {inputs['metrics']}; use e.g. aupr,auprg,auroc")
    families = _families(inputs["tasks"]) if "tasks" in inputs else None
    tables = study_tables(table, metrics, alpha=alpha, posthoc=posthoc, n_perm=n_perm, n_sim=n_sim, seed=seed,
                          families=families, family_corr=family_corr)
    warnings = []
    if not len(tables[R.CD_RANKS.name]):
        warnings.append(f"no critical-difference diagram: {tables[R.CD_TESTS.name]['note'].iloc[0]}")
    else:
        warnings += [f"{row.metric}: dropped {row.n_tasks_dropped} task(s) with a missing score: {row.dropped_tasks}"
                     for row in tables[R.CD_TESTS.name].itertuples(index=False) if row.n_tasks_dropped]
    suffix = f" (study {study})" if study else ""
    return StepOutput(tables=[TableOut(t, tables[t.name], title=TABLE_TITLES[t.name] + suffix)
                              for t in (R.CD_RANKS, R.CD_CLIQUES, R.CD_TESTS, R.CD_METRIC_PAIRS)],
                      warnings=warnings)
