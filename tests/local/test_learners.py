"""The local learner panel: 30 distinct methods, named, seeded, single-threaded pipelines that score."""

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

from prspace.core.errors import InputError
from prspace.local.learners import (
    FAMILIES,
    LEARNERS,
    PANELS,
    SCORE_DIGITS,
    describe_learner,
    learner_family,
    learner_names,
    make_learner,
    parse_learners,
    quantize,
    round_scores,
    score_of,
)


@pytest.fixture(autouse=True)
def one_thread():
    """As in prspace.local.crossval: BLAS/OpenMP pools of one thread (on a loaded
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


#: the names of the first panel (results before issue 11 use them): never renamed
FIRST_PANEL = (
    "logreg-C0.01", "logreg-C0.1", "logreg-C1", "logreg-C100", "logreg-l1-C0.1",
    "linsvm-C0.01", "linsvm-C1", "ridge-a1", "ridge-a100", "sgd-hinge", "sgd-modhuber",
    "gnb", "bnb", "lda-shrinkage", "qda-shrink0.5", "knn-5", "knn-15", "knn-45-distance",
    "nearest-centroid", "tree-depth2", "tree-depth5", "tree-leaf5", "rf-50",
    "extratrees-50", "bagging-tree-20", "adaboost-50", "gboost-50", "histgb-50",
    "svm-rbf-C1", "mlp-16",
)


def test_panel_has_30_stable_names():
    names = learner_names("default")
    assert len(names) == 30 == len(set(names))
    assert set(FIRST_PANEL) <= set(LEARNERS) and set(names) <= set(LEARNERS)
    small = learner_names("small")
    assert 3 <= len(small) <= 5 and set(small) <= set(LEARNERS)
    assert all(n.replace("-", "").replace(".", "").isalnum() for n in LEARNERS)


def _method(est) -> tuple:
    """What makes a method: the classes of the pipeline's steps (nested), plus the loss and
    step schedule of a stochastic gradient learner; not its hyperparameter values."""
    from sklearn.base import BaseEstimator

    parts = [type(est).__name__]
    for key, value in sorted(est.get_params(deep=True).items()):
        if isinstance(value, BaseEstimator):
            parts.append(f"{key}:{type(value).__name__}")
        elif key.endswith(("loss", "learning_rate", "kernel", "voting", "method")) and isinstance(value, str):
            parts.append(f"{key}={value}")
    return tuple(parts)


def test_default_panel_is_30_distinct_methods():
    """No two learners of the default panel differ only in a hyperparameter (issue 11),
    and no method family holds more than a few of them."""
    names = learner_names("default")
    methods = {n: _method(make_learner(n, 0).named_steps["model"]) for n in names}
    seen: dict[tuple, str] = {}
    for n, m in methods.items():
        assert m not in seen, f"{n} and {seen[m]} are the same method: {m}"
        seen[m] = n
    # the first panel had 5 logistic regressions of one method: the check would catch them
    first = [_method(make_learner(n, 0).named_steps["model"]) for n in FIRST_PANEL]
    assert len(set(first)) < len(first)
    families = [learner_family(n) for n in names]
    assert max(families.count(f) for f in set(families)) <= 3
    assert len(set(families)) >= 18


def test_learner_family():
    assert set(FAMILIES) == set(LEARNERS)
    assert learner_family("logreg-C0.01") == learner_family("logreg-C100") == "logistic-regression"
    assert learner_family("knn-5") == learner_family("knn-45-distance")
    assert learner_family("rf-50") != learner_family("tree-leaf5")
    with pytest.raises(InputError, match="unknown learner"):
        learner_family("nope")


def test_round_scores_is_decimal_rounding():
    """Oracle: Python's correctly rounded formatting to SCORE_DIGITS significant digits."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal(2000) * 10.0 ** rng.integers(-12, 12, 2000)
    r = round_scores(x)
    assert r.dtype == np.float64
    for v, got in zip(x[:200], r[:200], strict=True):
        assert got == float(f"{v:.{SCORE_DIGITS - 1}e}")
    # values 1e-13 apart (relative) become equal: the tie survives last-bit noise
    base = np.array([0.123456789, 0.5, 0.9999])
    np.testing.assert_array_equal(round_scores(base * (1 + 1e-13)), round_scores(base))
    out = round_scores(np.array([np.nan, np.inf, -np.inf, 0.0]))
    assert np.isnan(out[0]) and list(out[1:]) == [np.inf, -np.inf, 0.0]


