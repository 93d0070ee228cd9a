"""Metric keys and their display labels: the one home of a metric's name.

* :data:`METRIC_KEYS`: the one list of the metrics :func:`~prspace.metrics.all_metrics` returns, in
  the order of the study's tables: the kernels of :mod:`prspace.metrics.headline` compute each of them
  (``BATCH_METRICS`` is this list), the metrics table has their columns
  (:mod:`prspace.experiments.fk.scoring`), and the configuration's metric enums
  (``workflow/schemas/config.schema.yaml``, the anchor ``&metric_keys``) are this list
  (``tests/metrics/test_metric_keys.py`` checks all three);
* :data:`METRIC_LABELS`: the display label of each key, for tables, figures and sentences;
* :data:`RANKING_METRICS`: the metrics the study ranks models by (Flach & Kull, section 4);
* :data:`BOYD_METRICS`: the metrics of Boyd et al.'s experiments (downsampling, fold skew,
  aggregation over tasks);
* :data:`REPORTED_METRICS`: the metrics an audit reports and resamples, in its display order.

A new metric gets its key and label here (``CONTRIBUTING.md``, "A metric").
"""

from __future__ import annotations

#: The metrics :func:`~prspace.metrics.all_metrics` returns (besides ``pi``, ``n_pos``, ``n_neg``),
#: in the order of the study's tables: the one list of metric keys (module docstring).
METRIC_KEYS: tuple[str, ...] = ("auroc", "average_precision", "aupr", "aupr_linear", "aucnpr", "auprg")

#: Display names of the keys of :func:`all_metrics`, for tables, figures and sentences: the one
#: place a metric's label is written.
METRIC_LABELS: dict[str, str] = {
    "aupr": "AUPR",
    "average_precision": "AP",
    "auprg": "AUPRG",
    "auroc": "AUROC",
    "aucnpr": "AUCNPR",
    "aupr_linear": "AUPR (linear)",
}

#: The metrics the study ranks by (keys of :func:`prspace.metrics.all_metrics`).
RANKING_METRICS: tuple[str, ...] = ("aupr", "average_precision", "auprg", "auroc", "aucnpr")

#: The metrics of Boyd et al.'s experiments, in their tables' order.
BOYD_METRICS: tuple[str, ...] = ("aupr", "aucnpr", "auprg", "auroc")

#: The metrics an audit reports, ranks and resamples, in its display order.
REPORTED_METRICS: tuple[str, ...] = ("auroc", "average_precision", "aupr", "aucnpr", "auprg")

#: The metric pairs of Flach & Kull 2015 (section 4), whose rank disagreement the studies and the
#: audit report, each as ``(a, b)``; the verdict rows name a pair ``f"{a}_{b}"``.
FK_PAIRS: tuple[tuple[str, str], ...] = (("aupr", "auprg"), ("aupr", "auroc"), ("auprg", "auroc"))

#: The metrics of the per-learner table of ``prspace step rank`` (the PR-space metrics Boyd et al. and
#: Flach & Kull compare; AUROC is the reference they are compared with, so it is not a column).
LEARNER_METRICS: tuple[str, ...] = ("aupr", "aucnpr", "auprg")

#: Display labels of the audit's tables, which also show two baselines beside the metrics: the
#: minimum AUPR of Boyd et al. (column header ``AUPR_MIN``, as in the audit's CSV outputs; the
#: Boyd figures write it ``AUCPR_MIN`` after the paper) and the positive fraction ``pi``.
AUDIT_LABELS: dict[str, str] = {**METRIC_LABELS, "aupr_min": "AUPR_MIN", "pi": "pi"}

#: Display names of the AUPR estimators (:data:`prspace.metrics.AUPR_ESTIMATORS`).
AUPR_ESTIMATOR_LABELS: dict[str, str] = {
    "step": "step (AP)",
    "trapezoid": "trapezoid",
    "trapezoid_from_1": "trapezoid from (0, 1)",
    "hyperbolic": "hyperbolic (exact integral)",
    "lower_trapezoid": "lower trapezoid",
    "interpolated_median": "interpolated median",
}
