"""prspace.stats.cd: Friedman / Iman-Davenport / Nemenyi / Wilcoxon-Holm and the cliques of a CD
diagram, checked against scipy and Demsar (2006); the across-metrics order test calibrated."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from prspace.core.errors import InputError
from prspace.experiments.ranking.cd_tables import study_tables
from prspace.stats.cd import (
    _order_p,
    calibrate_order_test,
    critical_difference,
    family_codes,
    friedman_statistics,
    holm,
    metric_order_test,
    nemenyi_q,
    rank_matrix,
    scores_matrix,
)

# Demsar (2006), JMLR 7:1-30, Table 6: AUC of four variants of C4.5 on 14 UCI data sets
DEMSAR_NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DEMSAR_AUC = np.array([
    [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569], [0.954, 0.971, 0.968, 0.967],
    [0.628, 0.661, 0.654, 0.657], [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625], [0.775, 0.838, 0.866, 0.875],
    [1.000, 1.000, 1.000, 1.000], [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    [0.972, 0.981, 0.975, 0.975], [0.957, 0.978, 0.946, 0.970],
])  # fmt: skip
# the paper's average ranks (section 3.2.2) and Table 5(a)'s q_0.05 for k = 2..10
DEMSAR_RANKS = [3.143, 2.000, 2.893, 1.964]
DEMSAR_Q05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
DEMSAR_Q10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]


def demsar() -> pd.DataFrame:
    return pd.DataFrame(DEMSAR_AUC, columns=DEMSAR_NAMES, index=[f"data set {i + 1}" for i in range(14)])


def tied_scores(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """Scores on a coarse grid so that many ties occur, with a learner effect."""
    return np.round(rng.normal(size=(n, k)) + np.linspace(0, 1, k), 0) / 2


# --------------------------------------------------------------------------- Friedman vs scipy


@pytest.mark.parametrize("seed", range(8))
def test_friedman_equals_scipy_with_ties(seed):
    rng = np.random.default_rng(seed)
    n, k = rng.integers(3, 40), rng.integers(3, 9)
    x = tied_scores(rng, n, k)
    r = rank_matrix(x)
    assert any(len(np.unique(row)) < k for row in r), "the test data must hold ties"
    res = critical_difference(x)
    ref = stats.friedmanchisquare(*x.T)
    assert res.friedman_chi2 == pytest.approx(ref.statistic, rel=1e-10)
    assert res.friedman_p == pytest.approx(ref.pvalue, rel=1e-8, abs=1e-300)
    # average ranks: scipy's rankdata per task, higher score = rank 1
    expected = np.mean([stats.rankdata(-row) for row in x], axis=0)
    np.testing.assert_allclose(res.average_ranks[[f"learner {j + 1}" for j in range(k)]], expected, rtol=1e-12)
    # Iman-Davenport from its definition
    f = (n - 1) * ref.statistic / (n * (k - 1) - ref.statistic)
    assert res.iman_davenport_f == pytest.approx(f, rel=1e-10)
    assert res.iman_davenport_p == pytest.approx(stats.f.sf(f, k - 1, (k - 1) * (n - 1)), rel=1e-8)


def test_untied_friedman_equals_demsars_formula():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(20, 5))
    res = critical_difference(x)
    assert res.friedman_chi2 == pytest.approx(res.friedman_chi2_uncorrected, rel=1e-12)
    assert res.friedman_chi2 == pytest.approx(stats.friedmanchisquare(*x.T).statistic, rel=1e-10)


# --------------------------------------------------------------------------- Demsar (2006)


def test_demsar_q_alpha_table():
    assert [round(nemenyi_q(k, 0.05), 3) for k in range(2, 11)] == pytest.approx(DEMSAR_Q05, abs=1.01e-3)
    assert [round(nemenyi_q(k, 0.10), 3) for k in range(2, 11)] == pytest.approx(DEMSAR_Q10, abs=1.01e-3)


def test_demsar_example_published_statistics():
    # section 3.2.2: chi2_F = 9.28 and F_F = 3.69 from the paper's average ranks, CD = 1.25
    chi2, p, f, pf = friedman_statistics(DEMSAR_RANKS, 14)
    assert chi2 == pytest.approx(9.28, abs=0.005)
    assert f == pytest.approx(3.69, abs=0.005)
    # "with four algorithms and 14 data sets, F_F is distributed according to the F distribution
    # with 3 and 39 degrees of freedom; the critical value of F(3, 39) for alpha = 0.05 is 2.85"
    assert stats.f.ppf(0.95, 3, 39) == pytest.approx(2.85, abs=0.005)
    assert pf < 0.05
    res = critical_difference(demsar())
    assert res.cd == pytest.approx(1.25, abs=0.005)
    assert res.q_alpha == pytest.approx(2.569, abs=5e-4)


def test_demsar_example_from_the_table():
    res = critical_difference(demsar())
    ranks = res.average_ranks
    # the first two variants' average ranks are the paper's; the table's values give the last two
    # half a rank over 14 data sets apart from the printed ones (one row's ranks of the paper
    # differ from its AUCs), the rank sum is the same
    assert ranks["C4.5"] == pytest.approx(DEMSAR_RANKS[0], abs=5e-4)
    assert ranks["C4.5+m"] == pytest.approx(DEMSAR_RANKS[1], abs=5e-4)
    assert ranks["C4.5+cf"] == pytest.approx(DEMSAR_RANKS[2] + 0.5 / 14, abs=5e-4)
    assert ranks["C4.5+m+cf"] == pytest.approx(DEMSAR_RANKS[3] - 0.5 / 14, abs=5e-4)
    assert res.friedman_chi2 == pytest.approx(stats.friedmanchisquare(*DEMSAR_AUC.T).statistic, rel=1e-10)
    assert res.n_tasks == 14 and res.n_learners == 4
    # "even the difference between the best and the worst is smaller than CD": one clique at 0.05
    assert res.cliques == (("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"),)
    assert not res.pairs["nemenyi_differ"].any()


def test_demsar_example_at_alpha_010():
    # Figure 1(a): at alpha = 0.10 (CD = 1.12) C4.5 is worse than C4.5+m and C4.5+m+cf; C4.5+cf
    # belongs to both groups
    res = critical_difference(demsar(), alpha=0.10)
    assert res.cd == pytest.approx(1.12, abs=0.005)
    differ = {frozenset((a, b)) for a, b, d in res.pairs[["learner_a", "learner_b", "nemenyi_differ"]].itertuples(index=False) if d}
    assert differ == {frozenset(("C4.5+m", "C4.5")), frozenset(("C4.5+m+cf", "C4.5"))}
    assert res.cliques == (("C4.5+m+cf", "C4.5+m", "C4.5+cf"), ("C4.5+cf", "C4.5"))


# --------------------------------------------------------------------------- post hoc, cliques


def test_wilcoxon_holm_equals_scipy_pairs():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(25, 4)) + np.array([0, 0.2, 0.6, 1.2])
    res = critical_difference(pd.DataFrame(x, columns=list("abcd")), posthoc="wilcoxon")
    p = {}
    for i, j in itertools.combinations(range(4), 2):
        p[frozenset("abcd"[i] + "abcd"[j])] = stats.wilcoxon(x[:, i] - x[:, j]).pvalue
    got = {frozenset((a, b)): q for a, b, q in res.pairs[["learner_a", "learner_b", "wilcoxon_p"]].itertuples(index=False)}
    assert got.keys() == p.keys()
    for key in p:
        assert got[key] == pytest.approx(p[key], rel=1e-10)
    # Holm: sorted p times (m - i), running max, capped at 1
    raw = np.array(list(p.values()))
    order = np.argsort(raw)
    expected = np.minimum(np.maximum.accumulate(raw[order] * (6 - np.arange(6))), 1)
    np.testing.assert_allclose(np.sort(holm(raw)), np.sort(expected))
    assert res.posthoc == "wilcoxon"
    # the best and the worst differ with 25 tasks and a 1.2 sd gap
    assert res.pairs.set_index(["learner_a", "learner_b"]).loc[("d", "a"), "wilcoxon_differ"]


def test_cliques_separated_and_tied():
    sep = np.repeat(np.array([[3.0, 2.0, 1.0]]), 40, axis=0)
    assert critical_difference(sep).cliques == ()
    tied = np.ones((5, 3))
    res = critical_difference(tied)
    assert res.cliques == (("learner 1", "learner 2", "learner 3"),)
    assert res.friedman_p == 1.0


def test_nan_drops_the_task_and_says_so():
    df = demsar()
    df.iloc[2, 1] = np.nan
    res = critical_difference(df)
    assert res.dropped_tasks == ("data set 3",)
    assert res.n_tasks == 13
    assert any("Dropped 1 task" in line for line in res.lines())


@pytest.mark.parametrize(
    "scores, match",
    [
        (np.ones((5, 1)), "at least 2 learners"),
        (np.ones((1, 3)), "at least 2 tasks"),
        (np.array([[1.0, np.nan], [np.nan, 2.0], [1.0, 2.0]]), "at least 2 tasks"),
        (np.ones(4), "2-D"),
    ],
)
def test_input_errors(scores, match):
    with pytest.raises(InputError, match=match):
        critical_difference(scores)


def test_bad_posthoc_and_alpha():
    with pytest.raises(InputError, match="post hoc"):
        critical_difference(DEMSAR_AUC, posthoc="tukey")
    with pytest.raises(InputError, match="alpha"):
        critical_difference(DEMSAR_AUC, alpha=5)


def test_scores_matrix_from_long_table():
    long = pd.DataFrame({"task_id": ["t1", "t1", "t2", "t2", "t3"], "model_id": ["a", "b", "a", "b", "a"],
                         "aupr": [0.5, 0.6, 0.7, 0.4, 0.3]})
    m = scores_matrix(long, "aupr")
    assert m.shape == (3, 2) and np.isnan(m.loc["t3", "b"])
    assert critical_difference(m).dropped_tasks == ("t3",)
    with pytest.raises(InputError, match="no column"):
        scores_matrix(long, "auprg")


# --------------------------------------------------------------------------- across metrics


def test_order_test_identical_metrics_never_differ():
    r = rank_matrix(np.random.default_rng(1).normal(size=(30, 6)))
    t = metric_order_test(r, r)
    assert t.statistic == 0 and t.p_value == 1.0 and not t.differs
    assert not t.learners["moves"].any()


def test_order_test_exact_enumeration_small_n():
    rng = np.random.default_rng(2)
    a, b = rank_matrix(rng.normal(size=(8, 4))), rank_matrix(rng.normal(size=(8, 4)))
    t = metric_order_test(a, b)
    assert t.exact and t.n_perm == 2**8
    # by hand: every one of the 256 sign flips
    d = a - b
    ts = [np.sum((np.array(s)[:, None] * d).mean(axis=0) ** 2) for s in itertools.product([-1, 1], repeat=8)]
    assert t.p_value == pytest.approx(np.mean(np.array(ts) >= t.statistic - 1e-12))


def test_order_test_planted_reversal_names_the_learners():
    rng = np.random.default_rng(4)
    base = np.arange(6) / 2 + rng.normal(size=(60, 6))
    a = base + 0.3 * rng.normal(size=base.shape)
    b = base + 0.3 * rng.normal(size=base.shape)
    b[:, [0, 5]] = b[:, [5, 0]]
    t = metric_order_test(pd.DataFrame(rank_matrix(a), columns=list("uvwxyz")),
                          pd.DataFrame(rank_matrix(b), columns=list("uvwxyz")), metric_a="A", metric_b="B")
    assert t.differs and t.p_value < 0.01
    assert set(t.learners.loc[t.learners["moves"], "learner"]) >= {"u", "z"}
    assert t.spearman < 1


@pytest.mark.parametrize("n_tasks, n_learners", [(15, 5), (40, 10)])
def test_order_test_calibrated(n_tasks, n_learners):
    """False rate <= alpha + 2 Monte Carlo SE under exchangeable metrics; power >= 0.8 on a
    planted reversal of the best and the worst learner (quality range 2 task-level sd)."""
    cal = calibrate_order_test(n_tasks, n_learners, n_sim=300, n_perm=400, spread=2.0, seed=11)
    assert cal["false_rate"] <= 0.05 + 2 * cal["false_rate_se"]
    assert cal["power"] >= 0.8


def test_family_codes_missing_family_is_its_own():
    codes = family_codes(["t1", "t2", "t3", "t4", "t5"], {"t1": "yeast", "t2": "glass", "t3": "yeast", "t4": None})
    assert codes.tolist() == [0, 1, 0, 2, 3]
    assert family_codes(["a", "b"], None).tolist() == [0, 1]
    assert family_codes(["a", "b", "c"], ["f", "", "f"]).tolist() == [0, 1, 0]
    with pytest.raises(InputError, match="families for"):
        family_codes(["a", "b"], ["f"])


def test_order_test_one_family_per_task_is_the_per_task_test():
    rng = np.random.default_rng(5)
    a, b = rank_matrix(rng.normal(size=(40, 6))), rank_matrix(rng.normal(size=(40, 6)))
    plain = metric_order_test(a, b, n_perm=300, seed=3)
    own = metric_order_test(a, b, n_perm=300, seed=3, families=[f"f{i}" for i in range(40)])
    assert plain.p_value == own.p_value and plain.n_families == own.n_families == 40
    pd.testing.assert_frame_equal(plain.learners, own.learners)


def test_order_test_flips_whole_families_exactly():
    """All 2^G flips of G = 5 families (tasks of a family flip together), enumerated by hand."""
    rng = np.random.default_rng(6)
    a, b = rank_matrix(rng.normal(size=(14, 4))), rank_matrix(rng.normal(size=(14, 4)))
    fam = ["f0", "f0", "f0", "f1", "f2", "f2", "f3", "f3", "f3", "f3", "f4", "f4", "f0", "f1"]
    t = metric_order_test(a, b, families=fam)
    assert t.exact and t.n_perm == 2**5 and t.n_families == 5
    d, g = a - b, np.array([int(f[1]) for f in fam])
    ts = [np.sum((np.array(s)[g][:, None] * d).mean(axis=0) ** 2) for s in itertools.product([-1, 1], repeat=5)]
    assert t.statistic == pytest.approx(np.sum(d.mean(axis=0) ** 2))
    assert t.p_value == pytest.approx(np.mean(np.array(ts) >= t.statistic - 1e-12))
    # per learner: Wilcoxon of the family means (scipy on the 5 values)
    fm = np.array([d[g == k].mean(axis=0) for k in range(5)])
    want = [stats.wilcoxon(fm[:, j]).pvalue if np.any(fm[:, j] != 0) else 1.0 for j in range(4)]
    np.testing.assert_allclose(t.learners["wilcoxon_p"], want)


def _family_null(rng, n_fam, per_fam, k, corr):
    """Exchangeable metrics whose noise is shared by the tasks of a family (correlation ``corr``)."""
    n = n_fam * per_fam
    g = np.repeat(np.arange(n_fam), per_fam)
    base = np.arange(k) / k + rng.normal(size=(n, k))
    noise = [np.sqrt(corr) * rng.normal(size=(n_fam, k))[g] + np.sqrt(1 - corr) * rng.normal(size=(n, k))
             for _ in range(2)]
    return rank_matrix(base + noise[0]), rank_matrix(base + noise[1]), g


def test_family_flips_hold_the_level_where_task_flips_do_not():
    """Tasks correlated 0.9 within 8 families of 6: flipping per family keeps the false rate at
    alpha (+ 2 Monte Carlo SE); flipping per task, on the same data, rejects far more often."""
    rng = np.random.default_rng(12)
    n_sim, rej_fam, rej_task = 300, 0, 0
    for s in range(n_sim):
        a, b, g = _family_null(rng, 8, 6, 5, 0.9)
        # the p-value path of metric_order_test (its per-learner Wilcoxon tests are not needed here)
        rej_fam += _order_p(a - b, 200, np.random.default_rng(s), family_codes(range(48), g))[1] < 0.05
        rej_task += _order_p(a - b, 200, np.random.default_rng(s))[1] < 0.05
    assert metric_order_test(a, b, families=g, n_perm=200, seed=n_sim - 1).p_value == pytest.approx(
        _order_p(a - b, 200, np.random.default_rng(n_sim - 1), family_codes(range(48), g))[1])
    se = np.sqrt(0.05 * 0.95 / n_sim)
    assert rej_fam / n_sim <= 0.05 + 2 * se
    assert rej_task / n_sim > 0.2


def test_order_test_calibrated_with_families():
    """calibrate_order_test with a study-like family structure (a family of 10, one of 6, pairs,
    singletons) and strongly correlated tasks: false rate <= alpha + 2 SE, power >= 0.8."""
    fam = [0] * 10 + [1] * 6 + [2, 2, 3, 3, 4, 4] + list(range(5, 23))
    cal = calibrate_order_test(len(fam), 8, n_sim=300, n_perm=300, families=fam, family_corr=0.8, seed=4)
    assert cal["n_families"] == 23 and cal["family_corr"] == 0.8
    assert cal["false_rate"] <= 0.05 + 2 * cal["false_rate_se"]
    assert cal["power"] >= 0.8
    with pytest.raises(InputError, match="family_corr"):
        calibrate_order_test(10, 4, n_sim=1, family_corr=1.0)


# --------------------------------------------------------------------------- study tables, CLI, figure


def _metrics_table(n_tasks: int = 12, n_learners: int = 6, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(n_tasks):
        q = np.linspace(0.5, 0.9, n_learners) + 0.05 * rng.normal(size=n_learners)
        for j in range(n_learners):
            rows.append({"task_id": f"t{t:02d}", "model_id": f"m{j}", "aupr": q[j], "auprg": q[j] + 0.02 * rng.normal(),
                         "auroc": q[::-1][j], "aucnpr": q[j]})
    return pd.DataFrame(rows)


def test_study_tables_columns_and_consistency():
    got = study_tables(_metrics_table(), ["aupr", "auprg", "auroc"], n_sim=20, n_perm=200)
    assert set(got) == {"cd_ranks", "cd_cliques", "cd_tests", "cd_metric_pairs"}
    ranks, tests, pairs = got["cd_ranks"], got["cd_tests"], got["cd_metric_pairs"]
    assert list(tests["metric"]) == ["aupr", "auprg", "auroc"]
    for m in ("aupr", "auroc"):
        r = critical_difference(scores_matrix(_metrics_table(), m))
        sub = ranks[ranks["metric"] == m]
        np.testing.assert_allclose(sub["average_rank"], r.average_ranks.to_numpy())
        assert tests.set_index("metric").loc[m, "critical_difference"] == pytest.approx(r.cd)
    p = pairs.set_index(["metric_a", "metric_b"])
    # AUROC reverses the order here by construction; AUPRG (AUPR plus small noise) keeps it
    assert p.loc[("aupr", "auroc"), "differs"] and p.loc[("aupr", "auroc"), "p_value"] < 0.01
    assert not p.loc[("aupr", "auprg"), "differs"]
    assert {"false_rate", "power_planted_reversal", "power_scenario", "n_families"} <= set(pairs.columns)
    assert (pairs["n_families"] == 12).all()


def test_study_tables_flip_per_family():
    table = _metrics_table()
    fam = {f"t{t:02d}": f"f{t // 4}" for t in range(12)}  # 3 families of 4 tasks
    got = study_tables(table, ["aupr", "auroc"], n_sim=20, n_perm=200, families=fam)["cd_metric_pairs"].iloc[0]
    assert got["n_families"] == 3 and got["n_tasks"] == 12 and bool(got["exact"]) and got["n_perm"] == 2**3
    # 8 sign patterns, the observed one is the largest: p = 2/8 (it and its mirror)
    assert got["p_value"] == pytest.approx(2 / 8)
    assert "per family" in got["power_scenario"]


def test_cd_step_then_figure(tmp_path):
    from prspace.cli import main

    _metrics_table().to_csv(tmp_path / "metrics.csv", index=False)
    out = tmp_path / "tables"
    step = ["step", "cd", "--in", f"metrics={tmp_path / 'metrics.csv'}", "--set", "seed=0"]
    assert main([*step, "--set", 'study="s"', "--set", "n_sim=10", "--set", "n_perm=100",
                 "--tables-dir", str(out)]) == 0
    for name in ("cd_ranks", "cd_cliques", "cd_tests", "cd_metric_pairs"):
        assert (out / f"{name}.csv").is_file() and "(study s)" in (out / f"{name}.md").read_text()
    pd.DataFrame({"task_id": [f"t{t:02d}" for t in range(12)], "family": ["f0"] * 6 + [""] * 6}).to_csv(
        tmp_path / "tasks.csv", index=False)
    tasks = ["--in", f"tasks={tmp_path / 'tasks.csv'}", "--set", 'study=""']
    assert main([*step, *tasks, "--set", "n_sim=5", "--set", "n_perm=100", "--tables-dir", str(tmp_path / "fam")]) == 0
    assert (pd.read_csv(tmp_path / "fam" / "cd_metric_pairs.csv")["n_families"] == 7).all()
    assert main([*step, *tasks, "--set", "family_corr=1", "--tables-dir", str(out)]) == 2
    assert main(["figure", "cd_diagram", "--tables", *[str(out / f"{n}.csv") for n in ("cd_ranks", "cd_cliques", "cd_tests")],
                 "--out", str(tmp_path / "cd.png"), "--formats", "png"]) == 0
    assert (tmp_path / "cd.png").read_bytes()[:4] == b"\x89PNG"
    # a metric the table lacks: one line, exit 2
    assert main([*step, *tasks, "--set", 'metrics=["aupr", "nope"]', "--tables-dir", str(out)]) == 2


# --------------------------------------------------------------------------- the audit


def _audit_frame(n_tasks: int, models=("a", "b", "c", "d"), n: int = 150, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(n_tasks):
        y = rng.random(n) < 0.3
        for j, m in enumerate(models):
            s = y * (0.4 + 0.4 * j) + rng.normal(size=n)
            rows.append(pd.DataFrame({"task": f"task{t}", "model": m, "label": y.astype(int), "score": s, "row": np.arange(n)}))
    return pd.concat(rows, ignore_index=True)


def test_audit_draws_cd_diagrams_with_two_tasks_of_the_same_models(tmp_path):
    from prspace.audit import audit
    from prspace.audit.audit_files import write_outputs

    res = audit(_audit_frame(4), task_col="task", model_col="model", label_col="label", score_col="score", n_boot=50)
    assert res.cd is not None
    tests = res.cd["cd_tests"].set_index("metric")
    assert list(tests.index) == ["aupr", "auprg", "auroc", "aucnpr"] and (tests["n_tasks"] == 4).all()
    # the audit's tables are prspace.stats.cd on its pooled metrics
    direct = critical_difference(scores_matrix(res.pooled, "auroc", task="task", learner="model"))
    assert tests.loc["auroc", "friedman_chi2"] == pytest.approx(direct.friedman_chi2)
    # the figures, the Markdown and the HTML report as write_outputs renders them: res.figures(), res.to_markdown()
    # and res.to_html() each drawn once (calling them here as well drew every figure three times)
    written = {p.name for p in write_outputs(res, tmp_path, source="x")}
    assert {"cd_ranks.csv", "cd_tests.csv", "cd_metric_pairs.csv", "cd_cliques.csv", "cd_diagram.png"} <= written
    assert (tmp_path / "cd_diagram.png").read_bytes()[:4] == b"\x89PNG"
    md = (tmp_path / "report.md").read_text()
    assert "Across tasks: critical-difference analysis" in md and "Friedman p" in md and "(cd_diagram.png)" in md
    assert "critical-difference" in (tmp_path / "report.html").read_text()


def test_audit_without_shared_models_has_no_cd():
    from prspace.audit import audit

    one = audit(_audit_frame(1), task_col="task", model_col="model", label_col="label", score_col="score", n_boot=0)
    assert one.cd is None and "cd_diagram" not in one.figures()
    frame = _audit_frame(2)
    frame = frame[~((frame["task"] == "task1") & (frame["model"] == "d"))]
    other = audit(frame, task_col="task", model_col="model", label_col="label", score_col="score", n_boot=0)
    assert other.cd is None


def test_a_study_whose_tasks_share_no_learner_gets_tables_that_say_why_and_a_figure_in_words():
    """An OpenML study: every task has its own runs, so no learner is scored on two tasks; the
    study's cd job must not fail: empty ranks, one cd_tests row per metric whose note says why."""
    from prspace.experiments.ranking.cd_tables import study_tables
    from prspace.figures.cd_figure import cd_figure

    rng = np.random.default_rng(0)
    table = pd.DataFrame({"task_id": np.repeat(["t1", "t2", "t3"], 4),
                          "model_id": [f"run-{i}" for i in range(12)],
                          "aupr": rng.random(12), "auroc": rng.random(12)})
    out = study_tables(table, ["aupr", "auroc"], n_sim=0)
    assert out["cd_ranks"].empty and out["cd_cliques"].empty
    assert list(out["cd_tests"]["metric"]) == ["aupr", "auroc"]
    assert out["cd_tests"]["note"].str.startswith("not computed: a critical-difference diagram needs").all()
    assert list(out["cd_metric_pairs"][["metric_a", "metric_b"]].iloc[0]) == ["aupr", "auroc"]
    fig = cd_figure(out["cd_ranks"], out["cd_cliques"], out["cd_tests"])
    assert "not drawn" in fig.texts[0].get_text() and "not computed" in fig.texts[0].get_text()