def test_quantize_keeps_decimal_data_and_removes_last_bits():
    data = np.array([[1.52, -0.001, 3.0, 12345.678], [0.0, np.nan, 2.5e15, -7.25]])
    np.testing.assert_array_equal(quantize(data), data)
    noisy = data * (1 + 1e-13)
    np.testing.assert_array_equal(quantize(noisy), data)
    rng = np.random.default_rng(2)
    x = rng.standard_normal(5000) * 10.0 ** rng.integers(-20, 20, 5000)
    q = quantize(x)
    ref = round_scores(x)
    # within one unit in the last place of the decimal rounding, and idempotent
    np.testing.assert_allclose(q, ref, rtol=4.5e-16, atol=0)
    np.testing.assert_array_equal(quantize(q), q)


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
        assert "random_state" not in text and len(text) < 300


def test_described_preprocessing_is_what_scikit_learn_prints():
    # describe_learner reads the steps from the pipeline's parts; scikit-learn's own printout
    # of the preprocessing (its repr) names the same ones
    seen = set()
    for name in LEARNERS:
        pipe = make_learner(name, 0)
        printed = repr(pipe.named_steps["prep"]).lower()
        steps = describe_learner(name).rpartition(" after ")[2].split(", ")
        assert ("quantize" in steps) == ("quantize" in printed), name
        assert ("scale" in steps) == ("standardscaler" in printed), name
        assert ("min-max" in steps) == ("minmax" in pipe.named_steps), name
        seen.add(tuple(steps))
    # both answers occur for scaling and min-max, so each comparison above can fail
    assert {"scale" in s for s in seen} == {True, False}
    assert {"min-max" in s for s in seen} == {True, False}


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
    np.testing.assert_array_equal(score_of(lr, X), round_scores(lr.predict_proba(X)[:, 1]))
    np.testing.assert_array_equal(
        score_of(lr, X, positive=False), round_scores(lr.predict_proba(X)[:, 0])
    )


def test_score_of_decision_function_sign(mixed_data):
    X, y = mixed_data
    X = X.drop(columns="colour").fillna(0.0)
    svm = LinearSVC(dual="auto").fit(X, y)
    d = round_scores(svm.decision_function(X))
    np.testing.assert_array_equal(score_of(svm, X), d)
    np.testing.assert_array_equal(score_of(svm, X, positive=False), -d)
    # labels as strings: the positive class is named
    ys = np.where(y, "malignant", "benign")
    svm2 = clone(svm).fit(X, ys)
    assert list(svm2.classes_) == ["benign", "malignant"]
    d2 = round_scores(svm2.decision_function(X))
    np.testing.assert_array_equal(score_of(svm2, X, positive="malignant"), d2)
    np.testing.assert_array_equal(score_of(svm2, X, positive="benign"), -d2)
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


