"""The local learner panel: 30 named, seeded, single-threaded pipelines that score."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

from prspace.errors import InputError
from prspace.sources.learners import (
    LEARNERS,
    PANELS,
    describe_learner,
    learner_names,
    make_learner,
    parse_learners,
    score_of,
)


@pytest.fixture(autouse=True)
def one_thread():
    """As in prspace.sources.local: BLAS/OpenMP pools of one thread (on a loaded
    machine, OpenMP threads of HistGradientBoosting otherwise spin for seconds)."""
    with threadpool_limits(1):
        yield


@pytest.fixture(scope="module")
def mixed_data():
    """Real features (breast cancer, shipped with scikit-learn) plus a categorical
    column and missing values, so the preprocessing inside each pipeline is exercised."""
    data = load_breast_cancer(as_frame=True)
    rng = np.random.default_rng(0)
    X = data.data.iloc[:, :6].copy()
    X.columns = [f"f{i}" for i in range(6)]
    X["colour"] = rng.choice(["red", "green", "blue"], size=len(X)).astype(object)
    X.loc[rng.random(len(X)) < 0.05, "f0"] = np.nan
    X.loc[rng.random(len(X)) < 0.05, "colour"] = np.nan
    y = (data.target == 0).to_numpy()  # malignant, the minority (212 of 569)
    return X.iloc[::2].reset_index(drop=True), y[::2]


def test_panel_has_30_stable_names():
    names = learner_names("default")
    assert len(names) == 30 == len(set(names)) == len(LEARNERS)
    small = learner_names("small")
    assert 3 <= len(small) <= 5 and set(small) <= set(names)
    assert all(n.replace("-", "").replace(".", "").isalnum() for n in names)


def test_factories_return_unfitted_single_threaded_pipelines():
    for name in LEARNERS:
        est = make_learner(name, 3)
        assert isinstance(est, Pipeline)
        assert not hasattr(est.named_steps["model"], "classes_")
        params = est.get_params()
        for key, value in params.items():
            if key.endswith("n_jobs"):
                assert value in (None, 1), (name, key, value)
            if key.endswith("random_state") and key.startswith("model"):
                assert value in (None, 3), (name, key, value)
        # flow_name: readable and seed-free
        text = describe_learner(name)
        assert "random_state" not in text and len(text) < 200


@pytest.mark.parametrize("name", list(LEARNERS))
def test_every_learner_scores_mixed_data(name, mixed_data):
    X, y = mixed_data
    train, test = np.arange(len(y)) % 3 != 0, np.arange(len(y)) % 3 == 0
    est = make_learner(name, 0).fit(X[train], y[train])
    s = score_of(est, X[test])
    assert s.dtype == np.float64 and s.shape == (int(test.sum()),)
    assert np.all(np.isfinite(s))
    # every learner of the panel does better than chance on this easy real task
    from sklearn.metrics import roc_auc_score

    assert roc_auc_score(y[test], s) > 0.7, name
    # seeded: the same seed gives the same scores
    s2 = score_of(make_learner(name, 0).fit(X[train], y[train]), X[test])
    np.testing.assert_array_equal(s, s2)


def test_score_of_uses_predict_proba_column_of_positive_class(mixed_data):
    X, y = mixed_data
    X = X.drop(columns="colour").fillna(0.0)
    lr = LogisticRegression(max_iter=1000).fit(X, y)
    np.testing.assert_array_equal(score_of(lr, X), lr.predict_proba(X)[:, 1])
    np.testing.assert_array_equal(score_of(lr, X, positive=False), lr.predict_proba(X)[:, 0])


def test_score_of_decision_function_sign(mixed_data):
    X, y = mixed_data
    X = X.drop(columns="colour").fillna(0.0)
    svm = LinearSVC(dual="auto").fit(X, y)
    d = svm.decision_function(X)
    np.testing.assert_array_equal(score_of(svm, X), d)
    np.testing.assert_array_equal(score_of(svm, X, positive=False), -d)
    # labels as strings: the positive class is named
    ys = np.where(y, "malignant", "benign")
    svm2 = clone(svm).fit(X, ys)
    assert list(svm2.classes_) == ["benign", "malignant"]
    np.testing.assert_array_equal(
        score_of(svm2, X, positive="malignant"), svm2.decision_function(X)
    )
    np.testing.assert_array_equal(score_of(svm2, X, positive="benign"), -svm2.decision_function(X))
    with pytest.raises(ValueError, match="not among"):
        score_of(svm2, X, positive="other")


def test_parse_learners():
    assert parse_learners("small") == list(PANELS["small"])
    assert parse_learners(" gnb, knn-5 ") == ["gnb", "knn-5"]
    with pytest.raises(InputError, match="unknown learner.*nope"):
        parse_learners("gnb,nope")
    with pytest.raises(InputError, match="more than once"):
        parse_learners("gnb,gnb")
    with pytest.raises(InputError, match="unknown learner panel"):
        learner_names("huge")
    with pytest.raises(InputError, match="unknown learner"):
        make_learner("nope", 0)


def test_categories_unseen_in_training_are_ignored(mixed_data):
    X, y = mixed_data
    X2 = X.copy()
    X2.loc[:10, "colour"] = "purple"  # a category never seen in training
    est = make_learner("logreg-C1", 0).fit(X.iloc[20:], y[20:])
    s = score_of(est, X2.iloc[:20])
    assert np.all(np.isfinite(s))
    assert isinstance(X2, pd.DataFrame)
