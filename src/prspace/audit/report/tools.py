"""Which AUPR estimator popular tools compute, from their own documentation or source.

Chen et al. (Genome Biology 25:118, 2024) found that ten popular tools give conflicting
"AUPRC" values and rank classifiers differently; this table says which column of the
audit's estimators table (:data:`prspace.metrics.AUPR_ESTIMATORS`) each tool's number
corresponds to, and where that is stated.
"""

from __future__ import annotations

import pandas as pd

#: (tool, function, estimator key or None (none of the audit's estimators), source of the statement)
TOOLS = (
    ("scikit-learn", "average_precision_score", "step",
     "scikit-learn docs, sklearn.metrics.average_precision_score: AP = sum_n (R_n - R_{n-1}) P_n, \"not "
     "interpolated\" (https://scikit-learn.org/stable/modules/generated/sklearn.metrics.average_precision_score)"),
    ("scikit-learn", "auc(recall, precision) of precision_recall_curve", "trapezoid_from_1",
     "scikit-learn docs, sklearn.metrics.auc: \"using the trapezoidal rule\"; precision_recall_curve's last "
     "point is (recall 0, precision 1) (https://scikit-learn.org/stable/modules/generated/sklearn.metrics.auc.html)"),
    ("torchmetrics", "AveragePrecision / binary_average_precision", "step",
     "torchmetrics docs: AP = sum_n (R_n - R_{n-1}) P_n "
     "(https://lightning.ai/docs/torchmetrics/stable/classification/average_precision.html)"),
    ("yardstick (R)", "pr_auc", "trapezoid_from_1",
     "yardstick source, pr_auc_binary: auc(recall, precision) of pr_curve(), trapezoidal, the curve starting at "
     "(0, 1) (https://search.r-project.org/CRAN/refmans/yardstick/html/pr_auc.html)"),
    ("PRROC (R)", "pr.curve()$auc.integral", "hyperbolic",
     "PRROC source, compute.pr: auc.integral is the closed-form integral of the hyperbolic interpolation between "
     "consecutive points (Keilwagen et al. 2014); equal to the audit's hyperbolic AUPR within 1e-12 in the tests "
     "(https://rdrr.io/cran/PRROC/man/pr.curve.html)"),
    ("PRROC (R)", "pr.curve()$auc.davis.goadrich", None,
     "PRROC source, compute.pr: Davis & Goadrich's (2006) discrete version: the hyperbola's precision at every "
     "whole number of true positives inside a tie group, joined by straight lines; not one of the audit's "
     "estimators: without ties it equals the trapezoid, with ties it lies apart from both the trapezoid and the "
     "hyperbolic AUPR (in the tests by up to 5e-3 and 7e-3) (https://rdrr.io/cran/PRROC/man/pr.curve.html)"),
    ("precrec (R)", "evalmod() + auc()", "hyperbolic",
     "precrec source (create_prc_curve.cpp, calc_auc.cpp): evalmod() interpolates the PR curve non-linearly "
     "between its points (Davis & Goadrich's hyperbola: the precision of tp + x true positives on the straight line "
     "between two points' counts) at every 1/x_bins of recall (x_bins = 1000 by default; tied scores 'equiv', the "
     "straight line through the tie group) and auc() takes the trapezoidal rule over those points: the hyperbolic "
     "AUPR up to that grid's error (in the tests within 1e-5 of the audit's hyperbolic AUPR, and up to 0.05 from the "
     "trapezoid when scores tie) (https://github.com/evalclass/precrec)"),
)


def tools_table() -> pd.DataFrame:
    """The table of :data:`TOOLS` (columns ``tool, function, estimator, source``)."""
    return pd.DataFrame(TOOLS, columns=["tool", "function", "estimator", "source"])


def tools_by_estimator() -> dict[str, str]:
    """`` (what scikit-learn average_precision_score, torchmetrics ... compute)`` per estimator key."""
    out: dict[str, list[str]] = {}
    for tool, function, key, _ in TOOLS:
        if key is not None:
            out.setdefault(key, []).append(f"{tool} {function}")
    return {k: f" (what {', '.join(v)} compute{'s' if len(v) == 1 else ''})" for k, v in out.items()}
