"""The local learner panel: 30 scikit-learn models, the local analogue of 30 OpenML flows.

Flach and Kull (NIPS 2015, section 5) rank the models of 30 OpenML flows on each task.
Offline we make those models ourselves: :data:`LEARNERS` maps a stable name to a
factory ``factory(seed) -> Pipeline`` that returns an *unfitted* pipeline with the
preprocessing inside it (impute, one-hot encode, scale where the model needs it), so
that cross-validation never leaks test rows into the preprocessing.

The default panel (:data:`DEFAULT_PANEL`) holds 30 distinct methods, as distinct as
OpenML flows (no two differ only in a hyperparameter): linear models (logistic
regression, linear SVM, ridge, SGD with the modified Huber loss, perceptron,
passive-aggressive), probabilistic models (Gaussian, Bernoulli and complement naive
Bayes, LDA and QDA with shrinkage), nearest neighbours, bagged nearest neighbours and
nearest centroid, single trees (CART, extremely randomised), tree ensembles (random
forest, extra trees, bagging, AdaBoost, gradient boosting, histogram gradient boosting;
since issue 60 of 10 trees or rounds each), soft voting, stacking, kernel methods (RBF SVM,
random Fourier features + logistic regression), an additive spline model, PCA + logistic regression, a neural network and
isotonic-calibrated naive Bayes.
:func:`learner_family` names each one's method family (21 in the panel).  The first
panel's hyperparameter variants stay available by name, and so do the learners issue 60 replaced
by cheaper ones of the same methods (``rf-50``, ``extratrees-50``, ``bagging-tree-20``,
``adaboost-50``, ``gboost-50``, ``histgb-50``, ``stack-lr``, ``mlp-16``, ``bagging-knn-10``: now
``rf-10``, ``extratrees-10``, ``bagging-tree-10``, ``adaboost-10``, ``gboost-10``, ``histgb-10``,
``stack-gnb-tree-lr``, ``mlp-16-e10``, ``bagging-knn-5``; each name says its trees, rounds, epochs or
models), so that the panel's predictions cost less than half the CPU
(``benchmarks/bench_panel_cpu.py``, ``docs/local.md``).  The pool (panel ``"pool"``,
:data:`prspace.core.panels.POOL_PANEL`) adds 15 further distinct methods to the 30 (another
estimator class or pipeline structure each: ridge and logistic regression with an internal
choice of penalty, multinomial and categorical naive Bayes, quantile bins, a univariate filter, a
random projection, bagged linear and naive Bayes models, boosted logistic regression, a calibrated
tree, random-trees embedding, a quantile transform and two kernel approximations), from
which the panel-draws study draws 30 per task (``config/panel-pool.yaml``).  ``SVC(probability=True)`` is
avoided (it runs an internal 5-fold CV).

Determinism (issue 14): every model is closed-form, converged far below the scores'
rounding, or runs a fixed number of iterations without a stopping test; numeric
features are rounded to :data:`SCORE_DIGITS` significant digits in the pipeline
(:func:`quantize`) and scores at the end (:func:`round_scores`), so last-bit
differences between machines (BLAS kernels, SIMD loops, threads) cannot reorder or
untie scores.  ``tests/local/test_determinism.py`` checks it; ``docs/local.md`` explains.

Every model is seeded through ``seed`` and runs single-threaded (``n_jobs=1``): the
workflow parallelises across datasets.  Scores come from :func:`~prspace.local.pipeline.score_of`:
``predict_proba[:, positive]`` when the model has it, else ``decision_function``,
rounded by :func:`round_scores`.

Names are part of the predictions (``model_id = flow_id = name``): never rename one;
add a new name instead.

The names, families and panels (no scikit-learn) live in :mod:`prspace.core.panels` and are
re-exported here; what the pipelines share lives in :mod:`prspace.local.pipeline`.

One module of over 400 lines on purpose: every panel learner's factory in one table, so that a name's model
is read in one place; the pool's further learners are in :mod:`prspace.local.pool` (appended to
:data:`LEARNERS` in the order of the names), so that neither module passes 500 lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from sklearn.calibration import CalibratedClassifierCV
from sklearn.decomposition import PCA
from sklearn.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)
from sklearn.ensemble import (
    BaggingClassifier,
    ExtraTreesClassifier,
    GradientBoostingClassifier,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
    StackingClassifier,
    VotingClassifier,
)
from sklearn.kernel_approximation import Nystroem, RBFSampler
from sklearn.linear_model import (
    LogisticRegression,
    Perceptron,
    RidgeClassifier,
    SGDClassifier,
)
from sklearn.naive_bayes import BernoulliNB, ComplementNB, GaussianNB
from sklearn.neighbors import NearestCentroid
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import (
    FunctionTransformer,
    SplineTransformer,
    StandardScaler,
)
from sklearn.svm import SVC, LinearSVC
from sklearn.tree import DecisionTreeClassifier, ExtraTreeClassifier

from prspace.core.errors import InputError
from prspace.core.panels import (
    DEFAULT_PANEL,
    FAMILIES,
    LEARNER_NAMES,
    PANELS,
    POOL_PANEL,
    learner_family,
    learner_names,
    parse_learners,
)
from prspace.data.dataset import MAX_CATEGORIES
from prspace.local.pipeline import (
    SCORE_DIGITS,
    ExactKNeighborsClassifier,
    RoundedAdaBoostClassifier,
    RoundedGaussianNB,
    _linear,
    _logreg,
    _minmax,
    _tree,
    preprocessor,
    quantize,
    round_scores,
    score_of,
)
from prspace.local.pool import POOL_LEARNERS

#: the pipeline's names (:mod:`prspace.local.pipeline`) and the panel's (:mod:`prspace.core.panels`) are re-exported
__all__ = [
    "DEFAULT_PANEL",
    "ExactKNeighborsClassifier",
    "MAX_CATEGORIES",
    "FAMILIES",
    "LEARNERS",
    "LEARNER_NAMES",
    "PANELS",
    "POOL_PANEL",
    "SCORE_DIGITS",
    "describe_learner",
    "learner_family",
    "learner_names",
    "make_learner",
    "parse_learners",
    "preprocessor",
    "quantize",
    "round_scores",
    "score_of",
]

#: epochs of the neural network (fixed: see "mlp-16")
MLP_EPOCHS = 60


#: name -> factory(seed) returning an unfitted Pipeline.  Names are stable ids: a name
#: is never renamed nor given to another method; solver settings may change (so that
#: every model converges, see "Determinism" in the module docstring).
LEARNERS: dict[str, Callable[[int], Pipeline]] = {
    # --- linear models ---------------------------------------------------------------
    "logreg-C0.01": _linear(lambda s: _logreg(0.01, s)),
    "logreg-C0.1": _linear(lambda s: _logreg(0.1, s)),
    "logreg-C1": _linear(lambda s: _logreg(1.0, s)),
    "logreg-C100": _linear(lambda s: _logreg(100.0, s)),
    "logreg-l1-C0.1": _linear(
        lambda s: LogisticRegression(
            C=0.1, l1_ratio=1.0, solver="liblinear", tol=1e-8, max_iter=5000, random_state=s
        )
    ),
    # the primal trust-region Newton solver of liblinear: the same optimum as the
    # (default) dual coordinate descent, reached to a tight tolerance in a few iterations
    "linsvm-C0.01": _linear(
        lambda s: LinearSVC(C=0.01, dual=False, tol=1e-8, max_iter=1000, random_state=s)
    ),
    "linsvm-C1": _linear(
        lambda s: LinearSVC(C=1.0, dual=False, tol=1e-8, max_iter=1000, random_state=s)
    ),
    "ridge-a1": _linear(lambda s: RidgeClassifier(alpha=1.0, solver="cholesky")),
    "ridge-a100": _linear(lambda s: RidgeClassifier(alpha=100.0, solver="cholesky")),
    # stochastic gradient methods: a fixed number of epochs (tol=None), so no stopping
    # test can flip on last-bit noise, and a gentle step schedule (invscaling: the
    # "optimal" schedule's first steps of 1 / (alpha t0) amplify a 1e-12 change of the
    # data into another model)
    "sgd-hinge": _linear(
        lambda s: SGDClassifier(
            loss="hinge", alpha=1e-3, learning_rate="invscaling", eta0=0.01, max_iter=50,
            tol=None, random_state=s,
        )
    ),
    "sgd-modhuber": _linear(
        lambda s: SGDClassifier(
            loss="modified_huber", alpha=1e-3, learning_rate="invscaling", eta0=0.01,
            max_iter=50, tol=None, random_state=s,
        )
    ),
    "perceptron": _linear(
        lambda s: Perceptron(penalty="l2", alpha=1e-4, max_iter=30, tol=None, random_state=s)
    ),
    "passive-aggressive": _linear(
        lambda s: SGDClassifier(
            loss="hinge", penalty=None, learning_rate="pa1", eta0=0.1, max_iter=30, tol=None,
            random_state=s,
        )
    ),
    # --- probabilistic / discriminant models ------------------------------------------
    "gnb": _linear(lambda s: GaussianNB()),
    "bnb": _linear(lambda s: BernoulliNB(alpha=1.0, binarize=0.0)),
    "cnb": _minmax(lambda s: ComplementNB(alpha=1.0)),
    "lda-shrinkage": _linear(lambda s: LinearDiscriminantAnalysis(solver="lsqr", shrinkage="auto")),
    # fixed shrinkage towards a scaled identity: with reg_param (svd solver) scikit-learn
    # 1.9 refuses a class with fewer examples than features, and Ledoit-Wolf ("auto")
    # shrinks too little when a feature is constant within a class (3 of the 61 default
    # datasets failed with either)
    "qda-shrink0.5": _linear(
        lambda s: QuadraticDiscriminantAnalysis(solver="eigen", shrinkage=0.5)
    ),
    # --- instance-based models --------------------------------------------------------
    # exact distances (see ExactKNeighborsClassifier)
    "knn-5": _linear(lambda s: ExactKNeighborsClassifier(5)),
    "knn-15": _linear(lambda s: ExactKNeighborsClassifier(15)),
    "knn-45-distance": _linear(lambda s: ExactKNeighborsClassifier(45, weights="distance")),
    "nearest-centroid": _linear(lambda s: NearestCentroid()),
    # --- trees ------------------------------------------------------------------------
    "tree-depth2": _tree(lambda s: DecisionTreeClassifier(max_depth=2, random_state=s)),
    "tree-depth5": _tree(lambda s: DecisionTreeClassifier(max_depth=5, random_state=s)),
    "tree-leaf5": _tree(lambda s: DecisionTreeClassifier(min_samples_leaf=5, random_state=s)),
    "extra-tree": _tree(lambda s: ExtraTreeClassifier(min_samples_leaf=5, random_state=s)),
    # --- ensembles --------------------------------------------------------------------
    "rf-50": _tree(lambda s: RandomForestClassifier(n_estimators=50, n_jobs=1, random_state=s)),
    "extratrees-50": _tree(
        lambda s: ExtraTreesClassifier(n_estimators=50, n_jobs=1, random_state=s)
    ),
    "bagging-tree-20": _tree(
        lambda s: BaggingClassifier(
            DecisionTreeClassifier(max_depth=8), n_estimators=20, n_jobs=1, random_state=s
        )
    ),
    "adaboost-50": _tree(
        lambda s: RoundedAdaBoostClassifier(n_estimators=50, random_state=s)
    ),
    "gboost-50": _tree(
        lambda s: GradientBoostingClassifier(n_estimators=50, max_depth=3, random_state=s)
    ),
    "histgb-50": _tree(
        lambda s: HistGradientBoostingClassifier(
            max_iter=50, early_stopping=False, random_state=s
        )
    ),
    "vote-soft": _linear(
        lambda s: VotingClassifier(
            [
                ("logreg", _logreg(1.0, s)),
                ("gnb", GaussianNB()),
                ("tree", DecisionTreeClassifier(max_depth=5, random_state=s)),
            ],
            voting="soft",
            n_jobs=1,
        )
    ),
    # stacking: out-of-fold probabilities of three methods (internal unshuffled
    # stratified 3-fold CV), combined by a logistic regression
    "stack-lr": _linear(
        lambda s: StackingClassifier(
            [
                ("gnb", GaussianNB()),
                ("tree", DecisionTreeClassifier(max_depth=5, random_state=s)),
                ("knn", ExactKNeighborsClassifier(15)),
            ],
            final_estimator=_logreg(1.0, s),
            cv=3,
            n_jobs=1,
        )
    ),
    "bagging-knn-10": _linear(
        lambda s: BaggingClassifier(
            ExactKNeighborsClassifier(5), n_estimators=10, max_samples=0.5, n_jobs=1,
            random_state=s,
        )
    ),
    # --- kernel and neural models -----------------------------------------------------
    "svm-rbf-C1": _linear(
        lambda s: SVC(C=1.0, kernel="rbf", gamma="scale", tol=1e-5, random_state=s)
    ),
    "svm-poly2": _linear(
        lambda s: SVC(C=1.0, kernel="poly", degree=2, gamma="scale", coef0=1.0, tol=1e-5,
                      random_state=s)
    ),
    "rff-logreg": _linear(
        lambda s: Pipeline(
            [
                ("rff", RBFSampler(gamma=0.1, n_components=200, random_state=s)),
                ("logreg", _logreg(1.0, s)),
            ]
        )
    ),
    "nystroem-linsvm": _linear(
        lambda s: Pipeline(
            [
                ("nystroem", Nystroem(kernel="laplacian", gamma=0.1, n_components=100,
                                      random_state=s)),
                ("linsvm", LinearSVC(C=1.0, dual=False, tol=1e-8, max_iter=1000,
                                     random_state=s)),
            ]
        )
    ),
    # an additive model: cubic B-splines per feature (knots uniform between the training
    # minimum and maximum), then L2 logistic regression
    "spline-logreg": _linear(
        lambda s: Pipeline(
            [
                ("splines", SplineTransformer(n_knots=4, degree=3)),
                ("logreg", _logreg(1.0, s)),
            ]
        )
    ),
    "pca-logreg": _linear(
        lambda s: Pipeline(
            [
                ("pca", PCA(n_components=0.9, svd_solver="full")),
                ("logreg", _logreg(1.0, s)),
            ]
        )
    ),
    # a fixed number of epochs of Adam (tol=0 and a patience longer than the run: no
    # stopping test that last-bit noise could flip); L-BFGS stopped by its tolerances
    # (the first panel: max_iter=100) turns last-bit differences into other models
    "mlp-16": _linear(
        lambda s: MLPClassifier(
            hidden_layer_sizes=(16,), solver="adam", alpha=1e-3, learning_rate_init=3e-3,
            max_iter=MLP_EPOCHS, tol=0.0, n_iter_no_change=MLP_EPOCHS + 1, random_state=s,
        )
    ),
    # --- calibrated models ------------------------------------------------------------
    # isotonic calibration (pool adjacent violators: no optimiser) averaged over the
    # 3 models of an internal unshuffled stratified 3-fold CV; fitted on naive Bayes'
    # log-odds rounded to SCORE_DIGITS (RoundedGaussianNB: the same on every machine)
    "gnb-isotonic": _linear(
        lambda s: CalibratedClassifierCV(RoundedGaussianNB(), method="isotonic", cv=3)
    ),
    "linsvm-isotonic": _linear(
        lambda s: CalibratedClassifierCV(
            LinearSVC(C=1.0, dual=False, tol=1e-8, max_iter=1000, random_state=s),
            method="isotonic", cv=3,
        )
    ),
}

#: the pool's further methods (:data:`prspace.core.panels.POOL_EXTRA`, built in :mod:`prspace.local.pool`),
#: then the default panel's cheaper ensembles, stacking and network (issue 60), in the order of
#: :data:`prspace.core.panels.LEARNER_NAMES`
LEARNERS.update(POOL_LEARNERS)
LEARNERS.update({
    # --- the default panel's cheaper ensembles and network (issue 60) ------------------
    # the same methods as rf-50, extratrees-50, bagging-tree-20, adaboost-50, gboost-50, histgb-50,
    # mlp-16 and bagging-knn-10 with fewer trees, rounds, epochs or models (each name says how many), so
    # that the panel's predictions cost at most half the CPU (benchmarks/bench_panel_cpu.py); the boosting
    # and the network take larger steps to make up for fewer of them
    "rf-10": _tree(lambda s: RandomForestClassifier(n_estimators=10, n_jobs=1, random_state=s)),
    "extratrees-10": _tree(
        lambda s: ExtraTreesClassifier(n_estimators=10, n_jobs=1, random_state=s)
    ),
    "bagging-tree-10": _tree(
        lambda s: BaggingClassifier(
            DecisionTreeClassifier(max_depth=8), n_estimators=10, n_jobs=1, random_state=s
        )
    ),
    "adaboost-10": _tree(lambda s: RoundedAdaBoostClassifier(n_estimators=10, random_state=s)),
    "gboost-10": _tree(
        lambda s: GradientBoostingClassifier(
            n_estimators=10, learning_rate=0.3, max_depth=3, random_state=s
        )
    ),
    "histgb-10": _tree(
        lambda s: HistGradientBoostingClassifier(
            max_iter=10, learning_rate=0.3, early_stopping=False, random_state=s
        )
    ),
    # as mlp-16 (a fixed number of Adam epochs, no stopping test), 10 epochs at a larger step
    "mlp-16-e10": _linear(
        lambda s: MLPClassifier(
            hidden_layer_sizes=(16,), solver="adam", alpha=1e-3, learning_rate_init=1e-2,
            max_iter=10, tol=0.0, n_iter_no_change=11, random_state=s,
        )
    ),
    # stacking as stack-lr without its k-NN (the k-NN's neighbour searches were most of its CPU)
    "stack-gnb-tree-lr": _linear(
        lambda s: StackingClassifier(
            [
                ("gnb", GaussianNB()),
                ("tree", DecisionTreeClassifier(max_depth=5, random_state=s)),
            ],
            final_estimator=_logreg(1.0, s),
            cv=3,
            n_jobs=1,
        )
    ),
    "bagging-knn-5": _linear(
        lambda s: BaggingClassifier(
            ExactKNeighborsClassifier(5), n_estimators=5, max_samples=0.5, n_jobs=1,
            random_state=s,
        )
    ),
})


def make_learner(name: str, seed: int) -> Pipeline:
    """An unfitted pipeline for learner ``name``, seeded with ``seed``."""
    try:
        factory = LEARNERS[name]
    except KeyError:
        raise InputError(
            f"unknown learner {name!r}; known: {', '.join(LEARNERS)}"
        ) from None
    return factory(int(seed))


_WS = re.compile(r"\s+")


def _prep_parts(est) -> Iterator[object]:
    """Every estimator and function inside a preprocessing step (pipelines' steps, column
    transformers' transformers, function transformers' functions), ``est`` first."""
    yield est
    if isinstance(est, FunctionTransformer):
        yield est.func
    for _, part, *_ in getattr(est, "steps", None) or getattr(est, "transformers", None) or ():
        yield from _prep_parts(part)


def describe_learner(name: str) -> str:
    """A readable description for ``flow_name``: the model's repr with its non-default
    parameters (seed excluded, so the description does not change with the seed), then the
    preprocessing steps (read from the pipeline's parts: printing them costs a predict job
    0.15 CPU-s)."""
    pipe = make_learner(name, 0)
    text = _WS.sub(" ", repr(pipe.named_steps["model"]))
    text = re.sub(r",? ?random_state=0", "", text).replace("(, ", "(")
    prep = list(_prep_parts(pipe.named_steps["prep"]))
    steps = ["impute", "quantize" if quantize in prep else "", "one-hot",
             "scale" if any(isinstance(p, StandardScaler) for p in prep) else "",
             "min-max" if "minmax" in pipe.named_steps else ""]
    return f"{text} after {', '.join(s for s in steps if s)}"


