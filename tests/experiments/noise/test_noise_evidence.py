"""The noise floor's batch kernel, its cross- vs self-disagreement columns and the evidence rows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

from prspace import metrics as M
from prspace.core.errors import InputError
from prspace.experiments.noise import noise_calibration as C
from prspace.experiments.noise import noise_floor as NF
from prspace.experiments.noise.noise_evidence import noise_evidence
from prspace.experiments.ranking import cluster_bootstrap_ci
from prspace.verdicts import report as VR
from prspace.verdicts import rule as RULE
from prspace.verdicts import study_evidence as EV


def _tied_counts(seed: int, n: int = 300, n_boot: int = 25, weights: str = "multinomial"):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.15
    y[:2] = [True, False]
    s = np.round(rng.normal(size=n) + 1.2 * y, 1)  # about 60 distinct scores: many ties
    if weights == "multinomial":
        w = NF.stratified_counts(y, n_boot, rng)
    else:
        w = rng.random((n_boot, n)) * (rng.random((n_boot, n)) < 0.8)
        w[:, :2] = 1.0  # both classes keep weight
    _, group = np.unique(-s, return_inverse=True)
    k = int(group.max()) + 1
    tp, fp = NF.group_counts(w, group, y.astype(np.float64), k)
    return y, s, w, tp, fp


@pytest.mark.parametrize("weights", ["multinomial", "real"])
def test_batch_kernel_equals_the_row_wise_kernel_and_scikit_learn(weights):
    y, s, w, tp, fp = _tied_counts(1, weights=weights)
    batch = M.metrics_from_group_counts_batch(tp, fp)
    assert set(batch) == set(M.metrics_from_group_counts(tp[0], fp[0]))
    for b in range(w.shape[0]):
        row = M.metrics_from_group_counts(tp[b], fp[b])
        for m, v in row.items():
            assert batch[m][b] == pytest.approx(v, abs=1e-12, rel=0), (m, b)
        full = M.all_metrics(y, s, sample_weight=w[b])
        for m, v in full.items():
            assert batch[m][b] == pytest.approx(v, abs=1e-12, rel=0), (m, b)
        # independent oracles: scikit-learn with the same weights, ties included
        assert batch["auroc"][b] == pytest.approx(roc_auc_score(y, s, sample_weight=w[b]), abs=1e-12)
        assert batch["average_precision"][b] == pytest.approx(
            average_precision_score(y, s, sample_weight=w[b]), abs=1e-12)


def test_batch_group_counts_equal_bincount():
    y, s, w, tp, fp = _tied_counts(2)
    _, group = np.unique(-s, return_inverse=True)
    yf = y.astype(np.float64)
    for b in (0, 7, 24):
        np.testing.assert_array_equal(tp[b], np.bincount(group, w[b] * yf, tp.shape[1]))
        np.testing.assert_array_equal(fp[b], np.bincount(group, w[b] * (1 - yf), tp.shape[1]))


def test_batch_kernel_rejects_one_class_and_bad_shapes():
    with pytest.raises(ValueError, match="one class"):
        M.metrics_from_group_counts_batch(np.array([[1.0, 0.0], [0.0, 0.0]]), np.array([[1.0, 1.0], [1.0, 0.0]]))
    with pytest.raises(ValueError, match="2-d"):
        M.metrics_from_group_counts_batch(np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="non-negative"):
        M.metrics_from_group_counts_batch(np.array([[1.0, -1.0]]), np.array([[1.0, 1.0]]))


def _predictions(seed: int = 0, n: int = 160, n_models: int = 6) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    y[:2] = [True, False]
    rows = []
    for j in range(n_models):
        s = np.round(y * (0.3 + 0.15 * j) + rng.normal(size=n), 2)
        rows.append(pd.DataFrame({"task_id": "t", "model_id": f"m{j}", "repeat": 0, "fold": 0,
                                  "row_id": np.arange(n), "y_true": y, "score": s}))
    return pd.concat(rows, ignore_index=True)


def _bootstrap_metrics_loop(df: pd.DataFrame, metrics, n_boot: int, seed: int):
    """The noise floor's bootstrap as it was before the batch kernel: one call per resample."""
    models = sorted(df["model_id"].unique())
    row_ids = np.sort(df["row_id"].unique())
    y_rows = df.drop_duplicates("row_id").set_index("row_id")["y_true"].reindex(row_ids).to_numpy(bool)
    w = NF.stratified_counts(y_rows, n_boot, NF._task_seed(seed, "t"))
    boot = {m: np.zeros((n_boot, len(models))) for m in metrics}
    for j, model in enumerate(models):
        g = df[df.model_id == model]
        pos = np.searchsorted(row_ids, g["row_id"].to_numpy())
        yf = g["y_true"].to_numpy(np.float64)
        _, group = np.unique(-g["score"].to_numpy(np.float64), return_inverse=True)
        k = int(group.max()) + 1
        for b in range(n_boot):
            wb = w[b, pos]
            res = M.metrics_from_group_counts(np.bincount(group, wb * yf, k), np.bincount(group, wb * (1 - yf), k))
            for m in metrics:
                boot[m][b, j] = res[m]
    return boot


