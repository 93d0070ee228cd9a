"""The scikit-learn scorers (prspace.metrics.sklearn_scorers) run in cross_validate and equal the metric
computed by hand on each test fold, for predict_proba and decision_function models and string labels."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from prspace.metrics import aucnpr, aupr, auprg, get_scorer, get_scorer_names, scorers

METRICS = {"auprg": auprg, "aucnpr": aucnpr, "aupr": aupr}


@pytest.fixture(scope="module")
def data():
    X, t = load_breast_cancer(return_X_y=True)
    return X[:, [1, 8, 9]], (t == 0).astype(int)  # weak features, malignant positive


def _by_hand(cv, X, y, response):
    out = {m: [] for m in METRICS}
    for est, test in zip(cv["estimator"], cv["indices"]["test"], strict=True):
        s = getattr(est, response)(X[test])
        s = s[:, 1] if s.ndim == 2 else s
        for m, fn in METRICS.items():
            out[m].append(fn(y[test], s))
    return out


@pytest.mark.parametrize(("model", "response"), [(GaussianNB(), "predict_proba"),
                                                  (make_pipeline(StandardScaler(), LinearSVC()), "decision_function"),
                                                  (make_pipeline(StandardScaler(), LogisticRegression()),
                                                   "decision_function")])
def test_scorers_equal_the_metric_on_each_fold(data, model, response):
    X, y = data
    cv = cross_validate(model, X, y, cv=StratifiedKFold(4, shuffle=True, random_state=0), scoring=scorers(),
                        return_estimator=True, return_indices=True, error_score="raise")
    hand = _by_hand(cv, X, y, response)
    for m in METRICS:
        np.testing.assert_allclose(cv[f"test_{m}"], hand[m], rtol=0, atol=1e-12)
        assert 0.0 < min(hand[m]) < max(hand[m]) < 1.0  # a real, non-degenerate score on every fold


def test_string_labels_need_pos_label_and_pick_its_column(data):
    X, y = data
    names = np.where(y == 1, "malignant", "benign")
    folds = StratifiedKFold(3, shuffle=True, random_state=1)
    scoring = {"auprg": get_scorer("auprg", pos_label="malignant"), "aupr": get_scorer("aupr", pos_label="malignant")}
    cv = cross_validate(GaussianNB(), X, names, cv=folds, scoring=scoring, error_score="raise")
    ref = cross_validate(GaussianNB(), X, y, cv=folds, scoring=scorers(), error_score="raise")
    np.testing.assert_allclose(cv["test_auprg"], ref["test_auprg"], atol=1e-12)
    np.testing.assert_allclose(cv["test_aupr"], ref["test_aupr"], atol=1e-12)
    # benign positive: the other column of predict_proba and the other class
    benign = cross_validate(GaussianNB(), X, names, cv=folds, scoring=get_scorer("aupr", pos_label="benign"),
                            return_estimator=True, return_indices=True, error_score="raise")
    est, test = benign["estimator"][0], benign["indices"]["test"][0]
    p = est.predict_proba(X[test])[:, list(est.classes_).index("benign")]
    assert benign["test_score"][0] == pytest.approx(aupr(names[test], p, pos_label="benign"), abs=1e-12)


def test_a_scorer_selects_in_grid_search_and_takes_metric_keywords(data):
    X, y = data
    half = get_scorer("aupr", recall_range=(0.0, 0.5))
    search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, scoring=half, cv=3).fit(X, y)
    assert search.best_score_ == pytest.approx(np.max(search.cv_results_["mean_test_score"]))
    assert 0 < search.best_score_ <= 0.5  # an area over recall [0, 0.5]


def test_unknown_scorer_lists_the_names():
    assert get_scorer_names() == ["aucnpr", "aupr", "auprg"]
    with pytest.raises(ValueError, match="unknown scorer 'auc'; choose one of aucnpr, aupr, auprg"):
        get_scorer("auc")
