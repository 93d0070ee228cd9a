"""The constructors every display shares (``from_predictions``, ``from_estimator``), as
scikit-learn's ``RocCurveDisplay``: compute with :mod:`prspace.metrics`, build, then ``plot``."""

from __future__ import annotations

from typing import Any

from numpy.typing import ArrayLike

from prspace.display._base import estimator_scores


class CurveDisplay:
    """Base of the displays: a subclass defines ``_compute`` (the curve and its area from labels and
    scores, as keyword arguments of its ``__init__``) and ``plot``."""

    #: set by :meth:`plot`: the axes, their figure and the curve's line
    ax_: Any
    figure_: Any
    line_: Any

    @classmethod
    def _compute(cls, y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Any,
                 sample_weight: ArrayLike | None) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def from_predictions(cls, y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None,
                         pos_label: Any = None, name: str | None = None, ax: Any = None, **plot_kwargs: Any):
        """Compute the curve from true labels and scores (larger = more positive) and draw it.

        ``pos_label``: the positive class (default: the greater of {0, 1}, {-1, 1} or {False, True});
        ``sample_weight``: non-negative row weights; ``ax``: the matplotlib axes to draw on (default a
        new figure); other keywords go to :meth:`plot`.  Bad input raises :class:`ValueError` naming it.
        """
        fields = cls._compute(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
        return cls(**fields, name=name, pos_label=pos_label).plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_estimator(cls, estimator: Any, X: Any, y: ArrayLike, *, sample_weight: ArrayLike | None = None,
                       response_method: str = "auto", pos_label: Any = None, name: str | None = None,
                       ax: Any = None, **plot_kwargs: Any):
        """Score ``X`` with a fitted binary classifier and draw the curve against ``y``.

        ``response_method``: ``"predict_proba"``, ``"decision_function"`` or ``"auto"`` (the first of
        the two the estimator has); ``name`` defaults to the estimator's class name.  The rest as
        :meth:`from_predictions`.
        """
        scores, pos = estimator_scores(estimator, X, y, response_method=response_method, pos_label=pos_label)
        name = type(estimator).__name__ if name is None else name
        return cls.from_predictions(y, scores, sample_weight=sample_weight, pos_label=pos, name=name, ax=ax,
                                    **plot_kwargs)
