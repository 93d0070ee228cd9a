"""Skew as a tested explanation (issue 22, point 4): the trend of the disagreement against pi with its
cluster-bootstrap interval, the counterfactual at a reference population's pi (per-task targets,
quantile matching), the observed shares by balance level, and the evidence rows."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from prspace import metrics as M
from prspace.cli import main
from prspace.core import claims as REG
from prspace.core.errors import InputError
from prspace.core.schema import TaskInfo, write_predictions
from prspace.experiments import ranking as RANKING
from prspace.experiments.skew import controlled_skew as CS
from prspace.study.workflow_commands import skew_reference_path
from prspace.verdicts.controlled_skew_step import shown_skew_evidence
from prspace.verdicts.rule import EVIDENCE_COLUMNS, apply_rule

METRICS = ["aupr", "average_precision", "auprg", "auroc", "aucnpr"]
TARGETS = CS.DEFAULT_TARGETS


def _predictions(n=300, pi=0.2, n_models=6, seed=0, task="t", repeats=1):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < pi
    y[:2] = True, False
    rows = []
    for r in range(repeats):
        for j in range(n_models):
            s = np.round(rng.normal(size=n) + (0.3 + 0.25 * j) * y, 2)  # ties included
            rows.append(pd.DataFrame({"task_id": task, "model_id": f"m{j}", "repeat": r, "row_id": np.arange(n),
                                      "fold": np.arange(n) % 3, "y_true": y, "score": s}))
    return pd.concat(rows, ignore_index=True)


def _simulated_per_task(slope, *, n_families=30, seed=0, base=0.25, spread=0.12):
    """A controlled-skew per-task table whose expected share at target pi is ``base + slope * x``,
    ``x = -log10(pi) - mean``: families of 1-3 tasks with a family effect, each task's
    disagreements monotone in pi (one uniform per task), so the truth is the slope."""
    rng = np.random.default_rng(seed)
    x = -np.log10(np.array(TARGETS))
    xc = x - x.mean()
    rows = []
    for f in range(n_families):
        u = rng.uniform(-spread, spread)
        for t in range(int(rng.integers(1, 4))):
            draw = rng.random()
            for pi, d in zip(TARGETS, xc, strict=True):
                differs = draw < base + u + slope * d
                for a, b in (("aupr", "auroc"), ("aupr", "auprg"), ("auprg", "auroc")):
                    rows.append({"task_id": f"f{f}-t{t}", "task_pi": 0.1, "task_n_pos": 20, "pi_target": pi,
                                 "negative_weight": 1.0, "metric_a": a, "metric_b": b, "n_models": 10,
                                 "top1_differs": differs, "top3_differs": draw < base + 0.2 + u + slope * d,
                                 "spearman": 0.9, "kendall": 0.8, "is_observed": False})
    per = pd.DataFrame(rows)
    tasks = pd.DataFrame({"task_id": per["task_id"].unique()})
    tasks["family"] = tasks["task_id"].str.split("-").str[0]
    return per, tasks


# --- the trend -------------------------------------------------------------------------------

def test_trend_slope_equals_least_squares_of_the_shares_on_a_known_linear_trend():
    # 20 tasks; at target j exactly round(20 * (0.1 + 0.12 x_j)) disagree: the shares are known
    x = -np.log10(np.array(TARGETS))
    want_shares = np.round(20 * (0.1 + 0.12 * (x - x.min()))) / 20
    rows = []
    for i in range(20):
        for pi, s in zip(TARGETS, want_shares, strict=True):
            rows.append({"task_id": f"t{i:02d}", "pi_target": pi, "metric_a": "aupr", "metric_b": "auroc",
                         "top1_differs": i < round(20 * s), "top3_differs": i < 10, "is_observed": False})
    # the task's own pi (is_observed) must be left out of the fit
    rows.append({"task_id": "t00", "pi_target": 0.3, "metric_a": "aupr", "metric_b": "auroc",
                 "top1_differs": True, "top3_differs": True, "is_observed": True})
    tr = CS.skew_trend(pd.DataFrame(rows), n_boot=200, seed=1).set_index("k")
    assert tr.loc[1, "slope"] == pytest.approx(np.polyfit(x, want_shares, 1)[0], abs=1e-12)
    assert tr.loc[1, "slope"] == pytest.approx(stats.linregress(x, want_shares).slope, abs=1e-12)
    assert tr.loc[3, "slope"] == pytest.approx(0.0, abs=1e-12)  # flat: half the tasks at every pi
    assert tr.loc[1, "share_at_max_pi"] == pytest.approx(want_shares[0])
    assert tr.loc[1, "share_at_min_pi"] == pytest.approx(want_shares[-1])
    assert (tr.loc[1, "pi_max"], tr.loc[1, "pi_min"]) == (max(TARGETS), min(TARGETS))
    assert tr.loc[1, "n_tasks"] == 20 and tr.loc[1, "n_families"] == 20 and tr.loc[1, "n_targets"] == 6
    assert tr.loc[1, "slope_lo"] <= tr.loc[1, "slope"] <= tr.loc[1, "slope_hi"]


def _simulated_matrix(slope, *, n_families=30, seed=0, base=0.25, spread=0.12, rho=0.8):
    """Tasks x targets disagreements whose expected share at target pi is ``base + slope * x``
    (``x = -log10(pi) - mean``): families of 1-3 tasks with a family effect; within a task the
    targets are correlated (a Gaussian copula with correlation ``rho``), as reweighting one task's
    negatives moves its disagreement gradually. The truth is the slope."""
    rng = np.random.default_rng(seed)
    x = -np.log10(np.array(TARGETS))
    sizes = rng.integers(1, 4, size=n_families)
    fam = np.repeat(np.arange(n_families), sizes)
    p = base + rng.uniform(-spread, spread, n_families)[fam, None] + slope * (x - x.mean())[None, :]
    z = rho * rng.normal(size=(len(fam), 1)) + np.sqrt(1 - rho**2) * rng.normal(size=(len(fam), len(x)))
    return (stats.norm.cdf(z) < p).astype(float), fam


def test_trend_interval_covers_the_truth_and_decides_as_calibrated_in_simulation():
    """Coverage of the planted slope, power on it, and the false 'rises' rate under no trend, at the
    default study's size (35 families); measured (300 simulations): coverage 0.95, power 0.95,
    false rate 0.027."""
    n_sim, planted = 200, 0.1
    covered, holds_planted, holds_null = 0, 0, 0
    for s in range(n_sim):
        v, fam = _simulated_matrix(planted, seed=s, n_families=35)
        _, lo, hi, _ = CS.share_slope(v, TARGETS, fam, n_boot=400, seed=s)
        covered += lo <= planted <= hi
        holds_planted += lo > 0
        v0, fam0 = _simulated_matrix(0.0, seed=1000 + s, n_families=35)
        holds_null += CS.share_slope(v0, TARGETS, fam0, n_boot=400, seed=s)[1] > 0
    mc = 2 * np.sqrt(0.05 * 0.95 / n_sim)  # two Monte Carlo standard errors
    assert covered / n_sim >= 0.95 - 0.03 - mc  # percentile cluster bootstrap: allow mild undercoverage
    assert holds_null / n_sim <= 0.025 + mc  # one-sided: the claimed side excludes 0 by chance
    assert holds_planted / n_sim >= 0.8  # and it can say yes


def test_trend_table_is_share_slope_of_each_pair_and_k():
    per, tasks = _simulated_per_task(0.08, seed=5)
    tr = CS.skew_trend(per, tasks=tasks, n_boot=300, seed=4).set_index(["metric_a", "metric_b", "k"])
    sub = per[(per.metric_a == "aupr") & (per.metric_b == "auroc")]
    for k in (1, 3):
        wide = sub.pivot_table(index="task_id", columns="pi_target", values=f"top{k}_differs", aggfunc="first")
        fam = tasks.set_index("task_id").loc[wide.index, "family"].to_numpy()
        slope, lo, hi, shares = CS.share_slope(wide.to_numpy(float), wide.columns, fam, n_boot=300, seed=4)
        assert tr.loc[("aupr", "auroc", k), ["slope", "slope_lo", "slope_hi"]].tolist() == [slope, lo, hi]
        assert tr.loc[("aupr", "auroc", k), "share_at_min_pi"] == shares[0]
        assert tr.loc[("aupr", "auroc", k), "n_families"] == tasks.family.nunique()


def test_trend_interval_is_seeded_and_shares_resamples_with_cluster_bootstrap_ci():
    per, tasks = _simulated_per_task(0.05, seed=3)
    a = CS.skew_trend(per, tasks=tasks, n_boot=200, seed=7)
    pd.testing.assert_frame_equal(a, CS.skew_trend(per, tasks=tasks, n_boot=200, seed=7))
    assert not a["slope_lo"].equals(CS.skew_trend(per, tasks=tasks, n_boot=200, seed=8)["slope_lo"])
    # each target's resampled shares are exactly cluster_bootstrap_ci's (same seed, same clusters)
    sub = per[(per.metric_a == "aupr") & (per.metric_b == "auroc")]
    wide = sub.pivot_table(index="task_id", columns="pi_target", values="top1_differs", aggfunc="first").astype(float)
    clusters = CS.task_families(wide.index, tasks)
    means, boot = CS.cluster_bootstrap_means(wide.to_numpy(), clusters, n_boot=200, seed=7)
    for j in range(wide.shape[1]):
        m, lo, hi = RANKING.cluster_bootstrap_ci(wide.iloc[:, j].to_numpy(), clusters, n_boot=200, seed=7)
        assert means[j] == pytest.approx(m, abs=1e-15)
        assert tuple(np.quantile(boot[:, j], [0.025, 0.975])) == pytest.approx((lo, hi), abs=1e-15)


# --- the counterfactual targets --------------------------------------------------------------

def test_quantile_matching_maps_min_median_max_and_keeps_order_and_ties():
    rng = np.random.default_rng(0)
    study = pd.Series(rng.uniform(0.005, 0.3, size=41), index=[f"t{i}" for i in range(41)])
    ref = rng.uniform(0.25, 0.5, size=26)
    got = CS.quantile_matched_pi(study, ref)
    assert got[study.idxmin()] == pytest.approx(ref.min())
    assert got[study.idxmax()] == pytest.approx(ref.max())
    assert got[(study - study.median()).abs().idxmin()] == pytest.approx(np.median(ref))
    order = study.sort_values().index
    assert np.all(np.diff(got[order].to_numpy()) >= 0)
    tied = pd.Series([0.1, 0.1, 0.2], index=["a", "b", "c"])
    q = CS.quantile_matched_pi(tied, ref)
    assert q["a"] == q["b"] and q["c"] == pytest.approx(ref.max())
    targets = CS.counterfactual_targets(study, ref)
    assert (targets[CS.REFERENCE_MEDIAN] == np.median(ref)).all()
    pd.testing.assert_series_equal(targets[CS.REFERENCE_DISTRIBUTION], got, check_names=False)


def test_reference_pi_keeps_usable_tasks_and_bad_input_is_one_line():
    ref = pd.DataFrame({"task_id": list("abcd"), "status": ["ok", "ok", "skipped", "ok"], "pi": [0.3, 0.5, 0.1, np.nan]})
    np.testing.assert_array_equal(CS.reference_pi(ref), [0.3, 0.5])
    with pytest.raises(InputError, match="no column 'pi'"):
        CS.reference_pi(ref.drop(columns="pi"))
    with pytest.raises(InputError, match="no usable task"):
        CS.reference_pi(ref.assign(status="skipped"))
    assert CS.reference_name("results/paperlike/tables/tasks.csv") == "paperlike"
    assert CS.reference_name("/x/my_tasks.csv") == "my_tasks"


# --- reweighting to per-task targets ---------------------------------------------------------

def test_reweighting_to_named_targets_equals_all_metrics_with_explicit_weights():
    df = _predictions(n=250, pi=0.15, repeats=2)
    targets = {"reference_median": 0.388, "reference_distribution": 0.4371, "tiny": 0.013}
    values = CS.reweighted_metrics(df, targets=targets, metrics=METRICS + ["pi"]).set_index(["target", "model_id"])
    assert set(values.index.get_level_values("target")) == {CS.OBSERVED, *targets}
    for label, pi in targets.items():
        for model, g in df.groupby("model_id"):
            want = []
            for _, gr in g.groupby("repeat"):
                y = gr["y_true"].to_numpy()
                c = y.sum() * (1 - pi) / (pi * (~y).sum())
                w = np.where(y, 1.0, c)  # the explicit weights: every negative weighs c
                want.append(M.all_metrics(y, gr["score"].to_numpy(), sample_weight=w))
            row = values.loc[(label, model)]
            for m in METRICS:
                assert row[m] == pytest.approx(np.mean([d[m] for d in want]), abs=1e-12), (label, model, m)
            assert row["pi"] == pytest.approx(pi, abs=1e-12) and row["pi_target"] == pi
    with pytest.raises(InputError, match="reserved"):
        CS.reweighted_metrics(df, targets={CS.OBSERVED: 0.3}, metrics=METRICS)


def test_auroc_and_its_ranks_do_not_move_at_the_counterfactual_targets():
    df = _predictions(n=400, pi=0.08, n_models=8, seed=2)
    values = CS.reweighted_metrics(df, targets={"m": 0.39, "q": 0.47}, metrics=METRICS)
    base = values[values.target == CS.OBSERVED].set_index("model_id")
    for _, g in values[values.target != CS.OBSERVED].groupby("target"):
        g = g.set_index("model_id")
        np.testing.assert_allclose(g["auroc"], base["auroc"], rtol=0, atol=1e-12)
        ranks = RANKING.rank_models(g.reset_index().assign(task_id="x"), ["auroc"])
        assert ranks["auroc"].tolist() == RANKING.rank_models(base.reset_index().assign(task_id="x"), ["auroc"])["auroc"].tolist()
        assert not np.allclose(g["aupr"], base["aupr"])  # precision-based metrics do move


def test_skew_task_counterfactual_rows_equal_the_grid_run_at_that_pi():
    df = _predictions(n=300, pi=0.1, n_models=7, seed=4)
    grid, cf = CS.skew_task(df, targets=TARGETS, counterfactual={"reference_median": 0.05,
                                                                  "reference_distribution": 0.2}, metrics=METRICS)
    pd.testing.assert_frame_equal(grid, CS.controlled_skew_task(df, targets=TARGETS, metrics=METRICS))
    assert list(cf.columns) == CS.COUNTERFACTUAL_PER_TASK_COLUMNS
    for tid, pi in (("reference_median", 0.05), ("reference_distribution", 0.2)):
        a = cf[cf.target_id == tid].drop(columns="target_id").reset_index(drop=True)
        b = grid[np.isclose(grid.pi_target, pi) & ~grid.is_observed].drop(columns="is_observed").reset_index(drop=True)
        pd.testing.assert_frame_equal(a[b.columns], b)


def test_counterfactual_summary_shares_and_intervals_as_the_study_computes_them():
    rng = np.random.default_rng(5)
    ids = [f"f{i // 2}-t{i}" for i in range(24)]
    rows = [{"task_id": t, "target_id": tid, "pi_target": pi, "metric_a": "aupr", "metric_b": "auroc",
             "top1_differs": rng.random() < 0.3, "top3_differs": rng.random() < 0.6}
            for t in ids for tid, pi in (("reference_median", 0.39), ("reference_distribution", rng.uniform(0.3, 0.5)))]
    cf = pd.DataFrame(rows)
    tasks = pd.DataFrame({"task_id": ids, "family": [t.split("-")[0] for t in ids]})
    ref = np.array([0.3, 0.35, 0.39, 0.43, 0.5])
    out = CS.counterfactual_summary(cf, reference=ref, tasks=tasks, n_boot=300, seed=2)
    assert list(out.columns) == CS.COUNTERFACTUAL_COLUMNS and len(out) == 4
    for _, r in out.iterrows():
        g = cf[cf.target_id == r.target_id].sort_values("task_id")
        m, lo, hi = RANKING.cluster_bootstrap_ci(g[f"top{r.k}_differs"].to_numpy(float), tasks.set_index("task_id").loc[g.task_id, "family"].to_numpy(),
                                           n_boot=300, seed=2)
        assert (r.share, r.lo, r.hi) == pytest.approx((m, lo, hi), abs=1e-15)
        assert r.n_tasks == 24 and r.n_families == 12 and r.n_reference == 5
    med = out[out.target_id == "reference_median"].iloc[0]
    assert med.target == "median pi of the reference 0.39" and med.pi_target_median == 0.39


# --- balance levels --------------------------------------------------------------------------

def test_balance_levels_partition_the_tasks_and_the_pooled_row_is_the_study_summary():
    rng = np.random.default_rng(6)
    ids = [f"t{i:02d}" for i in range(40)]
    tasks = pd.DataFrame({"task_id": ids, "pi": rng.uniform(0.01, 0.5, 40), "family": [f"f{i // 3}" for i in range(40)]})
    tasks.loc[0, "pi"] = 0.1  # on an edge: belongs to the upper level
    per = pd.DataFrame([{"task_id": t, "metric_a": a, "metric_b": b, "n_models": 10, "top1_differs": rng.random() < 0.4,
                         "top3_differs": rng.random() < 0.6, "spearman": 0.9, "kendall": 0.8}
                        for a, b in (("aupr", "auprg"), ("aupr", "auroc")) for t in ids])
    out = CS.disagreement_by_balance(per, tasks, n_boot=300, seed=0)
    assert list(out.columns) == CS.BALANCE_COLUMNS
    assert list(out["balance"].unique()) == ["all", "pi < 0.1", "0.1 <= pi < 0.3", "pi >= 0.3"]
    summ = RANKING.summarise_disagreement(per, tasks=tasks, n_boot=300, seed=0).set_index(["metric_a", "metric_b"])
    for (a, b, k), g in out.groupby(["metric_a", "metric_b", "k"]):
        g = g.set_index("balance")
        assert g.loc["all", ["share", "lo", "hi"]].tolist() == pytest.approx(
            summ.loc[(a, b), [f"top{k}_share", f"top{k}_lo", f"top{k}_hi"]].tolist(), abs=1e-15)
        assert g.drop("all")["n_tasks"].sum() == 40
        low = tasks[tasks.pi < 0.1]
        assert g.loc["pi < 0.1", "n_tasks"] == len(low) and g.loc["pi < 0.1", "n_families"] == low.family.nunique()
        sub = per[(per.metric_a == a) & (per.metric_b == b) & per.task_id.isin(low.task_id)]
        assert g.loc["pi < 0.1", "share"] == pytest.approx(sub[f"top{k}_differs"].mean())
        assert g.loc["pi < 0.1", "pi_median"] == pytest.approx(low.pi.median())
    empty = CS.disagreement_by_balance(per, tasks.assign(pi=0.4), n_boot=50, seed=0)
    lvl = empty[empty.balance == "pi < 0.1"]
    assert (lvl.n_tasks == 0).all() and lvl.share.isna().all()
    with pytest.raises(InputError, match="balance edges"):
        CS.balance_levels([0.3, 0.1])
    with pytest.raises(InputError, match="no pi"):
        CS.disagreement_by_balance(per, tasks.iloc[1:], n_boot=10)


# --- evidence rows ---------------------------------------------------------------------------

def _numbers(text):
    return [float(v) for v in re.findall(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e-?\d+)?", text)]


def test_evidence_rows_have_the_schema_and_their_numbers_come_from_the_tables():
    per, tasks = _simulated_per_task(0.08, seed=11)
    trend = CS.skew_trend(per, tasks=tasks, n_boot=200, seed=0)
    rng = np.random.default_rng(12)
    rows = []
    for a, b in RANKING.PAPER_RESULTS:
        for tid, pi in (("reference_median", 0.3881), ("reference_distribution", None)):
            for t in tasks.task_id:
                rows.append({"task_id": t, "target_id": tid, "pi_target": pi or rng.uniform(0.29, 0.49),
                             "metric_a": a, "metric_b": b, "top1_differs": rng.random() < 0.3,
                             "top3_differs": rng.random() < 0.6})
    cf = CS.counterfactual_summary(pd.DataFrame(rows), reference=[0.29, 0.3881, 0.49], tasks=tasks, n_boot=200, seed=0)
    candidates = CS.skew_evidence(trend, cf, reference_name="paperlike")
    ev = shown_skew_evidence(candidates)
    assert list(ev.columns) == EVIDENCE_COLUMNS
    ids = set(ev.claim_id)
    assert (ev.paper == "prspace").all()  # this project's counterfactual, never under the paper's column
    for a, b in RANKING.PAPER_RESULTS:
        for k in (1, 3):
            assert {f"px.{a}_{b}.top{k}.skew_trend", f"px.{a}_{b}.top{k}.at_paperlike_pi_distribution"} <= ids
    # the analysis writes both variants; the median one is shown only where its verdict differs from
    # the distribution variant's (a choice of prspace.verdicts, the candidates' order kept)
    both = set(candidates.claim_id)
    assert {f"px.{a}_{b}.top{k}.at_paperlike_pi" for a, b in RANKING.PAPER_RESULTS for k in (1, 3)} <= both
    v = apply_rule(candidates).set_index("claim_id")
    for cid in [i for i in both if i.endswith(".at_paperlike_pi")]:
        assert (cid in ids) == (v.loc[cid, "verdict"] != v.loc[cid + "_distribution", "verdict"])
    assert ev.claim_id.tolist() == [c for c in candidates.claim_id if c in ids]
    pd.testing.assert_frame_equal(ev.set_index("claim_id"), candidates.set_index("claim_id").loc[ev.claim_id])
    # none when the reference is the study's own tasks
    own = CS.skew_evidence(trend, cf, reference_name="paperlike", own_reference=True)
    assert not own.claim_id.str.contains("at_paperlike").any() and len(own) == 6
    for _, r in ev.iterrows():
        a, b, k = re.match(r"\w+\.(\w+?)_(\w+)\.top(\d)", r.claim_id).groups()
        if r.claim_id.endswith("skew_trend"):
            t = trend[(trend.metric_a == a) & (trend.metric_b == b) & (trend.k == int(k))].iloc[0]
            assert r.kind == "direction" and r.paper_value == 1 and r.paper == "prspace"
            assert (r.estimate, r.ci_lo, r.ci_hi) == (t.slope, t.slope_lo, t.slope_hi)
            assert _numbers(r.detail)[:1] + _numbers(r.detail)[-4:] == pytest.approx(
                [float(f"{v:.3g}") for v in (t.slope, t.share_at_max_pi, t.pi_max, t.share_at_min_pi, t.pi_min)])
        else:
            tid = "reference_distribution" if r.claim_id.endswith("distribution") else "reference_median"
            c = cf[(cf.metric_a == a) & (cf.metric_b == b) & (cf.k == int(k)) & (cf.target_id == tid)].iloc[0]
            ref = REG.BY_ID[f"fk.{a}_{b}.top{k}"]
            assert r.kind == "share" and r.paper == "prspace"
            assert r.paper_value == ref.paper_value == RANKING.PAPER_RESULTS[(a, b)][f"top{k}"] and r.tolerance == ref.margin
            assert (r.estimate, r.ci_lo, r.ci_hi, r.n_tasks, r.n_families) == (c.share, c.lo, c.hi, c.n_tasks, c.n_families)
            assert r.mc_error == c.mc_error > 0
            want = [c.pi_target_median] if tid == "reference_median" else [c.pi_target_min, c.pi_target_max]
            assert _numbers(r.claim)[1:] == pytest.approx([float(f"{v:.3g}") for v in want])
    verdicts = apply_rule(ev)  # the one rule decides every row
    planted = verdicts[verdicts.claim_id == "px.aupr_auroc.top1.skew_trend"].iloc[0]
    assert planted.verdict == "holds"


def test_own_reference_is_recognised_from_the_task_table():
    tasks = pd.DataFrame({"task_id": list("abcd"), "status": ["ok", "ok", "ok", "failed"], "pi": [0.3, 0.1, 0.5, 0.2]})
    assert CS.is_own_reference(tasks, CS.reference_pi(tasks))
    assert CS.is_own_reference(tasks, [0.5, 0.1, 0.3])  # order does not matter
    assert not CS.is_own_reference(tasks, [0.1, 0.3, 0.5, 0.2])  # the failed task is not the study's
    assert not CS.is_own_reference(tasks, [0.1, 0.3, 0.51])


# --- the command and the workflow's reference path ----------------------------------------------

def _write_task(tmp_path, task, pi, seed):
    df = _predictions(n=200, pi=pi, n_models=5, seed=seed, task=task)
    y = df[df.model_id == "m0"]["y_true"]
    df["flow_id"], df["flow_name"] = df["model_id"], df["model_id"]
    info = TaskInfo(task_id=task, source="local", dataset_id=task, dataset_name=task, n=len(y), n_pos=int(y.sum()),
                    positive_class="1", estimation_procedure="3-fold", n_folds=3, n_repeats=1, n_models=5,
                    provenance="test", created_at="2026-01-01T00:00:00Z")
    path = tmp_path / f"{task}.parquet"
    write_predictions(df, info, path)
    status = tmp_path / f"{task}.json"
    status.write_text(json.dumps({"task_id": task, "status": "ok", "predictions": str(path)}))
    return status, info.pi


def test_command_writes_the_new_tables_and_keeps_the_existing_ones(tmp_path):
    statuses, rows = [], []
    for i, pi in enumerate((0.05, 0.12, 0.3, 0.45)):
        s, p = _write_task(tmp_path, f"t{i}", pi, seed=i)
        statuses.append(str(s))
        rows.append({"task_id": f"t{i}", "status": "ok", "pi": p, "n_pos": 10, "family": f"f{i // 2}"})
    tasks = tmp_path / "tasks.csv"
    pd.DataFrame(rows).to_csv(tasks, index=False)
    ref = tmp_path / "ref" / "tables" / "tasks.csv"
    ref.parent.mkdir(parents=True)
    pd.DataFrame({"task_id": list("abc"), "status": "ok", "pi": [0.35, 0.4, 0.5]}).to_csv(ref, index=False)
    per_task = tmp_path / "disagreement_per_task.csv"
    pd.DataFrame([{"task_id": f"t{i}", "metric_a": "aupr", "metric_b": "auroc", "n_models": 5, "top1_differs": i % 2 == 0,
                   "top3_differs": True, "spearman": 0.9, "kendall": 0.8} for i in range(4)]).to_csv(per_task, index=False)
    out = tmp_path / "out"
    argv = ["step", "controlled_skew", "--in", "status=" + statuses[0], *statuses[1:], "--in", f"tasks={tasks}",
            "--in", f"per_task={per_task}", "--in", f"reference={ref}", "--set", 'metrics=["aupr", "auroc", "auprg"]',
            "--set", "targets=[0.5, 0.2, 0.1, 0.05, 0.02, 0.01]", "--set", "n_boot=50", "--set", "seed=0",
            "--tables-dir", str(out)]
    assert main(argv) == 0
    # the figure is its own command, drawn from the two tables alone
    png = tmp_path / "fig" / "controlled_skew.png"
    assert main(["figure", "controlled_skew", "--tables", str(out / "controlled_skew.csv"),
                 str(out / "controlled_skew_observed.csv"), "--out", str(png), "--formats", "png"]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    for name in ("controlled_skew", "controlled_skew_observed", "controlled_skew_trend",
                 "controlled_skew_counterfactual", "disagreement_by_balance", "skew_evidence"):
        assert (out / f"{name}.csv").exists() and (out / f"{name}.md").exists(), name
    cf = pd.read_csv(out / "controlled_skew_counterfactual_per_task.csv")
    med = cf[cf.target_id == "reference_median"]
    assert np.allclose(med.pi_target, 0.4)
    dist = cf[cf.target_id == "reference_distribution"].drop_duplicates("task_id").set_index("task_id")["pi_target"]
    assert dist["t0"] == pytest.approx(0.35) and dist["t3"] == pytest.approx(0.5)
    ev = pd.read_csv(out / "skew_evidence.csv")
    assert "px.aupr_auroc.top1.at_paperlike_pi_distribution" in set(ev.claim_id)
    # the command writes the rows shown (prspace.verdicts.controlled_skew_step): no median variant saying what its
    # distribution variant says (here every median variant does: none is written)
    v = apply_rule(ev).set_index("claim_id")["verdict"]
    assert not [c for c in v.index if c.endswith(".at_paperlike_pi") and v[c] == v[c + "_distribution"]]
    assert not ev.claim_id.str.endswith(".at_paperlike_pi").any()
    assert "the ref suite's pi distribution (0.35 to 0.5" in ev.set_index("claim_id").loc[
        "px.aupr_auroc.top1.at_paperlike_pi_distribution", "claim"]
    # a bad reference is one line and exit status 2
    bad = [a.replace(str(ref), str(tmp_path / "missing.csv")) for a in argv]
    assert main(bad) == 2


def test_skew_reference_path_prefers_the_working_directory_then_the_workflow_folder(tmp_path):
    work, base = tmp_path / "work", tmp_path / "base"
    (base / "results" / "paperlike" / "tables").mkdir(parents=True)
    (base / "results" / "paperlike" / "tables" / "tasks.csv").write_text("task_id,pi\n")
    work.mkdir()
    ref = "results/paperlike/tables/tasks.csv"
    assert skew_reference_path(ref, own_tasks="results/default/tables/tasks.csv", work_dir=work, base_dir=base) == str(base / ref)
    assert skew_reference_path(ref, own_tasks=ref, work_dir=work, base_dir=base) == ref  # made by this run
    (work / "results" / "paperlike" / "tables").mkdir(parents=True)
    (work / ref).write_text("task_id,pi\n")
    assert skew_reference_path(ref, own_tasks="x", work_dir=work, base_dir=base) == ref
    with pytest.raises(InputError, match="analysis.skew_reference"):
        skew_reference_path("nowhere.csv", own_tasks="x", work_dir=work, base_dir=base)


def test_skew_report_is_what_the_step_writes(tmp_path):
    """prspace.verdicts.controlled_skew_step: the tables in the step's order, with titles and notes."""
    from prspace.verdicts.controlled_skew_step import skew_report
    statuses, rows = [], []
    for i, pi in enumerate((0.05, 0.3)):
        s, p = _write_task(tmp_path, f"t{i}", pi, seed=i)
        statuses.append(s)
        rows.append({"task_id": f"t{i}", "status": "ok", "pi": p, "n_pos": 10, "family": f"f{i}"})
    observed = pd.DataFrame([{"task_id": f"t{i}", "metric_a": "aupr", "metric_b": "auroc", "n_models": 5,
                              "top1_differs": True, "top3_differs": True, "spearman": 0.9, "kendall": 0.8}
                             for i in range(2)])
    ref = pd.DataFrame({"task_id": list("abc"), "status": "ok", "pi": [0.35, 0.4, 0.5]})
    rep = skew_report(statuses, pd.DataFrame(rows), ref, observed, targets=[0.5, 0.1], metrics=["aupr", "auroc"],
                      edges=[0.1, 0.3], n_boot=20, seed=0, reference="ref/tables/tasks.csv")
    assert [t.table.name for t in rep.tables] == [
        "controlled_skew_per_task", "controlled_skew_counterfactual_per_task", "controlled_skew",
        "controlled_skew_observed", "controlled_skew_trend", "controlled_skew_counterfactual", "disagreement_by_balance",
        "skew_evidence"]
    per_task = rep.tables[0].frame
    assert set(per_task["task_id"]) == {"t0", "t1"} and set(per_task["pi_target"]) >= {0.5, 0.1}
    notes = {t.table.name: t.note for t in rep.tables}
    assert "Reference: 3 usable tasks of ref/tables/tasks.csv (median pi 0.4)" in notes["controlled_skew_counterfactual"]
    assert "20 resamples, seed 0" in notes["controlled_skew"]
