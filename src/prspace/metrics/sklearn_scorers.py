"""Scorers for scikit-learn's model selection (``cross_validate``, ``GridSearchCV``): AUPRG, AUCNPR
and the hyperbolic (Davis-Goadrich) AUPR, made with ``sklearn.metrics.make_scorer``.

Each scorer reads the estimator's ``decision_function``, else its ``predict_proba`` (the column of
the positive class), as scikit-learn's own ``roc_auc`` and ``average_precision`` scorers do, and
passes the scores to the metric of this package with the fold's labels.  scikit-learn is imported
when a scorer is made, so ``import prspace.metrics`` does not pay for it.

Names: ``scoring="auprg"`` (a string) cannot work: scikit-learn takes as strings only the names of its own
registry (``sklearn.metrics.get_scorer_names()``) and has no public way to add one (1.9; its registry is a private
dict).  Pass the scorer itself, ``scoring=get_scorer("auprg")``, or a dict of them, ``scoring=scorers()`` (or
``{**scorers(), "roc_auc": "roc_auc"}``), whose keys then name the scores everywhere scikit-learn accepts a
scorer's name: ``cv["test_auprg"]``, ``GridSearchCV(..., scoring=scorers(), refit="auprg")``.

>>> from sklearn.datasets import load_breast_cancer
>>> from sklearn.naive_bayes import GaussianNB
>>> from sklearn.model_selection import cross_validate
>>> from prspace.metrics import get_scorer, scorers
>>> X, y = load_breast_cancer(return_X_y=True)
>>> cv = cross_validate(GaussianNB(), X, y, cv=3, scoring=scorers())
>>> sorted(k for k in cv if k.startswith("test_"))
['test_aucnpr', 'test_aupr', 'test_auprg']
>>> get_scorer("auprg")
make_scorer(auprg, response_method=('decision_function', 'predict_proba'))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prspace.metrics.boyd_minima import aucnpr
from prspace.metrics.pr import aupr
from prspace.metrics.prg import auprg

__all__ = ["SCORER_METRICS", "get_scorer", "get_scorer_names", "scorers"]

#: scorer name -> the metric it calls (``aupr``: hyperbolic interpolation, the default of :func:`aupr`)
SCORER_METRICS: dict[str, Callable[..., float]] = {"auprg": auprg, "aucnpr": aucnpr, "aupr": aupr}
#: what the scorers read of an estimator, in order of preference (as scikit-learn's ``roc_auc`` scorer)
RESPONSE_METHOD = ("decision_function", "predict_proba")


def get_scorer_names() -> list[str]:
    """The names :func:`get_scorer` accepts.

    Returns
    -------
    list of str
        The scorer names, sorted.

    See Also
    --------
    get_scorer : One scorer by name.

    Examples
    --------
    >>> get_scorer_names()
    ['aucnpr', 'aupr', 'auprg']
    """
    return sorted(SCORER_METRICS)


def get_scorer(name: str, *, pos_label: Any = None, response_method: Any = RESPONSE_METHOD, **kwargs: Any) -> Any:
    """A scikit-learn scorer of metric ``name`` (``"auprg"``, ``"aucnpr"``, ``"aupr"``), greater is better.

    Parameters
    ----------
    name : {'auprg', 'aucnpr', 'aupr'}
        The metric.
    pos_label : int, float, bool or str, default=None
        The positive class, needed for labels other than {0, 1}, {-1, 1} or {False, True}; it also
        picks the ``predict_proba`` column.
    response_method : str or tuple of str, default=('decision_function', 'predict_proba')
        As ``sklearn.metrics.make_scorer``.
    **kwargs
        Keywords of the metric (e.g. ``recall_range``).

    Returns
    -------
    callable
        A scikit-learn scorer, greater is better.

    Raises
    ------
    ValueError
        If ``name`` is unknown (the message lists the names).

    See Also
    --------
    scorers : Every scorer by name.
    get_scorer_names : The names.

    Examples
    --------
    >>> get_scorer("aupr", pos_label="yes", recall_range=(0.0, 0.5))
    make_scorer(aupr, response_method=('decision_function', 'predict_proba'), recall_range=(0.0, 0.5), pos_label=yes)
    """
    from sklearn.metrics import make_scorer

    if name not in SCORER_METRICS:
        raise ValueError(f"unknown scorer {name!r}; choose one of {', '.join(get_scorer_names())}")
    if pos_label is not None:
        kwargs["pos_label"] = pos_label
    return make_scorer(SCORER_METRICS[name], response_method=response_method, **kwargs)


def scorers(*, pos_label: Any = None) -> dict[str, Any]:
    """Every scorer by name, for ``cross_validate(..., scoring=scorers())``.

    Parameters
    ----------
    pos_label : int, float, bool or str, default=None
        The positive class, as :func:`get_scorer`.

    Returns
    -------
    dict of str to callable
        Each scorer of :func:`get_scorer_names` by name.

    See Also
    --------
    get_scorer : One scorer.

    Examples
    --------
    >>> sorted(scorers())
    ['aucnpr', 'aupr', 'auprg']
    """
    return {name: get_scorer(name, pos_label=pos_label) for name in get_scorer_names()}
