"""Rank models by several metrics and measure how much the rankings disagree.

Reproduces the analysis of Flach & Kull (NIPS 2015), section 4: within each task
the models are ranked by AUPR, AUPRG and AUROC, and for every pair of metrics one
counts the tasks where the best model differs (top-1), where the ordered top three
differ (top-3), and correlates the ranks (Spearman, Kendall).  Boyd et al. (ICML
2012, section 4.2) add the across-task view: averaging AUPR over tasks of different
skew mixes scores of different ranges, AUCNPR normalises the range away, so the
learners' order by mean AUPR can differ from their order by mean AUCNPR.

The package: ``ranks.py`` (ranks, top-k, disagreement, correlations), ``disagreement_summary.py``
(shares across tasks with intervals of the cluster bootstrap over families,
:mod:`prspace.stats.family_bootstrap`; saturation, quartile tasks), ``scorecard.py`` (the paper's
numbers beside this run's), ``learner_tables.py`` (learners across tasks, winners, panel
sensitivity); every name of these is re-exported here. Beside them, imported by their own path:
``cd_tables.py`` (the learners' critical-difference tables across tasks) and ``auroc_flips.py``
(the top-1 disagreements with AUROC that the AUROC gap permits).

All functions are pure: pandas DataFrames in, DataFrames out, sorted rows, no I/O.

Conventions
-----------
* **Rank 1 is best.**  Every metric here is "higher is better".  Ties get the
  average of the ranks they span (``scipy.stats.rankdata(method="average")``).
* **Float noise is not a difference.**  Metric values are rounded to ``decimals``
  (default 12) before ranking, so two models whose AUPR differ by a rounding error
  tie.  This matters for AUPR vs AUCNPR: AUCNPR is a strictly increasing function of
  AUPR within a task (Boyd et al., eq. for AUCNPR with a fixed ``pi``), so the two
  must order the models identically.
* **Top-k with ties** (:func:`top_k`): a model's *position* is its competition rank
  ``1 + #(models strictly better)``.  The top-k of a metric is the mapping
  ``model -> position`` for the models with position <= k.  Two metrics *agree on
  the top k* when these mappings are identical: the same models, at the same
  positions.  Without ties this is exactly "the same best model" (k=1) and "the same
  ordered top three" (k=3, as in the paper: "they agree on top, second and third
  method").  With ties, a tie at the top under one metric but not the other counts
  as a disagreement; a tie shared by both metrics counts as agreement.
* **Rank correlations** per task are Spearman's rho (Pearson correlation of the
  average ranks) and Kendall's tau-b over all models of the task.  They are NaN when
  one metric ties all models (no order to correlate).  Across tasks, the paper's
  "correlation between AUPR-ranks and AUPRG-ranks" is reproduced two ways
  (:func:`pooled_rank_correlation`, and the mean of the per-task Spearman's rho);
  without ties and with equally many models per task they are identical, because
  every task's ranks then have the same mean and variance.
"""

from __future__ import annotations

from prspace.experiments.ranking.disagreement_summary import (
    SATURATED_MIN_MODELS,
    SATURATION_METRICS,
    SUMMARY_STATS,
    quartile_groups,
    saturation,
    summarise_disagreement,
)
from prspace.experiments.ranking.learner_tables import (
    AGREEMENT_COLUMNS,
    WINNER_COLUMNS,
    WINNER_CRITERIA,
    LearnerTables,
    flipped_pairs,
    learner_families,
    learner_order_agreement,
    learner_ranking_across_tasks,
    learner_tables,
    learner_winners,
    one_model_per_family,
    one_per_family_disagreements,
    panel_sensitivity,
)
from prspace.experiments.ranking.ranks import (
    PER_GROUP_COLUMNS,
    RANKING_METRICS,
    all_disagreements,
    disagreement,
    metric_pairs,
    pooled_rank_correlation,
    positions,
    rank_models,
    top_k,
)
from prspace.experiments.ranking.scorecard import (
    PAPER_N_MODELS,
    PAPER_N_MODELS_TOTAL,
    PAPER_N_TASKS,
    PAPER_QUARTILES,
    PAPER_RESULTS,
    PAPER_SOURCE,
    SCORECARD_COLUMNS,
    TIE_CONVENTION,
    scorecard,
)
from prspace.metrics import METRIC_LABELS  # re-exported: the display names live in prspace.metrics
from prspace.stats.family_bootstrap import (  # re-exported: the family bootstrap lives in prspace.stats
    bootstrap_ci,
    cluster_bootstrap_ci,
    cluster_resamples,
)

__all__ = [
    "AGREEMENT_COLUMNS",
    "METRIC_LABELS",
    "PAPER_N_MODELS",
    "PAPER_N_MODELS_TOTAL",
    "PAPER_N_TASKS",
    "PAPER_QUARTILES",
    "PAPER_RESULTS",
    "PAPER_SOURCE",
    "PER_GROUP_COLUMNS",
    "RANKING_METRICS",
    "SATURATED_MIN_MODELS",
    "SATURATION_METRICS",
    "SCORECARD_COLUMNS",
    "SUMMARY_STATS",
    "TIE_CONVENTION",
    "WINNER_COLUMNS",
    "WINNER_CRITERIA",
    "all_disagreements",
    "bootstrap_ci",
    "cluster_bootstrap_ci",
    "cluster_resamples",
    "disagreement",
    "flipped_pairs",
    "learner_order_agreement",
    "LearnerTables",
    "learner_ranking_across_tasks",
    "learner_tables",
    "learner_winners",
    "metric_pairs",
    "learner_families",
    "one_model_per_family",
    "one_per_family_disagreements",
    "panel_sensitivity",
    "pooled_rank_correlation",
    "positions",
    "quartile_groups",
    "rank_models",
    "saturation",
    "scorecard",
    "summarise_disagreement",
    "top_k",
]
