"""The local learner panel: 30 scikit-learn models, the local analogue of 30 OpenML flows.

Flach and Kull (NIPS 2015, section 5) rank the models of 30 OpenML flows on each task.
Offline we make those models ourselves: :data:`LEARNERS` maps a stable name to a
factory ``factory(seed) -> Pipeline`` that returns an *unfitted* pipeline with the
preprocessing inside it (impute, one-hot encode, scale where the model needs it), so
that cross-validation never leaks test rows into the preprocessing.

The panel spans the families of the OpenML study: linear models (logistic regression
at several C, linear SVM, ridge, SGD), probabilistic models (Gaussian and Bernoulli
naive Bayes, LDA and QDA with shrinkage), instance-based models (k nearest neighbours at
several k, nearest centroid), trees at several depths, tree ensembles (random forest,
extra trees, bagging, AdaBoost, gradient boosting, histogram gradient boosting), an
RBF support vector machine and a small neural network.  Sizes are modest so the whole
default suite x 30 learners x 10 folds runs in minutes on two cores (see
``docs/local.md``); ``SVC(probability=True)`` is avoided (it runs an internal 5-fold CV).

Every model is seeded through ``seed`` and runs single-threaded (``n_jobs=1``): the
workflow parallelises across datasets.  Scores come from :func:`score_of`:
``predict_proba[:, positive]`` when the model has it, else ``decision_function``.

Names are part of the predictions (``model_id = flow_id = name``): never rename one;
add a new name instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
from sklearn.compose import ColumnTransformer, make_column_selector
from sklearn.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)
from sklearn.ensemble import (
    AdaBoostClassifier,
    BaggingClassifier,
    ExtraTreesClassifier,
    GradientBoostingClassifier,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
)
from sklearn.feature_selection import VarianceThreshold
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression, RidgeClassifier, SGDClassifier
from sklearn.naive_bayes import BernoulliNB, GaussianNB
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.svm import SVC, LinearSVC
from sklearn.tree import DecisionTreeClassifier

from prspace.errors import InputError

__all__ = [
    "LEARNERS",
    "PANELS",
    "describe_learner",
    "learner_names",
    "make_learner",
    "parse_learners",
    "preprocessor",
    "score_of",
]

#: one-hot encoding keeps at most this many categories per column (the rest -> "infrequent")
MAX_CATEGORIES = 20


def preprocessor(*, scale: bool) -> ColumnTransformer:
    """Impute, one-hot encode categorical columns, drop constant columns, optionally scale.

    Numeric columns: median imputation (+ standardisation if ``scale``). Other
    columns (strings, categories, booleans): most-frequent imputation and one-hot
    encoding of at most :data:`MAX_CATEGORIES` categories (unknown categories in a
    test fold are encoded as all zeros).
    """
    numeric = [SimpleImputer(strategy="median", keep_empty_features=True)]
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


#: name -> factory(seed) returning an unfitted Pipeline.  Names are stable ids.
LEARNERS: dict[str, Callable[[int], Pipeline]] = {
    # --- linear models ---------------------------------------------------------------
    "logreg-C0.01": _linear(lambda s: LogisticRegression(C=0.01, max_iter=500, random_state=s)),
    "logreg-C0.1": _linear(lambda s: LogisticRegression(C=0.1, max_iter=500, random_state=s)),
    "logreg-C1": _linear(lambda s: LogisticRegression(C=1.0, max_iter=500, random_state=s)),
    "logreg-C100": _linear(lambda s: LogisticRegression(C=100.0, max_iter=1000, random_state=s)),
    "logreg-l1-C0.1": _linear(
        lambda s: LogisticRegression(
            C=0.1, l1_ratio=1.0, solver="liblinear", max_iter=500, random_state=s
        )
    ),
    "linsvm-C0.01": _linear(lambda s: LinearSVC(C=0.01, max_iter=2000, random_state=s)),
    "linsvm-C1": _linear(lambda s: LinearSVC(C=1.0, max_iter=2000, random_state=s)),
    "ridge-a1": _linear(lambda s: RidgeClassifier(alpha=1.0)),
    "ridge-a100": _linear(lambda s: RidgeClassifier(alpha=100.0)),
    "sgd-hinge": _linear(
        lambda s: SGDClassifier(loss="hinge", alpha=1e-3, max_iter=200, tol=1e-3, random_state=s)
    ),
    "sgd-modhuber": _linear(
        lambda s: SGDClassifier(
            loss="modified_huber", alpha=1e-3, max_iter=200, tol=1e-3, random_state=s
        )
    ),
    # --- probabilistic / discriminant models ------------------------------------------
    "gnb": _linear(lambda s: GaussianNB()),
    "bnb": _linear(lambda s: BernoulliNB(alpha=1.0, binarize=0.0)),
    "lda-shrinkage": _linear(lambda s: LinearDiscriminantAnalysis(solver="lsqr", shrinkage="auto")),
    # fixed shrinkage towards a scaled identity: with reg_param (svd solver) scikit-learn
    # 1.9 refuses a class with fewer examples than features, and Ledoit-Wolf ("auto")
    # shrinks too little when a feature is constant within a class (3 of the 61 default
    # datasets failed with either)
    "qda-shrink0.5": _linear(
        lambda s: QuadraticDiscriminantAnalysis(solver="eigen", shrinkage=0.5)
    ),
    # --- instance-based models --------------------------------------------------------
    "knn-5": _linear(lambda s: KNeighborsClassifier(n_neighbors=5)),
    "knn-15": _linear(lambda s: KNeighborsClassifier(n_neighbors=15)),
    "knn-45-distance": _linear(lambda s: KNeighborsClassifier(n_neighbors=45, weights="distance")),
    "nearest-centroid": _linear(lambda s: NearestCentroid()),
    # --- trees ------------------------------------------------------------------------
    "tree-depth2": _tree(lambda s: DecisionTreeClassifier(max_depth=2, random_state=s)),
    "tree-depth5": _tree(lambda s: DecisionTreeClassifier(max_depth=5, random_state=s)),
    "tree-leaf5": _tree(lambda s: DecisionTreeClassifier(min_samples_leaf=5, random_state=s)),
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
    "adaboost-50": _tree(lambda s: AdaBoostClassifier(n_estimators=50, random_state=s)),
    "gboost-50": _tree(
        lambda s: GradientBoostingClassifier(n_estimators=50, max_depth=3, random_state=s)
    ),
    "histgb-50": _tree(
        lambda s: HistGradientBoostingClassifier(
            max_iter=50, early_stopping=False, random_state=s
        )
    ),
    # --- kernel and neural models -----------------------------------------------------
    "svm-rbf-C1": _linear(lambda s: SVC(C=1.0, kernel="rbf", gamma="scale", random_state=s)),
    "mlp-16": _linear(
        lambda s: MLPClassifier(
            hidden_layer_sizes=(16,), solver="lbfgs", alpha=1e-3, max_iter=100, random_state=s
        )
    ),
}

#: named panels; "default" is the whole panel, "small" a few fast learners of different
#: families (for tests and the downsampling experiment).
PANELS: dict[str, tuple[str, ...]] = {
    "default": tuple(LEARNERS),
    "small": ("logreg-C1", "gnb", "knn-15", "tree-depth5"),
}


def learner_names(panel: str = "default") -> list[str]:
    """The learner names of a named panel (``"default"``: all 30, ``"small"``: 4 fast ones)."""
    try:
        return list(PANELS[panel])
    except KeyError:
        raise InputError(
            f"unknown learner panel {panel!r}; choose one of {', '.join(PANELS)} "
            "or give learner names separated by commas"
        ) from None


def parse_learners(spec: str) -> list[str]:
    """``"default"``, ``"small"`` or ``"name1,name2,..."`` -> learner names (validated)."""
    spec = spec.strip()
    if spec in PANELS:
        return learner_names(spec)
    names = [s.strip() for s in spec.split(",") if s.strip()]
    if not names:
        raise InputError("no learners given; use --learners default, small or name1,name2,...")
    unknown = [n for n in names if n not in LEARNERS]
    if unknown:
        raise InputError(
            f"unknown learner(s) {', '.join(unknown)}; known: {', '.join(LEARNERS)} "
            f"(or a panel: {', '.join(PANELS)})"
        )
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise InputError(f"learner(s) {', '.join(dup)} given more than once; list each once")
    return names


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


def describe_learner(name: str) -> str:
    """A readable description for ``flow_name``: the model's repr with its non-default
    parameters (seed excluded, so the description does not change with the seed)."""
    model = make_learner(name, 0).named_steps["model"]
    text = _WS.sub(" ", repr(model))
    text = re.sub(r",? ?random_state=0", "", text).replace("(, ", "(")
    scaled = ", scale" if "scaler" in repr(make_learner(name, 0).named_steps["prep"]).lower() else ""
    return f"{text} after impute, one-hot{scaled}"


def score_of(estimator, X, *, positive=True) -> np.ndarray:
    """Scores of a fitted classifier for the positive class, float64, higher = more positive.

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
            return np.asarray(proba, dtype=np.float64)[:, k]
    scores = np.asarray(estimator.decision_function(X), dtype=np.float64)
    if scores.ndim == 2:
        return scores[:, k]
    if len(classes) != 2:
        raise ValueError("decision_function gave one column for a non-binary problem")
    return scores if k == 1 else -scores
