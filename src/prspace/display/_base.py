"""What the three displays share: the estimator's scores for the positive class, the axes, the
legend label, in scikit-learn's conventions (``sklearn.metrics.RocCurveDisplay``).

matplotlib and scikit-learn are imported when a display draws or reads an estimator, so that
``import prspace.display`` costs neither.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

#: ``response_method`` values :func:`estimator_scores` accepts ("auto": predict_proba, else decision_function).
RESPONSE_METHODS = ("auto", "predict_proba", "decision_function")


def estimator_scores(estimator: Any, X: Any, y: ArrayLike, *, response_method: str = "auto",
                     pos_label: Any = None) -> tuple[np.ndarray, Any]:
    """The fitted binary ``estimator``'s scores on ``X`` for the positive class, and that class.

    The positive class is ``pos_label``, else the greater of the two classes (``estimator.classes_[1]``,
    scikit-learn's rule).  ``predict_proba``: its column for the positive class; ``decision_function``:
    its values, negated when the positive class is ``classes_[0]``.  Raises :class:`ValueError`
    naming the problem (not fitted, not binary, a method it lacks, a ``pos_label`` not among its classes).
    """
    from sklearn.utils.validation import check_is_fitted

    if response_method not in RESPONSE_METHODS:
        raise ValueError(f"response_method must be one of {RESPONSE_METHODS}, got {response_method!r}")
    check_is_fitted(estimator)
    classes = np.asarray(getattr(estimator, "classes_", []))
    if classes.shape[0] != 2:
        raise ValueError(f"the estimator must be a binary classifier (classes_ of length 2), got classes {classes.tolist()}; "
                         "pass its scores with from_predictions for other models")
    if pos_label is None:
        pos_label = classes[1]
    elif pos_label not in classes.tolist():
        raise ValueError(f"pos_label {pos_label!r} is not a class of the estimator ({classes.tolist()}); "
                         "pass one of its classes")
    idx = int(np.flatnonzero(classes == pos_label)[0])
    methods = ("predict_proba", "decision_function") if response_method == "auto" else (response_method,)
    for method in methods:
        fn = getattr(estimator, method, None)
        if fn is None:
            continue
        out = np.asarray(fn(X), dtype=np.float64)
        if method == "predict_proba":
            return out[:, idx], pos_label
        return (out if idx == 1 else -out), pos_label
    raise ValueError(f"the estimator has no {' or '.join(methods)}; fit a classifier that has it, or pass its scores "
                     "with from_predictions")


def axes(ax: Any) -> tuple[Any, Any]:
    """``(ax, figure)``: the given axes, or a new figure's."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots()
    return ax, ax.figure


def label(name: str | None, metric: str, value: float | None) -> str | None:
    """Legend text ``"name (AUPRG = 0.912)"``, ``"AUPRG = 0.912"``, or the name alone."""
    if value is None:
        return name
    area = f"{metric} = {value:.3f}"
    return f"{name} ({area})" if name else area


def positive_text(pos_label: Any) -> str:
    """`` (positive label: x)`` for the axis labels, as scikit-learn's displays; empty without one."""
    return f" (positive label: {pos_label})" if pos_label is not None else ""


def once(ax: Any, gid: str, draw: Any) -> Any:
    """The artist with ``gid`` already on ``ax`` (a reference line or region drawn by an earlier
    display on the same axes), else the one ``draw()`` returns, tagged with ``gid``."""
    for artist in (*ax.lines, *ax.collections, *ax.patches):
        if artist.get_gid() == gid:
            return artist
    artist = draw()
    artist.set_gid(gid)
    return artist
