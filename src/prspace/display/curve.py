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

        The numbers come from :mod:`prspace.metrics` (the curve and its area of the same arguments).

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels: {0, 1}, {-1, 1} or {False, True} (the greater is the positive class), or any
            two labels with ``pos_label``.
        y_score : array-like of shape (n_samples,)
            Scores, larger meaning more positive: only their order matters, and tied scores form one
            threshold.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative row weights.
        pos_label : int, float, bool or str, default=None
            The label of the positive class; None: the greater of {0, 1}, {-1, 1} or {False, True}.
        name : str, default=None
            Legend name of the curve.
        ax : matplotlib Axes, default=None
            The axes to draw on; None: a new figure's.
        **plot_kwargs
            Keywords of :meth:`plot`.

        Returns
        -------
        display
            The display (of the class it is called on), drawn.

        Raises
        ------
        ValueError
            If the input is bad: NaN or infinite scores, lengths that differ, no rows, labels that are
            not binary, one class only, or negative or non-finite weights (the message names the
            problem).

        See Also
        --------
        prspace.display.PrecisionRecallGainDisplay.from_estimator : The scores of a fitted estimator.
        prspace.metrics.all_curves : The curves as arrays.

        Examples
        --------
        >>> from prspace.display import PrecisionRecallGainDisplay, RocCurveDisplay
        >>> import numpy as np
        >>> y, s = np.array([0, 0, 1, 1, 0, 1]), np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
        >>> round(RocCurveDisplay.from_predictions(y, s).roc_auc, 4)
        0.8889
        >>> round(PrecisionRecallGainDisplay.from_predictions(y, s, name='model').auprg, 4)
        0.7917
        """
        fields = cls._compute(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
        return cls(**fields, name=name, pos_label=pos_label).plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_estimator(cls, estimator: Any, X: Any, y: ArrayLike, *, sample_weight: ArrayLike | None = None,
                       response_method: str = "auto", pos_label: Any = None, name: str | None = None,
                       ax: Any = None, **plot_kwargs: Any):
        """Score ``X`` with a fitted binary classifier and draw the curve against ``y``.

        The positive class is ``pos_label``, else the greater of the estimator's two classes
        (scikit-learn's rule); its ``predict_proba`` column, or ``decision_function`` negated when the
        positive class is ``classes_[0]``, is the score. The rest as :meth:`from_predictions`.

        Parameters
        ----------
        estimator : fitted binary classifier
            A scikit-learn classifier with ``classes_`` of length 2.
        X : array-like of shape (n_samples, n_features)
            The rows to score.
        y : array-like of shape (n_samples,)
            Their true labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative row weights.
        response_method : {'auto', 'predict_proba', 'decision_function'}, default='auto'
            The scores; 'auto': the first of the two the estimator has.
        pos_label : int, float, bool or str, default=None
            The positive class; None: ``estimator.classes_[1]``.
        name : str, default=None
            Legend name; None: the estimator's class name.
        ax : matplotlib Axes, default=None
            The axes to draw on; None: a new figure's.
        **plot_kwargs
            Keywords of :meth:`plot`.

        Returns
        -------
        display
            The display, drawn.

        Raises
        ------
        ValueError
            If the estimator is not a fitted binary classifier, lacks the response method, or
            ``pos_label`` is not one of its classes.

        See Also
        --------
        prspace.display.PrecisionRecallGainDisplay.from_predictions : From labels and scores.

        Examples
        --------
        >>> from sklearn.linear_model import LogisticRegression
        >>> from prspace.display import PrecisionRecallDisplay
        >>> X, y = [[0.1], [0.4], [0.35], [0.8], [0.2], [0.9]], [0, 0, 1, 1, 0, 1]
        >>> d = PrecisionRecallDisplay.from_estimator(LogisticRegression().fit(X, y), X, y)
        >>> d.name, round(d.aupr, 4)
        ('LogisticRegression', 0.9041)
        """
        scores, pos = estimator_scores(estimator, X, y, response_method=response_method, pos_label=pos_label)
        name = type(estimator).__name__ if name is None else name
        return cls.from_predictions(y, scores, sample_weight=sample_weight, pos_label=pos, name=name, ax=ax,
                                    **plot_kwargs)
