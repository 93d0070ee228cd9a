"""Displays in scikit-learn's conventions (``sklearn.metrics.RocCurveDisplay``): each has
``from_predictions(y_true, y_score, ...)``, ``from_estimator(estimator, X, y, ...)`` and
``plot(ax=...)``, and after drawing the attributes ``ax_``, ``figure_`` and ``line_``.

* :class:`PrecisionRecallGainDisplay`: Flach & Kull's PRG curve in the unit square, AUPRG.
* :class:`PrecisionRecallDisplay`: the hyperbolic PR curve (AUPR) over Boyd et al.'s unachievable
  region, shaded (AUPR_MIN at the skew).
* :class:`RocCurveDisplay`: the ROC curve, AUROC.

Every number comes from :mod:`prspace.metrics`; matplotlib (and scikit-learn, for
``from_estimator``) is imported when a display draws.

>>> from prspace.display import PrecisionRecallGainDisplay
>>> d = PrecisionRecallGainDisplay.from_predictions([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
>>> round(d.auprg, 4)
0.7917
>>> bool(d.line_.get_xdata().min() >= 0)  # the unit square: recall gain < 0 is not drawn
True
"""

from __future__ import annotations

from prspace.display.pr_display import PrecisionRecallDisplay
from prspace.display.prg_display import PrecisionRecallGainDisplay, unit_square
from prspace.display.roc_display import RocCurveDisplay

__all__ = ["PrecisionRecallDisplay", "PrecisionRecallGainDisplay", "RocCurveDisplay", "unit_square"]
