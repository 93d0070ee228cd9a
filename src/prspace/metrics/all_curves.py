"""Every curve of one model's scores from one sort: ROC, PR and PRG (:func:`all_curves`)."""

from __future__ import annotations

from typing import Any

from numpy.typing import ArrayLike

from prspace.metrics._kernel import _binary_curve
from prspace.metrics.pr import PRCurve, _pr_from
from prspace.metrics.prg import PRGCurve, _prg_curve_from
from prspace.metrics.roc import ROCCurve, _roc_from

__all__ = ["all_curves"]


def all_curves(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
) -> tuple[ROCCurve, PRCurve, PRGCurve]:
    """The ROC, PR and PRG curves from one sort of the scores, each equal to
    :func:`~prspace.metrics.roc_curve`, :func:`~prspace.metrics.pr_curve` and
    :func:`~prspace.metrics.prg_curve` of the same arguments (the kernel's tie groups computed once,
    not three times: a figure of a model's three curves at 10^6 rows sorts once).

    >>> import numpy as np
    >>> from prspace.metrics import all_curves, pr_curve, prg_curve, roc_curve
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> roc, pr, prg = all_curves(y, s)
    >>> roc.tpr.round(3).tolist(), pr.precision.round(3).tolist()
    ([0.0, 0.333, 0.667, 0.667, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 0.667, 0.75, 0.6, 0.5])
    >>> all(np.array_equal(a, b, equal_nan=True) for one, other in zip((roc, pr, prg),
    ...     (roc_curve(y, s), pr_curve(y, s), prg_curve(y, s))) for a, b in zip(one, other))
    True
    """
    c = _binary_curve(y_true, y_score, pos_label, sample_weight)
    return _roc_from(c), _pr_from(c), _prg_curve_from(c)
