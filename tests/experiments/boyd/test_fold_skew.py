"""Fold-skew experiment (Boyd et al. 2012, section 4.1).

Properties: swapping positives of one fold of a pair with negatives of the other spreads the
folds' skews while keeping every row and every fold's size (the stratified control swaps as many
rows class for class and keeps the skews); for the worst model every fold's AUPR is exactly its
AUCPR_MIN (Theorem 2), so the mean of per-fold AUPR is optimistic by exactly the mean of the folds'
AUCPR_MIN over its stratified value (AUCPR_MIN is convex in pi), while its per-fold AUCNPR stays 0;
pooled metrics are the same rows and scores in every design.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from prspace import metrics
from prspace.core.errors import InputError
from prspace.experiments.boyd import fold_skew as fs


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
    return fs.fold_skew_experiment(_predictions(), dispersions=(0.0, 0.5, 0.9), seeds=3, seed=0)


def test_reassignment_spreads_fold_skew_and_keeps_every_row_and_fold_size():
    p = _predictions()
    ref = p[p["model_id"] == "weak"]
    y, fold = ref["y_true"].to_numpy(), ref["fold"].to_numpy()
    sizes = np.bincount(fold)
    spreads = []
    for d in (0.0, 0.5, 0.9):
        pos_moved = {}
        for design in fs.DESIGNS:
            new = fs.reassign_folds(y, fold, dispersion=d, design=design, rng=np.random.default_rng(0))
            assert np.array_equal(np.bincount(new), sizes)  # every fold keeps its size
            pos_moved[design] = int((new != fold)[y].sum())
            assert int((new != fold).sum()) == 2 * pos_moved[design]  # as many negatives as positives move
        # 5 pairs of folds, round(d * 20) positives each way; the control also sends as many back
        assert pos_moved["skewed"] == 5 * int(np.floor(d * 20 + 0.5))
        assert pos_moved["stratified"] == 2 * pos_moved["skewed"]
        st = fs.reassign_folds(y, fold, dispersion=d, design="stratified", rng=np.random.default_rng(0))
        sk = fs.reassign_folds(y, fold, dispersion=d, design="skewed", rng=np.random.default_rng(0))
        assert np.array_equal(np.bincount(st[y], minlength=10), np.bincount(fold[y], minlength=10))
        pis_sk = np.array([y[sk == f].mean() for f in range(10)])
        spreads.append(np.std(pis_sk))
        # the paired folds sit at about pi (1 + d) and pi (1 - d)
        assert pis_sk.max() == pytest.approx(0.2 * (1 + d), abs=0.02)
        assert pis_sk.min() == pytest.approx(0.2 * (1 - d), abs=0.02)
    assert spreads[0] < 0.01 < spreads[1] < spreads[2]


def test_worst_model_fold_mean_aupr_is_optimistic_by_the_minimum_areas(runs):
    diff = fs.fold_skew_bias(runs)
    worst = diff[diff["model_id"] == "worst"].groupby("dispersion")[list(fs.AGGREGATES)].mean()
    # per-fold AUCNPR of the worst model is 0 at every skew, so its mean is 0 on both designs
    assert np.allclose(runs.loc[runs["model_id"] == "worst", "mean_aucnpr"], 0, atol=1e-12)
    assert worst.loc[0.0, "mean_aupr"] == pytest.approx(0, abs=1e-12)
    assert 0 < worst.loc[0.5, "mean_aupr"] < worst.loc[0.9, "mean_aupr"]
    # pooled: the same rows and scores in every design, so exactly no shift
    assert np.allclose(diff[[c for c in fs.AGGREGATES if c.startswith("pooled_")]], 0, atol=0)


def test_worst_model_bias_equals_convexity_of_aucpr_min():
    p = _predictions()
    ref = p[p["model_id"] == "worst"]
    y, fold, s = ref["y_true"].to_numpy(), ref["fold"].to_numpy(), ref["score"].to_numpy()
    new = fs.reassign_folds(y, fold, dispersion=0.9, design="skewed", rng=np.random.default_rng(5))
    pis = np.array([y[new == f].mean() for f in range(10)])
    per_fold = [metrics.aupr(y[new == f], s[new == f]) for f in range(10)]
    assert np.allclose(per_fold, metrics.aupr_min(pis), atol=1e-12)
    # stratified folds all sit at the pooled pi 0.2; the skewed folds' floors average higher,
    # because AUCPR_MIN is convex in pi
    assert np.mean(pis) == pytest.approx(0.2, abs=1e-12)  # equal fold sizes: the folds' pi average to the pooled pi
    assert np.mean(metrics.aupr_min(pis)) > metrics.aupr_min(0.2) + 0.005  # strictly convex: about +0.008 here


def test_fold_mean_aupr_bias_grows_with_dispersion_and_auroc_stays(runs):
    s = fs.fold_skew_summary(runs).set_index(["dispersion", "aggregate"])
    assert s.loc[(0.0, "mean_aupr"), "bias_mean"] == pytest.approx(0, abs=1e-12)
    # without the worst model: the fold-mean AUPR moves more than the fold-mean AUROC
    real = runs[runs["model_id"] != "worst"]
    d = fs.fold_skew_bias(real).groupby("dispersion")[list(fs.AGGREGATES)].apply(lambda g: g.abs().mean())
    assert d.loc[0.9, "mean_aupr"] > d.loc[0.5, "mean_aupr"] > 0
    assert d.loc[0.9, "mean_aupr"] > 2 * d.loc[0.9, "mean_auroc"]
    assert d.loc[0.9, "pooled_aupr"] == 0
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


def test_every_design_holds_the_same_rows():
    runs = fs.fold_skew_experiment(_predictions(), dispersions=(0.5, 0.9), seeds=2, seed=0)
    assert runs["n_rows"].nunique() == 1 and runs["pooled_pi"].nunique() == 1
    s = fs.fold_skew_summary(runs)
    assert set(s["bias_sign"]) <= {"optimistic", "pessimistic", "not shown"}
    assert (s["bias_lo"] <= s["bias_mean"]).all() and (s["bias_mean"] <= s["bias_hi"]).all()


def test_bad_input_is_named():
    with pytest.raises(InputError, match="dispersion"):
        fs.reassign_folds(np.array([True, False]), np.array([0, 1]), dispersion=1.0, design="skewed", rng=np.random.default_rng())
    p = _predictions()
    p["fold"] = 0
    with pytest.raises(InputError, match="single fold"):
        fs.fold_skew_experiment(p, dispersions=(0.5,), seeds=1)