def test_replicates_average_cv_repeats_as_scikit_learn_with_the_same_weights():
    """Two CV repeats, rows listed in another order in each: every replicate is the mean over the
    repeats of scikit-learn's weighted AUROC and AP under the row weights of that replicate."""
    rng = np.random.default_rng(4)
    n = 90
    y = rng.random(n) < 0.3
    y[:2] = [True, False]
    frames = []
    for r in (0, 1):
        for j in range(3):
            order = rng.permutation(n)
            s = np.round(y * (0.4 * j + 0.2 * r) + rng.normal(size=n), 1)  # ties
            frames.append(pd.DataFrame({"task_id": "t", "model_id": f"m{j}", "repeat": r, "fold": r,
                                        "row_id": order, "y_true": y[order], "score": s[order]}))
    df = pd.concat(frames, ignore_index=True)
    metrics = ["auroc", "average_precision"]
    w = NF.stratified_counts(y, 6, NF._task_seed(1, "t"))
    groups, _ = NF.jackknife_groups(y.astype(np.int64), max_groups=NF.JACK_GROUPS, rng=NF._task_seed(1, "t"))
    models, full, boot = NF.bootstrap_metrics(df, metrics=metrics, n_boot=6, seed=1)
    _, _, jack, _ = NF.jackknife_metrics(df, metrics=metrics, seed=1)
    assert models == ["m0", "m1", "m2"] and jack["auroc"].shape == (n, 3)
    oracle = {"auroc": roc_auc_score, "average_precision": average_precision_score}
    for j, m in enumerate(models):
        per = [df[(df.model_id == m) & (df.repeat == r)].sort_values("row_id") for r in (0, 1)]
        for name, f in oracle.items():
            assert full[name][j] == pytest.approx(np.mean([f(g.y_true, g.score) for g in per]), abs=1e-12)
            for b in range(6):
                want = np.mean([f(g.y_true, g.score, sample_weight=w[b]) for g in per])
                assert boot[name][b, j] == pytest.approx(want, abs=1e-12)
            for i in (0, 1, 45):
                keep = np.ones(n, dtype=bool)
                keep[groups[i]] = False
                want = np.mean([f(g.y_true[keep], g.score[keep]) for g in per])
                assert jack[name][i, j] == pytest.approx(want, abs=1e-12)


def test_bootstrap_metrics_equal_the_loop_it_replaced():
    df = _predictions()
    metrics = ["aupr", "average_precision", "auprg", "auroc", "aucnpr"]
    _, _, boot = NF.bootstrap_metrics(df, metrics=metrics, n_boot=40, seed=5)
    ref = _bootstrap_metrics_loop(df, metrics, 40, 5)
    for m in metrics:
        np.testing.assert_allclose(boot[m], ref[m], rtol=0, atol=1e-12)


def test_resample_pair_disagreement_equals_the_pairwise_count():
    rng = np.random.default_rng(4)
    vals_a = np.round(rng.normal(size=(30, 7)), 1)  # ties within resamples
    vals_b = vals_a + rng.normal(scale=0.3, size=(30, 7))
    pa, pb = NF._positions(vals_a), NF._positions(vals_b)
    for k in (1, 3):
        for x, y in ((pa, pb), (pa, pa), (pb, pb)):
            brute = [bool(NF.topk_differs(x[i], y[j], k)) for i in range(30) for j in range(30) if i != j]
            assert NF.resample_pair_disagreement(x, y, k) == pytest.approx(np.mean(brute), abs=1e-15)


