"""Confidence sets for ranks in the studies (:mod:`prspace.experiments.noise.rank_sets`, ``prspace step rank_sets``).

Oracles: the per-task replicates against :func:`prspace.metrics.all_metrics` with the bootstrap
counts as sample weights; the rank sets against :func:`prspace.stats.ranksets.rank_sets` fed directly;
shares against counts by hand and :func:`prspace.experiments.ranking.cluster_bootstrap_ci`;
the verdict rows against the exact binomial bound of scipy. Calibration: disjoint sets under the
nulls at or below the guaranteed bound 2 (1 - confidence) (plus 2 Monte Carlo SE), and power
>= 0.8 on a large planted reversal at a size where it can be detected; a check made unable to say
yes fails the power test.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from prspace import metrics as M
from prspace.cli import main
from prspace.core.errors import InputError
from prspace.experiments.noise import rank_sets as RS
from prspace.experiments.noise.noise_floor import _task_seed
from prspace.experiments.ranking import cluster_bootstrap_ci
from prspace.stats.pairwise import jackknife_pairs
from prspace.stats.ranksets import rank_sets, rank_sets_from_bounds
from prspace.stats.resampling import stratified_counts
from prspace.verdicts.rule import WITHIN_NOISE, apply_rule


def _predictions(task: str, n: int, shifts: list[float], *, seed: int = 0, pi: float = 0.2,
                 same_as: dict[int, int] | None = None) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < pi
    y[:2], y[2:4] = True, False
    rows, scores = [], {}
    for j, s in enumerate(shifts):
        scores[j] = scores[same_as[j]] if same_as and j in same_as else y * s + rng.standard_normal(n)
        rows.append(pd.DataFrame({"task_id": task, "model_id": f"m{j:02d}", "repeat": 0, "fold": np.arange(n) % 3,
                                  "row_id": np.arange(n), "y_true": y, "score": scores[j]}))
    return pd.concat(rows, ignore_index=True)


def test_task_rank_sets_match_the_package_pieces_and_an_independent_oracle():
    df = _predictions("t1", 300, [0.5, 1.0, 1.5, 3.0])
    out = RS.task_rank_sets(df, n_boot=60, seed=3, confidence=0.9)
    assert list(out.columns) == RS.RANK_SET_COLUMNS
    assert len(out) == 4 * len(RS.RANK_SET_METRICS)
    assert (out["plausible_best"] == (out["rank_lo"] == 1)).all()
    assert ((1 <= out.rank_lo) & (out.rank_lo <= out.rank_hi) & (out.rank_hi <= 4)).all()
    # the replicates are all_metrics with the task's stratified counts as sample weights
    y = df[df.model_id == "m00"].sort_values("row_id").y_true.to_numpy()
    w = stratified_counts(y, 60, _task_seed(3, "t1"))
    for metric in ("auroc", "auprg"):
        pts, reps = [], np.zeros((60, 4))
        for j in range(4):
            g = df[df.model_id == f"m{j:02d}"].sort_values("row_id")
            pts.append(M.all_metrics(g.y_true.to_numpy(), g.score.to_numpy())[metric])
            for b in range(0, 60):
                reps[b, j] = M.all_metrics(g.y_true.to_numpy(), g.score.to_numpy(), sample_weight=w[b])[metric]
        ref = rank_sets(np.array(pts), reps, 0.9)
        got = out[out.metric == metric].set_index("model").loc[[f"m{j:02d}" for j in range(4)]]
        np.testing.assert_allclose(got.estimate, pts, rtol=1e-10)
        np.testing.assert_array_equal(got.rank_lo, ref.rank_lo)
        np.testing.assert_array_equal(got.rank_hi, ref.rank_hi)
        assert (got["method"] == "bootstrap max-T").all()
    # AP and AUPR: the jackknife's Bonferroni intervals, replicates = all_metrics without each row
    # (300 rows: delete-one; groups by class, negatives first, rows in row-id order)
    order = np.r_[np.flatnonzero(~y), np.flatnonzero(y)]
    for metric in ("aupr", "average_precision"):
        pts, jack = [], np.zeros((300, 4))
        for j in range(4):
            g = df[df.model_id == f"m{j:02d}"].sort_values("row_id")
            yy, ss = g.y_true.to_numpy(), g.score.to_numpy()
            pts.append(M.all_metrics(yy, ss)[metric])
            for r, row in enumerate(order):
                keep = np.arange(300) != row
                jack[r, j] = M.all_metrics(yy[keep], ss[keep])[metric]
        pairs = jackknife_pairs(np.array(pts), jack, y[order].astype(int), alpha=0.1)
        ref = rank_sets_from_bounds(4, pairs.lo, pairs.hi)
        got = out[out.metric == metric].set_index("model").loc[[f"m{j:02d}" for j in range(4)]]
        np.testing.assert_array_equal(got.rank_lo, ref.rank_lo)
        np.testing.assert_array_equal(got.rank_hi, ref.rank_hi)
        assert (got["method"] == "jackknife t, Bonferroni").all() and (got["n_resamples"] == 300).all()
    # a clearly dominant model is the only plausible best under every metric
    best = out[out.plausible_best]
    assert set(best.model) == {"m03"} and len(best) == len(RS.RANK_SET_METRICS)


def test_identical_models_are_all_plausible_best():
    df = _predictions("twins", 200, [1.0, 1.0, 1.0], same_as={1: 0, 2: 0})
    out = RS.task_rank_sets(df, n_boot=50)
    assert out.plausible_best.all() and (out.rank_lo == 1).all() and (out.rank_hi == 3).all()


def test_bad_settings_raise_input_errors():
    df = _predictions("t", 100, [1.0, 2.0])
    with pytest.raises(InputError, match="n_boot"):
        RS.task_rank_sets(df, n_boot=5)
    with pytest.raises(InputError, match="confidence"):
        RS.task_rank_sets(df, confidence=1.2)
    with pytest.raises(InputError, match="unknown metric"):
        RS.task_rank_sets(df, metrics=["aupr", "nope"])


def _table(task: str, best: dict[str, list[bool]], est: dict[str, list[float]]) -> pd.DataFrame:
    rows = []
    for metric, flags in best.items():
        for j, f in enumerate(flags):
            rows.append({"task": task, "metric": metric, "model": f"m{j}", "estimate": est[metric][j],
                         "plausible_best": f})
    return pd.DataFrame(rows)


def test_pair_table_counts_disjoint_sets_and_plain_top1():
    t1 = _table("a", {"aupr": [True, False, False], "auprg": [False, True, True], "auroc": [True, True, False]},
                {"aupr": [0.9, 0.8, 0.1], "auprg": [0.1, 0.9, 0.9], "auroc": [0.9, 0.9, 0.1]})
    t2 = _table("b", {"aupr": [True, True, False], "auprg": [True, False, False], "auroc": [True, False, False]},
                {"aupr": [0.5, 0.6, 0.1], "auprg": [0.7, 0.6, 0.1], "auroc": [0.9, 0.8, 0.1]})
    p = RS.pair_table(pd.concat([t1, t2])).set_index(["task", "metric_a", "metric_b"])
    assert bool(p.loc[("a", "aupr", "auprg"), "disjoint"]) is True
    assert bool(p.loc[("a", "aupr", "auroc"), "disjoint"]) is False
    assert bool(p.loc[("a", "auprg", "auroc"), "disjoint"]) is False
    assert p.loc[("a", "auprg", "auroc"), "n_common"] == 1
    assert not p.loc["b"].disjoint.any()
    # top-1 with ties as groups: auprg's {m1, m2} vs auroc's {m0, m1} differ; aupr {m1} vs auprg {m0} in b
    assert bool(p.loc[("a", "auprg", "auroc"), "top1_differs"]) is True
    assert bool(p.loc[("b", "aupr", "auprg"), "top1_differs"]) is True
    assert bool(p.loc[("b", "auprg", "auroc"), "top1_differs"]) is False
    assert p.loc[("a", "aupr", "auprg"), "best_size_b"] == 2
    with pytest.raises(InputError, match="plausible_best"):
        RS.pair_table(pd.DataFrame({"task": ["a"], "metric": ["aupr"], "model": ["m"], "estimate": [0.5]}))


def test_summary_shares_and_intervals_follow_the_per_task_flags():
    rng = np.random.default_rng(1)
    rows = []
    for i in range(12):
        for a, b in RS.RANK_SET_PAIRS:
            rows.append({"task": f"t{i}", "metric_a": a, "metric_b": b, "n_models": 5,
                         "best_size_a": int(rng.integers(1, 5)), "best_size_b": int(rng.integers(1, 5)),
                         "n_common": 0, "disjoint": bool(rng.random() < 0.3), "top1_differs": bool(rng.random() < 0.5)})
    pairs = pd.DataFrame(rows)
    tasks = pd.DataFrame({"task_id": [f"t{i}" for i in range(12)], "family": [f"f{i // 3}" for i in range(12)]})
    s = RS.summarise(pairs, tasks, None, n_boot=200, seed=4)
    assert list(s.columns) == RS.SUMMARY_COLUMNS and len(s) == 3
    for _, r in s.iterrows():
        sub = pairs[(pairs.metric_a == r.metric_a) & (pairs.metric_b == r.metric_b)]
        assert r.n_tasks == 12 and r.n_families == 4
        assert r.n_disjoint == sub.disjoint.sum() and r.disjoint_share == pytest.approx(sub.disjoint.mean())
        assert r.n_top1_differs == sub.top1_differs.sum()
        est, lo, hi = cluster_bootstrap_ci(sub.disjoint.to_numpy(float), np.repeat([f"f{i}" for i in range(4)], 3),
                                           n_boot=200, seed=4)
        assert (r.disjoint_lo, r.disjoint_hi) == pytest.approx((lo, hi))
        assert r.best_size_a == pytest.approx(sub.best_size_a.mean())
        assert (r.best_size_a_median, r.best_size_b_median) == (sub.best_size_a.median(), sub.best_size_b.median())
        assert r.false_rate_bound == pytest.approx(0.1)


def test_evidence_rows_go_through_the_verdict_rule():
    summary = pd.DataFrame([{
        "metric_a": "aupr", "metric_b": "auprg", "n_tasks": 60, "n_families": 40, "level": 0.95, "n_disjoint": 0,
        "disjoint_share": 0.0, "disjoint_lo": 0.0, "disjoint_hi": 0.0, "n_top1_differs": 20, "top1_share": 1 / 3,
        "top1_lo": 0.2, "top1_hi": 0.45, "best_size_a": 6.1, "best_size_a_lo": 5, "best_size_a_hi": 7,
        "best_size_b": 7.3, "best_size_b_lo": 6, "best_size_b_hi": 8, "mean_models": 30, "false_rate_bound": 0.1,
        "false_rate_equal": 0.0, "false_rate_ranking": 0.01, "max_reversal": 0.2, "power_at_max": 0.3,
        "mdr80": float("nan"), "best_size_a_median": 6.0, "best_size_b_median": 8.0, "sim_n_pos": 42,
        "sim_n_neg": 444, "sim_models": 5}])
    ev = RS.evidence(summary)
    assert ev.power.iloc[0] == 0.3
    assert "on a typical task (median) 6 of 30 models could be the best by AUPR and 8 by AUPRG" in ev.detail.iloc[0]
    assert "simulated task of 42 positives, 444 negatives, 5 models" in ev.detail.iloc[0]
    assert "power 0.30 at the largest planted reversal" in ev.detail.iloc[0]
    assert ev.claim_id.tolist() == ["px.aupr_auprg.rank_sets.disjoint"]
    v = apply_rule(ev).iloc[0]
    # power 0.30 < 0.5: the rule says the check cannot tell, not "within noise"
    assert v.verdict == "cannot be told: the check has power 0.30 here"
    assert apply_rule(ev.assign(power=0.8)).iloc[0].verdict == WITHIN_NOISE
    assert v.ci_hi == pytest.approx(stats.binomtest(0, 60).proportion_ci(method="exact").high)
    assert v.tolerance == pytest.approx(0.1)
    assert "0 of 60" in v.explanation
    # without a calibration: no power, and the detail says so
    bare = RS.evidence(summary.assign(false_rate_equal=float("nan")))
    assert np.isnan(bare.power.iloc[0]) and "power is unknown" in bare.detail.iloc[0]
    assert "no planted reversal reached 80% power" in v.explanation and "0.200" in v.explanation


@pytest.mark.timeout(600)
def test_calibration_false_rate_under_the_nulls_and_power_on_a_planted_reversal(monkeypatch):
    pairs = [("aupr", "auroc")]
    cal = RS.calibrate_disjoint(200, 1800, pairs=pairs, n_models=4, n_sim=30, n_sim_null=40, n_boot=200,
                                confidence=0.95, sigmas=(16.0,), seed=2)
    nulls = cal[cal.scenario.isin(["null_equal", "null_ranking"])]
    assert len(nulls) == 2
    bound = RS.false_rate_bound(0.95)
    assert (nulls.rate <= bound + 2 * np.sqrt(bound * (1 - bound) / nulls.n_sim)).all()
    rev = cal[cal.scenario == "reversal"].iloc[0]
    assert rev.reversal > 0.15
    assert rev.rate >= 0.8, rev.to_dict()
    # a check made unable to say yes (every model always plausible best) has no power: the test would fail
    from prspace.stats.ranksets import RankSets

    def blind_sets(metric, points, boot, jack, strata, confidence=0.95):
        k = len(points)
        return RankSets(np.ones(k, np.int64), np.full(k, k), np.ones(k, bool), None, None, np.nan, 0)

    monkeypatch.setattr(RS, "rank_sets_by_rule", blind_sets)
    blind = RS.calibrate_disjoint(200, 1800, pairs=pairs, n_models=4, n_sim=5, n_sim_null=5, n_boot=20,
                                  sigmas=(16.0,), seed=2)
    assert blind[blind.scenario == "reversal"].rate.iloc[0] < 0.8


def test_cli_writes_per_task_files_the_table_summary_and_evidence(tmp_path):
    from prspace.core.schema import TaskInfo, write_predictions

    status = []
    for i, task in enumerate(["keel-a1", "keel-a2", "other-b"]):
        df = _predictions(task, 150, [0.5, 1.0, 2.0], seed=i)
        info = TaskInfo(task_id=task, source="local", dataset_id=str(i), dataset_name=task, n=150,
                        n_pos=int(df[df.model_id == "m00"].y_true.sum()), positive_class="1",
                        estimation_procedure="3-fold CV", n_folds=3, n_repeats=1, n_models=3,
                        provenance="test", created_at="2026-01-01T00:00:00Z")
        pq = tmp_path / f"{task}.parquet"
        df["flow_id"], df["flow_name"] = df["model_id"], df["model_id"]
        write_predictions(df, info, pq)
        js = tmp_path / f"{task}.json"
        js.write_text(json.dumps({"task_id": task, "status": "ok", "reason": "", "predictions": str(pq)}))
        status.append(str(js))
    table = tmp_path / "rank_sets.csv"
    metrics = "--set", "metrics=" + json.dumps(list(RS.RANK_SET_METRICS))
    rank_sets = ["step", "rank_sets", "--in", "status=" + status[0], *status[1:], *metrics, "--set", "confidence=0.95",
                 "--set", "seed=0", "--tables-dir", str(tmp_path)]
    assert main([*rank_sets, "--set", "n_boot=40", "--out", f"per_task={tmp_path / 'per_task'}"]) == 0
    t = pd.read_csv(table, dtype={"task": str, "model": str})
    assert sorted(p.stem for p in (tmp_path / "per_task").glob("*.csv")) == ["keel-a1", "keel-a2", "other-b"]
    assert len(t) == 3 * 3 * len(RS.RANK_SET_METRICS)
    tasks = pd.DataFrame({"task_id": ["keel-a1", "keel-a2", "other-b"], "family": ["a", "a", "b"],
                          "n": [150] * 3, "n_pos": [30] * 3, "status": ["ok"] * 3})
    tasks.to_csv(tmp_path / "tasks.csv", index=False)
    summary = ["step", "rank_set_summary", "--in", f"tasks={tmp_path / 'tasks.csv'}", "--set", "n_boot=50",
               "--set", "seed=0", "--set", "n_sim=2", "--set", "n_sim_null=2", "--set", "sim_models=3",
               "--set", "sim_boot=20", "--set", "mc_error=null"]
    assert main([*summary, "--in", f"rank_sets={table}", "--tables-dir", str(tmp_path)]) == 0
    s = pd.read_csv(tmp_path / "rank_set_summary.csv")
    assert len(s) == 3 and (s.n_tasks == 3).all() and (s.n_families == 2).all()
    assert (tmp_path / "rank_set_summary.md").is_file() and (tmp_path / "rank_set_calibration.md").is_file()
    assert (s.sim_n_pos == 30).all() and (s.sim_n_neg == 120).all() and (s.sim_models == 3).all()
    ev = pd.read_csv(tmp_path / "rank_set_evidence.csv")
    assert ev.power.notna().all()
    assert sorted(ev.claim_id) == sorted(f"px.{a}_{b}.rank_sets.disjoint" for a, b in RS.RANK_SET_PAIRS)
    assert main([*rank_sets[:-1], str(tmp_path / "x"), "--set", "n_boot=5", "--out", f"per_task={tmp_path / 'x'}"]) == 2
    # no task with predictions: empty tables, no verdict rows, exit 0
    empty = tmp_path / "empty" / "rank_sets.csv"
    empty.parent.mkdir()
    pd.DataFrame(columns=RS.RANK_SET_COLUMNS).to_csv(empty, index=False)
    assert main([*summary, "--in", f"rank_sets={empty}", "--tables-dir", str(empty.parent)]) == 0
    assert pd.read_csv(empty.parent / "rank_set_evidence.csv").empty
    assert pd.read_csv(empty.parent / "rank_set_summary.csv").empty


def test_the_per_task_steps_in_two_processes_write_the_same_bytes(tmp_path):
    # rank_sets and noise_floor with --jobs 2 (each task in a spawned process, prspace.core.contracts.over_tasks):
    # every file byte for byte that of --jobs 1, a skipped task left out in both
    from prspace.core.schema import TaskInfo, write_predictions

    status = []
    for i, task in enumerate(["keel-a1", "keel-a2", "other-b", "other-c"]):
        df = _predictions(task, 120 + 30 * i, [0.5, 1.0, 1.1, 2.0], seed=10 + i)
        info = TaskInfo(task_id=task, source="local", dataset_id=str(i), dataset_name=task, n=120 + 30 * i,
                        n_pos=int(df[df.model_id == "m00"].y_true.sum()), positive_class="1",
                        estimation_procedure="3-fold CV", n_folds=3, n_repeats=1, n_models=4,
                        provenance="test", created_at="2026-01-01T00:00:00Z")
        df["flow_id"], df["flow_name"] = df["model_id"], df["model_id"]
        write_predictions(df, info, tmp_path / f"{task}.parquet")
        (tmp_path / f"{task}.json").write_text(json.dumps({"task_id": task, "status": "ok", "reason": "",
                                                           "predictions": str(tmp_path / f"{task}.parquet")}))
        status.append(str(tmp_path / f"{task}.json"))
    (tmp_path / "skipped.json").write_text(json.dumps({"task_id": "skipped", "status": "skipped", "reason": "few"}))
    status.append(str(tmp_path / "skipped.json"))
    metrics = json.dumps(list(RS.RANK_SET_METRICS))
    files = {}
    for jobs in (1, 2):
        out = tmp_path / f"jobs{jobs}"
        assert main(["step", "rank_sets", "--in", "status=" + status[0], *status[1:], "--set", f"metrics={metrics}",
                     "--set", "n_boot=60", "--set", "confidence=0.95", "--set", "seed=3", "--tables-dir", str(out),
                     "--out", f"per_task={out / 'per_task'}", "--jobs", str(jobs)]) == 0
        assert main(["step", "noise_floor", "--in", "status=" + status[0], *status[1:], "--set", f"metrics={metrics}",
                     "--set", "n_boot=50", "--set", "seed=3", "--set", "alpha=0.05", "--tables-dir", str(out),
                     "--jobs", str(jobs)]) == 0
        files[jobs] = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert len(files[1]) == 7 and files[1] == files[2]  # 2 noise-floor tables, rank_sets.csv and 4 per-task files
    assert len(pd.read_csv(tmp_path / "jobs2" / "rank_sets.csv")) == 4 * 4 * len(RS.RANK_SET_METRICS)
