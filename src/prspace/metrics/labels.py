"""The one positive-class rule for labels given without a positive class: True of a boolean
array, 1 of numeric labels that are {0, 1} or {-1, 1} (scikit-learn's rule for ``pos_label=None``).

The metrics (:mod:`prspace.metrics._kernel`), the audit's label column
(:func:`prspace.data.dataset.positive_class`, ``default="one"``) and the bands
(:mod:`prspace.stats.bands`) all read it from here; each keeps its own message for labels the rule
does not cover.
"""

from __future__ import annotations

import numpy as np

__all__ = ["default_positives"]


def default_positives(y: np.ndarray) -> np.ndarray | None:
    """Boolean mask of the positives of ``y`` by the rule above, or ``None`` when ``y`` does not follow it.

    ``y`` boolean: ``y`` itself (not copied). ``y`` integer or float: ``y == 1`` when every label is
    0 or 1, or every label is -1 or 1 (NaN follows neither). Any other dtype: ``None``. Whether both
    classes occur is the caller's question.

    >>> default_positives(np.array([0, 1, 1])).tolist()
    [False, True, True]
    >>> default_positives(np.array([-1.0, 1.0])).tolist()
    [False, True]
    >>> default_positives(np.array([0, 2])) is None
    True
    """
    if y.dtype == np.bool_:
        return y
    if y.dtype.kind not in "iuf":
        return None
    pos = y == 1
    rest = y.shape[0] - np.count_nonzero(pos)
    if np.count_nonzero(y == 0) == rest or (y.dtype.kind != "u" and np.count_nonzero(y == -1) == rest):
        return pos
    return None