def test_cross_vs_self_columns_on_a_task():
    df = _predictions(seed=1)
    _, pairs = NF.noise_floor_task(df, metrics=["aupr", "aucnpr", "auroc"], n_boot=60, seed=2)
    assert list(pairs.columns) == NF.PAIR_COLUMNS
    same = pairs[(pairs.metric_a == "aupr") & (pairs.metric_b == "aucnpr")].iloc[0]
    # AUCNPR is an increasing function of AUPR within a resample: cross = self, difference 0
    for k in (1, 3):
        assert same[f"top{k}_cross"] == same[f"top{k}_self_a"] == same[f"top{k}_self_b"]
        assert same[f"top{k}_cross_minus_self"] == 0
    for r in pairs.itertuples():
        for k in (1, 3):
            assert getattr(r, f"top{k}_cross_minus_self") == pytest.approx(
                getattr(r, f"top{k}_cross") - (getattr(r, f"top{k}_self_a") + getattr(r, f"top{k}_self_b")) / 2)


def test_distinguishable_needs_both_intervals_above_zero():
    rng = np.random.default_rng(0)
    big = 1 + 0.1 * rng.normal(size=200)  # clearly above 0
    zero = 0.1 * rng.normal(size=200)  # straddles 0
    z = np.zeros(200)
    assert NF.distinguishable(big, z, z, big)  # a prefers A, b prefers B, both clearly
    assert not NF.distinguishable(big, z, z, zero)  # b's preference is noise
    assert not NF.distinguishable(zero, z, z, big)
    np.testing.assert_array_equal(NF.distinguishable(np.stack([big, zero]), z, z, big), [True, False])


# --- evidence rows -------------------------------------------------------------------------------


