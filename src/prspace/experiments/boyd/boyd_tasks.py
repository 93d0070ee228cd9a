"""The tasks of Boyd's downsampling (section 4.3) and fold-skew (section 4.1) experiments, chosen by rule.

Pure functions of the task list (pandas only, nothing else of the analysis), because the workflow calls them
while it reads its rules: every Snakefile parse (``snakemake -n``, each SLURM job's own Snakemake) imports
this module, and :mod:`prspace.experiments.fk.figure_selection` imports scipy.stats (about 1 s).
"""

from __future__ import annotations

import pandas as pd

__all__ = ["downsampling_tasks", "fold_skew_tasks"]


def _with_pi(table: pd.DataFrame, task_ids: list[str]) -> pd.DataFrame:
    table = table.assign(task_id=table["task_id"].astype(str))
    table = table[table["task_id"].isin(set(task_ids))].copy()
    if "pi" not in table.columns:
        table["pi"] = table["n_pos"] / table["n"]
    return table


def downsampling_tasks(table: pd.DataFrame, task_ids: list[str], *, max_pi: float, min_positives: int,
                       max_tasks: int | None) -> list[str]:
    """Boyd section 4.3 tasks: pi <= ``max_pi``, at least ``min_positives`` positives, lowest pi first,
    at most ``max_tasks``; returned sorted by id."""
    t = _with_pi(table, task_ids)
    t = t[(t["pi"] <= max_pi) & (t["n_pos"] >= min_positives)].sort_values(["pi", "task_id"])
    ids = list(t["task_id"])
    return sorted(ids[:max_tasks] if max_tasks is not None else ids)


def fold_skew_tasks(table: pd.DataFrame, task_ids: list[str], *, min_positives: int, max_tasks: int | None) -> list[str]:
    """Boyd section 4.1 tasks: at least ``min_positives`` positives, lowest pi first, at most
    ``max_tasks``; returned sorted by id."""
    t = _with_pi(table, task_ids)
    t = t[t["n_pos"] >= min_positives].sort_values(["pi", "task_id"])
    ids = list(t["task_id"])
    return sorted(ids[:max_tasks] if max_tasks is not None else ids)
