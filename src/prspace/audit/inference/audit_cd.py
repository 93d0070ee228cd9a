"""Critical-difference diagrams in the audit: when it has at least 2 tasks with the same models
(at least 2), the models' average ranks across tasks per metric, Friedman / Nemenyi and the
metric-order test (:func:`prspace.experiments.ranking.cd_tables.study_tables`; rules in :mod:`prspace.stats.cd`), as tables
(``cd_*.csv``), report lines and the ``cd_diagram`` figure.
"""

from __future__ import annotations

import pandas as pd

from prspace.audit.audit_numbers import p_eq
from prspace.core import registry as R
from prspace.core.errors import InputError
from prspace.experiments.ranking.cd_tables import study_tables

#: The metrics of the audit's diagrams (one panel each).
CD_METRICS = ("aupr", "auprg", "auroc", "aucnpr")
CAPTION = ("Critical-difference diagrams (Demsar 2006): each model at its average rank over the tasks (best at the "
           "top), one panel per metric; red bars join models that Nemenyi's test does not separate (alpha 0.05), "
           "the bracket is the critical difference.")


def cd_tables(pooled: pd.DataFrame, *, n_sim: int = 100, seed: int = 0) -> dict[str, pd.DataFrame] | None:
    """The ``cd_*`` tables of an audit's pooled metrics, or None when the audit has fewer than 2
    tasks, the tasks do not share the same models, or fewer than 2 models."""
    models = pooled.groupby("task")["model"].apply(frozenset)
    if len(models) < 2 or models.nunique() != 1 or len(models.iloc[0]) < 2:
        return None
    try:
        return study_tables(pooled, [m for m in CD_METRICS if m in pooled.columns], task="task", learner="model",
                            n_sim=n_sim, seed=seed)
    except InputError:  # e.g. every task lacks one metric for some model
        return None


def cd_lines(tables: dict[str, pd.DataFrame] | None) -> list[str]:
    """Plain sentences for the reports: per metric the tests and the best model, per metric pair
    whether the order differs beyond noise."""
    if not tables:
        return []
    out = []
    ranks = tables[R.CD_RANKS.name]
    for t in tables[R.CD_TESTS.name].itertuples(index=False):
        best = ranks[(ranks["metric"] == t.metric) & (ranks["position"] == 1)].iloc[0]
        out.append(f"{t.metric}: over {t.n_tasks} tasks Friedman p {p_eq(t.friedman_p)}, Nemenyi CD = "
                   f"{t.critical_difference:.3g} ranks; best average rank {best['learner']} ({best['average_rank']:.3g})"
                   + (f"; {t.n_tasks_dropped} task(s) dropped for a missing value" if t.n_tasks_dropped else "") + ".")
    for p in tables[R.CD_METRIC_PAIRS.name].itertuples(index=False):
        verdict = "differs beyond noise" if p.differs else "does not differ beyond noise"
        rho = p.spearman_average_ranks
        rho = (f"{rho:.3g}" if rho == rho else
               "undefined: one metric gives every model the same average rank")
        out.append(f"{p.metric_a} vs {p.metric_b}: the models' order across tasks {verdict} (sign-flip p "
                   f"{p_eq(p.p_value)}, Spearman of average ranks {rho}).")
    return out