def _pairs_table(n_tasks: int = 90, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(n_tasks):
        for a, b in (("aupr", "auprg"), ("aupr", "auroc"), ("auprg", "auroc"), ("aupr", "aucnpr")):
            row = {"task_id": f"t{t}", "metric_a": a, "metric_b": b}
            for k in (1, 3):
                differs = bool(rng.random() < 0.8)
                row[f"top{k}_differs"] = differs
                row[f"top{k}_distinguishable"] = (t % 41 == 0) if differs else float("nan")
                cross, sa, sb = rng.random(3)
                row.update({f"top{k}_cross": cross, f"top{k}_self_a": sa, f"top{k}_self_b": sb,
                            f"top{k}_cross_minus_self": cross - (sa + sb) / 2})
            rows.append(row)
    tasks = pd.DataFrame({"task_id": [f"t{t}" for t in range(n_tasks)], "family": [f"f{t // 3}" for t in range(n_tasks)]})
    return pd.DataFrame(rows), tasks


def _summary() -> pd.DataFrame:
    return pd.DataFrame([
        {"pair": p, "metric_a": p.split("_")[0], "metric_b": p.split("_")[1], "size": s, "n_pos": n, "n_neg": 10 * n,
         "alpha": 0.05, "n_sim_null": 200, "false_rate_null": 0.0, "false_rate_null_se": 0.0,
         "false_rate_eq_a": 0.035, "false_rate_eq_a_se": 0.013, "other_power_eq_a": 1.0,
         "false_rate_eq_b": 0.045, "false_rate_eq_b_se": 0.015, "other_power_eq_b": 0.98,
         "false_rate": 0.045, "false_rate_se": 0.015, "false_rate_upper": 0.075, "max_reversal": 0.2, "power_at_max": 0.9 if s == "q50" else 0.5,
         "mdr80": 0.123 if s == "q50" else float("nan")}
        for p in ("aupr_auprg", "aupr_auroc", "auprg_auroc") for s, n in (("q25", 20), ("q50", 40), ("q75", 80))],
        columns=C.SUMMARY_COLUMNS)


def test_evidence_rows_count_and_intervals():
    pairs, tasks = _pairs_table()
    ev = noise_evidence(pairs, tasks, _summary(), n_boot=300, seed=4)
    assert list(ev.columns) == RULE.EVIDENCE_COLUMNS
    assert len(ev) == 12 and ev.claim_id.is_unique  # 3 pairs x top-1/top-3 x 2 claims; aupr_aucnpr is not Flach & Kull's
    assert set(ev.paper) == {"prspace"}
    for (a, b) in (("aupr", "auprg"), ("aupr", "auroc"), ("auprg", "auroc")):
        sub = pairs[(pairs.metric_a == a) & (pairs.metric_b == b)]
        fam = tasks.set_index("task_id").family.reindex(sub.task_id).to_numpy()
        for k in (1, 3):
            row = ev.set_index("claim_id").loc[f"px.{a}_{b}.top{k}.distinguishable"]
            d = sub[sub[f"top{k}_differs"]]
            assert row.kind == "bound" and row.n == len(d) and row.k == int(d[f"top{k}_distinguishable"].sum())
            assert "every planted reversal of 0.123 or more was detected with power >= 0.8" in row.detail
            assert "reject at level 0.05" in row.detail
            assert "a equal, b not 0.035 (se 0.013)" in row.detail and "b equal, a not 0.045" in row.detail
            diff = ev.set_index("claim_id").loc[f"px.{a}_{b}.top{k}.cross_vs_self"]
            est, lo, hi = cluster_bootstrap_ci(sub[f"top{k}_cross_minus_self"].to_numpy(), fam, n_boot=300, seed=4)
            assert diff.kind == "difference" and (diff.estimate, diff.ci_lo, diff.ci_hi) == (est, lo, hi)
            assert diff.n_families == 30


def test_zero_of_82_reads_as_mostly_within_noise_with_the_exact_bound():
    pairs, tasks = _pairs_table()
    sub = pairs[(pairs.metric_a == "aupr") & (pairs.metric_b == "auprg")].copy()
    sub["top1_differs"] = [i < 82 for i in range(len(sub))]
    sub["top1_distinguishable"] = [False if i < 82 else float("nan") for i in range(len(sub))]
    ev = noise_evidence(sub, tasks, None, n_boot=100)
    v = RULE.apply_rule(ev).set_index("claim_id").loc["px.aupr_auprg.top1.distinguishable"]
    assert (v.k, v.n) == (0, 82)
    # 0 of 82 tasks in F families: no variance to measure, so the families are the effective cases and
    # the upper end is Clopper-Pearson's closed form for 0 of F
    fam = tasks.set_index(tasks.task_id.astype(str)).loc[sub.task_id[:82].astype(str), "family"].nunique()
    assert fam < 82 and v.n_eff == fam
    assert v.ci_hi == pytest.approx(1 - 0.025 ** (1 / fam), rel=1e-9)
    assert v.ci_hi > 1 - 0.025 ** (1 / 82)  # wider than counting the tasks as independent
    assert v.verdict == RULE.WITHIN_NOISE
    assert "power is unknown" in v.explanation


def test_evidence_needs_the_cross_columns(tmp_path):
    pairs, tasks = _pairs_table(6)
    with pytest.raises(InputError, match="rerun prspace step noise_floor"):
        noise_evidence(pairs.drop(columns=["top1_cross_minus_self"]), tasks, None)


def test_cli_writes_evidence_the_verdicts_read(tmp_path):
    from prspace.cli import main

    pairs, tasks = _pairs_table(12)
    pairs.to_csv(tmp_path / "pairs.csv", index=False)
    tasks.to_csv(tmp_path / "tasks.csv", index=False)
    _summary().to_csv(tmp_path / "cal.csv", index=False)
    assert main(["step", "noise_evidence", "--in", f"pairs={tmp_path / 'pairs.csv'}", "--in",
                 f"tasks={tmp_path / 'tasks.csv'}", "--in", f"calibration={tmp_path / 'cal.csv'}", "--set", "n_boot=50",
                 "--set", "seed=0", "--tables-dir", str(tmp_path)]) == 0
    ev = EV.collect_evidence(tmp_path, n_boot=200)
    assert {f"px.{p}.top1.distinguishable" for p in VR.PAIRS} <= set(ev.claim_id)


def test_power_is_the_calibration_at_the_size_of_the_counted_tasks():
    """power = power_at_max of the calibrated size closest (log n_pos) to the median n_pos of the
    disagreeing tasks; the detail names that size and the planted scenario."""
    pairs, tasks = _pairs_table()
    # sizes 70..110 positives: median of any subset is far nearer q75 (80) than q50 (40)
    tasks = tasks.assign(n_pos=70 + np.arange(len(tasks)) % 41, n=1000)
    ev = noise_evidence(pairs, tasks, _summary(), n_boot=100).set_index("claim_id")
    row = ev.loc["px.aupr_auprg.top1.distinguishable"]
    assert row.power == 0.5  # _summary: power_at_max 0.5 off q50
    assert "task size q75 (80 positives, 800 negatives" in row.detail
    assert "power 0.50 at the largest planted reversal" in row.detail and "by 0.200 in the population" in row.detail
    # small tasks: q25; without n_pos: q50 (power 0.9)
    small = noise_evidence(pairs, tasks.assign(n_pos=19), _summary(), n_boot=100).set_index("claim_id")
    assert "task size q25 (20 positives" in small.loc["px.aupr_auroc.top3.distinguishable", "detail"]
    plain = noise_evidence(pairs, tasks.drop(columns=["n_pos"]), _summary(), n_boot=100).set_index("claim_id")
    assert plain.loc["px.aupr_auroc.top3.distinguishable", "power"] == 0.9
    assert np.isnan(noise_evidence(pairs, tasks, None, n_boot=100).set_index("claim_id")
                    .loc["px.aupr_auroc.top3.distinguishable", "power"])
    # every bound row has a power, no difference row does
    assert ev.loc[ev.kind == "bound", "power"].notna().all() and ev.loc[ev.kind == "difference", "power"].isna().all()


def test_calibration_at_picks_the_nearest_size_in_log_scale():
    from prspace.experiments.noise.noise_evidence import calibration_at

    s = _summary()
    assert calibration_at(s, "aupr_auroc", 28)["size"] == "q25"  # log: 28/20 = 1.4 < 40/28 = 1.43
    assert calibration_at(s, "aupr_auroc", 29)["size"] == "q50"
    assert calibration_at(s, "aupr_auroc", float("nan"))["size"] == "q50"
    assert calibration_at(s, "nope_pair", 40) is None and calibration_at(None, "aupr_auroc", 40) is None


def test_cross_vs_self_row_carries_interval_level_mc_error_and_plain_words():
    pairs, tasks = _pairs_table()
    ev = noise_evidence(pairs, tasks, _summary(), n_boot=400, seed=2).set_index("claim_id")
    for k in (1, 3):
        r = ev.loc[f"px.aupr_auroc.top{k}.cross_vs_self"]
        assert np.isfinite([r.estimate, r.ci_lo, r.ci_hi]).all() and r.ci_lo <= r.estimate <= r.ci_hi
        assert r.level == 0.95 and 0 < r.mc_error < (r.ci_hi - r.ci_lo) / 2
        assert r.detail.startswith("how much more often the two metrics disagree")
        assert "than one metric disagrees with itself on resampled test rows" in r.detail


def test_replicates_are_the_cluster_bootstrap_ones():
    from prspace.stats.family_bootstrap import cluster_resamples, family_replicates

    rng = np.random.default_rng(3)
    v, cl = rng.random(40), np.repeat(np.arange(13), 4)[:40].astype(str)
    v[5] = np.nan
    boot = family_replicates(v, *cluster_resamples(cl, n_boot=500, seed=7))
    _, lo, hi = cluster_bootstrap_ci(v, cl, n_boot=500, seed=7)
    assert (lo, hi) == tuple(np.nanquantile(boot, [0.025, 0.975]))


def test_percentile_mc_error_against_the_normal_closed_form():
    """The binomial method's standard error of the 2.5% / 97.5% percentile of B = 1000 standard
    normal replicates against sqrt(q (1 - q) / B) / phi(Phi^-1(q)) = 0.0845 (asymptotic); the
    larger of the two ends is reported, so it runs somewhat above the closed form, never below."""
    from scipy import stats

    from prspace.stats.intervals import order_statistic_mc_error as percentile_mc_error

    rng = np.random.default_rng(0)
    want = np.sqrt(0.025 * 0.975 / 1000) / stats.norm.pdf(stats.norm.ppf(0.025))
    got = np.mean([percentile_mc_error(rng.standard_normal(1000)) for _ in range(200)])
    assert want <= got <= 1.35 * want
    # spread of the two ends across repeated bootstraps: the empirical standard error
    ends = np.array([np.quantile(rng.standard_normal(1000), [0.025, 0.975]) for _ in range(500)])
    assert ends.std(axis=0).max() == pytest.approx(want, rel=0.15)
    assert np.isnan(percentile_mc_error(np.ones(5)))
