"""Ranking metrics and curves for binary classifiers: ROC, PR, PR-Gain and Boyd's minima.

Every metric is computed from one private curve kernel (``_kernel.py``): the scores are sorted
once, tied scores form one threshold, and the cumulative (weighted) true and false positive
counts at the distinct thresholds are the only thing any metric reads, so :func:`all_metrics`
costs one sort plus a few linear passes however many metrics it returns (the kernel's two
forms, and the hot path, are described in ``_kernel.py``).

Conventions
-----------
* ``y_true``: with ``pos_label=None`` the labels must be {0, 1}, {-1, 1} or {False, True}; the
  greater label is the positive class. With ``pos_label`` given, ``y_true == pos_label`` is
  positive and there must be exactly one other label.
* ``y_score``: larger means "more positive". Only the order matters (all metrics are invariant
  under strictly increasing transforms of the scores). Tied scores form one threshold.
* ``sample_weight``: non-negative finite weights; rows of weight 0 are dropped (so an integer
  weight equals repeating the row that many times). Counts, ``pi``, ``n_pos`` and ``n_neg`` are
  weighted.
* Bad input (NaN/inf scores, lengths that differ, empty input, non-binary labels, only one
  class present, negative or non-finite weights) raises :class:`ValueError` naming the problem.

PR curve conventions (see :func:`aupr`): the curve starts at recall 0 with the
precision of the first threshold (a first threshold with ``tp = 0`` has precision 0), and
consecutive thresholds are joined by the interpolation chosen.

References
----------
* Davis, J. and Goadrich, M. (2006). The relationship between precision-recall and ROC curves.
  ICML. (Hyperbolic PR interpolation.)
* Boyd, K., Santos Costa, V., Davis, J. and Page, D. (2012). Unachievable region in
  precision-recall space and its effect on empirical evaluation. ICML. (Theorems 1-3,
  Corollary 4, AUCNPR.)
* Flach, P. and Kull, M. (2015). Precision-Recall-Gain curves: PR analysis done right. NIPS.
  (Definition 1, Theorems 2-4; reference code ``pyprg``.)

Where each piece lives (every public name is re-exported here, so ``from prspace.metrics import X``
and ``prspace.metrics.X`` are the API):

* ``_kernel.py``: validation, the one sort, tie groups, :class:`_Curve` and :class:`_Segments`;
* ``roc.py``: :func:`auroc`, :func:`roc_curve`;
* ``all_curves.py``: :func:`all_curves`, the ROC, PR and PRG curves from one sort;
* ``pr.py``: :func:`average_precision`, :func:`aupr` (three interpolations), :func:`pr_curve`,
  :func:`interpolate_pr_curve`;
* ``pr_estimators.py``: every common AUPR estimator side by side, :func:`aupr_estimators` (and from
  tie-group counts, :func:`aupr_estimators_from_group_counts`);
* ``boyd_minima.py``: Boyd et al.'s minima (:func:`aupr_min`, :func:`ap_min`, :func:`min_pr_curve`) and
  :func:`aucnpr`;
* ``prg.py``: :func:`prg_curve`, :func:`auprg`, :func:`expected_fg1`; ``prg_gains.py``: precision/recall
  gain and :func:`fg_score` of contingency tables; ``prg_hull.py``: :func:`prg_convex_hull`;
* ``headline.py``: :func:`all_metrics` and the same metrics from tie-group counts
  (:func:`metrics_from_group_counts`, :func:`metrics_from_group_counts_batch`, and for untied scores
  :func:`metrics_from_untied_counts_batch`);
* ``names.py``: the metric keys (``METRIC_KEYS``, the one list every kernel, table and the configuration's
  schema read) and their display labels;
* ``operating.py``: partial AUROC (McClish), sensitivity at a fixed specificity, precision at a fixed recall and
  the threshold table (:func:`partial_auroc`, :func:`sensitivity_at_specificity`, :func:`precision_at_recall`,
  :func:`coords`).
* ``sklearn_scorers.py``: scikit-learn scorers of AUPRG, AUCNPR and AUPR (:func:`get_scorer`, :func:`scorers`).

This package imports nothing else of ``prspace`` (see ``docs/architecture.md``).
"""


from __future__ import annotations

from prspace.metrics.all_curves import all_curves
from prspace.metrics.boyd_minima import MinPRCurve, ap_min, aucnpr, aupr_min, min_pr_curve
from prspace.metrics.headline import (
    all_metrics,
    metrics_from_group_counts,
    metrics_from_group_counts_batch,
    metrics_from_untied_counts_batch,
)
from prspace.metrics.names import (
    BOYD_METRICS,
    METRIC_KEYS,
    METRIC_LABELS,
    RANKING_METRICS,
    REPORTED_METRICS,
)
from prspace.metrics.operating import (
    Coords,
    coords,
    partial_auroc,
    precision_at_recall,
    sensitivity_at_specificity,
)
from prspace.metrics.pr import (
    PRCurve,
    aupr,
    average_precision,
    interpolate_pr_curve,
    pr_curve,
)
from prspace.metrics.pr_estimators import (
    AUPR_ESTIMATORS,
    aupr_estimators,
    aupr_estimators_from_group_counts,
)
from prspace.metrics.prg import PRGCurve, auprg, expected_fg1, prg_curve
from prspace.metrics.prg_gains import fg_score, precision_gain, recall_gain
from prspace.metrics.prg_hull import PRGHull, prg_convex_hull
from prspace.metrics.roc import ROCCurve, auroc, roc_curve
from prspace.metrics.sklearn_scorers import get_scorer, get_scorer_names, scorers

__all__ = [
    "Coords",
    "coords",
    "partial_auroc",
    "precision_at_recall",
    "sensitivity_at_specificity",
    "ROCCurve",
    "PRCurve",
    "PRGCurve",
    "MinPRCurve",
    "PRGHull",
    "all_metrics",
    "all_curves",
    "auroc",
    "average_precision",
    "aupr",
    "aupr_min",
    "ap_min",
    "aucnpr",
    "precision_gain",
    "recall_gain",
    "fg_score",
    "prg_curve",
    "auprg",
    "expected_fg1",
    "prg_convex_hull",
    "pr_curve",
    "roc_curve",
    "min_pr_curve",
    "interpolate_pr_curve",
    "AUPR_ESTIMATORS",
    "aupr_estimators",
    "aupr_estimators_from_group_counts",
    "metrics_from_group_counts",
    "metrics_from_group_counts_batch",
    "metrics_from_untied_counts_batch",
    "METRIC_LABELS",
    "METRIC_KEYS",
    "RANKING_METRICS",
    "BOYD_METRICS",
    "REPORTED_METRICS",
    "get_scorer",
    "get_scorer_names",
    "scorers",
]

