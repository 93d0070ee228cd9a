"""Downsampling experiment (Boyd et al. 2012, section 4.3, Table 3).

Properties the paper predicts: scoring the same model on a test set whose negatives are
subsampled leaves AUROC unchanged in expectation (it averages over positive-negative pairs) but
inflates AUPR (its floor AUCPR_MIN and the precision at every recall grow with pi); the
downsampled test skew is 1 / (1 + k).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from threadpoolctl import threadpool_limits

from prspace.core.errors import InputError
from prspace.experiments.boyd import downsampling as ds


def _data(n_pos=60, n_neg=1200, seed=0):
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(1.0, 1, (n_pos, 3)), rng.normal(0, 1, (n_neg, 3))]
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    return X, y


def _score(model, X):
    return model.predict_proba(X)[:, list(model.classes_).index(True)]


LEARNERS = {"logreg": lambda seed: LogisticRegression(), "gnb": lambda seed: GaussianNB()}


@pytest.fixture(scope="module")
def runs() -> pd.DataFrame:
    X, y = _data()
    with threadpool_limits(limits=1):
        return ds.downsampling_experiment(
            X,
            y,
            LEARNERS,
            score=_score,
            ratios=(1, 4, 50),
            n_folds=4,
            repeats=20,
            seed=3,
            task_id="syn",
        )


def test_auroc_does_not_move_with_test_downsampling_but_aupr_does(runs):
    w = runs.pivot_table(
        index=["learner", "repeat", "fold", "train_k"],
        columns="test",
        values=["auroc", "aupr", "aucnpr"],
    )
    sub = w.xs(1.0, level="train_k")
    d_auroc = sub["auroc"]["downsampled"] - sub["auroc"]["original"]
    d_aupr = sub["aupr"]["downsampled"] - sub["aupr"]["original"]
    # same model, same positives, a uniform subsample of the negatives: AUROC is unbiased
    # (it averages over positive-negative pairs), so the mean difference is noise
    for _, d in d_auroc.groupby(level="learner"):
        se = d.std(ddof=1) / np.sqrt(len(d))
        assert abs(d.mean()) < 4 * se
        assert abs(d.mean()) < 0.02
    # AUPR jumps (test pi goes from 1/21 to 1/2) -- Boyd's Table 3 shows 0.33 -> 0.85
    assert d_aupr.mean() > 0.2
    assert (d_aupr > 0).mean() > 0.95
    # AUCNPR moves too (Boyd: "still a sizable difference"), but less than AUPR here
    d_npr = sub["aucnpr"]["downsampled"] - sub["aucnpr"]["original"]
    assert 0 < d_npr.mean() < d_aupr.mean()


def test_test_skew_and_training_ratio(runs):
    down = runs[(runs["test"] == "downsampled") & (runs["train_k"] > 0)]
    k = down["train_k"]
    assert np.allclose(down["n_neg_test"], np.round(k * down["n_pos_test"]))
    assert np.allclose(down["test_pi"], 1 / (1 + k), atol=0.01)
    assert np.allclose(down["n_neg_train"], np.round(k * down["n_pos_train"]))
    # ratio 50 exceeds the task's own 1:20, so it is skipped; "original" (train_k 0) is always there
    assert sorted(runs["train_k"].unique()) == [0.0, 1.0, 4.0]
    orig = runs[runs["train_k"] == 0].pivot_table(
        index=["learner", "repeat", "fold"], columns="test", values="aupr"
    )
    assert np.array_equal(orig["downsampled"], orig["original"])


def test_every_learner_sees_the_same_rows_and_reruns_are_identical(runs):
    sizes = runs.groupby(["repeat", "fold", "train_k", "test", "learner"])[
        ["n_pos_test", "n_neg_test", "n_neg_train"]
    ].first()
    a = sizes.xs("logreg", level="learner")
    b = sizes.xs("gnb", level="learner")
    assert a.equals(b)
    X, y = _data()
    with threadpool_limits(limits=1):
        again = ds.downsampling_experiment(
            X,
            y,
            LEARNERS,
            score=_score,
            ratios=(1, 4, 50),
            n_folds=4,
            repeats=2,
            seed=3,
            task_id="syn",
        )
    # the same seed gives the same runs: the first two repeats of the fixture, bit for bit
    pd.testing.assert_frame_equal(runs[runs["repeat"] < 2].reset_index(drop=True), again)


def test_tables_in_the_shape_of_table3(runs):
    t3 = ds.table3(runs)
    assert list(t3.loc[t3["learner"] == "gnb", "train_ratio"]) == [
        "1:1",
        "1:4",
        "original (1:20.0)",
    ]
    assert (t3["n_runs"] == 80).all()
    s = ds.table3_summary(t3)
    assert set(s["learner"]) == {"gnb", "logreg", "all learners"}
    row = s[(s["learner"] == "all learners") & (s["train_k"] == 1)].iloc[0]
    assert row["gap_aupr"] == pytest.approx(row["downsampled_aupr"] - row["original_aupr"])
    assert row["n_tasks"] == 1


def test_bad_input_is_named():
    X, y = _data(n_pos=3, n_neg=50)
    with pytest.raises(InputError, match="stratified folds"):
        ds.downsampling_experiment(X, y, LEARNERS, score=_score, n_folds=5)
    X, y = _data()
    with pytest.raises(InputError, match="ratios"):
        ds.downsampling_experiment(X, y, LEARNERS, score=_score, ratios=(0,))


def test_paper_comparison_lines_up_boyd_rows_with_ours(runs):
    cmp = ds.compare_with_paper(ds.table3_summary(ds.table3(runs)))
    assert list(cmp["train_ratio"])[0] == "1:1" and cmp["train_ratio"].iloc[-1].startswith("original")
    assert cmp.loc[0, "boyd_aucpr_downsampled"] == 0.851  # transcribed Table 3
    row = cmp.iloc[0]
    # both: the 1:1 downsampled test set flatters AUCPR far above the original test set
    assert row["boyd_aucpr_downsampled"] - row["boyd_aucpr_original"] > 0.3
    assert row["our_aupr_downsampled"] - row["our_aupr_original"] > 0.2
    assert np.isnan(cmp.set_index("train_ratio").loc["1:2", "our_aupr_downsampled"])  # ratio not run here
