"""The pool's further learners: 14 distinct methods the panel-draws study adds to the default panel.

:data:`POOL_LEARNERS` maps each name of :data:`prspace.core.panels.POOL_EXTRA` that is not older than
the pool (all but ``nystroem-linsvm``) to its factory ``factory(seed) -> Pipeline``, built as the
panel's in :mod:`prspace.local.learners` (which appends them to ``LEARNERS`` in the order of
:data:`prspace.core.panels.LEARNER_NAMES`; names are stable ids there too).  Each is another estimator
class or pipeline structure than every other member of the pool (``config/panel-pool.yaml`` draws 30
per task from it), and closed form, converged far below the scores' rounding, or a fixed amount of
work (``tests/local/test_determinism.py`` probes them).  Apart from ``learners.py`` so that neither
module passes 500 lines.
"""

from __future__ import annotations

from collections.abc import Callable

from sklearn.calibration import CalibratedClassifierCV
from sklearn.ensemble import BaggingClassifier, RandomTreesEmbedding
from sklearn.feature_selection import SelectPercentile, f_classif
from sklearn.kernel_approximation import RBFSampler
from sklearn.linear_model import LogisticRegressionCV, RidgeClassifier, RidgeClassifierCV
from sklearn.naive_bayes import CategoricalNB, GaussianNB, MultinomialNB
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import KBinsDiscretizer, QuantileTransformer
from sklearn.random_projection import GaussianRandomProjection
from sklearn.tree import DecisionTreeClassifier

from prspace.local.pipeline import (
    ExactKNeighborsClassifier,
    RoundedAdaBoostClassifier,
    _linear,
    _logreg,
    _minmax,
    _tree,
)

__all__ = ["POOL_LEARNERS"]

#: name -> factory(seed) of the pool's learners newer than the default panel, in the order of
#: :data:`prspace.core.panels.LEARNER_NAMES`
POOL_LEARNERS: dict[str, Callable[[int], Pipeline]] = {
    # ridge with its penalty chosen by efficient leave-one-out (closed form per alpha; alphas a
    # decade apart, so two cannot tie in the last bits)
    "ridgecv": _linear(lambda s: RidgeClassifierCV(alphas=(0.1, 1.0, 10.0, 100.0))),
    # counts: multinomial naive Bayes on features min-max scaled to [0, 1]
    "mnb-minmax": _minmax(lambda s: MultinomialNB(alpha=1.0)),
    # per-feature quantile bins (edges from the rounded, unscaled features: percentiles are
    # arithmetic on the data), one-hot, then logistic regression; or categorical naive Bayes
    "kbins-logreg": _tree(
        lambda s: Pipeline(
            [
                ("kbins", KBinsDiscretizer(n_bins=5, encode="onehot-dense", strategy="quantile")),
                ("logreg", _logreg(1.0, s)),
            ]
        )
    ),
    "kbins-catnb": _tree(
        lambda s: Pipeline(
            [
                ("kbins", KBinsDiscretizer(n_bins=5, encode="ordinal", strategy="quantile")),
                ("catnb", CategoricalNB(alpha=1.0, min_categories=5)),
            ]
        )
    ),
    # univariate filter: the half of the features with the largest ANOVA F, then logistic regression
    "select-logreg": _linear(
        lambda s: Pipeline(
            [
                ("select", SelectPercentile(f_classif, percentile=50)),
                ("logreg", _logreg(1.0, s)),
            ]
        )
    ),
    # a seeded Gaussian random projection to 8 dimensions, then exact nearest neighbours
    # (ExactKNeighborsClassifier rounds the projected features)
    "rproj-knn": _linear(
        lambda s: Pipeline(
            [
                ("rproj", GaussianRandomProjection(n_components=8, random_state=s)),
                ("knn", ExactKNeighborsClassifier(15)),
            ]
        )
    ),
    # subsampling without replacement (80% of the rows: every subsample holds both classes)
    "bagging-logreg-10": _linear(
        lambda s: BaggingClassifier(
            _logreg(1.0, s), n_estimators=10, max_samples=0.8, bootstrap=False, n_jobs=1,
            random_state=s,
        )
    ),
    "tree-isotonic": _tree(
        lambda s: CalibratedClassifierCV(
            DecisionTreeClassifier(max_depth=5, random_state=s), method="isotonic", cv=3
        )
    ),
    # totally random trees' leaves (one-hot), then logistic regression
    "rte-logreg": _tree(
        lambda s: Pipeline(
            [
                ("embed", RandomTreesEmbedding(n_estimators=20, max_depth=3, sparse_output=False,
                                               n_jobs=1, random_state=s)),
                ("logreg", _logreg(1.0, s)),
            ]
        )
    ),
    # logistic regression with C chosen by an internal unshuffled stratified 3-fold CV on the log
    # loss (continuous: no ties between the Cs), Newton's method as in _logreg
    "logregcv": _linear(
        lambda s: LogisticRegressionCV(
            Cs=(0.01, 0.1, 1.0, 10.0, 100.0), l1_ratios=(0.0,), cv=3, scoring="neg_log_loss",
            solver="newton-cholesky", tol=1e-10, max_iter=200, use_legacy_attributes=False,
            random_state=s,
        )
    ),
    # every feature mapped through its empirical quantiles to a normal score, then logistic regression
    "quantile-logreg": _tree(
        lambda s: Pipeline(
            [
                ("quantile", QuantileTransformer(n_quantiles=100, output_distribution="normal",
                                                 random_state=s)),
                ("logreg", _logreg(1.0, s)),
            ]
        )
    ),
    # random Fourier features, then ridge (not Nystroem's: its K^-1/2 moved rbf scores of keel-flare-F by
    # 1e-10 between machines, enough to reorder near-ties)
    "rff-ridge": _linear(
        lambda s: Pipeline(
            [
                ("rff", RBFSampler(gamma=0.1, n_components=200, random_state=s)),
                ("ridge", RidgeClassifier(alpha=1.0, solver="cholesky")),
            ]
        )
    ),
    # random subspaces of naive Bayes: each of 10 models on half of the features, all rows
    "bagging-gnb-10": _linear(
        lambda s: BaggingClassifier(
            GaussianNB(), n_estimators=10, max_samples=1.0, bootstrap=False, max_features=0.5,
            n_jobs=1, random_state=s,
        )
    ),
    # AdaBoost (SAMME, weights rounded: RoundedAdaBoostClassifier) of logistic regressions: the boosting
    # reads only their predicted classes, and each fit is Newton's optimum
    "adaboost-logreg-20": _linear(
        lambda s: RoundedAdaBoostClassifier(_logreg(1.0, s), n_estimators=20, random_state=s)
    ),
}
