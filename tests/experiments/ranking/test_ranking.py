"""Tests of prspace.experiments.ranking: ranks, top-k with ties, correlations, bootstrap."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from prspace.experiments import ranking as RANKING


def _table(seed: int = 0, n_tasks: int = 15, n_models: int = 8) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(n_tasks):
        pi = rng.uniform(0.05, 0.5)
        for m in range(n_models):
            aupr = rng.uniform(pi, 1)
            rows.append(
                {
                    "task_id": f"t{t:02d}",
                    "model_id": f"m{m}",
                    "flow_name": f"learner{m}",
                    "aupr": aupr,
                    # AUCNPR is an increasing function of AUPR within a task (Boyd et al.)
                    "aucnpr": (aupr - pi) / (1 - pi),
                    "auprg": aupr + rng.normal(0, 0.05),
                    "auroc": rng.uniform(),
                    "average_precision": aupr + rng.normal(0, 0.01),
                }
            )
    return pd.DataFrame(rows)


def test_rank_models_matches_scipy_average_ranks():
    df = _table()
    ranks = RANKING.rank_models(df)
    for task, sub in df.groupby("task_id"):
        got = ranks[ranks.task_id == task].set_index("model_id")
        for m in RANKING.RANKING_METRICS:
            expect = stats.rankdata(-sub[m].to_numpy(), method="average")
            np.testing.assert_array_equal(got.loc[sub.model_id, m].to_numpy(), expect)


def test_ties_get_average_ranks_and_float_noise_ties():
    df = pd.DataFrame(
        {
            "task_id": ["a"] * 4,
            "model_id": ["w", "x", "y", "z"],
            "aupr": [0.9, 0.9 + 1e-15, 0.5, 0.1],
        }
    )
    r = RANKING.rank_models(df, ["aupr"]).set_index("model_id")["aupr"]
    assert r.tolist() == [1.5, 1.5, 3.0, 4.0]


def test_aupr_vs_aucnpr_never_disagree_within_a_task():
    df = _table(seed=3)
    per = RANKING.disagreement(RANKING.rank_models(df), "aupr", "aucnpr")
    assert not per.top1_differs.any()
    assert not per.top3_differs.any()
    np.testing.assert_allclose(per.spearman, 1.0)
    np.testing.assert_allclose(per.kendall, 1.0)


def test_top_k_definition_with_ties():
    ranks = pd.Series([1.5, 1.5, 3.0, 4.0], index=["a", "b", "c", "d"])
    assert RANKING.top_k(ranks, 1) == {"a": 1, "b": 1}
    assert RANKING.top_k(ranks, 3) == {"a": 1, "b": 1, "c": 3}
    # a tie at the top under one metric only is a disagreement on the best model
    df = pd.DataFrame(
        {
            "task_id": ["t"] * 4,
            "model_id": list("abcd"),
            "m1": [0.9, 0.9, 0.5, 0.1],
            "m2": [0.9, 0.8, 0.5, 0.1],
            "m3": [0.9, 0.9, 0.1, 0.5],
        }
    )
    ranks = RANKING.rank_models(df, ["m1", "m2", "m3"])
    d12 = RANKING.disagreement(ranks, "m1", "m2").iloc[0]
    assert d12.top1_differs and d12.top3_differs
    d13 = RANKING.disagreement(ranks, "m1", "m3").iloc[0]
    assert not d13.top1_differs and d13.top3_differs


def test_top3_is_ordered():
    df = pd.DataFrame(
        {
            "task_id": ["t"] * 5,
            "model_id": list("abcde"),
            "m1": [5, 4, 3, 2, 1.0],
            "m2": [5, 3, 4, 2, 1.0],  # same top-3 set, other order
            "m3": [5, 4, 3, 1, 2.0],  # same ordered top 3, rest differs
        }
    )
    ranks = RANKING.rank_models(df, ["m1", "m2", "m3"])
    d = RANKING.all_disagreements(ranks, ["m1", "m2", "m3"]).set_index(["metric_a", "metric_b"])
    assert not d.loc[("m1", "m2"), "top1_differs"]
    assert d.loc[("m1", "m2"), "top3_differs"]
    assert not d.loc[("m1", "m3"), "top3_differs"]
    assert d.loc[("m1", "m3"), "spearman"] == pytest.approx(stats.spearmanr([5, 4, 3, 2, 1], [5, 4, 3, 1, 2]).statistic)
    assert d.loc[("m1", "m3"), "kendall"] == pytest.approx(0.8)


def test_summary_shares_and_bootstrap_interval():
    df = _table(seed=1, n_tasks=40)
    ranks = RANKING.rank_models(df)
    per = RANKING.all_disagreements(ranks)
    summary = RANKING.summarise_disagreement(per, ranks=ranks, n_boot=500, seed=0)
    assert len(summary) == 10
    for _, row in summary.iterrows():
        sub = per[(per.metric_a == row.metric_a) & (per.metric_b == row.metric_b)]
        assert row.n_tasks == 40
        assert row.top1_share == pytest.approx(sub.top1_differs.mean())
        assert row.top3_share == pytest.approx(sub.top3_differs.mean())
        assert row.spearman_mean == pytest.approx(sub.spearman.mean())
        assert row.top1_lo <= row.top1_share <= row.top1_hi
        assert row.spearman_lo <= row.spearman_mean <= row.spearman_hi
        # equal model counts, no ties: pooled rank correlation = mean per-task Spearman
        assert row.pooled_spearman == pytest.approx(row.spearman_mean)
    # deterministic
    again = RANKING.summarise_disagreement(per, ranks=ranks, n_boot=500, seed=0)
    pd.testing.assert_frame_equal(summary, again)


def test_bootstrap_interval_is_percentile_of_resampled_means():
    v = np.array([0.0, 1.0, 1.0, 0.0, 1.0])
    mean, lo, hi = RANKING.bootstrap_ci(v, n_boot=2000, seed=5)
    idx = np.random.default_rng(5).integers(0, 5, size=(2000, 5))
    boot = v[idx].mean(axis=1)
    assert mean == pytest.approx(0.6)
    assert (lo, hi) == pytest.approx(tuple(np.quantile(boot, [0.025, 0.975])))


def test_quartile_groups_pick_tasks_near_quartiles():
    per = pd.DataFrame(
        {
            "task_id": [f"t{i}" for i in range(5)],
            "metric_a": "aupr",
            "metric_b": "auprg",
            "n_models": 10,
            "top1_differs": False,
            "top3_differs": False,
            "spearman": [0.5, 0.9, 0.7, 0.6, 0.8],
            "kendall": 0.5,
        }
    )
    assert RANKING.quartile_groups(per, "aupr", "auprg") == ("t3", "t4")


def test_learner_ranking_across_tasks_hand_example():
    # learner A wins the low-skew task by little, B wins the high-skew task by more in AUPR
    df = pd.DataFrame(
        {
            "task_id": ["lo", "lo", "hi", "hi"],
            "flow_name": ["A", "B", "A", "B"],
            "aupr": [0.30, 0.20, 0.80, 0.95],
            "aucnpr": [0.25, 0.10, 0.60, 0.65],
        }
    )
    out = RANKING.learner_ranking_across_tasks(df, ["aupr", "aucnpr"]).set_index("flow_name")
    assert out.loc["A", "mean_aupr"] == pytest.approx(0.55)
    assert out.loc["B", "mean_aupr"] == pytest.approx(0.575)
    assert out.loc["B", "rank_mean_aupr"] == 1 and out.loc["A", "rank_mean_aucnpr"] == 1
    assert out.loc["A", "mean_rank_aupr"] == 1.5
    agree = RANKING.learner_order_agreement(out.reset_index(), ["aupr", "aucnpr"]).iloc[0]
    assert agree.best_a == "B" and agree.best_b == "A" and agree.top1_differs


def test_learners_missing_from_tasks_are_dropped_by_default():
    df = pd.DataFrame(
        {"task_id": ["a", "a", "b"], "flow_name": ["X", "Y", "X"], "aupr": [0.5, 0.6, 0.7]}
    )
    out = RANKING.learner_ranking_across_tasks(df, ["aupr"])
    assert out.flow_name.tolist() == ["X"]
    out = RANKING.learner_ranking_across_tasks(df, ["aupr"], min_share=0.5)
    assert sorted(out.flow_name) == ["X", "Y"]


def test_flipped_pairs():
    df = pd.DataFrame(
        {
            "task_id": ["t"] * 3,
            "model_id": ["ada", "lr", "nb"],
            "aupr": [0.724, 0.773, 0.5],
            "auprg": [0.714, 0.687, 0.4],
        }
    )
    flips = RANKING.flipped_pairs(df)
    assert flips[["first", "second"]].values.tolist() == [["lr", "ada"]]
    assert flips.best_position.iloc[0] == 1


def test_bad_input_names_the_column():
    with pytest.raises(ValueError, match="auprg"):
        RANKING.rank_models(pd.DataFrame({"task_id": ["a"], "model_id": ["m"]}), ["auprg"])


def test_ranking_report_labels_sources_and_families():
    from prspace.experiments.ranking import learner_families
    from prspace.experiments.steps.rank_step import source_label

    tasks = pd.DataFrame({
        "task_id": ["a", "b", "c"], "status": ["ok", "ok", "skipped"], "source": ["local"] * 3,
        "n_models": [30, 28, 0], "provenance": ["scikit-learn 1.9.1 (keel a); numpy 2", "scikit-learn 1.9.1", ""],
        "estimation_procedure": ["10-fold CV"] * 3,
    })
    label = source_label(tasks)
    assert label.startswith("local learners (28-30 per task) on 2 datasets") and "(keel a)" not in label
    assert "numpy 2; scikit-learn 1.9.1" in label and "10-fold CV" in label
    assert source_label(tasks.assign(status="skipped")) == "no task scored"
    oml = tasks.assign(source="openml", provenance="https://www.openml.org/api/v1/xml via openml-python 0.15.1")
    assert source_label(oml).startswith("OpenML (https://www.openml.org/api/v1/xml via openml-python 0.15.1): 2 tasks")
    for url in ("http://127.0.0.1:37735/api/v1/xml", "http://localhost:8080/api/v1/xml"):
        label = source_label(oml.assign(provenance=f"{url} via openml-python 0.15.1"))
        assert label.startswith("a server on this machine answering as OpenML, not openml.org") and url in label
    fam = learner_families(pd.DataFrame({"model_id": ["knn-15", "gnb", "flow-1234"]}))
    assert fam.to_dict() == {"flow-1234": "flow-1234", "gnb": "naive-bayes", "knn-15": "nearest-neighbours"}


def test_scorecard_rows_of_the_openml_self_check_keep_its_order_and_its_tolerance_row():
    """The self-check's summary, read as a table (experiments read no source): its five headline statistics
    in order, then the count beyond its tolerance whatever the tolerance; other statistics left out."""
    from prspace.experiments.steps.rank_step import SELFCHECK_STATISTICS, scorecard_rows

    stats = ["other", "runs differing by more than 0.001", *reversed(SELFCHECK_STATISTICS)]
    rows = scorecard_rows(pd.DataFrame({"statistic": stats, "value": range(len(stats))}))
    assert list(rows["statistic"]) == [*SELFCHECK_STATISTICS, "runs differing by more than 0.001"]
    assert list(rows["this_run"]) == [6.0, 5.0, 4.0, 3.0, 2.0, 1.0]
    assert rows["paper"].isna().all() and (rows["comparison"] == "OpenML self-check (AUROC)").all()
