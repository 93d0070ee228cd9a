"""Metric keys and their display labels: the one place a metric's label is written."""

from __future__ import annotations

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