def test_gnb_isotonic_is_blind_to_last_bits_of_naive_bayes(monkeypatch):
    """Isotonic calibration sorts its training rows by naive Bayes' scores; another CPU's
    ``exp``/``log`` moves naive Bayes' joint log-likelihoods in the last bit.  gnb-isotonic
    calibrates the log-odds rounded to 10 significant digits (``RoundedGaussianNB``): under a random
    one-ulp change of the log-likelihoods its scores on cd-flare-D-vs-rest (whose AUROC differed
    between two machines with the learner before) stay the same bits, while the same learner on
    unrounded log-odds moves (the check has power)."""
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.naive_bayes import GaussianNB

    from prspace.data.datasets import load_dataset
    from prspace.local import learners
    from prspace.local.crossval import predict_dataset
    from prspace.local.pipeline import _linear

    class UnroundedLogOdds(GaussianNB):
        def decision_function(self, X):
            jll = self._joint_log_likelihood(self._check_X(X))
            return jll[:, 1] - jll[:, 0]

    # the control runs under the panel name "gnb" (names are checked)
    unrounded = "gnb"
    monkeypatch.setitem(learners.LEARNERS, unrounded, _linear(
        lambda s: CalibratedClassifierCV(UnroundedLogOdds(), method="isotonic", cv=3)))
    names = ["gnb-isotonic", unrounded]
    ds = load_dataset("cd-flare-D-vs-rest")
    base, _, failures = predict_dataset(ds, names, n_folds=10, seed=0)
    assert not failures
    original = GaussianNB._joint_log_likelihood
    moved = {name: [] for name in names}
    for seed in range(3):
        rng = np.random.default_rng(seed)

        def jll(self, X, rng=rng):
            j = original(self, X)
            return j + rng.integers(-1, 2, size=j.shape) * np.spacing(j)

        monkeypatch.setattr(GaussianNB, "_joint_log_likelihood", jll)
        other, _, _ = predict_dataset(ds, names, n_folds=10, seed=0)
        monkeypatch.setattr(GaussianNB, "_joint_log_likelihood", original)
        for name in names:
            a = base.loc[base["model_id"] == name, "score"].to_numpy()
            b = other.loc[other["model_id"] == name, "score"].to_numpy()
            moved[name].append(int((a != b).sum()))
    assert moved["gnb-isotonic"] == [0, 0, 0]
    assert min(moved[unrounded]) > 0, moved


def test_rounded_gaussian_nb_scores_are_naive_bayes_log_odds():
    """The score gnb-isotonic calibrates orders rows as naive Bayes' probability does, without
    its ties at 0 and 1."""
    from sklearn.naive_bayes import GaussianNB

    from prspace.local.pipeline import RoundedGaussianNB

    X, y = load_breast_cancer(return_X_y=True)
    d = RoundedGaussianNB().fit(X, y).decision_function(X)
    p = GaussianNB().fit(X, y).predict_proba(X)[:, 1]
    inner = (p > 1e-6) & (p < 1 - 1e-6)
    np.testing.assert_allclose(d[inner], np.log(p[inner]) - np.log1p(-p[inner]), rtol=1e-6, atol=1e-6)
    assert len(np.unique(d)) > len(np.unique(p))  # saturated probabilities tie; their log-odds do not


def test_pool_is_more_distinct_methods_than_the_default_panel():
    """The pool (config/panel-pool.yaml draws 30 of it per task, as Flach & Kull drew 30 models of more flows):
    larger than 30, the default panel first and whole, every member with a family, and no two members the same
    method (estimator classes of the model step, nested, and its loss or kernel), so that no two differ only in
    a hyperparameter."""
    pool = learner_names("pool")
    default = learner_names("default")
    assert len(pool) > 30 and len(pool) == len(set(pool))
    assert pool[: len(default)] == default
    assert all(n in FAMILIES for n in pool)
    seen: dict[tuple, str] = {}
    for n in pool:
        m = _method(make_learner(n, 0).named_steps["model"])
        assert m not in seen, f"{n} and {seen[m]} are the same method: {m}"
        seen[m] = n
    # the check has power: the learners outside the pool include hyperparameter variants of its members
    rest = [n for n in LEARNERS if n not in pool]
    assert any(_method(make_learner(n, 0).named_steps["model"]) in seen for n in rest)
    # more families than the default panel, none dominating
    families = [learner_family(n) for n in pool]
    assert len(set(families)) > len({learner_family(n) for n in default})
    assert max(families.count(f) for f in set(families)) <= 6


def test_new_learners_are_appended_after_the_old_names():
    """Names are stable ids: the learners added for the pool come after every name the committed predictions
    use, in the order of prspace.core.panels.LEARNER_NAMES."""
    from prspace.core.panels import LEARNER_NAMES, POOL_EXTRA

    assert tuple(LEARNERS) == LEARNER_NAMES
    old = LEARNER_NAMES.index("linsvm-isotonic")
    new = [n for n in POOL_EXTRA if LEARNER_NAMES.index(n) > old]
    assert len(new) >= 10 and [LEARNER_NAMES.index(n) for n in new] == list(range(old + 1, old + 1 + len(new)))
