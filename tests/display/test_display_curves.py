"""The displays (prspace.display) against scikit-learn's curves and the papers' definitions, drawn from
a real scikit-learn model on a real dataset (breast cancer, malignant made rare)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn import metrics as skm  # noqa: E402
from sklearn.datasets import load_breast_cancer  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402

from prspace.display import PrecisionRecallDisplay, PrecisionRecallGainDisplay, RocCurveDisplay  # noqa: E402
from prspace.metrics import aupr, aupr_min, auprg, prg_curve  # noqa: E402

DISPLAYS = (RocCurveDisplay, PrecisionRecallDisplay, PrecisionRecallGainDisplay)


@pytest.fixture(scope="module")
def fitted():
    """Logistic regression on three weak features of breast cancer, malignant (positive) rare: pi ~ 0.1."""
    X, t = load_breast_cancer(return_X_y=True)
    y = (t == 0).astype(int)
    rng = np.random.default_rng(0)
    keep = np.r_[np.flatnonzero(y == 0), rng.choice(np.flatnonzero(y == 1), 40, replace=False)]
    X, y = X[keep][:, [1, 8, 9]], y[keep]
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(Xtr, ytr)
    return model, Xte, yte, model.predict_proba(Xte)[:, 1]


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_roc_display_draws_sklearns_curve(fitted):
    model, X, y, s = fitted
    d = RocCurveDisplay.from_estimator(model, X, y)
    fpr, tpr, _ = skm.roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(d.line_.get_xdata(), fpr)
    np.testing.assert_allclose(d.line_.get_ydata(), tpr)
    assert d.roc_auc == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    assert d.ax_.figure is d.figure_ and d.name == "Pipeline" and d.pos_label == 1
    assert "AUROC = " in d.line_.get_label() and d.chance_level_ is not None


def test_pr_display_shades_boyds_unachievable_region(fitted):
    _, _, y, s = fitted
    d = PrecisionRecallDisplay.from_predictions(y, s, name="lr")
    pi = y.mean()
    assert d.prevalence == pytest.approx(pi) and d.aupr == pytest.approx(aupr(y, s))
    # the shaded region is the area under Boyd's minimum PR curve: its area is AUPR_MIN (Theorem 2)
    (path,) = d.unachievable_.get_paths()
    v = path.vertices
    x, yy = v[:, 0], v[:, 1]
    shoelace = 0.5 * abs(np.dot(x, np.roll(yy, 1)) - np.dot(yy, np.roll(x, 1)))
    assert shoelace == pytest.approx(aupr_min(pi), rel=1e-4)
    top = v[v[:, 1] > 0]
    np.testing.assert_allclose(top[:, 1], pi * top[:, 0] / (1 - pi + pi * top[:, 0]), atol=1e-12)
    # the curve ends at recall 1 with precision pi, and its trapezoid area is near the exact AUPR
    r, p = d.line_.get_xdata(), d.line_.get_ydata()
    assert r[-1] == 1.0 and p[-1] == pytest.approx(pi)
    assert np.trapezoid(p, r) == pytest.approx(d.aupr, abs=2e-3)
    assert "AUPR_MIN = " in d.unachievable_.get_label()


def test_prg_display_stays_in_the_unit_square(fitted):
    model, X, y, s = fitted
    assert prg_curve(y, s).recall_gain.min() < -1  # a naive plot would be L-shaped
    d = PrecisionRecallGainDisplay.from_estimator(model, X, y, name="lr")
    x, g = d.line_.get_xdata(), d.line_.get_ydata()
    drawn = ~np.isnan(g)
    assert x.min() == 0.0 and x.max() == 1.0
    assert (g[drawn] >= 0).all() and (g[drawn] <= 1).all()
    assert d.auprg == pytest.approx(auprg(y, s)) and d.ax_.get_xlim() == pytest.approx((-0.01, 1.01))
    np.testing.assert_allclose(d.baseline_.get_xydata(), [[0, 1], [1, 0]])  # the minor diagonal


def test_unit_square_masks_negative_precision_gain():
    from prspace.display import unit_square

    rg, pg = unit_square([-2.0, 0.0, 0.5, 0.75, 1.0], [0.5, 0.4, 0.0, -0.3, 0.0])
    assert rg.tolist() == [0.0, 0.5, 0.75, 1.0]
    assert pg[:2].tolist() == [0.4, 0.0] and np.isnan(pg[2]) and pg[3] == 0.0


@pytest.mark.parametrize("cls", DISPLAYS)
def test_displays_share_axes_and_draw_references_once(cls, fitted):
    model, X, y, s = fitted
    fig, ax = plt.subplots()
    a = cls.from_predictions(y, s, name="a", ax=ax)
    b = cls.from_predictions(y, -s, name="b", ax=ax)
    assert a.ax_ is b.ax_ is ax and a.figure_ is fig
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(labels) == 3 and labels[1].startswith("a (") and labels[2].startswith("b (")
    # plot() again on a fresh axes re-draws from the stored values
    c = a.plot(name="again")
    assert c is a and a.ax_ is not ax and a.line_.get_label().startswith("again (")


@pytest.mark.parametrize("cls", DISPLAYS)
def test_decision_function_and_string_classes(cls, fitted):
    model, X, y, _ = fitted
    names = np.where(y == 1, "malignant", "benign")
    svc = make_pipeline(StandardScaler(), LinearSVC()).fit(X, names)
    d = cls.from_estimator(svc, X, names, pos_label="malignant")
    ref = cls.from_predictions(y, svc.decision_function(X))
    np.testing.assert_allclose(d.line_.get_xydata(), ref.line_.get_xydata())
    flipped = cls.from_estimator(svc, X, names, pos_label="benign")
    ref = cls.from_predictions(1 - y, -svc.decision_function(X))
    np.testing.assert_allclose(flipped.line_.get_xydata(), ref.line_.get_xydata())


def test_bad_estimator_input_says_what_to_do(fitted):
    model, X, y, s = fitted
    with pytest.raises(ValueError, match="response_method must be one of"):
        RocCurveDisplay.from_estimator(model, X, y, response_method="predict")
    with pytest.raises(ValueError, match="not a class of the estimator"):
        RocCurveDisplay.from_estimator(model, X, y, pos_label="yes")
    with pytest.raises(ValueError, match="has no decision_function"):
        RocCurveDisplay.from_estimator(GaussianNB().fit(X, y), X, y, response_method="decision_function")
    with pytest.raises(ValueError, match="NaN"):
        PrecisionRecallGainDisplay.from_predictions(y, np.where(y == 1, np.nan, s))


def test_the_package_example_runs():
    import doctest

    import prspace.display

    result = doctest.testmod(prspace.display)
    assert result.attempted >= 3 and result.failed == 0
