"""Fold-skew experiment (Boyd et al. 2012, section 4.1).

Properties: dropping positives from half of the folds and negatives from the other half spreads
the folds' skews while keeping the pooled skew; for the worst model every fold's AUPR is exactly
its AUCPR_MIN (Theorem 2), so the mean of per-fold AUPR is optimistic by exactly the mean of the
folds' AUCPR_MIN over its stratified value (AUCPR_MIN is convex in pi), while its per-fold AUCNPR
stays 0; pooled metrics do not see the fold structure at all.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from prspace import metrics
from prspace.errors import InputError
from prspace.experiments import fold_skew as fs


def _predictions(n=1000, pi=0.2, k=10, seed=1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n_pos = int(n * pi)
    y = np.r_[np.ones(n_pos, bool), np.zeros(n - n_pos, bool)]
    # stratified folds, as the predictions step makes them
    fold = np.empty(n, int)
    fold[:n_pos] = rng.permutation(np.arange(n_pos) % k)
    fold[n_pos:] = rng.permutation(np.arange(n - n_pos) % k)
    frames = []
    for m, sep in (("weak", 0.5), ("good", 1.5), ("strong", 2.5), ("worst", None)):
        if sep is None:
            s = (~y).astype(float) + rng.random(n) * 1e-3  # every negative above every positive
        else:
            s = rng.normal(0, 1, n) + sep * y
        frames.append(pd.DataFrame({"task_id": "syn", "model_id": m, "flow_id": m, "flow_name": m, "repeat": 0,
                                    "fold": fold, "row_id": np.arange(n), "y_true": y, "score": s}))
    return pd.concat(frames, ignore_index=True)


@pytest.fixture(scope="module")
def runs() -> pd.DataFrame:
    return fs.fold_skew_experiment(_predictions(), dispersions=(0.0, 0.5, 0.9), seeds=3, seed=0, fixed_positives=False)


def test_drop_spreads_fold_skew_and_keeps_pooled_skew():
    p = _predictions()
    ref = p[p["model_id"] == "weak"]
    y, fold = ref["y_true"].to_numpy(), ref["fold"].to_numpy()
    spreads = []
    for d in (0.0, 0.5, 0.9):
        sk = fs.drop_for_skew(y, fold, dispersion=d, design="skewed", rng=np.random.default_rng(0),
                              fixed_positives=False)
        st = fs.drop_for_skew(y, fold, dispersion=d, design="stratified", rng=np.random.default_rng(0),
                              fixed_positives=False)
        assert abs(int(sk.sum()) - int(st.sum())) <= 10  # same number of rows up to rounding per fold
        assert y[sk].mean() == pytest.approx(y.mean(), abs=0.01)
        assert y[st].mean() == pytest.approx(y.mean(), abs=0.01)
        pis_sk = [y[sk & (fold == f)].mean() for f in range(10)]
        pis_st = [y[st & (fold == f)].mean() for f in range(10)]
        assert np.std(pis_st) < 0.01
        spreads.append(np.std(pis_sk))
    assert spreads[0] < 0.01 < spreads[1] < spreads[2]


def test_worst_model_fold_mean_aupr_is_optimistic_by_the_minimum_areas(runs):
    diff = fs.fold_skew_bias(runs)
    worst = diff[diff["model_id"] == "worst"].groupby("dispersion")[list(fs.AGGREGATES)].mean()
    # per-fold AUCNPR of the worst model is 0 at every skew, so its mean is 0 on both designs
    assert np.allclose(runs.loc[runs["model_id"] == "worst", "mean_aucnpr"], 0, atol=1e-12)
    assert worst.loc[0.0, "mean_aupr"] == pytest.approx(0, abs=1e-12)
    assert 0 < worst.loc[0.5, "mean_aupr"] < worst.loc[0.9, "mean_aupr"]
    # pooled: the same rows up to the drop; no fold structure, no systematic shift
    assert abs(worst.loc[0.9, "pooled_aupr"]) < 0.01


def test_worst_model_bias_equals_convexity_of_aucpr_min():
    p = _predictions()
    ref = p[p["model_id"] == "worst"]
    y, fold, s = ref["y_true"].to_numpy(), ref["fold"].to_numpy(), ref["score"].to_numpy()
    keep = fs.drop_for_skew(y, fold, dispersion=0.9, design="skewed", rng=np.random.default_rng(5), fixed_positives=False)
    pis = np.array([y[keep & (fold == f)].mean() for f in range(10)])
    per_fold = [metrics.aupr(y[keep & (fold == f)], s[keep & (fold == f)]) for f in range(10)]
    assert np.allclose(per_fold, metrics.aupr_min(pis), atol=1e-12)
    # stratified folds would all sit at the pooled pi (0.2, AUCPR_MIN 0.107); the skewed folds'
    # floors average far higher: AUCPR_MIN is convex in pi and the positive-rich folds dominate
    assert y[keep].mean() == pytest.approx(0.2, abs=0.01)
    assert np.mean(metrics.aupr_min(pis)) > metrics.aupr_min(y[keep].mean()) + 0.1


def test_fold_mean_aupr_bias_grows_with_dispersion_and_auroc_stays(runs):
    s = fs.fold_skew_summary(runs).set_index(["dispersion", "aggregate"])
    assert s.loc[(0.0, "mean_aupr"), "bias_mean"] == pytest.approx(0, abs=1e-12)
    # without the worst model: the fold-mean AUPR moves more than the fold-mean AUROC
    real = runs[runs["model_id"] != "worst"]
    d = fs.fold_skew_bias(real).groupby("dispersion")[list(fs.AGGREGATES)].apply(lambda g: g.abs().mean())
    assert d.loc[0.9, "mean_aupr"] > d.loc[0.5, "mean_aupr"] > 0
    assert d.loc[0.9, "mean_aupr"] > 2 * d.loc[0.9, "mean_auroc"]
    assert d.loc[0.9, "mean_aupr"] > 2 * d.loc[0.9, "pooled_aupr"]
    assert set(s.reset_index()["aggregate"]) == set(fs.AGGREGATES)
    assert s["fold_pi_sd"].xs("mean_aupr", level="aggregate").is_monotonic_increasing


def test_rank_changes_are_counted_against_the_whole_data(runs):
    ch = fs.rank_changes(runs)
    at0 = ch[ch["dispersion"] == 0.0]
    assert not at0["top1_changed"].any()  # nothing dropped at d = 0: the whole data again
    assert np.allclose(at0["kendall"], 1.0)
    assert set(ch["aggregate"]) == set(fs.AGGREGATES)
    assert set(ch["design"]) == set(fs.DESIGNS)
    # well separated models: the pooled AUROC order survives any thinning
    pooled = ch[ch["aggregate"] == "pooled_auroc"]
    assert not pooled["top1_changed"].any()
    s = fs.fold_skew_summary(runs)
    assert np.allclose(s["top1_change_excess"], s["top1_change_skewed"] - s["top1_change_stratified"])


def test_fixed_positives_design_keeps_every_positive_and_spreads_skew():
    p = _predictions()
    ref = p[p["model_id"] == "weak"]
    y, fold = ref["y_true"].to_numpy(), ref["fold"].to_numpy()
    for d in (0.5, 0.9):
        sk = fs.drop_for_skew(y, fold, dispersion=d, design="skewed", rng=np.random.default_rng(0))
        st = fs.drop_for_skew(y, fold, dispersion=d, design="stratified", rng=np.random.default_rng(0))
        for f in range(10):  # every fold keeps all its positives in both designs
            assert (y & sk & (fold == f)).sum() == (y & st & (fold == f)).sum() == (y & (fold == f)).sum()
        assert abs(int(sk.sum()) - int(st.sum())) <= 10
        assert y[sk].mean() == pytest.approx(y[st].mean(), abs=0.01)
        assert np.std([y[st & (fold == f)].mean() for f in range(10)]) < 0.01
        assert np.std([y[sk & (fold == f)].mean() for f in range(10)]) > 0.05
    runs = fs.fold_skew_experiment(p, dispersions=(0.9,), seeds=2, seed=0)
    s = fs.fold_skew_summary(runs)
    assert set(s["bias_sign"]) <= {"optimistic", "pessimistic", "not shown"}
    assert (s["bias_lo"] <= s["bias_mean"]).all() and (s["bias_mean"] <= s["bias_hi"]).all()


def test_bad_input_is_named():
    with pytest.raises(InputError, match="dispersion"):
        fs.drop_for_skew(np.array([True, False]), np.array([0, 1]), dispersion=1.0, design="skewed", rng=np.random.default_rng())
    p = _predictions()
    p["fold"] = 0
    with pytest.raises(InputError, match="single fold"):
        fs.fold_skew_experiment(p, dispersions=(0.5,), seeds=1)
